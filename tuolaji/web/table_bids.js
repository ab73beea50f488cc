// The bid bar under the felt during the deal and the bid window after it: a button for each bid I can make
// (亮主, 加固 or 反主) and 不叫.

import { bidLabel } from "./bids.js";
import { h, patch } from "./dom.js";
import { addStrings, t } from "./i18n.js";
import { canPass } from "./table_model.js";

addStrings({
  bid_show_kind: ["亮主：", "亮主：", "Bid:"],
  bid_reinforce_kind: ["加固：", "加固：", "Reinforce:"],
  bid_overturn_kind: ["反主：", "反主：", "Overturn:"],
});

export class BidBar {
  /** @param {import("./table_model.js").TableHandlers} handlers */
  constructor(handlers) {
    this.handlers = handlers;
    this.el = h("div.bid-bar");
  }

  /**
   * @param {import("./table_model.js").TableModel} model
   * @param {boolean} online whether the connection is open (off: the bids are greyed out)
   */
  render(model, online) {
    const { view, seat } = model;
    const open = view && (view.phase === "dealing" || view.phase === "bidding");
    this.el.hidden = !open;
    if (!open || !view) {
      this.el.replaceChildren();
      return;
    }
    // Every option is the same kind of bid (亮主, 加固 or 反主): it is said once, and each button shows its cards.
    // The deal redraws the bar with every card: a button stays the same element while its bid stays open.
    const key = !view.bid ? "bid_show" : view.bid.seat === seat ? "bid_reinforce" : "bid_overturn";
    const buttons = view.bid_options.map((option) => {
      const red = "HD".includes(option.suit);
      const label = t(key, { bid: bidLabel(option) });
      return h(`button.bid${red ? ".red" : ""}`, {
        onclick: () => this.handlers.bid(option.suit, option.count), disabled: !online, title: label, "aria-label": label,
        dataset: { action: "bid", suit: option.suit, count: String(option.count), key: `bid-${option.suit}${option.count}` },
      }, bidLabel(option));
    });
    // R19: after the deal, 不叫 closes the window once every seat has said it or cannot bid.
    patch(this.el,
      view.bid_options.length ? h("span.bid-kind", {}, t(`${key}_kind`)) : null,
      ...buttons,
      canPass(model) ? h("button.bid-pass", { onclick: () => this.handlers.pass(), dataset: { action: "pass" } }, t("bid_pass")) : null);
  }
}
