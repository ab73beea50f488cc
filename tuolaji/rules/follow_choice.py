"""Choosing a legal follow (R23–R25): the cheapest one as a hint, or a random one for simulations.

Both walk the same construction, which can produce every legal follow: the cards the stage of
:func:`~tuolaji.rules.structure.follow_stage` requires (an exact pattern, an ``n``-card tractor, or
the tractors of an optimal decomposition), then the most pairs the rest of the budget allows, then
free cards. A :class:`_Picker` makes each choice: uniformly at random, or the cheapest.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from tuolaji.cards import KINDS, POINTS, Card

from .lead import lead_pattern
from .presets import Preset, PresetLike, get_preset
from .structure import (
    EXACT,
    EXACT_OR_SAME,
    FREE,
    SAME_COUNT,
    TRACTORS,
    StructureSolver,
    follow_stage,
    same_count_shapes,
)
from .tractors import Move, windows
from .trump import TRUMP_CLASS, Trump

Cost = tuple[int, ...]


class _Picker(Protocol):
    def pick(self, options: list[Move], cost: Callable[[Move], Cost]) -> Move: ...

    def take(self, pool: list[Card], count: int, cost: Callable[[Card], Cost]) -> list[Card]: ...


class _RandomPicker:
    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, options: list[Move], cost: Callable[[Move], Cost]) -> Move:
        return options[self.rng.randrange(len(options))]

    def take(self, pool: list[Card], count: int, cost: Callable[[Card], Cost]) -> list[Card]:
        return self.rng.sample(pool, count) if count else []


class _CheapestPicker:
    __slots__ = ()

    def pick(self, options: list[Move], cost: Callable[[Move], Cost]) -> Move:
        return min(options, key=cost)

    def take(self, pool: list[Card], count: int, cost: Callable[[Card], Cost]) -> list[Card]:
        return sorted(pool, key=cost)[:count] if count else []


_CHEAPEST = _CheapestPicker()


def legal_follow_hint(
    hand: Sequence[Card], lead: Sequence[Card], trump: Trump, preset: PresetLike = "nanning"
) -> list[Card]:
    """One legal follow (R22–R25), the cheapest sensible one, in display order.

    Within the required structure it plays the fewest points, then avoids breaking groups, then
    the lowest power. When short of the lead's suit-class (R23) it discards off-suit before
    trumps, non-point cards before point cards, and singles before cards of pairs.
    """
    follow = _choose(hand, lead, trump, get_preset(preset), _CHEAPEST)
    return sorted(follow, key=trump.sort_keys.__getitem__)


def random_legal_follow(
    hand: Sequence[Card],
    lead: Sequence[Card],
    trump: Trump,
    rng: random.Random,
    preset: PresetLike = "nanning",
) -> list[Card]:
    """A random legal follow (R22–R25); every legal follow has a nonzero probability."""
    return _choose(hand, lead, trump, get_preset(preset), _RandomPicker(rng))


def _choose(hand: Sequence[Card], lead: Sequence[Card], trump: Trump, preset: Preset, picker: _Picker) -> list[Card]:
    pattern = lead_pattern(lead, trump, preset)
    n = pattern.size
    if len(hand) < n:
        raise ValueError(f"R22: a hand of {len(hand)} cards cannot follow a lead of {n}")
    suit_class = pattern.suit_class
    classes = trump.suit_classes
    held = [card for card in hand if classes[card] == suit_class]
    if len(held) <= n:
        # R23: all of H, then discards.
        others = [card for card in hand if classes[card] != suit_class]
        hand_counts = _counts(hand)
        powers = trump.powers

        def discard_cost(card: Card) -> Cost:
            return (classes[card] == TRUMP_CLASS, POINTS[card], hand_counts[card] >= 2, powers[card])

        return held + picker.take(others, n - len(held), discard_cost)
    counts = _counts(held)
    stage = follow_stage(counts, pattern, trump, preset)
    if stage == FREE:
        return picker.take(held, n, _play_cost(counts, trump))
    chains = trump.chains[suit_class]
    if stage in (EXACT, SAME_COUNT, EXACT_OR_SAME):
        options: list[Move] = []
        if stage != SAME_COUNT:
            if pattern.is_tractor:
                options += windows(counts, chains, pattern.arity, pattern.length)
            else:
                options += [(pattern.arity, (k,)) for k in trump.class_kinds[suit_class] if counts[k] >= pattern.arity]
        if stage != EXACT:
            for arity, length in same_count_shapes(n):
                options += windows(counts, chains, arity, length)
        arity, kinds = picker.pick(list(dict.fromkeys(options)), _move_cost(counts, trump))
        return [kind for kind in kinds for _ in range(arity)]
    solver = StructureSolver(counts, chains, trump.class_kinds[suit_class])
    chosen: list[Card] = []
    budget = n
    if stage == TRACTORS:
        while True:
            size, moves = solver.optimal_moves(budget)
            if not moves:
                break
            move = picker.pick(moves, _move_cost(counts, trump))
            solver.apply(move)
            budget -= size
            chosen += [kind for kind in move[1] for _ in range(move[0])]
    left = solver.counts
    kinds = trump.class_kinds[suit_class]
    slots = [kind for kind in kinds for _ in range(left[kind] // 2)]
    for kind in picker.take(slots, min(budget // 2, len(slots)), _play_cost(counts, trump, pair=True)):
        left[kind] -= 2
        chosen += (kind, kind)
    pool = [kind for kind in kinds for _ in range(left[kind])]
    return chosen + picker.take(pool, n - len(chosen), _play_cost(left, trump))


def _counts(cards: Sequence[Card]) -> list[int]:
    counts = [0] * KINDS
    for card in cards:
        counts[card] += 1
    return counts


def _play_cost(counts: Sequence[int], trump: Trump, pair: bool = False) -> Callable[[Card], Cost]:
    powers = trump.powers
    whole = 2 if pair else 1

    def cost(card: Card) -> Cost:
        return (POINTS[card], counts[card] > whole, powers[card])

    return cost


def _move_cost(counts: Sequence[int], trump: Trump) -> Callable[[Move], Cost]:
    powers = trump.powers

    def cost(move: Move) -> Cost:
        arity, kinds = move
        return (
            arity * sum(POINTS[k] for k in kinds),
            sum(counts[k] > arity for k in kinds),
            sum(powers[k] for k in kinds),
        )

    return cost
