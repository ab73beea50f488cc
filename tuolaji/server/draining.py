"""Draining a node for a deploy without a pause (docs/OPERATIONS.md, "Deploy with a drain").

A draining node takes no new tables (a client's new table is opened on another node: ``Hosting.open``)
and takes no table over; its own tables go to other nodes the way a dead node's do — its lease is
given up and another node adopts the table from its log (``redis_leases``) — but only between hands:
a table in a hand is handed over after the step that settles it, so the hand finishes here and the
next one runs there. Given ``now``, every table goes at once, mid-hand too, as after a lease loss.
Tables move only while another live node that does not drain is there to take them; with none, they
stay and go as soon as one is (``tick``). Clients follow by themselves: every node attaches its
clients at a moved table to its new owner (``Router.on_moved``), and a seat taken over keeps its player.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from tuolaji.server.bus import Bus
from tuolaji.server.tablehost import TableHost

log = logging.getLogger(__name__)


class Draining:
    """Whether this node drains, and the hand-over of ``hosts`` (the node's tables) through ``bus``."""

    def __init__(self, hosts: dict[str, TableHost], bus: Bus) -> None:
        self.hosts = hosts
        self.bus = bus
        self.on = False
        self._background: set[asyncio.Task[Any]] = set()

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def adopter(self) -> str | None:
        """Where a new table of this node opens while it drains (None: here)."""
        return self.bus.cluster.adopter() if self.on else None

    def start(self, now: bool) -> None:
        """Drain: tables between hands go at once, the others after their hand (all at once with ``now``)."""
        self.on = True
        self.bus.cluster.set_draining(True)
        log.warning("this node drains: its tables go to other nodes", extra={"action": "drain", "at_once": now})
        self._spawn(self._hand_over(now))

    def stop(self) -> None:
        """Stop draining: the node takes tables again."""
        self.on = False
        self.bus.cluster.set_draining(False)
        log.warning("this node no longer drains", extra={"action": "undrain"})

    def gives_up(self, host: TableHost) -> bool:
        """After each of ``host``'s steps: whether its table leaves now (between hands, with somewhere to go)."""
        if not self.on or host.table.in_hand() or self.bus.cluster.adopter() is None:
            return False
        self._release(host)
        return True

    def tick(self) -> None:
        """Hand over the tables that may go now (another node may have come since the drain began)."""
        if self.on:
            self._spawn(self._hand_over(False))

    async def _hand_over(self, now: bool) -> None:
        if self.bus.cluster.adopter() is None:
            return
        for host in list(self.hosts.values()):
            if self.hosts.get(host.id) is host and (now or not host.table.in_hand()):
                await host.stop()  # the step under way finishes: the log holds all of it
                self._release(host)

    def _release(self, host: TableHost) -> None:
        """The table leaves this node: its host stops and its lease goes, for another node to adopt."""
        host.stopped = True
        if self.hosts.get(host.id) is not host:
            return
        del self.hosts[host.id]
        self.bus.table_gone(host.id)
        log.info("handed over by the drain", extra={"table": host.id, "hand": host.table.number, "action": "drain"})
