"""The rule book's one source (tuolaji/web/rulebook/book.json, issue 44): docs/RULES.md is written from
it; every text is there in the three languages, and what a player reads has no identifiers, file names
or formulas; the book agrees with the code (presets, R36's table, the title tables, R26's examples)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tuolaji.game.settlement import RANK_TABLE, WEALTH_TABLE
from tuolaji.rulebook import LANGUAGES, load_book, render_markdown
from tuolaji.rules import PRESETS, Trump, hand_result, is_legal_follow, parse_cards

RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "RULES.md"
BOOK = load_book()

IDENTIFIERS = re.compile(
    r"\w+\([\w, ]*\)"  # calls: key(P), next(seat)
    r"|\.(?:md|py|js|json)\b"  # file names
    r"|\b[a-z]+_[a-z_]+\b"  # snake_case names: same_count, score_cap
    r"|\b(?:nanning|guigang|fourdeck|laogai|reject)\b"  # preset and option values
    r"|[=%×·]|\|[A-Z]\|"  # formulas: n = a·m, |H|, (seat + 1) % 4, bases × levels
    r"|\b[nm]\b"  # the old text's variables (n cards, length m)
)
CARD_SPAN = re.compile(r"`([^`]+)`")


def player_texts(node: Any, path: str = "") -> Iterator[tuple[str, str, str]]:
    """Every (path, language, text) a player can read: all translated texts but the ``doc`` part and
    the implementers' ``dev`` notes."""
    if isinstance(node, dict):
        if set(node) == set(LANGUAGES):
            for language in LANGUAGES:
                yield path, language, node[language]
            return
        for key, value in node.items():
            if key not in ("doc", "dev"):
                yield from player_texts(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from player_texts(value, f"{path}/{index}")


def test_docs_rules_md_is_written_from_the_book() -> None:
    """If this fails, run ``python -m tuolaji.rulebook > docs/RULES.md``."""
    assert RULES_MD.read_text(encoding="utf-8") == render_markdown(BOOK)


def test_every_rule_is_there_once_in_order_with_guide_and_precise_text() -> None:
    rules = [rule for section in BOOK["sections"] for rule in section["rules"]]
    assert [rule["id"] for rule in rules] == [f"R{number}" for number in range(1, 48)]
    for rule in rules:
        for part in ("guide", "precise"):
            assert set(rule[part]) == set(LANGUAGES), (rule["id"], part)
            assert all(len(rule[part][language]) > 4 for language in LANGUAGES), (rule["id"], part)
    anchors = re.findall(r'<a id="(R\d+)"></a>', RULES_MD.read_text(encoding="utf-8"))
    assert anchors == [rule["id"] for rule in rules]


def test_what_a_player_reads_is_plain() -> None:
    texts = list(player_texts(BOOK))
    assert len(texts) > 3 * 2 * 47
    for path, language, text in texts:
        assert text.strip(), (path, language)
        words = CARD_SPAN.sub("", text).replace("{n}", "3")  # card spans become pictures or card text; a count
        words = re.sub(r"\bR\d{1,2}\b", "", words)  # rule numbers stay as anchors
        assert not IDENTIFIERS.search(words), (path, language, text)
        for span in CARD_SPAN.findall(text):
            assert parse_cards(span), (path, span)
        if language != "en":
            assert not re.search(r"(?![AKQJ]+\b)\b[A-Za-z]{4,}", words), (path, language, text)


def test_the_presets_in_the_book_are_the_codes() -> None:
    """Section 14 shows every preset field but the name, with each preset's value from tuolaji.rules."""
    rows = BOOK["presets"]["rows"]
    columns = [column["preset"] for column in BOOK["presets"]["columns"]]
    assert columns == list(PRESETS)
    fields = {name for name in PRESETS["nanning"].__dataclass_fields__ if name != "name"}
    assert {row["field"] for row in rows} == fields
    for row in rows:
        assert row["values"] == {name: getattr(PRESETS[name], row["field"]) for name in columns}, row["field"]


def score_range(text: str) -> tuple[int, int]:
    if text.startswith("<"):
        return 0, int(text[1:]) - 1
    low, _, high = text.partition("–")
    return int(low), int(high or low)


def test_r36_in_the_book_is_hand_result() -> None:
    [r36] = [rule for section in BOOK["sections"] for rule in section["rules"] if rule["id"] == "R36"]
    for scores, result in r36["table"]["rows"]:
        levels = re.search(r"\+(\d)", result["en"])
        side = "defenders" if result["en"].startswith("defenders") else "attackers"
        expected = (side, int(levels.group(1)) if levels else 0)
        for preset in PRESETS:
            assert {hand_result(score, preset) for score in score_range(scores)} == {expected}, (scores, preset)


def test_the_title_tables_are_the_settlements() -> None:
    tables = BOOK["tables"]
    assert [tuple(row) for row in tables["rank"]["rows"]] == list(RANK_TABLE)
    assert [tuple(row) for row in tables["wealth"]["rows"]] == list(WEALTH_TABLE)


def r26_cases() -> Iterator[tuple[str, str, str, bool]]:
    """(lead, held, play, legal) for each R26 example whose cells are cards alone (a lead given with
    words is its first card span); other cells are words the engine cannot check."""
    [r26] = [rule for section in BOOK["sections"] for rule in section["rules"] if rule["id"] == "R26"]
    for lead_cell, held_cell, legal_cell, illegal_cell in r26["table"]["rows"]:
        lead = CARD_SPAN.findall(lead_cell if isinstance(lead_cell, str) else lead_cell["en"])[0]
        if not isinstance(held_cell, str):
            continue
        [held] = CARD_SPAN.findall(held_cell)
        for cell, legal in ((legal_cell, True), (illegal_cell, False)):
            text = cell if isinstance(cell, str) else cell["en"]
            spans = CARD_SPAN.findall(text)
            if spans and not CARD_SPAN.sub("", text).strip(" ,"):
                yield from ((lead, held, play, legal) for play in spans)


@pytest.mark.parametrize(("lead", "held", "play", "legal"), list(r26_cases()))
def test_the_r26_examples_hold(lead: str, held: str, play: str, legal: bool) -> None:
    hand = parse_cards(held) + parse_cards("3D 4D 6D QC")  # R26: they hold other cards too
    assert is_legal_follow(hand, parse_cards(lead), parse_cards(play), Trump("T", "H")) is legal


def test_r26_examples_are_checked() -> None:
    assert len(list(r26_cases())) >= 12
