"""The decision context of a card-play move, built from a :class:`SeatView` (or by a simulator).

A :class:`Situation` holds only what the seat may know: its own cards, the trick so far, public
history (as :class:`~tuolaji.bots.knowledge.tracking.Knowledge`) and the table's trump and preset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from tuolaji.bots.knowledge.cardinfo import CardTable, card_table
from tuolaji.bots.knowledge.shapes import counts_of
from tuolaji.bots.knowledge.tracking import Knowledge, trick_plays
from tuolaji.cards import DECKS
from tuolaji.game.view import SeatView
from tuolaji.rules import Preset, get_preset

Trick = list[tuple[int, tuple[int, ...]]]
"""The current trick: (seat, cards) in play order, the lead first."""


@dataclass
class Situation:
    """Everything a policy may use to pick a lead or a follow for ``seat``."""

    table: CardTable
    preset: Preset
    seat: int
    dealer: int
    counts: list[int]
    trick: Trick
    know: Knowledge
    points_taken: int
    """The attackers' card points so far (public, R35)."""
    risk_memo: dict[tuple[int, int, int, int], float] = field(default_factory=dict)
    """:func:`tuolaji.bots.policy.risk.beat_risk`'s look-ups for this decision (they depend only on the
    hidden cards, which one decision does not change)."""

    @property
    def hand_size(self) -> int:
        return sum(self.counts)

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    @property
    def defending(self) -> bool:
        """Whether this seat's team holds the deal (R3)."""
        return self.seat % 2 == self.dealer % 2

    @cached_property
    def class_hidden(self) -> tuple[int, ...]:
        """Hidden cards (``know.unseen``) per suit-class."""
        unseen = self.know.unseen
        return tuple(sum(unseen[kind] for kind in kinds) for kinds in self.table.class_kinds)

    @cached_property
    def played(self) -> list[int]:
        """Cards played so far, per kind (neither hidden nor in this seat's hand)."""
        unseen = self.know.unseen
        return [DECKS - unseen[kind] - count for kind, count in enumerate(self.counts)]

    def hand(self) -> list[int]:
        return [kind for kind, count in enumerate(self.counts) for _ in range(count)]

    @classmethod
    def from_view(cls, view: SeatView) -> Situation:
        """The situation of ``view.seat`` in the playing phase."""
        if view.seat is None or view.trump_suit is None or view.dealer is None:
            raise ValueError("a situation needs a seated view after bidding closed (dealer and trump known)")
        table = card_table(view.level, view.trump_suit)
        return cls(
            table=table,
            preset=get_preset(view.preset),
            seat=view.seat,
            dealer=view.dealer,
            counts=counts_of(view.hand),
            trick=[(play.seat, play.cards) for play in view.trick],
            know=Knowledge.build(table, view.hand, trick_plays(view.tricks, view.trick), view.bids),
            points_taken=view.attackers_points,
        )
