"""Trump context: levels and suits (R5, R7), suit-classes (R8), power order (R9), display order."""

from __future__ import annotations

import pickle

import pytest

from tuolaji.cards import parse_card
from tuolaji.rules import TRUMP_CLASS, Trump, format_cards, parse_cards


def test_r9_power_order_level_ten_trump_hearts() -> None:
    trump = Trump("T", "H")
    order = [
        ["BJ"],
        ["SJ"],
        ["TH"],
        ["TS", "TC", "TD"],
        ["2H"],
        ["2S", "2C", "2D"],
        *[[f"{rank}H"] for rank in "AKQJ98765 43".replace(" ", "")],
    ]
    powers = [{trump.power(parse_card(token)) for token in tier} for tier in order]
    assert all(len(tier) == 1 for tier in powers), "equal cards in one tier must tie (R9)"
    flat = [tier.pop() for tier in powers]
    assert flat == sorted(flat, reverse=True)
    assert len(set(flat)) == len(flat)


def test_r9_off_suit_order_skips_level_and_two() -> None:
    trump = Trump("T", "H")
    spades = parse_cards("AS KS QS JS 9S 8S 7S 6S 5S 4S 3S")
    powers = [trump.power(card) for card in spades]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(powers)
    assert all(trump.suit_class(card) == 0 for card in spades)
    # Every trump is above every off-suit card.
    assert trump.power(parse_card("3H")) > trump.power(parse_card("AS"))


def test_r8_suit_classes() -> None:
    trump = Trump("T", "H")
    for token in ("BJ", "SJ", "TS", "TC", "TD", "TH", "2S", "2C", "2D", "2H", "AH", "3H"):
        assert trump.is_trump(parse_card(token)), token
        assert trump.suit_class(parse_card(token)) == TRUMP_CLASS
    for token, suit_class in (("AS", 0), ("3S", 0), ("KC", 2), ("9D", 3), ("JD", 3)):
        assert not trump.is_trump(parse_card(token))
        assert trump.suit_class(parse_card(token)) == suit_class


@pytest.mark.parametrize(
    ("level", "suit"),
    [("T", "H"), ("10", "h"), ("t", 1), (8, "H"), (8, 1), (" 10 ", " H ")],
)
def test_level_and_suit_spellings(level: str | int, suit: str | int) -> None:
    trump = Trump(level, suit)
    assert (trump.level, trump.suit) == (8, 1)
    assert trump is Trump("T", "H")
    assert trump == Trump(8, 1)
    assert hash(trump) == hash(Trump("10", "H"))
    assert repr(trump) == "Trump('T', 'H')"


def test_int_level_is_a_rank_index() -> None:
    assert Trump(10, "S").level == 10  # Q, not ten
    assert repr(Trump(12, 3)) == "Trump('A', 'D')"
    assert Trump("3", "S") != Trump("4", "S")
    assert Trump("3", "S") != "3S"


@pytest.mark.parametrize(
    ("level", "words"),
    [
        ("2", "2 is never a level (R5)"),
        (0, "R5"),
        (13, "level 13"),
        ("B", "'B'"),
        ("", "level ''"),
        (True, "True"),
    ],
)
def test_bad_levels(level: str | int, words: str) -> None:
    with pytest.raises(ValueError, match="level") as info:
        Trump(level, "S")
    assert words in str(info.value)


@pytest.mark.parametrize("suit", ["X", "", 4, -1, "SH", False])
def test_bad_suits(suit: str | int) -> None:
    with pytest.raises(ValueError, match="suit"):
        Trump("3", suit)


def test_pickle_keeps_identity() -> None:
    trump = Trump("K", "C")
    assert pickle.loads(pickle.dumps(trump)) is trump


def test_sort_key_display_order() -> None:
    trump = Trump("T", "H")
    hand = parse_cards("3D AS 2S TC BJ 5H TH 2H KC SJ TS 9S AD")
    shown = format_cards(sorted(hand, key=trump.sort_key))
    assert shown == "BJ SJ TH TS TC 2H 2S 5H AS 9S KC AD 3D"


def test_level_ace_has_no_off_suit_ace() -> None:
    trump = Trump("A", "S")
    assert trump.is_trump(parse_card("AD"))
    assert trump.power(parse_card("AS")) > trump.power(parse_card("AD")) > trump.power(parse_card("2S"))
    assert trump.power(parse_card("KS")) > trump.power(parse_card("QS"))
