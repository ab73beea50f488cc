"""Bidding judgement (R16–R20): which suit to make trump, and when to show level cards.

A suit is worth bidding when, with it as trump, the hand would be long and solid in trumps:
the suit's own cards (level cards and 2s are trumps whatever the suit), its pairs, its aces and
kings, and the level cards of that suit. The policy bids its best suit once enough of the deal is
in to judge, reinforces its own bid when it can (R17) so it cannot be overturned cheaply, overturns
an opponent (R18) only for a clearly better suit, leaves a partner's bid alone unless its own suit
is far better, and always bids something once the deal is over so the hand is not redealt (R20).
Each of those judgements is a field of :class:`BidConfig`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tuolaji.bots.knowledge.shapes import counts_of
from tuolaji.cards import DECK_SIZE, make_card, rank_of
from tuolaji.game.actions import Action, Bid
from tuolaji.game.view import SeatView

PERMANENT_RANK = 0
"""Rank index of the 2s, trumps in every hand (R8)."""


STRENGTH_WEIGHTS = (0.8, 0.3, 1.5)
"""What a pair, a top card (K or A) and a level card of the suit add to a suit's strength, beside one
per plain card."""


def suit_strength(
    hand: Sequence[int], level: int, suit: int, weights: tuple[float, float, float] = STRENGTH_WEIGHTS
) -> float:
    """How good ``suit`` would be as trump for this hand: its plain cards, pairs, top cards and
    the level cards of the suit (which rank above the other level cards, R9), weighted by ``weights``."""
    counts = counts_of(hand)
    plain = [make_card(rank, suit) for rank in range(13) if rank not in (level, PERMANENT_RANK)]
    length = sum(counts[kind] for kind in plain)
    pairs = sum(counts[kind] // 2 for kind in plain)
    tops = sum(counts[kind] for kind in plain if rank_of(kind) >= 11)
    per_pair, per_top, per_level_card = weights
    return length + per_pair * pairs + per_top * tops + per_level_card * counts[make_card(level, suit)]


@dataclass(frozen=True)
class BidConfig:
    """When the bidding policy shows level cards (see the module docstring)."""

    open_share: float = 0.5
    """Share of the deal in from which a strong suit is bid (with nothing standing)."""
    open_strength: tuple[float, float] = (1.25, 1.0)
    """A suit is strong enough to open with when its strength is at least a × the strength expected
    of a suit at this point of the deal + b."""
    sure_count: int = 3
    """With this many level cards of a suit to show, bid at once."""
    reinforce: bool = True
    """Reinforce its own standing bid whenever it can show more level cards of that suit (R17)."""
    overturn_share: float = 0.5
    """Share of the deal in before any standing bid is overturned (R18)."""
    overturn_margin: float = 2.0
    """How much stronger its own suit must be to overturn an opponent's bid."""
    partner_margin: float = 6.0
    """How much stronger its own suit must be to overturn its partner's bid."""
    weights: tuple[float, float, float] = STRENGTH_WEIGHTS
    """The weights of :func:`suit_strength`."""


HEURISTIC_BIDS = BidConfig()
"""The heuristic's and the search's bidding."""


def choose_bid(view: SeatView, config: BidConfig = HEURISTIC_BIDS) -> Bid | None:
    """The bid to make now, or None to wait (see the module docstring)."""
    if view.seat is None or not view.bid_options:
        return None
    seat = view.seat
    hand = view.hand
    dealt = view.cards_dealt / DECK_SIZE
    best: dict[int, int] = {}
    for suit, count in view.bid_options:
        best[suit] = max(best.get(suit, 0), count)
    strengths = {suit: suit_strength(hand, view.level, suit, config.weights) for suit in range(4)}
    suit = max(best, key=lambda s: (strengths[s], best[s], -s))
    standing = view.bid
    if standing is None:
        expected = 11.0 * dealt
        scale, offset = config.open_strength
        strong = dealt >= config.open_share and strengths[suit] >= scale * expected + offset
        if dealt >= 1.0 or best[suit] >= config.sure_count or strong:
            return Bid(seat, suit, best[suit])
        return None
    if standing.seat == seat:
        if config.reinforce and standing.suit in best and best[standing.suit] > standing.count:
            return Bid(seat, standing.suit, best[standing.suit])
        return None
    if dealt < config.overturn_share:
        return None
    current = strengths[standing.suit]
    margin = config.partner_margin if standing.seat % 2 == seat % 2 else config.overturn_margin
    if suit != standing.suit and strengths[suit] >= current + margin:
        return Bid(seat, suit, best[suit])
    return None


class HeuristicBidder:
    """The policy above as a :class:`~tuolaji.game.driver.Chooser` that only bids (the arena and the
    benchmarks bid every seat with it, so duplicates share the trump)."""

    def __init__(self, config: BidConfig = HEURISTIC_BIDS) -> None:
        self.config = config

    def choose(self, view: SeatView) -> Action | None:
        return choose_bid(view, self.config)


HEURISTIC_BIDDERS = (HeuristicBidder(),) * 4
"""All four seats bid with the heuristic's policy (:func:`~tuolaji.game.driver.deal_and_bid`)."""
