"""Card-counting estimates: how likely an opponent still to play beats a play (R27, R28).

The hidden cards (``Knowledge.unseen``) are spread over the three other hands; each one is in a
given hand with probability ``share`` = that hand's size / all hidden cards. An opponent beats a
play by holding a higher pattern of the same shape in the same suit-class, or, void in the led
off-suit (shown, or likely when few cards of it are hidden), by ruffing with a trump pattern.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from math import comb

from tuolaji.bots.knowledge.cardinfo import CardTable
from tuolaji.bots.knowledge.shapes import class_runs
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.cards import DECKS
from tuolaji.rules import TRUMP_CLASS, Pattern, Preset, classify
from tuolaji.rules.tractors import run_windows

Tails = tuple[tuple[float, ...], ...]
"""``tails[copies][need]``: P(a hand holds at least ``need`` of ``copies`` hidden cards of a kind)."""


@lru_cache(maxsize=512)
def tails_for(share: float) -> Tails:
    """The table of :data:`Tails` when each hidden card is in the hand with probability ``share``
    (callers round ``share`` to 1/256 so the cache stays small)."""
    rows = []
    for copies in range(DECKS + 1):
        exact = [comb(copies, k) * share**k * (1.0 - share) ** (copies - k) for k in range(copies + 1)]
        rows.append(tuple(max(0.0, sum(exact[need:])) if need <= copies else 0.0 for need in range(DECKS + 1)))
    return tuple(rows)


def holds_higher(
    table: CardTable,
    unseen: Sequence[int],
    shape: Pattern,
    cls: int,
    above: int,
    tails: Tails,
    preset: Preset,
) -> float:
    """P(a hand holds a pattern of ``shape``'s arity and length in class ``cls`` whose top (R9
    power for units, R14 top for tractors) is above ``above``)."""
    arity, length = shape.arity, shape.length
    miss = 1.0
    if length == 1:
        for kind in table.class_kinds[cls]:
            if table.power[kind] > above and unseen[kind] >= arity:
                miss *= 1.0 - tails[unseen[kind]][arity]
        return 1.0 - miss
    for run in class_runs(unseen, table, cls, arity):
        for window in run_windows(run, length):
            found = classify([kind for kind in window for _ in range(arity)], table.trump, preset)
            if found is not None and found.top > above:
                chance = 1.0
                for kind in window:
                    chance *= tails[unseen[kind]][arity]
                miss *= 1.0 - chance
    return 1.0 - miss


def beat_risk(sit: Situation, cards: Sequence[int], lead_cls: int, opponents: Sequence[int]) -> float:
    """P(one of ``opponents``, still to play, beats ``cards`` in a trick led in ``lead_cls``).

    ``cards`` is a lead or the play currently winning. A play that is not one pattern cannot win
    (R27), so its risk is 1.
    """
    if not opponents:
        return 0.0
    table, preset = sit.table, sit.preset
    pattern = classify(cards, table.trump, preset)
    if pattern is None:
        return 1.0
    unseen = sit.know.unseen
    class_hidden = sit.class_hidden
    hidden = sum(class_hidden)
    if hidden == 0:
        return 0.0
    share = min(1.0, sit.hand_size / hidden)
    tails = tails_for(round(share * 256) / 256)
    lead_hidden = class_hidden[lead_cls]
    memo = sit.risk_memo

    def higher(cls: int, above: int) -> float:
        # The same for every opponent and every play of one shape: computed once per decision.
        key = (pattern.arity, pattern.length, cls, above)
        found = memo.get(key)
        if found is None:
            found = memo[key] = holds_higher(table, unseen, pattern, cls, above, tails, preset)
        return found

    return opponents_beat(pattern, lead_cls, opponents, sit.know.voids, share, lead_hidden, higher)


def opponents_beat(
    pattern: Pattern,
    lead_cls: int,
    opponents: Sequence[int],
    voids: Sequence[set[int]],
    share: float,
    lead_hidden: int,
    higher: Callable[[int, int], float],
) -> float:
    """P(one of ``opponents`` beats a play of ``pattern`` in a trick led in ``lead_cls``), each
    opponent holding a hidden card with probability ``share``, ``lead_hidden`` cards of the led
    class hidden, and ``higher(cls, above)`` = P(a hand holds a pattern of the play's shape in class
    ``cls`` above ``above``)."""
    survive = 1.0
    for opponent in opponents:
        void = 1.0 if lead_cls in voids[opponent] else (1.0 - share) ** lead_hidden
        beat = 0.0
        if pattern.suit_class == lead_cls:
            if lead_cls not in voids[opponent]:
                beat = higher(lead_cls, pattern.top)
            if lead_cls != TRUMP_CLASS and TRUMP_CLASS not in voids[opponent]:
                ruff = void * higher(TRUMP_CLASS, -1)
                beat = 1.0 - (1.0 - beat) * (1.0 - ruff)
        elif TRUMP_CLASS not in voids[opponent]:
            beat = void * higher(TRUMP_CLASS, pattern.top)
        survive *= 1.0 - beat
    return 1.0 - survive
