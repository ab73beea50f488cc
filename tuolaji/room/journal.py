"""A table's log: the one place where its durable state changes, live and when it is restored.

:meth:`Journal.record` applies an entry (:mod:`tuolaji.room.entries`) to the shared
:class:`~tuolaji.room.state.TableData` and adds it to the step's effects as a
:class:`~tuolaji.room.effects.Record`; :meth:`Journal.apply` alone is how a stored log rebuilds the table.
"""

from __future__ import annotations

from tuolaji.game.actions import Action, SetAutoPlay
from tuolaji.game.match import Match
from tuolaji.game.round import RoundSetup
from tuolaji.game.view import Event
from tuolaji.room.autoplay import AutoPlayer
from tuolaji.room.commands import Player
from tuolaji.room.effects import Record
from tuolaji.room.entries import (
    Acted,
    BetweenHands,
    BotSat,
    Entry,
    Freed,
    MadePrivate,
    MadePublic,
    MatchBegun,
    MatchEnded,
    MatchResumed,
    Readied,
    RoundBegun,
    Sat,
    Settling,
    Stopped,
    TableClosed,
)
from tuolaji.room.outbox import Outbox
from tuolaji.room.state import TableData, TableState


class Journal:
    """Applies log entries to ``data`` and records them in ``outbox``; ``autoplayer`` gives each
    seat's in-process player when a round's snapshot is applied."""

    def __init__(self, data: TableData, outbox: Outbox, autoplayer: AutoPlayer) -> None:
        self._data = data
        self._outbox = outbox
        self.autoplayer = autoplayer

    def record(self, entry: Entry) -> list[Event]:
        """Apply ``entry`` and, if that worked, append it to the log; the events of a game action."""
        events = self.apply(entry)
        self._outbox.add(Record(entry))
        return events

    def record_action(self, action: Action, checked: bool) -> list[Event]:
        """:meth:`record` of a game action (``checked=False`` only for moves already checked by
        :func:`~tuolaji.room.autoplay.legal_play`)."""
        events = self._apply_action(action, checked)
        self.log_action(action)
        return events

    def log_action(self, action: Action) -> None:
        """Append a game action already applied to the round to the log."""
        self._outbox.add(Record(Acted(action)))

    def apply(self, entry: Entry) -> list[Event]:
        """Change the durable state as ``entry`` says; the events of a game action (else none)."""
        data = self._data
        match entry:
            case Acted(action):
                return self._apply_action(action, True)
            case Sat(seat, player):
                self._sit(seat, player, None)
            case BotSat(seat, bot):
                self._sit(seat, None, bot)
            case Freed(seat):
                self._free(seat)
            case Readied(seat):
                data.seats[seat].ready = True
            case MatchBegun(seed):
                data.match = Match(data.options, seed)  # its bots come with the round's snapshot
            case MatchResumed():
                assert data.match is not None
                data.match.resume()
            case RoundBegun():
                self._apply_snapshot(entry)
            case Settling():
                self._settle()
            case BetweenHands():
                data.state = TableState.BETWEEN
            case Stopped():
                data.state = TableState.STOPPED
                self._unready()
            case MatchEnded():
                data.match, data.state = None, TableState.WAITING
                self._unready()
            case TableClosed():
                data.state = TableState.CLOSED
            case MadePrivate(code, creator):
                data.private, data.invite, data.creator = True, code, creator
            case MadePublic():
                data.private = False
            case _:
                raise ValueError(f"table {data.id}: unknown log entry {entry!r}")
        return []

    def _sit(self, index: int, player: Player | None, bot: str | None) -> None:
        """A person (not ready yet) or a bot (always ready) takes seat ``index``."""
        seat = self._data.seats[index]
        seat.player, seat.bot, seat.ready, seat.away_autoplay = player, bot, bot is not None, False

    def _free(self, index: int) -> None:
        seat = self._data.seats[index]
        seat.player = seat.bot = seat.client = None
        seat.ready = seat.away_autoplay = seat.grace = False

    def _settle(self) -> None:
        data = self._data
        assert data.match is not None
        outcome = data.match.finish_round()
        data.outcome_levels, data.next_dealer = outcome.levels_after, outcome.next_dealer
        data.state = TableState.SETTLING

    def _apply_action(self, action: Action, checked: bool) -> list[Event]:
        data = self._data
        round_ = data.round
        assert round_ is not None
        events = round_.apply(action, checked=checked)
        if isinstance(action, SetAutoPlay):
            data.seats[action.seat].away_autoplay = action.on and action.reason == "disconnect"
        return events

    def _apply_snapshot(self, entry: RoundBegun) -> None:
        data = self._data
        for seat, saved in zip(data.seats, entry.seats, strict=True):
            seat.player, seat.bot, seat.ready, seat.away_autoplay = saved.player, saved.bot, saved.ready, saved.away
        match = data.match = Match.from_json(data.options, dict(entry.match))
        match.start_round(RoundSetup.from_json(data.options, dict(entry.setup)))
        data.number, data.started_ms = entry.number, entry.started_ms
        data.private, data.invite, data.creator = entry.private, entry.invite, entry.creator
        data.state = TableState.PLAYING
        data.choosers = [self.autoplayer(seat.bot, match.seed + seat.index) for seat in data.seats]

    def _unready(self) -> None:
        for seat in self._data.seats:
            seat.ready = seat.bot is not None
            seat.away_autoplay = False
