"""Engine, sessions and migrations.

:class:`Database` wraps an async SQLAlchemy engine and session factory. :func:`open_database`
creates it from a URL and brings the schema up to date with Alembic (programmatically, no CLI),
under a database lock, so any number of processes may start together on one database (see
:func:`migrate`). The default is an SQLite file (``sqlite+aiosqlite:///tuolaji.sqlite3``), created
on first use; PostgreSQL works with ``postgresql+asyncpg://user:password@host/dbname``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

DEFAULT_URL = "sqlite+aiosqlite:///tuolaji.sqlite3"
_ALEMBIC_INI = Path(__file__).with_name("alembic.ini")
log = logging.getLogger(__name__)

LONG_TURN_SECONDS = 0.5
"""A write that holds the SQLite write turn longer is logged, with its purpose: every other write of
the process, the tables' moves too, waited behind it."""

MIGRATION_LOCK_KEY = 0x74756F6C616A69
"""The PostgreSQL advisory lock (a ``bigint``: "tuolaji" in ASCII) that :func:`migrate` holds while
it migrates. Advisory locks are per database, so databases on one server do not wait for each other."""


def sqlite_url(path: str | Path) -> str:
    """The async SQLAlchemy URL of an SQLite file."""
    return f"sqlite+aiosqlite:///{Path(path)}"


SQLITE_PRAGMAS = (
    "PRAGMA busy_timeout=10000",
    "PRAGMA foreign_keys=ON",
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
)
"""What every connection to an SQLite file of ours sets first. The busy timeout comes first: switching
a new file to WAL takes its lock, and a process that finds it held (another one starting at the same
moment) must wait for it, not fail with "database is locked"."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


IDLE_IN_TRANSACTION_MS = 5000
"""PostgreSQL ends a session of ours whose transaction stays idle this long (none of ours waits
between its statements). A process frozen in the middle of a write (stopped, swapped out, its host
paused) would otherwise keep its row locks until it thawed, and with them another node from taking
its tables over (``TableLog.take_many``); this way they are freed within a lease (issue 48)."""


def _postgresql_settings(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute(f"SET idle_in_transaction_session_timeout = {IDLE_IN_TRANSACTION_MS}")
    cursor.close()


def make_engine(url: str) -> AsyncEngine:
    """An async engine for ``url``; SQLite files get WAL, foreign keys and a busy timeout. Pooled
    connections to another database are checked before use (a restarted server's are replaced)."""
    parsed = make_url(url)
    engine = create_async_engine(url, pool_pre_ping=parsed.get_backend_name() != "sqlite")
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    elif parsed.get_backend_name() == "postgresql":
        event.listen(engine.sync_engine, "connect", _postgresql_settings)
    return engine


def alembic_config(connection: Connection) -> Config:
    """The Alembic configuration of the shipped migrations, bound to ``connection``.

    Commands run with it take no lock: a caller that downgrades or upgrades by hand must make sure
    no other process migrates the same database at the time (:func:`migrate` does)."""
    config = Config(str(_ALEMBIC_INI))
    config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection, revision: str) -> None:
    command.upgrade(alembic_config(connection), revision)


async def migrate(engine: AsyncEngine, revision: str = "head") -> None:
    """Run the Alembic migrations up to ``revision`` on ``engine``'s database, under a lock.

    Any number of processes may call this at once on one database, empty or at an old revision:
    one migrates while the others wait (without a time limit), then each finds the schema at
    ``revision`` and changes nothing. Without the lock each would read "no version yet" and create
    the same tables, and all but one failed (a duplicate ``alembic_version`` row or table).

    - PostgreSQL: a session-level advisory lock (:data:`MIGRATION_LOCK_KEY`) on a connection of
      its own, taken before Alembic reads the current revision and released after the migration's
      transaction has committed. If anything fails or the call is cancelled the connection is
      closed instead of going back to the pool, so the server ends the session and the lock with
      it; a process that dies while migrating releases it the same way. The connection must be a
      session of its own (not one shared by a pooler in transaction mode, such as PgBouncer's).
    - SQLite: the migration is one ``BEGIN IMMEDIATE`` transaction, so the file's own write lock
      is the lock (why, and how a waiting process waits: :func:`_upgrade_sqlite`).
    - Any other database: one transaction, no lock.
    """
    async with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            await _upgrade_postgresql(connection, revision)
        elif connection.dialect.name == "sqlite":
            await connection.run_sync(_upgrade_sqlite, revision)
        else:
            async with connection.begin():
                await connection.run_sync(_upgrade, revision)


async def _upgrade_postgresql(connection: AsyncConnection, revision: str) -> None:
    key = {"key": MIGRATION_LOCK_KEY}
    try:
        if not (await connection.execute(text("SELECT pg_try_advisory_lock(:key)"), key)).scalar_one():
            log.info("waiting while another process migrates the database", extra={"lock": MIGRATION_LOCK_KEY})
            await connection.execute(text("SELECT pg_advisory_lock(:key)"), key)
        await connection.commit()
        async with connection.begin():
            await connection.run_sync(_upgrade, revision)
        await connection.execute(text("SELECT pg_advisory_unlock(:key)"), key)
        await connection.commit()
    except BaseException:
        await connection.invalidate()
        raise


def _upgrade_sqlite(connection: Connection, revision: str) -> None:
    """The migration as one ``BEGIN IMMEDIATE`` transaction: SQLite's own write lock is the lock.

    ``BEGIN IMMEDIATE`` takes the file's single write lock before Alembic reads the current
    revision, so no other process can read "no version yet" and migrate at the same time, and
    the reading, the DDL and the new version stamp commit together (Python's ``sqlite3`` opens no
    transaction for DDL by itself, so without this a crash in the middle left half a schema). A
    process that finds the lock taken waits the connection's busy timeout and tries again until
    the holder is done (without a time limit, like PostgreSQL's advisory lock), then finds the
    schema at ``revision``. Chosen over a lock file because it is the lock every writer of the file
    already respects (a migration also waits for a running server's write, and the reverse), it
    leaves no file beside the database, and the operating system releases it if its holder dies.
    """
    while True:
        try:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
            break
        except OperationalError as error:
            connection.rollback()
            if getattr(error.orig, "sqlite_errorcode", None) != sqlite3.SQLITE_BUSY:
                raise
            log.info("waiting while another process migrates the database (SQLite write lock)")
    try:
        _upgrade(connection, revision)
    except BaseException:
        connection.rollback()
        raise
    connection.commit()


class Database:
    """An engine plus its session factory; close it with :meth:`close`.

    Write transactions run inside :meth:`writing`. On SQLite the driver reads outside the write
    transaction (``SELECT … FOR UPDATE`` locks nothing there), so two hands settled at once could
    both read a balance and one update was lost; and with many tables finishing at once on a busy
    event loop, queued writers gave up after the busy timeout ("database is locked") and the hand
    was not stored. So on SQLite this process's writers take turns on an asyncio lock (waiting
    without a time limit); PostgreSQL's row locks need no turn-taking.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        url = engine.url
        self.sqlite_path = (
            Path(url.database)
            if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:")
            else None
        )
        """The file of an SQLite database (None for another database, or one in memory)."""
        self.sessions: async_sessionmaker[AsyncSession] = async_sessionmaker(engine, expire_on_commit=False)
        self._write_turn = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        self._holder: tuple[str, float] | None = None
        self._waiting = 0

    def may_write_now(self) -> bool:
        """Whether a write transaction may run at once without taking :meth:`writing`'s turn: no
        other write of this process is under way. Only for one that never waits (begun and
        committed on the event loop before its next ``await``)."""
        return self._write_turn is None or not self._write_turn.locked()

    @contextlib.asynccontextmanager
    async def writing(self, purpose: str) -> AsyncIterator[None]:
        """Hold this around a write transaction (see the class docstring); ``purpose`` names the
        writer in :meth:`write_turn` and in the warning for a turn held over
        :data:`LONG_TURN_SECONDS`."""
        if self._write_turn is None:
            yield
            return
        self._waiting += 1
        try:
            await self._write_turn.acquire()
        finally:
            self._waiting -= 1
        began = time.monotonic()
        self._holder = (purpose, began)
        try:
            yield
        finally:
            self._holder = None
            self._write_turn.release()
            held = time.monotonic() - began
            if held > LONG_TURN_SECONDS:
                fields = {"purpose": purpose, "seconds": round(held, 3), "waiting": self._waiting}
                log.warning("database: a write held the write turn long", extra=fields)

    def write_turn(self) -> dict[str, Any]:
        """Who holds this process's write turn on SQLite, for how long so far, and how many writers
        wait for it (for a warning about a write kept waiting); empty on another database."""
        if self._write_turn is None:
            return {}
        holder = self._holder
        if holder is None:
            return {"held_by": None, "waiting": self._waiting}
        return {"held_by": holder[0], "held_seconds": round(time.monotonic() - holder[1], 3), "waiting": self._waiting}

    async def close(self) -> None:
        """Dispose of the engine and its pooled connections."""
        await self.engine.dispose()


async def open_database(url: str = DEFAULT_URL) -> Database:
    """Connect to ``url`` and migrate its schema to the newest revision."""
    engine = make_engine(url)
    try:
        await migrate(engine)
    except BaseException:
        await engine.dispose()
        raise
    return Database(engine)
