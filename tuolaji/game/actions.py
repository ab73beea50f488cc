"""Actions: everything that changes a round, from players and from the server (time, chance).

Each action is a frozen dataclass with a JSON form ``{"type": ..., ...}`` (cards as strings in
RULES.md notation); :func:`action_from_json` parses and validates it. A round's record is its setup
plus the list of actions, so the JSON form is also the hand-record format.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from tuolaji.cards import SUITS, Card, format_cards
from tuolaji.wire.fields import FieldError, bool_field, cards_field, int_field, suit_field


class ActionFormatError(ValueError):
    """An action whose JSON form is malformed."""


@dataclass(frozen=True)
class DealCards:
    """System: deal the next ``count`` cards, one at a time in play order (R15)."""

    count: int
    type: ClassVar[str] = "deal"


@dataclass(frozen=True)
class Bid:
    """Show ``count`` identical level cards of ``suit`` (0–3) from the hand (R16–R18)."""

    seat: int
    suit: int
    count: int
    type: ClassVar[str] = "bid"


@dataclass(frozen=True)
class Pass:
    """Say 不叫 in the bid window after the deal: ``seat`` makes no bid unless the standing bid changes.
    The window closes as soon as every seat has said 不叫 or has no bid left to make (R19)."""

    seat: int
    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class CloseBidding:
    """System: the bid window is over (R19–R20)."""

    type: ClassVar[str] = "close_bidding"


@dataclass(frozen=True)
class Play:
    """Lead or follow with ``cards`` (R21–R26)."""

    seat: int
    cards: tuple[Card, ...]
    type: ClassVar[str] = "play"


@dataclass(frozen=True)
class Remind:
    """Remind the partner after the partner followed (R30)."""

    seat: int
    type: ClassVar[str] = "remind"


@dataclass(frozen=True)
class Retract:
    """Take back one's own follow in the current trick (R31)."""

    seat: int
    type: ClassVar[str] = "retract"


@dataclass(frozen=True)
class CloseReview:
    """System: the review window after the fourth play is over; judge the trick (R33)."""

    type: ClassVar[str] = "close_review"


@dataclass(frozen=True)
class Timeout:
    """System: ``seat``'s clock ran out (R44); the server then sends the auto-play's move."""

    seat: int
    type: ClassVar[str] = "timeout"


AUTOPLAY_REASONS = ("request", "disconnect", "reconnect")


@dataclass(frozen=True)
class SetAutoPlay:
    """Turn 託管 on or off for ``seat``: at the player's ``request`` (R45), or by the server at a
    ``disconnect`` and ``reconnect`` (R46)."""

    seat: int
    on: bool
    reason: str = "request"
    type: ClassVar[str] = "autoplay"


@dataclass(frozen=True)
class Escape:
    """System: ``seat`` left during the hand (R43)."""

    seat: int
    type: ClassVar[str] = "escape"


Action = DealCards | Bid | Pass | CloseBidding | Play | Remind | Retract | CloseReview | Timeout | SetAutoPlay | Escape
SYSTEM_ACTIONS = (DealCards, CloseBidding, CloseReview, Timeout, Escape)
_BY_TYPE: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        DealCards,
        Bid,
        Pass,
        CloseBidding,
        Play,
        Remind,
        Retract,
        CloseReview,
        Timeout,
        SetAutoPlay,
        Escape,
    )
}


_FIELDS = {kind: tuple(item.name for item in dataclasses.fields(cls)) for kind, cls in _BY_TYPE.items()}

ActionRow = tuple[Any, ...]
"""An action kept compactly: its ``type`` and then its fields in declaration order, cards as
``bytes`` (one byte a card kind, 0–53). Such a tuple holds nothing the cycle collector follows, so
CPython stops tracking it at the first collection it meets: a round keeps its actions as rows, and a
hand's history adds nothing to the collector's later passes (docs/BENCHMARKS.md, Server)."""


def action_row(action: Action) -> ActionRow:
    """``action`` as a row (:data:`ActionRow`)."""
    return (action.type, *[_packed(getattr(action, name)) for name in _FIELDS[action.type]])


def action_from_row(row: ActionRow) -> Action:
    """The action a row of :func:`action_row` was made from."""
    values: list[Any] = [tuple(value) if type(value) is bytes else value for value in row[1:]]
    return _BY_TYPE[row[0]](*values)


def _packed(value: object) -> object:
    # Cards as bytes rather than a tuple: a row holding a tuple the collector still tracks stays
    # tracked itself until a later, older pass.
    return bytes(value) if type(value) is tuple else value


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON form of an action."""
    data: dict[str, Any] = {"type": action.type}
    for name in action.__dataclass_fields__:
        value = getattr(action, name)
        if name == "cards":
            data[name] = format_cards(value)
        elif name == "suit":
            data[name] = SUITS[value]
        else:
            data[name] = value
    return data


def action_from_json(data: object) -> Action:
    """Parse the JSON form of an action; raise :class:`ActionFormatError` naming what is wrong."""
    if not isinstance(data, dict):
        raise ActionFormatError(f"an action must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    cls = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionFormatError(f"unknown action type {kind!r}; known: {', '.join(sorted(_BY_TYPE))}")
    fields: dict[str, Any] = {}
    try:
        for name in cls.__dataclass_fields__:
            value = data.get(name)
            if name == "seat":
                fields[name] = int_field(name, value, 0, 3)
            elif name == "count":
                fields[name] = int_field(name, value, 1, 216)
            elif name == "suit":
                fields[name] = suit_field(name, value)
            elif name == "cards":
                fields[name] = cards_field(name, value, allow_empty=True)
            elif name == "on":
                fields[name] = bool_field(name, value)
            elif name == "reason":
                reason = data.get("reason", "request")
                if reason not in AUTOPLAY_REASONS:
                    raise FieldError(f"field 'reason'={reason!r} must be one of {', '.join(AUTOPLAY_REASONS)}")
                fields[name] = reason
    except FieldError as error:
        raise ActionFormatError(f"action {kind!r}: {error}") from None
    return cls(**fields)
