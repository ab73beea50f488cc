"""The JSON form of the game's values: cards as strings in RULES.md notation, suits as letters.

The game keeps cards as ints (``tuolaji.cards``); everything it shows (events, tricks, bids, round
results) becomes JSON here, field by field: a field named like a card list (:data:`CARD_FIELDS`) holds
card strings, a ``suit`` or ``trump_suit`` a letter, and an object with ``to_json`` its own form.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Final

from tuolaji.cards import SUITS, format_card

CARD_FIELDS: Final = frozenset({"cards", "hand", "hint", "point_cards", "lead"})
"""Fields whose ints are cards (shown as card strings)."""
SUIT_FIELDS: Final = frozenset({"suit", "trump_suit"})
"""Fields whose int is a suit (shown as its letter)."""


def jsonable(name: str, value: Any) -> Any:
    """The JSON form of field ``name`` holding ``value`` (lists and dicts converted member by member)."""
    if name in CARD_FIELDS and isinstance(value, tuple | list):
        return [format_card(card) for card in value]
    if name in SUIT_FIELDS and isinstance(value, int):
        return SUITS[value]
    if isinstance(value, dict):
        return {key: jsonable(key, item) for key, item in value.items()}
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, tuple | list):
        return [jsonable(name, item) for item in value]
    return value


def to_jsonable(obj: Any) -> dict[str, Any]:
    """A dataclass as a JSON-ready dict, each field by :func:`jsonable`."""
    return {f.name: jsonable(f.name, getattr(obj, f.name)) for f in fields(obj)}


def event_fields(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """An event's JSON object: ``{"type": kind, ...data}`` with each field by :func:`jsonable`."""
    return {"type": kind, **{key: jsonable(key, value) for key, value in data.items()}}
