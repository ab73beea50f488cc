"""The one driver of a round with automatic players: deal, bids and play (R15–R33).

Simulations, the arena, benchmarks, tests and the server's table all move a round with these
functions. A player is a :class:`Chooser` (every bot is one): it sees a seat's view and answers
with an action, or None. Nothing here reads a clock; the server decides *when* to call them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from tuolaji.game.actions import Action, Bid, CloseBidding, CloseReview, DealCards, Pass, Play
from tuolaji.game.round import Phase, Round
from tuolaji.game.view import Event, SeatView

DEAL_STEP = 8
"""Cards dealt between two polls of the bidders in :func:`deal_and_bid` (two per seat)."""
BID_POLL_ROUNDS = 8
"""Polls of every bidder after one another, until a whole poll brings no bid. Each bid shows more
level cards than the standing one (R17–R18), so at most four polls can bring one."""


class Chooser(Protocol):
    """A player: a ``Bid`` (or None) while dealing and bidding, a ``Play`` on its turn, else None."""

    def choose(self, view: SeatView) -> Action | None:
        """The action for ``view``, or None."""
        ...


MoveChooser = Callable[[int], Play]
"""Given the seat to move, its play."""


def poll_bids(
    round_: Round, choosers: Sequence[Chooser | None], rounds: int = BID_POLL_ROUNDS
) -> list[tuple[Bid, list[Event]]]:
    """Let every seat with a chooser bid on what it holds now (R16–R18), seat 0 to 3, poll after poll
    until one brings no bid (at most ``rounds``). A proposal the round would refuse is ignored.

    Returns each bid applied, with its events, in order.
    """
    applied: list[tuple[Bid, list[Event]]] = []
    for _ in range(rounds):
        placed = False
        for seat, chooser in enumerate(choosers):
            if chooser is None or round_.phase not in (Phase.DEALING, Phase.BIDDING):
                continue
            view = round_.view(seat)
            action = chooser.choose(view)
            if isinstance(action, Bid) and action.seat == seat and (action.suit, action.count) in view.bid_options:
                applied.append((action, round_.apply(action)))
                placed = True
        if not placed:
            break
    return applied


def pass_the_rest(round_: Round, seats: Iterable[int]) -> list[tuple[Pass, list[Event]]]:
    """In the window after the deal, each of ``seats`` that could still bid says 不叫 (R19): for the
    seats of bots and 託管 after :func:`poll_bids`, whose choosers then wanted no bid. A seat with
    no bid left to make, or that said 不叫 already, says nothing. Returns each pass with its events."""
    if round_.phase is not Phase.BIDDING:
        return []
    return [
        (action, round_.apply(action))
        for action in (Pass(seat) for seat in seats)
        if not round_.passed(action.seat) and round_.bid_options(action.seat)
    ]


def deal_and_bid(
    round_: Round, choosers: Sequence[Chooser | None], deal_step: int = DEAL_STEP, rounds: int = BID_POLL_ROUNDS
) -> bool:
    """Deal ``deal_step`` cards at a time, polling the bidders after each step and once the deal is
    over, then close the bidding (R15–R19). True if a bid stands, False for a redeal (R20)."""
    while round_.phase is Phase.DEALING:
        round_.apply(DealCards(deal_step))
        poll_bids(round_, choosers, rounds)
    poll_bids(round_, choosers, rounds)
    round_.apply(CloseBidding())
    return round_.phase is Phase.PLAYING


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


def play_with(round_: Round, choosers: Sequence[Chooser], *, checked: bool = True) -> None:
    """Play ``round_`` to its end with ``choosers[seat]`` moving for each seat; a chooser that does
    not answer its turn with a play for its seat raises ``ValueError`` naming it."""

    def move(seat: int) -> Play:
        action = choosers[seat].choose(round_.view(seat))
        if not isinstance(action, Play) or action.seat != seat:
            raise ValueError(f"play_with: seat {seat}'s chooser answered its turn with {action!r}, not a play")
        return action

    play_to_end(round_, move, checked=checked)
