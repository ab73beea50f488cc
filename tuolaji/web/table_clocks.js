// The table's countdowns: the timer by the hand (my turn, the review window) and how a clock is painted
// (its bar, its seconds, urgent near the end), for the seats' clocks and the felt's centre too.

import { h } from "./dom.js";
import { addStrings, t } from "./i18n.js";
import { myAutoplay, retractCost } from "./table_model.js";

addStrings({
  review_left: ["复核 {s} 秒", "複核 {s} 秒", "Review {s}s"],
  review_retract: ["复核 {s} 秒：撤牌扣 {n} 分", "複核 {s} 秒：撤牌扣 {n} 分", "Review {s}s: retracting costs {n} pts"],
  turn_left: ["{s} 秒", "{s} 秒", "{s}s"],
});

/** @typedef {import("./table_model.js").Clock} Clock */
/** @typedef {import("./table_model.js").TableModel} TableModel */

export class TurnTimer {
  constructor() {
    this.bar = h("div.turn-timer-bar");
    this.text = h("span.turn-timer-text");
    this.el = h("div.turn-timer", { id: "turn-timer", role: "timer" }, this.bar, this.text);
  }

  /**
   * The timer by the hand: my turn's clock, or the review window (with what 撤牌 would cost).
   * @param {TableModel} model
   */
  tick(model) {
    const { clock, seat } = model;
    const mine = clock !== null && clock.kind === "turn" && clock.seat === seat && seat !== null && !myAutoplay(model);
    const review = clock !== null && clock.kind === "review" && seat !== null;
    this.el.dataset.kind = mine ? "turn" : review ? "review" : "";
    if (!clock || (!mine && !review)) {
      this.bar.style.width = "0%";
      this.text.textContent = "";
      this.el.classList.remove("urgent");
      return;
    }
    const cost = model.view?.can_retract ? retractCost(model) : 0;
    paintCountdown(this.el, this.bar, this.text, clock, {
      max: 100,
      urgent: mine,
      label: (left) => {
        const s = review ? (left / 1000).toFixed(1) : wholeSeconds(left);
        return mine ? t("turn_left", { s }) : cost ? t("review_retract", { s, n: cost }) : t("review_left", { s });
      },
    });
  }
}

/** @param {Clock} clock @returns {number} */
export function secondsLeft(clock) {
  return Math.max(0, Math.ceil((clock.deadline - performance.now()) / 1000));
}

/** @param {number} left ms @returns {string} the whole seconds left, rounded up */
function wholeSeconds(left) {
  return String(Math.ceil(left / 1000));
}

/**
 * A seat's clock: its bar, whole seconds and `urgent` under 5 s.
 * @param {Element|null} el
 * @param {Clock} clock
 */
export function paintClock(el, clock) {
  if (!el) return;
  paintCountdown(el, /** @type {HTMLElement|null} */ (el.querySelector(".clock-bar")), el.querySelector(".clock-text"), clock);
}

/**
 * Paint a countdown: its bar's share of the clock's total, its text, and `urgent` under 5 s.
 * @param {Element} el the countdown (marked urgent)
 * @param {HTMLElement|null} bar
 * @param {Element|null} text
 * @param {Clock} clock
 * @param {{label?: (left: number) => string, max?: number, urgent?: boolean}} [how] the text for the ms left
 *   (whole seconds unless told), the widest the bar gets (percent), whether it may turn urgent at all
 */
function paintCountdown(el, bar, text, clock, { label = wholeSeconds, max = Infinity, urgent = true } = {}) {
  const left = Math.max(0, clock.deadline - performance.now());
  if (bar) bar.style.width = `${clock.total > 0 ? Math.min(max, (100 * left) / clock.total) : 0}%`;
  if (text) text.textContent = label(left);
  el.classList.toggle("urgent", urgent && left < 5000);
}
