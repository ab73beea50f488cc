"""Tractors a hand can make (R11–R12): maximal runs and every window of a given length.

Counts are 54-slot lists (cards per kind); ``chains`` are :attr:`Trump.chains` of one suit-class:
stretches of the tractor sequence, each with the longest tractor it can hold (the trump suit's
stretch runs A 2 … K A, and a tractor never uses its ace twice).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from tuolaji.cards import Card

from .trump import Chain

Move = tuple[int, tuple[Card, ...]]
"""One tractor cut from a count vector: ``(arity, kinds)``."""


def held_stretches(counts: Sequence[int], chain: Sequence[Card], arity: int) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of every maximal stretch ``chain[start:end]`` of two or more kinds each held at
    least ``arity`` times, low to high."""
    start = 0
    size = len(chain)
    while start < size:
        if counts[chain[start]] < arity:
            start += 1
            continue
        end = start
        while end < size and counts[chain[end]] >= arity:
            end += 1
        if end - start >= 2:
            yield start, end
        start = end


def runs(counts: Sequence[int], chains: tuple[Chain, ...], arity: int) -> list[tuple[Card, ...]]:
    """Maximal tractor runs of ``arity``: two or more neighbouring kinds of a stretch each held at least
    ``arity`` times, kinds low to high. A run longer than its stretch's cap (the whole trump suit
    with its ace at both ends) gives its windows of the cap's length instead, highest first."""
    found: list[tuple[Card, ...]] = []
    for chain, cap in chains:
        for start, end in held_stretches(counts, chain, arity):
            if end - start > cap:
                found.extend(reversed(run_windows(chain[start:end], cap)))
            else:
                found.append(tuple(chain[start:end]))
    return found


def run_windows(run: Sequence[Card], length: int) -> list[tuple[Card, ...]]:
    """Every stretch of ``length`` neighbouring kinds inside a run, low to high."""
    return [tuple(run[start : start + length]) for start in range(len(run) - length + 1)]


def windows(counts: Sequence[int], chains: tuple[Chain, ...], arity: int, length: int) -> list[Move]:
    """Every tractor of ``arity`` and ``length`` that can be cut from ``counts``."""
    found: list[Move] = []
    for chain, cap in chains:
        if length > cap:
            continue
        run = 0
        for index, kind in enumerate(chain):
            if counts[kind] >= arity:
                run += 1
                if run >= length:
                    found.append((arity, chain[index - length + 1 : index + 1]))
            else:
                run = 0
    return found
