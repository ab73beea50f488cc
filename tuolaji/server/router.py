"""Routes this node's client messages: ``hello``, ``ping`` and ``lobby`` here; creating, joining and
watching through :class:`~tuolaji.server.admission.Admission`; the quick match's through
:class:`~tuolaji.server.quickmatch.QuickMatch`; every other message to the table the
client is at (``tuolaji.server.courier``). It also takes the clients back to their tables when a table
moves to another node or the bus returns, and tells their tables when they disconnect (R46)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from tuolaji.server.admission import Admission
from tuolaji.server.bus import BusDown
from tuolaji.server.clients import Clients
from tuolaji.server.connection import Connection
from tuolaji.server.courier import Courier
from tuolaji.server.feed import LobbyFeed
from tuolaji.server.hosting import Hosting
from tuolaji.server.placement import Place, Placement
from tuolaji.server.quickmatch import QuickMatch
from tuolaji.server.tablehost import player_of
from tuolaji.wire.inbound import (
    AcceptMatch,
    CancelMatch,
    ClientMessage,
    Hello,
    NewTable,
    Ping,
    SeekMatch,
    Subscribe,
    TakeSeat,
)
from tuolaji.wire.nodes import Envelope, LeftTable
from tuolaji.wire.outbound import message

log = logging.getLogger(__name__)

ATTACH_RETRY_SECONDS = 2.0
"""A client sent to its table (after ``hello``, or when the table moved) that has not heard from the
table after this long is sent again: between nodes the message may have been lost."""
ATTACH_TRIES = 8


class Router:
    """Where each client message of this node goes."""

    def __init__(
        self,
        clients: Clients,
        placement: Placement,
        feed: LobbyFeed,
        hosting: Hosting,
        courier: Courier,
        quick: QuickMatch,
    ) -> None:
        self.clients = clients
        self.placement = placement
        self.feed = feed
        self.hosting = hosting
        self.courier = courier
        self.quick = quick
        self.admission = Admission(hosting, placement, feed, courier, quick)
        self._background: set[asyncio.Task[Any]] = set()

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def dispatch(self, conn: Connection, msg: ClientMessage) -> None:
        """Route one validated client message."""
        if not self.dispatch_now(conn, msg):
            await self.dispatch_later(conn, msg)

    def dispatch_now(self, conn: Connection, msg: ClientMessage) -> bool:
        """Route ``msg`` if that needs no waiting (refusals, ``ping``, the lobby, a message for a table
        of this node): True. False, having done nothing but what must come first, if it needs
        :meth:`dispatch_later` (``hello``, creating, joining, watching, the quick match, a table on
        another node); the client's later messages wait for it."""
        kind, ref, request = msg.type, msg.id, msg.request
        if isinstance(request, Hello):
            return False
        if conn.account is not None and self.clients.session_over(conn, ref):
            return True
        if isinstance(request, Ping):
            conn.send(message("pong", ref=ref) if ref is not None else message("pong"))
            return True
        if conn.account is None:
            conn.error("auth_required", f"{kind}: send hello with your token first", ref, params={"type": kind})
            return True
        if self.hosting.stopping:
            text = f"{kind}: the server is restarting; try again in a moment"
            conn.error("server_restarting", text, ref, params={"type": kind})
            return True
        match request:
            case Subscribe(on):
                limit = self.hosting.services.config.lobby_per_address
                if not self.feed.subscribe(conn, on, limit, ref):
                    self.hosting.services.metrics.refused("lobby")
                elif ref is not None:
                    conn.send(message("ack", ref=ref))
                return True
            case None:
                return self._at_table_now(conn, msg)
        return False

    async def dispatch_later(self, conn: Connection, msg: ClientMessage) -> None:
        """Route a message :meth:`dispatch_now` left."""
        match msg.request:
            case Hello(token):
                await self._hello(conn, token, msg.id)
            case NewTable() as request:
                await self.admission.create(conn, msg, request)
            case TakeSeat() as request:
                await self.admission.join_or_watch(conn, msg, request)
            case SeekMatch() | CancelMatch() | AcceptMatch() as request:
                await self.quick.handle(conn, msg, request)
            case None:
                place = self._place(conn, msg)
                if place is not None:
                    await self.courier.route(conn, place.table_id, msg)

    def _at_table_now(self, conn: Connection, msg: ClientMessage) -> bool:
        """A message for the table the client is at: refused, or posted to its host here (True); False
        if the table runs on another node."""
        place = self._place(conn, msg)
        if place is None:
            return True
        if msg.type == "phrase" and self.clients.muted(conn, msg.id):
            return True
        if msg.type == "leave":
            self.placement.stop_watching(conn.id)
            if not place.watching:
                self.quick.left(conn, place.table_id)
        return self.courier.route_now(conn, place.table_id, msg)

    def _place(self, conn: Connection, msg: ClientMessage) -> Place | None:
        """Where the client is, for a table message; None (and ``not_seated``) if at no table."""
        place = self.placement.at(conn.id)
        if place is None:
            conn.error("not_seated", f"{msg.type}: you are not at a table", msg.id, params={"table": None})
        return place

    async def _hello(self, conn: Connection, token: str, ref: str | int | None) -> None:
        """Authenticate; a seated account's connection attaches to its table, and only then is the
        connection it replaced closed (``Clients.retire_replaced``)."""
        try:
            place = await self.clients.hello(conn, token, ref)
            if place is not None and conn.account is not None:
                self.placement.seated(conn.id, place.table_id)
                envelope = Envelope("attach", conn.id, player_of(conn.account))
                await self.courier.send(place.table_id, envelope)
                self._spawn(self._until_heard(conn, place.table_id, envelope))
        finally:
            self.clients.retire_replaced(conn)

    async def _until_heard(self, conn: Connection, table_id: str, envelope: Envelope) -> None:
        """Send ``envelope`` (an attach or a watch) to ``table_id`` again while the client has not
        heard from the table: a message between nodes may be lost (Redis restarting, a node's
        connection cut), and a seat whose player came back unheard would be taken at the hand's end
        (R46)."""
        for _ in range(ATTACH_TRIES):
            await asyncio.sleep(ATTACH_RETRY_SECONDS)
            if conn.closed.is_set() or self.placement.waiting(conn.id) != table_id:
                return
            if not await self._still_open(table_id):
                self._closed_meanwhile(conn, table_id)
                return
            await self.courier.send(table_id, envelope)

    async def _still_open(self, table_id: str) -> bool:
        """Whether ``table_id`` is open in the database (when the database does not answer: taken as
        open, and asked again at the next try)."""
        try:
            return await self.hosting.services.table_log.is_open(table_id)
        except Exception as error:
            log.warning("could not ask whether a table is open", extra={"table": table_id, "error": repr(error)})
            return True

    def _closed_meanwhile(self, conn: Connection, table_id: str) -> None:
        """``conn`` was sent to ``table_id``, which closed meanwhile: a seat the bus still named (its
        node's unseat lost on the way, e.g. Redis cut off just then) is given up, and the client is
        told, as at any close, so that it finds another table instead of waiting for this one."""
        place = self.placement.at(conn.id)
        self.placement.apply(conn.id, LeftTable(table_id))
        if conn.account is not None and place is not None and not place.watching:
            self.hosting.bus.seat_changed(conn.account.id, table_id, None)
        log.warning("sent to a table that had closed meanwhile", extra={"table": table_id, "connection": conn.id})
        conn.send(message("left", table_id=table_id, reason="closed"))

    def disconnected(self, conn: Connection) -> None:
        """A connection closed: unsubscribe it and tell its table (R46), unless the server is stopping."""
        self.feed.forget(conn)
        self.clients.disconnected(conn)
        self.quick.disconnected(conn)
        tables = self.placement.forget(conn.id)
        if self.hosting.stopping:
            return
        for table_id in tables:
            self._spawn(self.courier.send(table_id, Envelope("detach", conn.id)))

    def on_moved(self, table_id: str) -> None:
        """Another node now runs ``table_id``: this node's clients at it attach (or watch) there again."""
        for client, place in self.placement.at_table(table_id):
            conn = self.clients.by_id.get(client)
            if conn is None or conn.account is None:
                continue
            player = player_of(conn.account)
            if place.watching:
                envelope = Envelope("watch", client, player, invite=self.feed.invite_of(table_id))
            else:
                envelope = Envelope("attach", client, player)
            self.placement.unheard(client)
            self._spawn(self._attach(conn, table_id, envelope))

    async def _attach(self, conn: Connection, table_id: str, envelope: Envelope) -> None:
        await self.courier.send(table_id, envelope)
        await self._until_heard(conn, table_id, envelope)

    def on_bus_restored(self) -> None:
        """Messages between nodes may have been lost: this node's clients at other nodes' tables get
        their full picture again, and so do other nodes' clients at the tables here."""
        for table_id in self.placement.tables() - set(self.hosting.hosts):
            self.on_moved(table_id)
        self.hosting.resync_remote()
        self._spawn(self._find_seats())

    async def _find_seats(self) -> None:
        """The clients welcomed while the bus was down go to their seats, if they have any (their
        welcome said no table: the bus could not tell)."""
        unknown, self.clients.seat_unknown = self.clients.seat_unknown, set()
        for client in sorted(unknown):
            conn = self.clients.by_id.get(client)
            if conn is None or conn.account is None or self.placement.busy(client):
                continue
            try:
                place = await self.hosting.bus.seat_of(conn.account.id)
            except BusDown:
                self.clients.seat_unknown.add(client)
                continue
            if place is not None and place.table_id:
                self.placement.seated(client, place.table_id)
                self._spawn(self._attach(conn, place.table_id, Envelope("attach", client, player_of(conn.account))))
