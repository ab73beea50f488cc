"""The baseline bot: uniformly random legal actions."""

from __future__ import annotations

from tuolaji.bots.base import Bot
from tuolaji.bots.knowledge.cardinfo import card_table
from tuolaji.bots.knowledge.shapes import all_leads, counts_of
from tuolaji.game.actions import Bid
from tuolaji.game.view import SeatView
from tuolaji.rules import random_legal_follow


class RandomBot(Bot):
    """Bids or passes uniformly among its options once the deal is over (R19; passing is one more
    option, and with no bid standing it always bids so the hand is not redealt, R20); leads a
    uniformly random valid lead (R13) and follows with :func:`tuolaji.rules.random_legal_follow`."""

    name = "random"

    def bid(self, view: SeatView) -> Bid | None:
        if view.seat is None or not view.bid_options or view.phase != "bidding":
            return None
        rng = self.rng_for(view)
        options = list(view.bid_options)
        if view.bid is not None:
            choice = rng.randrange(len(options) + 1)
            if choice == len(options):
                return None
        else:
            choice = rng.randrange(len(options))
        suit, count = options[choice]
        return Bid(view.seat, suit, count)

    def play(self, view: SeatView) -> tuple[int, ...]:
        assert view.trump_suit is not None
        rng = self.rng_for(view)
        table = card_table(view.level, view.trump_suit)
        if view.trick:
            return tuple(random_legal_follow(view.hand, view.trick[0].cards, table.trump, rng, view.preset))
        leads = all_leads(counts_of(view.hand), table)
        return rng.choice(leads).cards()
