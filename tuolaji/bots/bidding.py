"""Bidding judgement (R16–R20): which suit to make trump, and when to show level cards.

A suit is worth bidding when, with it as trump, the hand would be long and solid in trumps:
the suit's own cards (level cards and 2s are trumps whatever the suit), its pairs, its aces and
kings, and the level cards of that suit. The policy bids its best suit once enough of the deal is
in to judge, reinforces its own bid when it can (R17) so it cannot be overturned cheaply, overturns
an opponent (R18) only for a clearly better suit, leaves a partner's bid alone unless its own suit
is far better, and always bids something once the deal is over so the hand is not redealt (R20).
"""

from __future__ import annotations

from collections.abc import Sequence

from tuolaji.bots.hand import counts_of
from tuolaji.cards import DECK_SIZE, make_card, rank_of
from tuolaji.game.actions import Bid
from tuolaji.game.view import SeatView

PERMANENT_RANK = 0
"""Rank index of the 2s, trumps in every hand (R8)."""


def suit_strength(hand: Sequence[int], level: int, suit: int) -> float:
    """How good ``suit`` would be as trump for this hand: its plain cards, pairs, top cards and
    the level cards of the suit (which rank above the other level cards, R9)."""
    counts = counts_of(hand)
    plain = [make_card(rank, suit) for rank in range(13) if rank not in (level, PERMANENT_RANK)]
    length = sum(counts[kind] for kind in plain)
    pairs = sum(counts[kind] // 2 for kind in plain)
    tops = sum(counts[kind] for kind in plain if rank_of(kind) >= 11)
    return length + 0.8 * pairs + 0.3 * tops + 1.5 * counts[make_card(level, suit)]


def choose_bid(view: SeatView) -> Bid | None:
    """The bid to make now, or None to wait (see the module docstring)."""
    if view.seat is None or not view.bid_options:
        return None
    seat = view.seat
    hand = view.hand
    dealt = view.cards_dealt / DECK_SIZE
    best: dict[int, int] = {}
    for suit, count in view.bid_options:
        best[suit] = max(best.get(suit, 0), count)
    strengths = {suit: suit_strength(hand, view.level, suit) for suit in range(4)}
    suit = max(best, key=lambda s: (strengths[s], best[s], -s))
    standing = view.bid
    if standing is None:
        expected = 11.0 * dealt
        if dealt >= 1.0 or best[suit] >= 3 or (dealt >= 0.5 and strengths[suit] >= 1.25 * expected + 1.0):
            return Bid(seat, suit, best[suit])
        return None
    if standing.seat == seat:
        if standing.suit in best and best[standing.suit] > standing.count:
            return Bid(seat, standing.suit, best[standing.suit])
        return None
    if dealt < 0.5:
        return None
    current = strengths[standing.suit]
    margin = 6.0 if standing.seat % 2 == seat % 2 else 2.0
    if suit != standing.suit and strengths[suit] >= current + margin:
        return Bid(seat, suit, best[suit])
    return None
