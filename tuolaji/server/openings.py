"""New tables: opened on this node, or — while it drains — on another node, which runs them for the
client of this one (``TableOpening`` on the bus); a failure there is told to the client."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, Protocol

from tuolaji.game.options import TableOptions
from tuolaji.room.commands import Join, MakePrivate, PlayNow
from tuolaji.server.bus import Bus, BusDown
from tuolaji.server.draining import Draining
from tuolaji.server.tablehost import TableHost
from tuolaji.wire.nodes import Delivery, TableOpening, TurnedAway
from tuolaji.wire.outbound import dumps, error_message


class TableMaker(Protocol):
    """Who makes table hosts on this node (the lobby's hosting part)."""

    bus: Bus

    async def new_host(self, table_id: str, options: TableOptions) -> TableHost:
        """Open a new table here. Raises ``BusDown``."""


class Openings:
    """Opens clients' new tables through ``maker``, elsewhere while ``drain`` says this node drains."""

    def __init__(self, maker: TableMaker, drain: Draining) -> None:
        self.maker = maker
        self.drain = drain
        self._background: set[asyncio.Task[Any]] = set()

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def open(self, opening: TableOpening) -> None:
        """A new table for a client of this node, its player seated (and three bots for ``play_now``):
        here, or on another node while this one drains (it takes no new tables). Raises ``BusDown``."""
        node = self.drain.adopter()
        if node is not None:
            self.maker.bus.cluster.open_elsewhere(node, opening)
        else:
            await self._here(opening)

    async def _here(self, opening: TableOpening) -> None:
        host = await self.maker.new_host(opening.table_id, TableOptions.from_json(opening.options))
        if opening.invite is not None:
            host.post(MakePrivate(opening.invite, opening.player.id))
        if opening.bot is not None:
            host.post(PlayNow(opening.client, opening.player, opening.bot, opening.ref))
        else:
            host.post(Join(opening.client, opening.player, opening.seat, opening.ref))

    def open_for(self, opening: TableOpening) -> None:
        """Another node (draining) asks this one to open a table for its client: here, even should this
        one drain meanwhile (a table is never passed on twice); if that cannot be done the client's
        request fails with ``service_unavailable``."""
        self._spawn(self._open_for(opening))

    async def _open_for(self, opening: TableOpening) -> None:
        bus = self.maker.bus
        try:
            await self._here(opening)
        except BusDown:
            bus.seat_changed(opening.player.id, opening.table_id, None)
            text = "new tables are refused while the card room's coordinator (Redis) is unreachable"
            body = error_message("service_unavailable", text, opening.ref, params={"type": "create_table"})
            bus.deliver(Delivery(opening.client, dumps(body), TurnedAway(opening.table_id)))
