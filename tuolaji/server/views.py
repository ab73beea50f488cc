"""Fast JSON for per-seat state messages: the same JSON as ``SeatView.to_json()``, built cheaply.

A broadcast sends one view per seat plus the spectators' view. Everything but a few private
fields is the same for all of them, so :class:`ViewEncoder` encodes that public part once per
broadcast and splices in each seat's private fields; the finished tricks,
the largest part of a view, are encoded once per trick and reused for the rest of the hand.
``tests/server/test_views.py`` checks that the result equals ``SeatView.to_json()`` exactly.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Final

from tuolaji.cards import KINDS, RANKS, SUITS, format_card
from tuolaji.game.view import SeatView, TrickRecord

PRIVATE_FIELDS: Final = ("seat", "hand", "hint", "bid_options", "reminded", "can_remind", "can_retract")
"""SeatView fields that differ between seats; every other field is the same for everyone."""
_TRICKS_MARK: Final = '"\\u0000tricks"'
_NAMES: Final = tuple(format_card(kind) for kind in range(KINDS))


_PUBLIC_FIELDS: Final = frozenset(
    {
        "phase", "level", "dealer", "first_hand", "bid", "trump_suit", "hand_sizes", "cards_dealt", "to_move",
        "leader", "trick", "tricks", "attackers_points", "point_cards", "retraction_points", "autoplay",
        "timeouts", "result", "preset", "illegal_follow",
    }
)  # fmt: skip
_FAST: Final = _PUBLIC_FIELDS | set(PRIVATE_FIELDS) == {field.name for field in dataclasses.fields(SeatView)}
"""Whether :func:`_public_fields` knows every SeatView field; if not, the generic ``to_json`` is used."""


def _public_fields(view: SeatView) -> dict[str, Any]:
    """``SeatView.to_json()`` without the private fields and the tricks, field by field (fast path)."""
    return {
        "phase": view.phase,
        "level": RANKS[view.level],
        "dealer": view.dealer,
        "first_hand": view.first_hand,
        "bid": view.bid.to_json() if view.bid is not None else None,
        "trump_suit": SUITS[view.trump_suit] if view.trump_suit is not None else None,
        "hand_sizes": list(view.hand_sizes),
        "cards_dealt": view.cards_dealt,
        "to_move": view.to_move,
        "leader": view.leader,
        "trick": [play.to_json() for play in view.trick],
        "attackers_points": view.attackers_points,
        "point_cards": [_NAMES[card] for card in view.point_cards],
        "retraction_points": list(view.retraction_points),
        "autoplay": list(view.autoplay),
        "timeouts": list(view.timeouts),
        "result": view.result.to_json() if view.result is not None else None,
        "preset": view.preset,
        "illegal_follow": view.illegal_follow,
    }


def dumps(data: Any) -> str:
    """Compact JSON, UTF-8 text kept as is."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _private(view: SeatView) -> str:
    fields = {
        "seat": view.seat,
        "hand": [_NAMES[card] for card in view.hand],
        "hint": [_NAMES[card] for card in view.hint],
        "bid_options": [{"suit": SUITS[suit], "count": count} for suit, count in view.bid_options],
        "reminded": view.reminded,
        "can_remind": view.can_remind,
        "can_retract": view.can_retract,
    }
    return dumps(fields)[1:-1]


class ViewEncoder:
    """Encodes the views of one table; keep one per table (it caches the current hand's tricks)."""

    def __init__(self) -> None:
        self._records: list[TrickRecord] = []
        self._texts: list[str] = []

    def _tricks(self, tricks: tuple[TrickRecord, ...]) -> str:
        cached = len(self._records)
        if cached > len(tricks) or (cached and tricks[cached - 1] is not self._records[-1]):
            self._records, self._texts = [], []
        for record in tricks[len(self._records) :]:
            self._records.append(record)
            self._texts.append(dumps(record.to_json()))
        return "[" + ",".join(self._texts) + "]"

    def public(self, view: SeatView) -> str:
        """The part shared by every view of this moment (taken from any one of them), as JSON text
        without its closing brace."""
        if _FAST:
            data = _public_fields(view)
        else:
            data = dataclasses.replace(view, tricks=()).to_json()
            for name in PRIVATE_FIELDS:
                del data[name]
        data["tricks"] = "\u0000tricks"
        return dumps(data).replace(_TRICKS_MARK, self._tricks(view.tricks), 1)[:-1]

    @staticmethod
    def seat_view(public: str, view: SeatView) -> str:
        """One seat's (or the spectator's) full view: ``public`` plus the private fields of ``view``."""
        return public + "," + _private(view) + "}"
