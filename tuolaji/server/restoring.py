"""Tables run again from their durable logs: every open one when a lone node starts
(:meth:`Restoring.restore`), or those whose node died, taken over by this one (:meth:`Restoring.adopt`)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from tuolaji.game.options import TableOptions
from tuolaji.room.table import Table, TableConfig
from tuolaji.server.autoplay import make_autoplayer
from tuolaji.server.services import Services
from tuolaji.server.tablehost import TableHost
from tuolaji.store.tablelog import OpenTable

log = logging.getLogger(__name__)


class Restoring:
    """Replays tables' logs and runs them here through ``run`` (``Hosting``'s way to host a table)."""

    def __init__(
        self,
        services: Services,
        table_config: TableConfig,
        run: Callable[[Table, int, int | None], TableHost],
        match_seed: Callable[[], int],
    ) -> None:
        self.services = services
        self.table_config = table_config
        self._run = run
        self._match_seed = match_seed

    async def restore(self) -> int:
        """One node: restore every table whose log is open and go on with it; how many. (Many nodes
        take tables over through the bus instead, :meth:`adopt`.)"""
        if self.services.bus.fenced:
            return 0
        hosts: list[TableHost] = []
        for opened in await self.services.table_log.open_tables():
            host = await self._run_restored(opened, None)
            if host is not None:
                hosts.append(host)
        await self._refresh_titles(hosts)
        if hosts:
            log.info("restored the open tables from their logs", extra={"tables": len(hosts)})
        return len(hosts)

    async def adopt(self, table_ids: Sequence[str]) -> set[str]:
        """Take these tables over from their logs (their leases are this node's now): their fencing
        tokens raised and their logs read in four queries, their seated accounts in one, however
        many; the ids taken (a closed table's is not, nor one whose log another writer holds now),
        none when the database does not answer."""
        if not table_ids:
            return set()
        try:
            taken = await self.services.table_log.take_many(table_ids)
        except Exception as error:
            fields = {"tables": len(table_ids), "error": repr(error)}
            log.warning("could not take tables over: the database did not answer", extra=fields)
            return set()
        hosts: list[TableHost] = []
        for opened in taken:
            try:
                host = await self._run_restored(opened, opened.fence)
            except Exception:
                self.services.metrics.error("table")
                log.exception("could not be taken over", extra={"table": opened.id})
                continue
            if host is not None:
                hosts.append(host)
                self.services.metrics.takeovers.inc()
                fields = {"table": opened.id, "hand": host.table.number, "fence": opened.fence}
                log.warning("taken over from its log", extra=fields)
        try:
            await self._refresh_titles(hosts)
        except Exception as error:  # the titles shown are a nicety; the tables run on
            log.warning("taken-over tables: the players' titles could not be read", extra={"error": repr(error)})
        return {host.table.id for host in hosts}

    async def _run_restored(self, opened: OpenTable, fence: int | None) -> TableHost | None:
        """Replay ``opened`` and run it here; None if its log cannot be replayed."""
        try:
            options = TableOptions.from_json(opened.options)
            table = Table.restore(
                opened.id, options, self.table_config, make_autoplayer, self._match_seed, opened.entries, opened.number
            )
        except Exception:
            self.services.metrics.error("log_replay")
            log.exception("the table's log could not be replayed; it stays closed", extra={"table": opened.id})
            return None
        host = self._run(table, opened.next_seq, fence)
        bus = self.services.bus
        for seat, player in table.players().items():
            bus.seat_changed(player.id, table.id, seat)
        bus.table_running(table.id)
        await host.resume()
        return host

    async def _refresh_titles(self, hosts: list[TableHost]) -> None:
        """Show the seated players' current titles at these restored tables (their accounts read at once)."""
        accounts = await self.services.accounts.get_many(
            {player.id for host in hosts for player in host.table.players().values()}
        )
        for host in hosts:
            players = host.table.players().items()
            host.refresh({seat: accounts[player.id] for seat, player in players if player.id in accounts})
