// The bidding of a hand (R16–R18) as a list a tap opens: who showed what, in order, and whether it was a
// bid, a 加固 or a 反主 (SeatView.bids). Bids are public: every seat and spectator sees the same list.

import { SUIT_SYMBOLS } from "./cards.js";
import { h } from "./dom.js";
import { addStrings, t } from "./i18n.js";

addStrings({
  bids_title: ["这一盘的叫主", "這一盤的叫主", "Bids this hand"],
  bids_count: ["共 {n} 次 ▸", "共 {n} 次 ▸", "{n} bids ▸"],
  bids_none: ["还没有人亮主。", "還沒有人亮主。", "Nobody has bid yet."],
  bids_note: [
    "亮主后同一人可以加固；别人亮更多张同级牌就是反主（R16–R18）。",
    "亮主後同一人可以加固；別人亮更多張同級牌就是反主（R16–R18）。",
    "After a bid its bidder may reinforce (加固); someone else showing more level cards overturns it (反主) (R16–R18).",
  ],
});

/** @typedef {{seat: number, suit: string, count: number}} BidRecord */

/**
 * "♥×2" for a bid.
 * @param {{suit: string, count: number}} bid
 * @returns {string}
 */
export function bidLabel(bid) {
  return `${SUIT_SYMBOLS[/** @type {"S"} */ (bid.suit)]}×${bid.count}`;
}

/**
 * What the bid at `index` was: the first bid (亮主), its bidder raising it (加固), or another seat's (反主).
 * @param {BidRecord[]} bids every bid of the hand, oldest first
 * @param {number} index
 * @returns {"bid_show"|"bid_reinforce"|"bid_overturn"} the i18n key of its kind
 */
export function bidKind(bids, index) {
  if (index === 0) return "bid_show";
  return bids[index].seat === bids[index - 1].seat ? "bid_reinforce" : "bid_overturn";
}

/**
 * Open the list of a hand's bids.
 * @param {HTMLDialogElement} dialog
 * @param {BidRecord[]} bids
 * @param {(seat: number) => string} name the name shown for a seat
 */
export function openBidHistory(dialog, bids, name) {
  const rows = bids.map((bid, index) =>
    h(`li.bid-entry${"HD".includes(bid.suit) ? ".red" : ""}`, { dataset: { seat: String(bid.seat) } },
      h("span.bid-who", {}, name(bid.seat)), " ", t(bidKind(bids, index), { bid: bidLabel(bid) })));
  dialog.replaceChildren(h("div.bid-history", {},
    h("h2", {}, t("bids_title")),
    rows.length ? h("ol.bid-list", {}, ...rows) : h("p", {}, t("bids_none")),
    h("p.note", {}, t("bids_note")),
    h("div.row.end", {}, h("button.primary", { type: "button", dataset: { action: "close-bids" }, onclick: () => dialog.close() }, t("close")))));
  if (!dialog.open) dialog.showModal();
}
