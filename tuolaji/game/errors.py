"""Typed errors for actions the game refuses. The state is unchanged after any of them.

Each class has a stable protocol ``code`` and each error JSON-ready ``params`` (docs/PROTOCOL.md
§2.5): the ``seat`` and ``action``, the ``rule`` it breaks, a ``reason`` code where one code has
several causes, and what a client needs to word it in its own language (cards as strings, counts).
The message is English, for logs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class GameError(ValueError):
    """An action the game refuses; the message names the action, the seat and the rule."""

    code = "illegal_action"

    def __init__(self, message: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.params: dict[str, Any] = dict(params or {})

    @property
    def rule(self) -> str | None:
        """The rule the action breaks (``"R13"``), when the error names one."""
        rule = self.params.get("rule")
        return rule if isinstance(rule, str) else None


class WrongPhase(GameError):
    """The action does not fit the round's phase (e.g. a play during the deal)."""

    code = "wrong_phase"


class NotYourTurn(GameError):
    """A play from a seat whose turn it is not (R21, R22)."""

    code = "not_your_turn"


class CardsNotHeld(GameError):
    """Cards that are not in the seat's hand (R22)."""

    code = "cards_not_held"


class WrongCount(GameError):
    """A follow with a different number of cards than the lead (R22)."""

    code = "wrong_count"


class InvalidLead(GameError):
    """A lead that is not one unit or one tractor of one suit-class (R13)."""

    code = "invalid_lead"


class IllegalFollow(GameError):
    """A follow that breaks R23–R25, refused in ``reject`` mode or on a second wrong play (R33)."""

    code = "illegal_follow"


class BadBid(GameError):
    """A bid that is not held, does not outrank the standing bid, or comes too late (R16–R19)."""

    code = "bad_bid"


class NotAllowed(GameError):
    """A remind, retract or second 不叫 the rules do not allow now (R19, R30, R31)."""

    code = "not_allowed"
