// Table requests refused only because the table was changing servers (`table_moving`, PROTOCOL.md §3): the page
// keeps them and sends them again itself with the new server's first state, when they still apply.

import { bidLabel } from "./bids.js";
import { addStrings, t } from "./i18n.js";
import { canPass, isMyMove } from "./table_model.js";
import { cardsText } from "./words.js";

addStrings({
  bid_short: ["叫主", "叫主", "Bid"],
  again_after_move: [
    "牌桌正转到另一台服务器：转好后，若还能这样做，会自动替你再送出「{what}」",
    "牌桌正轉到另一台伺服器：轉好後，若還能這樣做，會自動替你再送出「{what}」",
    "The table is moving to another server: once it has, “{what}” is sent again for you if it still applies",
  ],
  again_sent: ["牌桌已转好：已替你再送出「{what}」", "牌桌已轉好：已替你再送出「{what}」", "The table has moved: “{what}” sent again for you"],
  again_not_sent: [
    "牌桌已转好，但牌局已经变了：「{what}」没有再送出，请看牌桌",
    "牌桌已轉好，但牌局已經變了：「{what}」沒有再送出，請看牌桌",
    "The table has moved, but the position changed: “{what}” was not sent again. Check the table",
  ],
});

/**
 * A request the page may send again: a play (with its 勞改 confirmation, R30), a bid (R14–R18), 不叫 (R19), or
 * 託管 on or off (R45). Requests that cost something when repeated late (an escape, 撤牌) are never kept.
 * @typedef {{type: "play", cards: string[], confirmed: boolean}|{type: "bid", suit: string, count: number}
 *   |{type: "pass"}|{type: "autoplay", on: boolean}} Again
 */

/**
 * Whether `hand` holds every card of `cards` (as many times as it is there).
 * @param {string[]} hand
 * @param {string[]} cards
 */
function holds(hand, cards) {
  const left = [...hand];
  return cards.every((card) => {
    const at = left.indexOf(card);
    if (at >= 0) left.splice(at, 1);
    return at >= 0;
  });
}

/**
 * Whether `again` still makes sense at the table as `model` shows it: the same request sent now would be what
 * the player asked for then.
 * @param {Again} again
 * @param {import("./table_model.js").TableModel} model
 * @returns {boolean}
 */
export function stillApplies(again, model) {
  const { view, seat } = model;
  if (seat === null || view === null) return false;
  switch (again.type) {
    case "play":
      return isMyMove(model) && holds(view.hand, again.cards);
    case "bid":
      return (view.phase === "dealing" || view.phase === "bidding")
        && view.bid_options.some((option) => option.suit === again.suit && option.count === again.count);
    case "pass":
      return canPass(model);
    case "autoplay":
      return view.phase !== "finished" && Boolean(view.autoplay[seat]) !== again.on;
  }
}

/**
 * What the player asked for, in their language: "♠A ♠A", "叫主 ♥×2", "不叫", "託管".
 * @param {Again} again
 * @returns {string}
 */
export function againText(again) {
  switch (again.type) {
    case "play":
      return cardsText(again.cards);
    case "bid":
      return `${t("bid_short")} ${bidLabel(again)}`;
    case "pass":
      return t("bid_pass");
    case "autoplay":
      return t(again.on ? "autoplay_on" : "autoplay_off");
  }
}

/**
 * The page's requests that may be sent again: each one sent and not yet answered, and those refused with
 * `table_moving`, kept for the table's next state.
 */
export class Resender {
  constructor() {
    /** @type {Map<string, Again>} unanswered, by message id */
    this.unanswered = new Map();
    /** @type {Again[]} refused while the table moved, oldest first */
    this.kept = [];
  }

  /**
   * A request went out.
   * @param {string} id its message id
   * @param {Again} again
   */
  sent(id, again) {
    this.unanswered.set(id, again);
  }

  /**
   * The server answered message `id` (an `ack`, or an `error` with `code`).
   * @param {string} id
   * @param {string|null} code the error's code, null for an `ack`
   * @returns {Again|null} the request, when it is now kept to be sent again
   */
  answered(id, code) {
    const again = this.unanswered.get(id) ?? null;
    this.unanswered.delete(id);
    if (again === null || code !== "table_moving") return null;
    // Only the newest of a kind counts: a second 託管 press replaces the first.
    this.kept = this.kept.filter((other) => other.type !== again.type);
    this.kept.push(again);
    return again;
  }

  /**
   * A state of the table came: the kept requests, split into those that still apply (to send now, in order) and
   * those that no longer do. Both are forgotten.
   * @param {import("./table_model.js").TableModel} model the table as it now shows
   * @returns {{send: Again[], dropped: Again[]}}
   */
  due(model) {
    const due = { send: /** @type {Again[]} */ ([]), dropped: /** @type {Again[]} */ ([]) };
    for (const again of this.kept) (stillApplies(again, model) ? due.send : due.dropped).push(again);
    this.kept = [];
    return due;
  }

  /** The connection went or started afresh: nothing is kept (the player sees the table anew). */
  forget() {
    this.unanswered.clear();
    this.kept = [];
  }
}
