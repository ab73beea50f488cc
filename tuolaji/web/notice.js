// The moderators' notice to everyone (PROTOCOL.md §2.3 `notice`): a banner under the top bar, in the reader's
// language, a maintenance notice counting its minutes down; dismissed by the reader or when it runs out.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import "./console_words.js";

/** @typedef {{id: number, kind: string, remaining_ms: number, text: string|null}} Notice */

export class NoticeBanner {
  /** @param {HTMLElement} root the banner element */
  constructor(root) {
    this.root = root;
    /** @type {(Notice & {ends: number})|null} */
    this.notice = null;
    /** @type {number|null} the notice the reader dismissed */
    this.dismissed = null;
    /** @type {ReturnType<typeof setInterval>|undefined} */
    this.timer = undefined;
  }

  /** @param {Notice} notice a `notice` message */
  show(notice) {
    this.notice = { ...notice, ends: performance.now() + notice.remaining_ms };
    clearInterval(this.timer);
    this.timer = setInterval(() => this.render(), 15_000);
    this.render();
  }

  /** Redraw (also after a language change and as the minutes pass). */
  render() {
    const notice = this.notice;
    const left = notice ? notice.ends - performance.now() : 0;
    if (!notice || left <= 0 || this.dismissed === notice.id) {
      this.root.hidden = true;
      clearInterval(this.timer);
      return;
    }
    const minutes = Math.ceil(left / 60_000);
    const text = notice.kind === "maintenance"
      ? t(minutes > 0 ? "notice_maintenance" : "notice_maintenance_now", { m: minutes })
      : t("notice_from_staff", { text: notice.text ?? "" });
    this.root.dataset.kind = notice.kind;
    this.root.replaceChildren(h("span.notice-text", { id: "notice-text" }, text),
      h("button.small.ghost", { dataset: { action: "dismiss-notice" }, onclick: () => this.dismiss() }, t("dismiss")));
    this.root.hidden = false;
  }

  dismiss() {
    this.dismissed = this.notice?.id ?? null;
    this.render();
  }
}
