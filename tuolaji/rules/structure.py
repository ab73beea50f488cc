"""The R24 structure key, computed from group counts without enumerating subsets.

R24 compares follows ``P`` by ``key(P) = (exact, same_count, tractors, pairs)`` and allows exactly
those whose key equals the best key of any ``n``-card subset of ``H``. Lexicographic order makes
this a sequence of stages (:func:`follow_stage`): if ``H`` holds an exact pattern, every exact ``P``
has the same full key, so ``P`` is legal iff it is exact; else the same for a single ``n``-card
tractor (tractor and bomb leads); else the remaining components are compared, where
:class:`StructureSolver` finds the best ``(tractors, pairs)`` of a count vector under a card budget.
The key of ``P`` itself is that of ``P``'s counts with budget ``|P|``.

Counts are 54-slot lists (cards per kind); ``chains`` are :attr:`Trump.chains` of the lead's class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tuolaji.cards import Card

from .pattern import Pattern
from .presets import Preset
from .tractors import Move, held_stretches
from .trump import Chain, Trump

FREE: Final = 0
"""Any ``n`` cards of ``H`` (single leads)."""
EXACT: Final = 1
"""``P`` must be a pattern of the lead's arity and length."""
SAME_COUNT: Final = 2
"""``P`` must be one tractor of ``n`` cards (any arity)."""
EXACT_OR_SAME: Final = 3
"""``guigang`` (R25): ``P`` must be exact or one ``n``-card tractor."""
TRACTORS: Final = 4
"""Tractor lead, nothing above: ``P`` must match the best ``(tractors, pairs)``."""
PAIRS: Final = 5
"""Pair, triple or bomb lead, nothing above: ``P`` must hold the most pairs possible."""

Value = tuple[tuple[int, ...], int]
"""``(tractors, pairs)``: tractor card counts largest first, then pairs outside them (R24)."""


def longest_runs(counts: Sequence[int], chains: tuple[Chain, ...]) -> tuple[int, int, int]:
    """Longest tractor lengths available with arity 2, 3 and 4 (R11–R12)."""
    best2 = best3 = best4 = 0
    for chain, cap in chains:
        run2 = run3 = run4 = 0
        top2 = top3 = top4 = 0
        for kind in chain:
            count = counts[kind]
            if count >= 2:
                run2 += 1
                top2 = max(top2, run2)
                if count >= 3:
                    run3 += 1
                    top3 = max(top3, run3)
                    if count == 4:
                        run4 += 1
                        top4 = max(top4, run4)
                    else:
                        run4 = 0
                else:
                    run3 = run4 = 0
            else:
                run2 = run3 = run4 = 0
        best2 = max(best2, min(top2, cap))
        best3 = max(best3, min(top3, cap))
        best4 = max(best4, min(top4, cap))
    return best2, best3, best4


def same_count_shapes(n: int) -> tuple[tuple[int, int], ...]:
    """The ``(arity, length)`` of every tractor with ``n`` cards."""
    return tuple((b, n // b) for b in (2, 3, 4) if n % b == 0 and n // b >= 2)


def follow_stage(counts: Sequence[int], lead: Pattern, trump: Trump, preset: Preset) -> int:
    """Which requirement R24/R25 puts on a follow when ``|H| > n`` (``counts`` are ``H``'s)."""
    arity, length = lead.arity, lead.length
    if arity == 1:
        return FREE
    chains = trump.chains[lead.suit_class]
    if length == 1:
        exact = any(counts[k] >= arity for k in trump.class_kinds[lead.suit_class])
        same = arity == 4 and longest_runs(counts, chains)[0] >= 2
    else:
        runs = longest_runs(counts, chains)
        exact = runs[arity - 2] >= length
        same = any(runs[b - 2] >= m for b, m in same_count_shapes(lead.size))
    if exact and same and preset.merged_exact:
        return EXACT_OR_SAME
    if exact:
        return EXACT
    if same:
        return SAME_COUNT
    return TRACTORS if length >= 2 else PAIRS


class StructureSolver:
    """Best ``(tractors, pairs)`` (R24) of ``n``-card subsets of a count vector.

    The largest tractor list starts with the largest tractor that fits the budget, so each step
    branches only over the tractors of that size; results are memoised on the remaining counts.
    A tractor of arity ``b`` may be cut from any kinds holding at least ``b`` cards, and two
    tractors may share a kind that holds enough copies (e.g. ``7788`` twice from ``77778888``).
    """

    __slots__ = ("_chain_kinds", "_chains", "_kinds", "_memo", "counts")

    def __init__(self, counts: Sequence[int], chains: tuple[Chain, ...], kinds: Sequence[Card]) -> None:
        self.counts = list(counts)
        self._chains = chains
        self._kinds = kinds
        self._chain_kinds = tuple({kind: None for chain, _ in chains for kind in chain})
        self._memo: dict[tuple[int, ...], Value] = {}

    def largest_moves(self, budget: int) -> tuple[int, list[Move]]:
        """The largest tractor size that fits ``budget``, and every tractor of that size."""
        counts = self.counts
        best = 0
        moves: list[Move] = []
        for chain, cap in self._chains:
            for arity in (4, 3, 2):
                longest = min(cap, budget // arity)
                if longest < 2 or arity * longest < best:
                    continue
                for start, end in held_stretches(counts, chain, arity):
                    length = min(end - start, longest)
                    cards = arity * length
                    if cards >= best:
                        if cards > best:
                            best = cards
                            moves = []
                        moves.extend((arity, chain[i : i + length]) for i in range(start, end - length + 1))
        return best, moves

    def pairs(self, budget: int) -> int:
        """Pairs available outside any tractor, limited by the budget (triple = 1, bomb = 2)."""
        counts = self.counts
        return min(budget // 2, sum(counts[k] // 2 for k in self._kinds))

    def apply(self, move: Move, sign: int = 1) -> None:
        """Take the tractor out of the counts (``sign`` = -1 puts it back)."""
        arity, kinds = move
        counts = self.counts
        for kind in kinds:
            counts[kind] -= sign * arity

    def best(self, budget: int) -> Value:
        """The best ``(tractors, pairs)`` of ``budget``-card subsets of the current counts."""
        counts = self.counts
        key = (budget, *map(counts.__getitem__, self._chain_kinds))
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        size, moves = self.largest_moves(budget)
        value: Value = ((), self.pairs(budget))
        for move in moves:
            self.apply(move)
            tractors, pairs = self.best(budget - size)
            self.apply(move, -1)
            candidate = ((size, *tractors), pairs)
            if candidate > value:
                value = candidate
        self._memo[key] = value
        return value

    def optimal_moves(self, budget: int) -> tuple[int, list[Move]]:
        """The first tractors of the optimal decompositions (none when no tractor fits)."""
        size, moves = self.largest_moves(budget)
        target = self.best(budget)
        good: list[Move] = []
        for move in moves:
            self.apply(move)
            tractors, pairs = self.best(budget - size)
            self.apply(move, -1)
            if ((size, *tractors), pairs) == target:
                good.append(move)
        return size, good


def structure_value(counts: Sequence[int], chains: tuple[Chain, ...], kinds: Sequence[Card], n: int) -> Value:
    """The best ``(tractors, pairs)`` of ``n``-card subsets; for a play's own counts, its key."""
    return StructureSolver(counts, chains, kinds).best(n)
