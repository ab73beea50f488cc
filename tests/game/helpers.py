"""Helpers for game tests: rounds from stacked decks, driven to a chosen point."""

from __future__ import annotations

import random

from tuolaji.cards import DECK_SIZE, SUITS, Card, full_deck, parse_cards, parse_rank
from tuolaji.game import Bid, CloseBidding, DealCards, Round, RoundSetup, TableOptions
from tuolaji.game.round import stack_deck


def hands_with(fixed: dict[int, str], seed: int = 0) -> list[list[Card]]:
    """Four 54-card hands: seat s holds the cards in ``fixed[s]``; the rest are dealt at random."""
    pool = full_deck()
    hands: list[list[Card]] = [[], [], [], []]
    for seat, text in fixed.items():
        for card in parse_cards(text):
            pool.remove(card)
            hands[seat].append(card)
    rng = random.Random(seed)
    rng.shuffle(pool)
    for seat in range(4):
        need = 54 - len(hands[seat])
        hands[seat].extend(pool[:need])
        del pool[:need]
    return hands


def stacked_round(
    hands: list[list[Card]],
    *,
    dealer: int | None = 0,
    level: str = "T",
    options: TableOptions | None = None,
) -> Round:
    """A round dealt from ``hands`` (dealing starts at the dealer, or seat 0 in a first hand)."""
    first = dealer if dealer is not None else 0
    setup = RoundSetup(
        seed=0,
        options=options or TableOptions(),
        dealer=dealer,
        level=parse_rank(level),
        deck=stack_deck(hands, first),
    )
    return Round(setup)


def playing_round(
    hands: list[list[Card]],
    *,
    trump: str = "H",
    bidder: int = 0,
    dealer: int | None = 0,
    level: str = "T",
    options: TableOptions | None = None,
) -> Round:
    """A round dealt in full, with ``bidder`` showing one level card of ``trump``, in the playing phase."""
    round_ = stacked_round(hands, dealer=dealer, level=level, options=options)
    round_.apply(DealCards(DECK_SIZE))
    round_.apply(Bid(bidder, SUITS.index(trump), 1))
    round_.apply(CloseBidding())
    return round_
