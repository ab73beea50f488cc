// Reporting a player after a hand (PROTOCOL.md §4 `POST /api/reports`): from the settlement, each other person
// who played the hand can be reported with a reason from the fixed list and an optional note.

import * as api from "./api.js";
import { REASONS } from "./console_words.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";

/**
 * Ask for a reason and a note, then send the report; a refusal is said in the reader's language.
 * @param {HTMLDialogElement} dialog
 * @param {{handId: number, accountId: number, name: string, failed: (error: unknown) => void}} what
 */
export function openReport(dialog, what) {
  const reason = h("select", { name: "reason" }, ...REASONS.map((code) => h("option", { value: code }, t(`reason_${code}`))));
  const note = /** @type {HTMLInputElement} */ (h("input", { name: "note", maxlength: "300", placeholder: t("report_note") }));
  const send = async () => {
    try {
      await api.report(what.handId, what.accountId, /** @type {HTMLSelectElement} */ (reason).value, note.value.trim());
      dialog.close();
      toast(t("report_sent"));
    } catch (error) {
      what.failed(error);
    }
  };
  dialog.replaceChildren(h("div.report-form", {},
    h("h2", {}, t("report_title", { name: what.name })),
    h("label", {}, t("reason"), reason),
    h("label", {}, t("report_note"), note),
    h("div.row.end", {},
      h("button", { onclick: () => dialog.close(), dataset: { action: "cancel-report" } }, t("cancel")),
      h("button.primary", { onclick: send, dataset: { action: "send-report" } }, t("send_report")))));
  dialog.showModal();
}
