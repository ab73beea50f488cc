"""The table (桌) as a pure state machine: seats, the match, clocks, bots and 託管 (R1–R3, R15–R47).

A :class:`Table` is driven by :meth:`Table.handle`: a command (a client's request, a clock that
fired, a bot's answer, a stored hand…) and the time in, a list of effects out. It never awaits,
never reads a clock, never touches a socket or a database; the server's shell carries the effects
out: write the log, send messages, arm the timer, ask a slow bot, store a finished hand.

The table hands each command to the part whose job it is, all sharing its
:class:`~tuolaji.room.state.TableData`: :class:`~tuolaji.room.seating.Seating` (seats, spectators,
private tables), :class:`~tuolaji.room.connections.Connections` (R46),
:class:`~tuolaji.room.moves.Moves` (the hand's actions), :class:`~tuolaji.room.timeouts.Timeouts`
and :class:`~tuolaji.room.clock.Clock` (R44, 託管), :class:`~tuolaji.room.slowbots.SlowBots`,
:class:`~tuolaji.room.finisher.Finisher` (R36–R43, R46–R47) and :class:`~tuolaji.room.talk.Talk`;
they write through :class:`~tuolaji.room.journal.Journal` (the log) and
:class:`~tuolaji.room.outbox.Outbox` (the effects).

Every change of the table's durable state is one log entry (a :class:`~tuolaji.room.effects.Record` effect carrying a
typed entry of :mod:`tuolaji.room.entries`), applied by the same code live and in
:meth:`Table.restore`, so a table's log rebuilds it exactly. A ``round`` entry is a snapshot (seats,
match, the round's setup): the log before it may be dropped. Connections (which client sits where,
who watches), clocks and a slow bot's pending answer are not durable: a restored table gets them
back from :class:`~tuolaji.room.commands.Resume` and the clients' reconnections.

Clients are opaque ids (``client``) that the shell maps to its connections.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tuolaji.game.actions import Bid, Pass, Play, Remind, Retract, SetAutoPlay
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Phase
from tuolaji.room.autoplay import AutoPlayer, legal_play
from tuolaji.room.clock import Clock
from tuolaji.room.commands import (
    AddBot,
    Attach,
    BotAnswer,
    ClockFired,
    CloseTable,
    Command,
    Detach,
    HandSettled,
    Join,
    Leave,
    MakePrivate,
    MakePublic,
    PlayNow,
    Refresh,
    RemoveBot,
    RequestAutoPlay,
    RequestBid,
    RequestPass,
    RequestPlay,
    RequestRemind,
    RequestRetract,
    Resume,
    Say,
    SeatMatch,
    Start,
    Sync,
    Watch,
)
from tuolaji.room.connections import Connections
from tuolaji.room.effects import Ack, Arm, Disarm, Effect, Refuse, Send
from tuolaji.room.entries import BadEntry, Entry
from tuolaji.room.finisher import Finisher
from tuolaji.room.journal import Journal
from tuolaji.room.moves import Moves
from tuolaji.room.outbox import Outbox
from tuolaji.room.seating import Seating
from tuolaji.room.slowbots import SlowBots
from tuolaji.room.state import Deadline, Refused, SeatState, TableConfig, TableData, TableState
from tuolaji.room.talk import Talk
from tuolaji.room.timeouts import CARDS_PER_TICK, Timeouts

__all__ = [
    "CARDS_PER_TICK",
    "AutoPlayer",
    "Deadline",
    "Refused",
    "SeatState",
    "Table",
    "TableConfig",
    "TableState",
    "legal_play",
]


class Table(TableData):
    """One table; see the module docstring. ``autoplayer`` gives each seat's in-process player,
    ``seeds`` the seed of each new match. Its state is read through :class:`TableData`'s attributes
    and queries; it changes only through :meth:`handle`."""

    def __init__(
        self,
        table_id: str,
        options: TableOptions,
        config: TableConfig,
        autoplayer: AutoPlayer,
        seeds: Callable[[], int],
        table_number: int = 0,
    ) -> None:
        super().__init__(table_id, options, config, table_number)
        self._autoplayer, self._seeds = autoplayer, seeds
        self._outbox = outbox = Outbox(self)
        self._journal = journal = Journal(self, outbox, autoplayer)
        self._slow_bots = slow_bots = SlowBots(self, outbox)
        clock = Clock(self, slow_bots)
        self._moves = moves = Moves(self, outbox, journal, clock, slow_bots)
        self._seating = seating = Seating(self, outbox, journal, moves, seeds)
        self._connections = Connections(self, outbox, clock, moves, seating, slow_bots)
        self._finisher = Finisher(self, outbox, journal, clock, moves, seating)
        self._timeouts = Timeouts(self, outbox, moves, seating, slow_bots)
        self._talk = Talk(self, outbox)

    def summary(self) -> dict[str, Any]:
        """The protocol's ``TableSummary``."""
        return self._outbox.summary()

    def handle(self, command: Command, now_ms: int) -> list[Effect]:
        """Carry out ``command`` at time ``now_ms``; the effects, in order (the
        :class:`~tuolaji.room.effects.Record` entries first in meaning: the shell writes them before it
        lets anything else out)."""
        self.now = now_ms
        before = self.deadline
        if self.state is TableState.CLOSED:
            self._refuse_closed(command)
        else:
            client, ref = getattr(command, "client", None), getattr(command, "ref", None)
            try:
                self._dispatch(command)
            except Refused as refused:
                assert client is not None
                self._outbox.add(Refuse(client, refused.code, refused.text, ref, refused.rule, refused.params))
            else:
                if client is not None and ref is not None:
                    self._outbox.add(Ack(client, ref))
            round_ = self.round
            if self.state is TableState.PLAYING and round_ is not None and round_.phase is Phase.FINISHED:
                self._finisher.finish()
            # A table closes when nobody is seated at it (a new one is made private before its creator sits).
            if not self.closed and not isinstance(command, MakePrivate) and not self.players():
                self._seating.close("empty")
        if self.deadline != before:
            self._outbox.add(Arm(self.deadline.at_ms) if self.deadline is not None else Disarm())
        return self._outbox.take()

    def _refuse_closed(self, command: Command) -> None:
        client = getattr(command, "client", None)
        if isinstance(command, Attach):
            self._outbox.add(Send(command.client, "left", {"table_id": self.id, "reason": "closed"}))
        elif client is not None and not isinstance(command, Detach):
            text = f"table {self.id} is closed"
            ref = getattr(command, "ref", None)
            self._outbox.add(Refuse(client, "no_table", text, ref, None, {"table": self.id}))

    def _dispatch(self, command: Command) -> None:
        """Hand ``command`` to the part whose job it is."""
        if self._dispatch_seating(command):
            return
        moves, connections = self._moves, self._connections
        match command:
            case RequestBid(client, suit, count):
                moves.request(Bid(self.seated(client), suit, count))
            case RequestPass(client):
                moves.request(Pass(self.seated(client)))
            case RequestPlay(client, cards, confirmed):
                play = Play(self.seated(client), cards)
                moves.confirm_laogai(play, confirmed)
                moves.request(play)
            case RequestRemind(client):
                moves.request(Remind(self.seated(client)))
            case RequestRetract(client):
                moves.request(Retract(self.seated(client)))
            case RequestAutoPlay(client, on):
                moves.request(SetAutoPlay(self.seated(client), on), need_round=False)
            case Attach(client, account_id):
                connections.attach(client, account_id)
            case Sync(client):
                connections.sync(client)
            case Detach(client):
                connections.detach(client)
            case Resume():
                connections.resume()
            case Refresh(players):
                connections.refresh(players)
            case ClockFired():
                self._timeouts.fired()
            case BotAnswer(stamp, action):
                answer = self._slow_bots.answer(stamp, action)
                if answer is not None:
                    moves.apply(answer, checked=False)
            case HandSettled():
                self._finisher.settled(command)
            case Say(client, phrase):
                self._talk.say(client, phrase)

    def _dispatch_seating(self, command: Command) -> bool:
        """Hand a command about seats, spectators and the table itself to :class:`Seating`; whether it was one."""
        seating = self._seating
        match command:
            case Join(client, player, seat, _, invite):
                seating.join(client, player, seat, invite)
            case PlayNow(client, player, bot):
                seating.play_now(client, player, bot)
            case SeatMatch(people, bot):
                seating.seat_match(people, bot)
            case Watch(client, _, invite):
                seating.watch(client, invite)
            case Leave(client, _, escape):
                seating.leave(client, escape)
            case AddBot(client, seat, bot):
                self.seated(client)
                seating.add_bot(seat, bot)
            case RemoveBot(client, seat):
                self.seated(client)
                seating.remove_bot(seat)
            case Start(client):
                seating.press_start(client)
            case MakePrivate(code, creator):
                seating.make_private(code, creator)
            case MakePublic(client):
                seating.make_public(client)
            case CloseTable(reason):
                seating.close_by_moderator(reason)
            case _:
                return False
        return True

    @classmethod
    def restore(
        cls,
        table_id: str,
        options: TableOptions,
        config: TableConfig,
        autoplayer: AutoPlayer,
        seeds: Callable[[], int],
        entries: Iterable[Entry],
        table_number: int = 0,
    ) -> Table:
        """The table that ``entries`` (its log, from its last snapshot on) lead to; nobody connected.
        Continue it with :class:`~tuolaji.room.commands.Resume`. Raises
        :class:`~tuolaji.room.entries.BadEntry` naming the table and the entry if one cannot be applied."""
        table = cls(table_id, options, config, autoplayer, seeds, table_number)
        for position, entry in enumerate(entries):
            try:
                table._journal.apply(entry)
            except Exception as error:
                text = f"table {table_id}: log entry {position} ({entry!r}) cannot be applied: {error!r}"
                raise BadEntry(text) from error
        return table

    def rebuilt(self, entries: Iterable[Entry]) -> Table:
        """This table (same id, options, config and players) rebuilt from ``entries``; nobody connected.
        Its ``seq`` goes on from this one's: its clients saw the states up to it, and a later state
        numbered lower would look to them like one they had already seen (docs/PROTOCOL.md §3)."""
        table = Table.restore(
            self.id, self.options, self.config, self._autoplayer, self._seeds, entries, self.table_number
        )
        table.seq = self.seq
        return table
