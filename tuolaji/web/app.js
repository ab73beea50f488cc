// The client's entry point: screens (auth, lobby, table, history, leaderboard, profile), session, the
// live connection and invite links.

import * as api from "./api.js";
import { bindBotLevel, chosenBot } from "./bots.js";
import { confirmWrongFollow, showSettlement } from "./dialogs.js";
import { h, toast } from "./dom.js";
import { describeError } from "./errors.js";
import { LANGUAGES, addStrings, language, onLanguageChange, setLanguage, t, title, translatePage } from "./i18n.js";
import { forgetAddress, inviteFromAddress, openInvite } from "./invite.js";
import { LobbyView, bindWarnFollow, readOptions, warnWrongFollow } from "./lobby.js";
import * as phrases from "./phrases.js";
import { HistoryView } from "./replay.js";
import { RulesView } from "./rules.js";
import { Socket } from "./socket.js";
import * as sound from "./sound.js";
import { LeaderboardView, ProfileView } from "./standings.js";
import { StateStream } from "./stream.js";
import { TableView, isMyMove, seatName, teamName } from "./table.js";

addStrings({
  warn_wrong_follow: ["跟错牌先提示我（新手）", "跟錯牌先提示我（新手）", "Warn me before a wrong follow (beginners)"],
  warn_wrong_follow_short: ["跟错先提示", "跟錯先提示", "Warn wrong follows"],
  mode_laogai_warn: ["劳改（先提示）", "勞改（先提示）", "勞改 (with warning)"],
  reconnect_banner: ["连接中断，正在重新连接…", "連線中斷，正在重新連線…", "Connection lost: reconnecting…"],
  restart_banner: ["服务器正在重启，马上重新连接…", "伺服器正在重新啟動，馬上重新連線…", "The server is restarting: reconnecting…"],
  sound_on: ["声音：开（点一下静音）", "聲音：開（按一下靜音）", "Sound on (click to mute)"],
  sound_off: ["声音：关（点一下打开）", "聲音：關（按一下打開）", "Sound off (click to turn on)"],
  remind_sent: ["已提醒{name}：这一轮的跟牌可能不合规则", "已提醒{name}：這一輪的跟牌可能不合規則", "You reminded {name}: their follow may break the rules"],
  remind_got: ["{name}提醒你：这一轮的跟牌可能不合规则，可以撤牌", "{name}提醒你：這一輪的跟牌可能不合規則，可以撤牌", "{name} reminds you: your follow may break the rules; you can still retract"],
  retracted: ["{name}撤牌 {k} 张，{team}扣 {n} 分", "{name}撤牌 {k} 張，{team}扣 {n} 分", "{name} retracted {k} card(s): {n} points against {team}"],
  laogai_by: ["{name}跟牌错误，{team}被劳改", "{name}跟牌錯誤，{team}被勞改", "{name} followed wrongly: {team} sentenced (勞改)"],
  table_gone: ["你的牌桌已经不在了", "你的牌桌已經不在了", "Your table is gone"],
});

/** @typedef {import("./table.js").TableModel} TableModel */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const SCREENS = ["auth-screen", "lobby-screen", "table-screen", "history-screen", "leaderboard-screen", "profile-screen"];
/** Screens for reading, which a table's messages do not take the player away from. */
const READING = new Set(["history-screen", "leaderboard-screen", "profile-screen"]);
const CLOCK_TOTALS = { turn: "turn_seconds", bid: "bid_window_seconds", review: "review_seconds" };

const state = {
  /** @type {api.Account|null} */
  account: null,
  screen: "",
  /** @type {TableModel} */
  table: { summary: null, seat: null, view: null, clock: null },
  /** the hand number of the last state, and the table as it was when that hand began (for the settlement) */
  hand: -1,
  /** The table's `state` stream: which states to show (PROTOCOL.md §3). */
  stream: new StateStream(),
  /** @type {import("./table.js").TableSummary|null} */
  summaryAtStart: null,
  /** @type {[string, string]|null} */
  levelsAtStart: null,
  laogaiConfirm: false,
  /** @type {{id: string|null, cards: string[]}|null} */
  pendingPlay: null,
  /** @type {string|null} the code of an invite link opened and not yet used (PROTOCOL.md §2.6) */
  invite: inviteFromAddress(),
  /** whether the socket said welcome (messages other than hello may go) */
  welcomed: false,
};

const socket = new Socket(api.savedToken, { onMessage, onStatus });
const rules = new RulesView(/** @type {HTMLDialogElement} */ ($("rules-dialog")));
/** Set by `server_restarting` until the next `welcome`: the banner says the server restarts. */
let restarting = false;
const lobby = new LobbyView($("table-list"), {
  join: (table, seat) => socket.send("join", { table, seat }),
  watch: (table) => socket.send("watch", { table }),
});
const tableView = new TableView($("table-screen"), {
  bid: (suit, count) => socket.send("bid", { suit, count }),
  play: (cards) => sendPlay(cards, false),
  remind: () => socket.send("remind"),
  retract: () => socket.send("retract"),
  autoplay: (on) => socket.send("autoplay", { on }),
  leave: () => socket.send("leave"),
  start: () => socket.send("start"),
  addBot: (seat) => socket.send("add_bot", { seat, bot: chosenBot() }),
  join: (seat) => state.table.summary && socket.send("join", { table: state.table.summary.id, seat }),
  invite: () => openTableInvite(),
  phrases: () => openPhrases(),
});
const backHome = () => show(state.table.summary ? "table-screen" : "lobby-screen");
const history = new HistoryView($("history-screen"), { back: backHome });
const leaderboard = new LeaderboardView($("leaderboard-screen"), {
  back: backHome,
  profile: (id) => openProfile(id, "leaderboard-screen"),
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

/** @param {unknown} error an HTTP refusal or a network failure: said in the reader's language */
function failed(error) {
  toast(httpErrorText(error), "error");
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
    code: summary.invite, creator, publish: () => socket.send("make_public"), copied: () => toast(t("invite_copied")),
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
  if (!account) return;
  me.replaceChildren(
    h("span.nick", { id: "me-nick" }, account.nickname),
    h("span.stat", { id: "me-points" }, `${t("score_points")} `, h("b", {}, String(account.points)), ` ${title(account.rank.title)}`),
    h("span.stat", { id: "me-silver" }, `${t("silver")} `, h("b", {}, String(account.silver)), ` ${title(account.wealth.title)}`),
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
  renderReconnect();
}

/** The banner shown while the socket retries after having been open (or the server said it restarts). */
function renderReconnect() {
  const banner = $("reconnect");
  const status = document.body.dataset.conn;
  const retrying = socket.wasOpen && (status === "connecting" || status === "waiting");
  banner.hidden = !(retrying || restarting);
  banner.textContent = t(restarting ? "restart_banner" : "reconnect_banner");
}

/** @param {import("./socket.js").Message} msg */
function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      state.account = msg.account;
      state.laogaiConfirm = msg.laogai_confirm === true;
      state.pendingPlay = null;
      state.welcomed = true;
      renderMe();
      if (msg.table === null) {
        if (state.table.summary && state.table.seat !== null) toast(t("table_gone"));
        resetTable();
        if (!READING.has(state.screen)) show("lobby-screen");
      } else {
        // Back at the same table (reload, dropped connection, server restart): `table` and a full `state` follow.
        enterTable();
      }
      useInvite();
      break;
    case "server_restarting":
      restarting = true;
      renderReconnect();
      break;
    case "lobby":
      lobby.setAll(msg.tables);
      break;
    case "lobby_table":
      lobby.upsert(msg.table);
      break;
    case "lobby_table_removed":
      lobby.remove(msg.table_id);
      break;
    case "table":
      if (state.table.summary?.id === msg.table.id && state.table.summary?.private && !msg.table.private) {
        toast(t("made_public"));
      }
      state.table.summary = msg.table;
      if (state.summaryAtStart === null) {
        state.summaryAtStart = msg.table;
        state.levelsAtStart = [...msg.table.levels];
      }
      state.table.seat = msg.seat;
      enterTable();
      tableView.render(state.table);
      break;
    case "state":
      onState(msg);
      break;
    case "hand_end":
      if (msg.result?.kind !== "redeal") sound.play("settlement");
      showSettlement(/** @type {HTMLDialogElement} */ ($("settle-dialog")), msg, {
        summary: state.summaryAtStart ?? state.table.summary, seat: state.table.seat, levelsBefore: state.levelsAtStart,
      });
      break;
    case "account":
      state.account = msg.account;
      renderMe();
      break;
    case "phrase":
      if (phrases.received(msg) && msg.table_id === state.table.summary?.id) tableView.showPhrase(msg.seat, msg.phrase);
      break;
    case "left":
      resetTable();
      show("lobby-screen");
      if (msg.reason !== "left") toast(t(`left_${msg.reason}`));
      break;
    case "error":
      onError(msg);
      break;
    default:
      break;
  }
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
  model.clock = msg.clock ? clockFrom(msg.clock) : null;
  for (const event of msg.events ?? []) onEvent(event);
  enterTable();
  tableView.render(model);
  if (isMyMove(model) && !wasMyTurn && !msg.full) sound.play("turn");
}

/**
 * Notices and sounds for what happened at the table, in the reader's language.
 * @param {{type: string, [key: string]: any}} event
 */
function onEvent(event) {
  const mine = state.table.seat;
  const name = (/** @type {number} */ seat) => seatName(state.table.summary?.seats[seat]);
  const team = (/** @type {number} */ seat) => teamName(seat % 2, mine);
  if (event.type === "laogai_retract") toast(t("laogai_retracted"));
  if (event.type === "remind") {
    if (event.seat === mine) toast(t("remind_sent", { name: name(event.partner) }));
    else if (event.partner === mine) toast(t("remind_got", { name: name(event.seat) }), "error");
  }
  if (event.type === "retract") {
    toast(t("retracted", { name: name(event.seat), k: event.cards.length, n: event.penalty, team: team(event.seat) }));
  }
  if (event.type === "trick" && (mine === null || event.trick.winner % 2 === mine % 2)) sound.play("trick");
  if (event.type === "laogai") {
    const first = event.wrong?.[0];
    if (first) {
      const why = describeError({ code: "illegal_follow", params: { reason: first.reason, rule: first.rule } });
      toast(`${t("laogai_by", { name: name(first.seat), team: team(first.seat) })} · ${why.text}${why.rule ? ` (${why.rule})` : ""}`, "error");
    }
    sound.play("laogai");
  }
}

/** Show the table screen (unless the player is reading the history). */
function enterTable() {
  if (state.screen !== "table-screen" && !READING.has(state.screen)) show("table-screen");
}

/**
 * A clock with its deadline on this page's clock.
 * @param {{kind: string, seat: number|null, remaining_ms: number}} clock
 * @returns {import("./table.js").Clock}
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
  state.pendingPlay = { id: socket.send("play", fields), cards };
}

/** @param {import("./socket.js").Message} msg an `error` message */
async function onError(msg) {
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
  if (msg.code === "session_replaced") {
    toast(t("session_replaced"), "error");
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
}

function logOut() {
  socket.stop();
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

function setupAuth() {
  const form = /** @type {HTMLFormElement} */ ($("auth-form"));
  const errorBox = $("auth-error");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
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
  api.options().then(({ defaults }) => {
    for (const [name, value] of Object.entries(defaults)) {
      const field = form.elements.namedItem(name);
      if (field instanceof HTMLInputElement && field.type === "checkbox") continue;
      if (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) field.value = String(value);
    }
  }, () => undefined);
  $("play-now").addEventListener("click", () =>
    socket.send("play_now", { bot: chosenBot(), options: { warn_wrong_follow: warnWrongFollow() } }));
  $("history-open").addEventListener("click", async () => {
    if (!state.account) return;
    show("history-screen");
    await history.open(state.account.id).catch((error) => toast(String(error.message ?? error), "error"));
  });
  dialog.addEventListener("close", () => {
    const choice = dialog.returnValue;
    const hidden = /** @type {HTMLInputElement} */ (form.elements.namedItem("private")).checked;
    if (choice === "create") socket.send("create_table", { options: readOptions(form), private: hidden });
    if (choice === "bots") socket.send("play_now", { options: readOptions(form), bot: chosenBot(), private: hidden });
  });
  $("leaderboard-open").addEventListener("click", openLeaderboard);
  $("profile-open").addEventListener("click", () => state.account && openProfile(state.account.id, "lobby-screen"));
  $("me").addEventListener("click", () => state.account && openProfile(state.account.id, state.screen));
  window.addEventListener("hashchange", () => {
    const code = inviteFromAddress();
    if (code) {
      state.invite = code;
      useInvite();
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
    if (state.table.summary || state.table.view) tableView.retranslate();
    if (state.screen === "history-screen") history.render();
    if (state.screen === "leaderboard-screen") leaderboard.render();
    if (state.screen === "profile-screen") profileView.render();
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

function renderMute() {
  const button = $("mute");
  const off = sound.muted();
  button.setAttribute("aria-pressed", String(off));
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
}
