"""Per-trump look-up tables the bots use on every decision (R8, R9, R12).

A :class:`CardTable` wraps the rules engine's :class:`~tuolaji.rules.Trump` (suit-classes, powers,
tractor chains in ``trump.chains``) and adds what the policies need on top: each kind's place among the distinct
powers of its suit-class, and the kinds of each class weakest first.
"""

from __future__ import annotations

from functools import lru_cache

from tuolaji.cards import KINDS, POINTS
from tuolaji.rules import Trump


class CardTable:
    """Suit-class, power, points, strength step and tractor chains of every kind under one trump."""

    def __init__(self, level: int, suit: int) -> None:
        self.level = level
        self.suit = suit
        self.trump = Trump(level, suit)
        self.cls: tuple[int, ...] = self.trump.suit_classes
        self.power: tuple[int, ...] = self.trump.powers
        self.points = POINTS
        self.class_kinds: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(self.trump.class_kinds[c], key=lambda k: self.power[k])) for c in range(5)
        )
        step = [0] * KINDS
        for kinds in self.class_kinds:
            distinct = sorted({self.power[k] for k in kinds})
            for kind in kinds:
                step[kind] = distinct.index(self.power[kind])
        self.step: tuple[int, ...] = tuple(step)
        """0 for the weakest power of the class, 1 for the next, … (equal powers share a step)."""


@lru_cache(maxsize=64)
def card_table(level: int, suit: int) -> CardTable:
    """The cached :class:`CardTable` for a level (rank index) and trump suit (0–3)."""
    return CardTable(level, suit)
