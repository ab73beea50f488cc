// The client's entry point: screens (auth, lobby, table, history), session and the live connection.

import * as api from "./api.js";
import { bindBotLevel, chosenBot } from "./bots.js";
import { confirmWrongFollow, showSettlement } from "./dialogs.js";
import { h, toast } from "./dom.js";
import { LANGUAGES, language, onLanguageChange, setLanguage, t, title, translatePage } from "./i18n.js";
import { LobbyView, readOptions } from "./lobby.js";
import { HistoryView } from "./replay.js";
import { Socket } from "./socket.js";
import { TableView } from "./table.js";

/** @typedef {import("./table.js").TableModel} TableModel */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const SCREENS = ["auth-screen", "lobby-screen", "table-screen", "history-screen"];
const CLOCK_TOTALS = { turn: "turn_seconds", bid: "bid_window_seconds", review: "review_seconds" };

const state = {
  /** @type {api.Account|null} */
  account: null,
  screen: "",
  /** @type {TableModel} */
  table: { summary: null, seat: null, view: null, clock: null },
  /** the hand number of the last state, and the table as it was when that hand began (for the settlement) */
  hand: -1,
  /** @type {import("./table.js").TableSummary|null} */
  summaryAtStart: null,
  /** @type {[string, string]|null} */
  levelsAtStart: null,
  laogaiConfirm: false,
  /** @type {{id: string|null, cards: string[]}|null} */
  pendingPlay: null,
};

const socket = new Socket(api.savedToken, { onMessage, onStatus });
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
});
const history = new HistoryView($("history-screen"), {
  back: () => show(state.table.summary ? "table-screen" : "lobby-screen"),
});

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
  document.body.dataset.conn = status;
}

/** @param {import("./socket.js").Message} msg */
function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      state.account = msg.account;
      state.laogaiConfirm = msg.laogai_confirm === true;
      renderMe();
      if (msg.table === null) {
        resetTable();
        if (state.screen !== "history-screen") show("lobby-screen");
      } else {
        enterTable();
      }
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
      showSettlement(/** @type {HTMLDialogElement} */ ($("settle-dialog")), msg, {
        summary: state.summaryAtStart ?? state.table.summary, seat: state.table.seat, levelsBefore: state.levelsAtStart,
      });
      break;
    case "account":
      state.account = msg.account;
      renderMe();
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
  if (msg.hand !== state.hand) {
    state.hand = msg.hand;
    state.summaryAtStart = model.summary;
    state.levelsAtStart = model.summary ? [...model.summary.levels] : null;
  }
  model.view = msg.view;
  model.clock = msg.clock ? clockFrom(msg.clock) : null;
  for (const event of msg.events ?? []) {
    if (event.type === "laogai_retract") toast(t("laogai_retracted"));
  }
  enterTable();
  tableView.render(model);
}

/** Show the table screen (unless the player is reading the history). */
function enterTable() {
  if (state.screen !== "table-screen" && state.screen !== "history-screen") show("table-screen");
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
      const yes = await confirmWrongFollow(/** @type {HTMLDialogElement} */ ($("confirm-dialog")), msg.message);
      if (yes) sendPlay(pending.cards, true);
      return;
    }
    tableView.showError(msg.message);
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
  if (state.screen === "table-screen") tableView.showError(msg.message);
  else toast(msg.message, "error");
}

function resetTable() {
  state.table = { summary: null, seat: null, view: null, clock: null };
  state.hand = -1;
  state.summaryAtStart = null;
  state.levelsAtStart = null;
}

function logOut() {
  socket.stop();
  api.saveToken(null);
  state.account = null;
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
      errorBox.textContent = error instanceof Error ? error.message : String(error);
    }
  });
  $("guest").addEventListener("click", async () => {
    try {
      startSession(await api.guest());
    } catch (error) {
      errorBox.textContent = error instanceof Error ? error.message : String(error);
    }
  });
  $("logout").addEventListener("click", async () => {
    await api.logout().catch(() => undefined);
    logOut();
  });
}

function setupLobby() {
  const dialog = /** @type {HTMLDialogElement} */ ($("create-dialog"));
  const form = /** @type {HTMLFormElement} */ ($("create-form"));
  bindBotLevel(/** @type {HTMLSelectElement} */ ($("bot-level")));
  bindBotLevel(/** @type {HTMLSelectElement} */ (form.elements.namedItem("bot")));
  $("create-open").addEventListener("click", () => dialog.showModal());
  api.options().then(({ defaults }) => {
    for (const [name, value] of Object.entries(defaults)) {
      const field = form.elements.namedItem(name);
      if (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) field.value = String(value);
    }
  }, () => undefined);
  $("play-now").addEventListener("click", () => socket.send("play_now", { bot: chosenBot() }));
  $("history-open").addEventListener("click", async () => {
    if (!state.account) return;
    show("history-screen");
    await history.open(state.account.id).catch((error) => toast(String(error.message ?? error), "error"));
  });
  dialog.addEventListener("close", () => {
    const choice = dialog.returnValue;
    if (choice === "create") socket.send("create_table", { options: readOptions(form) });
    if (choice === "bots") socket.send("play_now", { options: readOptions(form), bot: chosenBot() });
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
  });
  translatePage(document);
}

setupLanguage();
setupAuth();
setupLobby();
lobby.render();
if (api.savedToken()) {
  socket.start();
} else {
  show("auth-screen");
}
