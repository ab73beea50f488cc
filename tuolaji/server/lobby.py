"""The lobby: the tables, who sits where, live connections, lobby subscribers; message routing.

The lobby alone knows which account sits at which table (``seated``) and which connection watches
which table; tables know their seats' client ids, connections know nothing of tables. Connection-level
messages (``hello``, ``ping``, ``lobby``) are answered here, table creation makes a
:class:`~tuolaji.server.tablehost.TableHost`, and every other message becomes a table command for
the table the sender sits at or watches. At startup every open table is restored from its log.
"""

from __future__ import annotations

import itertools
import logging
import random
import secrets
from collections.abc import Iterator
from typing import Any

from tuolaji.game.commands import Attach, Detach, Join, PlayNow, Watch
from tuolaji.game.options import OptionError, TableOptions
from tuolaji.game.table import Table, TableConfig
from tuolaji.server.autoplay import DEFAULT_BOT, make_autoplayer
from tuolaji.server.config import ServerConfig
from tuolaji.server.connection import CLOSE_REPLACED, CLOSE_RESTART, Connection
from tuolaji.server.protocol import PROTOCOL_VERSION, SCHEMAS, ClientMessage, message
from tuolaji.server.tablehost import TableHost, player_of
from tuolaji.server.thinking import SLOW_BOTS, ThinkingPool
from tuolaji.server.views import dumps
from tuolaji.store.accounts import Accounts
from tuolaji.store.db import Database
from tuolaji.store.tablelog import TableLog

log = logging.getLogger(__name__)


def match_seeds(seed: int | None) -> Iterator[int]:
    """The seeds of the matches a server starts, in order: reproducible from ``seed``, else unpredictable."""
    source = random.Random(seed) if seed is not None else random.SystemRandom()
    while True:
        yield source.getrandbits(63)


class Lobby:
    """Everything the server keeps in memory about tables and connections."""

    def __init__(self, db: Database, config: ServerConfig, thinking: ThinkingPool, table_log: TableLog) -> None:
        self.db = db
        self.config = config
        self.thinking = thinking
        """Where slow bots think (owned by the app's lifespan)."""
        self.log = table_log
        self.accounts = Accounts(db, config.start_silver)
        self.table_config = TableConfig(
            bot_delay_ms=round(config.bot_delay * 1000),
            next_hand_delay_ms=round(config.next_hand_delay * 1000),
            reconnect_grace_ms=round(config.reconnect_grace * 1000),
            slow_bots=SLOW_BOTS,
        )
        self.hosts: dict[str, TableHost] = {}
        self.summaries: dict[str, dict[str, Any]] = {}
        """The lobby list: each open table's summary."""
        self.seated: dict[int, str] = {}
        """account id → the table where that account holds a seat."""
        self.watching: dict[str, str] = {}
        """client id → the table that connection watches."""
        self.connections: dict[int, Connection] = {}
        """account id → its live connection (one per account)."""
        self.clients: dict[str, Connection] = {}
        """client id → connection."""
        self.subscribers: set[Connection] = set()
        self.stopping = False
        self._seeds = match_seeds(config.seed)
        self._client_ids = itertools.count(1)

    def match_seed(self) -> int:
        """The seed of the next match started on this server."""
        return next(self._seeds)

    def new_client_id(self) -> str:
        """A fresh id for a connection."""
        return f"c{next(self._client_ids)}"

    # ------------------------------------------------------------------ tables

    def _table(self, table_id: str, options: TableOptions) -> Table:
        return Table(table_id, options, self.table_config, make_autoplayer, self.match_seed)

    def _host(self, table: Table, next_seq: int) -> TableHost:
        host = TableHost(table, self, self.log, self.thinking, next_seq)
        self.hosts[table.id] = host
        return host

    async def create_table(self, options: TableOptions) -> TableHost:
        """A new, empty table (its log opened in the database)."""
        table_id = "t" + secrets.token_hex(5)
        await self.log.create(table_id, options.to_json())
        return self._host(self._table(table_id, options), 1)

    async def restore(self) -> int:
        """Restore every table whose log is open and go on with it (server start); how many."""
        opened = await self.log.open_tables()
        for entry in opened:
            try:
                options = TableOptions.from_json(entry.options)
                table = Table.restore(
                    entry.id, options, self.table_config, make_autoplayer, self.match_seed, entry.entries
                )
            except Exception:
                log.exception("table %s: its log could not be replayed; it stays closed", entry.id)
                continue
            host = self._host(table, entry.next_seq)
            for account_id in (player.id for player in table.players().values()):
                self.seated[account_id] = table.id
            await host.resume()
            accounts = {seat: await self.accounts.get(player.id) for seat, player in table.players().items()}
            host.refresh({seat: account for seat, account in accounts.items() if account is not None})
        if opened:
            log.info("restored %d open table(s) from their logs", len(self.hosts))
        return len(self.hosts)

    def table_list(self) -> list[dict[str, Any]]:
        """Every open table's summary."""
        return list(self.summaries.values())

    def table_changed(self, table_id: str, summary: dict[str, Any]) -> None:
        """Tell lobby subscribers about a changed table."""
        if table_id not in self.hosts:
            return
        self.summaries[table_id] = summary
        if not self.subscribers:
            return
        text = dumps(message("lobby_table", table=summary))
        for conn in self.subscribers:
            conn.send_text(text)

    def table_closed(self, table_id: str) -> None:
        """Forget a closed table and tell lobby subscribers."""
        self.hosts.pop(table_id, None)
        if self.summaries.pop(table_id, None) is None:
            return
        for client in [client for client, watched in self.watching.items() if watched == table_id]:
            del self.watching[client]
        text = dumps(message("lobby_table_removed", table_id=table_id))
        for conn in self.subscribers:
            conn.send_text(text)

    def table_lost(self, table_id: str) -> None:
        """Another node took the table over: forget it here."""
        self.hosts.pop(table_id, None)

    def seat_changed(self, account_id: int, table_id: str, seat: int | None) -> None:
        """Keep ``seated`` in step with the table: ``account_id`` sits at ``table_id`` or (None) no longer."""
        if seat is not None:
            self.seated[account_id] = table_id
        elif self.seated.get(account_id) == table_id:
            del self.seated[account_id]

    def deliver(self, client: str, text: str) -> None:
        """Send ``text`` to the connection ``client``, if it is still here."""
        conn = self.clients.get(client)
        if conn is not None:
            conn.send_text(text)

    async def close(self) -> None:
        """Stop every table's host (server shutdown): their logs already hold them."""
        for host in list(self.hosts.values()):
            await host.stop()
        self.hosts.clear()

    async def prepare_shutdown(self) -> None:
        """A graceful restart: take no more commands, let every table finish its step (its log is then
        complete), tell every client ``server_restarting`` and close its socket (1012)."""
        self.stopping = True
        for host in list(self.hosts.values()):
            await host.stop()
        text = dumps(message("server_restarting"))
        for conn in list(self.clients.values()):
            conn.send_text(text)
            conn.close(CLOSE_RESTART)
        for conn in list(self.clients.values()):
            await conn.drain()

    # ------------------------------------------------------------------ connections

    def connected(self, conn: Connection) -> None:
        """A new connection (before its hello)."""
        self.clients[conn.id] = conn

    async def hello(self, conn: Connection, token: str, ref: str | int | None) -> None:
        """Authenticate ``conn``; a second connection of the same account replaces the first."""
        if conn.account is not None:
            conn.error("bad_message", "hello: this connection is already authenticated", ref)
            return
        account = await self.accounts.by_token(token)
        if account is None:
            conn.error("bad_token", "hello: unknown or logged-out token", ref)
            return
        conn.account, conn.token = account, token
        old = self.connections.get(account.id)
        self.connections[account.id] = conn
        if old is not None and old is not conn:
            old.error("session_replaced", "another connection of your account took over")
            old.close(CLOSE_REPLACED)
        table_id = self.seated.get(account.id)
        host = self.hosts.get(table_id) if table_id is not None else None
        conn.send(
            message(
                "welcome",
                protocol=PROTOCOL_VERSION,
                laogai_confirm=True,
                account=account.to_json(),
                table=table_id if host is not None else None,
                seat=host.table.seat_of(account.id) if host is not None else None,
            )
        )
        if ref is not None:
            conn.send(message("ack", ref=ref))
        if host is not None:
            host.post(Attach(conn.id, account.id))

    def disconnected(self, conn: Connection) -> None:
        """A connection closed: unsubscribe it and tell its table (R46), unless the server is restarting."""
        self.subscribers.discard(conn)
        self.clients.pop(conn.id, None)
        if conn.account is not None and self.connections.get(conn.account.id) is conn:
            del self.connections[conn.account.id]
        if self.stopping:
            return
        for table_id in {self.watching.pop(conn.id, None), self._seat_table(conn)}:
            host = self.hosts.get(table_id) if table_id is not None else None
            if host is not None:
                host.post(Detach(conn.id))

    def _seat_table(self, conn: Connection) -> str | None:
        return self.seated.get(conn.account.id) if conn.account is not None else None

    async def dispatch(self, conn: Connection, msg: ClientMessage) -> None:
        """Route one validated client message."""
        kind, ref = msg.type, msg.id
        if kind == "hello":
            await self.hello(conn, msg.fields["token"], ref)
            return
        if kind == "ping":
            conn.send(message("pong", ref=ref) if ref is not None else message("pong"))
            return
        if conn.account is None:
            conn.error("auth_required", f"{kind}: send hello with your token first", ref)
            return
        if self.stopping:
            conn.error("server_restarting", f"{kind}: the server is restarting; try again in a moment", ref)
            return
        if kind == "lobby":
            self._subscribe(conn, msg.fields["on"], ref)
        elif kind in ("create_table", "play_now"):
            await self._create(conn, msg)
        elif kind in ("join", "watch"):
            self._join_or_watch(conn, msg)
        else:
            build = SCHEMAS[kind].table
            assert build is not None
            table_id = self.watching.get(conn.id) or self._seat_table(conn)
            host = self.hosts.get(table_id) if table_id is not None else None
            if host is None:
                conn.error("not_seated", f"{kind}: you are not at a table", ref)
                return
            if kind == "leave":
                self.watching.pop(conn.id, None)
            host.post(build(conn.id, msg.fields, ref))

    def _join_or_watch(self, conn: Connection, msg: ClientMessage) -> None:
        assert conn.account is not None
        kind, ref, table_id = msg.type, msg.id, msg.fields["table"]
        host = self.hosts.get(table_id)
        if host is None:
            conn.error("no_table", f"{kind}: no table {table_id!r}", ref)
            return
        if self._seat_table(conn) is not None or conn.id in self.watching:
            conn.error("already_seated", f"{kind}: leave your current table first", ref)
            return
        if kind == "watch":
            self.watching[conn.id] = table_id
            host.post(Watch(conn.id, ref))
        else:
            self.seated[conn.account.id] = table_id  # claimed now; the table confirms or frees it
            host.post(Join(conn.id, player_of(conn.account), msg.fields["seat"], ref))

    def _subscribe(self, conn: Connection, on: bool, ref: str | int | None) -> None:
        if on:
            self.subscribers.add(conn)
            conn.send(message("lobby", tables=self.table_list()))
        else:
            self.subscribers.discard(conn)
        if ref is not None:
            conn.send(message("ack", ref=ref))

    async def _create(self, conn: Connection, msg: ClientMessage) -> None:
        assert conn.account is not None
        if self._seat_table(conn) is not None or conn.id in self.watching:
            conn.error("already_seated", f"{msg.type}: leave your current table first", msg.id)
            return
        raw = msg.fields.get("options", {})
        try:
            options = TableOptions.from_json({**TableOptions().to_json(), **raw})
        except (OptionError, TypeError) as error:
            conn.error("bad_options", f"{msg.type}: {error}", msg.id)
            return
        self.seated[conn.account.id] = ""  # claimed while the table is created
        try:
            host = await self.create_table(options)
        except Exception:
            self.seated.pop(conn.account.id, None)
            raise
        self.seated[conn.account.id] = host.id
        player = player_of(conn.account)
        if msg.type == "play_now":
            host.post(PlayNow(conn.id, player, msg.fields.get("bot", DEFAULT_BOT), msg.id))
        else:
            host.post(Join(conn.id, player, msg.fields.get("seat", 0), msg.id))
