"""A table's host tells the lobby where its clients are through typed deliveries: a join or watch that
the table accepts comes with the client's place (``AtTable``), one it refuses turns the client away
(``TurnedAway``) and leaving takes it away (``LeftTable``). In-process: a real table and host, a bus
that only records, and a log that accepts every write."""

from __future__ import annotations

import asyncio
import json
from typing import Any, cast

from tuolaji.game.options import TableOptions
from tuolaji.room.commands import Join, Leave, Player, Watch
from tuolaji.room.table import Table, TableConfig
from tuolaji.server.autoplay import make_autoplayer
from tuolaji.server.bus import LocalBus
from tuolaji.server.config import ServerConfig
from tuolaji.server.metrics import NO_METRICS
from tuolaji.server.services import Services
from tuolaji.server.tablehost import TableHost
from tuolaji.store.records import Settled
from tuolaji.store.tablelog import LogWrite
from tuolaji.wire.nodes import AtTable, Delivery, LeftTable, PlaceChange, TurnedAway


class RecordingBus(LocalBus):
    """A one-node bus that keeps what the host sends instead of handing it to a lobby."""

    def __init__(self) -> None:
        super().__init__("n")
        self.deliveries: asyncio.Queue[Delivery] = asyncio.Queue()
        self.summaries: list[str] = []

    def deliver(self, delivery: Delivery) -> None:
        self.deliveries.put_nowait(delivery)

    def publish_summary(self, table_id: str, summary: dict[str, Any] | None) -> None:
        self.summaries.append(table_id)


class AcceptingLog:
    """A table log that takes every write."""

    async def append(self, write: LogWrite) -> Settled | None:
        return None


class Owner:
    def table_closed(self, table_id: str) -> None:
        """Nothing to forget here."""

    def table_lost(self, table_id: str) -> None:
        """Nothing to forget here."""

    def hand_off(self, host: TableHost) -> bool:
        """This node does not drain."""
        return False


async def answers(bus: RecordingBus, client: str) -> list[tuple[str, PlaceChange | None]]:
    """What ``client`` got up to its answer (``ack`` or ``error``): each message's type and place change."""
    got: list[tuple[str, PlaceChange | None]] = []
    async with asyncio.timeout(10):
        while not got or got[-1][0] not in ("ack", "error"):
            delivery = await bus.deliveries.get()
            if delivery.client == client:
                got.append((json.loads(delivery.text)["type"], delivery.change))
    return got


async def test_deliveries_carry_where_the_table_put_each_client() -> None:
    bus = RecordingBus()
    unused = cast(Any, None)
    services = Services(ServerConfig(node_id="n"), unused, unused, bus, cast(Any, AcceptingLog()), unused, NO_METRICS)
    table = Table("t1", TableOptions(), TableConfig(), make_autoplayer, lambda: 7)
    host = TableHost(table, services, Owner(), 1)
    try:
        host.post(Join("n.1", Player(1, "甲"), 0, "r1"))
        assert ("table", AtTable("t1", 0)) in await answers(bus, "n.1")
        host.post(Join("n.2", Player(2, "乙"), 0, "r2"))  # seat 0 is taken
        assert await answers(bus, "n.2") == [("error", TurnedAway("t1"))]
        host.post(Watch("n.2", "r3"))
        assert ("table", AtTable("t1", None)) in await answers(bus, "n.2")
        host.post(Join("n.2", Player(2, "乙"), 1, "r4"))  # the spectator sits down
        assert ("table", AtTable("t1", 1)) in await answers(bus, "n.2")
        host.post(Leave("n.2", "r5"))
        assert ("left", LeftTable("t1")) in await answers(bus, "n.2")
        assert bus.summaries and set(bus.summaries) == {"t1"}
    finally:
        await host.stop()
