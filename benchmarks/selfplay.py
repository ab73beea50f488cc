"""Hands the heuristic plays against itself, move by move: the positions the benchmarks study.

Deals are the arena's (:func:`tuolaji.bots.arena.deal_setup`), bid by the heuristic's policy for all
four seats and played by the heuristic (:func:`tuolaji.bots.policy.card_play.choose_play`), or at
some seats by other bots, through the game's driver. Before each move, a visitor sees the round and
the view of the seat to move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from tuolaji.bots.arena import deal_setup
from tuolaji.bots.base import Bot
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.policy.bidding import HEURISTIC_BIDDERS
from tuolaji.bots.policy.card_play import choose_play
from tuolaji.game.actions import Play
from tuolaji.game.driver import deal_and_bid, play_to_end
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView

Visitor = Callable[[Round, SeatView], None]
"""Called before each move with the round (its true hands) and the view of the seat to move."""


def bid_deal(seed: int, index: int, preset: str = "nanning") -> Round | None:
    """Arena deal ``index`` of ``seed``, dealt and bid by the heuristic; None if nobody bid (R20)."""
    round_ = Round(deal_setup(seed, index, preset))
    return round_ if deal_and_bid(round_, HEURISTIC_BIDDERS) else None


def self_play(
    seed: int,
    deals: int,
    visit: Visitor,
    preset: str = "nanning",
    bots: Mapping[int, Bot] | None = None,
    first: int = 0,
) -> None:
    """Play arena deals ``first … first + deals - 1`` of ``seed`` with the heuristic, or at the seats
    of ``bots`` with those bots, calling ``visit`` before each move."""
    others = bots or {}
    for index in range(first, first + deals):
        round_ = bid_deal(seed, index, preset)
        if round_ is None:
            continue

        def move(seat: int, round_: Round = round_) -> Play:
            view = round_.view(seat)
            visit(round_, view)
            if seat in others:
                return Play(seat, others[seat].play(view))
            return Play(seat, choose_play(Situation.from_view(view)))

        play_to_end(round_, move)
