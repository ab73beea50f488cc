"""Shutting a node down stops its tables all together, not one after another: each host finishes its
step while the others finish theirs (``Hosting.stop_all``, used by ``Lobby.close`` and
``Lobby.prepare_shutdown``)."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from tuolaji.server.bus import LocalBus
from tuolaji.server.config import ServerConfig
from tuolaji.server.hosting import Hosting
from tuolaji.server.lobby import Lobby
from tuolaji.server.metrics import NO_METRICS
from tuolaji.server.services import Services
from tuolaji.server.tablehost import TableHost

TABLES = 5


class SlowHost:
    """A host whose last step ends only once every host of the node is stopping."""

    def __init__(self, started: list[str], all_stopping: asyncio.Event, table_id: str) -> None:
        self.id = table_id
        self.started = started
        self.all_stopping = all_stopping

    async def stop(self) -> None:
        self.started.append(self.id)
        if len(self.started) == TABLES:
            self.all_stopping.set()
        await self.all_stopping.wait()


def services() -> Services:
    """A node's services with only what stopping it touches (its config and an in-memory bus)."""
    unused = cast(Any, None)
    return Services(ServerConfig(node_id="n"), unused, unused, LocalBus("n"), unused, unused, NO_METRICS)


async def hosts_stopping_together(stop: Any, hosting: Hosting) -> list[str]:
    started: list[str] = []
    all_stopping = asyncio.Event()
    for number in range(TABLES):
        host = SlowHost(started, all_stopping, f"t{number}")
        hosting.hosts[host.id] = cast(TableHost, host)
    async with asyncio.timeout(10):  # one after another, the first stop would wait for ever
        await stop()
    return started


async def test_hosting_stops_every_table_at_once() -> None:
    hosting = Hosting(services())
    started = await hosts_stopping_together(hosting.stop_all, hosting)
    assert sorted(started) == [f"t{number}" for number in range(TABLES)]
    assert hosting.stopping and hosting.hosts == {}


async def test_lobby_close_and_graceful_restart_stop_tables_at_once() -> None:
    for graceful in (False, True):
        lobby = Lobby(services())
        stop = lobby.prepare_shutdown if graceful else lobby.close
        started = await hosts_stopping_together(stop, lobby.hosting)
        assert len(started) == TABLES and lobby.stopping
