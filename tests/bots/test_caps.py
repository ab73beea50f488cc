"""What the other seats' follows reveal (R23, R24): voids and caps hold for the real hands at every
move of whole hands, and the sampled deals of the search keep to them."""

from __future__ import annotations

import random

import pytest

from tests.bots.conftest import bid_with, setup
from tuolaji.bots import make_bot
from tuolaji.bots.knowledge.cardinfo import CardTable
from tuolaji.bots.knowledge.sampling import sample_hands
from tuolaji.bots.knowledge.shapes import counts_of
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.knowledge.tracking import Knowledge
from tuolaji.game import Play, Round
from tuolaji.game.driver import play_to_end


def breaks(table: CardTable, know: Knowledge, seat: int, hand: list[int]) -> list[str]:
    """How ``hand`` (seat ``seat``'s counts) contradicts what the others know of it."""
    found = [
        f"holds class {cls} shown void" for cls in know.voids[seat] if any(hand[k] for k in table.class_kinds[cls])
    ]
    for cls, cap in know.caps[seat].items():
        found += [f"{hand[k]} of kind {k}, cap {cap}" for k in table.class_kinds[cls] if hand[k] > cap]
    return found


@pytest.mark.parametrize("preset", ["nanning", "guigang", "fourdeck"])
def test_voids_and_caps_hold_for_real_and_sampled_hands(preset: str) -> None:
    bots = [make_bot("heuristic", seat) for seat in range(4)]
    capped = 0
    for seed in range(2):
        round_ = Round(setup(seed, preset, dealer=seed % 4, level=2 + seed))
        assert bid_with(round_, bots)

        def move(seat: int, round_: Round = round_) -> Play:
            nonlocal capped
            view = round_.view(seat)
            sit = Situation.from_view(view)
            rng = random.Random(len(view.tricks))
            guess = sample_hands(sit.table, sit.know, seat, sit.counts, view.hand_sizes, rng)
            for other in range(4):
                if other == seat:
                    continue
                capped += bool(sit.know.caps[other])
                assert breaks(sit.table, sit.know, other, counts_of(round_.view(other).hand)) == []
                assert breaks(sit.table, sit.know, other, guess[other]) == []
            action = bots[seat].choose(view)
            assert isinstance(action, Play)
            return action

        play_to_end(round_, move)
    assert capped > 10
