"""Many nodes on one Redis: leases on tables, the seat index, the lobby list, messages between nodes.

Keys (all under ``tj:``):

- ``lease:{table}`` — the node that runs the table, with a time to live (``lease_ms``) that its
  node renews every third of it. A node that finds an open table (PostgreSQL's ``live_tables``)
  without a lease takes it (``SET NX``), raises the table's fencing token in PostgreSQL and
  restores it from its log; the old owner's writes are refused from then on (``tuolaji.store.tablelog``).
- ``seated`` — account id → ``table|seat`` (the seat empty while a join is being decided).
- ``conn:{account}`` — the client id of the account's connection (a newer one replaces it).
- ``lobby`` — table id → its lobby summary (JSON).

Channels: ``n:{node}`` carries commands for the tables a node runs and messages for its clients;
``lobby`` each changed summary; ``moved`` the id of a table another node has just taken over.

Delivery: Redis pub/sub delivers at most once, in order per publisher. A command that finds no
owner (the table is moving) is refused to the client (``table_moving``); a lost ``state`` shows as
a gap in ``seq`` and the client asks for a full one (``sync``); a lost lobby change is made good by
the next change of that table or the snapshot a client gets with ``lobby``. If Redis is down the
node says so (health, log), refuses new tables and goes on with the tables it runs; when Redis
returns it subscribes again and re-asserts its leases, seats and lobby entries.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.client import PubSub
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from tuolaji.server.bus import Bus, BusDown, Envelope, Node, SeatRef, node_of
from tuolaji.server.limits import EscapeCooldown

log = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
"""Errors that mean Redis cannot be reached (any other Redis error is a bug, and logged as one)."""
PREFIX = "tj:"
LEASE_MS = 5000
"""A table's lease lives this long without renewal: how long a dead node's tables wait for a new one."""
SCAN_SECONDS = 1.0
"""How often a node looks for open tables nobody runs."""
RETRY_SECONDS = 1.0
"""How often a node tries Redis again while it is down."""
FLUSH_SECONDS = 0.002
"""Messages for another node's clients are sent together within this long."""
MAX_CONNECTIONS = 32
"""Connections to Redis a node opens at most; a call beyond waits for one (up to 5 s)."""

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 2 end
return 0
"""
"""Renew this node's lease, or take it again if it lapsed while nobody else took it (1, 2), else 0."""
_RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
_ROUTE = """
local owner = redis.call('GET', KEYS[1])
if not owner then return -1 end
return redis.call('PUBLISH', ARGV[1] .. owner, ARGV[2])
"""
"""Publish to the node that holds the lease, in one step; -1 if none does."""
_CLAIM = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current then return current end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '|')
return false
"""
_UNSEAT = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current and string.sub(current, 1, string.len(ARGV[2]) + 1) == ARGV[2] .. '|' then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""
_FORGET_CONN = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


def _seat_ref(value: str | None) -> SeatRef | None:
    if value is None:
        return None
    table_id, _, seat = value.partition("|")
    return SeatRef(table_id, int(seat) if seat else None)


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
    ) -> None:
        self.cooldown = cooldown or EscapeCooldown()
        """The escape policy; its state (strikes, waits) lives in Redis, shared by every node."""
        self.url = url
        self.node_id = node_id
        self.lease_ms = lease_ms
        self.scan_seconds = scan_seconds
        pool = BlockingConnectionPool.from_url(
            url,
            max_connections=MAX_CONNECTIONS,
            timeout=5.0,
            decode_responses=True,
            socket_timeout=2.0,
            socket_connect_timeout=2.0,
        )
        self.redis: Redis = Redis(connection_pool=pool)
        self.up = False
        self._was_up = False
        self.owned: set[str] = set()
        self._node: Node | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._writes: asyncio.Queue[Callable[[], Awaitable[Any]]] = asyncio.Queue()
        self._outgoing: dict[str, list[list[str]]] = {}
        self._flush: asyncio.TimerHandle | None = None
        self._connected = asyncio.Event()
        self._closing = False
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._route = self.redis.register_script(_ROUTE)
        self._claim = self.redis.register_script(_CLAIM)
        self._unseat = self.redis.register_script(_UNSEAT)
        self._forget_conn = self.redis.register_script(_FORGET_CONN)

    @property
    def node(self) -> Node:
        assert self._node is not None, "the bus is not started"
        return self._node

    def _key(self, *parts: str) -> str:
        return PREFIX + ":".join(parts)

    # ------------------------------------------------------------------ life

    async def start(self, node: Node) -> None:
        self._node = node
        self._tasks = [
            asyncio.create_task(self._listen(), name="redis listen"),
            asyncio.create_task(self._keep_leases(), name="redis leases"),
            asyncio.create_task(self._scan(), name="redis scan"),
            asyncio.create_task(self._write_loop(), name="redis writes"),
        ]
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                await self._connected.wait()
        if not self.up:
            log.error("Redis at %s is unreachable; starting anyway: no new tables until it answers", self.url)

    async def close(self) -> None:
        self._closing = True
        self._send_outgoing()
        if self.up:
            with contextlib.suppress(RedisError, OSError):
                for table_id in list(self.owned):
                    await self._release(keys=[self._key("lease", table_id)], args=[self.node_id])
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.redis.aclose()

    def status(self) -> dict[str, Any]:
        return {"bus": "redis", "up": self.up, "node": self.node_id, "tables": len(self.owned)}

    def _went_down(self, error: BaseException) -> None:
        if self.up:
            log.error("Redis at %s is unreachable (%s): the tables here go on, new tables are refused", self.url, error)
        self.up = False
        self._connected.clear()

    async def _call(self, call: Callable[[], Awaitable[Any]]) -> Any:
        """Run one Redis call; :class:`BusDown` if Redis does not answer."""
        if not self.up:
            raise BusDown(f"Redis at {self.url} is unreachable")
        try:
            return await call()
        except UNREACHABLE as error:
            self._went_down(error)
            raise BusDown(f"Redis at {self.url} is unreachable: {error}") from error

    # ------------------------------------------------------------------ listening

    async def _listen(self) -> None:
        """Subscribe to this node's channels and handle what comes; reconnect whenever Redis drops."""
        while not self._closing:
            pubsub: PubSub | None = None
            try:
                await self.redis.ping()
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(
                    self._key("n", self.node_id), self._key("lobby"), self._key("moved"), self._key("logout")
                )
                await self.redis.set(self._key("node", self.node_id), "1", px=self.lease_ms)
                await self._reassert()
                restored = self._was_up
                (log.warning if restored else log.info)("Redis at %s answers: this node is connected", self.url)
                self.up = self._was_up = True
                self._connected.set()
                if restored:
                    self.node.on_bus_restored()
                while not self._closing and self.up:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None:
                        self._handle(str(message["channel"]), message["data"])
            except UNREACHABLE as error:
                self._went_down(error)
                await asyncio.sleep(RETRY_SECONDS)
            except RedisError:
                log.exception("redis bus: listening failed; trying again")
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _handle(self, channel: str, data: str) -> None:
        node = self.node
        try:
            if channel == self._key("lobby"):
                change = json.loads(data)
                node.on_summary(change["id"], change["s"])
            elif channel == self._key("moved"):
                node.on_moved(data)
            elif channel == self._key("logout"):
                account, _, session = data.partition("|")
                node.on_logout(int(account), session)
            else:
                body = json.loads(data)
                if body["k"] == "cmd":
                    node.on_command(body["table"], Envelope.from_json(body["e"]))
                elif body["k"] == "dlv":
                    for client, text in body["m"]:
                        node.on_deliver(client, text)
                elif body["k"] == "close":
                    node.on_close_client(body["client"], int(body["code"]), body["text"])
        except Exception:
            log.exception("redis bus: could not handle a message on %s", channel)

    async def _reassert(self) -> None:
        """After (re)connecting: this node's leases (those still its own: a table another node took
        over meanwhile is given up), then its seats and lobby entries, then the whole lobby."""
        node = self.node
        owned = node.owned()
        tables = list(owned)
        pipe = self.redis.pipeline(transaction=False)
        for table_id in tables:
            await self._renew(keys=[self._key("lease", table_id)], args=[self.node_id, self.lease_ms], client=pipe)
        for table_id, kept in zip(tables, await pipe.execute(), strict=True):
            if not int(kept):
                log.warning("table %s: another node took it over meanwhile; giving it up", table_id)
                self.owned.discard(table_id)
                node.lost(table_id)
                del owned[table_id]
        pipe = self.redis.pipeline(transaction=False)
        for table_id, (summary, seats) in owned.items():
            for account_id, seat in seats.items():
                pipe.hset(self._key("seated"), str(account_id), f"{table_id}|{seat}")
            pipe.hset(self._key("lobby"), table_id, json.dumps(summary, ensure_ascii=False))
        await pipe.execute()
        raw = await self.redis.hgetall(self._key("lobby"))
        node.on_lobby_reset({str(table_id): json.loads(text) for table_id, text in raw.items()})

    # ------------------------------------------------------------------ leases

    async def _keep_leases(self) -> None:
        """Renew this node's heartbeat and leases; disconnect the clients of nodes whose heartbeat lapsed."""
        while True:
            await asyncio.sleep(self.lease_ms / 3000)
            if not self.up:
                continue
            tables = list(self.owned)
            others = sorted(self.node.remote_nodes())
            try:
                pipe = self.redis.pipeline(transaction=False)
                pipe.exists(self._key("node", self.node_id))
                pipe.set(self._key("node", self.node_id), "1", px=self.lease_ms)
                for table_id in tables:
                    await self._renew(
                        keys=[self._key("lease", table_id)], args=[self.node_id, self.lease_ms], client=pipe
                    )
                for other in others:
                    pipe.exists(self._key("node", other))
                alive, _, *results = await pipe.execute()
            except UNREACHABLE as error:
                self._went_down(error)
                continue
            except RedisError:
                log.exception("redis bus: renewing the leases failed")
                continue
            if not alive:
                # Our heartbeat vanished between two renewals: Redis restarted and lost its data.
                self._went_down(RedisConnectionError("Redis restarted and lost its keys"))
                continue
            gone = {other for other, held in zip(others, results[len(tables) :], strict=True) if not held}
            if gone:
                log.warning("nodes %s stopped answering: their clients are disconnected (R46)", ", ".join(gone))
                self.node.nodes_gone(gone)
            for table_id, result in zip(tables, results[: len(tables)], strict=True):
                if int(result) == 0 and table_id in self.owned:
                    log.warning("table %s: its lease went to another node; giving it up", table_id)
                    self.owned.discard(table_id)
                    self.node.lost(table_id)

    async def _scan(self) -> None:
        """Take over open tables that no node runs (their node died, or never came back)."""
        while True:
            await asyncio.sleep(self.scan_seconds)
            if not self.up or self._closing:
                continue
            try:
                ids = [table_id for table_id in await self.node.open_table_ids() if table_id not in self.owned]
                if not ids:
                    continue
                pipe = self.redis.pipeline(transaction=False)
                for table_id in ids:
                    pipe.exists(self._key("lease", table_id))
                orphans = [table_id for table_id, held in zip(ids, await pipe.execute(), strict=True) if not held]
                for table_id in orphans:
                    lease = self._key("lease", table_id)
                    if not await self.redis.set(lease, self.node_id, nx=True, px=self.lease_ms):
                        continue
                    self.owned.add(table_id)
                    if not await self.node.adopt(table_id):
                        self.owned.discard(table_id)
                        await self._release(keys=[lease], args=[self.node_id])
            except UNREACHABLE as error:
                self._went_down(error)
            except Exception:
                log.exception("redis bus: the scan for tables nobody runs failed")

    async def new_table(self, table_id: str) -> None:
        await self._call(lambda: self.redis.set(self._key("lease", table_id), self.node_id, px=self.lease_ms))
        self.owned.add(table_id)

    def table_running(self, table_id: str) -> None:
        self.owned.add(table_id)
        self._later(lambda: self.redis.publish(self._key("moved"), table_id))

    def table_gone(self, table_id: str) -> None:
        if table_id in self.owned:
            self.owned.discard(table_id)
            self._later(lambda: self._release(keys=[self._key("lease", table_id)], args=[self.node_id]))

    # ------------------------------------------------------------------ seats, lobby, connections

    async def claim_seat(self, account_id: int, table_id: str) -> SeatRef | None:
        current = await self._call(lambda: self._claim(keys=[self._key("seated")], args=[str(account_id), table_id]))
        return _seat_ref(current) if current else None

    async def seat_of(self, account_id: int) -> SeatRef | None:
        return _seat_ref(await self._call(lambda: self.redis.hget(self._key("seated"), str(account_id))))

    def seat_changed(self, account_id: int, table_id: str, seat: int | None) -> None:
        if seat is not None:
            self._later(lambda: self.redis.hset(self._key("seated"), str(account_id), f"{table_id}|{seat}"))
        else:
            self._later(lambda: self._unseat(keys=[self._key("seated")], args=[str(account_id), table_id]))

    def publish_summary(self, table_id: str, summary: dict[str, Any] | None) -> None:
        change = json.dumps({"id": table_id, "s": summary}, ensure_ascii=False)

        async def write() -> None:
            pipe = self.redis.pipeline(transaction=False)
            if summary is None:
                pipe.hdel(self._key("lobby"), table_id)
            else:
                pipe.hset(self._key("lobby"), table_id, json.dumps(summary, ensure_ascii=False))
            pipe.publish(self._key("lobby"), change)
            await pipe.execute()

        self._later(write)

    async def connection_opened(self, account_id: int, client: str) -> str | None:
        old = await self._call(lambda: self.redis.set(self._key("conn", str(account_id)), client, get=True))
        return str(old) if old else None

    def connection_closed(self, account_id: int, client: str) -> None:
        """``client`` closed; forget it as the account's connection unless a newer one took over."""
        self._later(lambda: self._forget_conn(keys=[self._key("conn", str(account_id))], args=[client]))

    def escaped(self, account_id: int) -> None:
        key = self._key("escapes", str(account_id))

        async def write() -> None:
            now = time.time()
            count = int(await self.redis.hincrby(key, "count", 1))
            pipe = self.redis.pipeline(transaction=False)
            pipe.hset(key, "until", str(now + self.cooldown.delay(count)))
            pipe.expire(key, round(self.cooldown.forget_after))
            await pipe.execute()

        self._later(write)

    async def escape_wait(self, account_id: int) -> float:
        until = await self._call(lambda: self.redis.hget(self._key("escapes", str(account_id)), "until"))
        return max(0.0, float(until) - time.time()) if until else 0.0

    def logout(self, account_id: int, session: str) -> None:
        self.node.on_logout(account_id, session)
        self._later(lambda: self.redis.publish(self._key("logout"), f"{account_id}|{session}"))

    # ------------------------------------------------------------------ between nodes

    async def send_command(self, table_id: str, envelope: Envelope) -> bool:
        body = json.dumps({"k": "cmd", "table": table_id, "e": envelope.to_json()}, ensure_ascii=False)
        lease = self._key("lease", table_id)
        routed = await self._call(lambda: self._route(keys=[lease], args=[self._key("n", ""), body]))
        return int(routed) > 0

    def deliver(self, client: str, text: str) -> None:
        node = node_of(client)
        if node == self.node_id:
            self.node.on_deliver(client, text)
            return
        self._outgoing.setdefault(node, []).append([client, text])
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_later(FLUSH_SECONDS, self._send_outgoing)

    def close_client(self, client: str, code: int, text: str) -> None:
        node = node_of(client)
        if node == self.node_id:
            self.node.on_close_client(client, code, text)
            return
        body = json.dumps({"k": "close", "client": client, "code": code, "text": text}, ensure_ascii=False)
        self._later(lambda: self.redis.publish(self._key("n", node), body))

    def _send_outgoing(self) -> None:
        self._flush = None
        outgoing, self._outgoing = self._outgoing, {}
        for node, items in outgoing.items():
            self._later(
                functools.partial(self.redis.publish, self._key("n", node), json.dumps({"k": "dlv", "m": items}))
            )

    # ------------------------------------------------------------------ writes in order

    def _later(self, write: Callable[[], Awaitable[Any]]) -> None:
        """Queue a Redis write that nobody waits for (kept in order; dropped while Redis is down)."""
        if self.up:
            self._writes.put_nowait(write)

    async def _write_loop(self) -> None:
        while True:
            write = await self._writes.get()
            if not self.up:
                continue
            try:
                await write()
            except UNREACHABLE as error:
                self._went_down(error)
            except Exception:
                log.exception("redis bus: a write failed")
