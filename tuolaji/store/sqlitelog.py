"""The common write of the tables' log on an SQLite file: rows in, on the event loop or one thread hop.

Most batches of :class:`~tuolaji.store.tablelog.TableLog` only add log rows (and drop what a
snapshot or a close makes obsolete). Through SQLAlchemy's asyncio layer on aiosqlite each statement
and the commit are a hop to the driver's thread and back, which under load cost more CPU than the
rows themselves (docs/BENCHMARKS.md, Server). :class:`SqliteRows` writes a whole batch — begin,
rows, deletes, commit — at once. A batch that settles hands does it in the same transaction, at once
on the event loop (:meth:`SqliteRows.settle_now`; the settlement's Core statements through
SQLAlchemy on that connection): through aiosqlite each of its statements was a hop to a thread and
back, each waiting for a turn of a busy loop, and from a thread of ours each waited to win the GIL
back from the busy loop, while the write turn, and so every table's moves, waited
(docs/BENCHMARKS.md, Server, "Settlements at once"). Batches that check a fencing token go the
SQLAlchemy way.

A small batch (at most :data:`LOOP_ROWS` rows) is written on the event loop itself: a commit to the
write-ahead log without an fsync (``synchronous=NORMAL``) is some 30 µs of CPU, the hop to a
thread and back some 100 µs more, and at a person's pace nearly every batch is a move or two. Two
things could make such a write wait, and neither may hold the loop: another connection's write
lock (the loop's connection does not wait for it: the batch goes to the thread, which does), and a
checkpoint (the loop's connection never checkpoints; every :data:`CHECKPOINT_EVERY` of its commits
the thread runs a passive one). Bigger batches go to the thread, whose ``sqlite3`` work runs beside
the loop.

The rows are encoded on the event loop and inserted a few hundred at a time by one statement each:
``sqlite3`` lets go of the GIL around every step of a statement, and the thread must win it back
from a busy event loop each time (up to the 5 ms switch interval), so ``executemany`` of a row at a
time made a batch of a hundred rows wait up to half a second (docs/BENCHMARKS.md, Server).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.pool import StaticPool

from tuolaji.room.entries import Entry, entry_to_json
from tuolaji.store.db import LONG_TURN_SECONDS, SQLITE_PRAGMAS
from tuolaji.store.records import HandWrite, Settled, settle_in
from tuolaji.wire.outbound import dumps

log = logging.getLogger(__name__)

ROWS_PER_INSERT = 300
"""Rows one ``INSERT`` statement adds (three parameters each, well within SQLite's 32,766)."""
LOOP_ROWS = 16
"""A batch of at most this many rows (and no more than as many other statements) is written on the event loop."""
CHECKPOINT_EVERY = 256
"""The thread runs a passive checkpoint after this many commits on the loop (which never checkpoints)."""
_LOOP_PRAGMAS = ("PRAGMA busy_timeout=0", "PRAGMA wal_autocheckpoint=0")
"""The loop's connection, after :data:`~tuolaji.store.db.SQLITE_PRAGMAS`: it never waits for a lock
and never checkpoints."""
_DROP_BEFORE = "DELETE FROM table_log WHERE table_id = ? AND seq < ?"
_DROP_ALL = "DELETE FROM table_log WHERE table_id = ?"
_CLOSE = "DELETE FROM live_tables WHERE id = ?"
"""A closed table's row goes (its log rows first; its hands are in ``hands``, by table id only)."""


@functools.cache
def _insert(count: int) -> str:
    """The statement that adds ``count`` log rows."""
    return "INSERT INTO table_log (table_id, seq, entry) VALUES " + ",".join(["(?, ?, ?)"] * count)


def tidy_plan(first_seq: int, entries: Sequence[Entry]) -> tuple[bool, int | None]:
    """What a step's write does to its table's log besides adding its rows: (the table closes — its
    log goes and no row is added; the seq of the step's last snapshot — the rows before it go)."""
    if any(entry.closes for entry in entries):
        return True, None
    snapshots = [offset for offset, entry in enumerate(entries) if entry.compacts]
    return False, (first_seq + snapshots[-1] if snapshots else None)


@dataclass(frozen=True)
class RowsPlan:
    """The statements of a batch: ``rows`` (table id, seq and entry JSON of each, one after another)
    to insert, then ``after`` (deletes) to run."""

    rows: list[Any]
    after: list[tuple[str, tuple[Any, ...]]]

    @property
    def small(self) -> bool:
        """Small enough to write on the event loop (:data:`LOOP_ROWS`)."""
        return len(self.rows) <= 3 * LOOP_ROWS and len(self.after) <= LOOP_ROWS


def plan_rows(writes: Sequence[RowsWrite]) -> RowsPlan:
    """What writing ``writes`` takes: their rows (entries encoded here, on the loop) and the deletes
    that a snapshot or a close makes (:func:`tidy_plan`)."""
    rows: list[Any] = []
    after: list[tuple[str, tuple[Any, ...]]] = []
    for write in writes:
        closed, snapshot = tidy_plan(write.first_seq, write.entries)
        if closed:
            after += [(_DROP_ALL, (write.table_id,)), (_CLOSE, (write.table_id,))]
            continue
        for offset, entry in enumerate(write.entries):
            rows += (write.table_id, write.first_seq + offset, dumps(entry_to_json(entry)))
        if snapshot is not None:
            after.append((_DROP_BEFORE, (write.table_id, snapshot)))
    return RowsPlan(rows, after)


@dataclass(frozen=True)
class RowsWrite:
    """One table's step for :class:`SqliteRows`: its ``entries`` from ``first_seq`` on (stored as
    their :func:`~tuolaji.room.entries.entry_to_json`)."""

    table_id: str
    first_seq: int
    entries: Sequence[Entry]


class SqliteRows:
    """Writes log rows to the SQLite file at ``path``, a small batch on the event loop and the rest
    from a thread of its own (``checkpoint_every``: see :data:`CHECKPOINT_EVERY`); :meth:`close` it."""

    def __init__(self, path: Path, checkpoint_every: int = CHECKPOINT_EVERY) -> None:
        self.path = path
        self.checkpoint_every = checkpoint_every
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="table-log")
        self._connection: sqlite3.Connection | None = None
        """The thread's connection."""
        self._loop_connection: sqlite3.Connection | None = None
        self._loop_commits = 0
        """Commits on the loop since the thread's last checkpoint began."""
        self._checkpoint: asyncio.Future[float] | None = None
        self._loop_settler: _Settler | None = None
        self._thread_settler: _Settler | None = None
        self.on_loop = 0
        """Batches written on the event loop."""
        self.in_thread = 0
        """Batches written from the thread (big ones, and small ones that found the file locked)."""

    def write_now(self, plan: RowsPlan) -> bool:
        """Write ``plan`` now, on the event loop, if it is small and no other connection holds the
        file's write lock; False (nothing written) otherwise. The caller holds the process's write
        turn, or no other write of the process is under way."""
        return plan.small and self._write_on_loop(plan)

    async def write(self, plan: RowsPlan) -> None:
        """Write ``plan`` in one transaction, on the loop when :meth:`write_now` can, else from the
        thread (the caller holds the process's write turn)."""
        if self.write_now(plan):
            return
        await asyncio.get_running_loop().run_in_executor(self._executor, self._write_in_thread, plan)
        self.in_thread += 1

    def _write_on_loop(self, plan: RowsPlan) -> bool:
        """Write ``plan`` now, on the loop; False (nothing written) if another connection holds the
        file's write lock."""
        connection = self._on_loop()
        if not _begin(connection):
            return False
        _write(connection, plan)
        self._committed_on_loop()
        return True

    def _on_loop(self) -> sqlite3.Connection:
        """The loop's connection."""
        if self._loop_connection is None:
            self._loop_connection = _connect(self.path, _LOOP_PRAGMAS)
        return self._loop_connection

    def _committed_on_loop(self) -> None:
        """Count a commit on the loop; every :attr:`checkpoint_every`, the thread checkpoints."""
        self.on_loop += 1
        self._loop_commits += 1
        if self._loop_commits >= self.checkpoint_every and self._checkpoint is None:
            self._loop_commits = 0
            self._checkpoint = asyncio.get_running_loop().run_in_executor(self._executor, self._checkpoint_wal)
            self._checkpoint.add_done_callback(self._checkpointed)

    def _checkpointed(self, done: asyncio.Future[float]) -> None:
        self._checkpoint = None
        if done.cancelled():
            return
        error = done.exception()
        if error is not None:
            log.error("table log: a checkpoint of the SQLite file failed", exc_info=error)
        elif done.result() > LONG_TURN_SECONDS:
            # The thread's writes waited behind it (one thread), and with them the write turn.
            log.warning("table log: a checkpoint of the SQLite file took long", extra={"seconds": done.result()})

    def _checkpoint_wal(self) -> float:
        """Copy what the write-ahead log holds into the database file, as far as no reader stops it;
        the seconds it took."""
        began = time.monotonic()
        self._thread_connection().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        return round(time.monotonic() - began, 3)

    def _write_in_thread(self, plan: RowsPlan) -> None:
        connection = self._thread_connection()
        connection.execute("BEGIN IMMEDIATE")
        _write(connection, plan)

    def settle_now(self, plan: RowsPlan, hands: Sequence[HandWrite]) -> list[Settled] | None:
        """Write ``plan`` and settle ``hands`` (:func:`~tuolaji.store.records.settle_in`) in one
        transaction now, on the event loop: what each hand's settlement did, in order; None (nothing
        written) if another connection holds the file's write lock. The caller holds the process's
        write turn, or no other write of the process is under way."""
        if self._loop_settler is None:
            self._loop_settler = _Settler(self._on_loop())
        settled = self._loop_settler.settle(plan, hands)
        if settled is not None:
            self._committed_on_loop()
        return settled

    async def settle(self, plan: RowsPlan, hands: Sequence[HandWrite]) -> list[Settled]:
        """As :meth:`settle_now`, from the thread (which waits for the file's lock) when the loop
        cannot (the caller holds the process's write turn)."""
        settled = self.settle_now(plan, hands)
        if settled is None:
            settled = await asyncio.get_running_loop().run_in_executor(
                self._executor, self._settle_in_thread, plan, hands
            )
            self.in_thread += 1
        return settled

    def _settle_in_thread(self, plan: RowsPlan, hands: Sequence[HandWrite]) -> list[Settled]:
        if self._thread_settler is None:
            self._thread_settler = _Settler(self._thread_connection())
        settled = self._thread_settler.settle(plan, hands)
        if settled is None:
            raise sqlite3.OperationalError(f"{self.path}: the database file stayed locked (table log, settlement)")
        return settled

    def _thread_connection(self) -> sqlite3.Connection:
        if self._connection is None:
            self._connection = _connect(self.path)
        return self._connection

    async def close(self) -> None:
        """Close the connections and stop the thread (after a checkpoint under way)."""

        def close() -> None:
            if self._thread_settler is not None:
                self._thread_settler.close()
                self._thread_settler = None
            if self._connection is not None:
                self._connection.close()
                self._connection = None

        if self._loop_settler is not None:
            self._loop_settler.close()
            self._loop_settler = None
        if self._loop_connection is not None:
            self._loop_connection.close()
            self._loop_connection = None
        await asyncio.get_running_loop().run_in_executor(self._executor, close)
        self._executor.shutdown(wait=True)


def _connect(path: Path, pragmas: Sequence[str] = ()) -> sqlite3.Connection:
    """A connection to ``path`` in autocommit mode (transactions are begun by hand), with our pragmas
    and then ``pragmas``."""
    connection = sqlite3.connect(path, isolation_level=None)
    for pragma in (*SQLITE_PRAGMAS, *pragmas):
        connection.execute(pragma)
    return connection


class _Settler:
    """SQLAlchemy Core over one of :class:`SqliteRows`' connections, for the settlements' statements
    (:func:`~tuolaji.store.records.settle_in`); :meth:`close` it before the connection."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self._engine = create_engine("sqlite://", creator=lambda: connection, poolclass=StaticPool)
        self._core = self._engine.connect()

    def settle(self, plan: RowsPlan, hands: Sequence[HandWrite]) -> list[Settled] | None:
        """Write ``plan`` and settle ``hands`` in one transaction; None (nothing written) if the
        connection found the file's write lock held (:func:`_begin`)."""
        # SQLAlchemy's begin() sends nothing on sqlite3 (the driver's own way), so the transaction
        # is begun here; its commit() and rollback() are the driver's, which end it.
        with self._core.begin():
            if not _begin(self.connection):
                return None
            _insert_rows(self.connection, plan)
            return [settle_in(self._core, hand) for hand in hands]

    def close(self) -> None:
        self._core.close()
        self._engine.dispose()


def _begin(connection: sqlite3.Connection) -> bool:
    """Begin a write transaction (``BEGIN IMMEDIATE``); False if the file's write lock is held by
    another connection (at once on the loop's connection, after the busy timeout on another)."""
    try:
        connection.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        if error.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            return False
        raise
    return True


def _write(connection: sqlite3.Connection, plan: RowsPlan) -> None:
    """In the transaction ``connection`` has begun: insert ``plan``'s rows, run its deletes, commit (or
    roll back and raise)."""
    try:
        _insert_rows(connection, plan)
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise


def _insert_rows(connection: sqlite3.Connection, plan: RowsPlan) -> None:
    """In the transaction ``connection`` has begun: insert ``plan``'s rows and run its deletes."""
    rows = plan.rows
    chunk = 3 * ROWS_PER_INSERT
    for start in range(0, len(rows), chunk):
        values = rows[start : start + chunk]
        connection.execute(_insert(len(values) // 3), values)
    for statement, parameters in plan.after:
        connection.execute(statement, parameters)
