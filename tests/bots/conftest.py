"""Helpers for the bot tests: drive whole hands through ``Bot.choose`` only, with the game's driver.

The benchmarks' folder is on the import path, so the benchmarks' own helpers (``selfplay``) are
tested as the benchmarks import them."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from tuolaji.bots import Bot
from tuolaji.game import Action, Bid, Play, Round, RoundSetup, SeatView
from tuolaji.game.driver import deal_and_bid, play_to_end
from tuolaji.game.options import TableOptions

BENCHMARKS = str(Path(__file__).resolve().parents[2] / "benchmarks")
if BENCHMARKS not in sys.path:
    sys.path.append(BENCHMARKS)


class StrictBidder:
    """A bot as a bidder that may only propose bids the round would accept (R16–R18): the driver
    ignores a refused proposal, so the test fails on one instead."""

    def __init__(self, round_: Round, bot: Bot) -> None:
        self.round = round_
        self.bot = bot

    def choose(self, view: SeatView) -> Action | None:
        action = self.bot.choose(view)
        if action is not None:
            assert isinstance(action, Bid), f"{self.bot.name} returned {action!r} while bidding"
            assert view.seat is not None and action.seat == view.seat
            assert (action.suit, action.count) in self.round.bid_options(view.seat), f"{action!r} refused"
        return action


def bid_with(round_: Round, bots: Sequence[Bot]) -> bool:
    """Deal and bid with every bot bidding through ``choose`` (each proposal checked); False on a redeal."""
    return deal_and_bid(round_, [StrictBidder(round_, bot) for bot in bots])


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
