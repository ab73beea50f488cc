"""What cards and tricks are worth to the heuristic: the terms of its utilities, in points.

Shared by the heuristic's card play (:mod:`tuolaji.bots.policy.card_play`) and the search's horizon
estimate (:mod:`tuolaji.bots.montecarlo.value`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tuolaji.bots.knowledge.cardinfo import CardTable
from tuolaji.rules import TRUMP_CLASS

SPEND_WEIGHT = 0.45
"""λ: how many points a unit of card value is worth when spent."""
CONTROL = 4.0
"""Worth of winning the lead for the next trick, in points."""
PARTNER_LATER = 0.3
"""The chance to win a trick that an opponent is winning when the partner is still to play."""
PARTNER_FEED = 5.0
"""Points a partner is expected to add to a trick we win."""
TRUMP_LEAD = 2.0
"""What leading trumps costs beyond their value (they are kept to ruff and for the last trick)."""
SHORT_SUIT = 3.0
"""A side-suit single lead gains this divided by the cards of its suit held (short suits first)."""
PARTNER_RUFF = 8.0
"""A side-suit single lead gains this when the partner has shown it can ruff and no opponent can."""
KEEP = 50.0
"""Leading cards of the shape kept for the last trick (摳底, R35) costs this."""


def partner_ruff_bonus(voids: Sequence[set[int]], seat: int, cls: int) -> float:
    """:data:`PARTNER_RUFF` for a side-suit single lead in ``cls`` when ``seat``'s partner has shown
    it can ruff it (void in ``cls``, not in trumps) and neither opponent has shown a void in it; else 0."""
    partner = voids[(seat + 2) % 4]
    if cls in partner and TRUMP_CLASS not in partner and all(cls not in voids[(seat + i) % 4] for i in (1, 3)):
        return PARTNER_RUFF
    return 0.0


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


def utility(win: float, stake: float, cost: float) -> float:
    """A follow's utility for the seat's team: its chance ``win`` to take the trick, the points at
    ``stake`` in it and the value ``cost`` of the cards it spends."""
    return (2.0 * win - 1.0) * stake + CONTROL * win - SPEND_WEIGHT * cost


def lead_gain(risk: float, stake: float, size: int, cost: float) -> float:
    """A lead's utility before the bonuses for its suit: the chance ``risk`` that it loses the
    trick, the points at ``stake``, its ``size`` in cards (bigger wins keep the lead longer) and the
    value ``cost`` of its cards, spent only when it loses. It falls as ``risk`` grows."""
    win = 1.0 - risk
    return (2.0 * win - 1.0) * stake + CONTROL * win * (1.0 + 0.5 * size) - SPEND_WEIGHT * risk * cost
