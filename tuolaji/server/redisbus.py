"""Many nodes on one Redis: leases on tables, the seat index, the lobby list, messages between nodes.

Keys (all under ``tj:``):

- ``lease:{table}`` — the node that runs the table, with a time to live (``lease_ms``) that its
  node renews every third of it. A node that finds an open table (PostgreSQL's ``live_tables``)
  without a lease takes it (``SET NX``), raises the table's fencing token in PostgreSQL and
  restores it from its log; the old owner's writes are refused from then on (``tuolaji.store.tablelog``).
- ``seated`` — account id → ``table|seat`` (the seat empty while a join is being decided).
- ``conn:{account}`` — the client id of the account's connection (a newer one replaces it).
- ``lobby`` — table id → its lobby summary (JSON).
- ``node:{node}`` — a node's heartbeat (its ``NodeStatus``: draining, tables), ``nodes`` the set of them.
- ``qm:…`` — the quick-match queue (``tuolaji.server.redis_queue``, on this bus's link).

Channels: ``n:{node}`` carries commands for the tables a node runs, messages for its clients and
tables a draining node asks it to open; ``lobby`` each changed summary; ``moved`` the id of a table
another node has just taken over; ``mod`` the moderators' console's orders (``tuolaji.wire.orders``).

Delivery: Redis pub/sub delivers at most once, in order per publisher. A command that finds no
owner (the table is moving) is refused to the client (``table_moving``); a lost ``state`` shows as
a gap in ``seq`` and the client asks for a full one (``sync``); a lost lobby change is made good by
the next change of that table or the snapshot a client gets with ``lobby``. If Redis is down the
node says so (health, log), refuses new tables and goes on with the tables it runs; when Redis
returns it subscribes again and re-asserts its leases, seats and lobby entries.

The parts: ``redis_link`` (the client, up or down, writes in order), ``redis_leases`` (leases,
heartbeats, taking tables over), ``redis_inbox`` (subscribing and handing what comes to the node's
parts), this module (the :class:`~tuolaji.server.bus.Bus` itself, batching messages for other
nodes); what travels is typed in ``tuolaji.wire.nodes``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Sequence
from typing import Any

from tuolaji.server.bus import Bus, Cluster, Node, new_incarnation, node_of
from tuolaji.server.limits import EscapeCooldown
from tuolaji.server.metrics import NO_METRICS, Metrics
from tuolaji.server.redis_inbox import RedisInbox
from tuolaji.server.redis_leases import Leases
from tuolaji.server.redis_link import RedisLink, key
from tuolaji.wire.nodes import (
    CloseClient,
    Delivery,
    Envelope,
    ForClients,
    ForTable,
    Logout,
    SeatRef,
    Summary,
    SummaryChange,
    TableOpening,
    encode_node_message,
    encode_summary,
)
from tuolaji.wire.orders import NodeStatus, Order, encode_order

log = logging.getLogger(__name__)

LEASE_MS = 5000
"""A table's lease lives this long without renewal: how long a dead node's tables wait for a new one."""
SCAN_SECONDS = 1.0
"""How often a node looks for open tables nobody runs."""
FLUSH_SECONDS = 0.002
"""Messages for another node's clients are sent together within this long."""


class RedisBus(Bus):
    """The bus of a node among many; ``url`` is Redis's (``redis://host:6379/0``)."""

    fenced = True

    def __init__(
        self,
        url: str,
        node_id: str,
        lease_ms: int = LEASE_MS,
        scan_seconds: float = SCAN_SECONDS,
        cooldown: EscapeCooldown | None = None,
        metrics: Metrics = NO_METRICS,
    ) -> None:
        self.cooldown = cooldown or EscapeCooldown()
        """The escape policy; its state (strikes, waits) lives in Redis, shared by every node."""
        self.node_id = node_id
        self.incarnation = new_incarnation(node_id)
        self.link = RedisLink(url, metrics)
        self.leases = Leases(self.link, self.incarnation, lease_ms, scan_seconds)
        self.cluster = RedisCluster(self.link, self.leases)
        self._node: Node | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._outgoing: dict[str, list[Delivery]] = {}
        self._flush: asyncio.TimerHandle | None = None

    @property
    def node(self) -> Node:
        """The parts of this node the bus calls back (once started)."""
        assert self._node is not None, "the bus is not started"
        return self._node

    # ------------------------------------------------------------------ life

    async def start(self, node: Node) -> None:
        self._node = node
        self._tasks = [
            asyncio.create_task(RedisInbox(self.link, self.leases, node).listen(), name="redis listen"),
            asyncio.create_task(self.leases.keep(node), name="redis leases"),
            asyncio.create_task(self.leases.scan(node), name="redis scan"),
            asyncio.create_task(self.link.write_loop(), name="redis writes"),
        ]
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                await self.link.connected.wait()
        if not self.link.up:
            fields = {"redis": self.link.shown_url}
            log.error("Redis is unreachable; starting anyway: no new tables until it answers", extra=fields)

    async def close(self) -> None:
        self.leases.closing = True
        self._send_outgoing()
        await self.leases.release_all()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.link.close()

    def status(self) -> dict[str, Any]:
        return {"bus": "redis", "up": self.link.up, "node": self.node_id, "tables": len(self.leases.owned)}

    # ------------------------------------------------------------------ tables

    async def new_table(self, table_id: str) -> None:
        await self.leases.take_new(table_id)

    def table_running(self, table_id: str) -> None:
        self.leases.running(table_id)

    def table_gone(self, table_id: str) -> None:
        self.leases.gone(table_id)

    def follow(self, table_id: str) -> None:
        self.node.moves.on_moved(table_id)

    # ------------------------------------------------------------------ seats, lobby, connections

    async def claim_seat(self, account_id: int, table_id: str) -> SeatRef | None:
        claim = self.link.claim
        current = await self.link.call(lambda: claim(keys=[key("seated")], args=[str(account_id), table_id]))
        return SeatRef.decode(current) if current else None

    async def seat_of(self, account_id: int) -> SeatRef | None:
        current = await self.link.call(lambda: self.link.redis.hget(key("seated"), str(account_id)))
        return SeatRef.decode(current) if current is not None else None

    def seat_changed(self, account_id: int, table_id: str, seat: int | None) -> None:
        redis, account = self.link.redis, str(account_id)
        if seat is not None:
            self.link.later(lambda: redis.hset(key("seated"), account, SeatRef(table_id, seat).encode()))
        else:
            self.link.later(lambda: self.link.unseat(keys=[key("seated")], args=[account, table_id]))

    def publish_summary(self, table_id: str, summary: Summary | None) -> None:
        change = SummaryChange(table_id, summary)

        async def write() -> None:
            async with self.link.pipeline() as pipe:
                if summary is None:
                    pipe.hdel(key("lobby"), table_id)
                else:
                    pipe.hset(key("lobby"), table_id, encode_summary(summary))
                pipe.publish(key("lobby"), change.encode())
                await pipe.execute()

        self.link.later(write)

    async def connection_opened(self, account_id: int, client: str) -> str | None:
        redis = self.link.redis
        old = await self.link.call(lambda: redis.set(key("conn", str(account_id)), client, get=True))
        return str(old) if old else None

    def connection_closed(self, account_id: int, client: str) -> None:
        """``client`` closed; forget it as the account's connection unless a newer one took over."""
        self.link.later(lambda: self.link.forget_conn(keys=[key("conn", str(account_id))], args=[client]))

    def escaped(self, account_id: int) -> None:
        escapes = key("escapes", str(account_id))
        redis = self.link.redis

        async def write() -> None:
            now = time.time()
            count = int(await redis.hincrby(escapes, "count", 1))
            async with self.link.pipeline() as pipe:
                pipe.hset(escapes, "until", str(now + self.cooldown.delay(count)))
                pipe.expire(escapes, round(self.cooldown.forget_after))
                await pipe.execute()

        self.link.later(write)

    async def escape_wait(self, account_id: int) -> float:
        until = await self.link.call(lambda: self.link.redis.hget(key("escapes", str(account_id)), "until"))
        return max(0.0, float(until) - time.time()) if until else 0.0

    def logout(self, account_id: int, session: str) -> None:
        self.node.clients.on_logout(account_id, session)
        self.link.later(lambda: self.link.redis.publish(key("logout"), Logout(account_id, session).encode()))

    # ------------------------------------------------------------------ between nodes

    async def send_command(self, table_id: str, envelope: Envelope) -> bool:
        body = encode_node_message(ForTable(table_id, envelope))
        route = self.link.route
        routed = await self.link.call(lambda: route(keys=[key("lease", table_id)], args=[key("n", ""), body]))
        return int(routed) > 0

    def deliver(self, delivery: Delivery) -> None:
        node = node_of(delivery.client)
        if node == self.node_id:
            self.node.clients.on_deliver(delivery)
            return
        self._outgoing.setdefault(node, []).append(delivery)
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_later(FLUSH_SECONDS, self._send_outgoing)

    def close_client(self, client: str, code: int, text: str) -> None:
        node = node_of(client)
        if node == self.node_id:
            self.node.clients.on_close_client(client, code, text)
            return
        body = encode_node_message(CloseClient(client, code, text))
        self.link.later(lambda: self.link.redis.publish(key("n", node), body))

    def _send_outgoing(self) -> None:
        self._flush = None
        outgoing, self._outgoing = self._outgoing, {}
        redis = self.link.redis
        for node, items in outgoing.items():
            body = encode_node_message(ForClients(tuple(items), self.node_id))
            self.link.later(functools.partial(redis.publish, key("n", node), body))


class RedisCluster(Cluster):
    """The card room across the nodes on one Redis (``link``), as this node's ``leases`` know it."""

    def __init__(self, link: RedisLink, leases: Leases) -> None:
        self.link = link
        self.leases = leases

    async def broadcast(self, order: Order) -> None:
        body = encode_order(order)
        await self.link.call(lambda: self.link.redis.publish(key("mod"), body))

    def set_draining(self, on: bool) -> None:
        self.leases.draining = on
        leases = self.leases

        async def beat() -> None:
            pipe = self.link.redis.pipeline(transaction=False)
            leases.beat(pipe)
            await pipe.execute()

        self.link.later(beat)

    def adopter(self) -> str | None:
        return self.leases.adopter()

    def open_elsewhere(self, node: str, opening: TableOpening) -> None:
        body = encode_node_message(opening)
        self.link.later(lambda: self.link.redis.publish(key("n", node), body))

    async def nodes(self) -> list[NodeStatus]:
        found: dict[str, NodeStatus] = await self.link.call(self.leases.read_nodes)
        return [found[name] for name in sorted(found)]

    async def owners(self, table_ids: Sequence[str]) -> dict[str, str | None]:
        if not table_ids:
            return {}
        held = await self.link.call(lambda: self.link.redis.mget([key("lease", table_id) for table_id in table_ids]))
        return {table_id: None if node is None else str(node) for table_id, node in zip(table_ids, held, strict=True)}

    async def connection_of(self, account_id: int) -> str | None:
        client = await self.link.call(lambda: self.link.redis.get(key("conn", str(account_id))))
        return None if client is None else str(client)
