"""The bot interface: ``choose(view) -> action``, from exactly what a person in the seat sees."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from tuolaji.game.actions import Action, Bid, Play
from tuolaji.game.view import SeatView

BID_PHASES = ("dealing", "bidding")


class Bot(ABC):
    """A player that picks actions from a :class:`SeatView` and nothing else.

    ``choose`` returns a :class:`Bid` (or None to pass) while the deal and bid window are open, a
    :class:`Play` when ``view.to_move == view.seat`` in the playing phase, and None otherwise.
    A bot is deterministic for its seed: the same view always gives the same action, because each
    decision draws from a generator seeded by the bot's seed and the view's position in the round
    (see :meth:`rng_for`), never from state carried between calls.
    """

    name: str = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def rng_for(self, view: SeatView) -> random.Random:
        """The generator for one decision: seeded by the bot's seed and where the round stands."""
        where = (view.seat, view.phase, view.cards_dealt, len(view.tricks), len(view.trick))
        return random.Random(f"{self.name}:{self.seed}:{where}")

    def choose(self, view: SeatView) -> Action | None:
        """The action this bot takes in ``view``, or None (wait, pass, or not its turn)."""
        if view.seat is None:
            return None
        if view.phase in BID_PHASES:
            return self.bid(view)
        if view.phase == "playing" and view.to_move == view.seat:
            return Play(view.seat, tuple(self.play(view)))
        return None

    @abstractmethod
    def bid(self, view: SeatView) -> Bid | None:
        """A bid from ``view.bid_options``, or None to pass for now."""

    @abstractmethod
    def play(self, view: SeatView) -> tuple[int, ...]:
        """The cards to lead or follow with; it is this seat's turn in the playing phase."""
