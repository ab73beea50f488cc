// What the table screen is drawn from (the table, my seat, my seat's view, the clock) and what is read
// from it: seat and team names, whose move it is, the trumps, where a seat sits on the felt.

import { t } from "./i18n.js";
import { personName } from "./names.js";

/**
 * @typedef {{seat: number, kind: "human"|"bot"|"empty", account: {id: number, nickname: string, rank: string, wealth: string}|null,
 *   bot: string|null, ready: boolean, connected: boolean, autoplay: boolean}} SeatSummary
 * @typedef {{id: string, options: Record<string, any>, state: string, seats: SeatSummary[], levels: [string, string],
 *   dealer: number|null, hands_played: number, redeals: number, spectators: number,
 *   private?: boolean, invite?: string|null, creator?: number|null}} TableSummary
 * @typedef {{seat: number, cards: string[]}} PlayRecord
 * @typedef {{leader: number, plays: PlayRecord[], winner: number, points: number, multiplier: number}} TrickRecord
 * @typedef {{seat: number|null, phase: string, level: string, dealer: number|null, first_hand: boolean,
 *   bid: {seat: number, suit: string, count: number}|null, bids?: {seat: number, suit: string, count: number}[],
 *   passes?: boolean[],
 *   trump_suit: string|null, hand: string[], hand_sizes: number[],
 *   cards_dealt: number, to_move: number|null, leader: number|null, trick: PlayRecord[],
 *   tricks_played: number, last_trick: TrickRecord|null, tricks?: TrickRecord[],
 *   attackers_points: number, point_cards: string[], retraction_points: number[], autoplay: boolean[], timeouts: number[],
 *   reminded: boolean, can_remind: boolean, can_retract: boolean, bid_options: {suit: string, count: number}[],
 *   hint: string[], result: any, preset: string, illegal_follow: string}} SeatView
 * @typedef {{kind: string, seat: number|null, deadline: number, total: number}} Clock  deadline: performance.now() ms
 * @typedef {{summary: TableSummary|null, seat: number|null, view: SeatView|null, clock: Clock|null}} TableModel
 * @typedef {{bid: (suit: string, count: number) => void, pass: () => void, play: (cards: string[]) => void, remind: () => void,
 *   retract: () => void, autoplay: (on: boolean) => void, leave: () => void, start: () => void,
 *   addBot: (seat: number) => void, join: (seat: number) => void, invite: () => void, phrases: () => void,
 *   bids: () => void}} TableHandlers
 */

/** The felt's four places, from my seat round in play order. */
export const POSITIONS = ["bottom", "right", "top", "left"];
/** The i18n keys of the seats' directions (R1: 0 South … 3 West). */
export const SEAT_KEYS = ["seat_S", "seat_E", "seat_N", "seat_W"];

/**
 * The name shown for a seat.
 * @param {SeatSummary|undefined} seat
 * @returns {string}
 */
export function seatName(seat) {
  if (!seat || seat.kind === "empty") return t("empty_seat");
  if (seat.kind === "bot") return botName(seat.seat);
  return personName(seat.account?.nickname);
}

/**
 * A team's name as seen from a seat: our team / their team, or N–S / E–W for a spectator.
 * @param {number} team 0 (N–S) or 1 (E–W)
 * @param {number|null} seat my seat, null for a spectator
 * @returns {string}
 */
export function teamName(team, seat) {
  if (seat === null) return t(team === 0 ? "team_ns" : "team_ew");
  return t(team === seat % 2 ? "our_team" : "their_team");
}

/**
 * Whether I am to play now (and not on 託管).
 * @param {TableModel} model
 * @returns {boolean}
 */
export function isMyMove({ view, seat }) {
  return seat !== null && view !== null && view.phase === "playing" && view.to_move === seat && !view.autoplay[seat];
}

/**
 * Whether I may say 不叫 now (R19): the bid window after the deal is open, I could bid, and I have not passed.
 * @param {TableModel} model
 * @returns {boolean}
 */
export function canPass({ view, seat }) {
  return seat !== null && view !== null && view.phase === "bidding" && view.bid_options.length > 0 && !view.passes?.[seat];
}

/**
 * A bot's name: "機器人 東".
 * @param {number} seat
 * @returns {string}
 */
export function botName(seat) {
  return `${t("bot")} ${t(SEAT_KEYS[seat])}`;
}

/**
 * The name of a seat at this table, with "(you)" after mine.
 * @param {TableModel} model
 * @param {number} seat
 * @returns {string}
 */
export function nameAt(model, seat) {
  const name = seatName(model.summary?.seats[seat]);
  return seat === model.seat ? `${name} (${t("you")})` : name;
}

/**
 * Whether it is my turn in the play (託管 or not).
 * @param {TableModel} model
 * @returns {boolean}
 */
export function myTurn({ view, seat }) {
  return seat !== null && view !== null && view.to_move === seat && view.phase === "playing";
}

/**
 * Whether 託管 plays for me.
 * @param {TableModel} model
 * @returns {boolean}
 */
export function myAutoplay({ view, seat }) {
  return seat !== null && view !== null && view.phase !== "finished" && Boolean(view.autoplay[seat]);
}

/**
 * Whether a bot or 託管 moves for the seat (no clock is shown).
 * @param {TableModel} model
 * @param {number} seat
 * @returns {boolean}
 */
export function isAuto(model, seat) {
  const info = model.summary?.seats[seat];
  return info?.kind === "bot" || Boolean(model.view?.autoplay[seat]);
}

/**
 * What 撤牌 would cost my team now (R31: 10 points a card of my current follow).
 * @param {TableModel} model
 * @returns {number}
 */
export function retractCost({ view, seat }) {
  const mine = view?.trick.find((play) => play.seat === seat);
  return mine ? 10 * mine.cards.length : 0;
}

/**
 * The hand's level and trumps, or before a hand the dealer's team's level.
 * @param {TableModel} model
 * @returns {import("./cards.js").TrumpContext}
 */
export function trumpContext({ view, summary }) {
  const dealerLevel = summary && summary.dealer !== null ? summary.levels[summary.dealer % 2] : null;
  const level = view?.level ?? dealerLevel ?? "3";
  const trumpSuit = view?.trump_suit ?? view?.bid?.suit ?? null;
  return { level, trumpSuit };
}

/**
 * Where a seat sits on the felt as seen from mine (a spectator sees from South's).
 * @param {TableModel} model
 * @param {number} seat
 * @returns {string} bottom/right/top/left
 */
export function positionOf(model, seat) {
  return POSITIONS[(seat - (model.seat ?? 0) + 4) % 4];
}
