// History of finished hands and their replay, trick by trick.

import * as api from "./api.js";
import { RANKS, displayGroup, rankLabel, sortCards } from "./cards.js";
import { h } from "./dom.js";
import { addStrings, t } from "./i18n.js";
import { personName } from "./names.js";
import { SEAT_KEYS, botName } from "./table_model.js";
import { playFit, playRow } from "./table_trick.js";
import { cardText } from "./words.js";

const POSITIONS = ["bottom", "right", "top", "left"];

addStrings({
  private_hand_table: ["私人牌桌", "私人牌桌", "A private table"],
});

/**
 * @typedef {import("./table_model.js").TrickRecord} TrickRecord
 * @typedef {{seat: number, cards: string[]}} Play
 */

/**
 * The tricks of a hand record: its "tricks" when the server sends them, else the plays of its action list
 * grouped per trick (a retracted follow is dropped; no winner is known then).
 * @param {any} record
 * @returns {{leader: number, plays: Play[], winner: number|null, points: number|null}[]}
 */
function recordTricks(record) {
  if (Array.isArray(record.tricks)) return record.tricks;
  const tricks = [];
  /** @type {Map<number, string[]>} */
  let current = new Map();
  let leader = -1;
  const flush = () => {
    if (current.size === 0) return;
    tricks.push({ leader, plays: [...current].map(([seat, cards]) => ({ seat, cards })), winner: null, points: null });
    current = new Map();
  };
  for (const action of record.actions ?? []) {
    if (action.type === "play") {
      if (current.size === 0) leader = action.seat;
      const cards = Array.isArray(action.cards) ? action.cards : String(action.cards).split(/\s+/).filter(Boolean);
      current.set(action.seat, cards);
    } else if (action.type === "retract") {
      current.delete(action.seat);
    } else if (action.type === "close_review") {
      flush();
    }
  }
  flush();
  return tricks;
}

/**
 * The trump context of a hand record (level letter and the final bid's suit).
 * @param {any} record
 * @returns {import("./cards.js").TrumpContext}
 */
function recordTrump(record) {
  if (record.trump) return { level: record.trump.level, trumpSuit: record.trump.suit };
  const raw = record.setup?.level;
  const level = typeof raw === "number" ? RANKS[raw] : String(raw ?? "3");
  const bids = (record.actions ?? []).filter((/** @type {any} */ a) => a.type === "bid");
  return { level, trumpSuit: bids.length ? bids[bids.length - 1].suit : null };
}

/**
 * A hand in a list: its number in its match, and "a private table" for one played at a private table (table
 * ids are never shown).
 * @param {any} hand a HandSummary
 * @returns {string}
 */
function handName(hand) {
  const number = t("hand_n", { n: hand.number });
  return hand.table_id ? number : `${t("private_hand_table")} · ${number}`;
}

/**
 * A finished hand in a list (the history, a profile's latest hands), with its replay button.
 * @param {any} hand a HandSummary
 * @param {() => void} replay what the replay button does
 * @param {{deltas?: boolean}} [opts] deltas: also the points and silver the hand won or lost
 * @returns {HTMLElement}
 */
export function handItem(hand, replay, { deltas = false } = {}) {
  return h("li.history-item", { dataset: { hand: String(hand.id) } },
    h("strong", {}, handName(hand)),
    h("span.when", {}, new Date(hand.finished_at).toLocaleString()),
    h(`span${hand.won ? ".won" : ""}`, {}, `${t("final_score")} ${hand.result?.score ?? "–"}`),
    deltas ? h("span", {}, `${t("score_points")} ${signed(hand.points_delta)} · ${t("silver")} ${signed(hand.silver_delta)}`) : null,
    h("button.small", { onclick: replay, dataset: { action: "replay" } }, t("replay")));
}

export class HistoryView {
  /**
   * @param {HTMLElement} root the history screen
   * @param {{back: () => void}} handlers
   */
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    /** @type {any[]} */
    this.hands = [];
    /** @type {{record: any, seat: number, index: number}|null} */
    this.replay = null;
    /** @type {(() => void)|null} where the replay's back button goes when it was opened from elsewhere */
    this.replayBack = null;
  }

  /**
   * Load and show the finished hands of an account.
   * @param {number} accountId
   */
  async open(accountId) {
    this.replay = null;
    this.replayBack = null;
    this.hands = (await api.accountHands(accountId)).hands;
    this.render();
  }

  /** Redraw (also after a language change). */
  render() {
    if (this.replay) {
      this.#renderReplay();
      return;
    }
    const back = h("button", { onclick: () => this.handlers.back(), dataset: { action: "back" } }, t("back"));
    const items = this.hands.map((hand) => handItem(hand, () => this.#openReplay(hand), { deltas: true }));
    this.root.replaceChildren(h("div.history", {},
      h("div.lobby-head", {}, h("h2", {}, t("history")), back),
      items.length ? h("ul.history-list", {}, ...items) : h("p", {}, t("no_history"))));
  }

  /**
   * Replay a hand from elsewhere (a profile, the console); its back button calls `back`.
   * @param {any} summary a HandSummary (its `id`; its `seat` is the one shown at the bottom)
   * @param {() => void} back
   * @param {(handId: number) => Promise<{hand: any}>} [load] where the record comes from (the console's reads private tables' hands too)
   */
  async openReplay(summary, back, load = api.handRecord) {
    await this.#openReplay(summary, load);
    this.replayBack = back;
  }

  /**
   * @param {any} summary
   * @param {(handId: number) => Promise<{hand: any}>} [load]
   */
  async #openReplay(summary, load = api.handRecord) {
    const { hand } = await load(summary.id);
    this.replay = { record: hand, seat: summary.seat ?? 0, index: 0 };
    this.render();
  }

  #closeReplay() {
    const back = this.replayBack;
    this.replay = null;
    this.replayBack = null;
    if (back) back();
    else this.render();
  }

  #renderReplay() {
    const replay = this.replay;
    if (!replay) return;
    const { record, seat } = replay;
    const tricks = recordTricks(record);
    const ctx = recordTrump(record);
    const index = Math.min(replay.index, Math.max(tricks.length - 1, 0));
    const trick = tricks[index];
    const name = (/** @type {number} */ s) => (record.seats?.[s]?.nickname ? personName(record.seats[s].nickname) : botName(s));
    const position = (/** @type {number} */ s) => POSITIONS[(s - seat + 4) % 4];
    const board = h("div.replay-board", {},
      ...[0, 1, 2, 3].map((s) => h(`div.seat-tag.pos-${position(s)}`, { dataset: { seat: String(s) } }, name(s))));
    const trickEl = h("div.trick");
    board.append(trickEl);
    const go = (/** @type {number} */ i) => {
      replay.index = Math.max(0, Math.min(i, tricks.length - 1));
      this.render();
    };
    const caption = trick && trick.winner !== null
      ? `${t("winner_seat", { name: name(trick.winner) })} · ${t("points_n", { n: trick.points ?? 0 })}` : "";
    const slider = h("input", {
      type: "range", min: "0", max: String(Math.max(tricks.length - 1, 0)), value: String(index), step: "1",
      id: "replay-slider", "aria-label": t("trick_n", { n: index + 1, m: tricks.length }),
      oninput: (/** @type {Event} */ e) => go(Number(/** @type {HTMLInputElement} */ (e.target).value)),
    });
    this.root.replaceChildren(h("div.history.replay", {},
      h("div.lobby-head", {},
        h("h2", {}, `${t("replay")} · ${t("hand_n", { n: record.number })} · ${t("hand_level", { level: rankLabel(ctx.level) })}`),
        h("button", { onclick: () => this.#closeReplay(), dataset: { action: "back" } }, t("back"))),
      board,
      h("div.replay-nav", {},
        h("button", { onclick: () => go(index - 1), disabled: index === 0, dataset: { action: "prev" } }, t("prev")),
        slider,
        h("span", { id: "replay-pos" }, t("trick_n", { n: tricks.length ? index + 1 : 0, m: tricks.length })),
        h("button", { onclick: () => go(index + 1), disabled: index >= tricks.length - 1, dataset: { action: "next" } }, t("next"))),
      h("p.replay-caption", {}, caption),
      startingHands(record, tricks.slice(0, index + 1), ctx, name)));
    const width = trickEl.clientWidth;
    for (const play of trick?.plays ?? []) {
      const where = position(play.seat);
      trickEl.append(h(`div.play.pos-${where}`, {}, playRow(play.cards, ctx, play.seat === trick.winner ? "winner" : "", playFit(where, width))));
    }
  }
}

/**
 * The four hands as dealt (HandRecord.hands), by display group; the cards played up to the shown trick are struck.
 * @param {any} record
 * @param {{plays: Play[]}[]} done the tricks up to and including the shown one
 * @param {import("./cards.js").TrumpContext} ctx
 * @param {(seat: number) => string} name
 * @returns {HTMLElement|null}
 */
function startingHands(record, done, ctx, name) {
  if (!Array.isArray(record.hands) || record.hands.length !== 4) return null;
  return h("div.replay-hands", {}, ...record.hands.map((/** @type {string[]} */ cards, /** @type {number} */ seat) => {
    /** @type {Map<string, number>} */
    const played = new Map();
    for (const trick of done) {
      for (const play of trick.plays) {
        if (play.seat === seat) for (const code of play.cards) played.set(code, (played.get(code) ?? 0) + 1);
      }
    }
    /** @type {Map<string, HTMLElement[]>} */
    const groups = new Map();
    for (const code of sortCards(cards, ctx)) {
      const gone = played.get(code) ?? 0;
      if (gone > 0) played.set(code, gone - 1);
      const red = code[1] === "H" || code[1] === "D" || code === "BJ";
      const el = h(`span.c${red ? ".red" : ""}${gone > 0 ? ".played" : ""}`, { dataset: { code } }, cardText(code));
      const group = displayGroup(code, ctx);
      groups.set(group, [...(groups.get(group) ?? []), el]);
    }
    return h("div.replay-hand", { dataset: { seat: String(seat) } },
      h("h4", {}, `${t(SEAT_KEYS[seat])} · ${name(seat)}`),
      ...[...groups.values()].map((els) => h("div.group", {}, ...els)));
  }));
}

/** @param {number} n */
function signed(n) {
  return n > 0 ? `+${n}` : String(n ?? 0);
}
