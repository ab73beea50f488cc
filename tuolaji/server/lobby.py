"""The lobby: tables by id, who sits where, live connections by account, lobby subscribers.

It also routes validated client messages: connection-level ones (``hello``, ``ping``, ``lobby``)
are answered here, table creation makes a :class:`~tuolaji.server.table.TableActor`, and every
other message goes to the queue of the connection's table.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from typing import Any

from tuolaji.game.options import OptionError, TableOptions
from tuolaji.server.config import ServerConfig
from tuolaji.server.connection import CLOSE_REPLACED, Connection
from tuolaji.server.protocol import PROTOCOL_VERSION, ClientMessage, message
from tuolaji.server.table import ClientItem, Detach, Reattach, TableActor
from tuolaji.server.thinking import ThinkingPool
from tuolaji.store.accounts import Accounts
from tuolaji.store.db import Database

log = logging.getLogger(__name__)

_TABLE_MESSAGES = frozenset({"leave", "add_bot", "remove_bot", "start", "bid", "play", "remind", "retract", "autoplay"})


def match_seeds(seed: int | None) -> Iterator[int]:
    """The seeds of the matches a server starts, in order: reproducible from ``seed``, else unpredictable."""
    source = random.Random(seed) if seed is not None else random.SystemRandom()
    while True:
        yield source.getrandbits(63)


class Lobby:
    """Everything the server keeps in memory about tables and connections."""

    def __init__(self, db: Database, config: ServerConfig, thinking: ThinkingPool) -> None:
        self.db = db
        self.config = config
        self.thinking = thinking
        """Where slow bots think (owned by the app's lifespan)."""
        self.accounts = Accounts(db, config.start_silver)
        self.tables: dict[str, TableActor] = {}
        self.seated: dict[int, TableActor] = {}
        """account id → the table where that account holds a seat."""
        self.connections: dict[int, Connection] = {}
        """account id → its live connection (one per account)."""
        self.subscribers: set[Connection] = set()
        self._seeds = match_seeds(config.seed)

    def match_seed(self) -> int:
        """The seed of the next match started on this server."""
        return next(self._seeds)

    # ------------------------------------------------------------------ tables

    def table_list(self) -> list[dict[str, Any]]:
        """Every open table's summary."""
        return [table.summary() for table in self.tables.values()]

    def table_changed(self, table: TableActor) -> None:
        """Tell lobby subscribers about a changed table."""
        if table.id not in self.tables or not self.subscribers:
            return
        text = json.dumps(message("lobby_table", table=table.summary()), ensure_ascii=False)
        for conn in self.subscribers:
            conn.send_text(text)

    def table_closed(self, table: TableActor) -> None:
        """Forget a closed table and tell lobby subscribers."""
        if self.tables.pop(table.id, None) is None:
            return
        text = json.dumps(message("lobby_table_removed", table_id=table.id))
        for conn in self.subscribers:
            conn.send_text(text)

    def create_table(self, options: TableOptions) -> TableActor:
        """A new, empty table."""
        table = TableActor(self, options)
        self.tables[table.id] = table
        self.table_changed(table)
        return table

    async def close(self) -> None:
        """Stop every table task (server shutdown)."""
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()

    # ------------------------------------------------------------------ connections

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
        table = self.seated.get(account.id)
        conn.send(
            message(
                "welcome",
                protocol=PROTOCOL_VERSION,
                laogai_confirm=True,
                account=account.to_json(),
                table=table.id if table is not None else None,
                seat=table.seat_of(account.id) if table is not None else None,
            )
        )
        if ref is not None:
            conn.send(message("ack", ref=ref))
        if table is not None:
            table.post(Reattach(conn))

    def disconnected(self, conn: Connection) -> None:
        """A connection closed: unsubscribe it and tell its table (R46)."""
        self.subscribers.discard(conn)
        if conn.account is not None and self.connections.get(conn.account.id) is conn:
            del self.connections[conn.account.id]
        if conn.table is not None:
            conn.table.post(Detach(conn))

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
        if kind == "lobby":
            self._subscribe(conn, msg.fields["on"], ref)
        elif kind in ("create_table", "play_now"):
            self._create(conn, msg)
        elif kind in ("join", "watch"):
            table = self.tables.get(msg.fields["table"])
            if table is None:
                conn.error("no_table", f"{kind}: no table {msg.fields['table']!r}", ref)
            else:
                table.post(ClientItem(conn, msg))
        elif kind in _TABLE_MESSAGES:
            if conn.table is None:
                conn.error("not_seated", f"{kind}: you are not at a table", ref)
            else:
                conn.table.post(ClientItem(conn, msg))

    def _subscribe(self, conn: Connection, on: bool, ref: str | int | None) -> None:
        if on:
            self.subscribers.add(conn)
            conn.send(message("lobby", tables=self.table_list()))
        else:
            self.subscribers.discard(conn)
        if ref is not None:
            conn.send(message("ack", ref=ref))

    def _create(self, conn: Connection, msg: ClientMessage) -> None:
        assert conn.account is not None
        if conn.table is not None or conn.account.id in self.seated:
            conn.error("already_seated", f"{msg.type}: leave your current table first", msg.id)
            return
        raw = msg.fields.get("options", {})
        try:
            options = TableOptions.from_json({**TableOptions().to_json(), **raw})
        except (OptionError, TypeError) as error:
            conn.error("bad_options", f"{msg.type}: {error}", msg.id)
            return
        table = self.create_table(options)
        if msg.type == "play_now":
            table.post(ClientItem(conn, msg))
        else:
            join = ClientMessage("join", {"table": table.id, "seat": msg.fields.get("seat", 0)}, msg.id)
            table.post(ClientItem(conn, join))
