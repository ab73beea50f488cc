"""The lobby of one node, in parts with one job each (after lila-ws's ``Router``, ``Users`` and client
actors):

- :class:`~tuolaji.server.clients.Clients` — the connected clients, ``hello``, sessions, logouts;
- :class:`~tuolaji.server.placement.Placement` — where each client sits or watches, from typed
  deliveries, never from the text sent;
- :class:`~tuolaji.server.hosting.Hosting` — the tables run here (new, restored, adopted, lost);
- :class:`~tuolaji.server.feed.LobbyFeed` — the lobby list and its subscribers;
- :class:`~tuolaji.server.router.Router` — where a client's message goes (with
  :class:`~tuolaji.server.admission.Admission` for creating, joining and watching, and
  :class:`~tuolaji.server.courier.Courier` to reach a table here or on another node).

Connections are this node's; tables may run here or on another node (``tuolaji.server.bus``). The bus
calls the parts back directly (:class:`~tuolaji.server.bus.Node`).
"""

from __future__ import annotations

import asyncio

from tuolaji.server.bus import Node
from tuolaji.server.clients import Clients
from tuolaji.server.connection import CLOSE_RESTART
from tuolaji.server.courier import Courier
from tuolaji.server.feed import LobbyFeed
from tuolaji.server.hosting import Hosting
from tuolaji.server.placement import Placement
from tuolaji.server.router import Router
from tuolaji.server.services import Services
from tuolaji.wire.outbound import dumps, message


class Lobby:
    """One node's lobby: its parts, started with the bus and stopped with the server."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.placement = Placement()
        self.hosting = Hosting(services)
        self.clients = Clients(services, self.placement, self.hosting.seat_of)
        self.feed = LobbyFeed()
        self.router = Router(self.clients, self.placement, self.feed, self.hosting, Courier(self.hosting))
        self.node = Node(tables=self.hosting, clients=self.clients, feed=self.feed, moves=self.router)
        """What the bus calls back."""

    @property
    def stopping(self) -> bool:
        """Whether the node is shutting down (new connections and commands are refused)."""
        return self.hosting.stopping

    async def start(self) -> None:
        """Connect the bus and (one node) restore every open table from its log."""
        await self.services.bus.start(self.node)
        await self.hosting.restore()

    async def close(self) -> None:
        """Stop every table's host, all together (server shutdown): their logs already hold them."""
        await self.hosting.stop_all()
        self.feed.close()

    async def prepare_shutdown(self) -> None:
        """A graceful restart: take no more commands, let every table finish its step (its log is then
        complete), tell every client ``server_restarting`` and close its socket (1012)."""
        await self.hosting.stop_all()
        text = dumps(message("server_restarting"))
        connections = list(self.clients.by_id.values())
        for conn in connections:
            conn.send_text(text)
            conn.close(CLOSE_RESTART)
        await asyncio.gather(*(conn.drain() for conn in connections))
