"""This node's connected clients: the registry (by client id, by account, per address), ``hello``
and the session it may replace, logging out, and what the bus delivers to them.

A client's place (``tuolaji.server.placement``) changes here only with the place change a delivery
carries, as the message reaches the client's outbox.
"""

from __future__ import annotations

import collections
import itertools
import logging
import time
from collections.abc import Callable
from datetime import UTC

from sqlalchemy import select

from tuolaji.server.bus import BusDown, node_of
from tuolaji.server.connection import CLOSE_LOGGED_OUT, CLOSE_REPLACED, Connection
from tuolaji.server.placement import Placement
from tuolaji.server.services import Services
from tuolaji.store.accounts import session_id
from tuolaji.store.models import SessionToken
from tuolaji.wire.nodes import Delivery, SeatRef
from tuolaji.wire.outbound import PROTOCOL_VERSION, dumps, error_message, message

log = logging.getLogger(__name__)


class Clients:
    """The connections of this node (one live connection per account)."""

    def __init__(self, services: Services, placement: Placement, seated_here: Callable[[int], SeatRef | None]) -> None:
        self.services = services
        self.seated_here = seated_here
        """Where an account sits at a table run on this node (asked while the bus is down)."""
        self.seat_unknown: set[str] = set()
        """Clients welcomed while the bus was down and no table here had them: their seats, if any,
        are looked up when it is back."""
        self.placement = placement
        self.by_id: dict[str, Connection] = {}
        """client id → connection."""
        self.by_account: dict[int, Connection] = {}
        """account id → its live connection on this node."""
        self.addresses: collections.Counter[str] = collections.Counter()
        """client address → its open connections here."""
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
        first. Where the account sits (the caller attaches it there), or None."""
        if conn.account is not None:
            text = "hello: this connection is already authenticated"
            conn.error("bad_message", text, ref, params={"reason": "already_authenticated"})
            return None
        account = await self.services.accounts.by_token(token)
        if account is None:
            conn.error("bad_token", "hello: unknown or logged-out token", ref)
            return None
        conn.account, conn.token = account, token
        conn.session_ends = await self._session_ends(token)
        place = await self._take_over(conn, account.id)
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
        return place

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
        """``conn`` is the account's connection now: close the one it replaces (here or on another
        node); where the account sits, if the bus knows."""
        replaced = dumps(error_message("session_replaced", "another connection of your account took over"))
        old = self.by_account.get(account_id)
        self.by_account[account_id] = conn
        if old is not None and old is not conn:
            old.send_text(replaced)
            old.close(CLOSE_REPLACED)
        bus = self.services.bus
        try:
            other = await bus.connection_opened(account_id, conn.id)
            if other is not None and other != conn.id and node_of(other) != bus.node_id:
                bus.close_client(other, CLOSE_REPLACED, replaced)
            place = await bus.seat_of(account_id)
        except BusDown:
            here = self.seated_here(account_id)
            if here is None:
                log.warning("hello of account %d: the bus is down; its seat is looked up when it is back", account_id)
                self.seat_unknown.add(conn.id)
            return here
        return place if place is not None and place.table_id else None  # an empty table id names no table

    def on_deliver(self, delivery: Delivery) -> None:
        """A table's message for one of these clients: it moves the client, then joins its outbox."""
        conn = self.by_id.get(delivery.client)
        if conn is None:
            return
        self.placement.apply(delivery.client, delivery.change)
        conn.send_text(delivery.text)

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
