// The player's hand: sorted fan of cards, selection by click or by pressing and dragging across cards.

import { cardElement, displayGroup, isTrump, sortCards } from "./cards.js";
import { h } from "./dom.js";

/** @typedef {import("./cards.js").TrumpContext} TrumpContext */

const MIN_STEP = 0.26; // smallest visible strip of an overlapped card, as a fraction of its width
const MIN_STRIP_PX = 28; // ... and never under 28 CSS px, so a finger can tap every card
const MAX_STEP = 0.62;
const GROUP_GAP = 0.18; // extra space between suit groups when there is room, in steps

export class Hand {
  /**
   * @param {HTMLElement} root the element the fan is drawn into
   * @param {{onChange?: (selected: string[]) => void}} [opts] onChange: called after every selection change
   */
  constructor(root, opts = {}) {
    this.root = root;
    this.onChange = opts.onChange ?? (() => {});
    /** @type {string[]} */
    this.cards = [];
    /** @type {boolean[]} */
    this.chosen = [];
    /** @type {HTMLDivElement[]} */
    this.elements = [];
    /** @type {{start: number, mode: boolean, before: boolean[], pointer: number}|null} */
    this.drag = null;
    this.enabled = true;
    /** @type {TrumpContext|null} */
    this.ctx = null;
    root.classList.add("hand");
    root.addEventListener("pointerdown", (e) => this.#down(e));
    root.addEventListener("pointermove", (e) => this.#move(e));
    root.addEventListener("pointerup", (e) => this.#up(e));
    root.addEventListener("pointercancel", (e) => this.#cancel(e));
    new ResizeObserver(() => this.#resized()).observe(root);
  }

  /**
   * Show these cards, sorted for the trump context. The selection is kept when the cards are unchanged;
   * cards new since the last call are marked so they animate in (the deal).
   * @param {string[]} codes
   * @param {TrumpContext} ctx
   */
  setCards(codes, ctx) {
    const sorted = sortCards(codes, ctx);
    const same = sorted.length === this.cards.length && sorted.every((c, i) => c === this.cards[i]);
    const sameCtx = this.ctx && this.ctx.level === ctx.level && this.ctx.trumpSuit === ctx.trumpSuit;
    if (same && sameCtx) return;
    const previous = countCodes(this.cards);
    const dealing = sorted.length > this.cards.length && sorted.length - this.cards.length <= 4;
    const keep = same ? this.chosen : sorted.map(() => false);
    this.cards = sorted;
    this.chosen = keep;
    this.ctx = ctx;
    this.elements = sorted.map((code, i) => {
      const el = cardElement(code, { trump: isTrump(code, ctx) });
      el.dataset.index = String(i);
      el.dataset.group = displayGroup(code, ctx);
      const left = previous.get(code) ?? 0;
      if (left > 0) previous.set(code, left - 1);
      else if (dealing) arrive(el);
      return el;
    });
    this.#render();
    if (!same) this.onChange(this.selected());
  }

  /** @returns {string[]} the selected cards in display order */
  selected() {
    return this.cards.filter((_, i) => this.chosen[i]);
  }

  /**
   * Select exactly these cards (e.g. a hint); each code is matched once.
   * @param {string[]} codes
   */
  select(codes) {
    const wanted = countCodes(codes);
    this.chosen = this.cards.map((code) => {
      const n = wanted.get(code) ?? 0;
      if (n > 0) wanted.set(code, n - 1);
      return n > 0;
    });
    this.#paint();
  }

  /** Deselect every card. */
  clear() {
    this.chosen = this.cards.map(() => false);
    this.#paint();
  }

  /**
   * Allow or forbid selecting (e.g. for a spectator or while dealing).
   * @param {boolean} on
   */
  setEnabled(on) {
    this.enabled = on;
    this.root.classList.toggle("disabled", !on);
  }

  /** Recompute the overlap so each row fits its width, with a gap between suit groups when there is room. */
  layout() {
    const rows = [...this.root.querySelectorAll(".hand-row")];
    const width = this.#innerWidth();
    const cardWidth = this.#cardWidth();
    for (const row of rows) {
      const cards = /** @type {HTMLElement[]} */ ([...row.children]);
      const groups = cards.filter((el, i) => i > 0 && el.dataset.group !== cards[i - 1].dataset.group).length;
      const free = width - cardWidth;
      const steps = Math.max(cards.length - 1, 1);
      // A small card may show more than MAX_STEP of itself: never a strip under the narrowest one.
      const widest = Math.max(MAX_STEP * cardWidth, this.#minStep(cardWidth));
      let step = Math.min(widest, free / (steps + groups * GROUP_GAP));
      let gap = step * GROUP_GAP;
      if (step < this.#minStep(cardWidth)) {
        step = Math.min(widest, free / steps);
        gap = 0;
      }
      cards.forEach((el, i) => {
        const newGroup = i > 0 && el.dataset.group !== cards[i - 1].dataset.group;
        el.style.marginLeft = i === 0 ? "0px" : `${snapUp(step - cardWidth + (newGroup ? gap : 0))}px`;
      });
    }
  }

  /** @param {number} cardWidth @returns {number} the narrowest visible strip of a card, in CSS px */
  #minStep(cardWidth) {
    return Math.max(MIN_STRIP_PX, MIN_STEP * cardWidth);
  }

  /**
   * The cards of each row: as few rows as the width allows at the narrowest strip (a taller fan would
   * squeeze the felt on a phone), with the display groups (trumps, then each suit) kept whole where those
   * rows leave room, and otherwise split. Cards keep their order.
   * @returns {HTMLDivElement[][]}
   */
  #rows() {
    const cardWidth = this.#cardWidth();
    const room = (this.#innerWidth() - cardWidth) / this.#minStep(cardWidth);
    const capacity = Math.max(1, Math.floor(room) + 1);
    if (this.elements.length <= capacity) return [this.elements];
    const target = Math.ceil(this.elements.length / capacity);
    /** @type {HTMLDivElement[][]} */
    const groups = [];
    for (const el of this.elements) {
      const last = groups[groups.length - 1];
      if (last && last[0].dataset.group === el.dataset.group) last.push(el);
      else groups.push([el]);
    }
    /** @type {HTMLDivElement[][]} */
    const rows = [];
    /** @type {HTMLDivElement[]} */
    let row = [];
    let gaps = 0;
    let unplaced = this.elements.length; // cards not yet in a closed row, the open row's included
    const close = () => {
      rows.push(row);
      unplaced -= row.length;
      row = [];
      gaps = 0;
    };
    for (let group of groups) {
      const crowded = row.length + (gaps + 1) * GROUP_GAP + group.length > room + 1;
      // A group that does not fit the open row starts a new one, if the rows left can still take the rest.
      if (row.length && crowded && unplaced - row.length <= (target - rows.length - 1) * capacity) close();
      while (group.length > capacity - row.length) {
        const cut = capacity - row.length;
        row.push(...group.slice(0, cut));
        group = group.slice(cut);
        close();
      }
      if (row.length) gaps += 1;
      row.push(...group);
    }
    if (row.length) rows.push(row);
    return rows;
  }

  /**
   * The width of one card in the fan, in CSS pixels, as laid out to the fraction of a pixel (offsetWidth rounds,
   * and a card 0.4 px wider than that would take 0.4 px off every strip). A card's transforms only ever move it
   * up or down (raised when selected, dropping in when dealt), so its box keeps its width.
   * @returns {number}
   */
  #cardWidth() {
    const width = this.root.querySelector(".card")?.getBoundingClientRect().width ?? 0;
    return width > 0 ? width : 64;
  }

  /**
   * The width available to a row of cards, to the fraction of a pixel: the hand's width less its padding, its
   * borders and a scroll bar (where the hand scrolls and the scroll bar takes room).
   * @returns {number}
   */
  #innerWidth() {
    const style = getComputedStyle(this.root);
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const borders = parseFloat(style.borderLeftWidth) + parseFloat(style.borderRightWidth);
    const bar = Math.max(0, this.root.offsetWidth - this.root.clientWidth - borders);
    return (this.root.getBoundingClientRect().width || window.innerWidth) - padding - borders - bar;
  }

  #resized() {
    const shown = [...this.root.querySelectorAll(".hand-row")].map((row) => row.children.length).join(",");
    const wanted = this.#rows().map((row) => row.length).join(",");
    if (this.cards.length > 0 && shown !== wanted) this.#render();
    else this.layout();
    this.#markScrolling();
  }

  /** Mark a hand taller than its area (`.scrolls`: a finger's swipe up or down then scrolls it). */
  #markScrolling() {
    this.root.classList.toggle("scrolls", this.root.scrollHeight > this.root.clientHeight + 1);
  }

  #render() {
    if (!this.root.querySelector(".card")) {
      // Measure a card's width once there is one to measure (the rows depend on it).
      this.root.replaceChildren(h("div.hand-row", {}, ...this.elements.slice(0, 1)));
    }
    const rows = this.#rows();
    this.root.replaceChildren(...rows.map((cards) => h("div.hand-row", {}, ...cards)));
    this.root.dataset.count = String(this.cards.length);
    this.root.dataset.rows = String(rows.length);
    this.#paint();
    this.layout();
    this.#markScrolling();
  }

  #paint() {
    this.elements.forEach((el, i) => el.classList.toggle("selected", this.chosen[i]));
  }

  /** @param {PointerEvent} e */
  #indexAt(e) {
    const hit = document.elementFromPoint(e.clientX, e.clientY);
    const card = hit instanceof Element ? hit.closest(".card[data-index]") : null;
    return card && this.root.contains(card) ? Number(/** @type {HTMLElement} */ (card).dataset.index) : -1;
  }

  /** @param {PointerEvent} e */
  #down(e) {
    if (!this.enabled || e.button !== 0) return;
    const index = this.#indexAt(e);
    if (index < 0) return;
    e.preventDefault();
    this.root.setPointerCapture(e.pointerId);
    this.drag = { start: index, mode: !this.chosen[index], before: [...this.chosen], pointer: e.pointerId };
    this.#sweep(index);
  }

  /** @param {PointerEvent} e */
  #move(e) {
    if (!this.drag || e.pointerId !== this.drag.pointer) return;
    const index = this.#indexAt(e);
    if (index >= 0) this.#sweep(index);
  }

  /** @param {PointerEvent} e */
  #up(e) {
    if (!this.drag || e.pointerId !== this.drag.pointer) return;
    this.drag = null;
    this.onChange(this.selected());
  }

  /**
   * The browser took the touch over (a swipe that scrolls a hand taller than its area): what it selected is undone.
   * @param {PointerEvent} e
   */
  #cancel(e) {
    if (!this.drag || e.pointerId !== this.drag.pointer) return;
    this.chosen = this.drag.before;
    this.drag = null;
    this.#paint();
  }

  /** Set every card between the drag's start and index to the drag's mode. @param {number} index */
  #sweep(index) {
    if (!this.drag) return;
    const low = Math.min(this.drag.start, index);
    const high = Math.max(this.drag.start, index);
    this.chosen = this.drag.before.map((was, i) => (i >= low && i <= high ? this.drag.mode : was));
    this.#paint();
  }
}

/**
 * A card just dealt drops into its place (CSS `.arrived`): on its way it takes no taps (it passes over the row
 * above, unseen at first), and once it has landed it is like any other card (a redraw does not deal it again).
 * @param {HTMLElement} el
 */
function arrive(el) {
  el.classList.add("arrived");
  el.addEventListener("animationend", () => el.classList.remove("arrived"), { once: true });
}

/**
 * Round a length up to the layout's grid (1/64 CSS px), so the browser keeps it as it is: a strip computed
 * at 28 px is never drawn at 27.98.
 * @param {number} px
 * @returns {number}
 */
function snapUp(px) {
  return Math.ceil(px * 64) / 64;
}

/**
 * @param {string[]} codes
 * @returns {Map<string, number>}
 */
function countCodes(codes) {
  const counts = new Map();
  for (const code of codes) counts.set(code, (counts.get(code) ?? 0) + 1);
  return counts;
}
