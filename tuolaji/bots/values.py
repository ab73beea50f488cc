"""What cards and tricks are worth to the heuristic: the terms of its utilities, in points.

Shared by the heuristic policy (:mod:`tuolaji.bots.heuristic`), the search's horizon estimate
(:mod:`tuolaji.bots.search`) and the inference that reads the heuristic's follows backwards
(:mod:`tuolaji.bots.inference`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tuolaji.bots.table import TRUMP_CLASS, CardTable

SPEND_WEIGHT = 0.45
"""λ: how many points a unit of card value is worth when spent."""
CONTROL = 4.0
"""Worth of winning the lead for the next trick, in points."""
PARTNER_LATER = 0.3
"""The chance to win a trick that an opponent is winning when the partner is still to play."""


def card_value(table: CardTable, counts: Sequence[int], kind: int) -> float:
    """How much a card is worth keeping: strength within its class, trumps more, pairs more."""
    return kind_value(table, kind, counts[kind])


def kind_value(table: CardTable, kind: int, copies: int) -> float:
    """:func:`card_value` of a card of ``kind`` in a hand holding ``copies`` of it."""
    step = table.step[kind]
    top = table.step[table.class_kinds[table.cls[kind]][-1]] or 1
    strength = step / top
    value = 10.0 * strength * strength
    if table.cls[kind] == TRUMP_CLASS:
        value += 3.0 + 6.0 * strength
    if copies >= 2:
        value += 2.0 + 3.0 * strength
    return value


def spend_cost(table: CardTable, counts: Sequence[int], cards: Sequence[int]) -> float:
    """The value of the cards a move gives up."""
    return sum(card_value(table, counts, kind) for kind in cards)


def points_of(table: CardTable, cards: Sequence[int]) -> int:
    """The card points in ``cards`` (fives, tens and kings, R35)."""
    return sum(table.points[kind] for kind in cards)


def utility(win: float, stake: int, cost: float) -> float:
    """A follow's utility for the seat's team: its chance ``win`` to take the trick, the points at
    ``stake`` in it and the value ``cost`` of the cards it spends."""
    return (2.0 * win - 1.0) * stake + CONTROL * win - SPEND_WEIGHT * cost
