"""Determinization: deal the hidden cards to the other three seats consistently with the view.

The hidden cards are exactly ``Knowledge.unseen``; each other seat gets as many as it holds
(``view.hand_sizes``). Cards a seat is known to hold (level cards shown in its bids) go to it first;
no seat gets a card of a suit-class it has shown a void in, nor more copies of a kind than its caps
allow (it has shown it holds no pair there, :func:`tuolaji.bots.knowledge.tracking.note_trick`). Seats
are dealt one at a time, the one with the least slack first: it takes the cards the seats after it
may not hold, then a uniformly random choice of the cards it may hold. A dead end restarts the deal
(a few tries); as a last resort the voids and caps are dropped, so a deal always exists.

Given ``weights`` (per seat and kind, positive), a seat's free choice is drawn in proportion to
them instead of uniformly (weighted sampling without replacement, Efraimidis and Spirakis 2006: each
card's key is ``log(u) / weight`` for a uniform ``u``, the largest keys first); what a seat must and
may hold is decided exactly as without them, so the voids, caps and known cards hold either way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from tuolaji.bots.knowledge.cardinfo import CardTable
from tuolaji.bots.knowledge.tracking import Knowledge
from tuolaji.cards import DECKS

TRIES = 12
"""Deals tried keeping to the voids and caps before they are dropped."""


def sample_hands(
    table: CardTable,
    know: Knowledge,
    seat: int,
    own: Sequence[int],
    sizes: Sequence[int],
    rng: random.Random,
    weights: Sequence[Sequence[float]] | None = None,
) -> list[list[int]]:
    """Count vectors for all four seats: ``own`` for ``seat``, a consistent guess for the others
    (drawn in proportion to ``weights[seat][kind]`` if given, see the module docstring)."""
    for trust in (*(True for _ in range(TRIES)), False):
        hands = _attempt(table, know, seat, own, sizes, rng, trust, weights)
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
    trust: bool,
    weights: Sequence[Sequence[float]] | None,
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

    def room(s: int, kind: int) -> int:
        """How many more cards of ``kind`` seat ``s`` may take."""
        if not trust:
            return pool[kind]
        cls = table.cls[kind]
        if cls in know.voids[s]:
            return 0
        cap = know.caps[s].get(cls, DECKS)
        return max(0, min(pool[kind], cap - hands[s][kind]))

    waiting = list(others)
    while waiting:
        # The seat with the least slack (cards it may take beyond its free places) is dealt first.
        s = min(waiting, key=lambda t: sum(room(t, kind) for kind in range(len(pool))) - free[t])
        waiting.remove(s)
        for kind in range(len(pool)):
            # Cards the seats still waiting cannot take must go to this one.
            forced = pool[kind] - sum(room(t, kind) for t in waiting)
            if forced > 0:
                if forced > room(s, kind) or forced > free[s]:
                    return None
                hands[s][kind] += forced
                pool[kind] -= forced
                free[s] -= forced
        cards = _order([kind for kind in range(len(pool)) for _ in range(room(s, kind))], weights, s, rng)
        for kind in cards:
            if not free[s]:
                break
            if room(s, kind):
                hands[s][kind] += 1
                pool[kind] -= 1
                free[s] -= 1
        if free[s]:
            return None
    return hands


def _order(cards: list[int], weights: Sequence[Sequence[float]] | None, seat: int, rng: random.Random) -> list[int]:
    """``cards`` shuffled, or with ``weights`` in a random order where each card comes early in
    proportion to its kind's weight for ``seat``."""
    if weights is None:
        rng.shuffle(cards)
        return cards
    keys = [math.log(1.0 - rng.random()) / weights[seat][kind] for kind in cards]
    order = sorted(range(len(cards)), key=keys.__getitem__, reverse=True)
    return [cards[index] for index in order]
