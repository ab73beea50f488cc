"""The fields of JSON messages, checked once for every reader: a client's messages (the server's
protocol) and the stored actions of hand records and table logs (``tuolaji.game.actions``).

Each function returns the field's value in Python form or raises :class:`FieldError` naming the
field, the value and what is expected; a card string that is not in RULES.md notation raises
:class:`CardFieldError`.
"""

from __future__ import annotations

from typing import Final

from tuolaji.cards import HAND_SIZE, SUITS, Card, CardParseError, parse_cards

MAX_CARDS: Final = HAND_SIZE
"""The most cards a field may hold (a whole hand, R4)."""


class FieldError(ValueError):
    """A field of the wrong type or out of range; the message names it."""


class CardFieldError(FieldError):
    """A card string that is not in RULES.md notation."""


def int_field(name: str, value: object, low: int, high: int) -> int:
    """An integer ``low``…``high`` (not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FieldError(f"field {name!r} must be an integer {low}…{high}, not {value!r}")
    return value


def bool_field(name: str, value: object) -> bool:
    """``true`` or ``false``."""
    if not isinstance(value, bool):
        raise FieldError(f"field {name!r} must be true or false, not {value!r}")
    return value


def suit_field(name: str, value: object) -> int:
    """A suit letter ``S H C D`` (either case), as its index 0–3."""
    if not isinstance(value, str) or len(value) != 1 or value.upper() not in SUITS:
        raise FieldError(f"field {name!r} must be one of S H C D, not {value!r}")
    return SUITS.index(value.upper())


def cards_field(name: str, value: object, *, allow_empty: bool = False) -> tuple[Card, ...]:
    """Cards as a list of card strings or one string (``["AS", "AS"]`` or ``"AS AS"``), at most
    :data:`MAX_CARDS` of them (and at least one unless ``allow_empty``)."""
    if isinstance(value, list) and len(value) <= MAX_CARDS and all(isinstance(token, str) for token in value):
        text = " ".join(value)
    elif isinstance(value, str) and len(value) <= 4 * MAX_CARDS:
        text = value
    else:
        raise FieldError(f'field {name!r} must be a list of at most {MAX_CARDS} card strings, e.g. ["AS", "AS"]')
    try:
        cards = tuple(parse_cards(text))
    except CardParseError as error:
        raise CardFieldError(f"field {name!r}: {error}") from None
    if (not cards and not allow_empty) or len(cards) > MAX_CARDS:
        raise FieldError(f"field {name!r} must hold {0 if allow_empty else 1}–{MAX_CARDS} cards")
    return cards
