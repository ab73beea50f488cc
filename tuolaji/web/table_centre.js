// The felt's centre: the deal's count, the bidding window with its clock, or the waiting room (who the
// table still waits for).

import { h } from "./dom.js";
import { addStrings, t } from "./i18n.js";
import { secondsLeft } from "./table_clocks.js";
import { SEAT_KEYS, nameAt } from "./table_model.js";

addStrings({
  waiting_title: ["等大家到齐", "等大家到齊", "Waiting for everyone"],
  waiting_ready: ["已准备", "已準備", "ready"],
  waiting_press: ["还没按开始", "還沒按開始", "has not pressed Start"],
  waiting_you: ["按「开始」就准备好了", "按「開始」就準備好了", "press Start when you are ready"],
  waiting_empty: ["空位：等人入座", "空位：等人入座", "empty: waiting for a player"],
});

/** @typedef {import("./table_model.js").TableModel} TableModel */
/** @typedef {import("./table_model.js").SeatSummary} SeatSummary */

export class CentreMessage {
  constructor() {
    this.el = h("div.centre-msg");
  }

  /**
   * @param {TableModel} model
   * @param {boolean} covered whether plays are on the felt (the centre's words then give way)
   */
  render(model, covered) {
    const { view, summary } = model;
    const waiting = summary && (summary.state === "waiting" || summary.state === "stopped");
    this.el.classList.toggle("waiting", Boolean(waiting));
    if (waiting && summary) {
      this.el.replaceChildren(h("div.waiting-title", {}, t("waiting_title")),
        h("ul.waiting-list", {}, ...summary.seats.map((info) => waitingLine(model, info))));
      this.el.hidden = false;
      return;
    }
    let centre = "";
    if (view?.phase === "dealing") centre = t("dealing", { n: view.cards_dealt });
    else if (view?.phase === "bidding") centre = t("bidding_window");
    this.el.replaceChildren(h("span.centre-text", {}, centre), h("span.centre-clock"));
    this.el.hidden = !centre || covered;
  }

  /**
   * Update the clock of the deal or the bid window without re-rendering.
   * @param {import("./table_model.js").Clock|null} clock
   */
  tick(clock) {
    const centreClock = this.el.querySelector(".centre-clock");
    if (centreClock) {
      const running = clock !== null && clock.kind !== "turn";
      centreClock.textContent = running && clock ? ` ${secondsLeft(clock)}s` : "";
    }
  }
}

/**
 * One seat in the waiting room: who sits there and whether they are ready, or that it is empty.
 * @param {TableModel} model
 * @param {SeatSummary} info
 * @returns {HTMLElement}
 */
function waitingLine(model, info) {
  const ready = info.kind === "bot" || (info.kind === "human" && info.ready);
  const status = info.kind === "empty" ? "empty" : ready ? "ready" : "missing";
  const what = status === "empty" ? t("waiting_empty") : status === "ready" ? `✓ ${t("waiting_ready")}`
    : info.seat === model.seat ? t("waiting_you") : t("waiting_press");
  return h("li", { dataset: { seat: String(info.seat), status } },
    h("span.dir", {}, t(SEAT_KEYS[info.seat])), " ",
    status === "empty" ? null : h("b", {}, nameAt(model, info.seat)), status === "empty" ? null : " ", what);
}
