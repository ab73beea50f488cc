"""The shell around one :class:`~tuolaji.room.table.Table`: a queue, the log, the timer, the messages.

A host takes one command at a time from its queue, lets the table decide (``Table.handle``), writes
the step's log entries (and, when a hand ends, its record and balances) in one transaction, and only
then carries the other effects out: messages to clients (encoded by ``outgoing``, delivered through
the bus with where they put their client), the lobby's summary, the timer, a slow bot's thinking.
If a write fails, nothing of that step has reached anyone: the host rebuilds the table from its log
and goes on from there. A command the table refuses is answered and changes nothing. A client's
input never makes the table raise: every field is checked on arrival (``tuolaji.wire.inbound``) and
every rule by the table itself (a refusal). Should the table still raise, that is a bug, and the
table may be half-changed: the host answers ``internal`` and rebuilds it from its log as after a
failed write, the only sound way on.

Clocks firing and bots answering come back through the same queue, so the table is never touched
by two things at once.

The host counts what it carried out (``Services.metrics``: moves, hands, settlements, a person's move
from its command queued to its messages handed out) and logs with its table's id and hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from tuolaji.game.actions import Action, Play
from tuolaji.game.settlement import Balance, rank_title, wealth_title
from tuolaji.room.commands import (
    CLOCK_FIRED,
    Attach,
    BotAnswer,
    Command,
    HandSettled,
    Join,
    Player,
    PlayNow,
    Refresh,
    RequestBid,
    RequestPlay,
    Resume,
    SeatMatch,
    Watch,
)
from tuolaji.room.effects import (
    Ack,
    Arm,
    AskBot,
    Closed,
    Disarm,
    Effect,
    Record,
    Refuse,
    Seated,
    Send,
    SendState,
    SendSummary,
    StoreHand,
)
from tuolaji.room.entries import Acted, Entry
from tuolaji.room.table import Table, TableState
from tuolaji.server import logs
from tuolaji.server.outgoing import Outgoing
from tuolaji.server.services import Services
from tuolaji.store.accounts import AccountData
from tuolaji.store.records import HandWrite, Settled
from tuolaji.store.tablelog import Fenced, LogWrite

log = logging.getLogger(__name__)

RELOAD_RETRY_SECONDS = 1.0
"""Pause between attempts to reload a table from its log while the database does not answer."""


class Owner(Protocol):
    """Who keeps the hosts of a node (the lobby's hosting part): told when a table ends here."""

    def table_closed(self, table_id: str) -> None:
        """The table closed: forget it."""

    def table_lost(self, table_id: str) -> None:
        """Another node owns the table now: stop serving it here."""

    def hand_off(self, host: TableHost) -> bool:
        """After each step: whether the table leaves this node now (a drain, between hands)."""


def now_ms() -> int:
    """Wall-clock milliseconds: the time the host hands to its table."""
    return time.time_ns() // 1_000_000


def player_of(account: AccountData) -> Player:
    """How a table shows an account (with its balance: what an escape would cost it, R43)."""
    rank, wealth = rank_title(account.points)[0], wealth_title(account.silver)[0]
    return Player(account.id, account.nickname, rank, wealth, Balance(account.points, account.silver))


@dataclass(frozen=True)
class _Stop:
    pass


class TableHost:
    """Runs one table until it closes or the server stops; ``post`` commands to it."""

    def __init__(self, table: Table, services: Services, owner: Owner, next_seq: int, fence: int | None = None) -> None:
        self.table = table
        self.owner = owner
        self.bus = services.bus
        """Where its messages, seats, summaries and escapes go (this node's clients, or another's)."""
        self.log = services.table_log
        self.thinking = services.thinking
        self.metrics = services.metrics
        self.next_seq = next_seq
        self.fence = fence
        self.stopped = False
        self._queue: asyncio.Queue[tuple[Command, float] | _Stop] = asyncio.Queue()
        """Commands, each with when it came (``time.perf_counter``), and the stop."""
        self._timer: asyncio.TimerHandle | None = None
        self._clock_fired = functools.partial(self.post, CLOCK_FIRED)
        self._timer_context = contextvars.copy_context()
        """The timer's callback and context, made once: a table re-arms its clock at every move, and
        each object made for it would wait, tracked by the cycle collector, until the clock runs out."""
        self._outgoing = Outgoing(table.id, fence or 0)
        self._task = asyncio.create_task(self._run(), name=f"table {table.id}")

    @property
    def id(self) -> str:
        """The table's id."""
        return self.table.id

    def post(self, command: Command) -> None:
        """Queue ``command`` for the table."""
        if not self.stopped:
            self._queue.put_nowait((command, time.perf_counter()))

    def _fields(self, **more: object) -> dict[str, object]:
        """A log line's fields: the table, its hand, and ``more``."""
        return {"table": self.id, "hand": self.table.number, **more}

    async def stop(self) -> None:
        """Finish the step under way, then stop (server shutdown: the log already holds the table)."""
        if not self._task.done():
            self._queue.put_nowait(_Stop())
            await self._task

    # ------------------------------------------------------------------ the loop

    async def _run(self) -> None:
        logs.bind_only(table=self.id)
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, _Stop):
                    break
                command, came = item
                try:
                    await self._step(command, came if isinstance(command, RequestPlay | RequestBid) else None)
                except Exception:
                    self.metrics.error("table")
                    fields = self._fields(command=type(command).__name__)
                    log.exception("carrying out a command failed; reloading the table", extra=fields)
                    await self._reload()
                if self.table.closed or self.stopped or self.owner.hand_off(self):
                    break
        finally:
            self.stopped = True
            self._cancel_timer()

    async def _step(self, command: Command, came: float | None = None) -> None:
        """One command; ``came``: when a person's move came (its latency is measured)."""
        try:
            effects = self.table.handle(command, now_ms())
        except Exception:
            self.metrics.error("table")
            fields = self._fields(command=type(command).__name__)
            log.exception("the table raised handling a command; reloading it from its log", extra=fields)
            client, ref = getattr(command, "client", None), getattr(command, "ref", None)
            if client is not None:
                self.bus.deliver(self._outgoing.internal_error(client, ref))
            await self._reload()
            return
        seated = {effect.account_id for effect in effects if isinstance(effect, Seated) and effect.seat is not None}
        for account_id in _sitting_down(command):
            if account_id not in seated:
                self.bus.seat_changed(account_id, self.id, None)  # the lobby's claim for a refused join
        if isinstance(command, BotAnswer) and not any(isinstance(effect, Record) for effect in effects):
            log.info(
                "dropped a slow bot's answer for a position that changed", extra=self._fields(seat=command.stamp.seat)
            )
        asking = command.client if isinstance(command, Join | PlayNow | Watch) else None
        await self._carry_out(effects, asking, came)

    async def _carry_out(self, effects: Sequence[Effect], asking: str | None = None, came: float | None = None) -> None:
        """Write the step's log entries (and a finished hand), then carry out the rest in order;
        ``asking`` is the client whose join or watch the step decided; ``came``: when the person's
        move that led to the step came (timed to its messages handed out, if it was applied)."""
        entries = [effect.entry for effect in effects if isinstance(effect, Record)]
        store = next((effect for effect in effects if isinstance(effect, StoreHand)), None)
        settled: Settled | None = None
        if entries or store is not None:
            write = LogWrite(self.id, self.next_seq, entries, self.fence, self._hand_write(store) if store else None)
            try:
                settled = await self.log.append(write)
            except Fenced:
                log.warning("another node owns the table now; giving it up", extra=self._fields(fence=self.fence))
                self.stopped = True
                self.owner.table_lost(self.id)
                return
            except Exception as error:
                self.metrics.error("log_write")
                fields = self._fields(cause=repr(error))
                log.error("could not write its log; reloading it", extra=fields)  # the log's own line has the traceback
                await self._reload()
                return
            self.next_seq += len(entries)
            self._count(entries, store, settled)
        self._outgoing.step()
        with self.bus.batch():
            for effect in effects:
                self._execute(effect, asking)
        if came is not None and entries:
            self.metrics.move_latency.observe(time.perf_counter() - came)
        if store is not None:
            escaped = store.result.escaped
            account_id = store.seats[escaped].account_id if escaped is not None else None
            if account_id is not None:
                self.bus.escaped(account_id)
            await self._step(_settled_command(store.number, settled))

    def _execute(self, effect: Effect, asking: str | None) -> None:
        bus = self.bus
        match effect:
            case Send() | Refuse() | Ack() | SendState():
                for delivery in self._outgoing.encode(effect, asking):
                    bus.deliver(delivery)
            case SendSummary(summary):
                for delivery in self._outgoing.encode(effect):
                    bus.deliver(delivery)
                bus.publish_summary(self.id, summary)
            case Arm(at_ms):
                self._cancel_timer()
                delay = max(0.0, (at_ms - now_ms()) / 1000)
                self._timer = asyncio.get_running_loop().call_later(
                    delay, self._clock_fired, context=self._timer_context
                )
            case Disarm():
                self._cancel_timer()
            case AskBot():
                self._ask(effect)
            case Seated(account_id, seat):
                bus.seat_changed(account_id, self.id, seat)
            case Closed(reason):
                log.info("table closed", extra=self._fields(reason=reason))
                self.owner.table_closed(self.id)
            case Record() | StoreHand():
                pass

    def _count(self, entries: Sequence[Entry], store: StoreHand | None, settled: Settled | None) -> None:
        """Count a written step's plays, and its hand and settlement if it finished one."""
        plays = sum(1 for entry in entries if isinstance(entry, Acted) and isinstance(entry.action, Play))
        if plays:
            self.metrics.moves.inc(plays)
        if store is not None:
            self.metrics.hands.inc()
            if settled is not None:
                self.metrics.settled(settled.changes)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # ------------------------------------------------------------------ effects in detail

    def _ask(self, effect: AskBot) -> None:
        stamp = effect.stamp
        try:
            future = self.thinking.ask(effect.bot, effect.seed, effect.view, table=self.id)
        except Exception:
            self.metrics.error("bot")
            fields = self._fields(seat=stamp.seat, bot=effect.bot)
            log.exception("a slow bot could not start thinking; it plays the in-process move", extra=fields)
            self.post(BotAnswer(stamp, None))
            return

        def answered(done: asyncio.Future[Action | None]) -> None:
            if done.cancelled():  # the pool shut down with the server
                return
            error = done.exception()
            if error is not None:
                self.metrics.error("bot")
                fields = self._fields(seat=stamp.seat, bot=effect.bot)
                log.error("a slow bot could not think; it plays the in-process move", exc_info=error, extra=fields)
            self.post(BotAnswer(stamp, None if error is not None else done.result()))

        future.add_done_callback(answered)

    def _hand_write(self, store: StoreHand) -> HandWrite:
        return HandWrite(
            table_id=self.id,
            number=store.number,
            seed=int(store.setup["seed"]),
            options=store.options,
            setup=store.setup,
            actions=list(store.actions),
            result=store.result,
            seats=store.seats,
            started_at=datetime.fromtimestamp(store.started_ms / 1000, UTC),
            private=store.private,
        )

    # ------------------------------------------------------------------ recovery

    async def resume(self) -> None:
        """Go on with a table just restored from its log (server start, takeover, reload)."""
        table = self.table
        settling = table.state is TableState.SETTLING
        settled = None
        if settling:
            with contextlib.suppress(Exception):
                settled = await self.log.stored_hand(self.id, table.number)
        await self._carry_out(table.handle(Resume(), now_ms()))
        if settling:
            await self._step(_settled_command(table.number, settled))

    def refresh(self, accounts: dict[int, AccountData]) -> None:
        """Show the seated players' current titles (``accounts`` by seat)."""
        self.post(Refresh({seat: player_of(account) for seat, account in accounts.items()}))

    async def _reload(self) -> None:
        """Rebuild the table from its log (the state before the failed step) and go on; the clients
        that were connected get their full state again."""
        old = self.table
        attached = [(seat.client, seat.player.id) for seat in old.seats if seat.client and seat.player]
        watchers = sorted(old.watchers)
        self.metrics.reloads.inc()
        failures = 0
        while True:
            try:
                opened = await self.log.load(self.id)
                break
            except Exception:
                failures += 1
                if failures == 1:  # one line, however long the database is away
                    self.metrics.error("log_reload")
                    fields = self._fields(retry_seconds=RELOAD_RETRY_SECONDS)
                    log.exception("could not reload its log; trying again until it can", extra=fields)
                await asyncio.sleep(RELOAD_RETRY_SECONDS)
        if failures:
            log.info("reloaded from its log", extra=self._fields(failed_tries=failures))
        if opened is None:
            self.stopped = True
            self.owner.table_closed(self.id)
            return
        self.table = old.rebuilt(opened.entries)
        self.next_seq = opened.next_seq
        self._outgoing.reset()
        await self.resume()
        for client, account_id in attached:
            await self._step(Attach(client, account_id))
        for client in watchers:
            await self._step(Watch(client, invite=self.table.invite))


def _sitting_down(command: Command) -> list[int]:
    """The accounts ``command`` seats (whose seats the lobby claimed before)."""
    if isinstance(command, Join | PlayNow):
        return [command.player.id]
    if isinstance(command, SeatMatch):
        return [player.id for _, player in filter(None, command.people)]
    return []


def _settled_command(number: int, settled: Settled | None) -> HandSettled:
    if settled is None:
        return HandSettled(number, None)
    return HandSettled(
        number,
        settled.hand_id,
        tuple(settled.lines),
        {seat: account.to_json() for seat, account in settled.accounts.items()},
        {seat: player_of(account) for seat, account in settled.accounts.items()},
    )
