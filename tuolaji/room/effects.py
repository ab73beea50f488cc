"""Effects of a :class:`~tuolaji.room.table.Table` step, for the server's shell to carry out in order:
write the log (:class:`Record`, a typed entry, before anything else leaves), send messages, arm the timer, ask a
slow bot, store a finished hand. Plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tuolaji.game.settlement import Change
from tuolaji.game.view import Event, RoundResult, SeatView
from tuolaji.room.commands import TurnStamp
from tuolaji.room.entries import Entry


@dataclass(frozen=True)
class HandSeat:
    """Who sat in a seat of a hand: an account (``account_id``, ``nickname``) or a bot (``bot``)."""

    seat: int
    account_id: int | None = None
    nickname: str | None = None
    bot: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The protocol's ``Seat`` object."""
        return {"seat": self.seat, "account_id": self.account_id, "nickname": self.nickname, "bot": self.bot}


@dataclass(frozen=True)
class Record:
    """Append ``entry`` to the table's durable log before anything of this step reaches a client (the
    store keeps its :func:`~tuolaji.room.entries.entry_to_json`)."""

    entry: Entry


@dataclass(frozen=True)
class Send:
    """Send ``client`` the message ``kind`` with ``fields``."""

    client: str
    kind: str
    fields: dict[str, Any]


@dataclass(frozen=True)
class Refuse:
    """Answer ``client``'s request ``ref`` with an error: ``code``, an English ``text`` naming the rule,
    the ``rule`` and ``params`` for the client's own words. Nothing changed."""

    client: str
    code: str
    text: str
    ref: str | int | None
    rule: str | None = None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Ack:
    """``client``'s request ``ref`` was carried out."""

    client: str
    ref: str | int


@dataclass(frozen=True)
class SendState:
    """Each recipient gets a ``state``: ``recipients`` are (client, seat or None for a spectator),
    ``views`` by that seat, ``events`` filtered by each event's ``to``, and ``escape_costs`` what
    leaving now would cost each seated person (R43; only during a hand)."""

    recipients: tuple[tuple[str, int | None], ...]
    views: dict[int | None, SeatView]
    events: tuple[Event, ...]
    seq: int
    hand: int
    full: bool
    clock: dict[str, Any] | None
    escape_costs: dict[int, Change] = field(default_factory=dict)


@dataclass(frozen=True)
class SendSummary:
    """The table's summary changed: ``table`` messages to ``recipients`` (client, seat) and the lobby."""

    summary: dict[str, Any]
    recipients: tuple[tuple[str, int | None], ...]


@dataclass(frozen=True)
class Arm:
    """Run the table's one timer until ``at_ms`` (replacing any other), then :class:`ClockFired`."""

    at_ms: int


@dataclass(frozen=True)
class Disarm:
    """Stop the table's timer."""


@dataclass(frozen=True)
class AskBot:
    """Think out ``bot``'s (seeded ``seed``) move in ``view``, and answer with :class:`BotAnswer`."""

    stamp: TurnStamp
    bot: str
    seed: int
    view: SeatView


@dataclass(frozen=True)
class StoreHand:
    """Settle and store the finished hand ``number`` (R39–R43), in the same transaction as this
    step's log entries; then answer with :class:`HandSettled`."""

    number: int
    options: dict[str, Any]
    setup: dict[str, Any]
    actions: tuple[dict[str, Any], ...]
    result: RoundResult
    seats: tuple[HandSeat, ...]
    started_ms: int
    private: bool = False
    """The table was private when the hand ended: the record is for its players only."""


@dataclass(frozen=True)
class Seated:
    """``account_id`` now sits at ``seat`` of this table, or (``seat`` None) no longer does."""

    account_id: int
    seat: int | None


@dataclass(frozen=True)
class Closed:
    """The table closed (``reason``): forget it; its log is finished."""

    reason: str


Effect = Record | Send | Refuse | Ack | SendState | SendSummary | Arm | Disarm | AskBot | StoreHand | Seated | Closed
