"""Nodes starting together on one database: several processes run the real
:func:`tuolaji.store.db.migrate` at the same moment, on an empty database or one at an old revision,
and every one succeeds with the schema at head once (before the migration lock, all but one died
with a duplicate ``alembic_version`` row or table).

Each process is ``python -m tests.store.migrating URL``: all are started and have imported
everything before one line on their stdin sets them all going. On an SQLite file always; on
PostgreSQL with ``TUOLAJI_TEST_POSTGRES`` set (a new database on that server per test).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from tests.databases import fresh_postgres
from tests.live_server import REPO
from tuolaji.store.db import MIGRATION_LOCK_KEY, alembic_config, make_engine, migrate, sqlite_url
from tuolaji.store.models import Base

PROCESSES = 4
DEADLINE = 60.0
"""Seconds any one step (all processes ready, a lock wait seen, all processes done) may take."""

Finished = tuple[int | None, str]
"""A process's exit code and its stderr."""


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of a database that does not exist yet (a new SQLite file) or is empty (PostgreSQL)."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "new" / "store.sqlite3")
        return
    async with fresh_postgres() as url:
        yield url


@contextlib.asynccontextmanager
async def migrators(url: str, count: int = PROCESSES) -> AsyncIterator[list[asyncio.subprocess.Process]]:
    """``count`` migrating processes, each ready and waiting for :func:`go`; any still running at the
    end are killed (by the PID started here)."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    processes: list[asyncio.subprocess.Process] = []
    try:
        for _ in range(count):
            processes.append(
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "tests.store.migrating",
                    url,
                    cwd=REPO,
                    env=env,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                )
            )
        for process in processes:
            assert process.stdout is not None
            assert await asyncio.wait_for(process.stdout.readline(), DEADLINE) == b"ready\n"
        yield processes
    finally:
        for process in processes:
            if process.returncode is None:
                process.kill()
                await process.wait()


async def go(processes: list[asyncio.subprocess.Process]) -> None:
    """Set every process migrating (as close to the same moment as one loop allows)."""
    for process in processes:
        assert process.stdin is not None
        process.stdin.write(b"go\n")
    await asyncio.gather(*(process.stdin.drain() for process in processes if process.stdin is not None))


async def finished(processes: list[asyncio.subprocess.Process]) -> list[Finished]:
    """Wait (bounded) until every process has exited: their exit codes and stderr."""

    async def one(process: asyncio.subprocess.Process) -> Finished:
        _, stderr = await process.communicate()
        return process.returncode, stderr.decode(errors="replace")

    return await asyncio.wait_for(asyncio.gather(*(one(process) for process in processes)), DEADLINE)


async def until(condition: Callable[[], Awaitable[bool]], what: str) -> None:
    """Poll ``condition`` until it holds, failing the test after :data:`DEADLINE` seconds."""
    deadline = time.monotonic() + DEADLINE
    while not await condition():
        if time.monotonic() > deadline:
            pytest.fail(f"not within {DEADLINE:.0f} s: {what}")
        await asyncio.sleep(0.05)


def _state(connection: Connection) -> dict[str, Any]:
    tables = set(inspect(connection).get_table_names())
    versions = (
        [row[0] for row in connection.execute(text("SELECT version_num FROM alembic_version"))]
        if "alembic_version" in tables
        else []
    )
    return {
        "tables": tables,
        "versions": versions,
        "head": ScriptDirectory.from_config(alembic_config(connection)).get_current_head(),
        "diff": list(compare_metadata(MigrationContext.configure(connection), Base.metadata)),
    }


async def state(url: str) -> dict[str, Any]:
    """The database's tables, its ``alembic_version`` rows, the shipped head and any difference
    between the schema and the models."""
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(_state)
    finally:
        await engine.dispose()


def assert_all_migrated(results: list[Finished]) -> None:
    for code, stderr in results:
        assert code == 0, stderr[-3000:]


async def assert_at_head_once(url: str) -> None:
    found = await state(url)
    assert found["versions"] == [found["head"]]
    assert found["tables"] == {*Base.metadata.tables, "alembic_version"}
    assert found["diff"] == []


@pytest.mark.parametrize("start", [None, "0002"], ids=["empty", "old"])
async def test_processes_migrate_one_database_together(database: str, start: str | None) -> None:
    if start is not None:
        engine = make_engine(database)
        try:
            await migrate(engine, start)
        finally:
            await engine.dispose()
        assert (await state(database))["versions"] == [start]
    async with migrators(database) as processes:
        await go(processes)
        results = await finished(processes)
    assert_all_migrated(results)
    await assert_at_head_once(database)


async def test_processes_wait_while_the_migration_lock_is_held() -> None:
    """The lock is what keeps them apart: while the test holds it, all four wait in
    ``pg_advisory_lock`` and nothing is created; once it is released all four finish."""
    async with fresh_postgres() as url:
        engine = make_engine(url)
        key = {"key": MIGRATION_LOCK_KEY}

        async def all_waiting() -> bool:
            async with engine.connect() as connection:
                waiting = await connection.scalar(
                    text(
                        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                        " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                        " AND (classid::bigint << 32 | objid::bigint) = :key"
                    ),
                    key,
                )
            return bool(waiting == PROCESSES)

        try:
            async with engine.connect() as holder, migrators(url) as processes:
                await holder.execute(text("SELECT pg_advisory_lock(:key)"), key)
                await holder.commit()
                await go(processes)
                await until(all_waiting, f"{PROCESSES} processes waiting for the migration lock")
                assert [process.returncode for process in processes] == [None] * PROCESSES
                assert (await state(url))["tables"] == set()
                await holder.execute(text("SELECT pg_advisory_unlock(:key)"), key)
                await holder.commit()
                results = await finished(processes)
        finally:
            await engine.dispose()
        assert_all_migrated(results)
        assert all("waiting while another process migrates" in stderr for _, stderr in results)
        await assert_at_head_once(url)
