"""Who wins a trick (R27–R28)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tuolaji.cards import Card
from tuolaji.rules import Trump, classify, parse_cards, trick_winner

T10H = Trump("T", "H")
T10S = Trump("T", "S")


def winner(*plays: str, trump: Trump = T10H, preset: str = "nanning") -> int:
    return trick_winner([parse_cards(play) for play in plays], trump, preset)


def test_r28_higher_arity_wins() -> None:
    assert winner("AS AS KS KS QS QS", "5S 5S 5S 6S 6S 6S") == 1
    assert winner("AS AS KS KS", "6S 6S 6S 6S") == 1


def test_r27_lower_arity_does_not_compete() -> None:
    assert winner("5S 5S 5S 6S 6S 6S", "AS AS KS KS QS QS") == 0
    assert winner("6S 6S 6S 6S", "AS AS KS KS") == 0
    assert winner("6S 6S 6S", "AS AS AS") == 1


def test_r28_higher_rank_and_ties() -> None:
    assert winner("9S", "AS", "KS") == 1
    assert winner("AS", "AS", "AS", "AS") == 0
    assert winner("TS", "TC", "TD", "TS") == 0  # off-suit level cards tie (R9)
    assert winner("TS", "TH") == 1
    assert winner("3S 3S 4S 4S", "KS KS AS AS", "QS QS KS KS") == 1


def test_r27_ruff_and_discards() -> None:
    assert winner("AS", "3H") == 1
    assert winner("AS", "3H", "2C") == 2
    assert winner("AS", "3H", "2C", "BJ") == 3
    assert winner("3S", "AD") == 0  # another off-suit never competes
    assert winner("AS AS", "3H 4H") == 0  # not one pattern
    assert winner("AS AS", "3H 3H") == 1
    assert winner("AS AS KS KS", "3H 3H 5H 5H") == 0  # trumps, but not a tractor
    assert winner("AS AS KS KS", "3H 3H 4H 4H", "SJ SJ BJ BJ") == 2
    assert winner("AS AS KS KS", "3S 3S 4S 4H") == 0
    assert winner("AS", "AS KS") == 0  # wrong count


def test_r14_tractor_tops_in_tricks() -> None:
    plays = ["AS AS 2S 2S", "2S 2S 3S 3S", "TS TS JS JS", "AS AS KS KS", "SJ SJ BJ BJ"]
    for index in range(1, len(plays)):
        assert winner(*plays[: index + 1], trump=T10S) == index


def test_r14_guigang_2233_in_tricks() -> None:
    trump = Trump("3", "D")
    assert winner("KD KD AD AD", "2D 2D 3D 3D", trump=trump, preset="guigang") == 1
    assert winner("KD KD AD AD", "2D 2D 3D 3D", trump=trump, preset="nanning") == 0
    assert winner("2D 2D 3D 3D", "SJ SJ BJ BJ", trump=trump, preset="guigang") == 1


def test_invalid_lead_raises() -> None:
    with pytest.raises(ValueError, match="R13"):
        winner("AS KS", "3S 4S")
    with pytest.raises(ValueError, match="lead"):
        trick_winner([], T10H)


SHAPES = [(1, 1), (2, 1), (3, 1), (4, 1), (2, 2), (2, 3), (3, 2)]


@st.composite
def tricks(draw: st.DrawFn) -> tuple[Trump, list[list[Card]]]:
    trump = Trump(draw(st.integers(1, 12)), draw(st.integers(0, 3)))
    arity, length = draw(st.sampled_from(SHAPES))
    shapes: list[list[Card]] = []
    for suit_class in range(5):
        for chain, cap in trump.chains[suit_class]:
            if length == 1:
                shapes += [[kind] * arity for kind in chain]
            elif length <= cap:
                shapes += [
                    [kind for kind in chain[start : start + length] for _ in range(arity)]
                    for start in range(len(chain) - length + 1)
                ]
        if length == 1:
            shapes += [[kind] * arity for kind in trump.class_kinds[suit_class]]
    n = arity * length
    lead = draw(st.sampled_from(shapes))
    junk = st.lists(st.integers(0, 53), min_size=n, max_size=n)
    follows = draw(st.lists(st.one_of(st.sampled_from(shapes), junk), min_size=1, max_size=3))
    return trump, [lead, *follows]


@settings(deadline=None, max_examples=300)
@given(tricks())
def test_winner_properties(trick: tuple[Trump, list[list[Card]]]) -> None:
    trump, plays = trick
    win = trick_winner(plays, trump)
    assert 0 <= win < len(plays)
    assert classify(plays[win], trump) is not None
    # Ties go to the earlier play: repeating the winning play anywhere later changes nothing.
    assert trick_winner([*plays, plays[win]], trump) == win
    # Reordering the follows keeps an equally strong winner.
    follows = plays[1:]
    reordered = [plays[0], *reversed(follows)]
    other = trick_winner(reordered, trump)
    if win == 0:
        assert other == 0
    else:
        assert other != 0
        first, second = plays[win], reordered[other]
        assert trick_winner([plays[0], first, second], trump) == 1
        assert trick_winner([plays[0], second, first], trump) == 1
