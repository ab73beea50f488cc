"""Which node runs which table: leases on tables, the nodes' heartbeats, taking over tables nobody runs.

``tj:lease:{table}`` names the node that runs the table, with a time to live (``lease_ms``) that its
node renews every third of it; ``tj:node:{node}`` is a node's heartbeat, its value the node's
:class:`~tuolaji.wire.orders.NodeStatus` (draining, tables run, and the start token of the node's
process, :attr:`~tuolaji.server.bus.Bus.incarnation`), and ``tj:nodes`` the set of nodes that ever
beat (a node whose heartbeat lapsed is dropped from it by whoever reads it). A node that finds an
open table (PostgreSQL's ``live_tables``) without a lease takes it (``SET NX``) and restores it from
its log (``HostedTables.adopt``) — unless it drains: then it takes none, and hands its own over
(``HostedTables.drain_tick``); a node process whose heartbeat lapsed, or was replaced by another
process of the same node, has its clients disconnected at the tables run here (R46).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from tuolaji.server.bus import Node
from tuolaji.server.redis_link import UNREACHABLE, RedisLink, key
from tuolaji.wire.nodes import SeatRef, decode_summary, encode_summary
from tuolaji.wire.orders import NodeStatus

log = logging.getLogger(__name__)


class Leases:
    """This node's leases and heartbeat on ``link``, and its scan for tables nobody runs."""

    def __init__(self, link: RedisLink, incarnation: str, lease_ms: int, scan_seconds: float) -> None:
        self.link = link
        self.node_id, _, self.boot = incarnation.partition(".")
        """This node's name, and the token of this process of it (the heartbeat's value)."""
        self.lease_ms = lease_ms
        self.scan_seconds = scan_seconds
        self.owned: set[str] = set()
        """The tables whose lease this node holds."""
        self.closing = False
        self.draining = False
        """This node drains: it takes no table over and hands its own to other nodes."""
        self.peers: dict[str, NodeStatus] = {}
        """The other live nodes as their heartbeats said at the last renewal."""

    def status(self) -> NodeStatus:
        """This node's heartbeat."""
        return NodeStatus(self.node_id, self.draining, len(self.owned), self.boot)

    def beat(self, pipe: Any) -> None:
        """Add this node's heartbeat to ``pipe``."""
        pipe.set(key("node", self.node_id), self.status().encode(), px=self.lease_ms)
        pipe.sadd(key("nodes"), self.node_id)

    def adopter(self) -> str | None:
        """Another live node that does not drain, running fewest tables (None: there is none)."""
        open_nodes = [status for status in self.peers.values() if not status.draining]
        return min(open_nodes, key=lambda status: (status.tables, status.node)).node if open_nodes else None

    async def read_nodes(self) -> dict[str, NodeStatus]:
        """Every live node's status (this one's included); the dead are dropped from ``tj:nodes``."""
        redis = self.link.redis
        names = sorted(str(name) for name in await redis.smembers(key("nodes")))
        beats = await redis.mget([key("node", name) for name in names]) if names else []
        dead = [name for name, beat in zip(names, beats, strict=True) if beat is None]
        if dead:
            await redis.srem(key("nodes"), *dead)
        return {name: NodeStatus.decode(name, str(beat)) for name, beat in zip(names, beats, strict=True) if beat}

    async def take_new(self, table_id: str) -> None:
        """Lease the new table ``table_id`` to this node. Raises ``BusDown``."""
        redis = self.link.redis
        await self.link.call(lambda: redis.set(key("lease", table_id), self.node_id, px=self.lease_ms))
        self.owned.add(table_id)

    def running(self, table_id: str) -> None:
        """This node runs ``table_id`` (adopted): the other nodes' clients there attach again."""
        self.owned.add(table_id)
        self.link.later(lambda: self.link.redis.publish(key("moved"), table_id))

    def gone(self, table_id: str) -> None:
        """This node no longer runs ``table_id``: give its lease up."""
        if table_id in self.owned:
            self.owned.discard(table_id)
            self.link.later(lambda: self.link.release(keys=[key("lease", table_id)], args=[self.node_id]))

    async def release_all(self) -> None:
        """Give up every lease and the heartbeat, in one round trip (the node stops; others take the
        tables over at once)."""
        if self.link.up:
            with contextlib.suppress(RedisError, OSError):
                async with self.link.pipeline() as pipe:
                    for table_id in self.owned:
                        await self.link.release(keys=[key("lease", table_id)], args=[self.node_id], client=pipe)
                    pipe.delete(key("node", self.node_id))
                    pipe.srem(key("nodes"), self.node_id)
                    await pipe.execute()

    async def reassert(self, node: Node) -> None:
        """After (re)connecting: this node's leases (those still its own: a table another node took
        over meanwhile is given up), then its seats and lobby entries, then the whole lobby."""
        owned = node.tables.owned()
        tables = list(owned)
        async with self.link.pipeline() as pipe:
            for table_id in tables:
                await self.link.renew(keys=[key("lease", table_id)], args=[self.node_id, self.lease_ms], client=pipe)
            renewed = await pipe.execute()
        for table_id, kept in zip(tables, renewed, strict=True):
            if not int(kept):
                log.warning("another node took the table over meanwhile; giving it up", extra={"table": table_id})
                self.owned.discard(table_id)
                node.tables.lost(table_id)
                del owned[table_id]
        async with self.link.pipeline() as pipe:
            for table_id, table in owned.items():
                for account_id, seat in table.seats.items():
                    pipe.hset(key("seated"), str(account_id), SeatRef(table_id, seat).encode())
                pipe.hset(key("lobby"), table_id, encode_summary(table.summary))
            await pipe.execute()
        raw = await self.link.redis.hgetall(key("lobby"))
        node.feed.on_lobby_reset({str(table_id): decode_summary(str(text)) for table_id, text in raw.items()})

    async def keep(self, node: Node) -> None:
        """Renew this node's heartbeat and leases; disconnect the clients of nodes whose heartbeat
        lapsed (a task for the node's life)."""
        while True:
            await asyncio.sleep(self.lease_ms / 3000)
            if self.link.up:
                await self._renew(node)
            if self.link.up and self.draining:
                node.tables.drain_tick()

    async def _renew(self, node: Node) -> None:
        tables = list(self.owned)
        others = sorted(node.tables.remote_incarnations())
        started = time.perf_counter()
        try:
            async with self.link.pipeline() as pipe:
                pipe.exists(key("node", self.node_id))
                self.beat(pipe)
                for table_id in tables:
                    renew = self.link.renew
                    await renew(keys=[key("lease", table_id)], args=[self.node_id, self.lease_ms], client=pipe)
                for other in others:
                    pipe.get(key("node", other.partition(".")[0]))
                alive, _, _, *results = await pipe.execute()
            self.peers = {name: status for name, status in (await self.read_nodes()).items() if name != self.node_id}
        except UNREACHABLE as error:
            self.link.went_down(error)
            return
        except RedisError:
            self.link.metrics.redis_error(unreachable=False)
            self.link.metrics.error("redis")
            log.exception("redis bus: renewing the leases failed", extra={"tables": len(tables)})
            return
        self.link.metrics.trip("renew", time.perf_counter() - started)
        if not alive:
            # Our heartbeat vanished between two renewals: Redis restarted and lost its data, or this
            # node stood still longer than a lease. Either way its keys are asserted again.
            text = "this node's heartbeat was gone: Redis restarted empty, or this node stood still over a lease"
            self.link.went_down(RedisConnectionError(text))
            return
        beats = zip(others, results[len(tables) :], strict=True)
        gone = {other for other, beat in beats if beat is None or not _beats_for(other, str(beat))}
        if gone:
            log.warning("node processes are gone: their clients are disconnected (R46)", extra={"nodes": sorted(gone)})
            node.tables.nodes_gone(gone)
        for table_id, result in zip(tables, results[: len(tables)], strict=True):
            if int(result) == 0 and table_id in self.owned:
                log.warning("the table's lease went to another node; giving it up", extra={"table": table_id})
                self.owned.discard(table_id)
                node.tables.lost(table_id)

    async def scan(self, node: Node) -> None:
        """Take over open tables that no node runs (their node died, or never came back); a task for
        the node's life."""
        while True:
            await asyncio.sleep(self.scan_seconds)
            if not self.link.up or self.closing or self.draining:
                continue
            try:
                await self._adopt_orphans(node)
            except UNREACHABLE as error:
                self.link.went_down(error)
            except Exception:
                self.link.metrics.error("redis")
                log.exception("redis bus: the scan for tables nobody runs failed")

    async def _adopt_orphans(self, node: Node) -> None:
        try:
            open_ids = await node.tables.open_table_ids()
        except Exception as error:  # the database's trouble, not Redis's: Redis is not taken for down
            log.warning("the scan for tables nobody runs could not read the open tables: %r", error)
            return
        ids = [table_id for table_id in open_ids if table_id not in self.owned]
        if not ids:
            return
        async with self.link.pipeline() as pipe:
            for table_id in ids:
                pipe.exists(key("lease", table_id))
            held = await pipe.execute()
        orphans = [table_id for table_id, lease in zip(ids, held, strict=True) if not lease]
        if not orphans:
            return
        async with self.link.pipeline() as pipe:
            for table_id in orphans:
                pipe.set(key("lease", table_id), self.node_id, nx=True, px=self.lease_ms)
            taken = await pipe.execute()
        won = [table_id for table_id, took in zip(orphans, taken, strict=True) if took]
        if not won:
            return
        self.owned.update(won)
        adopted = await node.tables.adopt(won)  # never raises: the tables it could not take are left out
        for table_id in won:
            if table_id not in adopted:
                # Given up at once, so that this node does not renew a lease on a table it does not
                # run (nobody would take it over), and the next scan tries again.
                self.gone(table_id)


def _beats_for(incarnation: str, beat: str) -> bool:
    """Whether the heartbeat ``beat`` is that of the node process ``incarnation`` (``NODE.BOOT``)."""
    node, _, boot = incarnation.partition(".")
    return NodeStatus.decode(node, beat).boot == boot
