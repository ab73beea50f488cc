"""The lobby of one node, in parts with one job each (after lila-ws's ``Router``, ``Users`` and client
actors):

- :class:`~tuolaji.server.clients.Clients` — the connected clients, ``hello``, sessions, logouts;
- :class:`~tuolaji.server.placement.Placement` — where each client sits or watches, from typed
  deliveries, never from the text sent;
- :class:`~tuolaji.server.hosting.Hosting` — the tables run here (new, restored, adopted, lost);
- :class:`~tuolaji.server.feed.LobbyFeed` — the lobby list and its subscribers;
- :class:`~tuolaji.server.router.Router` — where a client's message goes (with
  :class:`~tuolaji.server.admission.Admission` for creating, joining and watching, and
  :class:`~tuolaji.server.courier.Courier` to reach a table here or on another node);
- :class:`~tuolaji.server.moderation.Moderation` — what the moderators' console's orders do here.
- :class:`~tuolaji.server.quickmatch.QuickMatch` — 快速開始: this node's clients in the queue, and
  its :class:`~tuolaji.server.matcher.Matcher`, which matches and seats them.

Connections are this node's; tables may run here or on another node (``tuolaji.server.bus``). The bus
calls the parts back directly (:class:`~tuolaji.server.bus.Node`).
"""

from __future__ import annotations

import asyncio
import contextlib

from tuolaji.server.bus import Node
from tuolaji.server.clients import Clients
from tuolaji.server.connection import CLOSE_RESTART
from tuolaji.server.courier import Courier
from tuolaji.server.feed import LobbyFeed
from tuolaji.server.hosting import Hosting
from tuolaji.server.moderation import Moderation
from tuolaji.server.placement import Placement
from tuolaji.server.quickmatch import QuickMatch
from tuolaji.server.router import Router
from tuolaji.server.services import Services
from tuolaji.wire.outbound import dumps, message


class Lobby:
    """One node's lobby: its parts, started with the bus and stopped with the server."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.placement = Placement()
        self.feed = LobbyFeed()
        self.hosting = Hosting(services)
        self.quick = QuickMatch(self.hosting, self.placement, self.feed)
        self.clients = Clients(services, self.placement, self.quick, self.hosting.seat_of)
        courier = Courier(self.hosting)
        self.router = Router(self.clients, self.placement, self.feed, self.hosting, courier, self.quick)
        self.moderation = Moderation(self.clients, self.hosting)
        self.node = Node(
            tables=self.hosting, clients=self.clients, feed=self.feed, moves=self.router, orders=self.moderation
        )
        """What the bus calls back."""
        self._matching: asyncio.Task[None] | None = None

    @property
    def stopping(self) -> bool:
        """Whether the node is shutting down (new connections and commands are refused)."""
        return self.hosting.stopping

    async def start(self) -> None:
        """Connect the bus and (one node) restore every open table from its log."""
        await self.services.bus.start(self.node)
        await self.hosting.restoring.restore()
        self._matching = asyncio.create_task(self.quick.matcher.run(), name="quick match")

    async def _stop_matching(self) -> None:
        if self._matching is not None:
            self._matching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._matching
            self._matching = None

    async def close(self) -> None:
        """Stop matching and every table's host, all together (server shutdown): their logs already
        hold them; the queue keeps its entries (in Redis, for the other nodes; in memory, gone)."""
        await self._stop_matching()
        await self.hosting.stop_all()
        self.feed.close()

    async def prepare_shutdown(self) -> None:
        """A graceful restart: take no more commands, let every table finish its step (its log is then
        complete), tell every client ``server_restarting`` and close its socket (1012)."""
        await self._stop_matching()
        await self.hosting.stop_all()
        text = dumps(message("server_restarting"))
        connections = list(self.clients.by_id.values())
        for conn in connections:
            conn.send_text(text)
            conn.close(CLOSE_RESTART)
        await asyncio.gather(*(conn.drain() for conn in connections))
