"""Tractor runs and windows (R11–R12), shared by the follow checker, the hint and the bots."""

from __future__ import annotations

from tuolaji.cards import KINDS
from tuolaji.rules import TRUMP_CLASS, Trump, parse_cards
from tuolaji.rules.tractors import runs, windows

TRUMP = Trump("T", "H")


def counts(text: str) -> list[int]:
    found = [0] * KINDS
    for card in parse_cards(text):
        found[card] += 1
    return found


def test_runs_skip_the_level_rank_and_stop_at_a_gap() -> None:
    """R12: at level T the off-suit 9 and J do not join across the level rank; a kind held once breaks
    a pair run."""
    hand = counts("8S 8S 9S 9S JS JS QS 3S 3S 4S 4S 4S 6S 6S")
    assert runs(hand, TRUMP.chains[0], 2) == [tuple(parse_cards("3S 4S")), tuple(parse_cards("8S 9S"))]
    assert runs(hand, TRUMP.chains[0], 3) == []


def test_the_whole_trump_suit_uses_its_ace_once() -> None:
    """R12: A 2 3 … K A of the trump suit held in pairs gives the two 13-kind tractors, never the ace twice."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
    hand = counts(" ".join(f"{rank}H {rank}H" for rank in ranks))
    found = runs(hand, TRUMP.chains[TRUMP_CLASS], 2)
    assert [len(run) for run in found] == [13, 13]
    assert all(len(set(run)) == 13 for run in found)
    assert found[0][-1] == found[1][0] == parse_cards("AH")[0]
    assert windows(hand, TRUMP.chains[TRUMP_CLASS], 2, 14) == []
    assert len(windows(hand, TRUMP.chains[TRUMP_CLASS], 2, 13)) == 2
