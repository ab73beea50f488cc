// The four seats around the felt: name, titles, badges (dealer, level, offline, 託管, a bot's level),
// cards left, the turn clock, a 坐下 / 加機器人 button on an empty seat, and a quick phrase's bubble.

import { botLevel } from "./bots.js";
import { rankLabel } from "./cards.js";
import { h, patch } from "./dom.js";
import { t, title } from "./i18n.js";
import { phraseText } from "./phrases.js";
import { paintClock } from "./table_clocks.js";
import { POSITIONS, SEAT_KEYS, isAuto, nameAt } from "./table_model.js";

/** How long a quick phrase shows by its speaker's seat (ms). */
const PHRASE_MS = 4000;

/** @typedef {import("./table_model.js").TableModel} TableModel */
/** @typedef {import("./table_model.js").SeatSummary} SeatSummary */

export class SeatRing {
  /** @param {import("./table_model.js").TableHandlers} handlers */
  constructor(handlers) {
    this.handlers = handlers;
    /** @type {HTMLElement[]} the seats' places, mine first (bottom, right, top, left) */
    this.els = POSITIONS.map((pos) => h(`div.seat.pos-${pos}`));
    /** @type {Map<number, {phrase: string, until: number}>} the quick phrase shown by each seat, until when */
    this.bubbles = new Map();
  }

  /**
   * @param {TableModel} model
   * @param {boolean} online whether the connection is open (off: the seat buttons are greyed out)
   */
  render(model, online) {
    const { summary, view, seat: mine } = model;
    for (let seat = 0; seat < 4; seat++) {
      const el = this.els[(seat - (mine ?? 0) + 4) % 4];
      const info = summary?.seats[seat];
      el.dataset.seat = String(seat);
      el.classList.toggle("turn", view?.to_move === seat && (view.phase === "playing"));
      el.classList.toggle("empty", !info || info.kind === "empty");
      const count = view?.hand_sizes[seat];
      const account = info?.account;
      const titles = account ? h("div.titles", {}, `${title(account.rank)} · ${title(account.wealth)}`) : null;
      const cards = count !== undefined && seat !== mine
        ? h("span.count", { title: t("cards_left") }, h("span.mini-back"), String(count)) : null;
      const clock = h("div.clock", {}, h("div.clock-bar"), h("span.clock-text"));
      patch(el,
        h("div.seat-name", {}, h("span.dir", {}, t(SEAT_KEYS[seat])), h("span.nick", {}, nameAt(model, seat)), cards),
        titles, badges(model, seat), this.#seatButton(model, seat, online), clock, this.#bubble(seat),
      );
    }
  }

  /**
   * Show a quick phrase by its speaker's seat for a few seconds (drawn by the next render).
   * @param {number} seat
   * @param {string} phrase
   */
  showPhrase(seat, phrase) {
    this.bubbles.set(seat, { phrase, until: performance.now() + PHRASE_MS });
  }

  /**
   * Take away the quick phrases whose time is up.
   * @param {number} now performance.now() ms
   * @returns {boolean} whether one was taken away (the seats are to be drawn again)
   */
  expire(now) {
    const over = [...this.bubbles].filter(([, said]) => said.until <= now);
    for (const [seat] of over) this.bubbles.delete(seat);
    return over.length > 0;
  }

  /**
   * Update the turn clock of the seat to move (bots and 託管 seats have none) without re-rendering.
   * @param {TableModel} model
   */
  tick(model) {
    const clock = model.clock;
    for (const el of this.els) {
      const seat = Number(el.dataset.seat);
      const running = clock !== null && clock.kind === "turn" && clock.seat === seat && !isAuto(model, seat);
      el.classList.toggle("clocked", running);
      if (running && clock) paintClock(el.querySelector(".clock"), clock);
    }
  }

  /**
   * Sit / add-bot button on an empty seat while the table waits.
   * @param {TableModel} model
   * @param {number} seat
   * @param {boolean} online
   */
  #seatButton(model, seat, online) {
    const summary = model.summary;
    const info = summary?.seats[seat];
    if (!summary || summary.state === "playing" || (info && info.kind !== "empty")) return null;
    if (model.seat === null) {
      return h("button.small", { onclick: () => this.handlers.join(seat), disabled: !online, dataset: { action: "join" } }, t("sit"));
    }
    return h("button.small", { onclick: () => this.handlers.addBot(seat), disabled: !online, dataset: { action: "add-bot" } }, t("add_bot"));
  }

  /** @param {number} seat @returns {HTMLElement|null} the seat's quick phrase, while it shows */
  #bubble(seat) {
    const said = this.bubbles.get(seat);
    return said
      ? h("div.phrase-bubble", { role: "status", dataset: { phrase: said.phrase, key: `said-${said.until}` } }, phraseText(said.phrase))
      : null;
  }
}

/**
 * A seat's badges: dealer, team level, offline, 託管, a bot's level, ready.
 * @param {TableModel} model
 * @param {number} seat
 * @returns {HTMLElement}
 */
function badges({ summary, view }, seat) {
  const info = summary?.seats[seat];
  const dealer = view?.dealer ?? summary?.dealer ?? null;
  const level = summary?.levels[seat % 2];
  const auto = view?.autoplay[seat] || info?.autoplay;
  return h("div.badges",
    {},
    dealer === seat ? h("span.badge.dealer", { title: t("dealer_mark") }, t("dealer_mark")) : null,
    level ? h("span.badge.level", { title: t("level") }, `${t("level_short")} ${rankLabel(level)}`) : null,
    info?.kind === "human" && !info.connected ? h("span.badge.offline", {}, t("offline")) : null,
    auto && info?.kind === "human" ? h("span.badge.auto", {}, t("autoplay_mark")) : null,
    info?.kind === "bot" ? h("span.badge.bot", { dataset: { bot: info.bot ?? "" } }, botLevel(info.bot)) : null,
    summary?.state === "waiting" && info?.kind === "human" && info.ready ? h("span.badge.ready", {}, "✓") : null,
  );
}
