"""A full-information play-out of a hand from a determinized position (search rollouts).

:class:`Playout` holds all four hands as count vectors and plays tricks with the heuristic policy;
each seat decides from its own :class:`~tuolaji.bots.knowledge.situation.Situation` (its hand plus public
history), never from the other hands. Tricks are scored by the rules engine's
:func:`~tuolaji.rules.score_trick`, as in the game (R27–R29, R35).
"""

from __future__ import annotations

from collections.abc import Sequence

from tuolaji.bots.knowledge.cardinfo import CardTable
from tuolaji.bots.knowledge.situation import Situation, Trick
from tuolaji.bots.knowledge.tracking import NO_KNOWN, Knowledge
from tuolaji.bots.policy.card_play import choose_play
from tuolaji.cards import DECKS, KINDS
from tuolaji.rules import Preset, score_trick


class Playout:
    """A hand in progress with every hand known; ``gained`` is the attackers' score change so far."""

    def __init__(
        self,
        table: CardTable,
        preset: Preset,
        dealer: int,
        hands: list[list[int]],
        played: Sequence[int],
        voids: Sequence[set[int]],
        trick: Trick,
        points_taken: int,
        to_move: int,
    ) -> None:
        self.table = table
        self.preset = preset
        self.dealer = dealer
        self.hands = hands
        self.played = list(played)
        self.voids = [set(v) for v in voids]
        self.trick: Trick = list(trick)
        self.points_taken = points_taken
        self.gained = 0
        self.tricks_done = 0
        self.leader = trick[0][0] if trick else to_move

    @classmethod
    def from_situation(cls, sit: Situation, hands: Sequence[Sequence[int]]) -> Playout:
        """A play-out of ``sit`` on the determinized ``hands`` (copied), ``sit.seat`` to move."""
        return cls(
            sit.table,
            sit.preset,
            sit.dealer,
            [list(hand) for hand in hands],
            sit.played,
            sit.know.voids,
            sit.trick,
            sit.points_taken,
            sit.seat,
        )

    @property
    def finished(self) -> bool:
        return not self.trick and not any(self.hands[0])

    def to_move(self) -> int:
        return (self.trick[0][0] + len(self.trick)) % 4 if self.trick else self.leader

    def situation(self, seat: int) -> Situation:
        """What ``seat`` knows now."""
        own = self.hands[seat]
        unseen = [DECKS - self.played[kind] - own[kind] for kind in range(KINDS)]
        know = Knowledge(unseen, self.voids, NO_KNOWN)
        return Situation(
            self.table, self.preset, seat, self.dealer, own, self.trick, know, self.points_taken + self.gained
        )

    def play(self, cards: Sequence[int]) -> None:
        """The seat to move plays ``cards`` (assumed legal); a fourth play closes the trick."""
        seat = self.to_move()
        hand = self.hands[seat]
        for kind in cards:
            hand[kind] -= 1
            self.played[kind] += 1
        if self.trick:
            lead = self.trick[0][1]
            cls = self.table.cls
            lead_cls = cls[lead[0]]
            if sum(1 for kind in cards if cls[kind] == lead_cls) < len(lead):
                self.voids[seat].add(lead_cls)
        self.trick.append((seat, tuple(cards)))
        if len(self.trick) == 4:
            self._close_trick()

    def _close_trick(self) -> None:
        plays = [cards for _, cards in self.trick]
        last = not any(self.hands[0])
        scored = score_trick(plays, self.trick[0][0], self.dealer, self.table.trump, self.preset, last)
        self.gained += scored.change
        self.trick = []
        self.leader = scored.winner
        self.tricks_done += 1

    def run(self, first: Sequence[int] | None = None, max_tricks: int = 1000) -> None:
        """Play ``first`` for the seat to move (if given), then the heuristic for everyone until the
        hand ends or ``max_tricks`` more tricks are done."""
        if first is not None:
            self.play(first)
        while not self.finished and self.tricks_done < max_tricks:
            self.play(choose_play(self.situation(self.to_move())))
