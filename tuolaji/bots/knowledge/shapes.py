"""Hand analysis on count vectors: units, tractor runs and the leads a hand offers (R10–R13)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from tuolaji.bots.knowledge.cardinfo import CardTable
from tuolaji.cards import KINDS
from tuolaji.rules.tractors import run_windows, runs


class Shape(NamedTuple):
    """One unit (``len(kinds) == 1``) or one tractor: its kinds low to high and its arity."""

    kinds: tuple[int, ...]
    arity: int

    @property
    def size(self) -> int:
        return len(self.kinds) * self.arity

    def cards(self) -> tuple[int, ...]:
        return tuple(kind for kind in self.kinds for _ in range(self.arity))


def counts_of(cards: Iterable[int]) -> list[int]:
    """A 54-slot count vector."""
    counts = [0] * KINDS
    for card in cards:
        counts[card] += 1
    return counts


def class_size(counts: Sequence[int], table: CardTable, cls: int) -> int:
    """How many cards of suit-class ``cls`` the count vector holds."""
    return sum(counts[kind] for kind in table.class_kinds[cls])


def class_runs(counts: Sequence[int], table: CardTable, cls: int, arity: int) -> list[tuple[int, ...]]:
    """Maximal tractor runs of ``arity`` in suit-class ``cls`` (R12, :func:`tuolaji.rules.tractors.runs`)."""
    return runs(counts, table.trump.chains[cls], arity)


def lead_shapes(counts: Sequence[int], table: CardTable) -> list[Shape]:
    """The leads worth considering (R13): every held kind as a whole unit (up to a bomb) and
    every maximal tractor run of each arity. Partial units are left out: breaking a group to lead
    from it is never the policy's choice except through singles of a single-held kind."""
    shapes: list[Shape] = []
    for cls in range(5):
        for kind in table.class_kinds[cls]:
            if counts[kind]:
                shapes.append(Shape((kind,), counts[kind]))
        for arity in (2, 3, 4):
            for run in class_runs(counts, table, cls, arity):
                shapes.append(Shape(run, arity))
    return shapes


def all_leads(counts: Sequence[int], table: CardTable) -> list[Shape]:
    """Every distinct valid lead (R13): each unit of each arity held, each tractor window."""
    shapes: list[Shape] = []
    for cls in range(5):
        for kind in table.class_kinds[cls]:
            shapes += [Shape((kind,), arity) for arity in range(1, counts[kind] + 1)]
        for arity in (2, 3, 4):
            found = {
                window
                for run in class_runs(counts, table, cls, arity)
                for length in range(2, len(run) + 1)
                for window in run_windows(run, length)
            }
            shapes += [Shape(kinds, arity) for kinds in sorted(found)]
    return shapes
