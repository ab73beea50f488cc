// Game words in the reader's language: cards, suit-classes, unit and tractor shapes (the seeds' terms).

import { SUIT_SYMBOLS, rankLabel } from "./cards.js";
import { addStrings, t } from "./i18n.js";

addStrings({
  big_joker: ["大王", "大王", "big joker"],
  small_joker: ["小王", "小王", "small joker"],
  class_S: ["黑桃", "黑桃", "spades"],
  class_H: ["红桃", "紅桃", "hearts"],
  class_C: ["梅花", "梅花", "clubs"],
  class_D: ["方块", "方塊", "diamonds"],
  class_trump: ["主牌", "主牌", "trumps"],
  unit_1: ["单张", "單張", "single"],
  unit_2: ["对子", "對子", "pair"],
  unit_3: ["三子", "三子", "triple"],
  unit_4: ["炸弹", "炸彈", "bomb"],
  tractor_2: ["{n}连对", "{n}連對", "tractor of {n} pairs"],
  tractor_3: ["{n}连三", "{n}連三", "tractor of {n} triples"],
  tractor_4: ["{n}连炸弹的炸弹拖拉机", "{n}連炸彈的炸彈拖拉機", "bomb tractor of {n} bombs"],
  list_sep: ["、", "、", ", "],
  must_follow_suit: ["有同花色的必须跟同花色", "有同花色的必須跟同花色", "有同花色的必須跟同花色: follow suit while you can"],
  must_follow_trump: ["有主的必须跟主", "有主的必須跟主", "有主的必須跟主: follow with trumps while you have them"],
});

/**
 * One card for reading: "♠A", "♥10", "大王".
 * @param {string} code wire notation ("AS", "TH", "BJ")
 * @returns {string}
 */
export function cardText(code) {
  if (code === "BJ") return t("big_joker");
  if (code === "SJ") return t("small_joker");
  return `${SUIT_SYMBOLS[/** @type {"S"|"H"|"C"|"D"} */ (code[1])] ?? code[1]}${rankLabel(code[0])}`;
}

/**
 * Cards for reading, separated by spaces.
 * @param {unknown} codes a list of card strings
 * @returns {string}
 */
export function cardsText(codes) {
  return Array.isArray(codes) ? codes.map((code) => cardText(String(code))).join(" ") : "";
}

/**
 * A suit-class (R8): "黑桃", "主牌"; "trumps" in English.
 * @param {string} code "S", "H", "C", "D" or "trump"
 * @returns {string}
 */
export function classText(code) {
  return t(`class_${code}`);
}

/**
 * A unit or tractor shape (R10–R11): "對子", "3連對", "tractor of 2 triples".
 * @param {{arity: number, length: number}} shape
 * @returns {string}
 */
export function shapeText(shape) {
  if (shape.length <= 1) return t(`unit_${shape.arity}`);
  return t(`tractor_${shape.arity}`, { n: shape.length });
}

/**
 * A list of words joined as the language joins them.
 * @param {string[]} words
 * @returns {string}
 */
export function listText(words) {
  return words.join(t("list_sep"));
}
