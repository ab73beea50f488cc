// The table screen: four seats around the felt, the trick, bids, the hand and the action buttons.

import { bidLabel } from "./bids.js";
import { bindBotLevel, botLevel } from "./bots.js";
import { SUIT_SYMBOLS, cardElement, isTrump, rankLabel, sortCards } from "./cards.js";
import { fill, h, patch } from "./dom.js";
import { errorElement } from "./errors.js";
import { Hand } from "./hand.js";
import { addStrings, language, t, title } from "./i18n.js";
import { personName, tableName } from "./names.js";
import { phraseText } from "./phrases.js";

addStrings({
  retract_cost: ["撤牌扣{n}分", "撤牌扣{n}分", "Retract −{n}"],
  retract_cost_title: [
    "撤回你这一轮出的牌重出：每张扣 10 分，算在你方",
    "撤回你這一輪出的牌重出：每張扣 10 分，算在你方",
    "Take back your follow and play again: 10 points a card against your team",
  ],
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
  waiting_title: ["等大家到齐", "等大家到齊", "Waiting for everyone"],
  waiting_ready: ["已准备", "已準備", "ready"],
  waiting_press: ["还没按开始", "還沒按開始", "has not pressed Start"],
  waiting_you: ["按「开始」就准备好了", "按「開始」就準備好了", "press Start when you are ready"],
  waiting_empty: ["空位：等人入座", "空位：等人入座", "empty: waiting for a player"],
  review_left: ["复核 {s} 秒", "複核 {s} 秒", "Review {s}s"],
  review_retract: ["复核 {s} 秒：撤牌扣 {n} 分", "複核 {s} 秒：撤牌扣 {n} 分", "Review {s}s: retracting costs {n} pts"],
  turn_left: ["{s} 秒", "{s} 秒", "{s}s"],
  phrases_short: ["说话", "說話", "Say"],
  bid_show_kind: ["亮主：", "亮主：", "Bid:"],
  bid_reinforce_kind: ["加固：", "加固：", "Reinforce:"],
  bid_overturn_kind: ["反主：", "反主：", "Overturn:"],
});

/** How long a quick phrase shows by its speaker's seat (ms). */
const PHRASE_MS = 4000;
/** How long a notice shows in the status line (ms). */
const NOTICE_MS = 4000;
/** How long the felt shows a trick being taken (ms; the CSS animation is as long). */
const TAKE_MS = 600;
/** Where the plays of a taken trick shrink to: the side of their box toward the winner (a CSS transform-origin). */
const TAKE_ORIGINS = { bottom: "50% 100%", right: "100% 50%", top: "50% 0%", left: "0% 50%" };

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

const POSITIONS = ["bottom", "right", "top", "left"];
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
 * A row of overlapping face-up cards; with maxWidth (CSS px) the cards overlap more so the row fits it.
 * @param {string[]} codes
 * @param {import("./cards.js").TrumpContext|null} ctx
 * @param {string} [extra] extra class
 * @param {number} [maxWidth]
 * @returns {HTMLElement}
 */
export function playRow(codes, ctx, extra = "", maxWidth = 0) {
  const row = h(`div.play-cards${extra ? `.${extra}` : ""}`);
  for (const code of ctx ? sortCards(codes, ctx) : codes) {
    row.append(cardElement(code, { trump: ctx !== null && isTrump(code, ctx) }));
  }
  row.style.setProperty("--n", String(codes.length));
  fitRow(row, codes.length, maxWidth);
  return row;
}

/**
 * Let a row of `count` cards overlap so it fits `maxWidth` CSS px (0: no limit).
 * @param {HTMLElement} row
 * @param {number} count
 * @param {number} maxWidth
 */
function fitRow(row, count, maxWidth) {
  if (maxWidth > 0 && count > 1) row.style.setProperty("--fit", `${maxWidth}px`);
  else row.style.removeProperty("--fit");
}

/**
 * How wide a play may be in a trick area of this width: half of it on the sides, all of it top and bottom.
 * @param {string} position bottom/right/top/left
 * @param {number} width the trick area's width (CSS px)
 * @returns {number}
 */
export function playFit(position, width) {
  return position === "left" || position === "right" ? width / 2 - 4 : width;
}

const POINT_RANKS = ["5", "T", "K"];

/**
 * The point cards taken so far, by rank and suit: "5 ♠2 ♥1 · 10 ♣1 · K ♥3" (bounded however many).
 * @param {string[]} codes
 * @returns {HTMLElement}
 */
function pointSummary(codes) {
  const rows = POINT_RANKS.map((rank) => {
    const suits = "SHCD".split("").map((suit) => [suit, codes.filter((code) => code === `${rank}${suit}`).length])
      .filter(([, n]) => Number(n) > 0);
    if (!suits.length) return null;
    return h("span.point-rank", {}, h("b", {}, rankLabel(rank)),
      ...suits.map(([suit, n]) => h(`span.point-suit${"HD".includes(String(suit)) ? ".red" : ""}`, {},
        `${SUIT_SYMBOLS[/** @type {"S"} */ (suit)]}${n}`)));
  });
  return h("div.point-summary", { title: t("point_cards") }, ...rows);
}

export class TableView {
  /**
   * @param {HTMLElement} root the table screen
   * @param {TableHandlers} handlers
   */
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    /** @type {TableModel} */
    this.model = { summary: null, seat: null, view: null, clock: null };
    this.showLast = false;
    this.trickKey = "";
    this.felt = h("div.felt");
    this.info = h("div.table-info");
    this.score = h("div.score-box");
    this.trick = h("div.trick");
    this.centre = h("div.centre-msg");
    /** @type {HTMLElement[]} */
    this.seatEls = POSITIONS.map((pos) => h(`div.seat.pos-${pos}`));
    this.felt.append(this.info, this.score, this.trick, this.centre, ...this.seatEls);
    this.status = h("div.status-line", { role: "status", "aria-live": "polite" });
    this.bids = h("div.bid-bar");
    this.timerBar = h("div.turn-timer-bar");
    this.timerText = h("span.turn-timer-text");
    this.timer = h("div.turn-timer", { id: "turn-timer", role: "timer" }, this.timerBar, this.timerText);
    this.handEl = h("div", { id: "hand" });
    this.actions = h("div.action-bar");
    root.replaceChildren(this.felt, this.status, this.bids, this.timer, this.handEl, this.actions);
    this.hand = new Hand(this.handEl, { onChange: () => this.#selectionChanged() });
    /** @type {import("./errors.js").Refusal|string|null} a refusal, or the key of a local message */
    this.error = null;
    /** @type {Map<number, {phrase: string, until: number}>} the quick phrase shown by each seat, until when */
    this.bubbles = new Map();
    /** whether the connection is open (off: moves are greyed out and the status says it reconnects) */
    this.online = true;
    /** @type {{text: string, kind: string, until: number}|null} a notice in the status line, until when */
    this.shownNotice = null;
    /** @type {string|null} why 託管 came on for me ("timeouts", "disconnect", "request"), from its event */
    this.autoplayReason = null;
    /** the timeouts in a row that turned 託管 on */
    this.autoplayLimit = 0;
    /** until when the felt shows a trick being taken (performance.now() ms) */
    this.takingUntil = 0;
    new ResizeObserver(() => {
      this.trickKey = "";
      this.#renderTrick(this.#ctx());
    }).observe(this.trick);
    setInterval(() => this.#tick(), 250);
  }

  /**
   * Redraw from the model.
   * @param {TableModel} model
   */
  render(model) {
    const turnBefore = this.model.view?.to_move;
    this.model = model;
    if (model.view?.to_move !== turnBefore) this.error = null;
    const ctx = this.#ctx();
    this.root.dataset.phase = model.view?.phase ?? model.summary?.state ?? "";
    this.root.dataset.myTurn = String(this.#myTurn());
    this.root.dataset.lead = String(this.#myTurn() && model.view?.trick.length === 0);
    this.root.dataset.autoplay = String(this.#myAutoplay());
    this.root.dataset.online = String(this.online);
    this.#renderSeats();
    this.#renderInfo();
    this.#renderTrick(ctx);
    this.#renderScore();
    this.#renderBids();
    this.hand.setCards(model.view?.hand ?? [], ctx);
    this.hand.setEnabled(model.seat !== null && this.online);
    this.#renderActions();
    this.#renderStatus();
    this.#tick();
  }

  /** Re-render the text after a language change. */
  retranslate() {
    this.render(this.model);
  }

  /**
   * The connection is open (moves can be sent) or not (they are greyed out and the status says so).
   * @param {boolean} online
   */
  setOnline(online) {
    if (online === this.online) return;
    this.online = online;
    this.render(this.model);
  }

  /**
   * Say something in the status line for a few seconds (the system acted for me, a partner reminded me…):
   * in the page's flow above the hand, so it never covers a button.
   * @param {string} text
   * @param {"info"|"warn"|"error"} [kind]
   * @param {number} [ms]
   */
  notice(text, kind = "info", ms = NOTICE_MS) {
    this.error = null; // the newer word wins
    this.shownNotice = { text, kind, until: performance.now() + ms };
    this.#renderStatus();
  }

  /**
   * @param {string|null} reason why 託管 came on for me (the `autoplay` event's reason), null when it went off
   * @param {number} [limit] the timeouts in a row that turn it on (the `timeout` event's limit)
   */
  setAutoplayReason(reason, limit = 0) {
    this.autoplayReason = reason;
    this.autoplayLimit = limit;
    this.#renderStatus();
  }

  /** A trick was just taken: its plays move toward the winner for a moment, then the next lead shows. */
  trickTaken() {
    this.takingUntil = performance.now() + TAKE_MS;
    this.trickKey = "";
    setTimeout(() => {
      this.trickKey = "";
      this.#renderTrick(this.#ctx());
      this.#renderStatus();
    }, TAKE_MS + 20);
  }

  /** @returns {boolean} whether a trick is being taken now (never hiding the trick I am to follow) */
  #taking() {
    const phase = this.model.view?.phase;
    return performance.now() < this.takingUntil && (phase === "playing" || phase === "review") && !this.#myTurn();
  }

  /**
   * Show why the server refused a move, in the reader's language with a link to the rule.
   * @param {import("./errors.js").Refusal|string} error an `error` message, or the i18n key of a local one
   */
  showError(error) {
    this.error = error;
    this.#renderStatus();
  }

  /**
   * The name of a seat at this table (for refusals and notices).
   * @param {number} seat
   * @returns {string}
   */
  seatName(seat) {
    return seatName(this.model.summary?.seats[seat]);
  }

  /**
   * Show a quick phrase by its speaker's seat for a few seconds.
   * @param {number} seat
   * @param {string} phrase
   */
  showPhrase(seat, phrase) {
    this.bubbles.set(seat, { phrase, until: performance.now() + PHRASE_MS });
    this.#renderSeats();
  }

  /** @returns {string[]} the selected cards */
  selected() {
    return this.hand.selected();
  }

  /** @returns {import("./cards.js").TrumpContext} */
  #ctx() {
    const view = this.model.view;
    const level = view?.level ?? this.#dealerLevel() ?? "3";
    const trumpSuit = view?.trump_suit ?? view?.bid?.suit ?? null;
    return { level, trumpSuit };
  }

  /** @returns {string|null} */
  #dealerLevel() {
    const summary = this.model.summary;
    if (!summary || summary.dealer === null) return null;
    return summary.levels[summary.dealer % 2];
  }

  /** @param {number} seat @returns {string} bottom/right/top/left as seen from my seat */
  #position(seat) {
    const base = this.model.seat ?? 0;
    return POSITIONS[(seat - base + 4) % 4];
  }

  /** @param {number} seat @returns {boolean} whether a bot or 託管 moves for the seat (no clock is shown) */
  #isAuto(seat) {
    const info = this.model.summary?.seats[seat];
    return info?.kind === "bot" || Boolean(this.model.view?.autoplay[seat]);
  }

  #myTurn() {
    const { view, seat } = this.model;
    return seat !== null && view !== null && view.to_move === seat && view.phase === "playing";
  }

  /** @returns {boolean} whether 託管 plays for me */
  #myAutoplay() {
    const { view, seat } = this.model;
    return seat !== null && view !== null && view.phase !== "finished" && Boolean(view.autoplay[seat]);
  }

  /** @returns {number} what 撤牌 would cost my team now (R31: 10 points a card of my current follow) */
  #retractCost() {
    const { view, seat } = this.model;
    const mine = view?.trick.find((play) => play.seat === seat);
    return mine ? 10 * mine.cards.length : 0;
  }

  /** @param {number} seat @returns {string} */
  #name(seat) {
    const name = this.seatName(seat);
    return seat === this.model.seat ? `${name} (${t("you")})` : name;
  }

  #renderSeats() {
    const { summary, view, seat: mine } = this.model;
    for (let seat = 0; seat < 4; seat++) {
      const el = this.seatEls[(seat - (mine ?? 0) + 4) % 4];
      const info = summary?.seats[seat];
      el.dataset.seat = String(seat);
      el.classList.toggle("turn", view?.to_move === seat && (view.phase === "playing"));
      el.classList.toggle("empty", !info || info.kind === "empty");
      const dealer = view?.dealer ?? summary?.dealer ?? null;
      const team = seat % 2;
      const level = summary?.levels[team];
      const count = view?.hand_sizes[seat];
      const auto = view?.autoplay[seat] || info?.autoplay;
      const badges = h("div.badges",
        {},
        dealer === seat ? h("span.badge.dealer", { title: t("dealer_mark") }, t("dealer_mark")) : null,
        level ? h("span.badge.level", { title: t("level") }, `${t("level_short")} ${rankLabel(level)}`) : null,
        info?.kind === "human" && !info.connected ? h("span.badge.offline", {}, t("offline")) : null,
        auto && info?.kind === "human" ? h("span.badge.auto", {}, t("autoplay_mark")) : null,
        info?.kind === "bot" ? h("span.badge.bot", { dataset: { bot: info.bot ?? "" } }, botLevel(info.bot)) : null,
        summary?.state === "waiting" && info?.kind === "human" && info.ready ? h("span.badge.ready", {}, "✓") : null,
      );
      const account = info?.account;
      const titles = account ? h("div.titles", {}, `${title(account.rank)} · ${title(account.wealth)}`) : null;
      const cards = count !== undefined && seat !== mine
        ? h("span.count", { title: t("cards_left") }, h("span.mini-back"), String(count)) : null;
      const clock = h("div.clock", {}, h("div.clock-bar"), h("span.clock-text"));
      const seatButton = this.#seatButton(seat, info);
      const said = this.bubbles.get(seat);
      const bubble = said
        ? h("div.phrase-bubble", { role: "status", dataset: { phrase: said.phrase, key: `said-${said.until}` } }, phraseText(said.phrase))
        : null;
      patch(el, 
        h("div.seat-name", {}, h("span.dir", {}, t(SEAT_KEYS[seat])), h("span.nick", {}, this.#name(seat)), cards),
        titles, badges, seatButton, clock, bubble,
      );
    }
  }

  /**
   * Sit / add-bot button on an empty seat while the table waits.
   * @param {number} seat
   * @param {SeatSummary|undefined} info
   */
  #seatButton(seat, info) {
    const summary = this.model.summary;
    if (!summary || summary.state === "playing" || (info && info.kind !== "empty")) return null;
    if (this.model.seat === null) {
      return h("button.small", { onclick: () => this.handlers.join(seat), disabled: !this.online, dataset: { action: "join" } }, t("sit"));
    }
    return h("button.small", { onclick: () => this.handlers.addBot(seat), disabled: !this.online, dataset: { action: "add-bot" } }, t("add_bot"));
  }

  #renderInfo() {
    const { view, summary, seat } = this.model;
    const ctx = this.#ctx();
    const trump = ctx.trumpSuit
      ? h(`span.trump-suit.${"HD".includes(ctx.trumpSuit) ? "red" : "black"}`, { title: t("trump") }, SUIT_SYMBOLS[ctx.trumpSuit]) : null;
    const levels = summary?.levels ?? ["3", "3"];
    const myTeam = (seat ?? 0) % 2;
    const bid = view?.bid
      ? t("bid_by", { name: seatName(summary?.seats[view.bid.seat]), bid: bidLabel(view.bid) }) : t("no_bid");
    // Every bid of the hand, oldest first (R16–R18): a tap opens the list (older servers send no `bids`).
    const bids = view?.bids ?? [];
    patch(this.info,
      h("div.info-main", {}, h("span.info-table", {}, tableName(summary?.number)),
        h("span.info-level", {}, t("hand_level", { level: rankLabel(ctx.level) })), trump),
      bids.length
        ? h("button.info-bid", { type: "button", onclick: () => this.handlers.bids(), dataset: { action: "bids" }, "aria-haspopup": "dialog" },
          h("span", {}, bid), h("span.bid-count", {}, t("bids_count", { n: bids.length })))
        : h("div.info-bid", {}, bid),
      h("div.info-teams", {},
        h("span", { class: myTeam === 0 && seat !== null ? "mine" : "" }, `${teamName(0, seat)} ${rankLabel(levels[0])}`),
        h("span", { class: myTeam === 1 && seat !== null ? "mine" : "" }, `${teamName(1, seat)} ${rankLabel(levels[1])}`)),
    );
  }

  /** @param {import("./cards.js").TrumpContext} ctx */
  #renderTrick(ctx) {
    const view = this.model.view;
    const last = view ? view.last_trick : null;
    /** @type {PlayRecord[]} */
    let plays = view ? view.trick : [];
    let winner = null;
    let mode = "";
    if (this.showLast && last) {
      plays = last.plays;
      winner = last.winner;
      mode = "last";
    } else if (view && last && ((plays.length === 0 && view.phase === "playing") || this.#taking())) {
      // Between tricks (or while the last one is being taken: the next lead waits for that) the last trick shows.
      plays = last.plays;
      winner = last.winner;
      mode = "settled";
    }
    const taking = mode === "settled" && this.#taking() && winner !== null;
    // Once the current trick shows (my turn came), the last one is not brought back to finish its animation.
    if (mode === "" && plays.length > 0) this.takingUntil = 0;
    const key = JSON.stringify([mode, winner, plays, ctx, this.model.seat, language(), taking]);
    if (key === this.trickKey) return;
    this.trickKey = key;
    this.trick.classList.toggle("settled", mode === "settled");
    this.trick.classList.toggle("last", mode === "last");
    this.trick.classList.toggle("taking", taking);
    if (taking && winner !== null) {
      this.trick.style.setProperty("--take-origin", TAKE_ORIGINS[/** @type {"top"} */ (this.#position(winner))]);
    }
    this.trick.querySelector(".trick-label")?.remove();
    // Keep the plays already on the felt (they do not land again); add the new ones, drop the gone ones.
    const width = this.trick.clientWidth;
    /** @type {Map<string, Element>} */
    const shown = new Map([...this.trick.querySelectorAll(".play")].map((el) => [/** @type {HTMLElement} */ (el).dataset.key ?? "", el]));
    /** @type {Element[]} */
    const added = [];
    for (const play of plays) {
      const position = this.#position(play.seat);
      const slotKey = JSON.stringify([mode, position, play.cards, ctx]);
      let slot = shown.get(slotKey);
      shown.delete(slotKey);
      if (!slot) {
        const row = playRow(play.cards, ctx, "", playFit(position, width));
        slot = h(`div.play.pos-${position}`, { dataset: { seat: String(play.seat), key: slotKey } }, row);
        added.push(slot);
      }
      const row = /** @type {HTMLElement|null} */ (slot.querySelector(".play-cards"));
      if (row) {
        fitRow(row, play.cards.length, playFit(position, width)); // a kept play too: the felt may have been resized
        row.classList.toggle("winner", play.seat === winner);
      }
      slot.classList.toggle("won", play.seat === winner);
    }
    for (const el of shown.values()) el.remove();
    // Only new plays enter the DOM: moving a kept one would restart its landing animation.
    this.trick.append(...added);
    if (mode === "last" && last) {
      this.trick.append(h("div.trick-label", {}, `${t("last_trick")} · ${t("winner_seat", { name: seatName(this.model.summary?.seats[last.winner]) })}`));
    }
  }

  #renderScore() {
    const view = this.model.view;
    if (!view || view.phase === "dealing" || view.phase === "bidding") {
      this.score.replaceChildren();
      this.score.hidden = true;
      return;
    }
    this.score.hidden = false;
    const left = Math.max(...view.hand_sizes);
    fill(this.score, 
      h("div.score-line", {},
        h("span", {}, t("attackers_points")), h("strong", { id: "attackers-points" }, String(view.attackers_points)),
        h("span.left", {}, `${t("cards_left")} ${left}`)),
      view.point_cards.length ? pointSummary(view.point_cards) : null,
    );
  }

  #renderBids() {
    const { view, seat } = this.model;
    const open = view && (view.phase === "dealing" || view.phase === "bidding");
    this.bids.hidden = !open;
    if (!open || !view) {
      this.bids.replaceChildren();
      return;
    }
    // Every option is the same kind of bid (亮主, 加固 or 反主): it is said once, and each button shows its cards.
    // The deal redraws the bar with every card: a button stays the same element while its bid stays open.
    const key = !view.bid ? "bid_show" : view.bid.seat === seat ? "bid_reinforce" : "bid_overturn";
    const buttons = view.bid_options.map((option) => {
      const red = "HD".includes(option.suit);
      const label = t(key, { bid: bidLabel(option) });
      return h(`button.bid${red ? ".red" : ""}`, {
        onclick: () => this.handlers.bid(option.suit, option.count), disabled: !this.online, title: label, "aria-label": label,
        dataset: { action: "bid", suit: option.suit, count: String(option.count), key: `bid-${option.suit}${option.count}` },
      }, bidLabel(option));
    });
    // R19: after the deal, 不叫 closes the window once every seat has said it or cannot bid.
    patch(this.bids,
      view.bid_options.length ? h("span.bid-kind", {}, t(`${key}_kind`)) : null,
      ...buttons,
      canPass(this.model) ? h("button.bid-pass", { onclick: () => this.handlers.pass(), dataset: { action: "pass" } }, t("bid_pass")) : null);
  }

  #renderActions() {
    const { view, seat, summary } = this.model;
    const buttons = [];
    const playing = view && (view.phase === "playing" || view.phase === "review");
    if (seat !== null && summary && (summary.state === "waiting" || summary.state === "stopped")) {
      const me = summary.seats[seat];
      if (!me?.ready) buttons.push(h("button.primary", { onclick: () => this.handlers.start(), dataset: { action: "start" } }, t("start")));
    }
    if (seat !== null && summary && summary.state !== "playing" && summary.seats.some((info) => info.kind === "empty")) {
      const picker = bindBotLevel(/** @type {HTMLSelectElement} */ (h("select")));
      buttons.push(h("label.bot-level", {}, h("span", {}, t("bot_level")), picker));
    }
    if (seat !== null && playing && view) {
      const mine = isMyMove(this.model) && this.online;
      buttons.push(
        h("button", { onclick: () => this.#hint(), disabled: !mine || view.hint.length === 0, dataset: { action: "hint" } }, t("hint")),
        h("button.primary.play", { onclick: () => this.#play(), disabled: !mine, dataset: { action: "play" } }, t("play")),
      );
      if (view.can_remind) buttons.push(h("button", { onclick: () => this.handlers.remind(), dataset: { action: "remind" } }, t("remind")));
      if (view.can_retract) {
        const cost = this.#retractCost();
        buttons.push(h("button.warn", {
          onclick: () => this.handlers.retract(), title: t("retract_cost_title"), dataset: { action: "retract", cost: String(cost) },
        }, t("retract_cost", { n: cost })));
      }
    }
    if (view && view.last_trick && playing) {
      buttons.push(h(`button${this.showLast ? ".active" : ""}`, {
        onclick: () => { this.showLast = !this.showLast; this.render(this.model); },
        dataset: { action: "last-trick" }, "aria-pressed": String(this.showLast),
      }, t("last_trick")));
    }
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
    if (!this.online) {
      // Nothing can be sent now: every move waits (上一輪 only looks at what the page has).
      for (const button of buttons) {
        if (button instanceof HTMLButtonElement && button.dataset.action !== "last-trick") button.disabled = true;
      }
    }
    // 離開 stands apart at the bar's start, away from the moves (it may be an escape, R43: it asks first).
    const leave = summary
      ? h("button.leave", { type: "button", onclick: () => this.handlers.leave(), disabled: !this.online, dataset: { action: "leave" } }, t("leave"))
      : null;
    patch(this.actions, leave, h("div.actions-main", {}, ...buttons));
  }

  #renderStatus() {
    const { view, seat, summary } = this.model;
    /** @type {string|Node} */
    let text = "";
    let kind = "";
    const notice = this.shownNotice;
    if (this.error) {
      text = typeof this.error === "string" ? t(this.error) : errorElement(this.error, (s) => this.seatName(s));
      kind = "error";
    } else if (notice) {
      text = notice.text;
      kind = `notice ${notice.kind}`;
    } else if (!this.online) {
      text = t("offline_status");
      kind = "offline";
    } else if (this.#myAutoplay()) {
      const limit = this.autoplayLimit;
      text = this.autoplayReason === "timeouts" && limit > 0 ? t("autoplay_status_timeouts", { m: limit }) : t("autoplay_status");
      kind = "auto";
    } else if (view && seat !== null && view.reminded && view.phase !== "finished") {
      text = t("reminded");
      kind = "warn";
    } else if (view && this.#myTurn()) {
      text = t(view.trick.length === 0 ? "your_lead" : "your_turn");
      kind = "turn";
    } else if (view && view.phase === "review") {
      text = t("reviewing");
    } else if (view && view.phase === "playing" && view.to_move !== null) {
      text = t("waiting_for", { name: seatName(summary?.seats[view.to_move]) });
    } else if (seat === null && summary) {
      text = t("spectating");
    }
    this.status.replaceChildren(text);
    this.status.className = `status-line ${kind}`;
    this.#renderCentre();
  }

  /** The felt's centre: the deal's count, the bidding window, or who the table still waits for. */
  #renderCentre() {
    const { view, summary } = this.model;
    const waiting = summary && (summary.state === "waiting" || summary.state === "stopped");
    this.centre.classList.toggle("waiting", Boolean(waiting));
    if (waiting && summary) {
      this.centre.replaceChildren(h("div.waiting-title", {}, t("waiting_title")),
        h("ul.waiting-list", {}, ...summary.seats.map((info) => this.#waitingLine(info))));
      this.centre.hidden = false;
      return;
    }
    let centre = "";
    if (view?.phase === "dealing") centre = t("dealing", { n: view.cards_dealt });
    else if (view?.phase === "bidding") centre = t("bidding_window");
    this.centre.replaceChildren(h("span.centre-text", {}, centre), h("span.centre-clock"));
    this.centre.hidden = !centre || this.trick.querySelector(".play") !== null;
  }

  /**
   * One seat in the waiting room: who sits there and whether they are ready, or that it is empty.
   * @param {SeatSummary} info
   * @returns {HTMLElement}
   */
  #waitingLine(info) {
    const ready = info.kind === "bot" || (info.kind === "human" && info.ready);
    const status = info.kind === "empty" ? "empty" : ready ? "ready" : "missing";
    const what = status === "empty" ? t("waiting_empty") : status === "ready" ? `✓ ${t("waiting_ready")}`
      : info.seat === this.model.seat ? t("waiting_you") : t("waiting_press");
    return h("li", { dataset: { seat: String(info.seat), status } },
      h("span.dir", {}, t(SEAT_KEYS[info.seat])), " ",
      status === "empty" ? null : h("b", {}, this.#name(info.seat)), status === "empty" ? null : " ", what);
  }

  #hint() {
    const view = this.model.view;
    if (!view) return;
    this.hand.select(view.hint);
    this.#selectionChanged();
  }

  #play() {
    const cards = this.hand.selected();
    if (cards.length === 0) {
      this.showError("select_cards");
      return;
    }
    this.handlers.play(cards);
  }

  #selectionChanged() {
    if (this.error) {
      this.error = null;
      this.#renderStatus();
    }
  }

  /** Update the countdowns without re-rendering; take away the quick phrases and the notice whose time is up. */
  #tick() {
    const now = performance.now();
    if (this.shownNotice && this.shownNotice.until <= now) {
      this.shownNotice = null;
      this.#renderStatus();
    }
    if (this.takingUntil && this.takingUntil <= now) {
      this.takingUntil = 0;
      this.trick.classList.remove("taking");
    }
    const over = [...this.bubbles].filter(([, said]) => said.until <= now);
    for (const [seat] of over) this.bubbles.delete(seat);
    if (over.length) this.#renderSeats();
    const clock = this.model.clock;
    for (const el of this.seatEls) {
      const seat = Number(el.dataset.seat);
      const running = clock !== null && clock.kind === "turn" && clock.seat === seat && !this.#isAuto(seat);
      el.classList.toggle("clocked", running);
      if (running && clock) paintClock(el.querySelector(".clock"), clock);
    }
    const centreClock = this.centre.querySelector(".centre-clock");
    if (centreClock) {
      const running = clock !== null && clock.kind !== "turn";
      centreClock.textContent = running && clock ? ` ${secondsLeft(clock)}s` : "";
    }
    this.#tickTimer();
  }

  /** The timer by the hand: my turn's clock, or the review window (with what 撤牌 would cost). */
  #tickTimer() {
    const { clock, seat } = this.model;
    const mine = clock !== null && clock.kind === "turn" && clock.seat === seat && seat !== null && !this.#myAutoplay();
    const review = clock !== null && clock.kind === "review" && seat !== null;
    this.timer.dataset.kind = mine ? "turn" : review ? "review" : "";
    if (!clock || (!mine && !review)) {
      this.timerBar.style.width = "0%";
      this.timerText.textContent = "";
      this.timer.classList.remove("urgent");
      return;
    }
    const cost = this.model.view?.can_retract ? this.#retractCost() : 0;
    paintCountdown(this.timer, this.timerBar, this.timerText, clock, {
      max: 100,
      urgent: mine,
      label: (left) => {
        const s = review ? (left / 1000).toFixed(1) : wholeSeconds(left);
        return mine ? t("turn_left", { s }) : cost ? t("review_retract", { s, n: cost }) : t("review_left", { s });
      },
    });
  }
}

/** @param {Clock} clock @returns {number} */
function secondsLeft(clock) {
  return Math.max(0, Math.ceil((clock.deadline - performance.now()) / 1000));
}

/** @param {number} left ms @returns {string} the whole seconds left, rounded up */
function wholeSeconds(left) {
  return String(Math.ceil(left / 1000));
}

/**
 * A seat's clock: its bar, whole seconds and `urgent` under 5 s.
 * @param {Element|null} el
 * @param {Clock} clock
 */
function paintClock(el, clock) {
  if (!el) return;
  paintCountdown(el, /** @type {HTMLElement|null} */ (el.querySelector(".clock-bar")), el.querySelector(".clock-text"), clock);
}

/**
 * Paint a countdown: its bar's share of the clock's total, its text, and `urgent` under 5 s.
 * @param {Element} el the countdown (marked urgent)
 * @param {HTMLElement|null} bar
 * @param {Element|null} text
 * @param {Clock} clock
 * @param {{label?: (left: number) => string, max?: number, urgent?: boolean}} [how] the text for the ms left
 *   (whole seconds unless told), the widest the bar gets (percent), whether it may turn urgent at all
 */
function paintCountdown(el, bar, text, clock, { label = wholeSeconds, max = Infinity, urgent = true } = {}) {
  const left = Math.max(0, clock.deadline - performance.now());
  if (bar) bar.style.width = `${clock.total > 0 ? Math.min(max, (100 * left) / clock.total) : 0}%`;
  if (text) text.textContent = label(left);
  el.classList.toggle("urgent", urgent && left < 5000);
}
