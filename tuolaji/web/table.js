// The table screen: four seats around the felt, the trick, bids, the hand and the action buttons. TableView
// holds the model and the connection's state and hands each part (the table_*.js modules) what it needs.

import { h } from "./dom.js";
import { Hand } from "./hand.js";
import { ActionBar } from "./table_actions.js";
import { BidBar } from "./table_bids.js";
import { CentreMessage } from "./table_centre.js";
import { TurnTimer } from "./table_clocks.js";
import { myAutoplay, myTurn, seatName, trumpContext } from "./table_model.js";
import { InfoLine, ScoreBox } from "./table_panels.js";
import { SeatRing } from "./table_seats.js";
import { NOTICE_MS, StatusLine } from "./table_status.js";
import { TrickArea } from "./table_trick.js";

/** @typedef {import("./table_model.js").TableModel} TableModel */

export class TableView {
  /**
   * @param {HTMLElement} root the table screen
   * @param {import("./table_model.js").TableHandlers} handlers
   */
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    /** @type {TableModel} */
    this.model = { summary: null, seat: null, view: null, clock: null };
    /** whether the connection is open (off: moves are greyed out and the status says it reconnects) */
    this.online = true;
    this.info = new InfoLine(handlers);
    this.score = new ScoreBox();
    this.trick = new TrickArea();
    this.centre = new CentreMessage();
    this.seats = new SeatRing(handlers);
    const felt = h("div.felt");
    felt.append(this.info.el, this.score.el, this.trick.el, this.centre.el, ...this.seats.els);
    this.status = new StatusLine();
    this.bids = new BidBar(handlers);
    this.timer = new TurnTimer();
    const handEl = h("div", { id: "hand" });
    this.actions = new ActionBar(handlers, {
      hint: () => this.#hint(), play: () => this.#play(), lastTrick: () => this.#toggleLast(),
    });
    root.replaceChildren(felt, this.status.el, this.bids.el, this.timer.el, handEl, this.actions.el);
    this.hand = new Hand(handEl, { onChange: () => this.#selectionChanged() });
    new ResizeObserver(() => this.trick.render(this.model, true)).observe(this.trick.el);
    setInterval(() => this.#tick(), 250);
  }

  /**
   * Redraw from the model.
   * @param {TableModel} model
   */
  render(model) {
    const turnBefore = this.model.view?.to_move;
    this.model = model;
    if (model.view?.to_move !== turnBefore) this.status.error = null;
    this.root.dataset.phase = model.view?.phase ?? model.summary?.state ?? "";
    this.root.dataset.myTurn = String(myTurn(model));
    this.root.dataset.lead = String(myTurn(model) && model.view?.trick.length === 0);
    this.root.dataset.autoplay = String(myAutoplay(model));
    this.root.dataset.online = String(this.online);
    this.seats.render(model, this.online);
    this.info.render(model);
    this.trick.render(model);
    this.score.render(model);
    this.bids.render(model, this.online);
    this.hand.setCards(model.view?.hand ?? [], trumpContext(model));
    this.hand.setEnabled(model.seat !== null && this.online);
    this.actions.render(model, this.online, this.trick.showLast);
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
    this.status.notice(text, kind, ms);
    this.#renderStatus();
  }

  /**
   * @param {string|null} reason why 託管 came on for me (the `autoplay` event's reason), null when it went off
   * @param {number} [limit] the timeouts in a row that turn it on (the `timeout` event's limit)
   */
  setAutoplayReason(reason, limit = 0) {
    this.status.setAutoplayReason(reason, limit);
    this.#renderStatus();
  }

  /** A trick was just taken: its plays move toward the winner for a moment, then the next lead shows. */
  trickTaken() {
    this.trick.taken(() => {
      this.trick.render(this.model, true);
      this.#renderStatus();
    });
  }

  /**
   * Show why the server refused a move, in the reader's language with a link to the rule.
   * @param {import("./errors.js").Refusal|string} error an `error` message, or the i18n key of a local one
   */
  showError(error) {
    this.status.error = error;
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
    this.seats.showPhrase(seat, phrase);
    this.seats.render(this.model, this.online);
  }

  /** @returns {string[]} the selected cards */
  selected() {
    return this.hand.selected();
  }

  /** The status line, and the felt's centre (it gives way to the plays on the felt). */
  #renderStatus() {
    this.status.render(this.model, this.online);
    this.centre.render(this.model, this.trick.hasPlays());
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

  /** 上一輪: the last trick shows instead of the current one, or no longer. */
  #toggleLast() {
    this.trick.showLast = !this.trick.showLast;
    this.render(this.model);
  }

  #selectionChanged() {
    if (this.status.error) {
      this.status.error = null;
      this.#renderStatus();
    }
  }

  /** Update the countdowns without re-rendering; take away the quick phrases and the notice whose time is up. */
  #tick() {
    const now = performance.now();
    if (this.status.expire(now)) this.#renderStatus();
    this.trick.tick(now);
    if (this.seats.expire(now)) this.seats.render(this.model, this.online);
    this.seats.tick(this.model);
    this.centre.tick(this.model.clock);
    this.timer.tick(this.model);
  }
}
