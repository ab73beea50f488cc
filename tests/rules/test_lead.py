"""Patterns (R10–R14) and valid leads (R13)."""

from __future__ import annotations

import pytest

from tuolaji.rules import (
    TRUMP_CLASS,
    Pattern,
    Trump,
    classify,
    explain_lead,
    is_valid_lead,
    lead_refusal,
    parse_cards,
)

T10H = Trump("T", "H")
T10S = Trump("T", "S")


def shape(text: str, trump: Trump = T10H, preset: str = "nanning") -> Pattern | None:
    return classify(parse_cards(text), trump, preset)


@pytest.mark.parametrize(
    ("text", "arity", "suit_class"),
    [("AS", 1, 0), ("9D 9D", 2, 3), ("3H 3H 3H", 3, TRUMP_CLASS), ("BJ BJ BJ BJ", 4, TRUMP_CLASS)],
)
def test_r10_units(text: str, arity: int, suit_class: int) -> None:
    pattern = shape(text)
    assert pattern is not None
    assert (pattern.arity, pattern.length, pattern.suit_class, pattern.size) == (arity, 1, suit_class, arity)
    assert not pattern.is_tractor


def test_r10_pair_needs_same_suit_and_rank() -> None:
    assert shape("TS TC") is None  # equal power, different cards (R10)
    assert shape("AS AH") is None


@pytest.mark.parametrize(
    ("text", "arity", "length"),
    [
        ("4S 4S 5S 5S", 2, 2),
        ("4S 4S 4S 5S 5S 5S", 3, 2),
        ("AS AS AS AS KS KS KS KS QS QS QS QS", 4, 3),
        # R12 trump suit ♥ with level 10: level card and 2 in natural places, A low or high.
        ("TH TH JH JH", 2, 2),
        ("9H 9H TH TH", 2, 2),
        ("2H 2H 3H 3H", 2, 2),
        ("AH AH 2H 2H", 2, 2),
        ("AH AH 2H 2H 3H 3H", 2, 3),
        ("KH KH AH AH", 2, 2),
        ("SJ SJ BJ BJ", 2, 2),
        ("SJ SJ SJ BJ BJ BJ", 3, 2),
        ("8S 8S 9S 9S", 2, 2),
        ("JS JS QS QS", 2, 2),
    ],
)
def test_r11_r12_tractors(text: str, arity: int, length: int) -> None:
    pattern = shape(text)
    assert pattern is not None and pattern.is_tractor
    assert (pattern.arity, pattern.length, pattern.size) == (arity, length, arity * length)


@pytest.mark.parametrize(
    "text",
    [
        "AS AS AS KS KS",  # mixed arities (R11)
        "9S 9S JS JS",  # the level rank is absent off-suit (R12)
        "KH KH AH AH 2H 2H 3H 3H",  # A never both high and low
        "SJ SJ TH TH",  # 小王 + 正10
        "TH TH TS TS",  # 正10 + 副10
        "TS TS 2S 2S",  # 10 + 2
        "JS JS 9S 9S",  # J + 9
        "2S 2S 3S 3S",  # off-suit 2s never join (trump ♥)
        "BJ BJ 2H 2H",
        "4S 4S 6S 6S",  # no gapped tractors
        "4S 5S",  # two singles are a throw
        "4S 4S 4D 4D",
        "AS AS AH AH",
        "",
    ],
)
def test_non_tractors(text: str) -> None:
    assert shape(text) is None
    assert not is_valid_lead(parse_cards(text), T10H)


def test_r12_off_suit_around_other_levels() -> None:
    level_three = Trump("3", "H")
    assert shape("4S 4S 5S 5S", level_three) is not None
    assert shape("2S 2S 4S 4S", level_three) is None
    ace = Trump("A", "H")
    assert shape("QS QS KS KS", ace) is not None
    assert shape("KS KS AS AS", ace) is None
    assert shape("KH KH AH AH", ace) is not None  # the trump-suit level card in its natural place


def tops(texts: list[str], trump: Trump, preset: str = "nanning") -> list[int]:
    found = [shape(text, trump, preset) for text in texts]
    assert all(pattern is not None for pattern in found)
    return [pattern.top for pattern in found if pattern is not None]


def test_r14_seed_order_level_ten_trump_spades() -> None:
    order = tops(["AS AS KS KS", "TS TS JS JS", "2S 2S 3S 3S", "AS AS 2S 2S"], T10S)
    assert order == sorted(order, reverse=True) and len(set(order)) == 4
    assert order == [14, 11, 3, 2]


def test_r14_joker_tractor_above_all() -> None:
    joker, high = tops(["SJ SJ BJ BJ", "KS KS AS AS"], T10S)
    assert joker > high


def test_r14_both_readings_of_ace_take_the_higher_top() -> None:
    every = " ".join(f"{rank}H {rank}H" for rank in "A23456789TJQK")
    pattern = shape(every)
    assert pattern is not None and pattern.length == 13 and pattern.top == 14


def test_r14_guigang_2233_at_level_three() -> None:
    level_three = Trump("3", "D")
    texts = ["SJ SJ BJ BJ", "2D 2D 3D 3D", "KD KD AD AD"]
    guigang = tops(texts, level_three, "guigang")
    assert guigang[0] > guigang[1] > guigang[2]
    nanning = tops(texts, level_three, "nanning")
    assert nanning[0] > nanning[2] > nanning[1]
    # Only the exact kinds 2 and 3, any arity, and only at level 3.
    assert tops(["2D 2D 2D 3D 3D 3D"], level_three, "guigang")[0] == guigang[1]
    assert tops(["AD AD 2D 2D 3D 3D"], level_three, "guigang")[0] == 3
    assert tops(["2D 2D 3D 3D"], Trump("4", "D"), "guigang")[0] == 3


def test_unit_top_is_power() -> None:
    pattern = shape("BJ")
    assert pattern is not None and pattern.top == T10H.power(parse_cards("BJ")[0])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "at least one card"),
        ("AS AS AS KS KS", "R11"),
        ("AS KS", "throws"),
        ("AS AS QS QS", "R12"),
        ("AS AS AH AH", "one suit-class"),
        ("3S 3S 3S 3S 3S", "R10"),
    ],
)
def test_explain_lead(text: str, words: str) -> None:
    message = explain_lead(parse_cards(text), T10H)
    assert message is not None and message.startswith("R1") and words in message


@pytest.mark.parametrize(
    ("text", "reason", "rule", "extra"),
    [
        ("", "empty", "R13", {}),
        ("AS AS AS KS KS", "mixed_arities", "R13", {"arities": [3, 2]}),
        ("KS AS", "singles", "R13", {"cards": ["AS", "KS"]}),
        ("AS AS QS QS", "not_consecutive", "R13", {"arity": 2}),
        ("AS 4D AH", "mixed_classes", "R13", {"classes": ["trump", "S", "D"]}),
        ("3S 3S 3S 3S 3S", "too_many", "R10", {}),
    ],
)
def test_lead_refusal_codes(text: str, reason: str, rule: str, extra: dict[str, object]) -> None:
    refusal = lead_refusal(parse_cards(text), T10H)
    assert refusal is not None and (refusal.reason, refusal.rule) == (reason, rule)
    assert refusal.message == explain_lead(parse_cards(text), T10H)
    for key, value in extra.items():
        assert refusal.params[key] == value
    assert lead_refusal(parse_cards("4S 4S 5S 5S"), T10H) is None


def test_explain_valid_lead_is_none() -> None:
    assert explain_lead(parse_cards("4S 4S 5S 5S"), T10H) is None


def test_bad_kinds_raise() -> None:
    with pytest.raises(ValueError, match=r"0\.\.53"):
        classify([54], T10H)
    with pytest.raises(ValueError, match=r"0\.\.53"):
        classify([-1, -1], T10H)
