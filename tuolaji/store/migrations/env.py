"""Alembic environment: migrate the connection handed over by :func:`tuolaji.store.db.migrate`,
or, from the ``alembic`` command line, the database named by ``-x url=…``."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from tuolaji.store.models import Base


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


async def _run_from_url(url: str) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(_run)
    finally:
        await engine.dispose()


given = context.config.attributes.get("connection")
if isinstance(given, Connection):
    _run(given)
else:
    asyncio.run(_run_from_url(context.get_x_argument(as_dictionary=True)["url"]))
