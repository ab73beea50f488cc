"""Taking a seat or a spectator's chair: ``create_table``, ``play_now``, ``join`` and ``watch``.

Before a request reaches a table the lobby checks what only it can: the client is not at a table
already, the account is not seated elsewhere (the bus's seat index, claimed here), it has not taken
too many seats in a row, and it is not waiting after an escape (R43) (``tuolaji.server.seatgate``). A
client that queued for a quick match leaves the queue. The table decides the rest and its answer (a
``table`` message, or a refusal) ends the request (``tuolaji.server.placement``).
"""

from __future__ import annotations

import contextlib
import secrets
import time

from tuolaji.game.options import OptionError, TableOptions
from tuolaji.server.bus import BusDown
from tuolaji.server.connection import Connection
from tuolaji.server.courier import Courier
from tuolaji.server.feed import LobbyFeed
from tuolaji.server.hosting import Hosting
from tuolaji.server.limits import TableLimiter
from tuolaji.server.placement import Placement
from tuolaji.server.quickmatch import QuickMatch
from tuolaji.server.seatgate import SeatGate
from tuolaji.server.tablehost import player_of
from tuolaji.wire.inbound import ClientMessage, NewTable, TakeSeat
from tuolaji.wire.nodes import TableOpening

INVITE_BYTES = 12
"""Random bytes of a private table's invite code (``secrets.token_urlsafe``: 16 characters, 96 bits)."""


class Admission:
    """Creates tables and takes join and watch requests to them."""

    def __init__(
        self, hosting: Hosting, placement: Placement, feed: LobbyFeed, courier: Courier, quick: QuickMatch
    ) -> None:
        self.hosting = hosting
        self.bus = hosting.bus
        self.placement = placement
        self.feed = feed
        self.courier = courier
        self.quick = quick
        self.gate: SeatGate = quick.gate
        self.table_limiter = TableLimiter(hosting.services.config.tables_per_minute)

    def _already_seated(self, conn: Connection, msg: ClientMessage, table_id: str | None) -> None:
        conn.error("already_seated", f"{msg.type}: leave your current table first", msg.id, params={"table": table_id})

    def _unavailable(self, conn: Connection, msg: ClientMessage, text: str) -> None:
        conn.error("service_unavailable", f"{msg.type}: {text}", msg.id, params={"type": msg.type})

    async def join_or_watch(self, conn: Connection, msg: ClientMessage, request: TakeSeat) -> None:
        """A ``join`` or ``watch`` (``msg``, asking ``request``): checked here, then asked of the table
        (here or on its node)."""
        assert conn.account is not None
        kind, ref, joining = msg.type, msg.id, not request.watching
        table_id = self._table_named(conn, msg, request)
        if table_id is None:
            return
        place = self.placement.at(conn.id)
        sitting_down = joining and place is not None and place.watching and place.table_id == table_id
        # A table this node has not heard of yet may be brand new on another node: ask its owner.
        known = self.feed.knows(table_id) or table_id in self.hosting.hosts
        if (place is not None and not sitting_down) or self.placement.asked(conn.id) is not None:
            if not known:
                conn.error("no_table", f"{kind}: no table {table_id!r}", ref, params={"table": table_id})
            else:
                self._already_seated(conn, msg, self.placement.where(conn.id))
            return
        if joining and not await self._claim(conn, msg, table_id):
            return
        await self._leave_queue(conn)
        self.placement.ask(conn.id, table_id)
        if not await self.courier.route(conn, table_id, msg, quiet=not known):
            self.placement.cancel(conn.id)
            if joining:
                self.bus.seat_changed(conn.account.id, table_id, None)
            if not known:
                conn.error("no_table", f"{kind}: no table {table_id!r}", ref, params={"table": table_id})

    async def _claim(self, conn: Connection, msg: ClientMessage, table_id: str) -> bool:
        """Whether ``conn``'s account may sit at ``table_id`` now; if so its seat is claimed."""
        assert conn.account is not None
        if not await self.gate.may_sit(conn, msg):
            return False
        try:
            current = await self.bus.claim_seat(conn.account.id, table_id)
        except BusDown:
            self._unavailable(conn, msg, "the card room's coordinator (Redis) is unreachable; nobody can sit down now")
            return False
        if current is not None:
            self._already_seated(conn, msg, current.table_id)
            return False
        return True

    async def _leave_queue(self, conn: Connection) -> None:
        """Taking a seat or a spectator's chair leaves the quick-match queue (the client is told)."""
        assert conn.account is not None
        with contextlib.suppress(BusDown):  # else the entry stays: its match cannot claim this seat, and it goes
            await self.quick.withdraw(conn.account.id, "seated")

    def _table_named(self, conn: Connection, msg: ClientMessage, request: TakeSeat) -> str | None:
        """The table a ``join`` or ``watch`` names by its id or its invite code (None: refused)."""
        table_id, invite = request.table, request.invite
        if table_id is None and invite is not None:
            table_id = self.feed.invites.table_of(invite)
            if table_id is None:
                conn.error("bad_invite", f"{msg.type}: no open table has this invite code", msg.id)
        elif table_id is None:
            params = {"reason": "missing_field", "type": msg.type, "field": "table"}
            text = f"{msg.type}: give the table's id (table) or its invite code (invite)"
            conn.error("bad_message", text, msg.id, params=params)
        return table_id

    async def create(self, conn: Connection, msg: ClientMessage, request: NewTable) -> None:
        """``create_table`` or ``play_now`` (``msg``, asking ``request``): a new table here (or on
        another node while this one drains), its creator seated (and three bots)."""
        account = conn.account
        assert account is not None
        if self.placement.busy(conn.id):
            self._already_seated(conn, msg, self.placement.where(conn.id))
            return
        if not self._may_open(conn, msg) or not await self.gate.may_sit(conn, msg):
            return
        options = self._options(conn, msg, request)
        if options is None:
            return
        await self._leave_queue(conn)
        table_id = "t" + secrets.token_hex(5)
        player = player_of(account)
        invite = secrets.token_urlsafe(INVITE_BYTES) if request.private else None
        opening = TableOpening(table_id, options.to_json(), conn.id, player, request.seat, request.bot, invite, msg.id)
        try:
            current = await self.bus.claim_seat(account.id, table_id)
            if current is not None:
                self._already_seated(conn, msg, current.table_id)
                return
            self.placement.ask(conn.id, table_id)
            await self.hosting.openings.open(opening)
        except BusDown:
            self.placement.cancel(conn.id)
            self.bus.seat_changed(account.id, table_id, None)
            text = "new tables are refused while the card room's coordinator (Redis) is unreachable"
            self._unavailable(conn, msg, text)

    def _may_open(self, conn: Connection, msg: ClientMessage) -> bool:
        """Whether ``conn``'s address may open another table now (``table_limiter``); else it is told why."""
        retry = self.table_limiter.check(conn.address, time.monotonic())
        if retry is None:
            return True
        self.hosting.services.metrics.refused("tables")
        limit = self.table_limiter.burst
        text = f"{msg.type}: at most {limit:g} new tables a minute from one address; try again in {retry} s"
        conn.error("rate_limited", text, msg.id, params={"reason": "tables", "seconds": retry, "limit": limit})
        return False

    def _options(self, conn: Connection, msg: ClientMessage, request: NewTable) -> TableOptions | None:
        """The new table's options (the defaults, overridden by the request's); None: refused."""
        try:
            return TableOptions.from_json({**TableOptions().to_json(), **request.options})
        except (OptionError, TypeError) as error:
            params = error.params if isinstance(error, OptionError) else {"reason": "bad_value"}
            conn.error("bad_options", f"{msg.type}: {error}", msg.id, params=params)
            return None
