// The console's accounts (PROTOCOL.md §4): look one up by nickname or id, see its balances, role, bans and
// mutes, sessions, latest hands (with their replays), ledger, reports against it and what staff did to it;
// ban or mute it for a time or for good, lift that, or (admins) correct its balances with a reason.

import * as api from "./api.js";
import { DURATIONS, REASONS, when } from "./console_words.js";
import { h, toast } from "./dom.js";
import { t, title } from "./i18n.js";

/**
 * @param {Element} root
 * @param {string} name
 * @returns {string}
 */
function value(root, name) {
  const el = /** @type {HTMLInputElement|null} */ (root.querySelector(`[name="${name}"]`));
  return el ? el.value.trim() : "";
}

/**
 * @param {string} name
 * @param {string[]} codes
 * @param {string} prefix
 * @returns {HTMLElement}
 */
function select(name, codes, prefix) {
  return h("select", { name }, ...codes.map((code) => h("option", { value: code }, t(`${prefix}${code}`))));
}

/**
 * A section with a heading and a list (or "none").
 * @param {string} heading
 * @param {HTMLElement[]} items
 * @param {string} cls
 * @returns {HTMLElement}
 */
function section(heading, items, cls) {
  return h(`section.console-section.${cls}`, {}, h("h3", {}, heading),
    items.length ? h("ul.console-lines", {}, ...items) : h("p", {}, t("nothing_yet")));
}

/** @param {number} n */
function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

export class AccountsPane {
  /**
   * @param {import("./console.js").ConsoleHandlers} handlers
   * @param {() => void} redraw the console's render
   */
  constructor(handlers, redraw) {
    this.handlers = handlers;
    this.redraw = redraw;
    this.query = "";
    /** @type {any[]|null} */
    this.found = null;
    /** @type {any} the account shown */
    this.detail = null;
  }

  /** @param {string} text */
  async search(text) {
    this.query = text;
    this.detail = null;
    this.found = (await api.consoleCall(`accounts?q=${encodeURIComponent(text)}`)).accounts;
    if (this.found?.length === 1) await this.show(this.found[0].id);
    else this.redraw();
  }

  /** @param {number} accountId */
  async show(accountId) {
    this.detail = await api.consoleCall(`accounts/${accountId}`);
    this.redraw();
  }

  /**
   * An action on the account shown; the account is read again after it.
   * @param {string} action ban, unban, mute, unmute or correct
   * @param {object} body
   */
  async act(action, body) {
    const id = this.detail?.account.id;
    try {
      await api.consoleCall(`accounts/${id}/${action}`, body);
      toast(t("done"));
      await this.show(id);
    } catch (error) {
      this.handlers.failed(error);
    }
  }

  /** @returns {HTMLElement} */
  render() {
    const input = /** @type {HTMLInputElement} */ (h("input", {
      id: "console-search", value: this.query, placeholder: t("search_accounts"), maxlength: "80",
    }));
    const go = () => input.value.trim() && this.search(input.value.trim()).catch(this.handlers.failed);
    input.addEventListener("keydown", (event) => { if (event.key === "Enter") go(); });
    const bar = h("div.row", {}, input, h("button.primary", { onclick: go, dataset: { action: "search" } }, t("search")));
    if (this.detail) return h("div", {}, bar, this.#detail(this.detail));
    const found = this.found ?? [];
    const list = this.found === null ? null : found.length === 0 ? h("p", {}, t("no_accounts"))
      : h("ul.console-list", {}, ...found.map((/** @type {any} */ account) => h("li.console-item.console-account", {
        dataset: { account: String(account.id) },
      }, h("button.link", { onclick: () => this.show(account.id).catch(this.handlers.failed) }, account.nickname),
      h("span", {}, t("account_id", { id: account.id })))));
    return h("div", {}, bar, list);
  }

  /** @param {any} data */
  #detail(data) {
    const { account, standing } = data;
    const ban = standing.ban;
    const mute = standing.mute;
    const lines = [
      ban ? (ban.until ? t("banned_until", { until: when(ban.until) }) : t("banned_forever")) : null,
      mute ? (mute.until ? t("muted_until", { until: when(mute.until) }) : t("muted_forever")) : null,
    ].filter(Boolean);
    const head = h("div.console-account-head", { dataset: { account: String(account.id) } },
      h("h3", {}, account.nickname, account.guest ? ` (${t("guest_mark")})` : "",
        data.role ? ` · ${t(`role_${data.role}`)}` : ""),
      h("p", {}, `${t("account_id", { id: account.id })} · `,
        t("balances", { points: account.points, silver: account.silver }),
        ` · ${title(account.rank.title)} · ${title(account.wealth.title)}`),
      h("p.standing", { id: "console-standing" }, lines.length ? lines.join(" · ") : t("in_good_standing")),
      h("p", {}, data.connection ? t("online_on", { client: data.connection }) : t("offline_now"),
        data.seat ? ` · ${t("seated_at", { table: data.seat.table })}` : ""),
      h("details", {}, h("summary", {}, t("sessions_n", { n: data.sessions.length })),
        ...data.sessions.map((/** @type {any} */ s) =>
          h("p", {}, t("session_line", { issued: when(s.issued_at), expires: when(s.expires_at) })))));
    return h("div.console-detail", {}, head, this.#actions(data), this.#lists(data));
  }

  /** @param {any} data */
  #actions(data) {
    const sanction = h("div.console-form.sanction-form", {},
      h("label", {}, t("reason"), select("reason", REASONS, "reason_")),
      h("label", {}, t("duration"), select("minutes", DURATIONS, "minutes_")),
      h("label", {}, t("note"), h("input", { name: "note", maxlength: "300" })),
      h("span.row", {},
        ...["ban", "mute"].map((action) => h("button.small.warn", {
          dataset: { action },
          onclick: () => this.act(action, {
            reason: value(sanction, "reason"), note: value(sanction, "note") || null,
            minutes: value(sanction, "minutes") ? Number(value(sanction, "minutes")) : null,
          }),
        }, t(action))),
        ...["unban", "unmute"].map((action) => h("button.small", {
          dataset: { action }, onclick: () => this.act(action, { note: value(sanction, "note") || null }),
        }, t(action)))));
    if (this.handlers.role() !== "admin") return h("div", {}, sanction);
    const correction = h("div.console-form.correct-form", {},
      h("label", {}, t("correct_points"), h("input", { name: "points", type: "number", value: "0" })),
      h("label", {}, t("correct_silver"), h("input", { name: "silver", type: "number", value: "0" })),
      h("label", {}, t("correct_reason"), h("input", { name: "reason", maxlength: "300" })),
      h("button.small.primary", {
        dataset: { action: "correct" },
        onclick: () => this.act("correct", {
          points: Number(value(correction, "points") || 0), silver: Number(value(correction, "silver") || 0),
          reason: value(correction, "reason"),
        }),
      }, t("correct")));
    return h("div", {}, sanction, correction);
  }

  /** @param {any} data */
  #lists(data) {
    const hands = data.hands.map((/** @type {any} */ hand) => h("li", { dataset: { hand: String(hand.id) } },
      `${t("hand_n", { n: hand.number })} · ${when(hand.finished_at)} · ${t("score_points")} ${signed(hand.points_delta)}`
      + ` · ${t("silver")} ${signed(hand.silver_delta)} `,
      h("button.small", { dataset: { action: "replay" }, onclick: () => this.handlers.replay(hand.id, this.redraw) }, t("replay"))));
    const ledger = data.ledger.map((/** @type {any} */ line) => h("li", { dataset: { cause: line.cause } },
      `${when(line.at)} · ${t(`cause_${line.cause}`)} · ${t("score_points")} ${signed(line.points_delta)}`
      + ` · ${t("silver")} ${signed(line.silver_delta)} → ${line.silver_after}${line.reason ? ` · ${line.reason}` : ""}`));
    const reports = data.reports.map((/** @type {any} */ report) => h("li", {},
      `${when(report.at)} · ${report.reporter.nickname ?? ""} · ${t(`reason_${report.reason}`)}`
      + `${report.outcome ? ` · ${t(`outcome_${report.outcome}`)}` : ""}`));
    const audit = data.audit.map((/** @type {any} */ entry) => h("li", { dataset: { audit: entry.action } },
      `${when(entry.at)} · ${entry.actor} · ${t(`action_${entry.action}`)}${entry.note ? ` · ${entry.note}` : ""}`));
    return h("div.console-lists", {},
      section(t("recent_hands_short"), hands, "hands"), section(t("ledger"), ledger, "ledger"),
      section(t("reports_against"), reports, "reports"), section(t("actions_on"), audit, "audit"));
  }
}
