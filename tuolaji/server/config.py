"""Server settings (``tuolaji serve`` options)."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field

from tuolaji.server.connection import OUTBOX_BYTES
from tuolaji.server.limits import ACCOUNT_BURST, ACCOUNT_RATE_PER_MINUTE, GUESTS_PER_HOUR, RATE_BURST, RATE_PER_SECOND
from tuolaji.store.accounts import DEFAULT_SESSION_DAYS, DEFAULT_START_SILVER
from tuolaji.store.db import DEFAULT_URL
from tuolaji.store.passwords import HASH_QUEUE, HASH_THREADS

DEFAULT_SEARCH_BUDGET_MS = 300.0


def default_bot_workers() -> int:
    """Processes for slow bots' moves: every core but one, which is left to the event loop."""
    return max(1, (os.cpu_count() or 1) - 1)


@dataclass(frozen=True)
class ServerConfig:
    """How the server runs; the table rules themselves are per table (``TableOptions``)."""

    db_url: str = DEFAULT_URL
    redis_url: str | None = None
    """Redis of a card room on many nodes (``tuolaji.server.redisbus``); None: this one node alone."""
    node_id: str = field(default_factory=lambda: secrets.token_hex(4))
    """This node's name among the nodes (client ids start with it)."""
    lease_seconds: float = 5.0
    """With Redis: how long a table waits for a dead node before another node takes it over."""
    start_silver: int = DEFAULT_START_SILVER
    """Silver of a new account (§13)."""
    bot_delay: float = 0.6
    """Seconds a bot or 託管 seat waits before it moves, so people can follow the play (a search bot
    thinks meanwhile)."""
    next_hand_delay: float = 3.0
    """Seconds between a hand's settlement and the next deal (R37)."""
    reconnect_grace: float = 60.0
    """After a restart, seconds a table waiting for players keeps the seats of people not back yet (R46)."""
    seed: int | None = None
    """Seed of the match seeds (reproducible tables for tests and debugging); None: unpredictable."""
    rate_per_second: float = RATE_PER_SECOND
    """Messages per second a connection may send (token bucket), and its burst."""
    rate_burst: float = RATE_BURST
    outbox_bytes: int = OUTBOX_BYTES
    """Memory of queued messages a client may fall behind by before it is closed (``CLOSE_TOO_SLOW``)."""
    hello_timeout: float = 10.0
    """Seconds a new connection has to send its ``hello``."""
    connections_per_address: int = 20
    """Open WebSocket connections one client address may have; 0: no limit."""
    account_rate_per_minute: float = ACCOUNT_RATE_PER_MINUTE
    """Account requests (guest, register, login) per minute per client address; 0: no limit."""
    account_burst: float = ACCOUNT_BURST
    bot_workers: int = field(default_factory=default_bot_workers)
    """Worker processes in which slow bots (``search``) think (``tuolaji.server.thinking``)."""
    search_budget_ms: float = DEFAULT_SEARCH_BUDGET_MS
    """The search bot's time budget per move."""
    forwarded_allow_ips: tuple[str, ...] = ()
    """Addresses or networks of trusted reverse proxies: only a request from one of them has its
    client address taken from ``X-Forwarded-For``; empty (the default): the header is ignored."""
    guests_per_hour: float = GUESTS_PER_HOUR
    """Guest accounts a client address may create per hour; 0: no limit."""
    session_days: float = DEFAULT_SESSION_DAYS
    """Days a session token stays valid after log-in."""
    hash_threads: int = HASH_THREADS
    """Threads in which argon2 hashes and verifies passwords (off the event loop)."""
    hash_queue: int = HASH_QUEUE
    """Password checks that may wait for a thread; more are answered 503 at once."""
