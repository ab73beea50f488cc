"""Random valid leads (R13), for random players and search rollouts."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tuolaji.cards import Card

from .trump import Trump


def random_valid_lead(hand: Sequence[Card], trump: Trump, rng: random.Random) -> list[Card]:
    """A random valid lead from ``hand`` (R13): every unit and tractor the hand holds can come out.

    A card of the hand is drawn, then an arity up to the number of its copies, then the unit or
    one of the tractors of that arity through the card (R11–R12), uniformly.
    """
    if not hand:
        raise ValueError("random_valid_lead: the hand is empty")
    card = rng.choice(hand)
    counts: dict[Card, int] = {}
    for held in hand:
        counts[held] = counts.get(held, 0) + 1
    arity = rng.randint(1, counts[card])
    choices: list[Sequence[Card]] = [[card]]
    if arity >= 2:
        for kinds, cap in trump.chains[trump.suit_classes[card]]:
            for position, kind in enumerate(kinds):
                if kind == card:
                    choices.extend(_windows_through(kinds, cap, position, arity, counts))
    chosen = choices[rng.randrange(len(choices))]
    return [kind for kind in chosen for _ in range(arity)]


def _windows_through(
    kinds: Sequence[Card], cap: int, position: int, arity: int, counts: dict[Card, int]
) -> list[Sequence[Card]]:
    """Every stretch of ``kinds`` of 2…``cap`` kinds through ``position`` whose kinds all have ``arity`` copies."""
    low = position
    while low > 0 and counts.get(kinds[low - 1], 0) >= arity:
        low -= 1
    high = position
    while high + 1 < len(kinds) and counts.get(kinds[high + 1], 0) >= arity:
        high += 1
    return [
        kinds[start : end + 1]
        for start in range(low, position + 1)
        for end in range(max(position, start + 1), min(high, start + cap - 1) + 1)
    ]
