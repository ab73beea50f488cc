"""A slow, literal reference for R8, R11–R12 and R22–R25, written without the engine's tables.

Follow legality enumerates every ``n``-card subset of ``H`` and compares the structure key of
R24 computed by brute force (every decomposition into disjoint tractors).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from tuolaji.cards import BIG_JOKER, SMALL_JOKER, Card

TRUMP = 4
Key = tuple[object, ...]


def ref_class(card: Card, level: int, suit: int) -> int:
    """R8: jokers, level cards, 2s and the trump suit are trumps; others their suit."""
    if card >= SMALL_JOKER:
        return TRUMP
    card_suit, rank = divmod(card, 13)
    if rank in (level, 0) or card_suit == suit:
        return TRUMP
    return card_suit


def ref_positions(card: Card, level: int, suit: int) -> list[tuple[str, int]]:
    """R12: the (sequence, position) places of a kind; off-suit level cards and 2s have none."""
    if card == SMALL_JOKER:
        return [("jokers", 1)]
    if card == BIG_JOKER:
        return [("jokers", 2)]
    card_suit, rank = divmod(card, 13)
    natural = rank + 2  # 2..14
    if card_suit == suit:
        return [("trump", 1), ("trump", 14)] if natural == 14 else [("trump", natural)]
    if rank in (level, 0):
        return []
    # The level rank is missing, so natural values either side of it are not consecutive.
    return [(f"suit{card_suit}", natural)]


def ref_tractor_shape(cards: Sequence[Card], level: int, suit: int) -> tuple[int, int] | None:
    """(arity, length) if the cards are one tractor (R11–R12), else None."""
    counts = Counter(cards)
    arities = set(counts.values())
    if len(counts) < 2 or len(arities) != 1:
        return None
    arity = arities.pop()
    if arity < 2 or len({ref_class(card, level, suit) for card in counts}) != 1:
        return None
    for places in itertools.product(*(ref_positions(card, level, suit) for card in counts)):
        if len({name for name, _ in places}) != 1:
            continue
        positions = sorted(position for _, position in places)
        if positions == list(range(positions[0], positions[0] + len(positions))):
            return arity, len(counts)
    return None


def _sub_tractors(counts: Counter[Card], level: int, suit: int) -> list[tuple[int, tuple[Card, ...]]]:
    kinds = sorted(counts)
    found = []
    for arity in (2, 3, 4):
        usable = [kind for kind in kinds if counts[kind] >= arity]
        for size in range(2, len(usable) + 1):
            for chosen in itertools.combinations(usable, size):
                if ref_tractor_shape([k for k in chosen for _ in range(arity)], level, suit):
                    found.append((arity, chosen))
    return found


def ref_tractors_and_pairs(cards: Sequence[Card], level: int, suit: int) -> tuple[tuple[int, ...], int]:
    """max over decompositions of P into disjoint tractors of (sizes largest first, pairs outside)."""
    counts = Counter(cards)
    candidates = _sub_tractors(counts, level, suit)
    best: tuple[tuple[int, ...], int] = ((), sum(c // 2 for c in counts.values()))

    def search(start: int, sizes: list[int]) -> None:
        nonlocal best
        value = (tuple(sorted(sizes, reverse=True)), sum(c // 2 for c in counts.values()))
        best = max(best, value)
        for index in range(start, len(candidates)):
            arity, kinds = candidates[index]
            if all(counts[k] >= arity for k in kinds):
                for k in kinds:
                    counts[k] -= arity
                search(index, [*sizes, arity * len(kinds)])
                for k in kinds:
                    counts[k] += arity

    search(0, [])
    return best


@lru_cache(maxsize=200_000)
def ref_key(play: tuple[Card, ...], arity: int, length: int, level: int, suit: int, merged: bool) -> Key:
    """The literal R24 key of a sorted play, for a lead of ``arity`` × ``length`` (R25 if merged)."""
    n = arity * length
    shape = ref_tractor_shape(play, level, suit)
    exact = len(set(play)) == 1 and len(play) == arity if length == 1 else shape == (arity, length)
    same = shape is not None and len(play) == n and (length >= 2 or arity == 4)
    if length >= 2:
        tractors, pairs = ref_tractors_and_pairs(play, level, suit)
    else:
        tractors, pairs = (), sum(c // 2 for c in Counter(play).values())
    if merged:
        return (exact or same, tractors, pairs)
    return (exact, same, tractors, pairs)


@lru_cache(maxsize=20_000)
def ref_legal_set(
    held: tuple[Card, ...], arity: int, length: int, level: int, suit: int, merged: bool
) -> frozenset[tuple[Card, ...]]:
    """Every legal follow (sorted) taken from ``H`` when ``|H| > n``: the subsets with the best key."""
    n = arity * length
    subsets = set(itertools.combinations(sorted(held), n))
    keys = {subset: ref_key(subset, arity, length, level, suit, merged) for subset in subsets}
    best = max(keys.values())
    return frozenset(subset for subset, key in keys.items() if key == best)


def ref_is_legal_follow(
    hand: Sequence[Card],
    lead_shape: tuple[int, int, int],
    play: Sequence[Card],
    level: int,
    suit: int,
    merged: bool,
) -> bool:
    """R22–R25 by enumeration; ``lead_shape`` is (suit-class, arity, length)."""
    suit_class, arity, length = lead_shape
    n = arity * length
    if len(play) != n or Counter(play) - Counter(hand):
        return False
    held = tuple(sorted(card for card in hand if ref_class(card, level, suit) == suit_class))
    if len(held) <= n:
        return not Counter(held) - Counter(play)
    if any(ref_class(card, level, suit) != suit_class for card in play):
        return False
    return tuple(sorted(play)) in ref_legal_set(held, arity, length, level, suit, merged)
