"""The bid window as turns (R16–R20): how the environment turns the engine's free-for-all bidding
into decision points.

At the table, anyone may show level cards at any moment of the deal and of the window after it
(R19). The environment deals the whole hand first (R15), then asks the seats in play order (R1),
from the seat the deal started at (the dealer, or seat 0 in a match's first hand): each seat in turn
bids (R16), reinforces its own bid (R17), overturns another's (R18) or passes. A seat with nothing
to show (:meth:`~tuolaji.game.round.Round.bid_options` empty) is asked too, with only the pass
allowed: skipping it would tell the others that it holds too few level cards, which the table
never shows. The window closes (``CloseBidding``) once four seats in a row have passed. Every bid
shows more cards than the standing one, so there are at most four bids and the window always closes.
Nothing is lost by bidding after the deal rather than during it: a hand at the end of the deal
holds every card it held earlier, so every bid possible during the deal is possible in the window.
"""

from __future__ import annotations


class BidTurns:
    """Whose turn it is to bid or pass in the window after the deal (see the module docstring)."""

    def __init__(self, first_seat: int) -> None:
        self.seat = first_seat
        self.quiet = 0
        """Seats in a row that passed since the last bid."""

    def next_bidder(self) -> int | None:
        """The seat to ask now, or None once four seats in a row passed (close the window, R19)."""
        return self.seat if self.quiet < 4 else None

    def record(self, bid: bool) -> None:
        """The asked seat bid (``bid``) or passed; the turn moves to the next seat in play order (R1)."""
        self.quiet = 0 if bid else self.quiet + 1
        self.seat = (self.seat + 1) % 4
