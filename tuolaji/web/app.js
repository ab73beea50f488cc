// The client's entry point: screens (auth, lobby, table, history, leaderboard, profile, the moderators'
// console), session, the live connection, invite links, notices, bans and reports.

import { Resender, againText } from "./again.js";
import * as api from "./api.js";
import { openBidHistory } from "./bids.js";
import { bindBotLevel, chosenBot } from "./bots.js";
import { ConsoleView } from "./console.js";
import { Settlements, confirmEscape, confirmWrongFollow } from "./dialogs.js";
import { h, toast } from "./dom.js";
import { describeError } from "./errors.js";
import { LANGUAGES, addStrings, language, onLanguageChange, setLanguage, t, title, translatePage } from "./i18n.js";
import { forgetAddress, inviteFromAddress, openInvite } from "./invite.js";
import { LobbyView, bindWarnFollow, readOptions, warnWrongFollow } from "./lobby.js";
import { NoticeBanner } from "./notice.js";
import { personName, tableName } from "./names.js";
import * as phrases from "./phrases.js";
import { QuickMatchView, pairFromAddress } from "./quick.js";
import { HistoryView } from "./replay.js";
import { openReport } from "./report.js";
import { RulesView } from "./rules.js";
import { Socket } from "./socket.js";
import * as sound from "./sound.js";
import { LeaderboardView, ProfileView } from "./standings.js";
import { StateStream } from "./stream.js";
import { TableView } from "./table.js";
import { isMyMove, seatName, teamName } from "./table_model.js";
import { cardsText } from "./words.js";

addStrings({
  warn_wrong_follow: ["跟错牌先提示我（新手）", "跟錯牌先提示我（新手）", "Warn me before a wrong follow (beginners)"],
  warn_wrong_follow_short: ["跟错先提示", "跟錯先提示", "Warn wrong follows"],
  mode_laogai_warn: ["劳改（先提示）", "勞改（先提示）", "勞改 (with warning)"],
  reconnect_banner: ["连接中断，正在重新连接…", "連線中斷，正在重新連線…", "Connection lost: reconnecting…"],
  restart_banner: ["服务器正在重启，马上重新连接…", "伺服器正在重新啟動，馬上重新連線…", "The server is restarting: reconnecting…"],
  sound_on: ["声音开着：点一下静音", "聲音開著：按一下靜音", "Sound is on: click to mute"],
  sound_off: ["声音关着：点一下打开", "聲音關著：按一下打開", "Sound is off: click to turn it on"],
  sound_mute: ["静音", "靜音", "Mute"],
  sound_unmute: ["开声音", "開聲音", "Sound on"],
  timeout_played: ["超时，已代你出 {cards}（{n}/{m}）", "超時，已代你出 {cards}（{n}/{m}）", "Time ran out: {cards} played for you ({n}/{m})"],
  timeout_autoplay: [
    "连续超时 {m} 次，已为你托管：按「取消托管」就能自己出牌",
    "連續超時 {m} 次，已為你託管：按「取消託管」就能自己出牌",
    "{m} timeouts in a row: auto-play (託管) is on. Press “Stop auto-play” to play yourself",
  ],
  not_sent: ["没有连上服务器：「{what}」没有送出，连上后请再试", "沒有連上伺服器：「{what}」沒有送出，連上後請再試", "Not connected: “{what}” was not sent. Try again once reconnected"],
  lost_in_transit: [
    "连接中断时「{what}」还没有回音：可能没有送到，连上后请看牌桌再试",
    "連線中斷時「{what}」還沒有回音：可能沒有送到，連上後請看牌桌再試",
    "The connection dropped before “{what}” was answered: it may not have arrived. Check the table once reconnected",
  ],
  watch_gone: ["你在看的牌桌已经不在了", "你在看的牌桌已經不在了", "The table you were watching is gone"],
  invite_landing: ["{name} 邀请你加入{table}", "{name} 邀請你加入{table}", "{name} invites you to {table}"],
  invite_landing_anyone: ["有人邀请你加入{table}", "有人邀請你加入{table}", "You are invited to {table}"],
  invite_landing_how: [
    "登录、注册或以游客身份进入，就能入座。",
    "登入、註冊或以訪客身分進入，就能入座。",
    "Log in, register or play as a guest to take a seat.",
  ],
  invite_landing_gone: [
    "这个邀请链接已经失效（牌桌可能已经散了）。",
    "這個邀請連結已經失效（牌桌可能已經散了）。",
    "This invite link no longer works (the table may have closed).",
  ],
  remind_sent: ["已提醒{name}：这一轮的跟牌可能不合规则", "已提醒{name}：這一輪的跟牌可能不合規則", "You reminded {name}: their follow may break the rules"],
  remind_got: ["{name}提醒你：这一轮的跟牌可能不合规则，可以撤牌", "{name}提醒你：這一輪的跟牌可能不合規則，可以撤牌", "{name} reminds you: your follow may break the rules; you can still retract"],
  retracted: ["{name}撤牌 {k} 张，{team}扣 {n} 分", "{name}撤牌 {k} 張，{team}扣 {n} 分", "{name} retracted {k} card(s): {n} points against {team}"],
  laogai_by: ["{name}跟牌错误，{team}被劳改", "{name}跟牌錯誤，{team}被勞改", "{name} followed wrongly: {team} sentenced (勞改)"],
  table_gone: ["你的牌桌已经不在了", "你的牌桌已經不在了", "Your table is gone"],
});

/** @typedef {import("./table_model.js").TableModel} TableModel */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const SCREENS = ["auth-screen", "lobby-screen", "table-screen", "history-screen", "leaderboard-screen", "profile-screen",
  "console-screen"];
/** Screens for reading, which a table's messages do not take the player away from. */
const READING = new Set(["history-screen", "leaderboard-screen", "profile-screen", "console-screen"]);
const CLOCK_TOTALS = { turn: "turn_seconds", bid: "bid_window_seconds", review: "review_seconds" };

const state = {
  /** @type {api.Account|null} */
  account: null,
  /** my role in the moderators' console (welcome.role): "moderator", "admin" or null */
  role: /** @type {string|null} */ (null),
  screen: "",
  /** @type {TableModel} */
  table: { summary: null, seat: null, view: null, clock: null },
  /** the hand number of the last state, and the table as it was when that hand began (for the settlement) */
  hand: -1,
  /** The table's `state` stream: which states to show (PROTOCOL.md §3). */
  stream: new StateStream(),
  /** @type {import("./table_model.js").TableSummary|null} */
  summaryAtStart: null,
  /** @type {[string, string]|null} */
  levelsAtStart: null,
  laogaiConfirm: false,
  /** @type {{id: string|null, cards: string[], confirmed: boolean}|null} */
  pendingPlay: null,
  /** Plays, bids, 不叫 and 託管 refused while the table changed servers, sent again by its next state. */
  resender: new Resender(),
  /** @type {string|null} the code of an invite link opened and not yet used (PROTOCOL.md §2.6) */
  invite: inviteFromAddress(),
  /** @type {string|null} the partner code of a friend's quick-match link not yet used (PROTOCOL.md §2.8) */
  pair: pairFromAddress(),
  /** whether the socket said welcome (messages other than hello may go) */
  welcomed: false,
  /** @type {{points: number, silver: number}|null} what leaving now would cost me (R43; `state.escape_cost`) */
  escapeCost: null,
  /** @type {Map<string, string>} my table requests not answered yet: id → the i18n key of what it was */
  pending: new Map(),
  /** @type {{count: number, limit: number, autoplay: boolean}|null} my turn timed out; the play for me is coming */
  timedOut: null,
};

/** The table I watch (sessionStorage, so a reload or a restarted server brings me back to it). */
const WATCHING_KEY = "tuolaji.watching";

const socket = new Socket(api.savedToken, { onMessage, onStatus });
const rules = new RulesView(/** @type {HTMLDialogElement} */ ($("rules-dialog")));
/** Set by `server_restarting` until the next `welcome`: the banner says the server restarts. */
let restarting = false;
const lobby = new LobbyView($("table-list"), {
  join: (table, seat) => socket.send("join", { table, seat }),
  watch: (table) => socket.send("watch", { table }),
});
const quick = new QuickMatchView(
  { panel: $("quick-panel"), counts: $("queue-counts"), dialog: /** @type {HTMLDialogElement} */ ($("quick-dialog")) },
  (type, fields) => socket.send(type, fields),
);
const tableView = new TableView($("table-screen"), {
  bid: (suit, count) => sendRequest({ type: "bid", suit, count }),
  pass: () => sendRequest({ type: "pass" }),
  play: (cards) => sendRequest({ type: "play", cards, confirmed: false }),
  remind: () => sendTable("remind", {}, "remind"),
  retract: () => sendTable("retract", {}, "retract"),
  autoplay: (on) => sendRequest({ type: "autoplay", on }),
  leave: () => leaveTable(),
  start: () => sendTable("start", {}, "start"),
  addBot: (seat) => sendTable("add_bot", { seat, bot: chosenBot() }, "add_bot"),
  join: (seat) => state.table.summary && sendTable("join", { table: state.table.summary.id, seat }, "sit"),
  invite: () => openTableInvite(),
  phrases: () => openPhrases(),
  bids: () => openBidHistory(/** @type {HTMLDialogElement} */ ($("bids-dialog")), state.table.view?.bids ?? [],
    (seat) => tableView.seatName(seat)),
});
const backHome = () => show(state.table.summary ? "table-screen" : "lobby-screen");
const history = new HistoryView($("history-screen"), { back: backHome });
const leaderboard = new LeaderboardView($("leaderboard-screen"), {
  back: backHome,
  profile: (id) => openProfile(id, "leaderboard-screen"),
});
const noticeBanner = new NoticeBanner($("notice"));
const settlements = new Settlements(/** @type {HTMLDialogElement} */ ($("settle-dialog")));
const consoleView = new ConsoleView($("console-screen"), {
  back: backHome,
  watch: (table, invite) => {
    socket.send("watch", invite ? { table, invite } : { table });
    show("table-screen");
  },
  replay: (handId, back) => {
    show("history-screen");
    history.openReplay({ id: handId, seat: 0 }, () => { show("console-screen"); back(); },
      (id) => api.consoleCall(`hands/${id}`)).catch(failed);
  },
  failed: (error) => failed(error),
  role: () => state.role,
});
/** The screen a profile's back button returns to. */
let profileBack = "lobby-screen";
const profileView = new ProfileView($("profile-screen"), {
  back: () => (profileBack === "leaderboard-screen" ? show(profileBack) : backHome()),
  replay: (hand) => {
    show("history-screen");
    history.openReplay(hand, () => show("profile-screen")).catch(failed);
  },
});

/**
 * Say something briefly: at the table in its status line (never over the buttons), elsewhere as a toast.
 * @param {string} text
 * @param {"info"|"error"} [kind]
 */
function say(text, kind = "info") {
  if (state.screen === "table-screen") tableView.notice(text, kind);
  else toast(text, kind);
}

/** @param {unknown} error an HTTP refusal or a network failure: said in the reader's language */
function failed(error) {
  toast(httpErrorText(error), "error");
}

/**
 * Send a request to my table. Nothing is dropped silently: when the socket is not open it is not sent and the
 * page says so; once sent, it is remembered until answered, so a connection that drops first is said too.
 * @param {string} type
 * @param {Record<string, any>} fields
 * @param {string} what the i18n key of what it does ("play", "bid_short"…), for those notices
 * @param {import("./again.js").Again|null} [again] the request, when the page sends it again after a table's move
 * @returns {string|null} the message id, or null when it was not sent
 */
function sendTable(type, fields, what, again = null) {
  const id = socket.send(type, fields);
  if (id === null) tableView.notice(t("not_sent", { what: t(what) }), "error");
  else {
    state.pending.set(id, what);
    if (again) state.resender.sent(id, again);
  }
  return id;
}

/** 離開: between hands (or watching) at once; during a hand it is an escape (R43), so it asks first with its cost. */
function leaveTable() {
  const { seat, view, summary } = state.table;
  const inHand = seat !== null && summary?.state === "playing" && view !== null && view.phase !== "finished";
  if (inHand) askEscape(state.escapeCost);
  else sendTable("leave", { escape: false }, "leave");
}

/** @param {{points: number|null, silver: number|null}|null} cost what the escape costs (null: not known) */
async function askEscape(cost) {
  if (await confirmEscape(/** @type {HTMLDialogElement} */ ($("confirm-dialog")), cost)) {
    sendTable("leave", { escape: true }, "leave");
  }
}

/** @param {{table: string, invite: string|null}|null} watching the table I watch now (null: none) */
function rememberWatching(watching) {
  if (watching) sessionStorage.setItem(WATCHING_KEY, JSON.stringify(watching));
  else sessionStorage.removeItem(WATCHING_KEY);
}

/** @returns {{table: string, invite: string|null}|null} the table I watched before a reload or a lost connection */
function watchedTable() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(WATCHING_KEY) ?? "null");
    return saved && typeof saved.table === "string" ? saved : null;
  } catch {
    return null;
  }
}

/**
 * @param {number} accountId
 * @param {string} from the screen to go back to
 */
function openProfile(accountId, from) {
  profileBack = from;
  profileView.open(accountId).then(() => show("profile-screen"), failed);
}

function openLeaderboard() {
  leaderboard.open(leaderboard.board, 1).then(() => show("leaderboard-screen"), failed);
}

/** The invite link of my private table (and, for its creator, "list it in the lobby"). */
function openTableInvite() {
  const summary = state.table.summary;
  if (!summary?.invite) return;
  const creator = summary.creator === state.account?.id && state.table.seat !== null;
  openInvite(/** @type {HTMLDialogElement} */ ($("invite-dialog")), {
    code: summary.invite, creator, publish: () => socket.send("make_public"), copied: () => say(t("invite_copied")),
  });
}

/** The quick phrases (seated people say them) and a mute switch for each other person at the table. */
function openPhrases() {
  const { summary, seat } = state.table;
  const others = (summary?.seats ?? [])
    .filter((info) => info.kind === "human" && info.account && info.account.id !== state.account?.id)
    .map((info) => ({ account: /** @type {{id: number}} */ (info.account).id, name: seatName(info) }));
  phrases.openPhraseMenu(/** @type {HTMLDialogElement} */ ($("phrase-dialog")), {
    seated: seat !== null, others, say: (phrase) => socket.send("phrase", { phrase }),
  });
}

/** An invite link was opened (now or before signing in): watch its table, where the seats are. */
function useInvite() {
  const code = state.invite;
  if (!code || !state.welcomed) return;
  state.invite = null;
  forgetAddress();
  socket.send("watch", { invite: code });
}

/** A friend's quick-match link was opened (now or before signing in): queue with them as partners. */
function usePair() {
  const code = state.pair;
  if (!code || !state.welcomed) return;
  state.pair = null;
  forgetAddress();
  quick.joinPartner(code);
}

/** @param {string} screen */
function show(screen) {
  state.screen = screen;
  for (const id of SCREENS) $(id).hidden = id !== screen;
  socket.send("lobby", { on: screen === "lobby-screen" });
}

function renderMe() {
  const me = $("me");
  const account = state.account;
  me.hidden = !account;
  $("logout").hidden = !account;
  $("history-open").hidden = !account;
  $("console-open").hidden = !account || !state.role;
  if (!account) return;
  me.replaceChildren(
    h("span.nick", { id: "me-nick" }, personName(account.nickname)),
    h("span.stat", { id: "me-points" }, `${t("score_points")} `, h("b", {}, String(account.points)), h("span.title", {}, ` ${title(account.rank.title)}`)),
    h("span.stat", { id: "me-silver" }, `${t("silver")} `, h("b", {}, String(account.silver)), h("span.title", {}, ` ${title(account.wealth.title)}`)),
  );
}

/**
 * @param {import("./socket.js").SocketStatus} status
 * @param {number} [retryMs]
 */
function onStatus(status, retryMs) {
  const conn = $("conn");
  conn.hidden = status === "open";
  if (status === "connecting") conn.textContent = t("connecting");
  if (status === "waiting") conn.textContent = t("reconnecting", { s: Math.round((retryMs ?? 0) / 1000) });
  if (status === "closed") conn.textContent = t("error");
  if (status === "open") restarting = false;
  else state.welcomed = false;
  document.body.dataset.conn = status;
  if (status !== "open" && state.pending.size) {
    // Sent but not answered when the connection went: it may not have arrived. Say so rather than guess.
    const what = [...new Set(state.pending.values())].map((key) => t(key)).join("、");
    state.pending.clear();
    tableView.notice(t("lost_in_transit", { what }), "error", 8000);
  }
  tableView.setOnline(status === "open");
  renderReconnect();
}

/** The banner shown while the socket retries after having been open (or the server said it restarts). */
function renderReconnect() {
  const banner = $("reconnect");
  const status = document.body.dataset.conn;
  const retrying = socket.wasOpen && (status === "connecting" || status === "waiting");
  banner.hidden = !(retrying || restarting);
  banner.textContent = t(restarting ? "restart_banner" : "reconnect_banner");
  // The strip says it all: the top bar's own word on the connection would only crowd it.
  if (!banner.hidden) $("conn").hidden = true;
}

/** @param {import("./socket.js").Message} msg */
function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      onWelcome(msg);
      break;
    case "server_restarting":
      restarting = true;
      renderReconnect();
      break;
    case "ack":
      state.pending.delete(msg.ref);
      state.resender.answered(msg.ref, null);
      break;
    case "table":
      onTable(msg);
      break;
    case "state":
      onState(msg);
      break;
    case "hand_end":
      onHandEnd(msg);
      break;
    case "account":
      state.account = msg.account;
      renderMe();
      break;
    case "notice":
      noticeBanner.show(/** @type {any} */ (msg));
      break;
    case "phrase":
      if (phrases.received(msg) && msg.table_id === state.table.summary?.id) tableView.showPhrase(msg.seat, msg.phrase);
      break;
    case "left":
      onLeft(msg);
      break;
    case "error":
      onError(msg);
      break;
    default:
      onLobbyMessage(msg);
      break;
  }
}

/** @param {import("./socket.js").Message} msg the lobby's list of tables, or the quick match's news */
function onLobbyMessage(msg) {
  switch (msg.type) {
    case "lobby":
      lobby.setAll(msg.tables);
      break;
    case "lobby_table":
      lobby.upsert(msg.table);
      break;
    case "lobby_table_removed":
      lobby.remove(msg.table_id);
      break;
    case "lobby_queues":
      quick.onQueues(msg.queues);
      break;
    case "match_status":
      quick.onStatus(msg.queue);
      break;
    case "match_found":
      quick.onFound(msg);
      break;
    case "match_cancelled":
      quick.onCancelled(msg.reason);
      break;
    default:
      break;
  }
}

/** @param {import("./socket.js").Message} msg a `welcome` message: who I am, and the table I am at (if any) */
function onWelcome(msg) {
  state.account = msg.account;
  state.role = msg.role ?? null;
  $("ban-note").hidden = true;
  state.laogaiConfirm = msg.laogai_confirm === true;
  state.pendingPlay = null;
  state.resender.forget();
  state.welcomed = true;
  renderMe();
  if (msg.table === null && watchedTable() && !state.invite) {
    // A spectator after a reload, a dropped connection or a restart: back to the table watched.
    const watched = /** @type {{table: string, invite: string|null}} */ (watchedTable());
    state.pending.set(/** @type {string} */ (socket.send("watch", { table: watched.table, invite: watched.invite ?? undefined })), "watch");
  } else if (msg.table === null) {
    if (state.table.summary && state.table.seat !== null) toast(t("table_gone"));
    resetTable();
    if (!READING.has(state.screen)) show("lobby-screen");
  } else {
    // Back at the same table (reload, dropped connection, server restart): `table` and a full `state` follow.
    enterTable();
  }
  quick.onWelcome(msg.queue ?? null);
  useInvite();
  usePair();
}

/** @param {import("./socket.js").Message} msg a `table` message: the table I sit at or watch, and my seat */
function onTable(msg) {
  if (state.table.summary?.id === msg.table.id && state.table.summary?.private && !msg.table.private) {
    say(t("made_public"));
  }
  state.table.summary = msg.table;
  if (state.summaryAtStart === null) {
    state.summaryAtStart = msg.table;
    state.levelsAtStart = [...msg.table.levels];
  }
  state.table.seat = msg.seat;
  rememberWatching(msg.seat === null ? { table: msg.table.id, invite: msg.table.invite ?? null } : null);
  quick.onSeated();
  enterTable();
  tableView.render(state.table);
}

/** @param {import("./socket.js").Message} msg a `hand_end` message: the settlement, with a way to report a player */
function onHandEnd(msg) {
  if (msg.result?.kind !== "redeal") sound.play("settlement");
  settlements.show(msg, {
    summary: state.summaryAtStart ?? state.table.summary, seat: state.table.seat, levelsBefore: state.levelsAtStart,
    me: state.account?.id ?? null,
    report: state.table.seat === null ? undefined : (line) => openReport(/** @type {HTMLDialogElement} */ ($("report-dialog")), {
      handId: msg.hand_id, accountId: /** @type {number} */ (line.account_id), name: line.nickname ?? "", failed,
    }),
  });
}

/** @param {import("./socket.js").Message} msg a `left` message: I am no longer at the table, and why */
function onLeft(msg) {
  rememberWatching(null);
  resetTable();
  if (state.screen !== "console-screen") show("lobby-screen");
  if (msg.reason === "moderator") toast(t("left_moderator", { why: t(`why_${msg.why ?? "other"}`) }), "error");
  else if (msg.reason !== "left") toast(t(`left_${msg.reason}`));
}

/** @param {import("./socket.js").Message} msg a `state` message */
function onState(msg) {
  const model = state.table;
  const verdict = state.stream.accept(msg);
  if (verdict === "show_and_sync" || verdict === "sync") socket.send("sync");
  if (verdict === "drop" || verdict === "sync") return;
  if (msg.hand !== state.hand) {
    state.hand = msg.hand;
    state.summaryAtStart = model.summary;
    state.levelsAtStart = model.summary ? [...model.summary.levels] : null;
  }
  const wasMyTurn = isMyMove(model);
  model.view = msg.view;
  state.escapeCost = msg.escape_cost ?? null;
  model.clock = msg.clock ? clockFrom(msg.clock) : null;
  for (const event of msg.events ?? []) onEvent(event);
  enterTable();
  tableView.render(model);
  if (isMyMove(model) && !wasMyTurn && !msg.full) sound.play("turn");
  sendAgainAfterMove();
}

/**
 * Notices and sounds for what happened at the table, in the reader's language.
 * @param {{type: string, [key: string]: any}} event
 */
function onEvent(event) {
  const mine = state.table.seat;
  const name = (/** @type {number} */ seat) => seatName(state.table.summary?.seats[seat]);
  const team = (/** @type {number} */ seat) => teamName(seat % 2, mine);
  const notice = tableView.notice.bind(tableView);
  if (event.type === "laogai_retract") notice(t("laogai_retracted"));
  if (event.type === "remind") {
    if (event.seat === mine) notice(t("remind_sent", { name: name(event.partner) }));
    else if (event.partner === mine) notice(t("remind_got", { name: name(event.seat) }), "warn");
  }
  if (event.type === "retract") {
    notice(t("retracted", { name: name(event.seat), k: event.cards.length, n: event.penalty, team: team(event.seat) }));
  }
  if (event.type === "trick") {
    tableView.trickTaken();
    if (mine === null || event.trick.winner % 2 === mine % 2) sound.play("trick");
  }
  if (event.type === "laogai") {
    const first = event.wrong?.[0];
    if (first) {
      const why = describeError({ code: "illegal_follow", params: { reason: first.reason, rule: first.rule } });
      notice(`${t("laogai_by", { name: name(first.seat), team: team(first.seat) })} · ${why.text}${why.rule ? ` (${why.rule})` : ""}`, "error");
    }
    sound.play("laogai");
  }
  if (mine !== null && event.seat === mine) onMyEvent(event);
}

/**
 * What the system did for me, said (R44–R45): a timed-out turn and the play made for it, and why 託管 came on.
 * @param {{type: string, [key: string]: any}} event an event of my seat
 */
function onMyEvent(event) {
  if (event.type === "timeout") state.timedOut = { count: event.count, limit: event.limit ?? event.count, autoplay: false };
  if (event.type === "autoplay") {
    tableView.setAutoplayReason(event.on ? event.reason : null, state.timedOut?.limit ?? 0);
    if (event.on && event.reason === "timeouts" && state.timedOut) state.timedOut.autoplay = true;
  }
  if (event.type === "play" && state.timedOut) {
    const { count, limit, autoplay } = state.timedOut;
    state.timedOut = null;
    const played = t("timeout_played", { cards: cardsText(event.cards), n: count, m: limit });
    tableView.notice(autoplay ? `${played} · ${t("timeout_autoplay", { m: limit })}` : played, "warn", autoplay ? 6000 : 5000);
  }
}

/** Show the table screen (unless the player is reading the history). */
function enterTable() {
  if (state.screen !== "table-screen" && !READING.has(state.screen)) show("table-screen");
}

/**
 * A clock with its deadline on this page's clock.
 * @param {{kind: string, seat: number|null, remaining_ms: number}} clock
 * @returns {import("./table_model.js").Clock}
 */
function clockFrom(clock) {
  const option = /** @type {Record<string, string>} */ (CLOCK_TOTALS)[clock.kind];
  const seconds = option ? Number(state.table.summary?.options[option] ?? 0) : 0;
  const total = Math.max(seconds * 1000, clock.remaining_ms);
  return { kind: clock.kind, seat: clock.seat, deadline: performance.now() + clock.remaining_ms, total };
}

/**
 * Send a play; in a 勞改 table a wrong follow comes back as `confirm_laogai` and is confirmed first.
 * @param {string[]} cards
 * @param {boolean} confirmed
 */
function sendPlay(cards, confirmed) {
  const fields = state.laogaiConfirm ? { cards, laogai: confirmed } : { cards };
  state.pendingPlay = { id: sendTable("play", fields, "play", { type: "play", cards, confirmed }), cards, confirmed };
}

/**
 * A play, bid, 不叫 or 託管 press: sent, and kept to be sent again if the table is changing servers.
 * @param {import("./again.js").Again} again
 */
function sendRequest(again) {
  if (again.type === "play") sendPlay(again.cards, again.confirmed);
  else if (again.type === "bid") sendTable("bid", { suit: again.suit, count: again.count }, "bid_short", again);
  else if (again.type === "pass") sendTable("pass", {}, "bid_pass", again);
  else sendTable("autoplay", { on: again.on }, again.on ? "autoplay_on" : "autoplay_off", again);
}

/**
 * After requests refused with `table_moving` (PROTOCOL.md §3): the first state from the table's new server sends
 * again those that still apply, and says what it did either way.
 */
function sendAgainAfterMove() {
  const { send, dropped } = state.resender.due(state.table);
  for (const again of send) sendRequest(again);
  const said = (list) => list.map(againText).join("、");
  if (send.length) tableView.notice(t("again_sent", { what: said(send) }));
  if (dropped.length) tableView.notice(t("again_not_sent", { what: said(dropped) }), "warn");
}

/** @param {import("./socket.js").Message} msg an `error` message */
async function onError(msg) {
  const asked = state.pending.get(msg.ref);
  state.pending.delete(msg.ref);
  const kept = state.resender.answered(msg.ref, msg.code);
  if (kept) {
    if (kept.type === "play") state.pendingPlay = null;
    tableView.notice(t("again_after_move", { what: againText(kept) }), "warn", 8000);
    return;
  }
  if (asked === "watch" && ["no_table", "private_table", "bad_invite"].includes(msg.code)) {
    // The table watched before the connection dropped is gone.
    rememberWatching(null);
    resetTable();
    show("lobby-screen");
    toast(t("watch_gone"));
    return;
  }
  if (msg.code === "would_escape") {
    askEscape({ points: msg.params?.points ?? null, silver: msg.params?.silver ?? null });
    return;
  }
  const pending = state.pendingPlay;
  if (pending && msg.ref === pending.id) {
    state.pendingPlay = null;
    if (msg.code === "confirm_laogai") {
      const yes = await confirmWrongFollow(/** @type {HTMLDialogElement} */ ($("confirm-dialog")), msg,
        (seat) => tableView.seatName(seat));
      if (yes) sendPlay(pending.cards, true);
      return;
    }
    tableView.showError(msg);
    return;
  }
  if (msg.code === "bad_token") {
    logOut();
    return;
  }
  if (msg.code === "banned") {
    shutOut(msg);
    return;
  }
  if (msg.code === "session_replaced") {
    say(t("session_replaced"), "error");
    return;
  }
  if (state.screen === "table-screen") tableView.showError(msg);
  else toast(describeError(msg).text, "error");
}

function resetTable() {
  state.table = { summary: null, seat: null, view: null, clock: null };
  state.hand = -1;
  state.stream.reset();
  state.summaryAtStart = null;
  state.levelsAtStart = null;
  state.escapeCost = null;
  state.timedOut = null;
  settlements.forget();
  tableView.setAutoplayReason(null);
}

/**
 * My account is banned (at hello, or a moderator just banned it): the socket stops for good and the sign-in
 * screen says why and until when. The token is kept, so a guest made from this browser is refused too.
 * @param {import("./socket.js").Message} msg the `banned` error
 */
function shutOut(msg) {
  socket.stop();
  state.account = null;
  state.role = null;
  state.welcomed = false;
  resetTable();
  renderMe();
  const note = $("ban-note");
  note.textContent = describeError(msg).text;
  note.hidden = false;
  show("auth-screen");
}

function logOut() {
  socket.stop();
  rememberWatching(null);
  api.saveToken(null);
  state.account = null;
  state.welcomed = false;
  resetTable();
  renderMe();
  show("auth-screen");
}

/** @param {api.Session} session */
function startSession(session) {
  api.saveToken(session.token);
  state.account = session.account;
  renderMe();
  socket.start();
}

/** An invite link opened before signing in: say who invites to which table (PROTOCOL.md §2.6). */
async function showInviteLanding() {
  const box = $("invite-landing");
  const code = state.invite;
  box.hidden = !code;
  if (!code) return;
  try {
    const { number, inviter } = await api.invitation(code);
    const table = tableName(number);
    box.replaceChildren(
      h("strong", { id: "invite-from" }, inviter ? t("invite_landing", { name: personName(inviter), table }) : t("invite_landing_anyone", { table })),
      h("span", {}, t("invite_landing_how")));
    box.classList.remove("gone");
  } catch {
    box.replaceChildren(h("strong", { id: "invite-from" }, t("invite_landing_gone")));
    box.classList.add("gone");
  }
}

function setupAuth() {
  const form = /** @type {HTMLFormElement} */ ($("auth-form"));
  const errorBox = $("auth-error");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $("ban-note").hidden = true;
    const submitter = /** @type {HTMLButtonElement|null} */ (/** @type {SubmitEvent} */ (event).submitter);
    const data = new FormData(form);
    const nickname = String(data.get("username")).trim();
    const password = String(data.get("password"));
    try {
      const session = submitter?.value === "register"
        ? await api.register(nickname, password) : await api.login(nickname, password);
      errorBox.textContent = "";
      startSession(session);
    } catch (error) {
      errorBox.textContent = httpErrorText(error);
    }
  });
  $("guest").addEventListener("click", async () => {
    // A browser still holding a banned account's token gets no guest to play on with (the server refuses it).
    $("ban-note").hidden = true;
    try {
      startSession(await api.guest());
    } catch (error) {
      errorBox.textContent = httpErrorText(error);
    }
  });
  $("logout").addEventListener("click", async () => {
    await api.logout().catch(() => undefined);
    logOut();
  });
}

/**
 * An HTTP refusal in the reader's language (by its code and reason; a network failure gets the generic text).
 * @param {unknown} error
 * @returns {string}
 */
function httpErrorText(error) {
  const code = error && typeof error === "object" && "code" in error ? String(error.code) : "unknown";
  const params = error && typeof error === "object" && "params" in error ? error.params : undefined;
  return describeError({ code, params: params && typeof params === "object" ? params : undefined }).text;
}

function setupLobby() {
  const dialog = /** @type {HTMLDialogElement} */ ($("create-dialog"));
  const form = /** @type {HTMLFormElement} */ ($("create-form"));
  bindBotLevel(/** @type {HTMLSelectElement} */ ($("bot-level")));
  bindBotLevel(/** @type {HTMLSelectElement} */ (form.elements.namedItem("bot")));
  bindWarnFollow(/** @type {HTMLInputElement} */ ($("warn-follow")));
  bindWarnFollow(/** @type {HTMLInputElement} */ (form.elements.namedItem("warn_wrong_follow")));
  $("create-open").addEventListener("click", () => dialog.showModal());
  $("quick-open").addEventListener("click", () => quick.open());
  api.options().then(({ defaults }) => {
    for (const [name, value] of Object.entries(defaults)) {
      const field = form.elements.namedItem(name);
      if (field instanceof HTMLInputElement && field.type === "checkbox") continue;
      if (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) field.value = String(value);
    }
  }, () => undefined);
  $("play-now").addEventListener("click", () =>
    socket.send("play_now", { bot: chosenBot(), options: { warn_wrong_follow: warnWrongFollow() } }));
  const openHistory = async () => {
    if (!state.account) return;
    show("history-screen");
    await history.open(state.account.id).catch((error) => toast(String(error.message ?? error), "error"));
  };
  $("history-open").addEventListener("click", openHistory);
  $("history-lobby").addEventListener("click", openHistory);
  dialog.addEventListener("close", () => {
    const choice = dialog.returnValue;
    const hidden = /** @type {HTMLInputElement} */ (form.elements.namedItem("private")).checked;
    if (choice === "create") socket.send("create_table", { options: readOptions(form), private: hidden });
    if (choice === "bots") socket.send("play_now", { options: readOptions(form), bot: chosenBot(), private: hidden });
  });
  $("leaderboard-open").addEventListener("click", openLeaderboard);
  $("profile-open").addEventListener("click", () => state.account && openProfile(state.account.id, "lobby-screen"));
  $("console-open").addEventListener("click", () => consoleView.open().then(() => show("console-screen"), failed));
  $("me").addEventListener("click", () => state.account && openProfile(state.account.id, state.screen));
  window.addEventListener("hashchange", () => {
    const code = inviteFromAddress();
    if (code) {
      state.invite = code;
      useInvite();
    }
    const pair = pairFromAddress();
    if (pair) {
      state.pair = pair;
      usePair();
    }
  });
}

function setupLanguage() {
  const select = /** @type {HTMLSelectElement} */ ($("lang"));
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, label]) => h("option", { value: code }, label)));
  select.value = language();
  select.setAttribute("aria-label", t("language"));
  select.addEventListener("change", () => setLanguage(select.value));
  onLanguageChange(() => {
    select.setAttribute("aria-label", t("language"));
    renderMe();
    lobby.render();
    quick.render();
    if (state.table.summary || state.table.view) tableView.retranslate();
    if (state.screen === "history-screen") history.render();
    if (state.screen === "leaderboard-screen") leaderboard.render();
    if (state.screen === "profile-screen") profileView.render();
    if (state.screen === "console-screen") consoleView.render();
    noticeBanner.render();
    if (/** @type {HTMLDialogElement} */ ($("rules-dialog")).open) rules.render();
    renderMute();
    renderReconnect();
  });
  translatePage(document);
}

/** The 規則 page follows the address: #rules, #rules/R13 at a rule (refusals link there), or
 * #rules/tables and #rules/presets at those sections (the contents links). */
function setupRules() {
  const route = () => {
    const match = /^#rules(?:\/(R\d+|tables|presets))?$/.exec(location.hash);
    if (match) rules.open(match[1] ?? null);
  };
  window.addEventListener("hashchange", route);
  route();
}

/** The mute switch says what pressing it does (靜音 / 開聲音); its title says the state too. */
function renderMute() {
  const button = $("mute");
  const off = sound.muted();
  button.setAttribute("aria-pressed", String(off));
  button.textContent = `♪ ${t(off ? "sound_unmute" : "sound_mute")}`;
  button.title = t(off ? "sound_off" : "sound_on");
  button.setAttribute("aria-label", button.title);
}

function setupSound() {
  $("mute").addEventListener("click", () => {
    sound.setMuted(!sound.muted());
    renderMute();
  });
  document.addEventListener("pointerdown", () => sound.unlock(), { once: true });
  renderMute();
}

setupLanguage();
setupAuth();
setupLobby();
setupSound();
setupRules();
lobby.render();
if (api.savedToken()) {
  socket.start();
} else {
  show("auth-screen");
  showInviteLanding();
  onLanguageChange(() => {
    if (state.screen === "auth-screen") showInviteLanding();
  });
}
