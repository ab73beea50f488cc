// The WebSocket (PROTOCOL.md §2): hello with the token, message dispatch, reconnect with backoff.

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

/**
 * @typedef {{type: string, [key: string]: any}} Message
 * @typedef {"connecting"|"open"|"waiting"|"closed"} SocketStatus
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
  }

  /** Open the connection (and keep reopening it after drops until stop()). */
  start() {
    this.stopped = false;
    this.#open();
  }

  /** Close the connection for good (log out). */
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.ws?.close(1000);
    this.ws = null;
  }

  /**
   * Send a message; adds "v": 2 and an "id" (returned, echoed by the server as "ref").
   * @param {string} type
   * @param {Record<string, any>} [fields]
   * @returns {string|null} the id, or null when the socket is not open
   */
  send(type, fields = {}) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = `c${this.nextId++}`;
    this.ws.send(JSON.stringify({ v: 2, type, id, ...fields }));
    return id;
  }

  #open() {
    clearTimeout(this.retryTimer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    this.handlers.onStatus("connecting");
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ v: 2, type: "hello", token: this.token() ?? "" }));
    });
    ws.addEventListener("message", (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === "welcome") {
        this.attempt = 0;
        this.wasOpen = true;
        this.handlers.onStatus("open");
      }
      this.handlers.onMessage(msg);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      // 4001: another window took over; 4005: the account is banned (the `banned` error said why).
      if (this.stopped || event.code === 4001 || event.code === 4005) {
        this.handlers.onStatus("closed");
        return;
      }
      // 1012: the server restarts (after `server_restarting`); it is back soon, so retry from the shortest wait.
      if (event.code === 1012) this.attempt = 0;
      const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      this.handlers.onStatus("waiting", delay);
      this.retryTimer = setTimeout(() => this.#open(), delay);
    });
  }
}
