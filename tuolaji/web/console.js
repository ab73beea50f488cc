// The moderators' console (PROTOCOL.md §4), for accounts with a role: live tables on every node (watch one
// as a spectator, close one), accounts (console_accounts.js), open reports with their hands to replay, a
// notice to everyone, the nodes (drain one: admins), and the audit of what staff did.

import * as api from "./api.js";
import { AccountsPane } from "./console_accounts.js";
import { CLOSE_REASONS, OUTCOMES, when } from "./console_words.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./table_model.js";

const TABS = ["tables", "accounts", "reports", "notice", "nodes", "audit"];

/**
 * A <select name=NAME> of codes, each worded by `${prefix}${code}`.
 * @param {string} name
 * @param {string[]} codes
 * @param {string} prefix
 * @returns {HTMLSelectElement}
 */
export function choices(name, codes, prefix) {
  return /** @type {HTMLSelectElement} */ (h("select", { name },
    ...codes.map((code) => h("option", { value: code }, t(`${prefix}${code}`)))));
}

/**
 * The value of the field `name` in `root`.
 * @param {Element} root
 * @param {string} name
 * @returns {string}
 */
export function field(root, name) {
  const el = /** @type {HTMLInputElement|null} */ (root.querySelector(`[name="${name}"]`));
  return el ? el.value.trim() : "";
}

/**
 * @typedef {{back: () => void, watch: (table: string, invite: string|null) => void,
 *   replay: (handId: number, back: () => void) => void, failed: (error: unknown) => void,
 *   role: () => string|null}} ConsoleHandlers
 */

/**
 * The reason code of an audit entry in words (a closed table's are the players' words for it).
 * @param {{action: string, reason: string|null}} entry
 * @returns {string}
 */
function reasonText(entry) {
  if (!entry.reason) return "";
  return t(entry.action === "close_table" ? `why_${entry.reason}` : `reason_${entry.reason}`);
}

export class ConsoleView {
  /**
   * @param {HTMLElement} root the console screen
   * @param {ConsoleHandlers} handlers
   */
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    this.tab = "tables";
    /** @type {any} what the open tab loaded */
    this.data = null;
    this.accounts = new AccountsPane(handlers, () => this.render());
  }

  /**
   * Open a tab and load what it shows.
   * @param {string} [tab]
   */
  async open(tab = this.tab) {
    this.tab = tab;
    this.data = null;
    if (tab === "tables") this.data = await api.consoleCall("tables");
    if (tab === "reports") this.data = await api.consoleCall("reports");
    if (tab === "nodes") this.data = await api.consoleCall("nodes");
    if (tab === "audit") this.data = await api.consoleCall("audit");
    this.render();
  }

  /** Reload the open tab (after an action), saying a failure in the reader's language. */
  reload() {
    this.open(this.tab).catch(this.handlers.failed);
  }

  /** Redraw (also after a language change). */
  render() {
    const role = this.handlers.role();
    const tabs = h("div.row.console-tabs", {}, ...TABS.map((tab) => h(`button${tab === this.tab ? ".active" : ""}`, {
      dataset: { tab }, "aria-pressed": String(tab === this.tab), onclick: () => this.open(tab).catch(this.handlers.failed),
    }, t(`tab_${tab}`))));
    const body = {
      tables: () => this.#tables(),
      accounts: () => this.accounts.render(),
      reports: () => this.#reports(),
      notice: () => this.#notice(),
      nodes: () => this.#nodes(),
      audit: () => this.#audit(),
    }[this.tab]?.() ?? null;
    this.root.replaceChildren(h("div.console", {},
      h("div.lobby-head", {},
        h("h2", {}, `${t("console_title")} · ${t(`role_${role ?? "moderator"}`)}`),
        h("span.row", {},
          h("button.ghost", { onclick: () => this.reload(), dataset: { action: "refresh" } }, t("refresh")),
          h("button", { onclick: () => this.handlers.back(), dataset: { action: "back" } }, t("back")))),
      tabs, body));
  }

  /**
   * Run a console action, then say it is done and reload the tab (a refusal is said instead).
   * @param {() => Promise<unknown>} action
   * @param {string} done the text to show
   */
  async act(action, done) {
    try {
      await action();
      toast(done);
      this.reload();
    } catch (error) {
      this.handlers.failed(error);
    }
  }

  #tables() {
    const tables = this.data?.tables ?? [];
    if (!tables.length) return h("p", {}, t("no_open_tables"));
    return h("ul.console-list", {}, ...tables.map((/** @type {any} */ table) => {
      const summary = table.summary;
      const seats = (summary?.seats ?? []).map((/** @type {any} */ seat) => seatName(seat)).join(" · ");
      const form = h("span.row.close-form", { hidden: true }, choices("reason", CLOSE_REASONS, "why_"),
        h("button.warn.small", {
          dataset: { action: "confirm-close" },
          onclick: () => this.act(() => api.consoleCall(`tables/${table.id}/close`, { reason: field(form, "reason") }),
            t("close_sent", { table: table.id })),
        }, t("confirm_close")));
      return h("li.console-item.console-table", { dataset: { table: table.id, node: table.node ?? "" } },
        h("strong", {}, t("table_n", { n: table.id })),
        h("span", {}, table.node ? t("node_n", { node: table.node }) : t("node_unknown")),
        h("span", {}, summary ? t(`status_${summary.state}`) : ""),
        h("span", {}, t("hands_n", { n: summary?.hands_played ?? 0 })),
        h("span", {}, t("age", { m: Math.floor(table.age_s / 60) })),
        summary?.private ? h("span.flag", {}, t("private_mark")) : null,
        h("span.seats-line", {}, seats),
        h("span.row", {},
          h("button.small", {
            dataset: { action: "watch" }, onclick: () => this.handlers.watch(table.id, summary?.invite ?? null),
          }, t("watch_table")),
          h("button.small.warn", { dataset: { action: "close-table" }, onclick: () => { form.hidden = !form.hidden; } },
            t("close_table")),
          form));
    }));
  }

  #reports() {
    const reports = this.data?.reports ?? [];
    if (!reports.length) return h("p", {}, t("no_open_reports"));
    return h("ul.console-list", {}, ...reports.map((/** @type {any} */ report) => {
      const item = h("li.console-item.console-report", { dataset: { report: String(report.id) } },
        h("strong", {}, t("report_line", { by: report.reporter.nickname ?? "", of: report.reported.nickname ?? "" })),
        h("span", {}, t(`reason_${report.reason}`)),
        report.note ? h("span.note", {}, `“${report.note}”`) : null,
        h("span.when", {}, when(report.at)),
        h("button.small", {
          dataset: { action: "replay" }, onclick: () => this.handlers.replay(report.hand_id, () => this.render()),
        }, `${t("replay")} #${report.hand_id}`),
        h("span.row", {},
          h("label", {}, `${t("outcome")} `, choices("outcome", OUTCOMES, "outcome_")),
          h("input", { name: "note", placeholder: t("note"), maxlength: "300" }),
          h("button.small.primary", {
            dataset: { action: "close-report" },
            onclick: () => this.act(() => api.consoleCall(`reports/${report.id}/close`,
              { outcome: field(item, "outcome"), note: field(item, "note") || null }), t("report_closed")),
          }, t("close_report"))));
      return item;
    }));
  }

  #notice() {
    const form = h("div.console-form", {},
      h("label", {}, t("notice_kind"), choices("kind", ["maintenance", "message"], "notice_kind_")),
      h("label", {}, t("notice_minutes"), h("input", { name: "minutes", type: "number", min: "1", max: "1440", value: "10" })),
      h("label", {}, t("notice_text"), h("input", { name: "text", maxlength: "300" })),
      h("button.primary", {
        dataset: { action: "send-notice" },
        onclick: () => this.act(() => api.consoleCall("notice", {
          kind: field(form, "kind"), minutes: Number(field(form, "minutes")), text: field(form, "text") || null,
        }), t("notice_sent")),
      }, t("send_notice")));
    return form;
  }

  #nodes() {
    const admin = this.handlers.role() === "admin";
    const drain = (/** @type {string} */ node, /** @type {object} */ body) =>
      this.act(() => api.consoleCall(`nodes/${node}/drain`, body), t("done"));
    return h("ul.console-list", {}, ...(this.data?.nodes ?? []).map((/** @type {any} */ node) =>
      h("li.console-item.console-node", { dataset: { node: node.node, draining: String(node.draining) } },
        h("strong", {}, `${t("node_n", { node: node.node })}${node.node === this.data.node ? ` ${t("this_node")}` : ""}`),
        h("span", {}, node.draining ? t("draining") : t("accepting")),
        h("span", {}, t("tables_n", { n: node.tables })),
        admin ? h("span.row", {},
          node.draining
            ? h("button.small", { dataset: { action: "undrain" }, onclick: () => drain(node.node, { off: true }) }, t("undrain"))
            : h("button.small.warn", { dataset: { action: "drain" }, onclick: () => drain(node.node, {}) }, t("drain")),
          node.draining ? null
            : h("button.small.warn", { dataset: { action: "drain-now" }, onclick: () => drain(node.node, { now: true }) }, t("drain_now")))
          : h("span.note", {}, t("admin_only")))));
  }

  #audit() {
    const rows = (this.data?.entries ?? []).map((/** @type {any} */ entry) =>
      h("tr.audit-row", { dataset: { audit: entry.action } },
        h("td", {}, when(entry.at)),
        h("td", {}, entry.actor),
        h("td", {}, t(`action_${entry.action}`)),
        h("td", {}, entry.account_id !== null ? t("account_id", { id: entry.account_id }) : (entry.target ?? "")),
        h("td", {}, [reasonText(entry), entry.note ?? ""].filter(Boolean).join(" · "))));
    return h("table.audit", {},
      h("thead", {}, h("tr", {}, ...["audit_when", "audit_who", "audit_what", "audit_whom", "audit_why"].map((key) => h("th", {}, t(key))))),
      h("tbody", {}, ...rows));
  }
}
