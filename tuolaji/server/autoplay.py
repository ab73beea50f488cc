"""Moves the server makes for a seat: bots, 託管 and timeouts (R44–R46).

:func:`make_autoplayer` is the one place that picks the auto-play policy. Whatever it proposes,
:func:`auto_play` only ever returns a legal move: a proposal the round would refuse or judge
wrong falls back to the round's own legal hint (auto-play always plays legally, §8).
"""

from __future__ import annotations

from typing import Protocol

from tuolaji.bots import make_bot
from tuolaji.game.actions import Action, Bid, Play
from tuolaji.game.round import Phase, Round
from tuolaji.game.view import SeatView

BOT_NAMES = ("heuristic", "random")
"""Bots a seat may be filled with (``add_bot``); the first also plays for 託管 seats. The ``search``
bot is left out: it thinks for hundreds of milliseconds, which would stall the table's task."""


class Chooser(Protocol):
    """A bot: a ``Bid`` or None while dealing/bidding, a ``Play`` when it is the view's turn."""

    def choose(self, view: SeatView) -> Action | None:
        """The bot's action for ``view``, or None."""
        ...


def make_autoplayer(name: str, seed: int) -> Chooser:
    """The auto-play policy for a bot seat or a seat in 託管: a bot from ``tuolaji.bots``."""
    return make_bot(name, seed)


def auto_bid(round_: Round, seat: int, chooser: Chooser) -> Bid | None:
    """A bid ``chooser`` wants to make now that the round would accept, or None."""
    if round_.phase not in (Phase.DEALING, Phase.BIDDING):
        return None
    action = chooser.choose(round_.view(seat))
    if isinstance(action, Bid) and action.seat == seat and (action.suit, action.count) in round_.bid_options(seat):
        return action
    return None


def auto_play(round_: Round, seat: int, chooser: Chooser) -> Play:
    """A legal play for ``seat`` (whose turn it is): the chooser's if legal, else the round's hint.

    The result is checked here, so the table may apply it unchecked."""
    action = chooser.choose(round_.view(seat))
    if isinstance(action, Play) and action.seat == seat and round_.check_play(seat, action.cards) is None:
        return action
    return Play(seat, tuple(round_.hint(seat)))
