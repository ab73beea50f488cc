"""Reading plays backwards: which kinds a seat cannot hold, if it plays the way the heuristic does.

The heuristic (:mod:`tuolaji.bots.heuristic`) picks the move of highest utility among its
candidates. So when a seat leads, every unit it held was a candidate lead, and when it answers a
unit lead (a single, pair or triple) with a unit of one kind from the led suit-class, every unit of
that arity it held in the class was a candidate follow. A unit that would have scored higher than
the move played, whatever the seat could see, was therefore not held: the seat held fewer copies of
that kind then, and so now. Each such finding caps a kind for a seat.

"Whatever the seat could see" is bounded from what the viewer knows. A move's utility falls as its
risk of losing the trick grows (:func:`tuolaji.bots.risk.opponents_beat`), and that risk grows with
the hidden copies of higher cards and with the chance of a void (fewer cards of the led class
hidden). Every card not played and not played later by the seat itself may have been hidden from
it; at least the viewer's own cards and the cards the two other seats play later were. That bounds
each risk from both sides, so each utility has a range; a unit is ruled out only when its lowest
utility beats the played move's highest (two follows that both leave the partner winning share one
unknown chance and are compared at its two ends). Holding a pair of a kind makes it dearer to
spend: each side is taken at its worst and best case too.

These are inferences, not rules: a seat that does not play like the heuristic (a person, or the
search, which sometimes plays another move) can contradict them. A later play of a capped kind
shows that, and the cap is dropped; the sampler treats the caps like the others and ignores them
all when no deal fits (:mod:`tuolaji.bots.sampling`). Follows by a seat short of the led class
(discards and ruffs) are not read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tuolaji.bots.hand import class_size
from tuolaji.bots.heuristic import RESERVE_FROM, opponents_after
from tuolaji.bots.risk import holds_higher, opponents_beat, tails_for
from tuolaji.bots.situation import Situation
from tuolaji.bots.table import TRUMP_CLASS, CardTable
from tuolaji.bots.tracking import plays_with_voids, trick_plays
from tuolaji.bots.values import (
    KEEP,
    PARTNER_FEED,
    PARTNER_LATER,
    PARTNER_RUFF,
    SHORT_SUIT,
    TRUMP_LEAD,
    kind_value,
    lead_gain,
    partner_ruff_bonus,
    points_of,
    utility,
)
from tuolaji.cards import DECKS, KINDS
from tuolaji.game.view import PlayRecord, SeatView
from tuolaji.rules import Pattern, Preset, classify, trick_winner

EPSILON = 1e-6
"""Utilities closer than this are treated as ties (the heuristic breaks ties by the cards)."""

Prospect = tuple[float, float, bool]
"""A follow's lowest and highest utility, and whether its chance to win is the partner's (the
same unknown for every follow that leaves the partner winning)."""


def read_plays(sit: Situation, view: SeatView) -> Situation:
    """``sit`` (built from ``view``) with the kind caps of every other seat in its knowledge."""
    plays = trick_plays(view.tricks, view.trick)
    sit.know.kind_caps = infer_kind_caps(sit.table, sit.preset, sit.seat, view.hand, plays)
    return sit


def infer_kind_caps(
    table: CardTable, preset: Preset, viewer: int, hand: Sequence[int], plays: Sequence[Sequence[PlayRecord]]
) -> list[dict[int, int]]:
    """Per seat, kind → the most copies of it the seat can hold now (see the module docstring), from
    ``viewer``'s hand (cards) and every trick so far (finished ones, then the current one)."""
    kind_caps: list[dict[int, int]] = [{}, {}, {}, {}]
    played = [0] * KINDS
    # later[seat][kind]: copies the seat plays from the current play on (the viewer: or holds now).
    later = [[0] * KINDS for _ in range(4)]
    for card in hand:
        later[viewer][card] += 1
    for trick in plays:
        for play in trick:
            for card in play.cards:
                later[play.seat][card] += 1
    # Hand sizes: every seat starts with as many cards as the viewer holds and has played.
    size = [sum(later[viewer])] * 4
    for trick, index, voids in plays_with_voids(table, plays):
        play = trick[index]
        for kind in set(play.cards):
            kind_caps[play.seat].pop(kind, None)
        if play.seat != viewer:
            moment = Moment(table, preset, play.seat, played, later, size[play.seat], voids)
            if index:
                _read_follow(moment, trick[: index + 1], kind_caps[play.seat])
            else:
                _read_lead(moment, play.cards, kind_caps[play.seat])
        for card in play.cards:
            played[card] += 1
            later[play.seat][card] -= 1
        size[play.seat] -= len(play.cards)
    return kind_caps


@dataclass
class Moment:
    """A seat about to play: the bounds on what it could see."""

    table: CardTable
    preset: Preset
    seat: int
    played: list[int]
    later: list[list[int]]
    hand_size: int
    voids: list[set[int]]

    def __post_init__(self) -> None:
        own_later = self.later[self.seat]
        self.unseen_most = [DECKS - self.played[kind] - own_later[kind] for kind in range(KINDS)]
        """Per kind, the most copies that can have been hidden from the seat."""
        self.unseen_least = [
            sum(row[kind] for other, row in enumerate(self.later) if other != self.seat) for kind in range(KINDS)
        ]
        """Per kind, the copies surely hidden from it (held by the other seats now or played later)."""
        hidden = DECKS * KINDS - sum(self.played) - self.hand_size
        self.share = min(1.0, self.hand_size / hidden) if hidden else 1.0
        self.tails = tails_for(round(self.share * 256) / 256)
        self.memo: dict[tuple[bool, int, int, int, int], float] = {}

    def risk(self, pattern: Pattern, lead_cls: int, opponents: Sequence[int], most: bool) -> float:
        """The seat's risk that ``opponents`` beat a play of ``pattern``, at its highest (``most``)
        or its lowest."""
        if not opponents:
            return 0.0
        unseen = self.unseen_most if most else self.unseen_least
        lead_hidden = class_size(self.unseen_least if most else self.unseen_most, self.table, lead_cls)

        def higher(cls: int, above: int) -> float:
            key = (most, pattern.arity, pattern.length, cls, above)
            found = self.memo.get(key)
            if found is None:
                found = self.memo[key] = holds_higher(self.table, unseen, pattern, cls, above, self.tails, self.preset)
            return found

        return opponents_beat(pattern, lead_cls, opponents, self.voids, self.share, lead_hidden, higher)


def _read_lead(moment: Moment, lead: Sequence[int], caps: dict[int, int]) -> None:
    """Cap the units the seat passed over to lead ``lead`` (see the module docstring)."""
    table = moment.table
    seat = moment.seat
    pattern = classify(lead, table.trump, moment.preset)
    if pattern is None:
        return
    opponents = opponents_after(seat, 0)
    own_later = moment.later[seat]
    chosen_cls = table.cls[lead[0]]
    stake = points_of(table, lead) + PARTNER_FEED
    cost = sum(kind_value(table, kind, lead.count(kind)) for kind in lead)
    best = lead_gain(moment.risk(pattern, chosen_cls, opponents, most=False), stake, len(lead), cost)
    if chosen_cls == TRUMP_CLASS:
        best -= TRUMP_LEAD
    elif len(lead) == 1:
        best += SHORT_SUIT / class_size(own_later, table, chosen_cls)
        best += partner_ruff_bonus(moment.voids, seat, chosen_cls)
    for kind in range(KINDS):
        possible = moment.unseen_most[kind]
        if kind in lead or own_later[kind] or not possible:
            continue
        # The most copies the seat may hold: the largest count whose whole unit would not have
        # beaten the lead for sure.
        allowed = 0
        for copies in range(1, possible + 1):
            if not _surely_better_lead(moment, kind, copies, opponents, best):
                allowed = copies
        if allowed < min(possible, caps.get(kind, DECKS)):
            caps[kind] = allowed


def _surely_better_lead(moment: Moment, kind: int, copies: int, opponents: list[int], best: float) -> bool:
    """Whether leading all ``copies`` held of ``kind`` scores above ``best`` at its worst."""
    table = moment.table
    cls = table.cls[kind]
    unit = [kind] * copies
    stake = points_of(table, unit) + PARTNER_FEED
    cost = copies * kind_value(table, kind, copies)
    if lead_gain(0.0, stake, copies, cost) + SHORT_SUIT + PARTNER_RUFF <= best:
        return False
    pattern = classify(unit, table.trump, moment.preset)
    if pattern is None:
        return False
    worst = lead_gain(moment.risk(pattern, cls, opponents, most=True), stake, copies, cost)
    if cls == TRUMP_CLASS:
        worst -= TRUMP_LEAD
        if copies >= 2 and moment.hand_size <= RESERVE_FROM:
            worst -= KEEP
    elif copies == 1:
        worst += SHORT_SUIT / moment.hand_size + partner_ruff_bonus(moment.voids, moment.seat, cls)
    return worst > best + EPSILON


def _read_follow(moment: Moment, trick: Sequence[PlayRecord], caps: dict[int, int]) -> None:
    """Cap the kinds the last follower of ``trick`` passed over (see the module docstring)."""
    table = moment.table
    lead = trick[0].cards
    pattern = classify(lead, table.trump, moment.preset)
    if pattern is None or pattern.length != 1 or pattern.arity > 3:
        return
    arity = pattern.arity
    lead_cls = table.cls[lead[0]]
    *before, (_, cards) = ((play.seat, play.cards) for play in trick)
    chosen = cards[0]
    if table.cls[chosen] != lead_cls or any(card != chosen for card in cards):
        return
    reader = _FollowReader(moment, lead_cls, before)
    best = reader.prospect(chosen, arity, copies=arity)
    for kind in table.class_kinds[lead_cls]:
        if kind == chosen or caps.get(kind, arity) < arity or moment.unseen_most[kind] < arity:
            continue
        if _surely_better(reader.prospect(kind, arity, copies=max(2, arity)), best):
            caps[kind] = arity - 1


class _FollowReader:
    """Utility ranges of the follows one seat could have made at one decision."""

    def __init__(self, moment: Moment, lead_cls: int, before: Sequence[tuple[int, tuple[int, ...]]]) -> None:
        self.moment = moment
        self.lead_cls = lead_cls
        self.before = before
        self.opponents = opponents_after(moment.seat, len(before))
        self.on_table = sum(points_of(moment.table, cards) for _, cards in before)

    def safest(self, cards: Sequence[int]) -> float:
        """The least chance, as the seat could have reckoned it, that ``cards`` (winning now) hold
        the trick against the opponents still to play."""
        if not self.opponents:
            return 1.0
        moment = self.moment
        pattern = classify(cards, moment.table.trump, moment.preset)
        if pattern is None:
            return 0.0
        return 1.0 - moment.risk(pattern, self.lead_cls, self.opponents, most=True)

    def prospect(self, kind: int, arity: int, copies: int) -> Prospect:
        """The utility range of following with ``arity`` cards of ``kind``, ``copies`` held."""
        moment = self.moment
        table = moment.table
        unit = (kind,) * arity
        stake = self.on_table + points_of(table, unit)
        cost = arity * kind_value(table, kind, copies)
        plays = [cards for _, cards in self.before]
        winner = trick_winner([*plays, unit], table.trump, moment.preset)
        if winner == len(plays):
            return utility(self.safest(unit), stake, cost), utility(1.0, stake, cost), False
        if self.before[winner][0] == (moment.seat + 2) % 4:
            low = self.safest(plays[winner])
            return utility(low, stake, cost), utility(1.0, stake, cost), low < 1.0
        fixed = utility(PARTNER_LATER if len(plays) == 1 else 0.0, stake, cost)
        return fixed, fixed, False


def _surely_better(other: Prospect, chosen: Prospect) -> bool:
    """Whether ``other`` scores above ``chosen`` for every value of the unknowns."""
    if other[2] and chosen[2]:
        # Both leave the partner winning with the same unknown chance: utility is linear in it,
        # so compare at the two ends of its range.
        return other[0] > chosen[0] + EPSILON and other[1] > chosen[1] + EPSILON
    return other[0] > chosen[1] + EPSILON
