"""Card counting from what a seat sees: cards still hidden, voids shown, cards shown in bids.

Everything here is derived from public information plus the seat's own hand, so a bot that
uses a :class:`Knowledge` never learns more than the person in that seat would.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from tuolaji.bots.knowledge.cardinfo import CardTable
from tuolaji.cards import DECKS, KINDS, make_card
from tuolaji.game.view import BidRecord, PlayRecord, TrickRecord

NO_KNOWN: list[list[int]] = [[0] * KINDS for _ in range(4)]
"""``Knowledge.known`` of a position where no seat is known to hold any card (play-outs, replays)."""


@dataclass
class Knowledge:
    """What one seat knows about the hidden cards.

    ``unseen`` counts, per kind, the cards neither in this seat's hand nor played yet: they are in
    the other three hands. ``voids[s]`` holds the suit-classes seat ``s`` has shown it no longer
    holds (it followed a lead of that class with fewer cards of it than led). ``known[s]`` counts
    cards seat ``s`` must still hold: level cards it showed in any bid of the round, standing or
    overturned (R16–R18: shown cards stay in the hand), and has not played since.
    ``caps[s]`` maps suit-classes to the most copies of any one kind seat ``s`` can still hold in
    that class (1: it has shown it holds no pair there; see :func:`note_trick`).
    """

    unseen: list[int]
    voids: list[set[int]]
    known: list[list[int]]
    caps: list[dict[int, int]] = field(default_factory=lambda: [{}, {}, {}, {}])

    @classmethod
    def build(
        cls,
        table: CardTable,
        hand: Sequence[int],
        plays: Iterable[Sequence[PlayRecord]],
        bids: Sequence[BidRecord],
    ) -> Knowledge:
        """Count from the seat's hand, every trick so far (finished and current) and every bid of the
        round (``SeatView.bids``): per seat and suit, the most level cards it ever showed in that suit,
        less those it has played since."""
        unseen = [DECKS] * KINDS
        for card in hand:
            unseen[card] -= 1
        voids: list[set[int]] = [set(), set(), set(), set()]
        caps: list[dict[int, int]] = [{}, {}, {}, {}]
        played_by: list[list[int]] = [[0] * KINDS for _ in range(4)]
        for trick in plays:
            if not trick:
                continue
            note_trick(table, trick, voids, caps)
            for play in trick:
                for card in play.cards:
                    unseen[card] -= 1
                    played_by[play.seat][card] += 1
        shown = [[0] * KINDS for _ in range(4)]
        for bid in bids:
            kind = make_card(table.level, bid.suit)
            shown[bid.seat][kind] = max(shown[bid.seat][kind], bid.count)
        known = [
            [max(0, count - played) for count, played in zip(shown[seat], played_by[seat], strict=True)]
            for seat in range(4)
        ]
        return cls(unseen, voids, known, caps)


def note_trick(
    table: CardTable, trick: Sequence[PlayRecord], voids: list[set[int]], caps: list[dict[int, int]]
) -> None:
    """Record what a (possibly unfinished) trick shows about the followers' hands.

    Voids (R23): a follower who played fewer cards of the lead's suit-class than were led holds
    none of that class any more. Caps (R24): when the lead holds a pair (or more) and a follower
    answered with cards of the lead's class only but without a pair, it held no pair in that class
    (any pair would have made a better-structured follow), so from then on every kind of the class
    is held at most once; likewise a lone triple answered without a triple shows at most two of
    every kind. (A lone bomb tells nothing more: under R25 a four-card tractor may answer it even
    from a hand holding a bomb.)
    """
    lead = trick[0].cards
    lead_cls = table.cls[lead[0]]
    lead_most = max(lead.count(card) for card in set(lead))
    single_unit = len(set(lead)) == 1
    for play in trick[1:]:
        in_class = [card for card in play.cards if table.cls[card] == lead_cls]
        if len(in_class) < len(lead):
            voids[play.seat].add(lead_cls)
            continue
        if lead_most < 2:
            continue
        most = max(in_class.count(card) for card in set(in_class))
        if most < 2:
            cap = 1
        elif single_unit and lead_most == 3 and most < 3:
            cap = 2
        else:
            continue
        seat_caps = caps[play.seat]
        seat_caps[lead_cls] = min(cap, seat_caps.get(lead_cls, cap))


def plays_with_voids(
    table: CardTable, plays: Iterable[Sequence[PlayRecord]]
) -> Iterator[tuple[Sequence[PlayRecord], int, list[set[int]]]]:
    """Every play of ``plays`` (every trick so far, in order) as its trick, its index in the trick
    and the voids shown before it (R23: in earlier tricks and by the plays before it in its own)."""
    voids: list[set[int]] = [set(), set(), set(), set()]
    for trick in plays:
        for index in range(len(trick)):
            seen = [set(v) for v in voids]
            if index:
                note_trick(table, trick[:index], seen, [{}, {}, {}, {}])
            yield trick, index, seen
        if trick:
            note_trick(table, trick, voids, [{}, {}, {}, {}])


def trick_plays(tricks: Sequence[TrickRecord], current: Sequence[PlayRecord]) -> list[Sequence[PlayRecord]]:
    """Every trick's plays, finished ones first, then the current one."""
    return [trick.plays for trick in tricks] + [current]
