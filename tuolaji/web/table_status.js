// The table's status line above the hand: a refusal, a notice for a few seconds, or what the table is at
// (reconnecting, 託管 on, a reminder, my turn, whom it waits for).

import { h } from "./dom.js";
import { errorElement } from "./errors.js";
import { addStrings, t } from "./i18n.js";
import { myAutoplay, myTurn, seatName } from "./table_model.js";

addStrings({
  autoplay_status: [
    "托管中：系统替你出牌 · 按「取消托管」自己出牌",
    "託管中：系統替你出牌 · 按「取消託管」自己出牌",
    "Auto-play (託管) is on: the server plays for you · press “Stop auto-play” to play yourself",
  ],
  autoplay_status_timeouts: [
    "托管中（连续超时 {m} 次）：系统替你出牌 · 按「取消托管」自己出牌",
    "託管中（連續超時 {m} 次）：系統替你出牌 · 按「取消託管」自己出牌",
    "Auto-play (託管) is on after {m} timeouts in a row: the server plays for you · press “Stop auto-play” to play yourself",
  ],
  offline_status: ["重新连接中…：暂时不能出牌", "重新連接中…：暫時不能出牌", "Reconnecting… moves are on hold"],
});

/** How long a notice shows in the status line (ms). */
export const NOTICE_MS = 4000;

/** @typedef {import("./table_model.js").TableModel} TableModel */

export class StatusLine {
  constructor() {
    this.el = h("div.status-line", { role: "status", "aria-live": "polite" });
    /** @type {import("./errors.js").Refusal|string|null} a refusal, or the key of a local message */
    this.error = null;
    /** @type {{text: string, kind: string, until: number}|null} a notice in the status line, until when */
    this.shownNotice = null;
    /** @type {string|null} why 託管 came on for me ("timeouts", "disconnect", "request"), from its event */
    this.autoplayReason = null;
    /** the timeouts in a row that turned 託管 on */
    this.autoplayLimit = 0;
  }

  /**
   * Say something for a few seconds (the newer word wins over a refusal shown).
   * @param {string} text
   * @param {"info"|"warn"|"error"} kind
   * @param {number} ms
   */
  notice(text, kind, ms) {
    this.error = null;
    this.shownNotice = { text, kind, until: performance.now() + ms };
  }

  /**
   * @param {string|null} reason why 託管 came on for me, null when it went off
   * @param {number} limit the timeouts in a row that turn it on
   */
  setAutoplayReason(reason, limit) {
    this.autoplayReason = reason;
    this.autoplayLimit = limit;
  }

  /**
   * Take away the notice whose time is up.
   * @param {number} now performance.now() ms
   * @returns {boolean} whether one was taken away (the line is to be drawn again)
   */
  expire(now) {
    if (!this.shownNotice || this.shownNotice.until > now) return false;
    this.shownNotice = null;
    return true;
  }

  /**
   * @param {TableModel} model
   * @param {boolean} online whether the connection is open
   */
  render(model, online) {
    const [text, kind] = this.#say(model, online);
    this.el.replaceChildren(text);
    this.el.className = `status-line ${kind}`;
  }

  /**
   * @param {TableModel} model
   * @param {boolean} online
   * @returns {[string|Node, string]} what the line says, and its kind (a class)
   */
  #say(model, online) {
    const { view, seat, summary } = model;
    const notice = this.shownNotice;
    if (this.error) {
      const names = (/** @type {number} */ s) => seatName(model.summary?.seats[s]);
      return [typeof this.error === "string" ? t(this.error) : errorElement(this.error, names), "error"];
    }
    if (notice) return [notice.text, `notice ${notice.kind}`];
    if (!online) return [t("offline_status"), "offline"];
    if (myAutoplay(model)) {
      const limit = this.autoplayLimit;
      const timeouts = this.autoplayReason === "timeouts" && limit > 0;
      return [timeouts ? t("autoplay_status_timeouts", { m: limit }) : t("autoplay_status"), "auto"];
    }
    if (view && seat !== null && view.reminded && view.phase !== "finished") return [t("reminded"), "warn"];
    if (view && myTurn(model)) return [t(view.trick.length === 0 ? "your_lead" : "your_turn"), "turn"];
    if (view && view.phase === "review") return [t("reviewing"), ""];
    if (view && view.phase === "playing" && view.to_move !== null) {
      return [t("waiting_for", { name: seatName(summary?.seats[view.to_move]) }), ""];
    }
    if (seat === null && summary) return [t("spectating"), ""];
    return ["", ""];
  }
}
