"""What a play-out is worth to the searching seat's team: the expected level change of its
estimated final score (R36), see :mod:`tuolaji.bots.montecarlo`."""

from __future__ import annotations

import math
from collections.abc import Sequence

from tuolaji.bots.knowledge.cardinfo import CardTable
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.montecarlo.config import SearchConfig
from tuolaji.bots.playouts.rollout import Playout
from tuolaji.bots.policy.values import card_value
from tuolaji.rules import TRUMP_CLASS, hand_result
from tuolaji.rules.scoring import MAX_SCORE


def signed_levels(score: int) -> int:
    """The attackers' level change for a final score (R36): negative when the defenders win."""
    winner, levels = hand_result(score)
    return levels if winner == "attackers" else -levels


LEVEL_STEPS = tuple(score for score in range(1, MAX_SCORE + 1) if signed_levels(score) != signed_levels(score - 1))
"""The scores at which the attackers' level change goes up by one (R36)."""


def expected_levels(score: float, spread: float) -> float:
    """The attackers' expected level change when the final score is ``score`` give or take a
    normal error of standard deviation ``spread`` (0: exactly ``score``)."""
    if spread <= 0:
        return signed_levels(max(0, min(MAX_SCORE, round(score))))
    low = signed_levels(0)
    return low + sum(0.5 * math.erfc((step - 0.5 - score) / (spread * math.sqrt(2))) for step in LEVEL_STEPS)


def team_value(sit: Situation, playout: Playout, config: SearchConfig) -> float:
    """The play-out's worth for ``sit.seat``'s team (see :mod:`tuolaji.bots.montecarlo`)."""
    score = playout.points_taken + playout.gained
    spread = 0.0
    if not playout.finished:
        attackers = 1 - sit.dealer % 2
        if config.cut_model:
            expected, left = learned_share(playout.table, playout.hands, attackers, playout.leader, config.cut_weights)
        else:
            expected, left = points_left_share(playout.table, playout.hands, attackers, config.share_slope)
        score += expected
        spread = config.spread * left
    score = max(0, min(MAX_SCORE, score))
    attackers_value = expected_levels(score, spread) + config.score_weight * score
    return -attackers_value if sit.defending else attackers_value


def points_left_share(
    table: CardTable, hands: Sequence[Sequence[int]], attackers: int, share_slope: float
) -> tuple[int, int]:
    """Of the card points still in the four ``hands`` (count vectors) of an unfinished play-out, how
    many the ``attackers`` (team 0 or 1) are expected to take, and how many there are:
    ``0.5 + share_slope × (s − 0.5)`` of them, within none and all, where ``s`` is their share of
    the strength left."""
    strength = [0.0, 0.0]
    left = 0
    for seat, hand in enumerate(hands):
        for kind, count in enumerate(hand):
            if count:
                strength[seat % 2] += count * card_value(table, hand, kind)
                left += count * table.points[kind]
    share = strength[attackers] / (sum(strength) or 1.0)
    share += (share_slope - 1.0) * (share - 0.5)
    return round(left * max(0.0, min(1.0, share))), left


CUT_FEATURES = ("strength", "strength_late", "trumps", "top_trumps", "points_held", "lead", "ruffs")
"""What :func:`cut_features` describes, each the attackers' side less one half (or their edge)."""


def cut_features(table: CardTable, hands: Sequence[Sequence[int]], attackers: int, leader: int) -> tuple[float, ...]:
    """The four ``hands`` at a play-out's cut, from the ``attackers``' side (team 0 or 1), the
    ``leader`` of the next trick to lead: their share of the strength left (as in
    :func:`points_left_share`), that share times the share of the cards still in the hands, their
    share of the trumps, of the trumps in the top four powers, of the card points in the hands, 1
    if they lead next, and their edge in side suits they can ruff (a void with trumps in hand)
    less the defenders', over eight; each share less one half (a half when there is none)."""
    strength, trumps, tops, points = [0.0, 0.0], [0, 0], [0, 0], [0, 0]
    ruffs = [0, 0]
    top_power = sorted({table.power[kind] for kind in table.class_kinds[TRUMP_CLASS]})[-4:]
    cards = 0
    for seat, hand in enumerate(hands):
        team = seat % 2
        held = [0] * 5
        for kind, count in enumerate(hand):
            if count:
                strength[team] += count * card_value(table, hand, kind)
                cls = table.cls[kind]
                held[cls] += count
                points[team] += count * table.points[kind]
                if cls == TRUMP_CLASS:
                    trumps[team] += count
                    tops[team] += count * (table.power[kind] in top_power)
        cards += sum(held)
        if held[TRUMP_CLASS]:
            ruffs[team] += sum(1 for cls in range(4) if not held[cls] and table.class_kinds[cls])

    def share(pair: Sequence[float]) -> float:
        return pair[attackers] / sum(pair) - 0.5 if sum(pair) else 0.0

    return (
        share(strength),
        share(strength) * cards / (4 * 54),
        share(trumps),
        share(tops),
        share(points),
        float(leader % 2 == attackers) - 0.5,
        (ruffs[attackers] - ruffs[1 - attackers]) / 8,
    )


def learned_share(
    table: CardTable, hands: Sequence[Sequence[int]], attackers: int, leader: int, weights: Sequence[float]
) -> tuple[int, int]:
    """As :func:`points_left_share`, the attackers' share of the points left being one half plus
    ``weights`` (fitted by ``benchmarks/cutoff_share.py --learn``) times :func:`cut_features`."""
    features = cut_features(table, hands, attackers, leader)
    left = sum(count * table.points[kind] for hand in hands for kind, count in enumerate(hand))
    share = 0.5 + sum(w * f for w, f in zip(weights, features, strict=True))
    return round(left * max(0.0, min(1.0, share))), left
