"""What a node runs on: the database, the accounts, the bus to the other nodes, the tables' log, the
slow bots' pool, the metrics, the quick-match queue and the settings, opened once at start-up
(:func:`open_services`) and handed to the HTTP API and the lobby's parts as one :class:`Services` record."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from tuolaji.server.bus import Bus, LocalBus
from tuolaji.server.config import ServerConfig
from tuolaji.server.metrics import Metrics
from tuolaji.server.queue_store import MemoryQueue, QueueStore
from tuolaji.server.redis_queue import RedisQueue
from tuolaji.server.redisbus import RedisBus
from tuolaji.server.thinking import ThinkingPool
from tuolaji.store.accounts import Accounts
from tuolaji.store.db import Database, open_database
from tuolaji.store.passwords import PasswordHashing
from tuolaji.store.tablelog import TableLog


@dataclass(frozen=True)
class Services:
    """A node's long-lived services (owned by :func:`open_services`, which closes them)."""

    config: ServerConfig
    db: Database
    accounts: Accounts
    bus: Bus
    """The link to the other nodes (:class:`LocalBus` when this node is alone)."""
    table_log: TableLog
    thinking: ThinkingPool
    """Where slow bots think."""
    metrics: Metrics
    """What the node counts and times (``/metrics``)."""
    queue: QueueStore = field(default_factory=MemoryQueue)
    """The quick-match queue (in Redis beside a Redis bus: every node's)."""


def make_queue(bus: Bus) -> QueueStore:
    """The quick-match queue for ``bus``: in its Redis when nodes share one, else in memory."""
    return RedisQueue(bus.link) if isinstance(bus, RedisBus) else MemoryQueue()


def make_bus(config: ServerConfig, metrics: Metrics) -> Bus:
    """The bus ``config`` asks for: Redis for many nodes, else the in-memory one."""
    if config.redis_url is not None:
        return RedisBus(config.redis_url, config.node_id, round(config.lease_seconds * 1000), metrics=metrics)
    return LocalBus(config.node_id)


@contextlib.asynccontextmanager
async def open_services(config: ServerConfig, metrics: Metrics) -> AsyncIterator[Services]:
    """Open (and migrate) the database and start the log writer, the pool and the accounts, all
    counting into ``metrics``; on exit close them, after the bus (which the caller starts and closes:
    it needs the lobby)."""
    db = await open_database(config.db_url)
    table_log = TableLog(db, watcher=metrics)
    thinking = ThinkingPool(config.bot_workers, config.search_budget_ms, metrics=metrics)
    accounts = Accounts(
        db,
        config.start_silver,
        session_days=config.session_days,
        hashing=PasswordHashing(config.hash_threads, config.hash_queue),
    )
    try:
        bus = make_bus(config, metrics)
        yield Services(config, db, accounts, bus, table_log, thinking, metrics, make_queue(bus))
    finally:
        await table_log.close()
        await thinking.close()
        accounts.close()
        await db.close()
