"""The heuristic bot (``normal``, and the auto-play of 託管 seats): the heuristic's bidding
(:mod:`tuolaji.bots.policy.bidding`) and card play (:mod:`tuolaji.bots.policy.card_play`)."""

from __future__ import annotations

from tuolaji.bots.base import Bot
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.policy.bidding import choose_bid
from tuolaji.bots.policy.card_play import choose_play
from tuolaji.game.actions import Bid
from tuolaji.game.view import SeatView


class HeuristicBot(Bot):
    """Bids with :func:`tuolaji.bots.policy.bidding.choose_bid` and plays
    :func:`tuolaji.bots.policy.card_play.choose_play`; the auto-play (託管) bot. It draws no random
    numbers: the same view always gives the same move."""

    name = "heuristic"

    def bid(self, view: SeatView) -> Bid | None:
        return choose_bid(view)

    def play(self, view: SeatView) -> tuple[int, ...]:
        return choose_play(Situation.from_view(view))
