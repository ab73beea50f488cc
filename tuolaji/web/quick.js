// 快速開始 (PROTOCOL.md §2.8): the dialog that queues (preset, 勞改 or strict, how long to wait for
// people before bots, the bots' level, with a friend), the panel while queueing (queue size, wait so
// far, estimate, cancel), the answer to `match_found` (sent at once), a friend's link (/#pair/CODE)
// and the lobby's count of people queueing per preset.

import { bindBotLevel, chosenBot } from "./bots.js";
import { h, patch, toast } from "./dom.js";
import { addStrings, t } from "./i18n.js";
import { recentMutes } from "./phrases.js";

addStrings({
  quick_match: ["快速开始", "快速開始", "Quick match"],
  quick_title: ["快速开始：和真人打", "快速開始：和真人打", "Quick match: play with people"],
  quick_body: [
    "找三位级别相近的玩家一起打，等得越久，能配到的级别越宽。",
    "找三位級別相近的玩家一起打，等得越久，能配到的級別越寬。",
    "Three players of about your rank join you; the longer you wait, the wider the ranks that fit.",
  ],
  quick_wait: ["等真人多久", "等真人多久", "Wait for people"],
  quick_wait_never: ["只和真人打", "只和真人打", "People only"],
  quick_wait_n: ["{n} 秒后用机器人补位", "{n} 秒後用機器人補位", "Bots after {n} s"],
  quick_with_friend: ["和朋友一起（得到一个链接，两人坐对家）", "和朋友一起（得到一個連結，兩人坐對家）", "With a friend (you get a link; you sit as partners)"],
  quick_start: ["开始排队", "開始排隊", "Queue"],
  quick_queueing: ["快速开始 · {preset} · {mode}", "快速開始 · {preset} · {mode}", "Quick match · {preset} · {mode}"],
  quick_size: ["排队 {n} 人", "排隊 {n} 人", "{n} queueing"],
  quick_waited: ["已等 {s} 秒", "已等 {s} 秒", "waited {s} s"],
  quick_estimate: ["预计还要约 {s} 秒", "預計還要約 {s} 秒", "about {s} s more"],
  quick_estimate_soon: ["马上就好", "馬上就好", "any moment now"],
  quick_estimate_unknown: ["预计时间未知", "預計時間未知", "no estimate yet"],
  quick_held: ["你常提前离开配好的牌桌，{s} 秒后才开始配对", "你常提前離開配好的牌桌，{s} 秒後才開始配對", "You often leave matched tables early: matching starts in {s} s"],
  quick_cancel: ["取消排队", "取消排隊", "Cancel"],
  quick_pair_wait: ["等朋友来：把这个链接发给他", "等朋友來：把這個連結傳給他", "Waiting for your friend: send them this link"],
  quick_partner: ["同伴：{name}", "同伴：{name}", "Partner: {name}"],
  quick_found: ["找到牌友：{names}，正在入座…", "找到牌友：{names}，正在入座…", "Found: {names}; taking your seats…"],
  quick_found_bots: ["（另有 {n} 个机器人）", "（另有 {n} 個機器人）", " (and {n} bot(s))"],
  quick_requeued: ["有人没回应，你回到队列最前面", "有人沒回應，你回到隊列最前面", "Someone did not answer: you are back at the front of the queue"],
  quick_counts: ["快速开始排队中：", "快速開始排隊中：", "Queueing: "],
  quick_count_n: ["{preset} {n} 人", "{preset} {n} 人", "{preset} {n}"],
  quick_lost: ["你的排队已失效（离开太久），请重新排队", "你的排隊已失效（離開太久），請重新排隊", "Your place in the queue was lost (away too long): queue again"],
  quick_cancelled_cancelled: ["已取消排队", "已取消排隊", "You left the queue"],
  quick_cancelled_partner_cancelled: ["同伴取消了排队", "同伴取消了排隊", "Your partner left the queue"],
  quick_cancelled_seated: ["你去了别的牌桌，排队已取消", "你去了別的牌桌，排隊已取消", "You went to a table: you left the queue"],
  quick_cancelled_no_answer: ["配对时没有回应，已离开队列", "配對時沒有回應，已離開隊列", "No answer when players were found: you left the queue"],
  quick_cancelled_away: ["离线太久，已离开队列", "離線太久，已離開隊列", "Away too long: you left the queue"],
  quick_cancelled_no_partner: ["朋友一直没来，排队已取消", "朋友一直沒來，排隊已取消", "Your friend did not come: you left the queue"],
  quick_cancelled_seated_elsewhere: ["你已在别处入座，这次配对取消", "你已在別處入座，這次配對取消", "You sat down elsewhere: this match is off"],
  quick_cancelled_unavailable: ["服务器暂时无法入座，请重新排队", "伺服器暫時無法入座，請重新排隊", "The card room could not seat you just now: queue again"],
});

const WAITS = [null, 10, 30, 60];
const PRESETS = ["nanning", "guigang", "fourdeck"];
const CHOICE_KEY = "tuolaji.quick";
const QUEUEING_KEY = "tuolaji.queueing";

/**
 * @typedef {{preset: string, illegal_follow: string, bots_after: number|null, bot: string, size: number,
 *   waited_ms: number, estimate_ms: number|null, held_ms: number, pair_code: string|null,
 *   partner: {id: number, nickname: string}|null, requeued: boolean}} QueueStatus
 * @typedef {{preset: string, illegal_follow: string, players: number}} QueueCount
 */

/** @returns {{preset: string, illegal_follow: string, bots_after: number|null}} the remembered choice */
function savedChoice() {
  try {
    const saved = JSON.parse(localStorage.getItem(CHOICE_KEY) ?? "{}");
    return {
      preset: PRESETS.includes(saved.preset) ? saved.preset : "nanning",
      illegal_follow: saved.illegal_follow === "reject" ? "reject" : "laogai",
      bots_after: WAITS.includes(saved.bots_after) ? saved.bots_after : 30,
    };
  } catch {
    return { preset: "nanning", illegal_follow: "laogai", bots_after: 30 };
  }
}

/** @returns {string|null} the partner code of a friend's link opened from the address bar, if any */
export function pairFromAddress() {
  const match = /^#pair\/([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
  return match ? match[1] : null;
}

export class QuickMatchView {
  /**
   * @param {{panel: HTMLElement, counts: HTMLElement, dialog: HTMLDialogElement}} els
   * @param {(type: string, fields?: Record<string, any>) => string|null} send
   */
  constructor(els, send) {
    this.els = els;
    this.send = send;
    /** @type {QueueStatus|null} */
    this.status = null;
    /** when `status` arrived (performance.now()) */
    this.since = 0;
    /** @type {{match: string, players: {nickname: string}[], bots: number}|null} */
    this.found = null;
    /** @type {QueueCount[]} */
    this.queues = [];
    this.timer = setInterval(() => this.#renderWait(), 1000);
  }

  /** Open the dialog that queues. */
  open() {
    const choice = savedChoice();
    const select = (/** @type {string} */ name, /** @type {[string, string][]} */ options, /** @type {string} */ value) => {
      const el = /** @type {HTMLSelectElement} */ (h("select", { name }, ...options.map(([v, label]) => h("option", { value: v }, label))));
      el.value = value;
      return el;
    };
    const presets = PRESETS.map((p) => /** @type {[string, string]} */ ([p, `${t(`preset_${p}`)}${this.#count(p) ? ` · ${t("quick_size", { n: this.#count(p) })}` : ""}`]));
    const form = h("form.options-form", { method: "dialog", id: "quick-form" },
      h("h2", {}, t("quick_title")),
      h("p.wide", {}, t("quick_body")),
      h("label", {}, h("span", {}, t("preset")), select("preset", presets, choice.preset)),
      h("label", {}, h("span", {}, t("illegal_follow")),
        select("illegal_follow", [["laogai", t("mode_laogai")], ["reject", t("mode_reject")]], choice.illegal_follow)),
      h("label", {}, h("span", {}, t("quick_wait")), select("bots_after",
        WAITS.map((n) => [String(n), n === null ? t("quick_wait_never") : t("quick_wait_n", { n })]), String(choice.bots_after))),
      h("label", {}, h("span", {}, t("bot_level")), bindBotLevel(/** @type {HTMLSelectElement} */ (h("select", { name: "bot" })))),
      h("label.check", {}, h("input", { type: "checkbox", name: "pair" }), h("span", {}, t("quick_with_friend"))),
      h("div.row.end", {},
        h("button", { value: "cancel", formnovalidate: true }, t("cancel")),
        h("button.primary", { value: "queue", dataset: { action: "quick-queue" } }, t("quick_start"))));
    this.els.dialog.replaceChildren(form);
    this.els.dialog.onclose = () => {
      if (this.els.dialog.returnValue === "queue") this.#queue(/** @type {HTMLFormElement} */ (form));
    };
    this.els.dialog.returnValue = "";
    this.els.dialog.showModal();
  }

  /** @param {HTMLFormElement} form */
  #queue(form) {
    const data = new FormData(form);
    const wait = String(data.get("bots_after"));
    const choice = {
      preset: String(data.get("preset")),
      illegal_follow: String(data.get("illegal_follow")),
      bots_after: wait === "null" ? null : Number(wait),
    };
    localStorage.setItem(CHOICE_KEY, JSON.stringify(choice));
    this.send("quick_match", { ...choice, bot: chosenBot(), avoid: recentMutes(), pair: data.get("pair") === "on" });
  }

  /** @param {string} code a friend's partner code (their link): queue with them */
  joinPartner(code) {
    this.send("quick_match", { partner: code, bot: chosenBot(), avoid: recentMutes() });
  }

  /** @param {QueueStatus} queue a `match_status` (or the welcome's place in the queue) */
  onStatus(queue) {
    // Among many nodes a status may come after the match was found: the match goes on, unless it is off.
    if (this.found && !queue.requeued) return;
    if (queue.requeued && this.found) toast(t("quick_requeued"));
    this.status = queue;
    this.since = performance.now();
    this.found = null;
    sessionStorage.setItem(QUEUEING_KEY, "1");
    this.render();
  }

  /** @param {QueueStatus|null} queue the `welcome`'s place in the queue */
  onWelcome(queue) {
    if (queue) {
      this.onStatus(queue);
      return;
    }
    if (sessionStorage.getItem(QUEUEING_KEY)) toast(t("quick_lost"), "error");
    this.#clear();
  }

  /** @param {{match: string, players: {nickname: string}[], bots: number}} msg a `match_found`: answered at once */
  onFound(msg) {
    this.found = msg;
    this.send("accept_match", { match: msg.match });
    this.render();
  }

  /** @param {string} reason why the player left the queue (`match_cancelled`) */
  onCancelled(reason) {
    this.#clear();
    toast(t(`quick_cancelled_${reason}`), reason === "cancelled" || reason === "seated" ? "info" : "error");
  }

  /** The player sat down at a table (the match's, or another): no longer queueing. */
  onSeated() {
    this.#clear();
  }

  /** @param {QueueCount[]} queues `lobby_queues` */
  onQueues(queues) {
    this.queues = queues;
    this.renderCounts();
  }

  #clear() {
    this.status = null;
    this.found = null;
    sessionStorage.removeItem(QUEUEING_KEY);
    this.render();
  }

  /** @param {string} preset @returns {number} people queueing for it (both kinds) */
  #count(preset) {
    return this.queues.filter((q) => q.preset === preset).reduce((sum, q) => sum + q.players, 0);
  }

  renderCounts() {
    const total = PRESETS.reduce((sum, p) => sum + this.#count(p), 0);
    this.els.counts.hidden = total === 0;
    this.els.counts.replaceChildren(t("quick_counts"),
      PRESETS.map((p) => t("quick_count_n", { preset: t(`preset_${p}`), n: this.#count(p) })).join(" · "));
    this.els.counts.dataset.total = String(total);
  }

  /** Redraw the panel (also after a language change). */
  render() {
    const { panel } = this.els;
    const queue = this.status;
    panel.hidden = !queue && !this.found;
    panel.dataset.state = this.found ? "found" : queue ? "queueing" : "idle";
    this.renderCounts();
    if (!queue && !this.found) {
      panel.replaceChildren();
      return;
    }
    if (this.found) {
      const names = this.found.players.map((p) => p.nickname).join("、");
      panel.replaceChildren(h("p.quick-found", {}, t("quick_found", { names }),
        this.found.bots ? t("quick_found_bots", { n: this.found.bots }) : ""));
      return;
    }
    const q = /** @type {QueueStatus} */ (queue);
    const mode = t(q.illegal_follow === "reject" ? "mode_reject" : "mode_laogai");
    const link = q.pair_code ? `${location.origin}/#pair/${q.pair_code}` : null;
    patch(panel,
      h("h3", {}, t("quick_queueing", { preset: t(`preset_${q.preset}`), mode })),
      h("p.quick-line", {}, h("span.quick-size", {}, t("quick_size", { n: q.size })), " · ",
        h("span.quick-waited", {}), " · ", h("span.quick-estimate", {})),
      h("p.quick-held", {}),
      q.partner ? h("p", {}, t("quick_partner", { name: q.partner.nickname })) : null,
      link ? h("p", {}, t("quick_pair_wait")) : null,
      link ? h("input.quick-link", { readonly: true, value: link, "aria-label": t("quick_pair_wait") }) : null,
      h("div.row.end", {}, h("button", { type: "button", dataset: { action: "quick-cancel" }, onclick: () => this.send("cancel_match") }, t("quick_cancel"))));
    this.#renderWait();
  }

  /** The wait so far, the estimate and the hold, counted on this page's clock since the last status. */
  #renderWait() {
    const q = this.status;
    if (!q || this.found) return;
    const elapsed = performance.now() - this.since;
    const waited = Math.floor((q.waited_ms + elapsed) / 1000);
    const waitedEl = this.els.panel.querySelector(".quick-waited");
    const estimateEl = this.els.panel.querySelector(".quick-estimate");
    const heldEl = /** @type {HTMLElement|null} */ (this.els.panel.querySelector(".quick-held"));
    if (waitedEl) waitedEl.textContent = t("quick_waited", { s: waited });
    if (estimateEl) {
      const left = q.estimate_ms === null ? null : Math.ceil((q.estimate_ms - elapsed) / 1000);
      estimateEl.textContent = left === null ? t("quick_estimate_unknown")
        : left <= 0 ? t("quick_estimate_soon") : t("quick_estimate", { s: left });
    }
    if (heldEl) {
      const held = Math.ceil((q.held_ms - elapsed) / 1000);
      heldEl.hidden = held <= 0;
      heldEl.textContent = held > 0 ? t("quick_held", { s: held }) : "";
    }
  }
}
