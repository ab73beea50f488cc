// The 規則 page: the rule book (rulebook/book.json, its one source; docs/RULES.md is written from it) in the
// reader's language. Each rule is a player's guide with card pictures, with its precise wording one tap away
// (a "precise rule" disclosure); one anchor per rule (#rule-R13). Opened by the top bar's 規則 link and by
// every rule link of a refusal (href "#rules/R13").
// Markup in the book's texts: **bold**; a `code` span of card tokens ("AS AS KS KS") is cards; R13 names a
// rule (a link to it); a blank line separates paragraphs.

import { cardElement } from "./cards.js";
import { h } from "./dom.js";
import { addStrings, language, t, title } from "./i18n.js";
import { cardText } from "./words.js";

addStrings({
  rules: ["规则", "規則", "Rules"],
  rules_title: ["规则书", "規則書", "Rule book"],
  rules_contents: ["目录", "目錄", "Contents"],
  rules_precise: ["准确规则", "準確規則", "Precise rule"],
  rules_loading: ["正在载入规则书…", "正在載入規則書…", "Loading the rule book…"],
  rules_failed: ["规则书载入失败，请稍后再试。", "規則書載入失敗，請稍後再試。", "The rule book could not be loaded; try again later."],
});

/**
 * @typedef {{"zh-Hans": string, "zh-Hant": string, en: string}} Text  one text in the three languages
 * @typedef {string|number|Text} Cell
 * @typedef {{layout?: "examples", head: Text[], rows: Cell[][]}} Table
 * @typedef {{id: string, guide: Text, precise: Text, table?: Table, guide_after?: Text}} Rule
 * @typedef {{id: string, title: Text, intro?: {guide: Text, precise: Text}, rules: Rule[]}} Section
 * @typedef {{title: Text, head: Text[], rows: (string|number)[][]}} TitleTable
 * @typedef {{rule: string, field: string, label: Text, values: Record<string, boolean|number>,
 *   words?: Record<string, Text>, unit?: Text}} PresetRow
 * @typedef {{guide: {intro: Text, precise_intro: Text}, sections: Section[],
 *   tables: {title: Text, rank: TitleTable, wealth: TitleTable, start: Text},
 *   presets: {title: Text, columns: {preset: string, name: Text}[], rows: PresetRow[], after: Text}}} Book
 */

const BOOK_URL = new URL("./rulebook/book.json", import.meta.url);
const CARD = /^(?:10|[2-9TJQKA])[SHCD]$|^[BS]J$/;
const MARKUP = /(\*\*[^*]+\*\*|`[^`]+`|\bR\d{1,2}\b)/;

/** @type {Promise<Book>|null} */
let loading = null;

/** @returns {Promise<Book>} the book, fetched once (a failed fetch is tried again next time) */
function loadBook() {
  if (!loading) {
    loading = fetch(BOOK_URL).then((answer) => {
      if (!answer.ok) throw new Error(`rule book: HTTP ${answer.status}`);
      return answer.json();
    });
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/**
 * A text in the reader's language (a plain string or number is the same in every language).
 * @param {Cell} text
 * @returns {string}
 */
function pick(text) {
  if (typeof text === "string") return text;
  if (typeof text === "number") return String(text);
  return text[/** @type {keyof Text} */ (language())] ?? text.en;
}

/**
 * Cards as small pictures (the table's own card faces), overlapping like a hand.
 * @param {string[]} codes
 * @returns {HTMLElement}
 */
function cardRun(codes) {
  return h("span.card-run", { role: "img", "aria-label": codes.map(cardText).join(" ") },
    ...codes.map((code) => cardElement(code, { className: "mini" })));
}

/**
 * The inline markup of one paragraph; card spans as pictures (``pictures``) or as text.
 * @param {string} text
 * @param {boolean} pictures
 * @returns {(Node|string)[]}
 */
function inline(text, pictures) {
  /** @type {(Node|string)[]} */
  const out = [];
  for (const part of text.split(MARKUP)) {
    if (!part) continue;
    if (part.startsWith("**")) {
      out.push(h("strong", {}, ...inline(part.slice(2, -2), pictures)));
    } else if (part.startsWith("`")) {
      const tokens = part.slice(1, -1).split(/\s+/);
      if (tokens.every((token) => CARD.test(token))) {
        out.push(pictures ? cardRun(tokens) : h("span.cards", {}, tokens.map(cardText).join(" ")));
      } else {
        out.push(part.slice(1, -1));
      }
    } else if (/^R\d{1,2}$/.test(part)) {
      out.push(h("a.rule-ref", { href: `#rules/${part}` }, part));
    } else {
      out.push(part);
    }
  }
  return out;
}

/**
 * Paragraphs of a text (a blank line separates them), the first one opened by ``lead`` nodes.
 * @param {Cell} text
 * @param {boolean} pictures
 * @param {string} [spec] the paragraphs' element spec
 * @param {(Node|string)[]} [lead]
 * @returns {HTMLElement[]}
 */
function paragraphs(text, pictures, spec = "p", lead = []) {
  return pick(text).split("\n\n").map((paragraph, index) =>
    h(spec, {}, ...(index === 0 ? lead : []), ...inline(paragraph, pictures)));
}

/**
 * The precise wording behind a disclosure.
 * @param {Text} text
 * @returns {HTMLElement}
 */
function precise(text) {
  return h("details.rule-precise", {}, h("summary", {}, t("rules_precise")), ...paragraphs(text, false));
}

/**
 * A table; cells may hold cards (as pictures) and rule numbers.
 * @param {Cell[]} head
 * @param {Cell[][]} rows
 * @returns {HTMLElement}
 */
function table(head, rows) {
  return h("table.rules-table", {},
    h("thead", {}, h("tr", {}, ...head.map((cell) => h("th", {}, ...inline(pick(cell), true))))),
    h("tbody", {}, ...rows.map((row) => h("tr", {}, ...row.map((cell) => h("td", {}, ...inline(pick(cell), true)))))));
}

/**
 * Worked examples as one small card each (label and cards stacked), so that no row is wider than a phone.
 * @param {Table} examples
 * @returns {HTMLElement}
 */
function exampleList(examples) {
  return h("div.rule-examples", {}, ...examples.rows.map((row) => h("dl.rule-example", {},
    ...row.flatMap((cell, index) => [h("dt", {}, pick(examples.head[index])), h("dd", {}, ...inline(pick(cell), true))]))));
}

/**
 * One rule: its number, the guide (with its table) and the precise wording.
 * @param {Rule} rule
 * @returns {HTMLElement}
 */
function ruleBlock(rule) {
  const anchor = h("a.rule-id", { href: `#rules/${rule.id}` }, rule.id);
  const shown = rule.table?.layout === "examples" ? exampleList(rule.table)
    : rule.table ? table(rule.table.head, rule.table.rows) : null;
  return h("div.rule", { id: `rule-${rule.id}`, dataset: { rule: rule.id } },
    ...paragraphs(rule.guide, true, "p.rule-guide", [anchor, " "]),
    shown,
    ...(rule.guide_after ? paragraphs(rule.guide_after, true) : []),
    precise(rule.precise));
}

/**
 * One cell of the presets table.
 * @param {PresetRow} row
 * @param {string} preset
 * @returns {string}
 */
function presetCell(row, preset) {
  const value = row.values[preset];
  if (row.words) return pick(row.words[JSON.stringify(value)]);
  return pick(row.unit ?? "{n}").replace("{n}", String(value));
}

export class RulesView {
  /** @param {HTMLDialogElement} dialog */
  constructor(dialog) {
    this.dialog = dialog;
    dialog.addEventListener("close", () => {
      if (location.hash.startsWith("#rules")) history.replaceState(null, "", location.pathname + location.search);
    });
  }

  /**
   * Open the book, at a rule ("R13") or section ("tables", "presets") if one is given.
   * @param {string|null} [rule]
   */
  async open(rule = null) {
    if (!this.dialog.open) {
      this.#frame(h("p.rules-loading", {}, t("rules_loading")));
      this.dialog.showModal();
    }
    await this.render();
    const target = rule ? this.dialog.querySelector(`#rule-${rule}`) : null;
    if (target) {
      this.dialog.querySelectorAll(".rule.focus").forEach((el) => el.classList.remove("focus"));
      target.classList.add("focus");
      target.querySelector("details")?.setAttribute("open", "");
      target.scrollIntoView({ block: "start" });
    } else {
      this.dialog.querySelector(".rules-body")?.scrollTo(0, 0);
    }
  }

  /** Redraw in the current language (also after a language change). */
  async render() {
    /** @type {Book} */
    let book;
    try {
      book = await loadBook();
    } catch {
      this.#frame(h("p.rules-loading", {}, t("rules_failed")));
      return;
    }
    const guide = book.guide;
    const contents = h("nav.rules-contents", { "aria-label": t("rules_contents") },
      ...book.sections.map((section) => h("a", { href: `#rules/${section.rules[0].id}` }, pick(section.title))),
      h("a", { href: "#rules/tables" }, pick(book.tables.title)),
      h("a", { href: "#rules/presets" }, pick(book.presets.title)));
    const sections = book.sections.map((section) => h("section.rules-section", { id: `rules-${section.id}` },
      h("h3", {}, pick(section.title)),
      ...(section.intro ? [...paragraphs(section.intro.guide, true), precise(section.intro.precise)] : []),
      ...section.rules.map(ruleBlock)));
    const { rank, wealth } = book.tables;
    const tables = h("section.rules-section", { id: "rule-tables" },
      h("h3", {}, pick(book.tables.title)),
      h("h4", {}, pick(rank.title)),
      table(rank.head, rank.rows.map(([name, base, need]) => [title(String(name)), base, need])),
      h("h4", {}, pick(wealth.title)),
      table(wealth.head, wealth.rows.map(([name, from, base]) => [title(String(name)), from, base])),
      ...paragraphs(book.tables.start, false));
    const presets = book.presets;
    // One small card per rule that differs (a four-column table is wider than a phone).
    const presetRows = h("div.rule-examples.presets", {}, ...presets.rows.map((row) => h("div.rule-example", {},
      h("p.preset-rule", {}, ...inline(`${row.rule} ${pick(row.label)}`, false)),
      ...presets.columns.flatMap((column) => [h("dt", {}, pick(column.name)), h("dd", {}, presetCell(row, column.preset))]))));
    const presetSection = h("section.rules-section", { id: "rule-presets" },
      h("h3", {}, pick(presets.title)), presetRows, ...paragraphs(presets.after, false));
    this.#frame(...paragraphs(guide.intro, true), precise(guide.precise_intro), contents,
      ...sections, tables, presetSection);
  }

  /**
   * The dialog's head and a body of ``children``.
   * @param {...HTMLElement} children
   */
  #frame(...children) {
    this.dialog.replaceChildren(
      h("header.rules-head", {},
        h("h2", {}, t("rules_title")),
        h("button", { onclick: () => this.dialog.close(), dataset: { action: "close-rules" } }, t("close"))),
      h("div.rules-body", {}, ...children));
  }
}
