"""The tables this node runs: a :class:`~tuolaji.server.tablehost.TableHost` each, made new, restored
from their logs at start-up, taken over from a node that died (``adopt``), given up when another node
takes them (``lost``), and stopped all together at shutdown.

This is the one part of the lobby that makes :class:`~tuolaji.room.table.Table` objects. It answers
the bus about them (:class:`~tuolaji.server.bus.HostedTables`) and tells the bus itself when a
table starts or ends here.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Coroutine, Iterator, Sequence
from typing import Any

from tuolaji.game.options import TableOptions
from tuolaji.room.commands import Attach, Command, Detach, Sync, Watch
from tuolaji.room.table import Table, TableConfig
from tuolaji.server.autoplay import make_autoplayer
from tuolaji.server.bus import OwnedTable, incarnation_of
from tuolaji.server.services import Services
from tuolaji.server.tablehost import TableHost
from tuolaji.server.thinking import SLOW_BOTS
from tuolaji.store.tablelog import OpenTable
from tuolaji.wire.inbound import ProtocolError, parse_client_message, table_command
from tuolaji.wire.nodes import Delivery, Envelope, SeatRef, TurnedAway
from tuolaji.wire.outbound import dumps, protocol_error_message

log = logging.getLogger(__name__)


def match_seeds(seed: int | None) -> Iterator[int]:
    """The seeds of the matches a server starts, in order: reproducible from ``seed``, else unpredictable."""
    source = random.Random(seed) if seed is not None else random.SystemRandom()
    while True:
        yield source.getrandbits(63)


class Hosting:
    """The hosts of the tables run on this node."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.bus = services.bus
        config = services.config
        self.table_config = TableConfig(
            bot_delay_ms=round(config.bot_delay * 1000),
            next_hand_delay_ms=round(config.next_hand_delay * 1000),
            reconnect_grace_ms=round(config.reconnect_grace * 1000),
            slow_bots=SLOW_BOTS,
        )
        self.hosts: dict[str, TableHost] = {}
        """The tables this node runs."""
        self.stopping = False
        """The node is shutting down: no table is taken on, no client command accepted."""
        self._seeds = match_seeds(config.seed)
        self._background: set[asyncio.Task[Any]] = set()

    def match_seed(self) -> int:
        """The seed of the next match started on this node."""
        return next(self._seeds)

    def running(self, table_id: str) -> TableHost | None:
        """The host of ``table_id`` if it runs here and takes commands."""
        host = self.hosts.get(table_id)
        return host if host is not None and not host.stopped else None

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _host(self, table: Table, next_seq: int, fence: int | None) -> TableHost:
        host = TableHost(table, self.services, self, next_seq, fence)
        self.hosts[table.id] = host
        return host

    async def new_host(self, table_id: str, options: TableOptions) -> TableHost:
        """Open a new table here (its lease and its log first). Raises ``BusDown``."""
        await self.bus.new_table(table_id)
        fence = 1 if self.bus.fenced else None
        await self.services.table_log.create(table_id, options.to_json(), fence or 0)
        table = Table(table_id, options, self.table_config, make_autoplayer, self.match_seed)
        return self._host(table, 1, fence)

    # ------------------------------------------------------------------ restoring, adopting, losing

    async def _run_restored(self, opened: OpenTable, fence: int | None) -> TableHost | None:
        """Replay ``opened`` and run it here; None if its log cannot be replayed."""
        try:
            options = TableOptions.from_json(opened.options)
            table = Table.restore(
                opened.id, options, self.table_config, make_autoplayer, self.match_seed, opened.entries
            )
        except Exception:
            log.exception("table %s: its log could not be replayed; it stays closed", opened.id)
            return None
        host = self._host(table, opened.next_seq, fence)
        for seat, player in table.players().items():
            self.bus.seat_changed(player.id, table.id, seat)
        self.bus.table_running(table.id)
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

    async def restore(self) -> int:
        """One node: restore every table whose log is open and go on with it; how many. (Many nodes
        take tables over through the bus instead, :meth:`adopt`.)"""
        if self.bus.fenced:
            return 0
        hosts: list[TableHost] = []
        for opened in await self.services.table_log.open_tables():
            host = await self._run_restored(opened, None)
            if host is not None:
                hosts.append(host)
        await self._refresh_titles(hosts)
        if self.hosts:
            log.info("restored %d open table(s) from their logs", len(self.hosts))
        return len(self.hosts)

    async def adopt(self, table_ids: Sequence[str]) -> set[str]:
        """Take these tables over from their logs (their leases are this node's now): their fencing
        tokens raised and their logs read in four queries, their seated accounts in one, however
        many; the ids taken (a closed table's is not, nor one whose log another writer holds now),
        none while the node stops or the database does not answer."""
        if self.stopping or not table_ids:
            return set()
        try:
            taken = await self.services.table_log.take_many(table_ids)
        except Exception as error:
            log.warning("could not take tables over (%d): the database did not answer: %r", len(table_ids), error)
            return set()
        hosts: list[TableHost] = []
        for opened in taken:
            try:
                host = await self._run_restored(opened, opened.fence)
            except Exception:
                log.exception("table %s: could not be taken over", opened.id)
                continue
            if host is not None:
                hosts.append(host)
                log.info("table %s: taken over from its log (fencing token %d)", opened.id, opened.fence)
        try:
            await self._refresh_titles(hosts)
        except Exception as error:  # the titles shown are a nicety; the tables run on
            log.warning("taken-over tables: the players' titles could not be read: %r", error)
        return {host.table.id for host in hosts}

    def lost(self, table_id: str) -> None:
        """Another node runs ``table_id`` now: stop serving it here; this node's clients at it attach
        there once the step under way is done."""
        host = self.hosts.pop(table_id, None)
        if host is not None:
            host.stopped = True
            self._spawn(self._hand_over(host))

    async def _hand_over(self, host: TableHost) -> None:
        await host.stop()
        self.bus.follow(host.id)

    def table_closed(self, table_id: str) -> None:
        """A table here closed: it leaves the lobby list and its lease is given up."""
        self.hosts.pop(table_id, None)
        self.bus.publish_summary(table_id, None)
        self.bus.table_gone(table_id)

    def table_lost(self, table_id: str) -> None:
        """A table's log write was fenced off: another node runs it now; this node's clients at it
        attach there."""
        self.hosts.pop(table_id, None)
        self.bus.table_gone(table_id)
        self.bus.follow(table_id)

    async def open_table_ids(self) -> list[str]:
        """Every open table in the database."""
        return await self.services.table_log.open_ids()

    def owned(self) -> dict[str, OwnedTable]:
        """The tables run here, with their summaries and seated accounts."""
        return {
            table_id: OwnedTable(
                host.table.summary(), {player.id: seat for seat, player in host.table.players().items()}
            )
            for table_id, host in self.hosts.items()
        }

    # ------------------------------------------------------------------ clients at these tables

    def _attached(self) -> list[tuple[TableHost, str]]:
        return [
            (host, client)
            for host in self.hosts.values()
            for client in [seat.client for seat in host.table.seats if seat.client] + sorted(host.table.watchers)
        ]

    def seat_of(self, account_id: int) -> SeatRef | None:
        """Where ``account_id`` sits at a table run here, if it does."""
        for host in self.hosts.values():
            seat = host.table.seat_of(account_id)
            if seat is not None:
                return SeatRef(host.id, seat)
        return None

    def remote_incarnations(self) -> set[str]:
        """The other node processes whose clients sit at or watch the tables run here."""
        return {incarnation_of(client) for _, client in self._attached()} - {self.bus.incarnation}

    def resync_remote(self) -> None:
        """This node's link to the others was down: what it sent other nodes' clients at its tables
        meanwhile was lost, so each of them gets the full picture again."""
        for host, client in self._attached():
            if incarnation_of(client) != self.bus.incarnation:
                host.post(Sync(client))

    def nodes_gone(self, incarnations: set[str]) -> None:
        """Those node processes died: their clients at the tables here are disconnected (R46)."""
        for host, client in self._attached():
            if incarnation_of(client) in incarnations:
                host.post(Detach(client))

    def on_command(self, table_id: str, envelope: Envelope) -> bool:
        """Post ``envelope``'s command to ``table_id`` if it runs here; False if it does not."""
        host = self.running(table_id)
        if host is None:
            return False
        command = self._command(table_id, envelope)
        if command is not None:
            host.post(command)
        return True

    def _command(self, table_id: str, envelope: Envelope) -> Command | None:
        client, player = envelope.client, envelope.player
        if envelope.kind == "detach":
            return Detach(client)
        if envelope.kind == "attach":
            return Attach(client, player.id) if player is not None else None
        if envelope.kind == "watch":
            return Watch(client, invite=envelope.invite)
        try:
            msg = parse_client_message(envelope.text or "")
        except ProtocolError as error:
            self.bus.deliver(Delivery(client, dumps(protocol_error_message(error)), TurnedAway(table_id)))
            return None
        return table_command(client, player, msg)

    # ------------------------------------------------------------------ shutdown

    async def stop_all(self) -> None:
        """Take no more commands and stop every host, all together: each finishes the step under way,
        and the log writer commits their last steps in one go."""
        self.stopping = True
        await asyncio.gather(*(host.stop() for host in list(self.hosts.values())))
        self.hosts.clear()
