"""Where the search's deals of the hidden cards come from: sampled and mended, or late in the hand
a :class:`~tuolaji.bots.montecarlo.deal_chain.DealChain` (see :mod:`tuolaji.bots.montecarlo`)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from tuolaji.bots.knowledge.legal_follows import PastFollows, mend
from tuolaji.bots.knowledge.sampling import sample_hands
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.knowledge.tracking import trick_plays
from tuolaji.bots.montecarlo.config import SearchConfig
from tuolaji.bots.montecarlo.deal_chain import DealChain, PastMoves
from tuolaji.game.view import SeatView

Deals = Iterator[tuple[list[list[int]], float]]
"""Deals of the hidden cards, each with what it cost beyond sampling, in play-outs."""


def search_deals(view: SeatView, sit: Situation, rng: random.Random, per_playout: float, config: SearchConfig) -> Deals:
    """The deals to play out, each with what it cost beyond sampling, in play-outs of
    ``per_playout`` moves: sampled and mended ones, or late in the hand those of a deal chain; with
    ``config.belief``, the sampled deals (the chain's first one too) are drawn in proportion to the
    learned belief (numpy is imported then only)."""
    plays = trick_plays(view.tricks, view.trick)
    weights = None
    if config.belief:
        from tuolaji.bots.montecarlo.belief import belief_weights

        weights = belief_weights(sit, plays, view.bids, view.hand_sizes, config.belief)
    if sit.hand_size > config.chain_from(leading=not view.trick):
        follows = PastFollows(sit, plays, view.illegal_follow == "reject")
        while True:
            hands = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng, weights)
            if config.mend_swaps:
                mend(follows, hands, rng, config.mend_swaps)
            yield hands, config.check_cost * follows.checks / per_playout
            follows.checks = 0
    past = PastMoves(sit, plays, config.replay_depth, config.replay_partner, config.partner_moves)
    first = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng, weights)
    chain = DealChain(past, first, rng, config.aimed)
    chain.run(config.burn_in)
    while True:
        yield chain.deal(), config.replay_cost * past.replayed / per_playout
        past.replayed = 0
        chain.run(config.gap)
