"""Card counting from what a seat sees: cards still hidden, voids shown, cards shown in bids.

Everything here is derived from public information plus the seat's own hand, so a bot that
uses a :class:`Knowledge` never learns more than the person in that seat would.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tuolaji.bots.table import CardTable
from tuolaji.cards import DECKS, KINDS, make_card
from tuolaji.game.view import BidRecord, PlayRecord, TrickRecord


@dataclass
class Knowledge:
    """What one seat knows about the hidden cards.

    ``unseen`` counts, per kind, the cards neither in this seat's hand nor played yet: they are in
    the other three hands. ``voids[s]`` holds the suit-classes seat ``s`` has shown it no longer
    holds (it followed a lead of that class with fewer cards of it than led). ``known[s]`` counts
    cards seat ``s`` must still hold (level cards shown in the standing bid and not played since).
    """

    unseen: list[int]
    voids: list[set[int]]
    known: list[list[int]]

    @classmethod
    def build(
        cls,
        table: CardTable,
        hand: Sequence[int],
        plays: Iterable[Sequence[PlayRecord]],
        bid: BidRecord | None,
    ) -> Knowledge:
        """Count from the seat's hand, every trick so far (finished and current) and the bid."""
        unseen = [DECKS] * KINDS
        for card in hand:
            unseen[card] -= 1
        voids: list[set[int]] = [set(), set(), set(), set()]
        played_by: list[list[int]] = [[0] * KINDS for _ in range(4)]
        for trick in plays:
            if not trick:
                continue
            note_trick(table, trick, voids)
            for play in trick:
                for card in play.cards:
                    unseen[card] -= 1
                    played_by[play.seat][card] += 1
        known = [[0] * KINDS for _ in range(4)]
        if bid is not None:
            kind = make_card(table.level, bid.suit)
            known[bid.seat][kind] = max(0, bid.count - played_by[bid.seat][kind])
        return cls(unseen, voids, known)


def note_trick(table: CardTable, trick: Sequence[PlayRecord], voids: list[set[int]]) -> None:
    """Record the voids a (possibly unfinished) trick shows: a follower who played fewer cards of
    the lead's suit-class than were led holds none of that class any more (R23)."""
    lead = trick[0].cards
    lead_cls = table.cls[lead[0]]
    for play in trick[1:]:
        if sum(1 for card in play.cards if table.cls[card] == lead_cls) < len(lead):
            voids[play.seat].add(lead_cls)


def trick_plays(tricks: Sequence[TrickRecord], current: Sequence[PlayRecord]) -> list[Sequence[PlayRecord]]:
    """Every trick's plays, finished ones first, then the current one."""
    return [trick.plays for trick in tricks] + [current]
