"""The heuristic's card play (auto-play, 託管): leads and follows with intent, in well under 10 ms.

Every candidate move gets a utility in points for the seat's team::

    utility = (2·P(win) − 1) · (points at stake) + control · P(win) − λ · (value of the cards spent)

``P(win)`` comes from the rules engine's trick winner for the cards already on the table and, for
the seats still to play, from card counting (:mod:`tuolaji.bots.policy.risk`): can an opponent still to
play hold a higher pattern of the same shape, or ruff because it has shown (or probably has) a void?
A partner's winning play makes feeding points (送分) worth it; an opponent's makes beating it worth
the cards when the trick is rich or the win is cheap. Leads cash sure winners (bigger patterns and
side suits first), put a partner with a shown void in to ruff, and otherwise lead cheap cards from
short suits. Late in the hand the strongest trump pair or tractor is kept for the last trick, whose
points count times the lead's size (摳底, R35). Follows come from :mod:`tuolaji.bots.policy.candidates` and the
chosen one is checked with :func:`tuolaji.rules.is_legal_follow`; the rules engine's hint is the
fallback, so a follow is always legal (R22–R25).
"""

from __future__ import annotations

from collections.abc import Sequence

from tuolaji.bots.knowledge.shapes import Shape, class_size, lead_shapes
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.policy.candidates import follow_candidates
from tuolaji.bots.policy.risk import beat_risk
from tuolaji.bots.policy.values import (
    KEEP,
    PARTNER_FEED,
    PARTNER_LATER,
    SHORT_SUIT,
    TRUMP_LEAD,
    lead_gain,
    partner_ruff_bonus,
    points_of,
    spend_cost,
    utility,
)
from tuolaji.rules import TRUMP_CLASS, is_legal_follow, legal_follow_hint, trick_winner

RESERVE_FROM = 12
"""From this many cards left, keep the strongest trump pair or tractor for the last trick (摳底)."""


def opponents_after(seat: int, played: int) -> list[int]:
    """Opponents still to play in the trick after ``seat`` (``played`` plays are on the table)."""
    return [(seat + i) % 4 for i in range(1, 4 - played) if i % 2 == 1]


def reserve(sit: Situation) -> Shape | None:
    """The trump pair or tractor kept for the last trick once the hand is short (摳底, R35)."""
    if sit.hand_size > RESERVE_FROM:
        return None
    table = sit.table
    best: Shape | None = None
    for shape in lead_shapes(sit.counts, table):
        if shape.size < 2 or table.cls[shape.kinds[0]] != TRUMP_CLASS or shape.size == sit.hand_size:
            continue
        if best is None or (shape.size, table.power[shape.kinds[-1]]) > (
            best.size,
            table.power[best.kinds[-1]],
        ):
            best = shape
    return best


def lead_utility(sit: Situation, shape: Shape, kept: Shape | None) -> float:
    """Utility of leading ``shape`` (see the module docstring)."""
    table = sit.table
    cards = shape.cards()
    cls = table.cls[shape.kinds[0]]
    opponents = opponents_after(sit.seat, 0)
    risk = beat_risk(sit, cards, cls, opponents)
    stake = points_of(table, cards) + PARTNER_FEED
    utility = lead_gain(risk, stake, shape.size, spend_cost(table, sit.counts, cards))
    if cls == TRUMP_CLASS:
        utility -= TRUMP_LEAD
    elif shape.size == 1:
        utility += SHORT_SUIT / class_size(sit.counts, table, cls)
        utility += partner_ruff_bonus(sit.know.voids, sit.seat, cls)
    if kept is not None and set(shape.kinds) & set(kept.kinds):
        utility -= KEEP
    return utility


def ranked_leads(sit: Situation) -> list[tuple[int, ...]]:
    """The hand's leads (units and maximal tractors, all valid, R13), best :func:`lead_utility` first."""
    kept = reserve(sit)
    shapes = lead_shapes(sit.counts, sit.table)
    shapes.sort(key=lambda shape: (-lead_utility(sit, shape, kept), shape.kinds))
    return [shape.cards() for shape in shapes]


def follow_utility(sit: Situation, play: tuple[int, ...]) -> float:
    """Utility of following with ``play`` (see the module docstring)."""
    table = sit.table
    trick = sit.trick
    plays = [cards for _, cards in trick]
    lead_cls = table.cls[plays[0][0]]
    opponents = opponents_after(sit.seat, len(trick))
    stake = sum(points_of(table, cards) for cards in plays) + points_of(table, play)
    winner = trick_winner([*plays, play], table.trump, sit.preset)
    if winner == len(trick):
        win = 1.0 - beat_risk(sit, play, lead_cls, opponents)
    elif trick[winner][0] == sit.partner:
        win = 1.0 - beat_risk(sit, trick[winner][1], lead_cls, opponents)
    else:
        win = PARTNER_LATER if len(trick) == 1 else 0.0
    return utility(win, stake, spend_cost(table, sit.counts, play))


def ranked_follows(sit: Situation) -> list[tuple[int, ...]]:
    """The candidate follows (:mod:`tuolaji.bots.policy.candidates`), best :func:`follow_utility` first;
    not yet checked for legality."""
    candidates = follow_candidates(sit.counts, sit.trick[0][1], sit.table, sit.preset)
    return sorted(candidates, key=lambda play: (-follow_utility(sit, play), play))


def legal_follows(sit: Situation, ranked: Sequence[tuple[int, ...]], limit: int) -> list[tuple[int, ...]]:
    """The first ``limit`` of ``ranked`` that the rules engine accepts (R22–R25); the engine's
    hint when none is."""
    hand = sit.hand()
    lead = sit.trick[0][1]
    trump, preset = sit.table.trump, sit.preset
    legal: list[tuple[int, ...]] = []
    for play in ranked:
        if is_legal_follow(hand, lead, play, trump, preset):
            legal.append(play)
            if len(legal) == limit:
                break
    return legal or [tuple(sorted(legal_follow_hint(hand, lead, trump, preset)))]


def best_plays(sit: Situation, limit: int) -> list[tuple[int, ...]]:
    """The heuristic's ``limit`` best moves for the seat to move, its choice first: its best legal
    follows (R22–R25; the rules engine's hint if none of :func:`ranked_follows` is legal) or its best
    valid leads (R13)."""
    if sit.trick:
        return legal_follows(sit, ranked_follows(sit), limit)
    return ranked_leads(sit)[:limit]


def choose_play(sit: Situation) -> tuple[int, ...]:
    """The heuristic's lead or follow for the seat to move: the first of :func:`best_plays`."""
    return best_plays(sit, 1)[0]
