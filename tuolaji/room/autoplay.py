"""Moves the table makes for a seat: its in-process players (bots, 託管, timeouts) and the guard
that only a legal play gets through (§8)."""

from __future__ import annotations

from collections.abc import Callable

from tuolaji.game.actions import Action, Play
from tuolaji.game.driver import Chooser
from tuolaji.game.round import Round

AutoPlayer = Callable[[str | None, int], Chooser]
"""Gives a seat's in-process player from its bot's name (None for a person: 託管 and timeouts) and a seed."""


def legal_play(round_: Round, seat: int, action: Action | None) -> Play:
    """``action`` if it is a play for ``seat`` (whose turn it is) that the round accepts without a
    wrong follow, else the round's hint: auto-play always plays legally (§8)."""
    if isinstance(action, Play) and action.seat == seat and round_.check_play(seat, action.cards) is None:
        return action
    return Play(seat, tuple(round_.hint(seat)))
