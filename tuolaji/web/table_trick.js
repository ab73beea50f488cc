// The trick on the felt: each seat's play on its side, the last trick between tricks or on demand (上一輪),
// and a taken trick moving toward its winner; the rows of face-up cards it (and the replay) lays out.

import { cardElement, isTrump, sortCards } from "./cards.js";
import { h } from "./dom.js";
import { language, t } from "./i18n.js";
import { myTurn, positionOf, seatName, trumpContext } from "./table_model.js";

/** How long the felt shows a trick being taken (ms; the CSS animation is as long). */
const TAKE_MS = 600;
/** Where the plays of a taken trick shrink to: the side of their box toward the winner (a CSS transform-origin). */
const TAKE_ORIGINS = { bottom: "50% 100%", right: "100% 50%", top: "50% 0%", left: "0% 50%" };

/** @typedef {import("./table_model.js").TableModel} TableModel */
/** @typedef {import("./table_model.js").PlayRecord} PlayRecord */
/** @typedef {import("./cards.js").TrumpContext} TrumpContext */

/**
 * A row of overlapping face-up cards; with maxWidth (CSS px) the cards overlap more so the row fits it.
 * @param {string[]} codes
 * @param {TrumpContext|null} ctx
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

export class TrickArea {
  constructor() {
    this.el = h("div.trick");
    /** whether 上一輪 is pressed: the last trick shows instead of the current one */
    this.showLast = false;
    /** what the area shows now; drawn again only when it changes */
    this.key = "";
    /** until when the felt shows a trick being taken (performance.now() ms) */
    this.takingUntil = 0;
  }

  /**
   * Draw the plays (those already on the felt stay: they do not land again).
   * @param {TableModel} model
   * @param {boolean} [fresh] draw even if nothing changed (the felt was resized, a take ended)
   */
  render(model, fresh = false) {
    if (fresh) this.key = "";
    const ctx = trumpContext(model);
    const { plays, winner, mode, last } = this.#shown(model);
    const taking = mode === "settled" && this.#taking(model) && winner !== null;
    // Once the current trick shows (my turn came), the last one is not brought back to finish its animation.
    if (mode === "" && plays.length > 0) this.takingUntil = 0;
    const key = JSON.stringify([mode, winner, plays, ctx, model.seat, language(), taking]);
    if (key === this.key) return;
    this.key = key;
    this.el.classList.toggle("settled", mode === "settled");
    this.el.classList.toggle("last", mode === "last");
    this.el.classList.toggle("taking", taking);
    if (taking && winner !== null) {
      this.el.style.setProperty("--take-origin", TAKE_ORIGINS[/** @type {"top"} */ (positionOf(model, winner))]);
    }
    this.el.querySelector(".trick-label")?.remove();
    this.#lay(model, plays, winner, mode, ctx);
    if (mode === "last" && last) {
      this.el.append(h("div.trick-label", {}, `${t("last_trick")} · ${t("winner_seat", { name: seatName(model.summary?.seats[last.winner]) })}`));
    }
  }

  /**
   * A trick was just taken: its plays move toward the winner for a moment.
   * @param {() => void} then called once that is over (to show the next lead)
   */
  taken(then) {
    this.takingUntil = performance.now() + TAKE_MS;
    this.key = "";
    setTimeout(then, TAKE_MS + 20);
  }

  /**
   * End the take's animation once its time is up.
   * @param {number} now performance.now() ms
   */
  tick(now) {
    if (this.takingUntil && this.takingUntil <= now) {
      this.takingUntil = 0;
      this.el.classList.remove("taking");
    }
  }

  /** @returns {boolean} whether any play is on the felt */
  hasPlays() {
    return this.el.querySelector(".play") !== null;
  }

  /**
   * What the felt shows: the last trick when asked for, between tricks or while it is taken; else the current one.
   * @param {TableModel} model
   * @returns {{plays: PlayRecord[], winner: number|null, mode: string, last: import("./table_model.js").TrickRecord|null}}
   */
  #shown(model) {
    const view = model.view;
    const last = view ? view.last_trick : null;
    const plays = view ? view.trick : [];
    if (this.showLast && last) return { plays: last.plays, winner: last.winner, mode: "last", last };
    if (view && last && ((plays.length === 0 && view.phase === "playing") || this.#taking(model))) {
      // Between tricks (or while the last one is being taken: the next lead waits for that) the last trick shows.
      return { plays: last.plays, winner: last.winner, mode: "settled", last };
    }
    return { plays, winner: null, mode: "", last };
  }

  /**
   * @param {TableModel} model
   * @returns {boolean} whether a trick is being taken now (never hiding the trick I am to follow)
   */
  #taking(model) {
    const phase = model.view?.phase;
    return performance.now() < this.takingUntil && (phase === "playing" || phase === "review") && !myTurn(model);
  }

  /**
   * Keep the plays already on the felt (they do not land again); add the new ones, drop the gone ones.
   * @param {TableModel} model
   * @param {PlayRecord[]} plays
   * @param {number|null} winner
   * @param {string} mode "" (the current trick), "settled" (the last one, between tricks) or "last" (上一輪)
   * @param {TrumpContext} ctx
   */
  #lay(model, plays, winner, mode, ctx) {
    const width = this.el.clientWidth;
    /** @type {Map<string, Element>} */
    const shown = new Map([...this.el.querySelectorAll(".play")].map((el) => [/** @type {HTMLElement} */ (el).dataset.key ?? "", el]));
    /** @type {Element[]} */
    const added = [];
    for (const play of plays) {
      const position = positionOf(model, play.seat);
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
    this.el.append(...added);
  }
}
