"""快速開始 for this node's clients (:class:`QuickMatch`): ``quick_match``, ``cancel_match`` and
``accept_match``; their place in the queue across reconnections (``hello`` on any node takes the
place over), a closed connection (the place is kept a while: ``decide.AWAY_GRACE_MS``), leaving the
queue when they sit down elsewhere, and early leaves of matched tables. The queue is the store's
(``tuolaji.server.queue_store``), the matching the :class:`~tuolaji.server.matcher.Matcher`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Coroutine
from typing import Any

from tuolaji.game.settlement import rank_level
from tuolaji.matching import decide
from tuolaji.matching.entries import QueueEntry, QueueKey, Seeker
from tuolaji.server.bus import BusDown
from tuolaji.server.connection import Connection
from tuolaji.server.feed import LobbyFeed
from tuolaji.server.hosting import Hosting
from tuolaji.server.matcher import Matcher, now_ms
from tuolaji.server.placement import Placement
from tuolaji.server.queue_store import AlreadyQueued, QueueStore
from tuolaji.server.seatgate import SeatGate
from tuolaji.server.tablehost import player_of
from tuolaji.wire.inbound import AcceptMatch, CancelMatch, ClientMessage, SeekMatch
from tuolaji.wire.outbound import message
from tuolaji.wire.quick import match_cancelled, match_found, match_status, queue_status

PAIR_BYTES = 9
"""Random bytes of a partner code (``secrets.token_urlsafe``: 12 characters)."""


class QuickMatch:
    """This node's clients in the quick match; see the module docstring."""

    def __init__(self, hosting: Hosting, placement: Placement, feed: LobbyFeed) -> None:
        self.store: QueueStore = hosting.services.queue
        self.accounts = hosting.services.accounts
        self.placement = placement
        self.gate = SeatGate(hosting.bus, hosting.services)
        self.matcher = Matcher(hosting, feed)
        self._background: set[asyncio.Task[Any]] = set()

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def handle(
        self, conn: Connection, msg: ClientMessage, request: SeekMatch | CancelMatch | AcceptMatch
    ) -> None:
        """One of the quick match's requests from ``conn`` (signed in)."""
        try:
            match request:
                case SeekMatch():
                    await self._seek(conn, msg, request)
                case CancelMatch():
                    await self._cancel(conn, msg)
                case AcceptMatch(match_id):
                    await self._accept(conn, msg, match_id)
        except BusDown:
            text = f"{msg.type}: the card room's coordinator (Redis) is unreachable; nobody can be matched now"
            conn.error("service_unavailable", text, msg.id, params={"type": msg.type})

    async def _seek(self, conn: Connection, msg: ClientMessage, request: SeekMatch) -> None:
        account = conn.account
        assert account is not None
        if self.placement.busy(conn.id):
            text = f"{msg.type}: leave your current table first"
            conn.error("already_seated", text, msg.id, params={"table": self.placement.where(conn.id)})
            return
        if not await self.gate.may_sit(conn, msg):
            return
        now = now_ms()
        account = await self.accounts.get(account.id) or account  # its rank now, not at its hello
        seeker = Seeker(player_of(account), conn.id, rank_level(account.points), request.avoid)
        try:
            if request.partner is not None:
                entry = await self.store.join_pair(request.partner, seeker)
                if entry is None:
                    conn.error("bad_pair", f"{msg.type}: no player waits for a partner with this code", msg.id)
                    return
            else:
                entry = self._entry(seeker, request, now + await self.store.leave_wait(account.id, now), now)
                await self.store.put(entry)
        except AlreadyQueued as queued:
            text = f"{msg.type}: you are queueing already; cancel_match first"
            conn.error("already_queued", text, msg.id, params=queued.held.entry.key.to_json())
            return
        if msg.id is not None:
            conn.send(message("ack", ref=msg.id))
        size = sum(item.people for item in await self.store.entries() if item.key == entry.key)
        wait = decide.estimate_ms(await self.store.recent_waits(entry.key), 0, entry.bots_after_ms)
        for person in entry.seekers:
            status = queue_status(entry, person.account_id, now, size, wait)
            self.matcher.tell(person.client, match_status(status))
        self.matcher.kick()

    @staticmethod
    def _entry(seeker: Seeker, request: SeekMatch, not_before_ms: int, now: int) -> QueueEntry:
        return QueueEntry(
            secrets.token_hex(6),
            QueueKey(request.preset, request.kind),
            (seeker,),
            now,
            None if request.bots_after is None else request.bots_after * 1000,
            request.bot,
            not_before_ms,
            secrets.token_urlsafe(PAIR_BYTES) if request.pair else None,
        )

    async def _cancel(self, conn: Connection, msg: ClientMessage) -> None:
        assert conn.account is not None
        if not await self.withdraw(conn.account.id, "cancelled"):
            conn.error("not_queued", f"{msg.type}: you are not queueing", msg.id)
        elif msg.id is not None:
            conn.send(message("ack", ref=msg.id))

    async def withdraw(self, account_id: int, reason: str) -> bool:
        """``account_id`` leaves the queue (with its partner, who is told): it cancelled, or it sits
        down elsewhere (``reason``); whether it was queueing."""
        held = await self.store.remove(account_id)
        if held is None:
            return False
        for seeker in held.entry.seekers:
            told = reason if seeker.account_id == account_id else "partner_cancelled"
            self.matcher.tell(seeker.client, match_cancelled(told))
        return True

    async def _accept(self, conn: Connection, msg: ClientMessage, match_id: str) -> None:
        assert conn.account is not None
        answer = await self.store.answer(match_id, conn.account.id, conn.id, now_ms())
        if answer.status == "gone":
            conn.error("match_gone", f"{msg.type}: this match is over", msg.id, params={"match": match_id})
            return
        if msg.id is not None:
            conn.send(message("ack", ref=msg.id))
        if answer.match is not None and answer.clients is not None:
            await self.matcher.seat(answer.match, answer.clients)

    async def resume(self, conn: Connection) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """``conn`` says hello: if its account is queueing, the place is this connection's now. Its
        ``QueueStatus`` for the ``welcome`` (None: not queueing) and what to send after the welcome
        (the ``match_found`` of a match it is in, which it has still to answer), if anything."""
        assert conn.account is not None
        try:
            held = await self.store.rebind(conn.account.id, conn.id)
        except BusDown:
            return None, None
        if held is None:
            return None, None
        now = now_ms()
        status = queue_status(held.entry, conn.account.id, now, 0, None)
        if held.match is None:
            return status, None
        return status, match_found(held.match, max(0, held.match.deadline_ms - now))

    def disconnected(self, conn: Connection) -> None:
        """``conn`` closed: its place in the queue is kept a while, for it to come back."""
        if conn.account is not None:
            self._spawn(self._quietly(self.store.away(conn.account.id, conn.id, now_ms())))

    def left(self, conn: Connection, table_id: str) -> None:
        """``conn`` leaves ``table_id``: an early leave of a matched table counts (``MatchLeaves``)."""
        if conn.account is not None:
            self._spawn(self._quietly(self.store.left(conn.account.id, table_id, now_ms())))

    @staticmethod
    async def _quietly(work: Coroutine[Any, Any, None]) -> None:
        with contextlib.suppress(BusDown):  # Redis is down: the place stays as it was
            await work
