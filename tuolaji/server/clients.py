"""This node's connected clients: the registry (by client id, by account, per address), ``hello``
and the session it may replace (a banned account's refused), logging out, bans and mutes as they
come, the notice to everyone, and what the bus delivers to them.

A client's place (``tuolaji.server.placement``) changes here only with the place change a delivery
carries, as the message reaches the client's outbox; a client seated by a table on another node is
told that node (``tuolaji.server.homing``).
"""

from __future__ import annotations

import collections
import itertools
import logging
import time
from collections.abc import Callable
from datetime import UTC
from typing import Any, Protocol

from sqlalchemy import select

from tuolaji.server import logs
from tuolaji.server.bus import BusDown, node_of
from tuolaji.server.connection import CLOSE_BANNED, CLOSE_LOGGED_OUT, CLOSE_REPLACED, Connection
from tuolaji.server.homing import Homing
from tuolaji.server.placement import Placement
from tuolaji.server.services import Services
from tuolaji.store.accounts import session_id
from tuolaji.store.models import SessionToken
from tuolaji.store.roles import role_of
from tuolaji.store.sanctions import standing
from tuolaji.wire.moderation import refusal
from tuolaji.wire.nodes import AtTable, Delivery, SeatRef
from tuolaji.wire.orders import NoticeSent, Sanctioned
from tuolaji.wire.outbound import PROTOCOL_VERSION, dumps, error_message, message

log = logging.getLogger(__name__)


class QueuePlaces(Protocol):
    """Where a client that says hello may have a place in the quick-match queue (``QuickMatch``)."""

    async def resume(self, conn: Connection) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """Take the account's place over for ``conn``: its status for the welcome, and a message for after."""


class Batch:
    """:meth:`Clients.batch`: a context manager (blocks may nest) that makes the connections it is
    handed hold what they are sent until the outermost block ends, then write it."""

    __slots__ = ("_depth", "_held")

    def __init__(self) -> None:
        self._depth = 0
        self._held: list[Connection] = []

    def hold(self, conn: Connection) -> None:
        """Within a block: ``conn`` holds what it is sent until the block ends."""
        if self._depth and conn.hold():
            self._held.append(conn)

    def __enter__(self) -> None:
        self._depth += 1

    def __exit__(self, *exc: object) -> None:
        self._depth -= 1
        if self._depth == 0 and self._held:
            held, self._held = self._held, []
            for conn in held:
                try:
                    conn.release()
                except Exception:  # one connection's failure must not leave the others holding
                    log.exception("writing a connection's held messages failed", extra={"connection": conn.id})


class Clients:
    """The connections of this node (one live connection per account)."""

    def __init__(
        self,
        services: Services,
        placement: Placement,
        queue: QueuePlaces,
        seated_here: Callable[[int], SeatRef | None],
    ) -> None:
        self.services = services
        self.seated_here = seated_here
        """Where an account sits at a table run on this node (asked while the bus is down)."""
        self.seat_unknown: set[str] = set()
        """Clients welcomed while the bus was down and no table here had them: their seats, if any,
        are looked up when it is back."""
        self.placement = placement
        self.queue = queue
        self.by_id: dict[str, Connection] = {}
        """client id → connection."""
        self.by_account: dict[int, Connection] = {}
        """account id → its live connection on this node."""
        self.addresses: collections.Counter[str] = collections.Counter()
        """client address → its open connections here."""
        self.notice: NoticeSent | None = None
        """The last notice to everyone (a client that says hello while it lasts gets it too)."""
        self.homing = Homing(services.bus.node_id, services.config.node_hints)
        """When a client at a table on another node is told that node."""
        self._replacing: dict[str, tuple[Connection | None, str | None]] = {}
        """client id → the account's connection it replaces, here or (its id) on another node: closed
        once the new one is attached to the account's table (:meth:`retire_replaced`)."""
        self._batch = Batch()
        self._ids = itertools.count(1)

    def new_id(self) -> str:
        """A fresh id for a connection: ``NODE.BOOT.N``, so other nodes know where to send its
        messages (and no other process of this node ever had it: :attr:`Bus.incarnation`)."""
        return f"{self.services.bus.incarnation}.{next(self._ids)}"

    def connected(self, conn: Connection, address: str) -> bool:
        """A new connection from ``address`` (before its hello); False if that address has too many."""
        limit = self.services.config.connections_per_address
        if limit and self.addresses[address] >= limit:
            return False
        self.addresses[address] += 1
        conn.address = address
        self.by_id[conn.id] = conn
        return True

    def disconnected(self, conn: Connection) -> None:
        """``conn`` closed: forget it (its place is the router's to end)."""
        self.seat_unknown.discard(conn.id)
        if self.by_id.pop(conn.id, None) is not None:
            self.addresses[conn.address] -= 1
            if self.addresses[conn.address] <= 0:
                del self.addresses[conn.address]
        if conn.account is not None:
            if self.by_account.get(conn.account.id) is conn:
                del self.by_account[conn.account.id]
            self.services.bus.connection_closed(conn.account.id, conn.id)

    async def hello(self, conn: Connection, token: str, ref: str | int | None) -> SeatRef | None:
        """Authenticate ``conn`` and welcome it; a second connection of the same account replaces the
        first, here or on another node, and so does its place in the quick-match queue. Where the
        account sits (the caller attaches it there, then calls :meth:`retire_replaced`), or None."""
        if conn.account is not None:
            text = "hello: this connection is already authenticated"
            conn.error("bad_message", text, ref, params={"reason": "already_authenticated"})
            return None
        account = await self.services.accounts.by_token(token)
        if account is None:
            conn.error("bad_token", "hello: unknown or logged-out token", ref)
            return None
        held = await standing(self.services.db, account.id)
        if held.ban is not None:
            self._shut_out(conn, held.ban.reason, held.ban.until_ms, ref)
            return None
        conn.muted = (held.mute.reason, held.mute.until_ms) if held.mute is not None else None
        conn.account, conn.token = account, token
        logs.bind(account=account.id)  # the connection's reader: its lines name the account from now on
        conn.session_ends = await self._session_ends(token)
        place = await self._take_over(conn, account.id)
        queue, then = await self.queue.resume(conn)
        conn.send(
            message(
                "welcome",
                protocol=PROTOCOL_VERSION,
                node=self.services.bus.node_id,
                laogai_confirm=True,
                account=account.to_json(),
                table=place.table_id if place is not None else None,
                seat=place.seat if place is not None else None,
                role=await role_of(self.services.db, account.id),
                queue=queue,
            )
        )
        if ref is not None:
            conn.send(message("ack", ref=ref))
        self._tell_notice(conn)
        if then is not None:
            conn.send(then)
        return place

    @staticmethod
    def _shut_out(conn: Connection, reason: str, until_ms: int | None, ref: str | int | None = None) -> None:
        """Tell ``conn`` its account is banned (why, until when) and close it."""
        text, params = refusal("ban", reason, until_ms)
        conn.error("banned", text, ref, params=params)
        conn.close(CLOSE_BANNED, "banned")

    def on_sanctioned(self, order: Sanctioned) -> None:
        """An account was banned (its connection here is closed at once, saying why and until when),
        muted, or that was lifted."""
        conn = self.by_account.get(order.account_id)
        if conn is None:
            return
        if order.kind == "ban" and order.active:
            self._shut_out(conn, order.reason or "other", order.until_ms)
        elif order.kind == "mute":
            conn.muted = (order.reason or "other", order.until_ms) if order.active else None

    def muted(self, conn: Connection, ref: str | int | None) -> bool:
        """Whether ``conn``'s phrases are muted now; if so it is told why and until when."""
        if conn.muted is None:
            return False
        reason, until_ms = conn.muted
        if until_ms is not None and until_ms <= time.time() * 1000:
            conn.muted = None
            return False
        text, params = refusal("mute", reason, until_ms)
        conn.error("muted", f"phrase: {text}", ref, params=params)
        return True

    def announce(self, notice: NoticeSent) -> None:
        """A notice for everyone: every connection here gets it, and those that come while it lasts."""
        self.notice = notice
        for conn in list(self.by_id.values()):
            if conn.account is not None:
                self._tell_notice(conn)

    def _tell_notice(self, conn: Connection) -> None:
        notice = self.notice
        now_ms = round(time.time() * 1000)
        if notice is not None and notice.ends_ms > now_ms:
            conn.send(message("notice") | notice.to_message(now_ms))  # its own field "kind" is not the type

    def connection_of(self, account_id: int) -> str | None:
        """The client id of the account's connection here, if any."""
        conn = self.by_account.get(account_id)
        return conn.id if conn is not None else None

    async def _session_ends(self, token: str) -> float:
        """When ``token``'s session expires (``time.time()`` seconds; now if it is gone already)."""
        accounts = self.services.accounts
        async with accounts.db.sessions() as session:
            created = await session.scalar(
                select(SessionToken.created_at).where(SessionToken.token_hash == session_id(token))
            )
        if created is None:
            return time.time()
        if created.tzinfo is None:
            created = created.replace(tzinfo=UTC)  # SQLite keeps no zone; the column is UTC
        return (created + accounts.session_life).timestamp()

    def session_over(self, conn: Connection, ref: str | int | None) -> bool:
        """Whether ``conn``'s session has expired; if so it is told and closed (every command checks)."""
        if time.time() < conn.session_ends:
            return False
        text = "your session expired; log in again (this connection is closed)"
        conn.error("bad_token", text, ref, params={"reason": "expired"})
        conn.close(CLOSE_LOGGED_OUT, "session expired")
        return True

    async def _take_over(self, conn: Connection, account_id: int) -> SeatRef | None:
        """``conn`` is the account's connection now, and the one it replaces (here or on another
        node) is to be closed (:meth:`retire_replaced`); where the account sits, if the bus knows."""
        old = self.by_account.get(account_id)
        self.by_account[account_id] = conn
        local = old if old is not None and old is not conn else None
        self._replacing[conn.id] = (local, None)
        bus = self.services.bus
        try:
            other = await bus.connection_opened(account_id, conn.id)
            if other is not None and other != conn.id and node_of(other) != bus.node_id:
                self._replacing[conn.id] = (local, other)
            place = await bus.seat_of(account_id)
        except BusDown:
            here = self.seated_here(account_id)
            if here is None:
                fields = {"account": account_id, "connection": conn.id}
                log.warning("hello: the bus is down; the account's seat is looked up when it is back", extra=fields)
                self.seat_unknown.add(conn.id)
            return here
        return place if place is not None and place.table_id else None  # an empty table id names no table

    def retire_replaced(self, conn: Connection) -> None:
        """``conn`` said hello and is attached to its table, if it has one: the connection of the
        account it replaced is told so and closed now. Not before: that one's close detaches its
        client from the table (R46), which must come after the new client's attach, or the seat
        would go to 託管 (or, before the match, be freed) on the way."""
        here, other = self._replacing.pop(conn.id, (None, None))
        if here is None and other is None:
            return
        replaced = dumps(error_message("session_replaced", "another connection of your account took over"))
        if here is not None:
            here.send_text(replaced)
            here.close(CLOSE_REPLACED)
        if other is not None:
            self.services.bus.close_client(other, CLOSE_REPLACED, replaced)

    def batch(self) -> Batch:
        """Within the block (which must not wait), what :meth:`on_deliver` hands one connection goes
        out in one write when it ends: a table step's ``state`` and ``ack`` to the mover in one send
        syscall, not two."""
        return self._batch

    def on_deliver(self, delivery: Delivery, sender: str | None = None) -> None:
        """A table's message for one of these clients: it moves the client, then joins its outbox; a
        client a table of another node (``sender``) seats or lets watch is told that node."""
        conn = self.by_id.get(delivery.client)
        if conn is None:
            return
        self.placement.apply(delivery.client, delivery.change)
        self._batch.hold(conn)
        conn.send_text(delivery.text)
        if sender is not None and isinstance(delivery.change, AtTable):
            hint = self.homing.hint(conn.hints, delivery.change.table_id, sender)
            if hint is not None:
                conn.send(hint)

    def on_close_client(self, client: str, code: int, text: str) -> None:
        """Send ``text`` to ``client``, then close it with ``code``."""
        conn = self.by_id.get(client)
        if conn is not None:
            conn.send_text(text)
            conn.close(code)

    def on_logout(self, account_id: int, session: str) -> None:
        """Close the account's connection here if it used the logged-out ``session``."""
        conn = self.by_account.get(account_id)
        if conn is not None and conn.token is not None and session_id(conn.token) == session:
            conn.error("bad_token", "you logged out; this connection is closed", params={"reason": "logged_out"})
            conn.close(CLOSE_LOGGED_OUT, "logged out")
