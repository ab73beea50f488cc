"""The :class:`Refusal` value: why the rules refuse a lead (R13) or judge a follow wrong (R22–R25).

A refusal carries a stable ``reason`` code and JSON-ready ``params`` (cards as strings, suit-classes
as ``"S"``, ``"H"``, ``"C"``, ``"D"`` or ``"trump"``), so that a client can word it in its own
language; ``message`` is the English text for logs and tests. docs/PROTOCOL.md §2.5 lists them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tuolaji.cards import SUITS, Card, format_card

from .frozen import reduce_by_fields
from .trump import TRUMP_CLASS


@dataclass(frozen=True)
class Refusal:
    """A refused lead or a wrong follow: ``reason`` code, the ``rule`` it breaks, ``params``, ``message``."""

    reason: str
    rule: str | None
    message: str
    params: dict[str, Any] = field(default_factory=dict)

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_by_fields(self)

    def to_params(self) -> dict[str, Any]:
        """The params a protocol error carries: ``reason``, ``rule`` (if any) and this refusal's own params."""
        head: dict[str, Any] = {"reason": self.reason}
        if self.rule is not None:
            head["rule"] = self.rule
        return {**head, **self.params}


def card_strings(cards: Iterable[Card]) -> list[str]:
    """Cards in RULES.md notation, as a JSON list: ``["AS", "TH", "BJ"]``."""
    return [format_card(card) for card in cards]


def class_code(suit_class: int) -> str:
    """A suit-class as the protocol writes it: ``"trump"`` or the suit letter."""
    return "trump" if suit_class == TRUMP_CLASS else SUITS[suit_class]


def shape_params(arity: int, length: int) -> dict[str, int]:
    """A unit or tractor shape (R10–R11): ``{"arity": 2, "length": 3}`` is a tractor of three pairs."""
    return {"arity": arity, "length": length}
