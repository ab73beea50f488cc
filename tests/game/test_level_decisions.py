"""The decisions about levels and floors (docs/RULES-NOTES.md; issue 44): each preset's 封頂 decides
how a hand's final score counts (R35–R36, golden in every preset); a level jump goes past A without
stopping (R5, R38); no settlement takes a balance below 0 (R39)."""

from __future__ import annotations

import pytest

from tuolaji.cards import DECK_SIZE, SUITS
from tuolaji.game import (
    Bid,
    CloseBidding,
    DealCards,
    Match,
    Phase,
    Play,
    Retract,
    Round,
    RoundResult,
    RoundSetup,
    TableOptions,
    raise_level,
)
from tuolaji.game.driver import play_to_end
from tuolaji.game.settlement import Balance, apply_change, settle
from tuolaji.rules import hand_result

from .helpers import hands_with, stacked_round

RETRACTIONS = 40
"""Single-card retractions per attacker: 400 points each, the most before R32 dissolves the hand."""


def setup_of(preset: str) -> RoundSetup:
    """A deal (dealer 0, level 10) from a fixed deck."""
    options = TableOptions(preset=preset, illegal_follow="reject", start_level="T")
    return stacked_round(hands_with({0: "TH"}, seed=5), dealer=0, level="T", options=options).setup


def play_with_big_retractions(round_: Round) -> Round:
    """Play ``round_`` (not dealt yet) as a whole hand: seat 0 bids one 10 of ♥; in the first trick
    both attackers retract a one-card follow 40 times each (R31: −800 for the attackers); then every
    seat plays its hint to the end."""
    round_.apply(DealCards(DECK_SIZE))
    round_.apply(Bid(0, SUITS.index("H"), 1))
    round_.apply(CloseBidding())
    round_.apply(Play(0, tuple(round_.hint(0))))
    for seat in (1, 2, 3):
        for _ in range(RETRACTIONS if seat % 2 else 0):
            round_.apply(Play(seat, tuple(round_.hint(seat))))
            round_.apply(Retract(seat))
        round_.apply(Play(seat, tuple(round_.hint(seat))))
    play_to_end(round_, lambda seat: Play(seat, tuple(round_.hint(seat))))
    return round_


@pytest.mark.parametrize("preset", ["nanning", "guigang", "fourdeck"])
def test_a_negative_score_counts_only_without_the_cap(preset: str) -> None:
    """Golden, in every preset: the attackers' points minus 800 for retractions is far below 0.
    ``guigang`` (seed 001, 負分照計; no 封頂) keeps the negative score and gives the defenders one more
    level for every 80 below 0; ``nanning`` and ``fourdeck`` (封頂 0 … 400) count it as 0: 3 levels."""
    round_ = play_with_big_retractions(Round(setup_of(preset)))
    result = round_.result
    assert round_.phase is Phase.FINISHED and result is not None and result.kind == "played"
    raw = result.card_points + result.last_trick + result.penalty
    assert result.penalty == -800 and raw < -160
    assert result.winner == "defenders" and result.cheaters == (1, 3)  # R32: over 200 points each
    if preset == "guigang":
        assert result.score == raw and result.levels == 3 + -raw // 80 >= 5
    else:
        assert result.score == 0 and result.levels == 3
    assert (result.winner, result.levels) == hand_result(result.score, preset)


@pytest.mark.parametrize(("level", "gain", "after"), [(10, 1, 11), (11, 1, 12), (11, 2, 1), (10, 3, 1), (12, 5, 5)])
def test_a_level_jump_goes_past_a_without_stopping(level: int, gain: int, after: int) -> None:
    """R5/R38 decision: levels are rank indices 1 (3) … 12 (A); a jump over A goes on from 3 (Q +3 is
    3, K +2 is 3): A is not a level a team must stop at and play (the seeds only say 過A後再從3打)."""
    assert raise_level(level, gain) == after


def test_a_match_carries_a_guigang_jump_of_more_than_three_levels() -> None:
    """The defenders' win of 5 or more levels in the hand above takes the dealer's team from 10 past A
    and on from 3 (R36 without 封頂, R38); the deal passes to the dealer's partner (R37)."""
    setup = setup_of("guigang")
    match = Match(setup.options, seed=1)
    round_ = play_with_big_retractions(match.start_round(setup))
    assert round_.result is not None and round_.result.levels >= 5
    outcome = match.finish_round()
    ten = setup.level
    assert outcome.levels_after == (raise_level(ten, round_.result.levels), ten) and outcome.next_dealer == 2
    assert outcome.levels_after[0] < ten  # wrapped past A


def test_no_settlement_takes_a_balance_below_zero() -> None:
    """R39 decision (the seeds do not say): a loser pays at most what it holds, so balances stop at 0."""
    broke, rich = Balance(points=3, silver=2), Balance(points=5000, silver=30000)
    result = RoundResult(kind="played", dealer=0, winner="attackers", winning_team=1, levels=8, score=1000)
    changes = settle(result, [broke, rich, broke, rich])
    assert [change.points for change in changes[0::2]] == [-3, -3] and [change.silver for change in changes[0::2]] == [
        -2,
        -2,
    ]
    assert all(
        apply_change(balance, change) == Balance(0, 0)
        for balance, change in zip([broke, broke], changes[0::2], strict=True)
    )
