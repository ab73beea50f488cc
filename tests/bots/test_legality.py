"""Every bot plays whole hands legally in every preset (R13 leads, R22–R25 follows, R16–R18 bids).

Rounds run in ``reject`` mode, so a wrong follow, an invalid lead or a bad bid raises.
"""

from __future__ import annotations

import pytest

from tests.bots.conftest import play_hand
from tuolaji.bots import make_bot
from tuolaji.cards import DECK_SIZE, POINTS
from tuolaji.game import Round
from tuolaji.game.options import PRESET_NAMES

HANDS = 80


def check_complete(round_: Round) -> None:
    assert round_.result is not None and round_.result.kind == "played"
    cards = [card for trick in round_.tricks for play in trick.plays for card in play.cards]
    assert len(cards) == DECK_SIZE
    assert sum(POINTS[card] for card in cards) == 400


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_whole_hands_are_legal(name: str, preset: str) -> None:
    played = 0
    for seed in range(HANDS):
        bots = [make_bot(name, seed * 4 + seat) for seat in range(4)]
        round_ = play_hand(bots, seed, preset, dealer=None if seed % 5 == 0 else seed % 4, level=1 + seed % 12)
        if round_ is not None:
            check_complete(round_)
            played += 1
    assert played >= HANDS - 2


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_mixed_tables_are_legal(preset: str) -> None:
    """Heuristic seats facing random ones meet odd leads (random tractors, bombs, ruffs)."""
    for seed in range(HANDS):
        names = ["heuristic", "random"] if seed % 2 else ["random", "heuristic"]
        bots = [make_bot(names[seat % 2], seed * 4 + seat) for seat in range(4)]
        round_ = play_hand(bots, 1000 + seed, preset, dealer=seed % 4, level=1 + (seed * 7) % 12)
        if round_ is not None:
            check_complete(round_)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_search_plays_a_legal_hand(preset: str) -> None:
    bots = [
        make_bot("search", seat, budget_ms=5, horizon_tricks=2) if seat % 2 == 0 else make_bot("heuristic", seat)
        for seat in range(4)
    ]
    round_ = play_hand(bots, 77, preset, dealer=1, level=5)
    assert round_ is not None
    check_complete(round_)
