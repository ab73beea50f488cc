// The action bar under the hand: 離開 at its start, then 開始 and the bot level while the table waits, the
// moves (提示, 出牌, 提醒, 撤牌), 上一輪, 邀請朋友, 說話 and 託管.

import { bindBotLevel } from "./bots.js";
import { h, patch } from "./dom.js";
import { addStrings, t } from "./i18n.js";
import { isMyMove, retractCost } from "./table_model.js";

addStrings({
  retract_cost: ["撤牌扣{n}分", "撤牌扣{n}分", "Retract −{n}"],
  retract_cost_title: [
    "撤回你这一轮出的牌重出：每张扣 10 分，算在你方",
    "撤回你這一輪出的牌重出：每張扣 10 分，算在你方",
    "Take back your follow and play again: 10 points a card against your team",
  ],
  phrases_short: ["说话", "說話", "Say"],
});

/** @typedef {import("./table_model.js").TableModel} TableModel */
/** @typedef {{hint: () => void, play: () => void, lastTrick: () => void}} TablePresses what the table does itself */

export class ActionBar {
  /**
   * @param {import("./table_model.js").TableHandlers} handlers what is sent
   * @param {TablePresses} presses 提示 (select the hint), 出牌 (send the selection) and 上一輪 (show the last trick or not)
   */
  constructor(handlers, presses) {
    this.handlers = handlers;
    this.presses = presses;
    this.el = h("div.action-bar");
  }

  /**
   * @param {TableModel} model
   * @param {boolean} online whether the connection is open (off: every move is greyed out)
   * @param {boolean} showLast whether 上一輪 is pressed
   */
  render(model, online, showLast) {
    const { summary } = model;
    const buttons = [...this.#waitingButtons(model), ...this.#moveButtons(model, online, showLast), ...this.#tableButtons(model)];
    if (!online) {
      // Nothing can be sent now: every move waits (上一輪 only looks at what the page has).
      for (const button of buttons) {
        if (button instanceof HTMLButtonElement && button.dataset.action !== "last-trick") button.disabled = true;
      }
    }
    // 離開 stands apart at the bar's start, away from the moves (it may be an escape, R43: it asks first).
    const leave = summary
      ? h("button.leave", { type: "button", onclick: () => this.handlers.leave(), disabled: !online, dataset: { action: "leave" } }, t("leave"))
      : null;
    patch(this.el, leave, h("div.actions-main", {}, ...buttons));
  }

  /**
   * 開始 (until I am ready) and the level of the bots to add, while the table waits.
   * @param {TableModel} model
   * @returns {HTMLElement[]}
   */
  #waitingButtons({ seat, summary }) {
    const buttons = [];
    if (seat !== null && summary && (summary.state === "waiting" || summary.state === "stopped")) {
      const me = summary.seats[seat];
      if (!me?.ready) buttons.push(h("button.primary", { onclick: () => this.handlers.start(), dataset: { action: "start" } }, t("start")));
    }
    if (seat !== null && summary && summary.state !== "playing" && summary.seats.some((info) => info.kind === "empty")) {
      const picker = bindBotLevel(/** @type {HTMLSelectElement} */ (h("select")));
      buttons.push(h("label.bot-level", {}, h("span", {}, t("bot_level")), picker));
    }
    return buttons;
  }

  /**
   * The moves of the play and the review (提示, 出牌, 提醒, 撤牌 with its cost) and 上一輪.
   * @param {TableModel} model
   * @param {boolean} online
   * @param {boolean} showLast
   * @returns {HTMLElement[]}
   */
  #moveButtons(model, online, showLast) {
    const { view, seat } = model;
    const buttons = [];
    const playing = view && (view.phase === "playing" || view.phase === "review");
    if (seat !== null && playing && view) {
      const mine = isMyMove(model) && online;
      buttons.push(
        h("button", { onclick: () => this.presses.hint(), disabled: !mine || view.hint.length === 0, dataset: { action: "hint" } }, t("hint")),
        h("button.primary.play", { onclick: () => this.presses.play(), disabled: !mine, dataset: { action: "play" } }, t("play")),
      );
      if (view.can_remind) buttons.push(h("button", { onclick: () => this.handlers.remind(), dataset: { action: "remind" } }, t("remind")));
      if (view.can_retract) {
        const cost = retractCost(model);
        buttons.push(h("button.warn", {
          onclick: () => this.handlers.retract(), title: t("retract_cost_title"), dataset: { action: "retract", cost: String(cost) },
        }, t("retract_cost", { n: cost })));
      }
    }
    if (view && view.last_trick && playing) {
      buttons.push(h(`button${showLast ? ".active" : ""}`, {
        onclick: () => this.presses.lastTrick(), dataset: { action: "last-trick" }, "aria-pressed": String(showLast),
      }, t("last_trick")));
    }
    return buttons;
  }

  /**
   * 邀請朋友 (a private table), 說話, and 託管 on or off (seated, until the hand is over).
   * @param {TableModel} model
   * @returns {HTMLElement[]}
   */
  #tableButtons({ view, seat, summary }) {
    const buttons = [];
    if (summary?.private && summary.invite) {
      buttons.push(h("button.invite", { onclick: () => this.handlers.invite(), dataset: { action: "invite" } }, t("invite")));
    }
    if (summary) {
      buttons.push(h("button.ghost.phrases", {
        onclick: () => this.handlers.phrases(), dataset: { action: "phrases" }, title: t("phrases"), "aria-label": t("phrases"),
      }, t("phrases_short")));
    }
    if (seat !== null && view && view.phase !== "finished") {
      const on = view.autoplay[seat];
      buttons.push(h(`button.ghost${on ? ".active" : ""}`, {
        onclick: () => this.handlers.autoplay(!on), dataset: { action: "autoplay" }, "aria-pressed": String(on),
      }, t(on ? "autoplay_off" : "autoplay_on")));
    }
    return buttons;
  }
}
