"""Reading follows backwards: which kinds a seat cannot hold, if it follows the way the heuristic does.

When a unit (a single, pair or triple, R11) is led and a seat answers with a unit of one kind from
the lead's suit-class, the heuristic (:func:`tuolaji.bots.heuristic.follow_utility`) chose that
kind over every other unit of the class it held. Another kind ``k`` whose unit would have scored
higher whatever the unknowns (the seat's chances to win the trick, between 0 and 1, and whether it
held a pair of the chosen kind) was therefore not held as such a unit: the seat held fewer than
the lead's arity of ``k`` then, and so now. Only follows are read; a lead depends on the whole hand.

These are inferences, not rules: a seat that does not follow like the heuristic (a person, or the
search, which sometimes plays another move) can contradict them. A later play of a capped kind
shows that, and the cap is dropped; the sampler treats the caps like the others and ignores them
all when no deal fits (:mod:`tuolaji.bots.sampling`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tuolaji.bots.table import CardTable
from tuolaji.bots.values import PARTNER_LATER, kind_value, points_of, utility
from tuolaji.game.view import PlayRecord
from tuolaji.rules import Preset, classify, trick_winner

EPSILON = 1e-6
"""Utilities closer than this are treated as ties (the heuristic breaks ties by the cards)."""

Prospect = tuple[float, float, bool]
"""A follow's utility at its lowest and highest chance to win, and whether that chance is the
partner's (the same unknown for every follow that leaves the partner winning)."""


def note_follow_choices(
    table: CardTable, preset: Preset, trick: Sequence[PlayRecord], kind_caps: list[dict[int, int]]
) -> None:
    """Cap, in ``kind_caps[seat][kind]``, the copies of each kind the followers of ``trick`` can
    hold (see the module docstring); drop the caps its plays contradict."""
    for play in trick:
        for kind in set(play.cards):
            kind_caps[play.seat].pop(kind, None)
    lead = trick[0].cards
    pattern = classify(lead, table.trump, preset)
    if pattern is None or pattern.length != 1 or pattern.arity > 3:
        return
    arity = pattern.arity
    lead_cls = table.cls[lead[0]]
    for index in range(1, len(trick)):
        seat, cards = trick[index].seat, trick[index].cards
        chosen = cards[0]
        if table.cls[chosen] != lead_cls or any(card != chosen for card in cards):
            continue
        before = trick[:index]
        # Holding a pair of the chosen kind makes it dearer; the single's value is its best case.
        best = _prospect(table, preset, before, seat, chosen, arity, copies=arity)
        caps = kind_caps[seat]
        for kind in table.class_kinds[lead_cls]:
            if kind == chosen or caps.get(kind, arity) < arity:
                continue
            # The other kind's worst case: held as a pair at least (dearer to spend).
            other = _prospect(table, preset, before, seat, kind, arity, copies=max(2, arity))
            if _surely_better(other, best):
                caps[kind] = arity - 1


def _prospect(
    table: CardTable, preset: Preset, before: Sequence[PlayRecord], seat: int, kind: int, arity: int, copies: int
) -> Prospect:
    """The heuristic's utility range for following ``before`` with ``arity`` cards of ``kind``."""
    unit = (kind,) * arity
    plays = [play.cards for play in before]
    stake = sum(points_of(table, cards) for cards in plays) + points_of(table, unit)
    cost = arity * kind_value(table, kind, copies)
    opponents_after = any(i % 2 == 1 for i in range(1, 4 - len(before)))
    winner = trick_winner([*plays, unit], table.trump, preset)
    if winner == len(before) or before[winner].seat == (seat + 2) % 4:
        low = 0.0 if opponents_after else 1.0
        partners = winner != len(before) and opponents_after
        return utility(low, stake, cost), utility(1.0, stake, cost), partners
    fixed = utility(PARTNER_LATER if len(before) == 1 else 0.0, stake, cost)
    return fixed, fixed, False


def _surely_better(other: Prospect, chosen: Prospect) -> bool:
    """Whether ``other`` scores above ``chosen`` for every value of the unknowns."""
    if other[2] and chosen[2]:
        # Both leave the partner winning with the same unknown chance: compare at its two ends
        # (utility is linear in it).
        return other[0] > chosen[0] + EPSILON and other[1] > chosen[1] + EPSILON
    return other[0] > chosen[1] + EPSILON
