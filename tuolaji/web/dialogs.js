// Modal dialogs: the end-of-hand settlement and the 勞改 confirmation.

import { rankLabel } from "./cards.js";
import { fill, h } from "./dom.js";
import { errorElement } from "./errors.js";
import { addStrings, t, title } from "./i18n.js";
import { personName } from "./names.js";
import { seatName, teamName } from "./table_model.js";

addStrings({
  escape_title: ["现在离开？", "現在離開？", "Leave now?"],
  escape_confirm: [
    "现在离开按逃跑处理：扣 {silver} 银子、{points} 积分，确定？",
    "現在離開按逃跑處理：扣 {silver} 銀子、{points} 積分，確定？",
    "Leaving now counts as an escape: you lose {silver} silver and {points} points. Leave anyway?",
  ],
  escape_confirm_plain: [
    "现在离开按逃跑处理（扣银子和积分），确定？",
    "現在離開按逃跑處理（扣銀子和積分），確定？",
    "Leaving now counts as an escape (you lose silver and points). Leave anyway?",
  ],
  escape_why: [
    "这一盘作废，对手分得你扣掉的；之后要等一会儿才能再入座（R43）。",
    "這一盤作廢，對手分得你扣掉的；之後要等一會兒才能再入座（R43）。",
    "The hand is void and your opponents share what you lose; you wait a while before you can sit again (R43).",
  ],
  escape_stay: ["继续打", "繼續打", "Stay and play"],
  escape_leave: ["确定离开", "確定離開", "Leave anyway"],
  settle_later: [
    "之后又结束了 {n} 盘，按「继续」看最新一盘",
    "之後又結束了 {n} 盤，按「繼續」看最新一盤",
    "{n} more hand(s) ended since: press Continue for the latest",
  ],
});

/**
 * @typedef {{kind: string, dealer: number|null, winner: string|null, winning_team: number|null, levels: number,
 *   score: number, card_points: number, last_trick: number, penalty: number, laogai_team: number|null,
 *   cheaters: number[], escaped: number|null}} RoundResult
 * @typedef {{seat: number, account_id: number|null, nickname: string|null, bot: string|null, points_delta: number,
 *   silver_delta: number, points: number|null, silver: number|null, rank: {title: string}|null, wealth: {title: string}|null,
 *   ranked?: boolean}} SettlementLine
 * @typedef {{result: RoundResult, levels: [string, string], settlement: SettlementLine[], hand: number,
 *   hand_id: number|null}} HandEnd
 */

/**
 * The settlement dialog over a table. A result the player has open stays as it is (its buttons do not move
 * under a finger) while hands go on ending underneath, as under 託管: it counts them, and the latest is shown
 * when the player closes the one they were reading.
 */
export class Settlements {
  /** @type {(() => void)|null} the latest hand's settlement, waiting for the open one to close */
  #waiting = null;
  #since = 0;

  /** @param {HTMLDialogElement} dialog */
  constructor(dialog) {
    this.dialog = dialog;
    dialog.addEventListener("close", () => {
      const next = this.#waiting;
      this.forget();
      next?.();
    });
  }

  /**
   * A hand ended: its settlement now, or when the player closes the one they have open.
   * @param {HandEnd} end
   * @param {Parameters<typeof showSettlement>[2]} ctx the table as it was when the hand ended
   */
  show(end, ctx) {
    const show = () => showSettlement(this.dialog, end, ctx);
    if (!this.dialog.open) {
      show();
      return;
    }
    this.#waiting = show;
    this.#since += 1;
    const later = this.dialog.querySelector("#settle-later");
    if (later) later.textContent = t("settle_later", { n: this.#since });
  }

  /** The player left the table: a settlement still waiting is not shown. */
  forget() {
    this.#waiting = null;
    this.#since = 0;
  }
}

/**
 * Show the settlement of a finished hand.
 * @param {HTMLDialogElement} dialog
 * @param {HandEnd} end the hand_end message
 * @param {{summary: import("./table_model.js").TableSummary|null, seat: number|null, levelsBefore: [string, string]|null,
 *   me?: number|null, report?: (line: SettlementLine) => void}} ctx
 *   the table as it was before the hand ended (names, titles, levels), my seat, my account and how to report a player
 */
export function showSettlement(dialog, end, ctx) {
  const { result } = end;
  const mySeat = ctx.seat;
  const name = (/** @type {number} */ seat) => seatName(ctx.summary?.seats[seat]);
  const [head, sub] = resultHead(result, mySeat, name);
  const flags = h("div.flags", {},
    result.kind === "laogai" ? h("span.flag", {}, t("result_laogai", { team: teamName(result.laogai_team ?? 0, mySeat) })) : null,
    result.cheaters.length ? h("span.flag", {}, t("cheating", { names: result.cheaters.map(name).join(", ") })) : null,
    rankedFlag(end));
  const scoreLines = result.kind === "played" || result.kind === "laogai"
    ? h("div.score-lines", {},
      h("span", {}, t("card_points_line")), h("span", {}, String(result.card_points)),
      result.last_trick ? h("span", {}, t(result.last_trick > 0 ? "kou_di" : "fan_kou")) : null,
      result.last_trick ? h("span", {}, signed(result.last_trick)) : null,
      result.penalty ? h("span", {}, t("penalty")) : null,
      result.penalty ? h("span", {}, signed(result.penalty)) : null,
      h("span.total", {}, t("final_score")), h("span.total", { id: "final-score" }, String(result.score)))
    : null;
  const before = ctx.levelsBefore;
  const levelRow = h("div.result-sub", {},
    `${t("team_levels")}: `,
    [0, 1].map((team) => {
      const from = before && before[team] !== end.levels[team] ? `${rankLabel(before[team])} → ` : "";
      return `${teamName(team, mySeat)} ${from}${rankLabel(end.levels[team])}`;
    }).join(" · "));
  const rows = end.settlement.map((line) => settlementRow(line, end, ctx, name));
  const table = h("table", {},
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("score_points")), h("th", {}, t("silver")), h("th", {}, ""),
      h("th", {}, ""))),
    h("tbody", {}, ...rows));
  const close = h("button.primary", { onclick: () => dialog.close(), dataset: { action: "close-settlement" } }, t("next_hand"));
  fill(dialog, 
    h("h2", {}, t("settlement")),
    h("div.result-head", { id: "result-head" }, head),
    sub ? h("div.result-sub", {}, sub) : null,
    flags, scoreLines, levelRow, table,
    h("div.note", { id: "settle-later", "aria-live": "polite" }),
    h("div.row.end", {}, close));
  if (!dialog.open) dialog.show();
}

/**
 * The settlement's headline (who won, or why the hand ended otherwise) and the line under it (who goes up how much).
 * @param {RoundResult} result
 * @param {number|null} mySeat
 * @param {(seat: number) => string} name
 * @returns {[string, string]}
 */
function resultHead(result, mySeat, name) {
  let head = "";
  let sub = "";
  if (result.kind === "redeal") head = t("result_redeal");
  else if (result.kind === "dissolved") head = t("result_dissolved");
  else if (result.kind === "escape" && result.escaped !== null) head = t("result_escape", { name: name(result.escaped) });
  else if (result.kind === "laogai" && result.laogai_team !== null) head = t("result_laogai", { team: teamName(result.laogai_team, mySeat) });
  else head = t(result.winner === "defenders" ? "defenders_win" : "attackers_win");
  if (result.winning_team !== null && result.winning_team !== undefined && result.kind !== "redeal") {
    const levels = result.levels > 0 ? t("levels_up", { n: result.levels }) : t("no_level_change");
    sub = `${teamName(result.winning_team, mySeat)} · ${levels}`;
  }
  return [head, sub];
}

/**
 * One player's line of the settlement: name, 積分 and silver won or lost, a new title, and 舉報.
 * @param {SettlementLine} line
 * @param {HandEnd} end
 * @param {{summary: import("./table_model.js").TableSummary|null, seat: number|null, me?: number|null,
 *   report?: (line: SettlementLine) => void}} ctx as for showSettlement
 * @param {(seat: number) => string} name
 * @returns {HTMLElement}
 */
function settlementRow(line, end, ctx, name) {
  const old = ctx.summary?.seats[line.seat]?.account;
  const newRank = old && line.rank && old.rank !== line.rank.title ? line.rank.title : null;
  const newWealth = old && line.wealth && old.wealth !== line.wealth.title ? line.wealth.title : null;
  const titles = line.rank && line.wealth ? `${title(line.rank.title)} · ${title(line.wealth.title)}` : "";
  const reportable = end.hand_id && ctx.report && line.account_id !== null && line.account_id !== ctx.me;
  return h("tr", { class: line.seat === ctx.seat ? "mine" : "" },
    h("td", {}, line.nickname ? personName(line.nickname) : name(line.seat)),
    h(`td.num.${delta(line.points_delta)}`, {}, signed(line.points_delta)),
    h(`td.num.${delta(line.silver_delta)}`, {}, signed(line.silver_delta)),
    h("td", {}, newRank || newWealth
      ? h("span.new-title", {}, `${t("new_title")}: ${[newRank, newWealth].filter(Boolean).map((x) => title(String(x))).join(" · ")}`)
      : titles),
    h("td", {}, reportable ? h("button.small", {
      dataset: { action: "report", account: String(line.account_id) }, onclick: () => ctx.report?.(line),
    }, t("report")) : null));
}

/**
 * Whether the hand was ranked (the one 積分 faucet, R40; docs/RULES-NOTES.md, Economy), when it was settled at all.
 * @param {HandEnd} end
 */
function rankedFlag(end) {
  const ranked = end.settlement.find((line) => line.ranked !== undefined)?.ranked;
  if (ranked === undefined || end.result.kind === "redeal") return null;
  return h("span.flag", { id: "ranked-flag" }, t(ranked ? "ranked_hand" : "unranked_hand"));
}

/**
 * Ask whether to play a follow that breaks the rules (勞改 tables with warn_wrong_follow).
 * @param {HTMLDialogElement} dialog
 * @param {import("./errors.js").Refusal} refusal the `confirm_laogai` error (its params say why)
 * @param {(seat: number) => string} names
 * @returns {Promise<boolean>} true to play it anyway
 */
export function confirmWrongFollow(dialog, refusal, names) {
  return new Promise((resolve) => {
    const done = (/** @type {boolean} */ answer) => {
      dialog.close();
      resolve(answer);
    };
    dialog.replaceChildren(
      h("h2", {}, t("confirm_wrong_title")),
      h("p.reason", {}, errorElement({ ...refusal, code: "illegal_follow" }, names)),
      h("p", {}, t("confirm_wrong_body")),
      h("div.row.end", {},
        h("button", { onclick: () => done(false), dataset: { action: "cancel-wrong" } }, t("cancel")),
        h("button.primary", { onclick: () => done(true), dataset: { action: "confirm-wrong" } }, t("play_anyway"))));
    dialog.addEventListener("cancel", () => resolve(false), { once: true });
    dialog.showModal();
  });
}

/** @param {number} n */
function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** @param {number} n */
function delta(n) {
  return n > 0 ? "up" : n < 0 ? "down" : "same";
}

/**
 * Ask before leaving during a hand (an escape, R43), with what it costs.
 * @param {HTMLDialogElement} dialog
 * @param {{points: number|null, silver: number|null}|null} cost the seat's `escape_cost` (null: not known)
 * @returns {Promise<boolean>} true to leave anyway; cancel keeps the seat and the silver
 */
export function confirmEscape(dialog, cost) {
  return new Promise((resolve) => {
    const done = (/** @type {boolean} */ answer) => {
      dialog.close();
      resolve(answer);
    };
    const known = cost !== null && cost.points !== null && cost.silver !== null;
    dialog.replaceChildren(
      h("h2", {}, t("escape_title")),
      h("p.escape-cost", { id: "escape-cost" }, known ? t("escape_confirm", { points: Number(cost?.points), silver: Number(cost?.silver) })
        : t("escape_confirm_plain")),
      h("p.note", {}, t("escape_why")),
      h("div.row.end", {},
        h("button.primary", { onclick: () => done(false), dataset: { action: "stay" } }, t("escape_stay")),
        h("button.warn", { onclick: () => done(true), dataset: { action: "escape" } }, t("escape_leave"))));
    dialog.addEventListener("cancel", () => resolve(false), { once: true });
    dialog.showModal();
  });
}
