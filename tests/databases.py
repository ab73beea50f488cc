"""Scratch databases on the PostgreSQL server named by ``TUOLAJI_TEST_POSTGRES`` (tests skip without it)."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from tuolaji.store.db import make_engine

POSTGRES = os.environ.get("TUOLAJI_TEST_POSTGRES")


@contextlib.asynccontextmanager
async def fresh_postgres() -> AsyncIterator[str]:
    """The URL of a new, empty database on the test PostgreSQL server, dropped afterwards."""
    if not POSTGRES:
        pytest.skip("set TUOLAJI_TEST_POSTGRES to a scratch postgresql+asyncpg:// URL")
    name = "t_" + secrets.token_hex(6)
    admin = make_engine(POSTGRES).execution_options(isolation_level="AUTOCOMMIT")
    async with admin.connect() as connection:
        await connection.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as connection:
            await connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        await admin.dispose()
