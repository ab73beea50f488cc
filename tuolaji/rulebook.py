"""The rule book's one source, ``tuolaji/web/rulebook/book.json``, and docs/RULES.md written from it.

The browser client reads the same file for its 規則 page (``tuolaji/web/rules.js``): every rule
(R1–R47) has a player's guide and its precise wording in 简体, 繁體 and English, and may have a
table. docs/RULES.md is the precise English wording with, for implementers, each rule's ``dev``
note (identifiers, formulas, where the code is), which the client never shows.

Text markup, the same for both readers: ``**bold**``; a code span of card tokens in RULES.md
notation (``AS AS KS KS``) is cards (pictures in the client's guide); ``R13`` names a rule; a blank
line separates paragraphs. Write docs/RULES.md with ``python -m tuolaji.rulebook > docs/RULES.md``;
``tests/test_rulebook.py`` checks that it is up to date and that the book agrees with the code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

BOOK_PATH = Path(__file__).resolve().parent / "web" / "rulebook" / "book.json"
"""The rule book's source."""
LANGUAGES = ("zh-Hans", "zh-Hant", "en")
"""The languages of every player-visible text, in the client's order."""

Book = dict[str, Any]


def load_book(path: Path = BOOK_PATH) -> Book:
    """The rule book as its JSON holds it."""
    book: Book = json.loads(path.read_text(encoding="utf-8"))
    return book


def _en(text: str | dict[str, str] | int | bool) -> str:
    """A cell or text in English (a translated text, or a plain string or number)."""
    if isinstance(text, dict):
        return text["en"]
    return str(text)


def _item(head: str, text: str) -> list[str]:
    """A markdown list item whose first paragraph starts with ``head``; later paragraphs indented."""
    paragraphs = text.split("\n\n")
    lines = [f"- {head} {paragraphs[0]}"]
    for paragraph in paragraphs[1:]:
        lines += ["", f"  {paragraph}"]
    return lines


def _table(head: list[Any], rows: list[list[Any]], indent: str = "") -> list[str]:
    lines = [indent + "| " + " | ".join(_en(cell) for cell in head) + " |"]
    lines.append(indent + "|" + "---|" * len(head))
    lines += [indent + "| " + " | ".join(_en(cell) for cell in row) + " |" for row in rows]
    return lines


def _rule_lines(rule: dict[str, Any]) -> list[str]:
    rule_id = rule["id"]
    lines = _item(f'<a id="{rule_id}"></a>**{rule_id}**', rule["precise"]["en"])
    if "table" in rule:
        lines += ["", *_table(rule["table"]["head"], rule["table"]["rows"], "  ")]
    if "dev" in rule:
        lines += ["", f"  *In the code:* {rule['dev']}"]
    return lines


def _section_lines(section: dict[str, Any]) -> list[str]:
    ids = [rule["id"] for rule in section["rules"]]
    span = ids[0] if len(ids) == 1 else f"{ids[0]}–{ids[-1]}"
    lines = ["", f"## {section['title']['en']} ({span})", ""]
    if "intro" in section:
        lines += [section["intro"]["precise"]["en"], ""]
    if "dev" in section:
        lines += [f"*In the code:* {section['dev']}", ""]
    for rule in section["rules"]:
        lines += _rule_lines(rule)
    return lines


def _titles_lines(tables: dict[str, Any]) -> list[str]:
    lines = ["", f"## {tables['title']['en']}", ""]
    for key, columns in (("rank", (0, 1, 2)), ("wealth", (0, 1, 2))):
        part = tables[key]
        rows = " · ".join(" ".join(str(row[index]) for index in columns) for row in part["rows"])
        head = ", ".join(_en(cell) for cell in part["head"])
        lines += [f"{part['title']['en']}: {head} —", f"{rows}.", ""]
    lines.append(tables["start"]["en"])
    return lines


def _preset_cell(row: dict[str, Any], value: Any) -> str:
    words = row.get("words")
    if words is not None:
        return _en(words[json.dumps(value)])
    return _en(row["unit"]).replace("{n}", str(value))


def _presets_lines(presets: dict[str, Any]) -> list[str]:
    names = [column["preset"] for column in presets["columns"]]
    head = [presets["rule_head"], *(f"{_en(column['name'])} (`{column['preset']}`)" for column in presets["columns"])]
    rows = [
        [f"{row['rule']} {_en(row['label'])} (`{row['field']}`)", *(_preset_cell(row, row["values"][n]) for n in names)]
        for row in presets["rows"]
    ]
    return ["", f"## {presets['title']['en']}", "", *_table(head, rows), "", presets["after"]["en"]]


def render_markdown(book: Book) -> str:
    """docs/RULES.md: the precise English rule book with the implementers' notes."""
    lines = [f"# {book['doc']['title']}", "", book["doc"]["generated"], "", book["doc"]["intro"]]
    for section in book["sections"]:
        lines += _section_lines(section)
    lines += _titles_lines(book["tables"])
    lines += _presets_lines(book["presets"])
    lines += ["", book["doc"]["outro"]]
    return "\n".join(lines) + "\n"


def main() -> int:
    """Print docs/RULES.md."""
    sys.stdout.write(render_markdown(load_book()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
