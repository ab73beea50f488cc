"""Deals on which every past follow of the other seats was legal (R22–R25).

Sampling (:mod:`tuolaji.bots.knowledge.sampling`) keeps to the voids a seat has shown and to the
pairs it has shown it lacks, but a four-deck follow says more: a seat that answered a tractor with
two loose pairs held no tractor of that suit-class then, one that answered two pairs with a pair
and two singles held a single pair there. A seat only ever loses cards, so its hand at a past
follow is its hand now plus the cards it has played since; a guessed deal on which that hand makes
the follow illegal is impossible. Most sampled deals are: about four in five from the middle of a
hand on (tuning seeds 9 and 11, docs/BOTS-RESEARCH.md).

:func:`mend` walks a sampled deal towards a possible one: it takes a follow the deal breaks, moves a
card of that follow's suit-class from the follower to another seat that may hold it, for a card of
another kind, and keeps the swap unless more follows break. Whether a follow is legal depends only
on the follower's cards of the led suit-class (R23–R25), so a swap re-checks only the follows of
the two seats to leads of the two classes it touched.

This is a rule, not a model of the players: it holds for people as for bots. Only follows the
table stood by are used: those of finished tricks, and in ``reject`` tables those of the trick on
the table (in ``laogai`` tables a wrong follow is judged only when the trick ends, R33).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tuolaji.bots.knowledge.situation import Situation
from tuolaji.cards import DECKS, KINDS
from tuolaji.game.view import PlayRecord
from tuolaji.rules import is_legal_follow


@dataclass(frozen=True)
class PastFollow:
    """One follow of another seat to a lead of two cards or more."""

    seat: int
    lead: tuple[int, ...]
    cards: tuple[int, ...]
    cls: int
    """The lead's suit-class."""
    since: tuple[int, ...]
    """Cards of ``cls`` the seat has played from this follow on, per kind of ``cls`` (in the order of
    ``CardTable.class_kinds[cls]``)."""
    rest: tuple[int, ...]
    """The follow's cards of other classes (a short follow, R23)."""


class PastFollows:
    """The other seats' follows so far that a guessed deal must make legal."""

    def __init__(self, sit: Situation, plays: Sequence[Sequence[PlayRecord]], current_stands: bool) -> None:
        """Follows of ``plays`` (every trick so far, finished ones first, then the one on the table,
        whose follows count only if ``current_stands``) by seats other than ``sit.seat``. A follow
        to a single card is left out: the voids already say all it tells (R23)."""
        self.sit = sit
        table = sit.table
        finished = len(plays) - 1
        order: list[tuple[Sequence[PlayRecord], int]] = []
        for number, trick in enumerate(plays):
            if trick and (number < finished or current_stands):
                order.extend((trick, index) for index in range(len(trick)))
        since = [[0] * KINDS for _ in range(4)]
        self.by_seat: list[list[PastFollow]] = [[], [], [], []]
        for trick, index in reversed(order):
            play = trick[index]
            for card in play.cards:
                since[play.seat][card] += 1
            lead = trick[0].cards
            if index == 0 or play.seat == sit.seat or len(lead) < 2:
                continue
            cls = table.cls[lead[0]]
            kinds = table.class_kinds[cls]
            self.by_seat[play.seat].append(
                PastFollow(
                    play.seat,
                    tuple(lead),
                    tuple(play.cards),
                    cls,
                    tuple(since[play.seat][kind] for kind in kinds),
                    tuple(card for card in play.cards if table.cls[card] != cls),
                )
            )
        self.checks = 0
        """Follows checked so far (for the search's time budget)."""

    def legal(self, follow: PastFollow, hand_now: Sequence[int]) -> bool:
        """Whether ``follow`` was legal from ``hand_now`` plus what the seat has played since."""
        self.checks += 1
        kinds = self.sit.table.class_kinds[follow.cls]
        then = [kind for kind, later in zip(kinds, follow.since, strict=True) for _ in range(hand_now[kind] + later)]
        then += follow.rest
        return is_legal_follow(then, follow.lead, follow.cards, self.sit.table.trump, self.sit.preset)

    def broken(self, seat: int, hand_now: Sequence[int], classes: set[int] | None = None) -> list[PastFollow]:
        """``seat``'s follows (to leads of ``classes``, default all) that ``hand_now`` makes illegal."""
        return [
            follow
            for follow in self.by_seat[seat]
            if (classes is None or follow.cls in classes) and not self.legal(follow, hand_now)
        ]


def mend(follows: PastFollows, hands: list[list[int]], rng: random.Random, swaps: int) -> int:
    """Move the sampled deal ``hands`` (changed in place; the viewer's hand is kept) by up to
    ``swaps`` swaps towards a deal on which every past follow is legal (see the module docstring).
    Never breaks more follows than the deal did, keeps hand sizes, voids, caps and the cards a seat
    is known to hold. Returns how many follows the deal still breaks."""
    sit = follows.sit
    table, know = sit.table, sit.know
    others = [seat for seat in range(4) if seat != sit.seat]
    bad = {seat: follows.broken(seat, hands[seat]) for seat in others}

    def may_take(seat: int, kind: int) -> bool:
        cls = table.cls[kind]
        return cls not in know.voids[seat] and hands[seat][kind] < know.caps[seat].get(cls, DECKS)

    for _ in range(swaps):
        failing = [seat for seat in others if bad[seat]]
        if not failing:
            break
        seat = rng.choice(failing)
        cls = rng.choice(bad[seat]).cls
        hand, held = hands[seat], know.known[seat]
        gives = [kind for kind in table.class_kinds[cls] if hand[kind] > held[kind]]
        if not gives:
            continue
        give = rng.choice(gives)
        mates = [mate for mate in others if mate != seat and may_take(mate, give)]
        if not mates:
            continue
        mate = rng.choice(mates)
        other, other_held = hands[mate], know.known[mate]
        takes = [
            kind
            for kind in range(KINDS)
            if other[kind] > other_held[kind] and table.cls[kind] != cls and may_take(seat, kind)
        ]
        if not takes:
            continue
        take = rng.choice(takes)
        _swap(hand, other, give, take)
        touched = {cls, table.cls[take]}
        now_seat = [f for f in bad[seat] if f.cls not in touched] + follows.broken(seat, hand, touched)
        now_mate = [f for f in bad[mate] if f.cls not in touched] + follows.broken(mate, other, touched)
        if len(now_seat) + len(now_mate) <= len(bad[seat]) + len(bad[mate]):
            bad[seat], bad[mate] = now_seat, now_mate
        else:
            _swap(hand, other, take, give)
    return sum(len(broken) for broken in bad.values())


def _swap(hand: list[int], other: list[int], give: int, take: int) -> None:
    """``hand`` gives ``other`` a card of kind ``give`` for one of kind ``take``."""
    hand[give] -= 1
    other[give] += 1
    other[take] -= 1
    hand[take] += 1
