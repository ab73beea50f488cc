"""Moves the server makes for a seat: bots, 託管 and timeouts (R44–R46).

:func:`make_autoplayer` is the one place that picks the in-process auto-play policy. Whatever a bot
proposes, :func:`legal_play` only ever lets a legal move through: a proposal the round would refuse
or judge wrong falls back to the round's own legal hint (auto-play always plays legally, §8).
Slow bots (:data:`~tuolaji.server.thinking.SLOW_BOTS`) think in worker processes; their answer
comes back later and applies only while its :class:`TurnStamp` is current.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from tuolaji.bots import make_bot
from tuolaji.game.actions import Action, Bid, Play
from tuolaji.game.round import Phase, Round
from tuolaji.game.view import SeatView
from tuolaji.server.thinking import SLOW_BOTS

DEFAULT_BOT = "heuristic"
"""The bot of ``add_bot`` and ``play_now`` without a name; it also plays for 託管 seats and timeouts,
and bids and stands in for slow bots, being fast enough to run in a table's task."""


class Chooser(Protocol):
    """A bot: a ``Bid`` or None while dealing/bidding, a ``Play`` when it is the view's turn."""

    def choose(self, view: SeatView) -> Action | None:
        """The bot's action for ``view``, or None."""
        ...


def make_autoplayer(bot: str | None, seed: int) -> Chooser:
    """The in-process policy of a seat: its bot if fast; :data:`DEFAULT_BOT` for a person (託管,
    timeouts) and for a slow bot, whose bids it makes and whose move it plays if the thinking fails."""
    return make_bot(bot if bot is not None and bot not in SLOW_BOTS else DEFAULT_BOT, seed)


def auto_bid(round_: Round, seat: int, chooser: Chooser) -> Bid | None:
    """A bid ``chooser`` wants to make now that the round would accept, or None."""
    if round_.phase not in (Phase.DEALING, Phase.BIDDING):
        return None
    action = chooser.choose(round_.view(seat))
    if isinstance(action, Bid) and action.seat == seat and (action.suit, action.count) in round_.bid_options(seat):
        return action
    return None


def legal_play(round_: Round, seat: int, action: Action | None) -> Play:
    """``action`` if it is a play for ``seat`` (whose turn it is) that the round accepts, else the
    round's hint. The result is checked here, so the table may apply it unchecked."""
    if isinstance(action, Play) and action.seat == seat and round_.check_play(seat, action.cards) is None:
        return action
    return Play(seat, tuple(round_.hint(seat)))


def auto_play(round_: Round, seat: int, chooser: Chooser) -> Play:
    """A legal play for ``seat`` (whose turn it is): the chooser's if legal, else the round's hint."""
    return legal_play(round_, seat, chooser.choose(round_.view(seat)))


@dataclass(frozen=True, eq=False)
class TurnStamp:
    """Where a round stood when a slow bot was asked for its move: ``round`` (the object), the
    ``seat`` to move and how many ``actions`` had been applied."""

    round: Round
    seat: int
    actions: int

    @classmethod
    def of(cls, round_: Round, seat: int) -> TurnStamp:
        """The stamp of ``round_`` now, for ``seat``'s move."""
        return cls(round_, seat, len(round_.actions))

    def is_current(self, round_: Round | None) -> bool:
        """Whether a move asked for at this stamp still applies to ``round_``: the same round, still
        being played, the same seat to move and no action since (a retraction, a reminder, a 託管
        switch or a disconnect may have changed the position, or the hand may be over)."""
        return (
            round_ is self.round
            and round_.phase is Phase.PLAYING
            and round_.to_move == self.seat
            and len(round_.actions) == self.actions
        )
