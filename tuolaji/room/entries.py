"""A table's log entries: one frozen dataclass per kind of durable change, and their one JSON codec.

Every change of a table's durable state is one entry (a :class:`~tuolaji.room.effects.Record`
effect), applied by the same code live and when the table is restored from its log
(:class:`~tuolaji.room.journal.Journal`). The store keeps each entry as the JSON of
:func:`entry_to_json` and gives them back through :func:`entry_from_json`; it never reads their
tags, only what an entry means for the log: :attr:`Entry.compacts` (a snapshot: the log before it
may be dropped) and :attr:`Entry.closes` (the table is closed: its log goes).

The JSON form is ``{"t": tag, ...fields}``, the fields in the order written here. Logs written
before ``round`` entries carried ``private``, ``invite`` and ``creator`` still load (a public table).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tuolaji.game.actions import Action, action_from_json, action_to_json
from tuolaji.room.commands import Player


class BadEntry(ValueError):
    """A stored log entry that is not one this code can read (an unknown tag or a malformed field)."""


@dataclass(frozen=True)
class Entry:
    """The base of every log entry; :attr:`tag` is its ``t`` in JSON."""

    tag: ClassVar[str] = ""

    @property
    def compacts(self) -> bool:
        """A snapshot of the whole table: the entries before it are not needed to rebuild it."""
        return False

    @property
    def closes(self) -> bool:
        """The table is closed: its log is finished and may go."""
        return False


@dataclass(frozen=True)
class Sat(Entry):
    """A person sat down at an empty ``seat`` (not ready yet, R47)."""

    seat: int
    player: Player
    tag: ClassVar[str] = "sit"


@dataclass(frozen=True)
class BotSat(Entry):
    """The bot ``bot`` took an empty ``seat`` (a bot is always ready)."""

    seat: int
    bot: str
    tag: ClassVar[str] = "bot"


@dataclass(frozen=True)
class Freed(Entry):
    """``seat`` was freed (left, removed, escaped, closed)."""

    seat: int
    tag: ClassVar[str] = "free"


@dataclass(frozen=True)
class Readied(Entry):
    """The person at ``seat`` pressed start (R20, R47)."""

    seat: int
    tag: ClassVar[str] = "ready"


@dataclass(frozen=True)
class MatchBegun(Entry):
    """A new match with the seed ``seed`` (its first round follows as :class:`RoundBegun`)."""

    seed: int
    tag: ClassVar[str] = "match"


@dataclass(frozen=True)
class MatchResumed(Entry):
    """A match stopped by three redeals in a row goes on (R20)."""

    tag: ClassVar[str] = "resume"


@dataclass(frozen=True)
class SeatRecord:
    """A seat in a :class:`RoundBegun` snapshot: its person or bot, whether it pressed start and
    whether its 託管 came from the player going away (R46)."""

    player: Player | None
    bot: str | None
    ready: bool
    away: bool


@dataclass(frozen=True)
class RoundBegun(Entry):
    """A round starts: a snapshot of the whole table (seats, the match's JSON, the round's setup
    JSON, whether it is private), so the log before it may be dropped."""

    number: int
    started_ms: int
    seats: tuple[SeatRecord, ...]
    match: Mapping[str, Any]
    setup: Mapping[str, Any]
    private: bool = False
    invite: str | None = None
    creator: int | None = None
    tag: ClassVar[str] = "round"

    @property
    def compacts(self) -> bool:
        return True


@dataclass(frozen=True)
class Acted(Entry):
    """A game action applied to the round (a person's, a bot's or the server's own)."""

    action: Action
    tag: ClassVar[str] = "act"


@dataclass(frozen=True)
class Settling(Entry):
    """The hand is over: the match takes its outcome and the table waits for the hand to be stored."""

    tag: ClassVar[str] = "settle"


@dataclass(frozen=True)
class BetweenHands(Entry):
    """The hand was settled; the next one starts after a pause (R37)."""

    tag: ClassVar[str] = "between"


@dataclass(frozen=True)
class Stopped(Entry):
    """Three redeals in a row (R20): everyone presses start again."""

    tag: ClassVar[str] = "stop"


@dataclass(frozen=True)
class MatchEnded(Entry):
    """The match ended (R3, R47): the table waits for four seats and four starts."""

    tag: ClassVar[str] = "end_match"


@dataclass(frozen=True)
class TableClosed(Entry):
    """The table closed for ``reason`` (empty, dissolved, redeal)."""

    reason: str
    tag: ClassVar[str] = "close"

    @property
    def closes(self) -> bool:
        return True


@dataclass(frozen=True)
class MadePrivate(Entry):
    """The table is private: entered with the invite ``code`` or by its ``creator``."""

    code: str
    creator: int
    tag: ClassVar[str] = "private"


@dataclass(frozen=True)
class MadePublic(Entry):
    """The private table is listed in the lobby (its invite code stays valid)."""

    tag: ClassVar[str] = "public"


# ---------------------------------------------------------------------- the codec


def entry_to_json(entry: Entry) -> dict[str, Any]:
    """The stored JSON form of ``entry``."""
    body: dict[str, Any] = {"t": entry.tag}
    match entry:
        case Acted(action):
            body["action"] = action_to_json(action)
        case Sat(seat, player):
            body.update(seat=seat, player=player.to_json())
        case BotSat(seat, bot):
            body.update(seat=seat, bot=bot)
        case Freed(seat) | Readied(seat):
            body["seat"] = seat
        case MatchBegun(seed):
            body["seed"] = seed
        case RoundBegun():
            body.update(_round_json(entry))
        case TableClosed(reason):
            body["reason"] = reason
        case MadePrivate(code, creator):
            body.update(code=code, creator=creator)
    return body


def _round_json(entry: RoundBegun) -> dict[str, Any]:
    seats = [
        {
            "player": seat.player.to_json() if seat.player is not None else None,
            "bot": seat.bot,
            "ready": seat.ready,
            "away": seat.away,
        }
        for seat in entry.seats
    ]
    return {
        "number": entry.number,
        "started_ms": entry.started_ms,
        "seats": seats,
        "match": entry.match,
        "setup": entry.setup,
        "private": entry.private,
        "invite": entry.invite,
        "creator": entry.creator,
    }


def entry_from_json(data: object) -> Entry:
    """The entry whose stored JSON form is ``data``; raises :class:`BadEntry` naming what is wrong."""
    if not isinstance(data, dict):
        raise BadEntry(f"a log entry must be a JSON object, got {data!r}")
    tag = data.get("t")
    parse = _PARSERS.get(tag) if isinstance(tag, str) else None
    if parse is None:
        raise BadEntry(f"unknown log entry {data!r}; known kinds: {', '.join(sorted(_PARSERS))}")
    try:
        return parse(data)
    except (KeyError, TypeError, ValueError) as error:
        raise BadEntry(f"malformed log entry {data!r}: {type(error).__name__}: {error}") from None


def _seat(data: dict[str, Any]) -> int:
    seat = data["seat"]
    if not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ValueError(f"seat {seat!r} is not 0 to 3")
    return seat


def _seat_record(data: dict[str, Any]) -> SeatRecord:
    player = Player.from_json(data["player"]) if data["player"] is not None else None
    return SeatRecord(player, data["bot"], bool(data["ready"]), bool(data["away"]))


def _round(data: dict[str, Any]) -> RoundBegun:
    seats = tuple(_seat_record(seat) for seat in data["seats"])
    if len(seats) != 4:
        raise ValueError(f"{len(seats)} seats, not 4")
    return RoundBegun(
        int(data["number"]),
        int(data["started_ms"]),
        seats,
        dict(data["match"]),
        dict(data["setup"]),
        bool(data.get("private", False)),
        data.get("invite"),
        data.get("creator"),
    )


_PARSERS: dict[str, Callable[[dict[str, Any]], Entry]] = {
    Sat.tag: lambda data: Sat(_seat(data), Player.from_json(data["player"])),
    BotSat.tag: lambda data: BotSat(_seat(data), str(data["bot"])),
    Freed.tag: lambda data: Freed(_seat(data)),
    Readied.tag: lambda data: Readied(_seat(data)),
    MatchBegun.tag: lambda data: MatchBegun(int(data["seed"])),
    MatchResumed.tag: lambda data: MatchResumed(),
    RoundBegun.tag: _round,
    Acted.tag: lambda data: Acted(action_from_json(data["action"])),
    Settling.tag: lambda data: Settling(),
    BetweenHands.tag: lambda data: BetweenHands(),
    Stopped.tag: lambda data: Stopped(),
    MatchEnded.tag: lambda data: MatchEnded(),
    TableClosed.tag: lambda data: TableClosed(str(data.get("reason", ""))),
    MadePrivate.tag: lambda data: MadePrivate(str(data["code"]), int(data["creator"])),
    MadePublic.tag: lambda data: MadePublic(),
}
"""How each kind is read back, by tag (the conversions the table applied to the stored JSON before)."""
