"""Driving a round to its end with players given as functions (simulations, arenas, benchmarks)."""

from __future__ import annotations

from collections.abc import Callable

from tuolaji.game.actions import CloseReview, Play
from tuolaji.game.round import Phase, Round

MoveChooser = Callable[[int], Play]
"""Given the seat to move, its play."""


def play_to_end(round_: Round, move: MoveChooser, *, checked: bool = True) -> None:
    """Play ``round_`` from the playing phase to its end: ``move(seat)`` plays for the seat to move,
    and every review window closes at once (R33). ``checked=False`` as in :meth:`Round.apply`."""
    while round_.phase is not Phase.FINISHED:
        if round_.phase is Phase.REVIEW:
            round_.apply(CloseReview())
            continue
        seat = round_.to_move
        if seat is None:
            raise ValueError(f"play_to_end: nobody is to move in phase {round_.phase}; close the bidding first")
        round_.apply(move(seat), checked=checked)
