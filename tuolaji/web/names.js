// How people and tables are named on screen: a guest by its number (遊客0042, not guest-0042) and a
// table by its number (第 3 桌, not its id). The server names guests guest-NNNN (PROTOCOL.md §1) and
// numbers tables (TableSummary.number); ids are never shown.

import { addStrings, t } from "./i18n.js";

addStrings({
  guest_name: ["游客{n}", "遊客{n}", "Guest {n}"],
  table_no: ["第 {n} 桌", "第 {n} 桌", "Table {n}"],
  table_unnumbered: ["牌桌", "牌桌", "Table"],
});

const GUEST = /^guest-([0-9a-z]+)$/;

/**
 * The name shown for an account's nickname: a guest's is 遊客 and its number.
 * @param {string|null|undefined} nickname
 * @returns {string}
 */
export function personName(nickname) {
  if (!nickname) return "?";
  const guest = GUEST.exec(nickname);
  return guest ? t("guest_name", { n: guest[1] }) : nickname;
}

/**
 * A table's name: 第 N 桌 (a table of before numbers has none: just 牌桌).
 * @param {number|null|undefined} number TableSummary.number
 * @returns {string}
 */
export function tableName(number) {
  return number ? t("table_no", { n: number }) : t("table_unnumbered");
}
