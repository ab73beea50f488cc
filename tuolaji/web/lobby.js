// The lobby: live table list (sit, watch) and the create-table form.

import { botLevel } from "./bots.js";
import { cardElement, rankLabel } from "./cards.js";
import { h, patch } from "./dom.js";
import { t, title } from "./i18n.js";
import { tableName } from "./names.js";
import { SEAT_KEYS, seatName } from "./table_model.js";

/** @typedef {import("./table_model.js").TableSummary} TableSummary */

const FAN = ["TC", "QD", "KS", "AH", "BJ"];

export class LobbyView {
  /**
   * @param {HTMLElement} list the <ul> of tables
   * @param {{join: (table: string, seat: number) => void, watch: (table: string) => void}} handlers
   */
  constructor(list, handlers) {
    this.list = list;
    this.handlers = handlers;
    /** @type {Map<string, TableSummary>} */
    this.tables = new Map();
  }

  /** @param {TableSummary[]} tables the full list (lobby snapshot) */
  setAll(tables) {
    this.tables = new Map(tables.map((table) => [table.id, table]));
    this.render();
  }

  /** @param {TableSummary} table a table that changed or appeared */
  upsert(table) {
    this.tables.set(table.id, table);
    this.render();
  }

  /** @param {string} id a table that closed */
  remove(id) {
    this.tables.delete(id);
    this.render();
  }

  /** Redraw the list (also after a language change). */
  render() {
    const tables = [...this.tables.values()].filter((table) => table.state !== "closed");
    if (tables.length === 0) {
      const fan = h("div.fan", { "aria-hidden": "true" }, ...FAN.map((code) => cardElement(code)));
      this.list.replaceChildren(h("li.empty-note", {}, fan, h("p", {}, t("no_tables"))));
      return;
    }
    patch(this.list, ...tables.map((table) => this.#item(table)));
  }

  /** @param {TableSummary} table */
  #item(table) {
    const opts = table.options;
    const playing = table.state === "playing" || table.state === "between";
    const seats = table.seats.map((seat) => {
      const empty = seat.kind === "empty";
      const level = seat.kind === "bot" ? ` · ${botLevel(seat.bot)}` : "";
      return h(`div.seat-chip${empty ? ".empty" : ""}`, {},
        h("span.who", { title: seat.account ? `${title(seat.account.rank)} · ${title(seat.account.wealth)}` : null },
          `${t(SEAT_KEYS[seat.seat])} · ${seatName(seat)}${level}`),
        empty && !playing
          ? h("button.small", { onclick: () => this.handlers.join(table.id, seat.seat), dataset: { action: "join", seat: String(seat.seat) } }, t("sit"))
          : null);
    });
    return h("li.table-item", { dataset: { table: table.id, key: table.id } },
      h("header", {}, h("span.tid", {}, tableName(table.number)),
        h(`span.state${playing ? ".playing" : ""}`, {}, t(playing ? "status_playing" : "status_waiting"))),
      h("div.meta", {}, [
        t(`preset_${opts.preset}`),
        t(opts.illegal_follow !== "laogai" ? "mode_reject" : opts.warn_wrong_follow ? "mode_laogai_warn" : "mode_laogai"),
        `${t("team_levels")} ${rankLabel(table.levels[0])} : ${rankLabel(table.levels[1])}`,
        `${opts.turn_seconds}s`,
      ].join(" · ")),
      h("div.seats", {}, ...seats),
      h("div.row.end", {}, h("button.small", { onclick: () => this.handlers.watch(table.id), dataset: { action: "watch" } }, t("watch"))));
  }
}

const WARN_KEY = "tuolaji.warn";

/** @returns {boolean} whether new tables ask before a wrong follow (table option warn_wrong_follow; remembered) */
export function warnWrongFollow() {
  return localStorage.getItem(WARN_KEY) === "1";
}

/**
 * Make a checkbox show and set the remembered warn_wrong_follow choice (in the lobby and the create form).
 * @param {HTMLInputElement} input
 */
export function bindWarnFollow(input) {
  input.checked = warnWrongFollow();
  input.addEventListener("change", () => {
    localStorage.setItem(WARN_KEY, input.checked ? "1" : "0");
    for (const other of document.querySelectorAll("input[data-warn-follow]")) {
      /** @type {HTMLInputElement} */ (other).checked = input.checked;
    }
  });
}

/**
 * The table options from the create form (numbers as numbers).
 * @param {HTMLFormElement} form
 * @returns {Record<string, string|number|boolean>}
 */
export function readOptions(form) {
  const data = new FormData(form);
  return {
    preset: String(data.get("preset")),
    start_level: String(data.get("start_level")),
    illegal_follow: String(data.get("illegal_follow")),
    warn_wrong_follow: data.get("warn_wrong_follow") === "on",
    turn_seconds: Number(data.get("turn_seconds")),
    bid_window_seconds: Number(data.get("bid_window_seconds")),
    review_seconds: Number(data.get("review_seconds")),
    deal_interval_ms: Math.round(Number(data.get("deal_interval_ms"))),
  };
}
