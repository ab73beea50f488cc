"""The tables this node runs: a :class:`~tuolaji.server.tablehost.TableHost` each, made new (here, or
on another node while this one drains), restored from their logs at start-up, taken over from a node
that died (``adopt``), given up when another node takes them (``lost``) or handed over by a drain
(:class:`~tuolaji.server.draining.Draining`), closed by a moderator, and stopped all together at shutdown.

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
from tuolaji.room.commands import Attach, CloseTable, Command, Detach, Sync, Watch
from tuolaji.room.table import Table, TableConfig
from tuolaji.server.autoplay import make_autoplayer
from tuolaji.server.bus import Bus, OwnedTable, incarnation_of
from tuolaji.server.draining import Draining
from tuolaji.server.openings import Openings
from tuolaji.server.restoring import Restoring
from tuolaji.server.services import Services
from tuolaji.server.tablehost import TableHost
from tuolaji.server.thinking import SLOW_BOTS
from tuolaji.wire.inbound import ProtocolError, parse_client_message, table_command
from tuolaji.wire.nodes import Delivery, Envelope, SeatRef, TableOpening, TurnedAway
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
        self.drain = Draining(self.hosts, self.bus)
        """Whether this node drains, and its tables' way to other nodes."""
        self.openings = Openings(self, self.drain)
        """New tables, here or (while this node drains) on another node."""
        self.restoring = Restoring(services, self.table_config, self._host, self.match_seed)
        """Tables run again from their logs: at start-up, or taken over from another node."""
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
        """Run ``table`` here (a new one, or one restored from its log)."""
        host = TableHost(table, self.services, self, next_seq, fence)
        self.hosts[table.id] = host
        return host

    async def new_host(self, table_id: str, options: TableOptions) -> TableHost:
        """Open a new table here (its lease and its log first). Raises ``BusDown``."""
        await self.bus.new_table(table_id)
        fence = 1 if self.bus.fenced else None
        number = await self.services.table_log.create(table_id, options.to_json(), fence or 0)
        table = Table(table_id, options, self.table_config, make_autoplayer, self.match_seed, number)
        self.services.metrics.tables_opened.inc()
        return self._host(table, 1, fence)

    def open_for(self, opening: TableOpening) -> None:
        """A draining node asks this one to open a table for its client (``Openings.open_for``)."""
        self.openings.open_for(opening)

    def close_table(self, table_id: str, reason: str) -> bool:
        """A moderator closes ``table_id`` if it runs here (the hand dissolved unsettled); whether it does."""
        host = self.running(table_id)
        if host is not None:
            host.post(CloseTable(reason))
        return host is not None

    def hand_off(self, host: TableHost) -> bool:
        """Whether ``host``'s table leaves this node now (it drains and the table is between hands)."""
        return self.drain.gives_up(host)

    def drain_tick(self) -> None:
        """A while passed: a draining node hands over the tables it may give up now."""
        self.drain.tick()

    # ------------------------------------------------------------------ adopting, losing

    async def adopt(self, table_ids: Sequence[str]) -> set[str]:
        """Take these tables over from their logs (:meth:`Restoring.adopt`); none while the node stops
        or drains."""
        if self.stopping or self.drain.on:
            return set()
        return await self.restoring.adopt(table_ids)

    def lost(self, table_id: str) -> None:
        """Another node runs ``table_id`` now: stop serving it here; this node's clients at it attach
        there once the step under way is done."""
        host = self.hosts.pop(table_id, None)
        if host is not None:
            self.services.metrics.lost("lease")
            host.stopped = True
            self._spawn(_hand_over(host, self.bus))

    def table_closed(self, table_id: str) -> None:
        """A table here closed: it leaves the lobby list and its lease is given up."""
        self.services.metrics.tables_closed.inc()
        self.hosts.pop(table_id, None)
        self.bus.publish_summary(table_id, None)
        self.bus.table_gone(table_id)

    def table_lost(self, table_id: str) -> None:
        """A table's log write was fenced off: another node runs it now; this node's clients at it
        attach there."""
        self.services.metrics.lost("fenced")
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


async def _hand_over(host: TableHost, bus: Bus) -> None:
    """``host``'s table runs on another node now: stop it here, then attach this node's clients there."""
    await host.stop()
    bus.follow(host.id)
