"""The environment's observation: one seat's :class:`~tuolaji.game.view.SeatView` as a fixed-size
``float32`` vector, built from that view alone (never another seat's cards).

Seats are **relative** to the observer: slot 0 is the observer, 1 the next seat in play order
(R1), 2 the partner (R2), 3 the seat before. Card kinds are 0–53 as in :mod:`tuolaji.cards`
(``suit * 13 + rank`` for S H C D and ranks 2…A, then SJ 52, BJ 53). The blocks, in order
(:data:`LAYOUT` maps each name to its slice of the vector):

==================  =====  =====================================================================
block               size   content
==================  =====  =====================================================================
``hand``            54     the observer's cards: copies held of each kind (0–4)
``played``          216    4 × 54: cards each relative seat played in the finished tricks (0–4)
``trick``           216    4 × 54: cards each relative seat has on the table in this trick (0–4)
``leader``          4      who leads the current trick (one-hot; zeros outside the play)
``to_act``          4      whose decision it is: a bid turn of the env or the seat to move (one-hot)
``dealer``          4      the dealer (one-hot; zeros in a first hand until the bid stands, R19)
``bids``            16     4 × 4 (relative seat × suit): most level cards that seat showed in
                           that suit this hand (0–4; bids are public, R18)
``standing_seat``   4      who holds the standing bid (one-hot)
``standing_suit``   4      its suit (one-hot)
``standing_count``  1      its count (0–4)
``trump``           4      the trump suit once bidding closed (one-hot, R7)
``level``           12     the level played at, 3 … A (one-hot, R6)
``phase``           3      bidding, playing, finished (one-hot)
``attacking``       1      1 when the observer's team attacks (R3; 0 while the dealer is unknown)
``score``           1      the attackers' score so far / 400 (R35)
``hand_sizes``      4      cards left in each relative seat's hand / 54
``tricks``          1      finished tricks / 54
``preset``          3      nanning, guigang, fourdeck (one-hot, §14)
``first_hand``      1      1 in a match's first hand (the standing bid picks the dealer, R19)
==================  =====  =====================================================================

Every entry lies in 0…4 (counts) or 0…1 (the rest): :data:`HIGH` is the per-entry upper bound.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol

import numpy as np
import numpy.typing as npt

from tuolaji.cards import HAND_SIZE, KINDS
from tuolaji.game.options import PRESET_NAMES
from tuolaji.game.view import SeatView

MAX_SCORE: Final = 400
"""R35 封頂: the attackers' score is at most 400."""
PHASES: Final = ("bidding", "playing", "finished")

_BLOCKS: Final = (
    ("hand", KINDS, 4),
    ("played", 4 * KINDS, 4),
    ("trick", 4 * KINDS, 4),
    ("leader", 4, 1),
    ("to_act", 4, 1),
    ("dealer", 4, 1),
    ("bids", 16, 4),
    ("standing_seat", 4, 1),
    ("standing_suit", 4, 1),
    ("standing_count", 1, 4),
    ("trump", 4, 1),
    ("level", 12, 1),
    ("phase", len(PHASES), 1),
    ("attacking", 1, 1),
    ("score", 1, 1),
    ("hand_sizes", 4, 1),
    ("tricks", 1, 1),
    ("preset", len(PRESET_NAMES), 1),
    ("first_hand", 1, 1),
)


def _layout() -> dict[str, slice]:
    layout: dict[str, slice] = {}
    start = 0
    for name, size, _ in _BLOCKS:
        layout[name] = slice(start, start + size)
        start += size
    return layout


LAYOUT: Final = _layout()
"""Block name → its slice of the observation vector."""
OBS_SIZE: Final = sum(size for _, size, _ in _BLOCKS)
"""Length of the observation vector (553)."""
HIGH: Final = np.concatenate([np.full(size, high, dtype=np.float32) for _, size, high in _BLOCKS])
"""Upper bound of each entry (the lower bound is 0)."""

Vector = npt.NDArray[np.float32]


class _Put(Protocol):
    def __call__(self, name: str, index: int, value: float = ...) -> None: ...


_Rel = Callable[[int], int]


def encode_view(view: SeatView, acting: int | None) -> Vector:
    """The observation of ``view`` (a seat's own view); ``acting`` is the seat whose decision it is
    (the env's bid turn, or the seat to move), or None. Uses nothing but ``view`` and ``acting``."""
    me = view.seat
    if me is None:
        raise ValueError("encode_view: a spectator's view has no seat to observe from")
    obs = np.zeros(OBS_SIZE, dtype=np.float32)

    def rel(seat: int) -> int:
        return (seat - me) % 4

    def put(name: str, index: int, value: float = 1.0) -> None:
        obs[LAYOUT[name].start + index] += value

    played = LAYOUT["played"].start
    trick = LAYOUT["trick"].start
    cards = [LAYOUT["hand"].start + card for card in view.hand]
    cards += [
        played + rel(play.seat) * KINDS + card for past in view.tricks for play in past.plays for card in play.cards
    ]
    cards += [trick + rel(play.seat) * KINDS + card for play in view.trick for card in play.cards]
    np.add.at(obs, cards, 1.0)
    _put_seats(view, acting, rel, put)
    _put_bids(view, rel, put)
    if view.trump_suit is not None:
        put("trump", view.trump_suit)
    put("level", view.level - 1)
    if view.phase in PHASES:
        put("phase", PHASES.index(view.phase))
    elif view.phase == "review":
        put("phase", PHASES.index("playing"))
    put("score", 0, view.attackers_points / MAX_SCORE)
    for seat, size in enumerate(view.hand_sizes):
        put("hand_sizes", rel(seat), size / HAND_SIZE)
    put("tricks", 0, len(view.tricks) / HAND_SIZE)
    put("preset", PRESET_NAMES.index(view.preset))
    put("first_hand", 0, float(view.first_hand))
    return obs


def _put_seats(view: SeatView, acting: int | None, rel: _Rel, put: _Put) -> None:
    if view.leader is not None and view.phase in ("playing", "review"):
        put("leader", rel(view.leader))
    if acting is not None:
        put("to_act", rel(acting))
    if view.dealer is not None:
        put("dealer", rel(view.dealer))
        put("attacking", 0, float(rel(view.dealer) % 2 == 1))


def _put_bids(view: SeatView, rel: _Rel, put: _Put) -> None:
    shown = [[0] * 4 for _ in range(4)]
    for bid in view.bids:
        row = shown[rel(bid.seat)]
        row[bid.suit] = max(row[bid.suit], bid.count)
    for seat, row in enumerate(shown):
        for suit, count in enumerate(row):
            if count:
                put("bids", 4 * seat + suit, count)
    if view.bid is not None:
        put("standing_seat", rel(view.bid.seat))
        put("standing_suit", view.bid.suit)
        put("standing_count", 0, view.bid.count)
