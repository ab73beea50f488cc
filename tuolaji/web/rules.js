// The 規則 page: the rule book (rulebook.js) in the reader's language, one anchor per rule (#rule-R13).
// Opened by the top bar's 規則 link and by every rule link of a refusal (href "#rules/R13").

import { cardText } from "./words.js";
import { h } from "./dom.js";
import { addStrings, pick, t, title } from "./i18n.js";
import { NOTATION, PREFACE, PRESETS, RANK_TABLE, SECTIONS, TABLES, WEALTH_TABLE } from "./rulebook.js";

addStrings({
  rules: ["规则", "規則", "Rules"],
  rules_title: ["规则书", "規則書", "Rule book"],
  rules_contents: ["目录", "目錄", "Contents"],
});

const CARD = /^(?:10|[2-9TJQKA])[SHCD]$|^[BS]J$/;

/**
 * Inline markup of the book: **bold**, `code`; a code span made only of card tokens shows as cards.
 * @param {string} text
 * @returns {(Node|string)[]}
 */
function inline(text) {
  /** @type {(Node|string)[]} */
  const out = [];
  for (const part of text.split(/(\*\*[^*]+\*\*|`[^`]+`)/)) {
    if (!part) continue;
    if (part.startsWith("**")) {
      out.push(h("strong", {}, ...inline(part.slice(2, -2))));
    } else if (part.startsWith("`")) {
      const body = part.slice(1, -1);
      const tokens = body.split(/\s+/);
      out.push(tokens.every((token) => CARD.test(token))
        ? h("span.cards", {}, tokens.map(cardText).join(" "))
        : h("code", {}, body));
    } else {
      out.push(part);
    }
  }
  return out;
}

/**
 * @param {(string|[string, string, string])[]} head
 * @param {(string|number|[string, string, string])[][]} rows
 * @returns {HTMLElement}
 */
function table(head, rows) {
  return h("div.rules-table-wrap", {}, h("table.rules-table", {},
    h("thead", {}, h("tr", {}, ...head.map((cell) => h("th", {}, ...inline(pick(cell)))))),
    h("tbody", {}, ...rows.map((row) => h("tr", {}, ...row.map((cell) => h("td", {},
      ...inline(typeof cell === "number" ? String(cell) : pick(cell)))))))));
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
  open(rule = null) {
    this.render();
    if (!this.dialog.open) this.dialog.showModal();
    const target = rule ? this.dialog.querySelector(`#rule-${rule}`) : null;
    if (target) {
      target.classList.add("focus");
      target.scrollIntoView({ block: "start" });
    } else {
      this.dialog.querySelector(".rules-body")?.scrollTo(0, 0);
    }
  }

  /** Redraw in the current language (also after a language change). */
  render() {
    const contents = h("nav.rules-contents", { "aria-label": t("rules_contents") },
      ...SECTIONS.map((section) => h("a", { href: `#rules/${section.rules[0].id}` }, pick(section.title))),
      h("a", { href: "#rules/tables" }, pick(TABLES.title)),
      h("a", { href: "#rules/presets" }, pick(PRESETS.title)));
    const sections = SECTIONS.map((section) => h("section.rules-section", { id: `rules-${section.id}` },
      h("h3", {}, pick(section.title)),
      section.intro ? h("p", {}, ...inline(pick(section.intro))) : null,
      ...section.rules.map((rule) => h("div.rule", { id: `rule-${rule.id}`, dataset: { rule: rule.id } },
        h("p", {}, h("a.rule-id", { href: `#rules/${rule.id}` }, rule.id), " ", ...inline(pick(rule.text))),
        rule.table ? table(rule.table.head, rule.table.rows) : null))));
    const tables = h("section.rules-section", { id: "rule-tables" },
      h("h3", {}, pick(TABLES.title)),
      h("h4", {}, pick(TABLES.rank.title)),
      table(TABLES.rank.head, RANK_TABLE.map(([name, base, need]) => [title(String(name)), base, need])),
      h("h4", {}, pick(TABLES.wealth.title)),
      table(TABLES.wealth.head, WEALTH_TABLE.map(([name, from, base]) => [title(String(name)), from, base])),
      h("p", {}, pick(TABLES.start)));
    const presets = h("section.rules-section", { id: "rule-presets" },
      h("h3", {}, pick(PRESETS.title)),
      table(PRESETS.head, PRESETS.rows),
      h("p", {}, pick(PRESETS.after)));
    this.dialog.replaceChildren(
      h("header.rules-head", {},
        h("h2", {}, t("rules_title")),
        h("button", { onclick: () => this.dialog.close(), dataset: { action: "close-rules" } }, t("close"))),
      h("div.rules-body", {},
        h("p", {}, ...inline(pick(PREFACE))),
        h("p.notation", {}, ...inline(pick(NOTATION))),
        contents, ...sections, tables, presets));
  }
}
