"""The race of the candidate moves over the same deals, and the pick among them (see
:mod:`tuolaji.bots.montecarlo`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.montecarlo.config import SearchConfig
from tuolaji.bots.montecarlo.deals import Deals
from tuolaji.bots.montecarlo.value import team_value
from tuolaji.bots.playouts.rollout import Playout


def race(
    sit: Situation, candidates: Sequence[tuple[int, ...]], deals: Deals, config: SearchConfig
) -> list[list[float]]:
    """Each candidate's values over the ``deals`` it was played out on (see :mod:`tuolaji.bots.montecarlo`):
    deals are played out for every candidate still in the race; an alternative leaves it once it
    cannot plausibly beat the heuristic's choice (index 0) by ``switch_margin``."""
    margin = config.switch_margin
    horizon = config.horizon_for(sit.hand_size)
    units = float(config.playouts_for(sit.hand_size, horizon))
    values: list[list[float]] = [[] for _ in candidates]
    active = list(range(len(candidates)))
    while len(active) > 1 and units >= len(active) and len(values[0]) < config.max_deals:
        hands, cost = next(deals)
        units -= len(active) + cost
        for index in active:
            playout = Playout.from_situation(sit, hands)
            playout.run(candidates[index], horizon)
            values[index].append(team_value(sit, playout, config))
        if len(values[0]) >= config.min_deals:
            active = [0] + [i for i in active[1:] if _upper_gain(values[0], values[i], config) >= margin]
    return values


def pick(values: Sequence[Sequence[float]], config: SearchConfig) -> int:
    """The candidate to play given each one's values over the deals (index 0, the heuristic's
    choice, played on every deal; the others on the first deals, paired): the alternative whose gain
    over index 0 is surest, if its mean gain reaches ``switch_margin`` and its gain less ``switch_z``
    standard errors is above zero; else 0."""
    gains = {i: paired_gain(values[0], values[i]) for i in range(1, len(values)) if values[i]}
    sure = {i: mean - config.switch_z * error for i, (mean, error) in gains.items() if mean >= config.switch_margin}
    best = max(sure, key=lambda i: (sure[i], -i), default=0)
    return best if best and sure[best] > 0 else 0


def _upper_gain(base: Sequence[float], other: Sequence[float], config: SearchConfig) -> float:
    """An optimistic bound on the mean gain of ``other`` over ``base`` (paired deals)."""
    mean, error = paired_gain(base, other)
    return mean + config.race_z * error


def paired_gain(base: Sequence[float], other: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``other − base`` over the deals both were played on."""
    diffs = [o - b for b, o in zip(base, other, strict=False)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(variance / n)
