"""Live tables' durable logs (``tuolaji.room.table``): write ahead, restore, settle in one transaction.

A table's host appends each step's entries through :meth:`TableLog.append` and waits for the commit
before anything of that step reaches a client. Appends of many tables that arrive while a commit is
running are written together in the next transaction (group commit), so the database sees one
commit per batch, not one per move. A step that finishes a hand writes the hand's record and moves
the balances in the same transaction, so a hand is settled exactly once whenever the process dies;
the steps of a batch that settle hands are committed after the others, at most
:data:`HANDS_PER_WRITE` in a transaction of their own, and the rest after the next batch's other
steps, so no table's move waits for more than a few settlements (a table's steps are never in one
batch together: its host waits for each).

Each write names the table's fencing token; a write whose token is no longer the table's is refused
with :class:`Fenced` (a node that lost the table: many nodes, issue 14), and the other writes of the batch go on.

A failed batch is logged once when the writes start failing (the database is down, or a bug), and
once when they succeed again, with how long it lasted and how many batches failed meanwhile; a
:class:`LogWatcher` (the server's metrics) is told of every batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, cast

from sqlalchemy import Table, Text, bindparam, delete, func, insert, literal, select, union, update
from sqlalchemy import cast as sql_cast
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.sql import Executable

from tuolaji.room.entries import BadEntry, Entry, entry_from_json, entry_to_json
from tuolaji.store.db import Database
from tuolaji.store.models import LiveTable, TableLogEntry
from tuolaji.store.records import HandWrite, Settled, settle_hand, stored_hand
from tuolaji.store.sqlitelog import RowsPlan, RowsWrite, SqliteRows, plan_rows, tidy_plan
from tuolaji.wire.json_limits import read_json

log = logging.getLogger(__name__)

_LOG_ROWS = cast(Table, TableLogEntry.__table__)
"""The log's table as such: a Core insert of many rows skips the ORM's bookkeeping."""
_TOKENS = (
    select(LiveTable.id, LiveTable.fence)
    .where(LiveTable.id.in_(bindparam("ids", expanding=True)), LiveTable.open)
    .with_for_update()
)
"""The fencing tokens of the tables a batch writes, their rows locked (one statement a batch)."""
_TAKEN = select(LiveTable.number).where(LiveTable.number.is_not(None))
_CANDIDATES = union(
    select(literal(1).label("n")), select((LiveTable.number + 1).label("n")).where(LiveTable.number.is_not(None))
).subquery()
_FREE_NUMBER = select(func.min(_CANDIDATES.c.n)).where(_CANDIDATES.c.n.not_in(_TAKEN))
"""The smallest positive table number no open table holds: 1, or one above a number that is taken."""
NUMBER_ATTEMPTS = 5
"""A new table picks its number again this often when another node took the same one at once."""
LINGER_SECONDS = 0.002
"""A batch of log writes waits this long for more before its transaction starts."""
HANDS_PER_WRITE = 4
"""Finished hands one transaction settles at most; the other steps of a batch are written before them."""
SLOW_WRITE_SECONDS = 1.0
"""A log write still waiting for the database after this long is reported (a warning in the server log)."""


class LogWatcher(Protocol):
    """Told of every batch the writer commits or fails (the server's metrics)."""

    def batch_committed(self, steps: int, seconds: float, hands: int) -> None:
        """A batch of ``steps``, ``hands`` of them settling a hand, was written and committed in ``seconds``."""

    def batch_failed(self, steps: int) -> None:
        """A batch of ``steps`` failed (none of it was written)."""


class CommitUnknown(Exception):
    """A batch's commit failed on the way: whether the database committed it is not known."""


class Fenced(Exception):
    """The table's log belongs to a newer owner (its fencing token moved on): this node must give it up."""


@dataclass(frozen=True)
class LogWrite:
    """One step of one table: ``entries`` from ``first_seq`` on, written under ``fence`` (None: no
    check, a single node), with the finished ``hand`` to settle, if any."""

    table_id: str
    first_seq: int
    entries: Sequence[Entry]
    fence: int | None = None
    hand: HandWrite | None = None


@dataclass(frozen=True)
class OpenTable:
    """A table to restore: its options, fencing token and log (from its last snapshot on) as stored:
    ``rows`` of (seq, JSON); :attr:`entries` reads them."""

    id: str
    options: dict[str, Any]
    fence: int
    rows: tuple[tuple[int, Any], ...]
    next_seq: int
    number: int = 0
    """The table's number (第 N 桌; 0 for a table opened before tables had numbers)."""

    @property
    def entries(self) -> list[Entry]:
        """The log's entries in order; :class:`~tuolaji.room.entries.BadEntry` naming the table and
        the entry's seq if one cannot be read."""
        entries: list[Entry] = []
        for seq, data in self.rows:
            try:
                entries.append(entry_from_json(data))
            except BadEntry as error:
                raise BadEntry(f"table {self.id}: log entry {seq}: {error}") from None
        return entries


_Pending = tuple[LogWrite, "asyncio.Future[Settled | None]"]


class TableLog:
    """The logs of every live table in ``db``; close it with :meth:`close` (it waits for what is queued)."""

    def __init__(self, db: Database, linger: float = LINGER_SECONDS, watcher: LogWatcher | None = None) -> None:
        self.db = db
        self.linger = linger
        """How long a batch waits for more steps before it is written (0: the next turn of the loop)."""
        self.watcher = watcher
        self.failing_since: float | None = None
        """Since when (monotonic) every batch has failed; None while they succeed."""
        self._failed_batches = 0
        self._pending: list[_Pending] = []
        self._wakeup: asyncio.Future[None] | None = None
        self._closing = False
        self._connection: AsyncConnection | None = None
        self._rows = SqliteRows(db.sqlite_path) if db.sqlite_path is not None else None
        self._writer = asyncio.create_task(self._write_loop(), name="table log writer")
        self.commits = 0
        """Transactions written (a batch is one)."""
        self.writes = 0
        """Steps written (``append`` calls that were committed)."""

    @property
    def queued(self) -> int:
        """Steps waiting for the next batch."""
        return len(self._pending)

    async def create(self, table_id: str, options: dict[str, Any], fence: int = 0) -> int:
        """Open the log of a new table; its number (第 N 桌): the smallest positive number no other
        open table holds (a closed table's row goes, so its number is free again). Two nodes that
        pick the same number at once: the unique index refuses the second, which picks again."""
        attempts = 0
        while True:
            try:
                async with self.db.writing("a table opened"), self.db.sessions.begin() as session:
                    number = int((await session.execute(_FREE_NUMBER)).scalar_one())
                    session.add(LiveTable(id=table_id, options=options, fence=fence, open=True, number=number))
                return number
            except IntegrityError:
                attempts += 1
                if attempts >= NUMBER_ATTEMPTS:
                    raise

    async def append(self, write: LogWrite) -> Settled | None:
        """Write ``write`` (committed when this returns); what settling its hand did, if it had one.
        Raises :class:`Fenced` if the table's token moved on, or the database's error."""
        if self._closing:
            raise RuntimeError("the table log is closed")
        future: asyncio.Future[Settled | None] = asyncio.get_running_loop().create_future()
        self._pending.append((write, future))
        waiter = self._wakeup
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        return await future

    async def open_tables(self) -> list[OpenTable]:
        """Every table whose log is open, to restore at startup (two queries, however many tables)."""
        async with self.db.sessions() as session:
            return await _load_many(session, None)

    async def load(self, table_id: str) -> OpenTable | None:
        """One open table's log, or None if it is closed or unknown."""
        async with self.db.sessions() as session:
            opened = await _load_many(session, [table_id])
        return opened[0] if opened else None

    async def take(self, table_id: str) -> OpenTable | None:
        """Raise the table's fencing token by one and load its log after that commit, so no write of
        an older owner can follow; None if the table is closed or unknown."""
        taken = await self.take_many([table_id])
        return taken[0] if taken else None

    async def take_many(self, table_ids: Sequence[str]) -> list[OpenTable]:
        """:meth:`take` for many tables, in four queries however many there are: the open ones among
        ``table_ids``, taken — but those whose log is being written right now (their row locked by a
        writer: the old owner, perhaps frozen in the middle of its transaction), which are left for
        a later try instead of holding up the others."""
        if not table_ids:
            return []
        async with self.db.writing("tables taken over"), self.db.sessions.begin() as session:
            free = select(LiveTable.id).where(LiveTable.id.in_(table_ids), LiveTable.open)
            taken = list((await session.execute(free.with_for_update(skip_locked=True))).scalars())
            if taken:
                await session.execute(
                    update(LiveTable)
                    .where(LiveTable.id.in_(taken))
                    .values(fence=LiveTable.fence + 1)
                    .execution_options(synchronize_session=False)
                )
        if not taken:
            return []
        async with self.db.sessions() as session:
            return await _load_many(session, taken)

    async def is_open(self, table_id: str) -> bool:
        """Whether ``table_id`` is an open table (its log not closed)."""
        async with self.db.sessions() as session:
            query = select(LiveTable.id).where(LiveTable.id == table_id, LiveTable.open)
            return (await session.execute(query)).first() is not None

    async def open_ids(self) -> list[str]:
        """The ids of every open table."""
        async with self.db.sessions() as session:
            return list((await session.execute(select(LiveTable.id).where(LiveTable.open))).scalars())

    async def stored_hand(self, table_id: str, number: int) -> Settled | None:
        """The settlement of hand ``number`` of ``table_id`` if it is stored."""
        async with self.db.sessions() as session:
            return await stored_hand(session, table_id, number)

    async def _writer_connection(self) -> AsyncConnection:
        """The writer's own connection, kept between batches (a pool checkout, its reset and its return
        cost more than a small batch itself); opened again after a failure, or when the database closed
        it meanwhile (a restart: found before the next batch fails on it, however long after)."""
        if self._connection is not None and await _closed_by_server(self._connection):
            await self._drop_connection()
        if self._connection is None:
            self._connection = await self.db.engine.connect()
        return self._connection

    async def _drop_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()

    async def close(self) -> None:
        """Write what is queued, then stop the writer."""
        log.info("table log: closing", extra={"steps": self.writes, "transactions": self.commits})
        self._closing = True
        waiter = self._wakeup
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer
        await self._drop_connection()
        if self._rows is not None:
            await self._rows.close()

    async def _write_loop(self) -> None:
        while True:
            if not self._pending:
                if self._closing:
                    return
                self._wakeup = asyncio.get_running_loop().create_future()
                await self._wakeup
                self._wakeup = None
                continue
            # Let the steps of the next few turns of the loop join this batch: under load a commit per
            # step costs more CPU than the wait costs latency (docs/BENCHMARKS.md, Server).
            await asyncio.sleep(self.linger)
            batch, self._pending = self._pending, []
            rows = [pending for pending in batch if pending[0].hand is None]
            hands = [pending for pending in batch if pending[0].hand is not None]
            # A few settlements a transaction: the hands beyond wait for the next turn, so that the
            # moves of every other table, written first each turn, never wait behind a burst of them.
            self._pending[:0] = hands[HANDS_PER_WRITE:]
            for part in (rows, hands[:HANDS_PER_WRITE]):
                if part:
                    await self._write_part(part)

    async def _write_part(self, batch: list[_Pending]) -> None:
        """Write ``batch`` in one transaction and answer each step's ``append``."""
        started = time.perf_counter()
        try:
            results = await self._write(batch)
        except Exception as error:
            self._failed(len(batch), error)
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        hands = sum(write.hand is not None for write, _ in batch)
        self._succeeded(len(batch), time.perf_counter() - started, hands)
        for (_, future), result in zip(batch, results, strict=True):
            if future.done():
                continue
            if isinstance(result, Fenced):
                future.set_exception(result)
            else:
                future.set_result(result)

    def _failed(self, steps: int, error: Exception) -> None:
        if self.watcher is not None:
            self.watcher.batch_failed(steps)
        if self.failing_since is None:
            self.failing_since = time.monotonic()
            self._failed_batches = 1
            log.error("table log: a batch failed; its tables reload and retry", exc_info=error, extra={"steps": steps})
        else:
            self._failed_batches += 1

    def _succeeded(self, steps: int, seconds: float, hands: int) -> None:
        if self.watcher is not None:
            self.watcher.batch_committed(steps, seconds, hands)
        if self.failing_since is not None:
            failed_for = round(time.monotonic() - self.failing_since, 3)
            fields = {"failed_seconds": failed_for, "failed_batches": self._failed_batches}
            log.warning("table log: writes succeed again", extra=fields)
            self.failing_since = None

    async def _write(self, batch: list[_Pending]) -> list[Settled | Fenced | None]:
        writes = [write for write, _ in batch]
        rows, plan = self._rows, None
        if rows is not None and all(write.fence is None for write in writes):
            plan = plan_rows([RowsWrite(write.table_id, write.first_seq, write.entries) for write in writes])
        hands = [write.hand for write in writes if write.hand is not None]
        results: list[Settled | Fenced | None] | None = None
        if rows is not None and plan is not None and self.db.may_write_now():  # on the loop: nothing waits
            if hands:
                settled = rows.settle_now(plan, hands)
                results = None if settled is None else _in_order(writes, settled)
            elif rows.write_now(plan):
                results = [None] * len(writes)
        if results is None:
            results = await self._write_in_turn(writes, plan, hands)
        self.commits += 1
        self.writes += len(writes)
        return results

    async def _write_in_turn(
        self, writes: list[LogWrite], plan: RowsPlan | None, hands: list[HandWrite]
    ) -> list[Settled | Fenced | None]:
        """Write ``writes`` in the process's write turn (``plan``: their rows on SQLite, where none is
        fenced: written, and their ``hands`` settled, in one go by :class:`SqliteRows`), with a
        warning if the database keeps them waiting."""
        loop = asyncio.get_running_loop()
        slow = loop.call_later(SLOW_WRITE_SECONDS, self._warn_slow, len(writes), loop.time())
        try:
            purpose = f"the table log, {len(hands)} hands settled" if hands else "the table log, moves"
            async with self.db.writing(purpose):
                if self._rows is not None and plan is not None:
                    if hands:
                        return _in_order(writes, await self._rows.settle(plan, hands))
                    await self._rows.write(plan)
                    return [None] * len(writes)
                try:
                    return await self._transaction(writes)
                except DBAPIError as error:
                    # It failed before its commit, so nothing of it was written: the kept connection
                    # was broken (the database restarted, the network dropped it). Once more, anew.
                    log.warning(
                        "table log: a batch failed before its commit; trying it again", extra={"error": repr(error)}
                    )
                    return await self._transaction(writes)
        finally:
            slow.cancel()

    def _warn_slow(self, steps: int, began: float) -> None:
        """Say that a write of ``steps`` steps begun at ``began`` (the loop's clock) is still waiting,
        how long, and what holds the process's write turn on SQLite: this write itself (``the table
        log, …``: the database, or the event loop, is slow) or another. Waited longer than
        :data:`SLOW_WRITE_SECONDS`, this warning came late: the event loop was held up (its own
        warning says how long)."""
        waited = round(asyncio.get_running_loop().time() - began, 3)
        fields = {"steps": steps, "seconds": waited, **self.db.write_turn()}
        log.warning("table log: a write has waited long for the database", extra=fields)

    async def _transaction(self, writes: list[LogWrite]) -> list[Settled | Fenced | None]:
        """Write ``writes`` in one transaction on the writer's connection (dropped after any failure).
        A database error before the commit is raised as it is (nothing was written: the caller may
        try again); one at the commit, when nobody knows whether it was committed, as
        :class:`CommitUnknown`."""
        connection = await self._writer_connection()
        transaction = await connection.begin()
        try:
            if any(write.hand is not None for write in writes):
                async with AsyncSession(bind=connection, expire_on_commit=False) as session:
                    results = await _write_batch(session, writes)
                    await session.flush()
            else:
                results = await _write_rows(connection, writes)
        except BaseException:
            await self._drop_connection()
            raise
        try:
            await transaction.commit()
        except DBAPIError as error:
            await self._drop_connection()
            raise CommitUnknown(str(error)) from error
        except BaseException:
            await self._drop_connection()
            raise
        return results


def _in_order(writes: Sequence[LogWrite], settled: Sequence[Settled]) -> list[Settled | Fenced | None]:
    """Each write's result: its hand's settlement from ``settled`` (in order), or None."""
    each = iter(settled)
    return [next(each) if write.hand is not None else None for write in writes]


async def _closed_by_server(connection: AsyncConnection) -> bool:
    """Whether the driver knows its connection was closed from the other end (asyncpg does; a driver
    that cannot tell is taken at its word), without a round trip."""
    driver = (await connection.get_raw_connection()).driver_connection
    is_closed = getattr(driver, "is_closed", None)
    return bool(is_closed()) if callable(is_closed) else False


async def opened_at(db: Database) -> dict[str, datetime]:
    """Every open table and when it was opened (the moderators' console's live tables)."""
    async with db.sessions() as session:
        rows = (await session.execute(select(LiveTable.id, LiveTable.created_at).where(LiveTable.open))).all()
    return {
        table_id: created if created.tzinfo is not None else created.replace(tzinfo=UTC) for table_id, created in rows
    }


async def _write_rows(connection: AsyncConnection, writes: list[LogWrite]) -> list[Settled | Fenced | None]:
    """The common case, no hand to settle: the log rows of ``writes`` through SQLAlchemy Core alone."""
    results: list[Settled | Fenced | None] = [None] * len(writes)
    fenced = {write.table_id for write in writes if write.fence is not None}
    if fenced:
        # The rows stay locked to the end of the transaction, so a takeover (which raises the token)
        # waits for this write, and a write after a takeover sees the new token.
        tokens = {row[0]: row[1] for row in await connection.execute(_TOKENS, {"ids": sorted(fenced)})}
        for index, write in enumerate(writes):
            if write.fence is not None and tokens.get(write.table_id) != write.fence:
                results[index] = Fenced(f"table {write.table_id}: fencing token {write.fence} is not the table's")
    kept = [
        (write, *tidy_plan(write.first_seq, write.entries))
        for write, result in zip(writes, results, strict=True)
        if result is None
    ]
    rows = [
        {"table_id": write.table_id, "seq": write.first_seq + offset, "entry": entry_to_json(entry)}
        for write, closed, _ in kept
        if not closed
        for offset, entry in enumerate(write.entries)
    ]
    if rows:
        await connection.execute(insert(_LOG_ROWS), rows)
    for write, closed, snapshot in kept:
        for statement in _tidy(write.table_id, closed, snapshot):
            await connection.execute(statement)
    return results


def _tidy(table_id: str, closed: bool, snapshot: int | None) -> list[Executable]:
    """The statements of :func:`~tuolaji.store.sqlitelog.tidy_plan`: a closed table's log and its
    ``live_tables`` row go (its finished hands are in ``hands``, which names the table by id only);
    the rows a snapshot replaces go."""
    if closed:
        return [
            delete(TableLogEntry).where(TableLogEntry.table_id == table_id),
            delete(LiveTable).where(LiveTable.id == table_id),
        ]
    if snapshot is not None:
        return [delete(TableLogEntry).where(TableLogEntry.table_id == table_id, TableLogEntry.seq < snapshot)]
    return []


async def _write_batch(session: AsyncSession, writes: list[LogWrite]) -> list[Settled | Fenced | None]:
    """Write ``writes`` in ``session``'s transaction, settling their hands (R39–R43) too."""
    results = await _write_rows(await session.connection(), writes)
    for index, write in enumerate(writes):
        if results[index] is None and write.hand is not None:
            results[index] = await settle_hand(session, write.hand)
    return results


async def _load_many(session: AsyncSession, table_ids: Sequence[str] | None) -> list[OpenTable]:
    """The open tables among ``table_ids`` (None: every open table) with their logs: one query for
    the tables and one for all their logs' rows (read as text and decoded here, without the ORM's
    row handling: a restore of thousands of tables reads ~20 rows a table, docs/BENCHMARKS.md)."""
    tables = select(LiveTable).where(LiveTable.open)
    rows = (
        select(TableLogEntry.table_id, TableLogEntry.seq, sql_cast(TableLogEntry.entry, Text))
        .join(LiveTable, LiveTable.id == TableLogEntry.table_id)
        .where(LiveTable.open)
        .order_by(TableLogEntry.table_id, TableLogEntry.seq)
    )
    if table_ids is not None:
        tables = tables.where(LiveTable.id.in_(table_ids))
        rows = rows.where(TableLogEntry.table_id.in_(table_ids))
    found = list((await session.execute(tables)).scalars())
    entries: dict[str, list[tuple[int, Any]]] = {table.id: [] for table in found}
    for table_id, seq, entry in (await (await session.connection()).execute(rows)).all():
        if table_id in entries:  # not a table opened between the two reads
            entries[table_id].append((seq, read_json(entry)))
    return [_opened(table, entries[table.id]) for table in found]


def _opened(row: LiveTable, entries: list[tuple[int, Any]]) -> OpenTable:
    """The open table ``row`` with its log ``entries`` (``(seq, entry)`` in order)."""
    last = entries[-1][0] if entries else 0
    return OpenTable(row.id, dict(row.options), row.fence, tuple(entries), last + 1, row.number or 0)
