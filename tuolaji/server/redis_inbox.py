"""What a node hears on Redis: its own channel (commands for its tables, messages for its clients,
tables to open), the lobby list's changes, tables that moved, log-outs, the console's orders; handed
to the node's parts as typed messages (``tuolaji.wire.nodes``, ``tuolaji.wire.orders``). It
subscribes again whenever Redis comes back, after the node re-asserted its keys (``redis_leases``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from tuolaji.server.bus import Node
from tuolaji.server.redis_leases import Leases
from tuolaji.server.redis_link import UNREACHABLE, RedisLink, key
from tuolaji.wire.nodes import (
    CloseClient,
    ForClients,
    ForTable,
    Logout,
    NodeMessage,
    SummaryChange,
    TableOpening,
    decode_node_message,
)
from tuolaji.wire.orders import decode_order

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
"""How often a node tries Redis again while it is down."""


class RedisInbox:
    """Listens on ``link`` for ``node`` (one task for the node's life: :meth:`listen`)."""

    def __init__(self, link: RedisLink, leases: Leases, node: Node) -> None:
        self._link = link
        self._leases = leases
        self._node = node
        self._was_up = False

    async def listen(self) -> None:
        """Subscribe to this node's channels and handle what comes; reconnect whenever Redis drops."""
        redis = self._link.redis
        while not self._leases.closing:
            pubsub: PubSub | None = None
            try:
                await redis.ping()
                pubsub = redis.pubsub(ignore_subscribe_messages=True)
                channels = (key("n", self._leases.node_id), key("lobby"), key("moved"), key("logout"), key("mod"))
                await pubsub.subscribe(*channels)
                async with redis.pipeline(transaction=False) as beat:
                    self._leases.beat(beat)
                    await beat.execute()
                await self._leases.reassert(self._node)
                restored = self._was_up
                fields = {"redis": self._link.shown_url, "down_seconds": self._link.came_back()}
                if restored:
                    log.warning("Redis answers again: this node is connected", extra=fields)
                else:
                    log.info("Redis answers: this node is connected", extra=fields)
                self._link.up = self._was_up = True
                self._link.connected.set()
                if restored:
                    self._node.moves.on_bus_restored()
                while not self._leases.closing and self._link.up:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None:
                        self._handle(str(message["channel"]), message["data"])
            except UNREACHABLE as error:
                self._link.went_down(error)
                await asyncio.sleep(RETRY_SECONDS)
            except RedisError:
                self._link.metrics.redis_error(unreachable=False)
                self._link.metrics.error("redis")
                log.exception("redis bus: listening failed; trying again", extra={"redis": self._link.shown_url})
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _handle(self, channel: str, data: str) -> None:
        node = self._node
        try:
            if channel == key("lobby"):
                change = SummaryChange.decode(data)
                node.feed.on_summary(change.table_id, change.summary)
            elif channel == key("moved"):
                node.moves.on_moved(data)
            elif channel == key("logout"):
                logout = Logout.decode(data)
                node.clients.on_logout(logout.account_id, logout.session)
            elif channel == key("mod"):
                node.orders.on_order(decode_order(data))
            else:
                self._received(decode_node_message(data))
        except Exception:
            self._link.metrics.error("redis")
            log.exception("redis bus: could not handle a message", extra={"channel": channel})

    def _received(self, item: NodeMessage) -> None:
        node = self._node
        match item:
            case ForTable(table_id, envelope):
                node.tables.on_command(table_id, envelope)
            case ForClients(deliveries, sender):
                with node.clients.batch():
                    for delivery in deliveries:
                        node.clients.on_deliver(delivery, sender)
            case CloseClient(client, code, text):
                node.clients.on_close_client(client, code, text)
            case TableOpening():
                node.tables.open_for(item)
