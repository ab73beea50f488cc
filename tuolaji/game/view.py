"""What leaves the game: events, per-seat views and round results.

Cards are ints inside Python; ``to_json()`` renders them as strings in RULES.md notation (the
codec is ``tuolaji.wire.values``). A :class:`SeatView` holds the cards of its own seat only (``seat``
None is a spectator: no cards).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tuolaji.cards import Card
from tuolaji.wire.values import event_fields, to_jsonable


@dataclass(frozen=True)
class Event:
    """Something that happened. ``to`` is None for everyone at the table, else the one seat that may see it."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    to: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The event's JSON object (its wire form, ``tuolaji.wire.values``)."""
        return event_fields(self.type, self.data)


@dataclass(frozen=True)
class PlayRecord:
    """One seat's play in a trick (``wrong`` is never shown before the trick is judged)."""

    seat: int
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return to_jsonable(self)


@dataclass(frozen=True)
class TrickRecord:
    """A finished trick: plays in play order (the lead first), winner seat, card points, scoring."""

    leader: int
    plays: tuple[PlayRecord, ...]
    winner: int
    points: int
    multiplier: int = 1

    def to_json(self) -> dict[str, Any]:
        return to_jsonable(self)


@dataclass(frozen=True)
class BidRecord:
    """A bid as shown at the table: ``seat`` showed ``count`` identical level cards of ``suit`` (R16–R18)."""

    seat: int
    suit: int
    count: int

    def to_json(self) -> dict[str, Any]:
        return to_jsonable(self)


@dataclass(frozen=True)
class RoundResult:
    """How a round ended.

    ``kind``: ``played`` (to the last card), ``laogai`` (R34), ``redeal`` (R20), ``escape`` (R43)
    or ``dissolved`` (R32: retractions over 400). ``winner`` is ``defenders``/``attackers`` and
    ``winning_team`` 0 (seats 0, 2) or 1 (seats 1, 3) when a team won; ``levels`` its level gain.
    ``score`` is the attackers' final score (R35: clamped to 0 … 400 unless the preset has no 封頂);
    ``card_points`` the face points they took; ``last_trick`` the 摳底 value added (negative for 反摳);
    ``penalty`` the net retraction change. ``cheaters`` lists seats flagged by R32; ``escaped`` the seat that left.
    """

    kind: str
    dealer: int | None
    winner: str | None = None
    winning_team: int | None = None
    levels: int = 0
    score: int = 0
    card_points: int = 0
    last_trick: int = 0
    penalty: int = 0
    laogai_team: int | None = None
    cheaters: tuple[int, ...] = ()
    escaped: int | None = None

    def to_json(self) -> dict[str, Any]:
        return to_jsonable(self)


@dataclass(frozen=True)
class SeatView:
    """Everything one seat may know about the round (R46: enough to rebuild the table on reconnect).
    Its JSON form is :func:`tuolaji.wire.views.view_json`."""

    seat: int | None
    phase: str
    level: int
    dealer: int | None
    first_hand: bool
    bid: BidRecord | None
    bids: tuple[BidRecord, ...]
    """Every accepted bid of this round, oldest first (R16–R18: bids are public); ``bid`` is the last one."""
    passes: tuple[bool, ...]
    """Seat by seat, whether it said 不叫 in the window after the deal since the standing bid was made (R19)."""
    trump_suit: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    cards_dealt: int
    to_move: int | None
    leader: int | None
    trick: tuple[PlayRecord, ...]
    tricks: tuple[TrickRecord, ...]
    attackers_points: int
    point_cards: tuple[Card, ...]
    retraction_points: tuple[int, ...]
    autoplay: tuple[bool, ...]
    timeouts: tuple[int, ...]
    reminded: bool
    can_remind: bool
    can_retract: bool
    bid_options: tuple[tuple[int, int], ...]
    hint: tuple[Card, ...]
    result: RoundResult | None
    preset: str
    illegal_follow: str

    @staticmethod
    def of(fields: dict[str, Any]) -> SeatView:
        """The view with ``fields`` (every field, by name), made without running the frozen
        dataclass's ``__init__`` field by field (the hot path: every broadcast builds one)."""
        view = object.__new__(SeatView)
        view.__dict__.update(fields)
        return view

    def for_seat(
        self,
        seat: int,
        hand: tuple[Card, ...],
        reminded: bool,
        can_remind: bool,
        can_retract: bool,
        bid_options: tuple[tuple[int, int], ...],
        hint: tuple[Card, ...],
    ) -> SeatView:
        """This view (a spectator's) with one seat's own fields: ``dataclasses.replace`` without running
        ``__init__`` again field by field, which a broadcast of four seats' views felt (the hot path)."""
        view = object.__new__(SeatView)
        fields = view.__dict__
        fields.update(self.__dict__)
        fields.update(
            seat=seat,
            hand=hand,
            reminded=reminded,
            can_remind=can_remind,
            can_retract=can_retract,
            bid_options=bid_options,
            hint=hint,
        )
        return view
