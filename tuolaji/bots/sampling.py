"""Determinization: deal the hidden cards to the other three seats consistently with the view.

The hidden cards are exactly ``Knowledge.unseen``; each other seat gets as many as it holds
(``view.hand_sizes``). Cards a seat is known to hold (shown in the standing bid) go to it first;
no seat gets a card of a suit-class it has shown a void in. Cards are placed most-constrained
first, each to an eligible seat with probability proportional to its free places; a dead end
restarts the deal (a few tries), and as a last resort the voids are ignored so a deal always exists.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tuolaji.bots.table import CardTable
from tuolaji.bots.tracking import Knowledge

TRIES = 12


def sample_hands(
    table: CardTable, know: Knowledge, seat: int, own: Sequence[int], sizes: Sequence[int], rng: random.Random
) -> list[list[int]]:
    """Count vectors for all four seats: ``own`` for ``seat``, a consistent guess for the others."""
    for attempt in range(TRIES + 1):
        hands = _attempt(table, know, seat, own, sizes, rng, respect_voids=attempt < TRIES)
        if hands is not None:
            return hands
    raise ValueError("sample_hands: the hidden cards do not fit the other hands' sizes")


def _attempt(
    table: CardTable,
    know: Knowledge,
    seat: int,
    own: Sequence[int],
    sizes: Sequence[int],
    rng: random.Random,
    respect_voids: bool,
) -> list[list[int]] | None:
    pool = list(know.unseen)
    hands = [[0] * len(pool) for _ in range(4)]
    hands[seat] = list(own)
    free = [0 if s == seat else sizes[s] for s in range(4)]
    others = [s for s in range(4) if s != seat]
    for s in others:
        for kind, count in enumerate(know.known[s]):
            take = min(count, pool[kind], free[s])
            if take:
                hands[s][kind] += take
                pool[kind] -= take
                free[s] -= take
    cards = [kind for kind, count in enumerate(pool) for _ in range(count)]
    rng.shuffle(cards)

    def eligible(kind: int) -> list[int]:
        cls = table.cls[kind]
        return [s for s in others if not (respect_voids and cls in know.voids[s])]

    cards.sort(key=lambda kind: len(eligible(kind)))
    for kind in cards:
        seats = [s for s in eligible(kind) if free[s]]
        if not seats:
            return None
        pick = rng.randrange(sum(free[s] for s in seats))
        for s in seats:
            pick -= free[s]
            if pick < 0:
                hands[s][kind] += 1
                free[s] -= 1
                break
    return hands
