"""The lobby of one node: its connections, the lobby list, message routing, and the tables it runs.

Connections are this node's; tables may run here or on another node (``tuolaji.server.bus``). A
client's table message becomes a command for the table it sits at or watches: posted to the table's
host when the table runs here, sent through the bus to its owner otherwise. The bus keeps the seat
index (which account sits where), the lobby list and the leases; on one node it is all in memory.

The lobby remembers which table each of its connections is at (``places``), from what it asked and
from the ``table`` and ``left`` messages it passes on, so it can route messages and attach its
clients again when their table moves to another node.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import json
import logging
import math
import random
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tuolaji.game.options import OptionError, TableOptions
from tuolaji.room.commands import Attach, Command, Detach, Join, MakePrivate, Player, PlayNow, Watch
from tuolaji.room.table import Table, TableConfig
from tuolaji.server.autoplay import DEFAULT_BOT, make_autoplayer
from tuolaji.server.bus import Bus, BusDown, Envelope, node_of
from tuolaji.server.config import ServerConfig
from tuolaji.server.connection import CLOSE_LOGGED_OUT, CLOSE_REPLACED, CLOSE_RESTART, Connection
from tuolaji.server.limits import JOIN_BURST, JOINS_PER_MINUTE, KeyedLimiter
from tuolaji.server.listing import InviteIndex, listing
from tuolaji.server.tablehost import TableHost, player_of
from tuolaji.server.thinking import SLOW_BOTS, ThinkingPool
from tuolaji.store.accounts import Accounts, session_id
from tuolaji.store.db import Database
from tuolaji.store.passwords import PasswordHashing
from tuolaji.store.tablelog import OpenTable, TableLog
from tuolaji.wire.inbound import (
    PROTOCOL_VERSION,
    SCHEMAS,
    ClientMessage,
    ProtocolError,
    error_message,
    message,
    parse_client_message,
)
from tuolaji.wire.views import dumps

log = logging.getLogger(__name__)

LOBBY_BATCH_SECONDS = 0.25
"""Lobby subscribers get a table's changes at most this often (the newest summary wins)."""
INVITE_BYTES = 12
"""Random bytes of a private table's invite code (``secrets.token_urlsafe``: 16 characters, 96 bits)."""
_TABLE_PREFIX = dumps(message("table"))[:-1] + ","
_LEFT_PREFIX = dumps(message("left"))[:-1] + ","


def match_seeds(seed: int | None) -> Iterator[int]:
    """The seeds of the matches a server starts, in order: reproducible from ``seed``, else unpredictable."""
    source = random.Random(seed) if seed is not None else random.SystemRandom()
    while True:
        yield source.getrandbits(63)


@dataclass(frozen=True)
class Place:
    """Where a connection of this node is: the table, and whether it only watches."""

    table_id: str
    watching: bool


class Lobby:
    """Everything one node keeps in memory about tables and connections."""

    def __init__(
        self, db: Database, config: ServerConfig, thinking: ThinkingPool, table_log: TableLog, bus: Bus
    ) -> None:
        self.db = db
        self.config = config
        self.thinking = thinking
        """Where slow bots think (owned by the app's lifespan)."""
        self.log = table_log
        self.bus = bus
        self.accounts = Accounts(
            db,
            config.start_silver,
            session_days=config.session_days,
            hashing=PasswordHashing(config.hash_threads, config.hash_queue),
        )
        self.table_config = TableConfig(
            bot_delay_ms=round(config.bot_delay * 1000),
            next_hand_delay_ms=round(config.next_hand_delay * 1000),
            reconnect_grace_ms=round(config.reconnect_grace * 1000),
            slow_bots=SLOW_BOTS,
        )
        self.hosts: dict[str, TableHost] = {}
        """The tables this node runs."""
        self.summaries: dict[str, dict[str, Any]] = {}
        """Every open table's summary (all nodes; the lobby list shows the public ones)."""
        self.invites = InviteIndex()
        """Invite code → private table id."""
        self.places: dict[str, Place] = {}
        """client id → the table that connection sits at or watches (as its ``table`` messages said)."""
        self.pending: dict[str, str] = {}
        """client id → the table it asked to join or watch (until the table answers)."""
        self.connections: dict[int, Connection] = {}
        """account id → its live connection on this node (one per account)."""
        self.clients: dict[str, Connection] = {}
        """client id → connection."""
        self.subscribers: set[Connection] = set()
        self.addresses: collections.Counter[str] = collections.Counter()
        """client address → its open connections here."""
        self.join_limiter: KeyedLimiter[int] = KeyedLimiter.per_minute(JOINS_PER_MINUTE, JOIN_BURST)
        self.stopping = False
        self._seeds = match_seeds(config.seed)
        self._client_ids = itertools.count(1)
        self._lobby_changes: set[str] = set()
        self._lobby_flush: asyncio.TimerHandle | None = None
        self._background: set[asyncio.Task[Any]] = set()

    def match_seed(self) -> int:
        """The seed of the next match started on this node."""
        return next(self._seeds)

    def new_client_id(self) -> str:
        """A fresh id for a connection: ``NODE.N``, so other nodes know where to send its messages."""
        return f"{self.bus.node_id}.{next(self._client_ids)}"

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ------------------------------------------------------------------ tables run here

    def _table(self, table_id: str, options: TableOptions) -> Table:
        return Table(table_id, options, self.table_config, make_autoplayer, self.match_seed)

    def _host(self, table: Table, next_seq: int, fence: int | None) -> TableHost:
        host = TableHost(table, self, self.log, self.thinking, next_seq, fence)
        self.hosts[table.id] = host
        return host

    async def _run_restored(self, opened: OpenTable, fence: int | None) -> TableHost | None:
        """Replay ``opened`` and run it here; None if its log cannot be replayed."""
        try:
            table = Table.restore(
                opened.id,
                TableOptions.from_json(opened.options),
                self.table_config,
                make_autoplayer,
                self.match_seed,
                opened.entries,
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
        accounts = await self.accounts.get_many(
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
        for opened in await self.log.open_tables():
            host = await self._run_restored(opened, None)
            if host is not None:
                hosts.append(host)
        await self._refresh_titles(hosts)
        if self.hosts:
            log.info("restored %d open table(s) from their logs", len(self.hosts))
        return len(self.hosts)

    async def adopt(self, table_id: str) -> bool:
        """Take ``table_id`` over from its log (its lease is this node's now); not while stopping."""
        if self.stopping:
            return False
        opened = await self.log.take(table_id)
        if opened is None:
            return False
        host = await self._run_restored(opened, opened.fence)
        if host is None:
            return False
        await self._refresh_titles([host])
        log.info("table %s: taken over from its log (fencing token %d)", table_id, opened.fence)
        return True

    def lost(self, table_id: str) -> None:
        """Another node runs ``table_id`` now: stop serving it here."""
        host = self.hosts.pop(table_id, None)
        if host is not None:
            host.stopped = True
            self._spawn(host.stop())

    def owned(self) -> dict[str, tuple[dict[str, Any], dict[int, int]]]:
        return {
            table_id: (host.table.summary(), {player.id: seat for seat, player in host.table.players().items()})
            for table_id, host in self.hosts.items()
        }

    async def open_table_ids(self) -> list[str]:
        return await self.log.open_ids()

    def _attached(self) -> list[tuple[TableHost, str]]:
        return [
            (host, client)
            for host in self.hosts.values()
            for client in [seat.client for seat in host.table.seats if seat.client] + sorted(host.table.watchers)
        ]

    def remote_nodes(self) -> set[str]:
        return {node_of(client) for _, client in self._attached()} - {self.bus.node_id}

    def nodes_gone(self, nodes: set[str]) -> None:
        for host, client in self._attached():
            if node_of(client) in nodes:
                host.post(Detach(client))

    def on_bus_restored(self) -> None:
        """Messages between nodes may have been lost: this node's clients at other nodes' tables get
        their full picture again."""
        for table_id in {place.table_id for place in self.places.values()} - set(self.hosts):
            self.on_moved(table_id)

    # ------------------------------------------------------------------ what hosts tell (Room)

    def deliver(self, client: str, text: str) -> None:
        """Send ``text`` to the client ``client``, here or on its node."""
        self.bus.deliver(client, text)

    def table_changed(self, table_id: str, summary: dict[str, Any]) -> None:
        self.bus.publish_summary(table_id, summary)

    def seat_changed(self, account_id: int, table_id: str, seat: int | None) -> None:
        self.bus.seat_changed(account_id, table_id, seat)

    def table_closed(self, table_id: str) -> None:
        self.hosts.pop(table_id, None)
        self.bus.publish_summary(table_id, None)
        self.bus.table_gone(table_id)

    def table_lost(self, table_id: str) -> None:
        self.hosts.pop(table_id, None)
        self.bus.table_gone(table_id)

    # ------------------------------------------------------------------ what the bus tells (Node)

    def on_command(self, table_id: str, envelope: Envelope) -> bool:
        host = self.hosts.get(table_id)
        if host is None or host.stopped:
            return False
        command = self._command(envelope)
        if command is not None:
            host.post(command)
        return True

    def _command(self, envelope: Envelope) -> Command | None:
        client = envelope.client
        if envelope.kind == "detach":
            return Detach(client)
        player = Player.from_json(envelope.account) if envelope.account is not None else None
        if envelope.kind == "attach" and player is not None:
            return Attach(client, player.id)
        if envelope.kind == "watch":
            return Watch(client, invite=envelope.invite)
        try:
            msg = parse_client_message(envelope.text or "")
        except ProtocolError as error:
            self.deliver(client, dumps(error_message(error.code, str(error), error.ref, error.rule, error.params)))
            return None
        return table_command(client, player, msg)

    def on_deliver(self, client: str, text: str) -> None:
        conn = self.clients.get(client)
        if conn is None:
            return
        if text.startswith(_TABLE_PREFIX):
            table = parse_table_message(text)
            if table is not None:
                self.places[client] = Place(table[0], table[1] is None)
                self.pending.pop(client, None)
        elif text.startswith(_LEFT_PREFIX):
            self.places.pop(client, None)
        elif self.pending.get(client) is not None and '"type":"error"' in text:
            self.pending.pop(client, None)  # the join or watch was refused
        conn.send_text(text)

    def on_close_client(self, client: str, code: int, text: str) -> None:
        conn = self.clients.get(client)
        if conn is not None:
            conn.send_text(text)
            conn.close(code)

    def on_summary(self, table_id: str, summary: dict[str, Any] | None) -> None:
        before = self.summaries.get(table_id)
        if summary is None:
            if self.summaries.pop(table_id, None) is None:
                return
        else:
            self.summaries[table_id] = summary
        self.invites.changed(table_id, before, summary)
        if listing(before) is None and listing(summary) is None:
            return  # a private table: the lobby list never hears of it
        self._lobby_changes.add(table_id)
        if self._lobby_flush is None and self.subscribers:
            self._lobby_flush = asyncio.get_running_loop().call_later(LOBBY_BATCH_SECONDS, self._send_lobby_changes)
        elif not self.subscribers:
            self._lobby_changes.clear()

    def on_lobby_reset(self, summaries: dict[str, dict[str, Any]]) -> None:
        self.summaries = dict(summaries)
        self.invites.reset(self.summaries)
        self._lobby_changes.clear()
        text = dumps(message("lobby", tables=self.table_list()))
        for conn in self.subscribers:
            conn.send_text(text)

    def on_moved(self, table_id: str) -> None:
        for client, place in list(self.places.items()):
            conn = self.clients.get(client)
            if place.table_id != table_id or conn is None or conn.account is None:
                continue
            kind = "watch" if place.watching else "attach"
            invite = self.summaries.get(table_id, {}).get("invite") if place.watching else None
            envelope = Envelope(kind, client, player_of(conn.account).to_json(), invite=invite)
            self._spawn(self._send(table_id, envelope))

    def _send_lobby_changes(self) -> None:
        self._lobby_flush = None
        changes, self._lobby_changes = self._lobby_changes, set()
        texts = []
        for table_id in sorted(changes):
            entry = listing(self.summaries.get(table_id))
            if entry is not None:
                texts.append(dumps(message("lobby_table", table=entry)))
            elif table_id not in self.summaries:
                texts.append(dumps(message("lobby_table_removed", table_id=table_id)))
        for conn in self.subscribers:
            for text in texts:
                conn.send_text(text)

    def table_list(self) -> list[dict[str, Any]]:
        """Every open public table's lobby entry (:func:`~tuolaji.server.listing.listing`)."""
        return [entry for entry in map(listing, self.summaries.values()) if entry is not None]

    # ------------------------------------------------------------------ shutdown

    async def close(self) -> None:
        """Stop every table's host (server shutdown): their logs already hold them."""
        await self._stop_hosts()
        self.hosts.clear()
        if self._lobby_flush is not None:
            self._lobby_flush.cancel()

    async def prepare_shutdown(self) -> None:
        """A graceful restart: take no more commands, let every table finish its step (its log is then
        complete), tell every client ``server_restarting`` and close its socket (1012)."""
        await self._stop_hosts()
        text = dumps(message("server_restarting"))
        for conn in list(self.clients.values()):
            conn.send_text(text)
            conn.close(CLOSE_RESTART)
        await asyncio.gather(*(conn.drain() for conn in list(self.clients.values())))

    async def _stop_hosts(self) -> None:
        self.stopping = True
        # Together: each finishes the step under way, and the log writer commits their last steps in one go.
        await asyncio.gather(*(host.stop() for host in list(self.hosts.values())))

    # ------------------------------------------------------------------ connections

    def connected(self, conn: Connection, address: str) -> bool:
        """A new connection from ``address`` (before its hello); False if that address has too many."""
        limit = self.config.connections_per_address
        if limit and self.addresses[address] >= limit:
            return False
        self.addresses[address] += 1
        conn.address = address
        self.clients[conn.id] = conn
        return True

    def on_logout(self, account_id: int, session: str) -> None:
        conn = self.connections.get(account_id)
        if conn is not None and conn.token is not None and session_id(conn.token) == session:
            conn.error("bad_token", "you logged out; this connection is closed", params={"reason": "logged_out"})
            conn.close(CLOSE_LOGGED_OUT, "logged out")

    def escaped(self, account_id: int) -> None:
        self.bus.escaped(account_id)

    async def hello(self, conn: Connection, token: str, ref: str | int | None) -> None:
        """Authenticate ``conn``; a second connection of the same account replaces the first."""
        if conn.account is not None:
            conn.error(
                "bad_message",
                "hello: this connection is already authenticated",
                ref,
                params={"reason": "already_authenticated"},
            )
            return
        account = await self.accounts.by_token(token)
        if account is None:
            conn.error("bad_token", "hello: unknown or logged-out token", ref)
            return
        conn.account, conn.token = account, token
        replaced = dumps(error_message("session_replaced", "another connection of your account took over"))
        old = self.connections.get(account.id)
        self.connections[account.id] = conn
        if old is not None and old is not conn:
            old.send_text(replaced)
            old.close(CLOSE_REPLACED)
        place = None
        try:
            other = await self.bus.connection_opened(account.id, conn.id)
            if other is not None and other != conn.id and node_of(other) != self.bus.node_id:
                self.bus.close_client(other, CLOSE_REPLACED, replaced)
            place = await self.bus.seat_of(account.id)
        except BusDown:
            log.warning("hello of account %d: the bus is down; its seat is not known now", account.id)
        if place is not None and not place.table_id:
            place = None  # an empty table id names no table
        conn.send(
            message(
                "welcome",
                protocol=PROTOCOL_VERSION,
                laogai_confirm=True,
                account=account.to_json(),
                table=place.table_id if place is not None else None,
                seat=place.seat if place is not None else None,
            )
        )
        if ref is not None:
            conn.send(message("ack", ref=ref))
        if place is not None:
            self.places[conn.id] = Place(place.table_id, False)
            await self._send(place.table_id, Envelope("attach", conn.id, player_of(account).to_json()))

    def disconnected(self, conn: Connection) -> None:
        """A connection closed: unsubscribe it and tell its table (R46), unless the server is restarting."""
        self.subscribers.discard(conn)
        if self.clients.pop(conn.id, None) is not None:
            self.addresses[conn.address] -= 1
            if self.addresses[conn.address] <= 0:
                del self.addresses[conn.address]
        place = self.places.pop(conn.id, None)
        asked = self.pending.pop(conn.id, None)
        if conn.account is not None:
            if self.connections.get(conn.account.id) is conn:
                del self.connections[conn.account.id]
            self.bus.connection_closed(conn.account.id, conn.id)
        if self.stopping:
            return
        tables = {place.table_id} if place is not None else set()
        if asked is not None:
            tables.add(asked)
        for table_id in tables:
            self._spawn(self._send(table_id, Envelope("detach", conn.id)))

    async def _send(self, table_id: str, envelope: Envelope) -> bool:
        """Deliver ``envelope`` to the table's host, here or on its node; False if nobody runs it now."""
        if self.on_command(table_id, envelope):
            return True
        try:
            return await self.bus.send_command(table_id, envelope)
        except BusDown:
            return False

    async def dispatch(self, conn: Connection, msg: ClientMessage) -> None:
        """Route one validated client message."""
        kind, ref = msg.type, msg.id
        if kind == "hello":
            await self.hello(conn, msg.fields["token"], ref)
            return
        if kind == "ping":
            conn.send(message("pong", ref=ref) if ref is not None else message("pong"))
            return
        account = conn.account
        if account is None:
            conn.error("auth_required", f"{kind}: send hello with your token first", ref, params={"type": kind})
            return
        if self.stopping:
            conn.error(
                "server_restarting",
                f"{kind}: the server is restarting; try again in a moment",
                ref,
                params={"type": kind},
            )
            return
        if kind == "lobby":
            self._subscribe(conn, msg.fields["on"], ref)
        elif kind in ("create_table", "play_now"):
            await self._create(conn, msg)
        elif kind in ("join", "watch"):
            await self._join_or_watch(conn, msg)
        else:
            place = self.places.get(conn.id)
            if place is None:
                conn.error("not_seated", f"{kind}: you are not at a table", ref, params={"table": None})
                return
            if kind == "leave" and place.watching:
                self.places.pop(conn.id, None)
            await self._route(conn, place.table_id, msg)

    async def _route(self, conn: Connection, table_id: str, msg: ClientMessage, quiet: bool = False) -> bool:
        """Hand a table message to its table, here or on its node; False (and, unless ``quiet``,
        ``table_moving``) if nobody runs it now."""
        assert conn.account is not None
        player = player_of(conn.account) if msg.type == "join" else None  # only a join shows who sits down
        host = self.hosts.get(table_id)
        if host is not None and not host.stopped:
            command = table_command(conn.id, player, msg)
            if command is not None:
                host.post(command)
            return True
        envelope = Envelope("message", conn.id, player.to_json() if player is not None else None, msg.text)
        if await self._send(table_id, envelope):
            return True
        if quiet:
            return False
        conn.error(
            "table_moving",
            f"{msg.type}: the table is moving to another server; try again",
            msg.id,
            params={"table": table_id, "type": msg.type},
        )
        return False

    async def _join_or_watch(self, conn: Connection, msg: ClientMessage) -> None:
        assert conn.account is not None
        kind, ref = msg.type, msg.id
        table_id = self._table_named(conn, msg)
        if table_id is None:
            return
        place = self.places.get(conn.id)
        sitting_down = kind == "join" and place is not None and place.watching and place.table_id == table_id
        # A table this node has not heard of yet may be brand new on another node: ask its owner.
        known = table_id in self.summaries or table_id in self.hosts
        if (place is not None and not sitting_down) or conn.id in self.pending:
            if not known:
                conn.error("no_table", f"{kind}: no table {table_id!r}", ref, params={"table": table_id})
            else:
                conn.error("already_seated", f"{kind}: leave your current table first", ref, params=self._at(conn))
            return
        if kind == "join" and not await self._may_sit(conn, msg):
            return
        if kind == "join":
            try:
                current = await self.bus.claim_seat(conn.account.id, table_id)
            except BusDown:
                conn.error(
                    "service_unavailable",
                    f"{kind}: the card room's coordinator (Redis) is unreachable; nobody can sit down now",
                    ref,
                    params={"type": kind},
                )
                return
            if current is not None:
                conn.error(
                    "already_seated", f"{kind}: leave your current table first", ref, params={"table": current.table_id}
                )
                return
        self.pending[conn.id] = table_id
        if not await self._route(conn, table_id, msg, quiet=not known):
            self.pending.pop(conn.id, None)
            if kind == "join":
                self.bus.seat_changed(conn.account.id, table_id, None)
            if not known:
                conn.error("no_table", f"{kind}: no table {table_id!r}", ref, params={"table": table_id})

    async def _may_sit(self, conn: Connection, msg: ClientMessage) -> bool:
        """Whether ``conn``'s account may take a seat now: not too many seats in a row (``join_limiter``)
        and not while it waits after escaping (R43, ``EscapeCooldown``); else it is told why."""
        assert conn.account is not None
        account_id, kind = conn.account.id, msg.type
        retry = self.join_limiter.check(account_id, time.monotonic())
        if retry is not None:
            conn.error(
                "rate_limited",
                f"{kind}: too many tables in a row; try again in {retry} s",
                msg.id,
                params={"reason": "joins", "seconds": retry},
            )
            return False
        try:
            wait = await self.bus.escape_wait(account_id)
        except BusDown:
            wait = 0.0
        if wait > 0:
            seconds = math.ceil(wait)
            conn.error(
                "escape_cooldown",
                f"{kind}: you left a hand (R43); you may sit again in {seconds} s",
                msg.id,
                "R43",
                params={"seconds": seconds, "rule": "R43"},
            )
            return False
        return True

    def _table_named(self, conn: Connection, msg: ClientMessage) -> str | None:
        """The table a ``join`` or ``watch`` names by its id or its invite code (None: refused)."""
        table_id, invite = msg.fields.get("table"), msg.fields.get("invite")
        if table_id is None and invite is not None:
            table_id = self.invites.table_of(invite)
            if table_id is None:
                conn.error("bad_invite", f"{msg.type}: no open table has this invite code", msg.id)
        elif table_id is None:
            params = {"reason": "missing_field", "type": msg.type, "field": "table"}
            conn.error(
                "bad_message",
                f"{msg.type}: give the table's id (table) or its invite code (invite)",
                msg.id,
                params=params,
            )
        return table_id

    def _at(self, conn: Connection) -> dict[str, Any]:
        place = self.places.get(conn.id)
        return {"table": place.table_id if place is not None else self.pending.get(conn.id)}

    def _subscribe(self, conn: Connection, on: bool, ref: str | int | None) -> None:
        if on and conn not in self.subscribers:
            self.subscribers.add(conn)
            conn.send(message("lobby", tables=self.table_list()))
        elif not on:
            self.subscribers.discard(conn)
        if ref is not None:
            conn.send(message("ack", ref=ref))

    async def _create(self, conn: Connection, msg: ClientMessage) -> None:
        account = conn.account
        assert account is not None
        if conn.id in self.places or conn.id in self.pending:
            conn.error("already_seated", f"{msg.type}: leave your current table first", msg.id, params=self._at(conn))
            return
        if not await self._may_sit(conn, msg):
            return
        raw = msg.fields.get("options", {})
        try:
            options = TableOptions.from_json({**TableOptions().to_json(), **raw})
        except (OptionError, TypeError) as error:
            params = error.params if isinstance(error, OptionError) else {"reason": "bad_value"}
            conn.error("bad_options", f"{msg.type}: {error}", msg.id, params=params)
            return
        table_id = "t" + secrets.token_hex(5)
        try:
            current = await self.bus.claim_seat(account.id, table_id)
            if current is not None:
                params = {"table": current.table_id}
                conn.error("already_seated", f"{msg.type}: leave your current table first", msg.id, params=params)
                return
            host = await self._new_host(table_id, options)
        except BusDown:
            self.bus.seat_changed(account.id, table_id, None)
            conn.error(
                "service_unavailable",
                f"{msg.type}: new tables are refused while the card room's coordinator (Redis) is unreachable",
                msg.id,
                params={"type": msg.type},
            )
            return
        self.pending[conn.id] = host.id
        player = player_of(account)
        if msg.fields.get("private", False):
            host.post(MakePrivate(secrets.token_urlsafe(INVITE_BYTES), account.id))
        if msg.type == "play_now":
            host.post(PlayNow(conn.id, player, msg.fields.get("bot", DEFAULT_BOT), msg.id))
        else:
            host.post(Join(conn.id, player, msg.fields.get("seat", 0), msg.id))

    async def _new_host(self, table_id: str, options: TableOptions) -> TableHost:
        await self.bus.new_table(table_id)
        fence = 1 if self.bus.fenced else None
        await self.log.create(table_id, options.to_json(), fence or 0)
        return self._host(self._table(table_id, options), 1, fence)


def table_command(client: str, player: Player | None, msg: ClientMessage) -> Command | None:
    """The table command a validated client message becomes (None: not a table message)."""
    kind, fields, ref = msg.type, msg.fields, msg.id
    if kind == "join" and player is not None:
        return Join(client, player, fields["seat"], ref, fields.get("invite"))
    if kind == "watch":
        return Watch(client, ref, fields.get("invite"))
    build = SCHEMAS[kind].table
    return build(client, fields, ref) if build is not None else None


def parse_table_message(text: str) -> tuple[str, int | None] | None:
    """(table id, seat) of an encoded ``table`` message."""
    try:
        data = json.loads(text)
        return str(data["table"]["id"]), data["seat"]
    except (ValueError, KeyError, TypeError):
        return None
