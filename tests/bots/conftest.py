"""Helpers for the bot tests: drive whole hands through ``Bot.choose`` only."""

from __future__ import annotations

from collections.abc import Sequence

from tuolaji.bots import Bot
from tuolaji.game import (
    Bid,
    CloseBidding,
    DealCards,
    Phase,
    Play,
    Round,
    RoundSetup,
)
from tuolaji.game.driver import play_to_end
from tuolaji.game.options import TableOptions

DEAL_STEP = 8


def bid_with(round_: Round, bots: Sequence[Bot]) -> bool:
    """Deal in steps, letting every bot bid through ``choose``; close bidding. False on a redeal."""
    while round_.phase is Phase.DEALING:
        round_.apply(DealCards(DEAL_STEP))
        poll(round_, bots)
    for _ in range(20):
        if not poll(round_, bots):
            break
    round_.apply(CloseBidding())
    return round_.phase is Phase.PLAYING


def poll(round_: Round, bots: Sequence[Bot]) -> bool:
    placed = False
    for seat, bot in enumerate(bots):
        action = bot.choose(round_.view(seat))
        if action is not None:
            assert isinstance(action, Bid), f"{bot.name} returned {action!r} while bidding"
            round_.apply(action)
            placed = True
    return placed


def play_with(round_: Round, bots: Sequence[Bot]) -> None:
    """Play to the end; every seat not to move must return None."""

    def move(seat: int) -> Play:
        other = (seat + 1) % 4
        assert bots[other].choose(round_.view(other)) is None
        action = bots[seat].choose(round_.view(seat))
        assert isinstance(action, Play) and action.seat == seat
        return action

    play_to_end(round_, move)


def setup(seed: int, preset: str, dealer: int | None = 0, level: int = 1) -> RoundSetup:
    """A round in ``reject`` mode, so an illegal follow or an invalid lead raises (R13, R22–R25)."""
    options = TableOptions(preset=preset, illegal_follow="reject", deal_interval_ms=0)
    return RoundSetup(seed=seed, options=options, dealer=dealer, level=level)


def play_hand(bots: Sequence[Bot], seed: int, preset: str, dealer: int | None = 0, level: int = 1) -> Round | None:
    """A whole hand between ``bots`` (None if nobody bid)."""
    round_ = Round(setup(seed, preset, dealer, level))
    if not bid_with(round_, bots):
        return None
    play_with(round_, bots)
    return round_
