"""Store fixtures: a fresh database per test, an SQLite file and, with ``TUOLAJI_TEST_POSTGRES`` set
to a ``postgresql+asyncpg://`` URL of a scratch database, PostgreSQL too (its tables are dropped first)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from alembic import command

from tuolaji.store.db import alembic_config, make_engine, migrate, open_database, sqlite_url

POSTGRES = os.environ.get("TUOLAJI_TEST_POSTGRES")


@pytest.fixture(params=["sqlite", "postgres"])
async def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: an SQLite file, or the scratch PostgreSQL database emptied."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path / "store.sqlite3")
    if not POSTGRES:
        pytest.skip("set TUOLAJI_TEST_POSTGRES to a scratch postgresql+asyncpg:// URL")
    engine = make_engine(POSTGRES)
    try:
        await migrate(engine)
        async with engine.begin() as connection:
            await connection.run_sync(lambda sync: command.downgrade(alembic_config(sync), "base"))
    finally:
        await engine.dispose()
    return POSTGRES


@pytest.fixture
async def db(url: str) -> Any:
    database = await open_database(url)
    yield database
    await database.close()
