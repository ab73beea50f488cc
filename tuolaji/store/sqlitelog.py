"""The common write of the tables' log on an SQLite file: rows in, one thread hop per batch.

Most batches of :class:`~tuolaji.store.tablelog.TableLog` only add log rows (and drop what a
snapshot or a close makes obsolete). Through SQLAlchemy's asyncio layer on aiosqlite each statement
and the commit are a hop to the driver's thread and back, which under load cost more CPU than the
rows themselves (docs/BENCHMARKS.md, Server). :class:`SqliteRows` keeps one ``sqlite3`` connection
in a thread of its own and writes a whole batch — begin, rows, deletes, commit — in one hop. Batches
that settle a hand or check a fencing token go the SQLAlchemy way.

The rows are encoded on the event loop and inserted a few hundred at a time by one statement each:
``sqlite3`` lets go of the GIL around every step of a statement, and the thread must win it back
from a busy event loop each time (up to the 5 ms switch interval), so ``executemany`` of a row at a
time made a batch of a hundred rows wait up to half a second (docs/BENCHMARKS.md, Server).
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tuolaji.room.entries import Entry, entry_to_json
from tuolaji.store.db import SQLITE_PRAGMAS
from tuolaji.wire.outbound import dumps

ROWS_PER_INSERT = 300
"""Rows one ``INSERT`` statement adds (three parameters each, well within SQLite's 32,766)."""
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
class RowsWrite:
    """One table's step for :class:`SqliteRows`: its ``entries`` from ``first_seq`` on (stored as
    their :func:`~tuolaji.room.entries.entry_to_json`)."""

    table_id: str
    first_seq: int
    entries: Sequence[Entry]


class SqliteRows:
    """Writes log rows to the SQLite file at ``path`` from a thread of its own; :meth:`close` it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="table-log")
        self._connection: sqlite3.Connection | None = None

    async def write(self, writes: Sequence[RowsWrite]) -> None:
        """Write ``writes`` in one transaction (the caller holds the process's write turn)."""
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
        await asyncio.get_running_loop().run_in_executor(self._executor, self._write, rows, after)

    def _write(self, rows: list[Any], after: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Insert ``rows`` (table id, seq and entry of each, one after another), then run ``after``."""
        connection = self._connect()
        connection.execute("BEGIN IMMEDIATE")
        try:
            chunk = 3 * ROWS_PER_INSERT
            for start in range(0, len(rows), chunk):
                values = rows[start : start + chunk]
                connection.execute(_insert(len(values) // 3), values)
            for statement, parameters in after:
                connection.execute(statement, parameters)
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(self.path, isolation_level=None)
            for pragma in SQLITE_PRAGMAS:
                connection.execute(pragma)
            self._connection = connection
        return self._connection

    async def close(self) -> None:
        """Close the connection and stop the thread."""

        def close() -> None:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

        await asyncio.get_running_loop().run_in_executor(self._executor, close)
        self._executor.shutdown(wait=True)
