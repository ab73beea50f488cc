"""Candidate follows (R22–R25): the distinct ways a hand may answer a lead, built by structure.

The candidates are built the way R24 ranks follows: an exact pattern (or, when there is none,
a tractor of the same size, R24/R25), else the largest tractors, then pairs, then singles; a
short hand plays all its cards of the led suit-class and fills from elsewhere (R23), and a void
hand may also ruff with a trump pattern (R27). Each candidate is built in a few flavours (cheapest,
strongest, richest in points). Callers still check the move they pick with the rules engine
(:func:`tuolaji.rules.is_legal_follow`) before playing it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tuolaji.bots.knowledge.cardinfo import CardTable
from tuolaji.bots.knowledge.shapes import Shape, class_size
from tuolaji.rules import TRUMP_CLASS, Preset, classify
from tuolaji.rules.structure import same_count_shapes
from tuolaji.rules.tractors import windows

KindKey = Callable[[int], tuple[int, ...]]


def _flavours(table: CardTable, counts: Sequence[int]) -> list[KindKey]:
    """Orders in which to spend kinds: cheapest first, strongest first, most points first."""
    points, step, cls = table.points, table.step, table.cls
    return [
        lambda k: (points[k] > 0, cls[k] == TRUMP_CLASS, counts[k] >= 2, step[k]),
        lambda k: (-step[k], points[k] > 0),
        lambda k: (cls[k] == TRUMP_CLASS, -points[k], counts[k] >= 2, step[k]),
    ]


def exact_shapes(counts: Sequence[int], table: CardTable, cls: int, arity: int, length: int) -> list[Shape]:
    """Every unit or tractor of exactly this arity and length in class ``cls`` (cut from bigger groups)."""
    if length == 1:
        return [Shape((kind,), arity) for kind in table.class_kinds[cls] if counts[kind] >= arity]
    found = {kinds for _, kinds in windows(counts, table.trump.chains[cls], arity, length)}
    return [Shape(kinds, arity) for kinds in sorted(found)]


def tractor_shapes(counts: Sequence[int], table: CardTable, cls: int, size: int, min_arity: int = 2) -> list[Shape]:
    """Every single tractor of ``size`` cards, of any arity from ``min_arity`` (R24 same_count)."""
    return [
        shape
        for arity, length in same_count_shapes(size)
        if arity >= min_arity
        for shape in exact_shapes(counts, table, cls, arity, length)
    ]


def _fill_structured(
    counts: Sequence[int], table: CardTable, cls: int, arity: int, size: int, tractor_lead: bool, key: KindKey
) -> list[int]:
    """Greedy R24 fill when no exact pattern exists: largest tractors (tractor leads only), then
    pairs, then singles, each time choosing kinds in ``key`` order."""
    avail = list(counts)
    chosen: list[int] = []
    remaining = size
    if tractor_lead:
        while remaining >= 4:
            options = [
                shape
                for a in (4, 3, 2)
                for length in range(remaining // a, 1, -1)
                for shape in exact_shapes(avail, table, cls, a, length)
            ]
            if not options:
                break
            best = max(options, key=lambda s: (s.size, [-v for k in s.kinds for v in key(k)]))
            for card in best.cards():
                avail[card] -= 1
            chosen += best.cards()
            remaining -= best.size
    kinds = sorted(table.class_kinds[cls], key=key)
    if arity >= 2:
        for kind in kinds:
            while remaining >= 2 and avail[kind] >= 2:
                avail[kind] -= 2
                chosen += [kind, kind]
                remaining -= 2
    for kind in kinds:
        while remaining and avail[kind]:
            avail[kind] -= 1
            chosen.append(kind)
            remaining -= 1
    return chosen


def _fill_from(counts: Sequence[int], kinds: Sequence[int], size: int) -> list[int]:
    avail = list(counts)
    chosen: list[int] = []
    for kind in kinds:
        while len(chosen) < size and avail[kind]:
            avail[kind] -= 1
            chosen.append(kind)
    return chosen


def follow_candidates(
    counts: Sequence[int], lead: Sequence[int], table: CardTable, preset: Preset
) -> list[tuple[int, ...]]:
    """Distinct candidate follows to ``lead`` from the hand ``counts``, each sorted by kind."""
    pattern = classify(lead, table.trump, preset)
    size = len(lead)
    cls = table.cls[lead[0]]
    arity, length = (pattern.arity, pattern.length) if pattern else (1, size)
    held = class_size(counts, table, cls)
    flavours = _flavours(table, counts)
    plays: list[list[int]] = []
    if held > size:
        shapes = exact_shapes(counts, table, cls, arity, length)
        same_size = length >= 2 or arity == 4
        if same_size and (preset.merged_exact or not shapes):
            shapes += tractor_shapes(counts, table, cls, size)
        if shapes:
            plays = [list(shape.cards()) for shape in shapes]
        else:
            plays = [_fill_structured(counts, table, cls, arity, size, length >= 2, key) for key in flavours]
    else:
        own = [kind for kind in table.class_kinds[cls] for _ in range(counts[kind])]
        rest = [0 if table.cls[kind] == cls else counts[kind] for kind in range(len(counts))]
        others = [kind for kind in range(len(counts)) if rest[kind]]
        for key in flavours:
            plays.append(own + _fill_from(rest, sorted(others, key=key), size - held))
        if held == 0 and cls != TRUMP_CLASS:
            ruffs = exact_shapes(counts, table, TRUMP_CLASS, arity, length)
            ruffs += [s for s in tractor_shapes(counts, table, TRUMP_CLASS, size, arity) if s.arity > arity]
            if length >= 2 and size == 4:
                ruffs += exact_shapes(counts, table, TRUMP_CLASS, 4, 1)
            plays += [list(shape.cards()) for shape in ruffs]
    return sorted({tuple(sorted(play)) for play in plays})
