"""Engine, sessions and migrations.

:class:`Database` wraps an async SQLAlchemy engine and session factory. :func:`open_database`
creates it from a URL and brings the schema up to date with Alembic (programmatically, no CLI).
The default is an SQLite file (``sqlite+aiosqlite:///tuolaji.sqlite3``), created on first use;
PostgreSQL works with ``postgresql+asyncpg://user:password@host/dbname``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

DEFAULT_URL = "sqlite+aiosqlite:///tuolaji.sqlite3"
_ALEMBIC_INI = Path(__file__).with_name("alembic.ini")


def sqlite_url(path: str | Path) -> str:
    """The async SQLAlchemy URL of an SQLite file."""
    return f"sqlite+aiosqlite:///{Path(path)}"


SQLITE_PRAGMAS = (
    "PRAGMA foreign_keys=ON",
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA busy_timeout=10000",
)
"""What every connection to an SQLite file of ours sets first."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def make_engine(url: str) -> AsyncEngine:
    """An async engine for ``url``; SQLite files get WAL, foreign keys and a busy timeout."""
    parsed = make_url(url)
    engine = create_async_engine(url, pool_pre_ping=parsed.get_backend_name() != "sqlite")
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def alembic_config(connection: Connection) -> Config:
    """The Alembic configuration of the shipped migrations, bound to ``connection``."""
    config = Config(str(_ALEMBIC_INI))
    config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection, revision: str) -> None:
    command.upgrade(alembic_config(connection), revision)


async def migrate(engine: AsyncEngine, revision: str = "head") -> None:
    """Run the Alembic migrations up to ``revision`` on ``engine``'s database."""
    async with engine.begin() as connection:
        await connection.run_sync(_upgrade, revision)


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

    @contextlib.asynccontextmanager
    async def writing(self) -> AsyncIterator[None]:
        """Hold this around a write transaction (see the class docstring)."""
        if self._write_turn is None:
            yield
            return
        async with self._write_turn:
            yield

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
