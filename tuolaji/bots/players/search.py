"""The search bot (``hard``): determinized Monte-Carlo search over the heuristic
(:mod:`tuolaji.bots.montecarlo`, every number of it a field of :class:`SearchConfig`); it bids like
the heuristic."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tuolaji.bots.base import Bot
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.montecarlo.config import SearchConfig
from tuolaji.bots.montecarlo.deals import Deals, search_deals
from tuolaji.bots.montecarlo.race import pick, race
from tuolaji.bots.policy.bidding import choose_bid
from tuolaji.bots.policy.card_play import best_plays
from tuolaji.game.actions import Bid
from tuolaji.game.view import SeatView

__all__ = ["SearchBot", "SearchConfig"]


class SearchBot(Bot):
    """Determinized Monte-Carlo search; bids like the heuristic."""

    name = "search"

    def __init__(self, seed: int = 0, config: SearchConfig | None = None) -> None:
        super().__init__(seed)
        self.config = config or SearchConfig()

    def bid(self, view: SeatView) -> Bid | None:
        return choose_bid(view)

    def play(self, view: SeatView) -> tuple[int, ...]:
        sit = Situation.from_view(view)
        candidates = self.candidates_for(sit)
        if len(candidates) == 1:
            return candidates[0]
        return candidates[pick(self.race(view, sit, candidates), self.config)]

    def candidates_for(self, sit: Situation) -> list[tuple[int, ...]]:
        """The moves compared, the heuristic's choice first: its best legal follows or its best leads."""
        return best_plays(sit, self.config.candidates)

    def race(self, view: SeatView, sit: Situation, candidates: Sequence[tuple[int, ...]]) -> list[list[float]]:
        """Each candidate's values over the deals of :meth:`deals` (:func:`tuolaji.bots.montecarlo.race.race`)."""
        per_playout = self.config.playout_moves(sit.hand_size, self.config.horizon_for(sit.hand_size))
        return race(sit, candidates, self.deals(view, sit, self.rng_for(view), per_playout), self.config)

    def deals(self, view: SeatView, sit: Situation, rng: random.Random, per_playout: float) -> Deals:
        """The deals to play out (:func:`tuolaji.bots.montecarlo.deals.search_deals`)."""
        return search_deals(view, sit, rng, per_playout, self.config)
