// The WebSocket (PROTOCOL.md §2): hello with the token, message dispatch, reconnect with backoff, a move to the
// node that runs my table when the server names it (`table_node`, PROTOCOL.md §3), and a watch for a server that
// stopped answering without closing the connection (a node frozen or cut off: its socket stays open for minutes).

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];
/** Moves to another node at most this many times within HOP_WINDOW_MS: a table that keeps moving, or a wrong hint,
 * never keeps the page moving (it stays where it is and its messages go through the servers' bus). */
const MAX_HOPS = 3;
const HOP_WINDOW_MS = 60_000;
/** A move waits this long at most for the answers to requests already sent (so none is in flight as it moves). */
const QUIET_MS = 2000;
/** Requests made while a move is under way wait for the new connection; after this long they go on the old one. */
const HOLD_MS = 5000;
/** A connection quiet this long is asked `ping`; unanswered for ANSWER_MS, it is given up and the page reconnects
 * (through the proxy: the node may be the one that froze). One not welcomed within WELCOME_MS is given up too. */
const PING_MS = 5000;
const ANSWER_MS = 7000;
const WELCOME_MS = 10_000;
/** How often the watch looks (a background tab may look less often: only an unanswered ping counts as silence). */
const WATCH_MS = 1000;

/**
 * @typedef {{type: string, [key: string]: any}} Message
 * @typedef {"connecting"|"open"|"waiting"|"closed"} SocketStatus
 * @typedef {{node: string, ws: WebSocket|null, held: [string, string][]|null, timer: ReturnType<typeof setTimeout>|undefined}} Hop
 *   a move to another node: its connection once opened, and the requests held until it is welcomed (null: released)
 */

export class Socket {
  /**
   * @param {() => string|null} token gives the current session token
   * @param {{onMessage: (msg: Message) => void, onStatus: (status: SocketStatus, retryMs?: number) => void}} handlers
   */
  constructor(token, handlers) {
    this.token = token;
    this.handlers = handlers;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.attempt = 0;
    /** whether a `welcome` ever came: after that, every retry is a reconnect */
    this.wasOpen = false;
    this.stopped = true;
    this.nextId = 1;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.retryTimer = undefined;
    /** @type {string|null} the node to connect to (`/ws?node=`): the one that runs my table, as the server said */
    this.node = null;
    /** @type {Hop|null} a move to another node under way */
    this.hop = null;
    /** @type {Set<string>} ids of the requests sent on this connection and not answered yet */
    this.unanswered = new Set();
    /** @type {number[]} when the recent moves to another node began (ms) */
    this.hops = [];
    /** @type {WeakSet<WebSocket>} the connections that were welcomed */
    this.welcomed = new WeakSet();
    /** when the connection was opened, when it last brought a message, when a `ping` went unanswered since (0: none) */
    this.openedAt = 0;
    this.heard = 0;
    this.pingedAt = 0;
    /** @type {ReturnType<typeof setInterval>|undefined} */
    this.watchTimer = undefined;
  }

  /** Open the connection (and keep reopening it after drops until stop()). */
  start() {
    this.stopped = false;
    clearInterval(this.watchTimer);
    this.watchTimer = setInterval(() => this.#watch(), WATCH_MS);
    this.#open();
  }

  /** Close the connection for good (log out). */
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.watchTimer);
    this.#dropHop();
    this.ws?.close(1000);
    this.ws = null;
    this.node = null;
    this.hops = [];
  }

  /**
   * Send a message; adds "v": 2 and an "id" (returned, echoed by the server as "ref"). While the page moves to
   * another node it is held, and sent on the new connection once that is welcomed.
   * @param {string} type
   * @param {Record<string, any>} [fields]
   * @returns {string|null} the id, or null when the socket is not open
   */
  send(type, fields = {}) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = `c${this.nextId++}`;
    const frame = JSON.stringify({ v: 2, type, id, ...fields });
    if (this.hop?.held) this.hop.held.push([id, frame]);
    else this.#write(this.ws, id, frame);
    return id;
  }

  /**
   * @param {WebSocket} ws
   * @param {string} id
   * @param {string} frame
   */
  #write(ws, id, frame) {
    ws.send(frame);
    this.unanswered.add(id);
  }

  /** @param {string|null} node */
  #url(node) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws${node ? `?node=${encodeURIComponent(node)}` : ""}`;
  }

  #open() {
    clearTimeout(this.retryTimer);
    this.ws = this.#connect(this.node);
    this.unanswered.clear();
    this.#heard();
    this.openedAt = this.heard;
    this.handlers.onStatus("connecting");
  }

  #heard() {
    this.heard = Date.now();
    this.pingedAt = 0;
  }

  /** Ask a quiet connection whether the server is there; give up one that does not answer, or was never welcomed. */
  #watch() {
    const ws = this.ws;
    if (!ws || this.stopped) return;
    const now = Date.now();
    if (!this.welcomed.has(ws)) {
      if (now - this.openedAt >= WELCOME_MS) this.#silent(ws);
    } else if (this.pingedAt) {
      if (now - this.pingedAt >= ANSWER_MS) this.#silent(ws);
    } else if (now - this.heard >= PING_MS && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify({ v: 2, type: "ping" }));
      this.pingedAt = now;
    }
  }

  /**
   * The server stopped answering on `ws` but the connection is still open: leave it (its close may take minutes)
   * and reconnect as after a drop, wherever the proxy sends me (the node I was on may be the one that froze).
   * @param {WebSocket} ws
   */
  #silent(ws) {
    this.ws = null;
    this.node = null;
    this.#dropHop();
    ws.close(1000);
    this.#retry(1006);
  }

  /**
   * A connection to `node` (null: wherever the proxy puts it) that says hello.
   * @param {string|null} node
   */
  #connect(node) {
    const ws = new WebSocket(this.#url(node));
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ v: 2, type: "hello", token: this.token() ?? "" }));
    });
    ws.addEventListener("message", (event) => this.#received(ws, JSON.parse(event.data)));
    ws.addEventListener("close", (event) => this.#closed(ws, event.code));
    return ws;
  }

  /**
   * @param {WebSocket} ws
   * @param {Message} msg
   */
  #received(ws, msg) {
    if (this.hop?.ws === ws) {
      // The new node's first word: welcome, and it is my connection from now on; anything else, and I stay.
      if (msg.type !== "welcome") {
        this.#dropHop();
        return;
      }
      this.#arrived(ws);
    }
    if (this.ws !== ws) return; // the connection a move left behind: the new one has everything from now on
    this.#heard();
    if (msg.type === "pong") return;
    if (msg.type === "welcome") {
      this.welcomed.add(ws);
      this.attempt = 0;
      this.wasOpen = true;
      this.handlers.onStatus("open");
    }
    if (msg.ref !== undefined && this.unanswered.delete(msg.ref) && this.hop && !this.unanswered.size) {
      this.#hopNow();
    }
    if (msg.type === "table_node") this.#moveTo(msg.node);
    this.handlers.onMessage(msg);
  }

  /**
   * @param {WebSocket} ws
   * @param {number} code
   */
  #closed(ws, code) {
    if (this.hop?.ws === ws) {
      this.#dropHop();
      if (this.ws === null) this.#retry(code);
      return;
    }
    if (this.ws !== ws) return;
    this.ws = null;
    // Not even welcomed there: the node named may be gone, so the next try goes wherever the proxy sends it.
    if (!this.welcomed.has(ws)) this.node = null;
    const hop = this.hop;
    if (hop) {
      // The connection went while I was moving (the new node closes it once my seat is there): the move decides.
      if (!hop.ws) this.#hopNow();
      return;
    }
    this.#retry(code);
  }

  /** @param {number} code why the connection closed */
  #retry(code) {
    // 4001: another window took over; 4005: the account is banned (the `banned` error said why).
    if (this.stopped || code === 4001 || code === 4005) {
      this.handlers.onStatus("closed");
      return;
    }
    // 1012: the server restarts (after `server_restarting`); it is back soon, so retry from the shortest wait.
    if (code === 1012) this.attempt = 0;
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.handlers.onStatus("waiting", delay);
    this.retryTimer = setTimeout(() => this.#open(), delay);
  }

  /**
   * The server says my table runs on `node`: connect there (unless I moved too often lately), once the requests
   * sent are answered. The connection I leave stays mine until the new one is welcomed.
   * @param {string} node
   */
  #moveTo(node) {
    const now = Date.now();
    this.hops = this.hops.filter((at) => now - at < HOP_WINDOW_MS);
    if (this.hop || this.stopped || typeof node !== "string" || !node || this.hops.length >= MAX_HOPS) return;
    this.hops.push(now);
    this.hop = { node, ws: null, held: [], timer: setTimeout(() => this.#hopNow(), QUIET_MS) };
    if (!this.unanswered.size) this.#hopNow();
  }

  /** Open the move's connection (every request sent so far was answered, or waited for long enough). */
  #hopNow() {
    const hop = this.hop;
    if (!hop || hop.ws) return;
    clearTimeout(hop.timer);
    hop.ws = this.#connect(hop.node);
    hop.timer = setTimeout(() => this.#release(), HOLD_MS);
  }

  /** The move takes long: the requests held go on the connection I have (the move may still finish). */
  #release() {
    const hop = this.hop;
    const ws = this.ws;
    if (!hop?.held || ws?.readyState !== WebSocket.OPEN) return;
    const held = hop.held;
    hop.held = null;
    for (const [id, frame] of held) this.#write(ws, id, frame);
  }

  /**
   * The new node welcomed me: its connection is mine, and the requests held go on it. The one I leave is closed by
   * the server once my seat is attached to the new one (closing it first would hand my seat to 託管 meanwhile).
   * @param {WebSocket} ws
   */
  #arrived(ws) {
    const hop = /** @type {Hop} */ (this.hop);
    clearTimeout(hop.timer);
    this.hop = null;
    this.node = hop.node;
    this.ws = ws;
    this.unanswered.clear();
    this.#heard();
    // welcome first (the page takes it as a reconnect), then what was held
    queueMicrotask(() => {
      if (this.ws === ws) for (const [id, frame] of hop.held ?? []) this.#write(ws, id, frame);
    });
  }

  /** Give the move up: its connection is closed, the requests held go on the connection I have. */
  #dropHop() {
    const hop = this.hop;
    if (!hop) return;
    this.#release();
    clearTimeout(hop.timer);
    this.hop = null;
    hop.ws?.close(1000);
  }
}
