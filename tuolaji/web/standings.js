// The leaderboards (積分榜, 銀子榜: the top 100 registered players with their titles and my own place)
// and a player's profile (titles, balances, places, record as the dealer's team and as the attackers,
// latest hands with their replays). PROTOCOL.md §1.

import * as api from "./api.js";
import { h } from "./dom.js";
import { addStrings, t, title } from "./i18n.js";
import { personName } from "./names.js";
import { handItem } from "./replay.js";

addStrings({
  leaderboard: ["排行榜", "排行榜", "Leaderboard"],
  board_points: ["积分榜", "積分榜", "By points"],
  board_silver: ["银子榜", "銀子榜", "By silver"],
  my_place: ["我的名次：第 {n} 名", "我的名次：第 {n} 名", "My place: {n}"],
  guest_unranked: ["游客不上榜：注册后就能上榜。", "訪客不上榜：註冊後就能上榜。", "Guests are not ranked: register to appear."],
  place_n: ["第 {n} 名", "第 {n} 名", "#{n}"],
  page_n: ["第 {n}/{m} 页", "第 {n}/{m} 頁", "Page {n}/{m}"],
  prev_page: ["上一页", "上一頁", "Previous"],
  next_page: ["下一页", "下一頁", "Next"],
  board_empty: ["还没有人上榜。", "還沒有人上榜。", "Nobody is ranked yet."],
  profile: ["我的资料", "我的資料", "My profile"],
  guest_mark: ["游客", "訪客", "guest"],
  hands_played: ["总盘数", "總盤數", "Hands"],
  hands_won: ["赢", "贏", "Won"],
  win_rate: ["胜率", "勝率", "Win rate"],
  side_all: ["全部", "全部", "All hands"],
  side_dealer: ["坐庄（庄家方）", "坐莊（莊家方）", "Dealer's team"],
  side_attackers: ["闲家", "閒家", "Attackers"],
  recent_hands: ["最近的牌局", "最近的牌局", "Latest hands"],
  unranked: ["不上榜", "不上榜", "not ranked"],
});

/** @typedef {import("./api.js").Account} Account */

/**
 * "63%" (or "–" without hands).
 * @param {number} won
 * @param {number} hands
 * @returns {string}
 */
function rate(won, hands) {
  return hands > 0 ? `${Math.round((100 * won) / hands)}%` : "–";
}

export class LeaderboardView {
  /**
   * @param {HTMLElement} root the leaderboard screen
   * @param {{back: () => void, profile: (accountId: number) => void}} handlers
   */
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    /** @type {"points"|"silver"} */
    this.board = "points";
    this.page = 1;
    /** @type {Awaited<ReturnType<typeof api.leaderboard>>|null} */
    this.data = null;
  }

  /**
   * Load and show a page of a board.
   * @param {"points"|"silver"} [board]
   * @param {number} [page]
   */
  async open(board = this.board, page = 1) {
    this.board = board;
    this.page = page;
    this.data = await api.leaderboard(board, page);
    this.render();
  }

  /** Redraw (also after a language change). */
  render() {
    const data = this.data;
    const tab = (/** @type {"points"|"silver"} */ board) => h(`button${board === this.board ? ".active" : ""}`, {
      dataset: { board }, "aria-pressed": String(board === this.board),
      onclick: () => this.open(board, 1),
    }, t(`board_${board}`));
    const rows = (data?.entries ?? []).map(({ place, account }) => h("li.board-row", {
      dataset: { account: String(account.id), place: String(place) },
    },
      h("span.place", {}, String(place)),
      h("button.link.name", { dataset: { action: "profile" }, onclick: () => this.handlers.profile(account.id) }, personName(account.nickname)),
      h("span.title", {}, title(this.board === "points" ? account.rank.title : account.wealth.title)),
      h("span.value", {}, String(this.board === "points" ? account.points : account.silver))));
    const pages = data?.pages ?? 1;
    this.root.replaceChildren(h("div.standings", {},
      h("div.lobby-head", {}, h("h2", {}, t("leaderboard")),
        h("button", { onclick: () => this.handlers.back(), dataset: { action: "back" } }, t("back"))),
      h("div.row.board-tabs", {}, tab("points"), tab("silver")),
      h("p.my-place", { id: "my-place" }, this.#myPlace()),
      rows.length ? h("ol.board-list", {}, ...rows) : h("p", {}, t("board_empty")),
      h("div.replay-nav", {},
        h("button", { disabled: this.page <= 1, dataset: { action: "prev-page" }, onclick: () => this.open(this.board, this.page - 1) }, t("prev_page")),
        h("span", { id: "board-page" }, t("page_n", { n: this.page, m: pages })),
        h("button", { disabled: !data?.next_page, dataset: { action: "next-page" }, onclick: () => this.open(this.board, this.page + 1) }, t("next_page")))));
  }

  /** @returns {string} my place on this board, or why I have none */
  #myPlace() {
    const me = this.data?.me;
    if (!me) return "";
    return me.place === null ? t("guest_unranked") : t("my_place", { n: me.place });
  }
}

export class ProfileView {
  /**
   * @param {HTMLElement} root the profile screen
   * @param {{back: () => void, replay: (hand: any) => void}} handlers
   */
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    /** @type {Awaited<ReturnType<typeof api.profile>>|null} */
    this.data = null;
  }

  /**
   * Load and show an account's profile.
   * @param {number} accountId
   */
  async open(accountId) {
    this.data = await api.profile(accountId);
    this.render();
  }

  /** Redraw (also after a language change). */
  render() {
    const data = this.data;
    if (!data) return;
    const { account, places, sides, recent } = data;
    const place = (/** @type {number|null} */ n) => (n === null ? t("unranked") : t("place_n", { n }));
    const balance = (/** @type {string} */ key, /** @type {number} */ value, /** @type {string} */ named, /** @type {number|null} */ at) =>
      h("div.balance", { dataset: { balance: key } },
        h("span.label", {}, t(key === "points" ? "score_points" : "silver")),
        h("strong", {}, String(value)), h("span.title", {}, title(named)), h("span.place", {}, place(at)));
    const side = (/** @type {string} */ key, /** @type {number} */ won, /** @type {number} */ hands) =>
      h("tr", { dataset: { side: key } }, h("th", {}, t(`side_${key}`)), h("td", {}, String(hands)), h("td", {}, String(won)),
        h("td.rate", {}, rate(won, hands)));
    const hands = recent.map((hand) => handItem(hand, () => this.handlers.replay(hand)));
    this.root.replaceChildren(h("div.standings.profile", {},
      h("div.lobby-head", {},
        h("h2", { id: "profile-name" }, personName(account.nickname), account.guest ? h("span.badge", {}, t("guest_mark")) : null),
        h("button", { onclick: () => this.handlers.back(), dataset: { action: "back" } }, t("back"))),
      h("div.balances", {},
        balance("points", account.points, account.rank.title, places.points),
        balance("silver", account.silver, account.wealth.title, places.silver)),
      h("table.sides", {},
        h("thead", {}, h("tr", {}, h("th"), h("th", {}, t("hands_played")), h("th", {}, t("hands_won")), h("th", {}, t("win_rate")))),
        h("tbody", {},
          side("all", account.hands_won, account.hands_played),
          side("dealer", sides.dealer.won, sides.dealer.hands),
          side("attackers", sides.attackers.won, sides.attackers.hands))),
      h("h3", {}, t("recent_hands")),
      hands.length ? h("ul.history-list", {}, ...hands) : h("p", {}, t("no_history"))));
  }
}
