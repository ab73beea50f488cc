"""Deals that explain the other seats' past moves, if they play like the heuristic.

A seat that plays like the heuristic (:func:`tuolaji.bots.policy.card_play.choose_play`) makes each move
from its hand, the trick on the table and the public history only. Given a guess at its hand now,
its hand at any earlier move is that guess plus the cards it has played since, so the move can be
replayed exactly (:class:`PastMoves`): on the real deal every replay gives the move that was played;
a guess that puts cards in the wrong hands fails many. Random deals almost never pass them all, so
:class:`DealChain` walks from a sampled deal by swapping one card between two other seats at a
time, keeping each swap that does not make more replays fail (a Markov chain whose states, once
every replay passes, are deals the whole recent history agrees with). Half the swaps are aimed: a
failing replay has the seat play, on the current deal, cards it did not play then, so it probably
lacks some of them; one it holds now is given away (:meth:`DealChain.suspect`). That reaches
agreeing deals in far fewer swaps than random ones. Late in a hand such deals put far more hidden
cards in the right hands than sampling alone (docs/BOTS-RESEARCH.md).

A swap of two cards changes few replays: a follow from a hand holding more cards of the led
suit-class than were led picks among those cards only, and its risk estimates count only the
hidden cards of the led class and of trumps (:mod:`tuolaji.bots.policy.risk`), so it is replayed again only
when a swapped card is of one of those classes. Leads, and follows short of the led class, depend
on the whole hand and are always replayed.

This is a model of how the other seats play, not a rule: a person, or the search itself (it
sometimes plays another move than the heuristic), makes moves no deal replays. The chain then
settles on deals that explain as many moves as it can find. The partner may be modelled more
loosely, as a seat that plays one of the heuristic's ``partner_moves`` best moves (as the search
does): a move is then replayed if it is any of them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tuolaji.bots.knowledge.shapes import class_size
from tuolaji.bots.knowledge.situation import Situation, Trick
from tuolaji.bots.knowledge.tracking import NO_KNOWN, Knowledge, plays_with_voids
from tuolaji.bots.policy.card_play import best_plays
from tuolaji.cards import DECKS, KINDS
from tuolaji.game.view import PlayRecord
from tuolaji.rules import TRUMP_CLASS


@dataclass(frozen=True)
class PastMove:
    """One earlier move of another seat, with what was public when it was made."""

    seat: int
    trick: Trick
    """The trick before the move (empty for a lead)."""
    played: tuple[int, ...]
    """Cards played before the move, per kind."""
    voids: tuple[frozenset[int], ...]
    """Voids shown before the move (R23)."""
    cards: tuple[int, ...]
    """The move, sorted."""
    since: tuple[int, ...]
    """Cards the seat has played from this move on, per kind: its hand then is its hand now plus these."""


class PastMoves:
    """The other seats' latest moves in a hand, to replay on guessed deals."""

    def __init__(
        self,
        sit: Situation,
        plays: Sequence[Sequence[PlayRecord]],
        depth: int,
        partner: bool = True,
        partner_moves: int = 1,
    ) -> None:
        """The last ``depth`` moves of each seat other than ``sit.seat`` (and its partner, unless
        ``partner``) in ``plays`` (every trick so far, finished ones first, then the current one);
        a partner's move replays if it is one of the heuristic's ``partner_moves`` best."""
        if partner_moves < 1:
            raise ValueError(f"replayed moves: partner_moves={partner_moves!r} must be at least 1")
        self.sit = sit
        self.partner_moves = partner_moves
        history: list[tuple[int, Trick, tuple[int, ...], tuple[frozenset[int], ...], tuple[int, ...]]] = []
        played = [0] * KINDS
        for trick, index, voids in plays_with_voids(sit.table, plays):
            play = trick[index]
            before: Trick = [(p.seat, p.cards) for p in trick[:index]]
            history.append((play.seat, before, tuple(played), tuple(frozenset(v) for v in voids), play.cards))
            for card in play.cards:
                played[card] += 1
        since = [[0] * KINDS for _ in range(4)]
        self.moves: list[list[PastMove]] = [[], [], [], []]
        """Per seat, its replayed moves, newest first (none for ``sit.seat``)."""
        for seat, before, then_played, then_voids, cards in reversed(history):
            for card in cards:
                since[seat][card] += 1
            if seat != sit.seat and (partner or seat != sit.partner) and len(self.moves[seat]) < depth:
                move = PastMove(seat, before, then_played, then_voids, tuple(sorted(cards)), tuple(since[seat]))
                self.moves[seat].append(move)
        self.replayed = 0
        """Moves replayed so far (for the search's time budget)."""

    def agrees(self, move: PastMove, hand_now: Sequence[int]) -> bool:
        """Whether the seat, holding ``hand_now`` plus what it has played since, would make ``move``."""
        return move.cards in self.replay(move, hand_now)

    def replay(self, move: PastMove, hand_now: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """The moves (each sorted) the seat would make in ``move``'s place, holding ``hand_now`` plus
        what it has played since: the heuristic's, then for the partner its next best up to
        ``partner_moves``."""
        self.replayed += 1
        sit = self.sit
        hand = [now + later for now, later in zip(hand_now, move.since, strict=True)]
        unseen = [DECKS - played - held for played, held in zip(move.played, hand, strict=True)]
        know = Knowledge(unseen, [set(v) for v in move.voids], NO_KNOWN)
        then = Situation(sit.table, sit.preset, move.seat, sit.dealer, hand, list(move.trick), know, 0)
        limit = self.partner_moves if move.seat == sit.partner else 1
        return tuple(tuple(sorted(play)) for play in best_plays(then, limit))

    def touched(self, move: PastMove, hand_now: Sequence[int], classes: set[int]) -> bool:
        """Whether swapping cards of ``classes`` in the seat's hand can change its replay of ``move``
        (see the module docstring)."""
        if not move.trick:
            return True
        table = self.sit.table
        lead = move.trick[0][1]
        lead_cls = table.cls[lead[0]]
        if lead_cls in classes or TRUMP_CLASS in classes:
            return True
        held = class_size(hand_now, table, lead_cls) + class_size(move.since, table, lead_cls)
        return held <= len(lead)


class DealChain:
    """Deals of the hidden cards, moved one swap at a time towards deals the past moves agree with."""

    def __init__(self, past: PastMoves, hands: list[list[int]], rng: random.Random, aimed: float) -> None:
        """Start from the sampled deal ``hands`` (all four seats; the viewer's own hand is kept).
        ``aimed``: how often a swap gives up a card a failing move suggests the seat lacks
        (:meth:`suspect`)."""
        self.past = past
        self.aimed = aimed
        self.hands = [list(hand) for hand in hands]
        self.rng = rng
        sit = past.sit
        self.others = [seat for seat in range(4) if seat != sit.seat and any(self.hands[seat])]
        """The seats whose cards are swapped (the viewer's own hand is known, an empty one has none)."""
        self.replays = [[past.replay(move, self.hands[seat]) for move in past.moves[seat]] for seat in range(4)]
        """Per seat and past move, the heuristic's move on the current deal."""

    @property
    def fails(self) -> list[list[bool]]:
        """Per seat and past move, whether the current deal fails to replay it."""
        return [self._fails(seat, self.replays[seat]) for seat in range(4)]

    def _fails(self, seat: int, replays: Sequence[tuple[tuple[int, ...], ...]]) -> list[bool]:
        return [move.cards not in replayed for replayed, move in zip(replays, self.past.moves[seat], strict=True)]

    @property
    def disagreements(self) -> int:
        """Past moves the current deal does not replay."""
        return sum(sum(fails) for fails in self.fails)

    def deal(self) -> list[list[int]]:
        """A copy of the current deal."""
        return [list(hand) for hand in self.hands]

    def run(self, steps: int) -> None:
        """Propose ``steps`` swaps."""
        for _ in range(steps):
            self.step()

    def step(self) -> None:
        """Swap a card of one other seat with a random card of another if both may hold the other's
        card and no more past moves fail. The first card is, with probability :attr:`aimed` when
        some move fails, a :meth:`suspect`; else random."""
        rng = self.rng
        if len(self.others) < 2:
            return
        suspect = self.suspect() if rng.random() < self.aimed else None
        if suspect is None:
            first, second = rng.sample(self.others, 2)
            give = self._pick(first)
        else:
            first, give = suspect
            second = rng.choice([seat for seat in self.others if seat != first])
        take = self._pick(second)
        if give == take or not (self._may_swap(first, give, take) and self._may_swap(second, take, give)):
            return
        classes = {self.past.sit.table.cls[give], self.past.sit.table.cls[take]}
        self._move(first, give, take)
        self._move(second, take, give)
        fails = self.fails
        allowed = sum(fails[first]) + sum(fails[second])
        fresh: dict[int, list[tuple[tuple[int, ...], ...]]] = {}
        for seat in (first, second):
            replays = self._replay(seat, classes, allowed)
            if replays is None:
                self._move(first, take, give)
                self._move(second, give, take)
                return
            fresh[seat] = replays
            allowed -= sum(self._fails(seat, replays))
        self.replays[first] = fresh[first]
        self.replays[second] = fresh[second]

    def suspect(self) -> tuple[int, int] | None:
        """A seat and a card it holds now that the heuristic, on the current deal, would have played
        in a failing move's place instead of the move made: a card that seat probably lacks."""
        rng = self.rng
        failing = [
            (seat, index)
            for seat in self.others
            for index, failed in enumerate(self._fails(seat, self.replays[seat]))
            if failed
        ]
        if not failing:
            return None
        seat, index = rng.choice(failing)
        played = self.past.moves[seat][index].cards
        held = [card for card in set(self.replays[seat][index][0]) if card not in played and self.hands[seat][card]]
        return (seat, rng.choice(sorted(held))) if held else None

    def _pick(self, seat: int) -> int:
        hand = self.hands[seat]
        index = self.rng.randrange(sum(hand))
        for kind, count in enumerate(hand):
            if index < count:
                return kind
            index -= count
        raise AssertionError("unreachable: index within the hand")

    def _may_swap(self, seat: int, give: int, take: int) -> bool:
        """Whether ``seat`` may give up a card of ``give`` and hold one more of ``take``."""
        know = self.past.sit.know
        table = self.past.sit.table
        if self.hands[seat][give] <= know.known[seat][give]:
            return False
        cls = table.cls[take]
        if cls in know.voids[seat]:
            return False
        holding = self.hands[seat][take] + 1
        return holding <= know.caps[seat].get(cls, DECKS)

    def _move(self, seat: int, give: int, take: int) -> None:
        self.hands[seat][give] -= 1
        self.hands[seat][take] += 1

    def _replay(self, seat: int, classes: set[int], allowed: int) -> list[tuple[tuple[int, ...], ...]] | None:
        """The seat's replays after a swap of cards of ``classes``, or None once surely more than
        ``allowed`` of them fail. Only the moves the swap touches are replayed, failing ones first:
        after them the count of fails can only grow, so it can stop early."""
        past = self.past
        hand = self.hands[seat]
        moves = past.moves[seat]
        replays = list(self.replays[seat])
        fails = self._fails(seat, replays)
        count = sum(fails)
        touched = [index for index, move in enumerate(moves) if past.touched(move, hand, classes)]
        touched.sort(key=lambda index: not fails[index])
        for index in touched:
            if count > allowed and not fails[index]:
                return None
            replays[index] = past.replay(moves[index], hand)
            failed = moves[index].cards not in replays[index]
            count += failed - fails[index]
            fails[index] = failed
        return None if count > allowed else replays
