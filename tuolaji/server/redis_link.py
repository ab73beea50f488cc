"""A node's link to Redis: the client, whether Redis answers, calls that wait and writes that do not.

A call that waits for its answer (:meth:`RedisLink.call`) raises :class:`~tuolaji.server.bus.BusDown`
while Redis is unreachable; a write that nobody waits for (:meth:`RedisLink.later`) is queued, kept in
order and dropped while Redis is down. The Lua scripts of the bus are registered here, each one Redis
step. The link times its round trips and counts Redis's errors (``tuolaji.server.metrics``), and logs
one line when Redis stops answering (the other parts log when it answers again).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.client import Pipeline
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.maint_notifications import MaintNotificationsConfig

from tuolaji.server.bus import BusDown
from tuolaji.server.metrics import NO_METRICS, Metrics

log = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
"""Errors that mean Redis cannot be reached (any other Redis error is a bug, and logged as one)."""
PREFIX = "tj:"
MAX_CONNECTIONS = 32
"""Connections to Redis a node opens at most; a call beyond waits for one (up to 5 s)."""

RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 2 end
return 0
"""
"""Renew this node's lease, or take it again if it lapsed while nobody else took it (1, 2), else 0."""
RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
ROUTE = """
local owner = redis.call('GET', KEYS[1])
if not owner then return -1 end
return redis.call('PUBLISH', ARGV[1] .. owner, ARGV[2])
"""
"""Publish to the node that holds the lease, in one step; -1 if none does."""
CLAIM = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current then return current end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '|')
return false
"""
UNSEAT = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current and string.sub(current, 1, string.len(ARGV[2]) + 1) == ARGV[2] .. '|' then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""
FORGET_CONN = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


def shown(url: str) -> str:
    """``url`` as logs show it: without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return parts._replace(netloc=parts.netloc.replace(":" + parts.password + "@", ":***@", 1)).geturl()


def key(*parts: str) -> str:
    """A key or channel of the card room: ``tj:`` and ``parts`` joined by colons."""
    return PREFIX + ":".join(parts)


class RedisLink:
    """One node's Redis client (``url`` is ``redis://host:6379/0``) and its up/down state; its round
    trips and errors are counted in ``metrics``."""

    def __init__(self, url: str, metrics: Metrics = NO_METRICS) -> None:
        self.url = url
        self.shown_url = shown(url)
        """The URL as logs show it."""
        self.metrics = metrics
        self.down_since: float | None = None
        """Since when (monotonic) Redis has not answered; None while it does, or before it first did."""
        pool = BlockingConnectionPool.from_url(
            url,
            max_connections=MAX_CONNECTIONS,
            timeout=5.0,
            decode_responses=True,
            socket_timeout=2.0,
            socket_connect_timeout=2.0,
            # With maintenance notifications on (redis-py's default "auto"), the pool hands out an
            # idle connection without checking that Redis has not closed it: after Redis restarted,
            # or a node's connections were cut, each stale one failed its next call and the node
            # took Redis for down again and again (issue 48). Off, a closed one is opened anew.
            maint_notifications_config=MaintNotificationsConfig(enabled=False),
        )
        self.redis: Redis = Redis(connection_pool=pool)
        self.up = False
        """Whether Redis answered last time it was asked."""
        self.connected = asyncio.Event()
        """Set while Redis answers (after the node subscribed and re-asserted its keys)."""
        self._writes: asyncio.Queue[Callable[[], Awaitable[Any]]] = asyncio.Queue()
        self.renew = self.redis.register_script(RENEW)
        self.release = self.redis.register_script(RELEASE)
        self.route = self.redis.register_script(ROUTE)
        self.claim = self.redis.register_script(CLAIM)
        self.unseat = self.redis.register_script(UNSEAT)
        self.forget_conn = self.redis.register_script(FORGET_CONN)

    def went_down(self, error: BaseException) -> None:
        """Redis did not answer: say so once, and wait for it to come back."""
        self.metrics.redis_error(unreachable=True)
        if self.up:
            self.down_since = time.monotonic()
            fields = {"redis": self.shown_url, "cause": str(error)}
            log.error("Redis is unreachable: the tables here go on, new tables are refused", extra=fields)
        self.up = False
        self.connected.clear()

    def came_back(self) -> float | None:
        """Redis answers (again): the seconds it was away, if it had been."""
        down, self.down_since = self.down_since, None
        return round(time.monotonic() - down, 3) if down is not None else None

    async def call(self, call: Callable[[], Awaitable[Any]]) -> Any:
        """Run one Redis call; :class:`BusDown` if Redis does not answer."""
        if not self.up:
            raise BusDown(f"Redis at {self.shown_url} is unreachable")
        started = time.perf_counter()
        try:
            result = await call()
        except UNREACHABLE as error:
            self.went_down(error)
            raise BusDown(f"Redis at {self.shown_url} is unreachable: {error}") from error
        except RedisError:
            self.metrics.redis_error(unreachable=False)
            raise
        self.metrics.trip("call", time.perf_counter() - started)
        return result

    def later(self, write: Callable[[], Awaitable[Any]]) -> None:
        """Queue a Redis write that nobody waits for (kept in order; dropped while Redis is down)."""
        if self.up:
            self._writes.put_nowait(write)

    async def write_loop(self) -> None:
        """Carry out the queued writes, one after another (a task for the node's life)."""
        while True:
            write = await self._writes.get()
            if not self.up:
                continue
            started = time.perf_counter()
            try:
                await write()
            except UNREACHABLE as error:
                self.went_down(error)
            except Exception:
                self.metrics.redis_error(unreachable=False)
                self.metrics.error("redis")
                log.exception("redis bus: a write failed", extra={"redis": self.shown_url})
            else:
                self.metrics.trip("write", time.perf_counter() - started)

    @contextlib.asynccontextmanager
    async def pipeline(self) -> AsyncIterator[Pipeline]:
        """A pipeline (no transaction), given back to the pool however it ends (a pipeline whose
        execution failed would otherwise keep its connection, and asyncio report it unclosed)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            yield pipe

    async def close(self) -> None:
        """Disconnect, the pool's connections too (a client given its pool leaves it open otherwise)."""
        await self.redis.aclose(close_connection_pool=True)
