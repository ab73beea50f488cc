"""Where the hidden cards probably are: a small model learned from self-play, for the search's deals.

For each hidden card kind and each other seat, :class:`BeliefModel` gives the probability that a
hidden copy of the kind is in that seat's hand, from what the searching seat sees: its own cards,
the public history (every trick, every bid) and what card counting already knows
(:class:`~tuolaji.bots.knowledge.tracking.Knowledge`: voids, caps, level cards shown in bids). It
never sees another seat's cards. Copies a seat is known to hold (shown in a bid) are set aside: the
model places the *free* copies, ``unseen − known``, among the seats that may hold them (not void in
the kind's suit-class, not at its cap, with room in hand).

Each (seat, kind) pair is described by :data:`FEATURES` (:func:`belief_input`); a one-layer network
scores it, and the scores of the seats that may hold a copy go through a softmax over those seats,
added to the log of each seat's free room (cards in hand less those known), so a model with zero
weights is the uniform guess "copies in proportion to free room". The weights (``belief.npz`` next
to this module, a few kilobytes) are fitted by ``benchmarks/belief_train.py`` on heuristic
self-play (its docstring has the data recipe and seeds); ``benchmarks/belief_quality.py`` measures
them on held-out hands against the uniform consistent deals.

The search uses it through :func:`belief_weights`: the deal sampler
(:func:`~tuolaji.bots.knowledge.sampling.sample_hands`) draws each seat's cards in proportion to
these weights instead of uniformly, still within the voids, caps and known cards, which stay exact.

This is a model of how the other seats play (it learned the heuristic's habits), not a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from tuolaji.bots.knowledge.situation import Situation
from tuolaji.cards import DECKS, HAND_SIZE, KINDS, SMALL_JOKER, suit_of
from tuolaji.game.view import BidRecord, PlayRecord
from tuolaji.rules import TRUMP_CLASS, trick_winner

FEATURES: Final = (
    "next",
    "partner",
    "previous",
    "defends",
    "room_share",
    "hand_share",
    "void_in_trumps",
    "cap_one",
    "cap_two",
    "led_class",
    "led_class_multi",
    "followed_class",
    "discarded_class",
    "ruffed_if_trump",
    "ruffed",
    "played_class",
    "class_hidden",
    "is_trump",
    "strength",
    "points",
    "free_copies",
    "played_kind",
    "led_kind",
    "followed_above",
    "followed_below",
    "fed_richer",
    "ducked_cheaper",
    "bid_suit",
    "bidder_if_trump",
    "stage",
    "voids",
    "class_played",
)
"""What describes a (seat, kind) pair, in the order of the model's input (see :func:`belief_input`)."""

MODEL_PATH: Final = Path(__file__).with_name("belief.npz")
"""The fitted weights shipped with the package."""

Floats = npt.NDArray[np.float32]


@dataclass(frozen=True)
class BeliefInput:
    """The model's input for one position: per kind (54) and other seat (3, in play order after the
    searching seat: next, partner, previous)."""

    seats: tuple[int, int, int]
    """The other seats, in the order of the second axis."""
    x: Floats
    """Shape (54, 3, len(FEATURES)): each pair's features."""
    log_room: Floats
    """Shape (54, 3): the log of the seat's free room where it may hold a free copy of the kind, else −inf."""
    free: npt.NDArray[np.int64]
    """Shape (54,): hidden copies of each kind not known to be in a hand."""


class _Public:
    """What the public history and the bids say, about each seat by suit-class (5) or kind (54),
    and about each kind."""

    def __init__(self, sit: Situation, plays: Sequence[Sequence[PlayRecord]], bids: Sequence[BidRecord]) -> None:
        table = sit.table
        self.power = np.array(table.power, dtype=np.int64)
        self.cls = np.array(table.cls, dtype=np.int64)
        self.led = np.zeros((4, 5), np.float32)
        self.led_multi = np.zeros((4, 5), np.float32)
        self.followed = np.zeros((4, 5), np.float32)
        self.discarded = np.zeros((4, 5), np.float32)
        self.ruffed = np.zeros(4, np.float32)
        self.played_kind = np.zeros((4, KINDS), np.float32)
        self.led_kind = np.zeros((4, KINDS), np.float32)
        self.above = np.zeros((4, KINDS), np.float32)
        self.below = np.zeros((4, KINDS), np.float32)
        self.richer = np.zeros((4, KINDS), np.float32)
        self.cheaper = np.zeros((4, KINDS), np.float32)
        self.points = np.array(table.points, dtype=np.int64)
        self.cheap = np.array([(table.points[k] > 0) * 100 + table.step[k] for k in range(KINDS)], dtype=np.int64)
        """The heuristic's cheapest-first order of kinds within a class (point cards last)."""
        self.trump = table.trump
        self.preset = sit.preset
        self.tricks = 0
        for trick in plays:
            if trick:
                self._trick(trick)
                self.tricks += 1
        self.standing = [bid.seat for bid in bids][-1:]
        self.shown = np.zeros((4, 5), np.float32)
        for bid in bids:
            self.shown[bid.seat, bid.suit] = max(self.shown[bid.seat, bid.suit], bid.count)
        self.suits = np.array([suit_of(kind) if kind < SMALL_JOKER else 4 for kind in range(KINDS)])
        self._kinds(sit)

    def _kinds(self, sit: Situation) -> None:
        """Per kind: trump or not, strength in its class, its class's hidden and played shares."""
        table, cls = sit.table, self.cls
        self.is_trump = (cls == TRUMP_CLASS).astype(np.float32)
        tops = np.array([max(1, table.step[kinds[-1]]) if kinds else 1 for kinds in table.class_kinds])
        self.strength = np.array(table.step, dtype=np.float32) / tops[cls]
        unseen = np.array(sit.know.unseen, dtype=np.int64)
        hidden = np.bincount(cls, weights=unseen, minlength=5).astype(np.float32)
        total = np.bincount(cls, minlength=5).astype(np.float32) * DECKS
        played = total - hidden - np.bincount(cls, weights=sit.counts, minlength=5)
        self.class_hidden = hidden[cls] / max(1.0, float(hidden.sum()))
        self.class_played = played[cls] / np.maximum(1.0, total[cls])

    def _trick(self, trick: Sequence[PlayRecord]) -> None:
        lead = trick[0]
        lead_cls = int(self.cls[lead.cards[0]])
        self.led[lead.seat, lead_cls] += 1
        self.led_multi[lead.seat, lead_cls] += len(lead.cards) > 1
        for card in lead.cards:
            self.led_kind[lead.seat, card] += 1
            self.played_kind[lead.seat, card] += 1
        for index, play in enumerate(trick[1:], start=1):
            seat = play.seat
            inside = [card for card in play.cards if self.cls[card] == lead_cls]
            for card in play.cards:
                self.played_kind[seat, card] += 1
                if self.cls[card] != lead_cls:
                    if self.cls[card] == TRUMP_CLASS:
                        self.ruffed[seat] += 1
                    else:
                        self.discarded[seat, self.cls[card]] += 1
            if len(inside) < len(lead.cards):
                continue
            self.followed[seat, lead_cls] += 1
            powers = self.power[inside]
            in_class = self.cls == lead_cls
            self.above[seat] += in_class & (self.power < powers.min())
            self.below[seat] += in_class & (self.power > powers.max())
            winning = trick[trick_winner([p.cards for p in trick[:index]], self.trump, self.preset)].seat
            if winning == (seat + 2) % 4:
                self.richer[seat] += in_class & (self.points > self.points[inside].max())
            else:
                self.cheaper[seat] += in_class & (self.cheap < self.cheap[inside].min())


def belief_input(
    sit: Situation, plays: Sequence[Sequence[PlayRecord]], bids: Sequence[BidRecord], hand_sizes: Sequence[int]
) -> BeliefInput:
    """The model's input for ``sit.seat`` (see :data:`FEATURES`): from its situation, every trick so
    far (finished ones first, then the current one), every bid of the round and the hands' sizes."""
    me = sit.seat
    seats = ((me + 1) % 4, (me + 2) % 4, (me + 3) % 4)
    public = _Public(sit, plays, bids)
    known = np.array(sit.know.known, dtype=np.int64)[list(seats)]
    free = np.maximum(0, np.array(sit.know.unseen, dtype=np.int64) - known.sum(axis=0))
    room = np.array([max(0, hand_sizes[s] - int(known[i].sum())) for i, s in enumerate(seats)], dtype=np.float32)
    x = np.zeros((KINDS, 3, len(FEATURES)), np.float32)
    may = np.zeros((KINDS, 3), bool)
    for i, seat in enumerate(seats):
        caps = sit.know.caps[seat]
        cap = np.array([caps.get(int(c), DECKS) for c in public.cls], dtype=np.int64)
        void = np.array([int(c) in sit.know.voids[seat] for c in public.cls])
        may[:, i] = ~void & (known[i] < cap) & (room[i] > 0)
        share = room[i] / max(1.0, float(room.sum()))
        x[:, i, :] = _pair_features(sit, public, i, seat, cap, (share, hand_sizes[seat] / HAND_SIZE), free)
    with np.errstate(divide="ignore"):
        log_room = np.where(may & (free[:, None] > 0), np.log(room)[None, :], -np.inf).astype(np.float32)
    return BeliefInput(seats, x, log_room, free)


def _pair_features(
    sit: Situation,
    public: _Public,
    index: int,
    seat: int,
    cap: npt.NDArray[np.int64],
    sizes: tuple[float, float],
    free: npt.NDArray[np.int64],
) -> Floats:
    """Shape (54, len(FEATURES)): the features of ``seat`` (the ``index``-th other seat) with each kind."""
    cls, is_trump = public.cls, public.is_trump
    columns = (
        np.full(KINDS, index == 0),
        np.full(KINDS, index == 1),
        np.full(KINDS, index == 2),
        np.full(KINDS, seat % 2 == sit.dealer % 2),
        np.full(KINDS, sizes[0]),
        np.full(KINDS, sizes[1]),
        np.full(KINDS, TRUMP_CLASS in sit.know.voids[seat]),
        cap == 1,
        cap == 2,
        public.led[seat, cls] / 4,
        public.led_multi[seat, cls] / 4,
        public.followed[seat, cls] / 8,
        public.discarded[seat, cls] / 8,
        public.ruffed[seat] / 8 * is_trump,
        np.full(KINDS, public.ruffed[seat] / 8),
        np.bincount(cls, weights=public.played_kind[seat], minlength=5)[cls] / 16,
        public.class_hidden,
        is_trump,
        public.strength,
        public.points / 10,
        free / DECKS,
        public.played_kind[seat] / DECKS,
        public.led_kind[seat] / DECKS,
        public.above[seat] / 4,
        public.below[seat] / 4,
        public.richer[seat] / 4,
        public.cheaper[seat] / 4,
        public.shown[seat, public.suits] / DECKS,
        np.full(KINDS, seat in public.standing) * is_trump,
        np.full(KINDS, public.tricks / HAND_SIZE),
        np.full(KINDS, len(sit.know.voids[seat]) / 5),
        public.class_played,
    )
    result: Floats = np.stack(columns, axis=1).astype(np.float32)
    return result


class BeliefModel:
    """The fitted network: standardised features, one hidden layer of tanh units, one score a pair."""

    def __init__(self, arrays: dict[str, npt.NDArray[np.float32]]) -> None:
        """From the arrays of a weights file: ``mean``, ``std`` (features), ``w1``, ``b1``, ``w2``, ``b2``."""
        self.mean = arrays["mean"]
        self.std = arrays["std"]
        self.w1 = arrays["w1"]
        self.b1 = arrays["b1"]
        self.w2 = arrays["w2"]
        self.b2 = arrays["b2"]

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> BeliefModel:
        """The model in the weights file ``path``; ``ValueError`` naming it if its features are not
        :data:`FEATURES` (a file fitted for another version of this module)."""
        with np.load(path, allow_pickle=False) as data:
            names = tuple(str(name) for name in data["features"])
            if names != FEATURES:
                raise ValueError(f"{path}: fitted for features {names}, this module computes {FEATURES}")
            return cls({name: data[name].astype(np.float32) for name in ("mean", "std", "w1", "b1", "w2", "b2")})

    def scores(self, x: Floats) -> Floats:
        """Each pair's score (the last axis of ``x`` is the features)."""
        hidden = np.tanh(((x - self.mean) / self.std) @ self.w1 + self.b1)
        result: Floats = hidden @ self.w2 + self.b2
        return result

    def probabilities(self, inp: BeliefInput) -> Floats:
        """Shape (54, 3): for each kind, the probability that a free copy is with each of
        ``inp.seats``; a row of zeros for a kind with no free copy."""
        logits = self.scores(inp.x) + inp.log_room
        top = np.max(logits, axis=1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
        weights = np.exp(logits - top)
        total = weights.sum(axis=1, keepdims=True)
        result: Floats = np.where(total > 0, weights / np.where(total > 0, total, 1.0), 0.0).astype(np.float32)
        return result


@lru_cache(maxsize=1)
def shipped_model() -> BeliefModel:
    """The model shipped with the package, loaded once per process."""
    return BeliefModel.load()


def belief_weights(
    sit: Situation,
    plays: Sequence[Sequence[PlayRecord]],
    bids: Sequence[BidRecord],
    hand_sizes: Sequence[int],
    power: float,
    model: BeliefModel | None = None,
) -> list[list[float]]:
    """Per seat (4) and kind (54), how strongly the sampler should prefer giving that seat a copy of
    the kind: the model's probability raised to ``power`` (0 gives 1 everywhere: uniform deals).
    The searching seat's own row is ones (its hand is never sampled)."""
    probabilities = (model or shipped_model()).probabilities(belief_input(sit, plays, bids, hand_sizes))
    weights = [[1.0] * KINDS for _ in range(4)]
    tiny = np.float32(1e-6)
    for i in range(3):
        seat = (sit.seat + 1 + i) % 4
        weights[seat] = [float(w) for w in np.maximum(probabilities[:, i], tiny) ** power]
    return weights
