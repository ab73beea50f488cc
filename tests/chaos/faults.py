"""The faults of a chaos run, and their seeded schedule.

- ``kill``: ``kill -9`` a node, start it again after 0.5–3 s;
- ``stop``: ``SIGSTOP`` a node for longer than the lease (lease + 2–6 s), then ``SIGCONT``;
- ``redis``: ``kill -9`` Redis and start it again, empty (no persistence), after 0.2–1.5 s;
- ``pg_fast``, ``pg_immediate``: ``pg_ctl restart -m fast`` / ``-m immediate`` (a crash);
- ``drop``: cut every connection of a node — to PostgreSQL and Redis (the proxy) and its people's;
- ``delay``: the node's traffic to PostgreSQL and Redis late each way by 2–10% of a lease (100–500 ms
  with the default lease of 5 s) for 1–2.4 leases.

Each fault is one :class:`Fault`: when it began and when its cause was gone (wall clock), the node
it hit and the tables that node ran when it began (their leases, read from Redis). Faults come one
after another, a pause between them, so their effects overlap as they would (a node stopped a few
seconds after Redis came back).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import RedisError

from tests.chaos.nodes import Node
from tests.chaos.people import Crowd
from tests.chaos.proxy import Proxy
from tests.chaos.services import Postgres, RedisProcess

KINDS = ("kill", "stop", "redis", "pg_fast", "pg_immediate", "drop", "delay")
WEIGHTS = {"kill": 9, "stop": 7, "redis": 5, "pg_fast": 4, "pg_immediate": 2, "drop": 7, "delay": 5}
"""How often each kind comes in a long run (the mix of issue 48's first run)."""
NODE_KINDS = frozenset({"kill", "stop", "drop", "delay"})


@dataclass(frozen=True)
class Fault:
    """One fault: ``kind``, the ``node`` it hit (if any), ``start`` and ``end`` (its cause gone), and
    the tables that node ran at the start."""

    kind: str
    node: str | None
    start: float
    end: float
    tables: tuple[str, ...] = ()
    detail: str = ""


@dataclass
class Cluster:
    """What the faults act on."""

    postgres: Postgres
    redis: RedisProcess
    proxy: Proxy
    nodes: list[Node]
    crowd: Crowd
    lease: float


async def leases(redis_url: str) -> dict[str, str]:
    """Table → the node holding its lease, as Redis says now (empty if it does not answer)."""
    client = Redis.from_url(redis_url, decode_responses=True, socket_timeout=2, socket_connect_timeout=2)
    try:
        keys = [key async for key in client.scan_iter(match="tj:lease:*", count=1000)]
        owners = await client.mget(keys) if keys else []
        return {
            str(key).removeprefix("tj:lease:"): str(owner) for key, owner in zip(keys, owners, strict=True) if owner
        }
    except (RedisError, OSError):
        return {}
    finally:
        with contextlib.suppress(RedisError, OSError):
            await client.aclose()


class Faults:
    """Injects faults into ``cluster``, chosen and timed by ``rng``."""

    def __init__(self, cluster: Cluster, rng: random.Random) -> None:
        self.cluster = cluster
        self.rng = rng
        self.done: list[Fault] = []

    async def run(self, seconds: float, gap: tuple[float, float], kinds: Sequence[str] | None = None) -> None:
        """Faults for ``seconds``, a pause of ``gap`` (uniform) before each: drawn by :data:`WEIGHTS`,
        or the kinds of ``kinds`` in that order (then as many as there are, time or not)."""
        deadline = time.time() + seconds
        order = list(kinds) if kinds is not None else None
        while (order is None and time.time() < deadline) or order:
            await asyncio.sleep(self.rng.uniform(*gap))
            if order is not None:
                kind = order.pop(0)
            else:
                kind = self.rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
            if order is None and time.time() >= deadline:
                break
            self.done.append(await self.inject(kind))

    async def inject(self, kind: str) -> Fault:
        """One fault of ``kind``; back when its cause is gone."""
        if kind not in NODE_KINDS:
            start = time.time()
            detail = await self._service(kind)
            return Fault(kind, None, start, time.time(), (), detail)
        answering = [node for node in self.cluster.nodes if node.answering]
        node = self.rng.choice(answering)
        owners = await leases(self.cluster.redis.url)
        tables = tuple(sorted(table for table, owner in owners.items() if owner == node.name))
        start = time.time()
        detail = await self._node(kind, node)
        return Fault(kind, node.name, start, time.time(), tables, detail)

    async def _service(self, kind: str) -> str:
        cluster = self.cluster
        if kind == "redis":
            cluster.redis.kill()
            down = self.rng.uniform(0.2, 1.5)
            await asyncio.sleep(down)
            await asyncio.to_thread(cluster.redis.start)
            return f"down {down:.1f} s, back empty"
        mode = kind.removeprefix("pg_")
        await asyncio.to_thread(cluster.postgres.restart, mode)
        return f"pg_ctl restart -m {mode}"

    async def _node(self, kind: str, node: Node) -> str:
        cluster, rng = self.cluster, self.rng
        if kind == "kill":
            node.kill()
            down = rng.uniform(0.5, 3.0)
            await asyncio.sleep(down)
            await node.start()
            return f"down {down:.1f} s"
        if kind == "stop":
            pause = cluster.lease + rng.uniform(2.0, 6.0)
            node.pause()
            await asyncio.sleep(pause)
            node.resume()
            return f"stopped {pause:.1f} s"
        if kind == "drop":
            await cluster.proxy.drop(node.name)
            return f"{cluster.crowd.drop(node)} people's connections cut, and the node's to PostgreSQL and Redis"
        delay, length = rng.uniform(0.02, 0.1) * cluster.lease, rng.uniform(1.0, 2.4) * cluster.lease
        await cluster.proxy.delay(node.name, delay)
        await asyncio.sleep(length)
        await cluster.proxy.delay(node.name, 0)
        return f"{delay * 1000:.0f} ms each way for {length:.1f} s"
