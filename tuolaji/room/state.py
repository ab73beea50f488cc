"""What every part of a table reads and writes: :class:`TableData` (seats, spectators, the match,
the table's state, its one deadline), with the small types it is made of and :class:`Refused`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tuolaji.game.driver import Chooser
from tuolaji.game.match import Match
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Phase, Round
from tuolaji.room.commands import Player


class TableState(StrEnum):
    """Where a table stands between its matches and hands."""

    WAITING = "waiting"
    """Seats to fill or starts to press (R47)."""
    PLAYING = "playing"
    """A hand is being played."""
    SETTLING = "settling"
    """The hand is over and waits for its record and balances to be stored (shown as ``between``)."""
    BETWEEN = "between"
    """A hand was settled; the next one starts after a pause (R37)."""
    STOPPED = "stopped"
    """Three redeals in a row (R20): everyone presses start again."""
    CLOSED = "closed"


@dataclass(frozen=True)
class TableConfig:
    """The server's pace for its tables (the table's own rules are :class:`TableOptions`)."""

    bot_delay_ms: int = 600
    """A bot or 託管 seat waits this long before it moves, so people can follow the play."""
    next_hand_delay_ms: int = 3000
    """Pause between a hand's settlement and the next deal (R37)."""
    reconnect_grace_ms: int = 60_000
    """After a restart, how long a table that waits for players keeps the seats of people who have
    not reconnected (R46, docs/RULES-NOTES.md)."""
    slow_bots: frozenset[str] = frozenset()
    """Bots whose moves are thought out elsewhere (:class:`~tuolaji.room.effects.AskBot`); the others
    move in :meth:`~tuolaji.room.table.Table.handle`."""


@dataclass(frozen=True)
class Deadline:
    """What the table's one clock runs for: ``kind`` (deal, bid, turn, review, next_hand, reconnect),
    the ``seat`` (turn only) and when (``at_ms``)."""

    kind: str
    seat: int | None
    at_ms: int

    def to_json(self, now_ms: int) -> dict[str, Any]:
        """The protocol's ``Clock`` object."""
        return {"kind": self.kind, "seat": self.seat, "remaining_ms": max(0, self.at_ms - now_ms)}


@dataclass
class SeatState:
    """One of the four seats: empty, a person (``player``) or a bot (``bot``)."""

    index: int
    player: Player | None = None
    bot: str | None = None
    ready: bool = False
    away_autoplay: bool = False
    """託管 was switched on because the player went away (R46); coming back switches it off."""
    client: str | None = None
    """The connection acting for the player now (not durable)."""
    grace: bool = False
    """Away only because the server restarted: not yet switched to 託管, not removed at this hand's end."""

    @property
    def kind(self) -> str:
        """``human``, ``bot`` or ``empty``."""
        return "human" if self.player is not None else "bot" if self.bot is not None else "empty"

    def to_json(self) -> dict[str, Any]:
        """The durable part (as in log snapshots)."""
        return {
            "player": self.player.to_json() if self.player is not None else None,
            "bot": self.bot,
            "ready": self.ready,
            "away": self.away_autoplay,
        }


class Refused(Exception):
    """A request the table refuses (``code``, English ``text``, the ``rule`` it breaks and ``params``
    for the client's own words); raised before anything changed."""

    def __init__(self, code: str, text: str, rule: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(text)
        self.code, self.text, self.rule, self.params = code, text, rule, dict(params or {})


class TableData:
    """The state a table's parts share. Durable (rebuilt from the log): the seats' people and bots,
    privacy, the state, the match, hand numbers. Not durable: connections, spectators, the deadline."""

    def __init__(self, table_id: str, options: TableOptions, config: TableConfig, table_number: int = 0) -> None:
        self.id = table_id
        self.table_number = table_number
        """What players call the table (第 N 桌; 0: it has no number), given by the store when it opened."""
        self.options = options
        self.config = config
        self.seats = [SeatState(index) for index in range(4)]
        self.watchers: set[str] = set()
        """The spectators' connections."""
        self.private = False
        """Hidden from the lobby; joined or watched only with :attr:`invite` (or by :attr:`creator`)."""
        self.invite: str | None = None
        """The code of the invite link, once the table was made private (it stays valid if made public)."""
        self.creator: int | None = None
        """The account that made the table private (the one who may make it public)."""
        self.state = TableState.WAITING
        self.match: Match | None = None
        self.number = 0
        """Hands started at this table, over all its matches (the stored hands' ``number``)."""
        self.started_ms = 0
        """When the current hand started."""
        self.seq = 0
        """The number of the last ``state`` broadcast (clients see gaps)."""
        self.deadline: Deadline | None = None
        """What the table's one clock runs for, if anything."""
        self.now = 0
        """The time of the command being handled."""
        self.choosers: list[Chooser] = []
        """Each seat's in-process player for this match (bots, 託管, timeouts, slow bots' fallback)."""
        self.outcome_levels: tuple[int, int] | None = None
        """The teams' levels after the finished hand (shown in ``hand_end``)."""
        self.next_dealer: int | None = None
        """The dealer of the next hand, once a hand finished."""
        self.hand_end: dict[str, Any] | None = None
        """The last hand's ``hand_end`` while the table is between hands (for who connects then)."""

    @property
    def round(self) -> Round | None:
        """The match's current (or last finished) round, if a match is running."""
        return self.match.round if self.match is not None else None

    @property
    def closed(self) -> bool:
        """Whether the table is closed (it takes no more requests)."""
        return self.state is TableState.CLOSED

    def seat_of(self, account_id: int) -> int | None:
        """The seat ``account_id`` holds here, or None."""
        for seat in self.seats:
            if seat.player is not None and seat.player.id == account_id:
                return seat.index
        return None

    def client_seat(self, client: str) -> int | None:
        """The seat ``client`` acts for, or None."""
        for seat in self.seats:
            if seat.client == client:
                return seat.index
        return None

    def seated(self, client: str) -> int:
        """The seat ``client`` acts for; :class:`Refused` (``not_seated``) if none."""
        seat = self.client_seat(client)
        if seat is None:
            raise Refused("not_seated", f"you are not seated at table {self.id}", params={"table": self.id})
        return seat

    def hand_running(self) -> bool:
        """Whether a hand is being played (dealt and not finished)."""
        round_ = self.round
        return round_ is not None and round_.phase is not Phase.FINISHED

    def in_hand(self) -> bool:
        """Whether a hand is being played or settled (a drain hands the table over only outside one)."""
        return self.hand_running() or self.state is TableState.SETTLING

    def players(self) -> dict[int, Player]:
        """The seated people, by seat."""
        return {seat.index: seat.player for seat in self.seats if seat.player is not None}

    def shown_state(self) -> str:
        """The state players see: a hand being settled is already between hands."""
        return str(TableState.BETWEEN if self.state is TableState.SETTLING else self.state)

    def is_auto(self, index: int) -> bool:
        """Whether seat ``index`` moves by itself: a bot, or a person in 託管 (R45)."""
        round_ = self.round
        return self.seats[index].bot is not None or (round_ is not None and round_.autoplay[index])

    def is_slow(self, index: int) -> bool:
        """Whether seat ``index`` holds a slow bot (its moves are thought out elsewhere)."""
        return self.seats[index].bot in self.config.slow_bots
