// The felt's two corner panels: the info line (the table, the hand's level and trumps, the standing bid,
// both teams' levels) and the score box (the attackers' points, the point cards they took, cards left).

import { bidLabel } from "./bids.js";
import { SUIT_SYMBOLS, rankLabel } from "./cards.js";
import { fill, h, patch } from "./dom.js";
import { t } from "./i18n.js";
import { tableName } from "./names.js";
import { seatName, teamName, trumpContext } from "./table_model.js";

/** @typedef {import("./table_model.js").TableModel} TableModel */

const POINT_RANKS = ["5", "T", "K"];

export class InfoLine {
  /** @param {import("./table_model.js").TableHandlers} handlers */
  constructor(handlers) {
    this.handlers = handlers;
    this.el = h("div.table-info");
  }

  /** @param {TableModel} model */
  render(model) {
    const { view, summary, seat } = model;
    const ctx = trumpContext(model);
    const trump = ctx.trumpSuit
      ? h(`span.trump-suit.${"HD".includes(ctx.trumpSuit) ? "red" : "black"}`, { title: t("trump") }, SUIT_SYMBOLS[ctx.trumpSuit]) : null;
    const levels = summary?.levels ?? ["3", "3"];
    const myTeam = (seat ?? 0) % 2;
    const bid = view?.bid
      ? t("bid_by", { name: seatName(summary?.seats[view.bid.seat]), bid: bidLabel(view.bid) }) : t("no_bid");
    // Every bid of the hand, oldest first (R16–R18): a tap opens the list (older servers send no `bids`).
    const bids = view?.bids ?? [];
    patch(this.el,
      h("div.info-main", {}, h("span.info-table", {}, tableName(summary?.number)),
        h("span.info-level", {}, t("hand_level", { level: rankLabel(ctx.level) })), trump),
      bids.length
        ? h("button.info-bid", { type: "button", onclick: () => this.handlers.bids(), dataset: { action: "bids" }, "aria-haspopup": "dialog" },
          h("span", {}, bid), h("span.bid-count", {}, t("bids_count", { n: bids.length })))
        : h("div.info-bid", {}, bid),
      h("div.info-teams", {},
        h("span", { class: myTeam === 0 && seat !== null ? "mine" : "" }, `${teamName(0, seat)} ${rankLabel(levels[0])}`),
        h("span", { class: myTeam === 1 && seat !== null ? "mine" : "" }, `${teamName(1, seat)} ${rankLabel(levels[1])}`)),
    );
  }
}

export class ScoreBox {
  constructor() {
    this.el = h("div.score-box");
  }

  /** @param {TableModel} model */
  render({ view }) {
    if (!view || view.phase === "dealing" || view.phase === "bidding") {
      this.el.replaceChildren();
      this.el.hidden = true;
      return;
    }
    this.el.hidden = false;
    const left = Math.max(...view.hand_sizes);
    fill(this.el,
      h("div.score-line", {},
        h("span", {}, t("attackers_points")), h("strong", { id: "attackers-points" }, String(view.attackers_points)),
        h("span.left", {}, `${t("cards_left")} ${left}`)),
      view.point_cards.length ? pointSummary(view.point_cards) : null,
    );
  }
}

/**
 * The point cards taken so far, by rank and suit: "5 ♠2 ♥1 · 10 ♣1 · K ♥3" (bounded however many).
 * @param {string[]} codes
 * @returns {HTMLElement}
 */
function pointSummary(codes) {
  const rows = POINT_RANKS.map((rank) => {
    const suits = "SHCD".split("").map((suit) => [suit, codes.filter((code) => code === `${rank}${suit}`).length])
      .filter(([, n]) => Number(n) > 0);
    if (!suits.length) return null;
    return h("span.point-rank", {}, h("b", {}, rankLabel(rank)),
      ...suits.map(([suit, n]) => h(`span.point-suit${"HD".includes(String(suit)) ? ".red" : ""}`, {},
        `${SUIT_SYMBOLS[/** @type {"S"} */ (suit)]}${n}`)));
  });
  return h("div.point-summary", { title: t("point_cards") }, ...rows);
}
