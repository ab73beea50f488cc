"""The lobby list as this node knows it: every open table's summary (all nodes'), the invite codes,
how many people queue for a quick match, and the clients subscribed to changes, which get a table's
at most every :data:`LOBBY_BATCH_SECONDS`.

Summaries come from the bus (:class:`~tuolaji.server.bus.LobbyList`); the list shows public tables
only (:func:`~tuolaji.server.listing.listing`), and private tables are found by their invite code.
"""

from __future__ import annotations

import asyncio
import collections
import time
from typing import Any

from tuolaji.server.connection import Connection
from tuolaji.server.listing import InviteIndex, listing
from tuolaji.wire.nodes import Summary
from tuolaji.wire.outbound import dumps, message
from tuolaji.wire.quick import lobby_queues

LOBBY_BATCH_SECONDS = 0.25
"""Lobby subscribers get a table's changes at most this often (the newest summary wins)."""
RESUBSCRIBE_SECONDS = 2.0
"""A client back on the lobby list within this long of leaving it gets only what changed meanwhile."""
HISTORY = 16
"""Versions of the list whose changed tables are remembered for clients coming back."""
LOBBY_PER_ADDRESS = 10
"""Connections of one client address that may follow the lobby list at once (``--lobby-per-address``)."""


class LobbyFeed:
    """Every open table's summary on this node, and the lobby list's subscribers."""

    def __init__(self) -> None:
        self.summaries: dict[str, Summary] = {}
        """Every open table's summary (all nodes; the lobby list shows the public ones)."""
        self.invites = InviteIndex()
        """Invite code → private table id."""
        self.subscribers: set[Connection] = set()
        self.version = 0
        """The list's version: one more with each batch of changes (sent, or nobody was listening)."""
        self._history: collections.deque[tuple[int, frozenset[str]]] = collections.deque(maxlen=HISTORY)
        """The last versions with the tables each changed: what a client back soon missed."""
        self._left: dict[Connection, tuple[int, float]] = {}
        """Clients that left the list: the version they had and when they left (monotonic)."""
        self._per_address: collections.Counter[str] = collections.Counter()
        self._changes: set[str] = set()
        self._flush: asyncio.TimerHandle | None = None
        self.queues: list[dict[str, Any]] = []
        """How many people queue for a quick match, per preset and kind (``QueueCount``s)."""

    def knows(self, table_id: str) -> bool:
        """Whether ``table_id`` is an open table this node has heard of."""
        return table_id in self.summaries

    def invite_of(self, table_id: str) -> str | None:
        """The invite code of ``table_id`` (a private table), if any."""
        invite = self.summaries.get(table_id, {}).get("invite")
        return invite if isinstance(invite, str) else None

    def table_list(self) -> list[Summary]:
        """Every open public table's lobby entry."""
        return [entry for entry in map(listing, self.summaries.values()) if entry is not None]

    def subscribe(
        self, conn: Connection, on: bool, per_address: int = LOBBY_PER_ADDRESS, ref: str | int | None = None
    ) -> bool:
        """``conn`` wants the lobby list, or no longer (``on`` false); False if it was refused.

        A new subscriber gets the whole list; one back within :data:`RESUBSCRIBE_SECONDS` of leaving
        gets only the tables that changed meanwhile (it still has the rest), so toggling ``lobby``
        resends nothing new. At most ``per_address`` connections of one client address follow the
        list at once (0: no limit); one more is refused with ``lobby_full`` (answering ``ref``)."""
        if not on:
            if conn in self.subscribers:
                self.subscribers.discard(conn)
                self._count(conn.address, -1)
                self._left[conn] = (self.version, time.monotonic())
            return True
        if conn in self.subscribers:
            return True
        if per_address and self._per_address[conn.address] >= per_address:
            text = f"lobby: at most {per_address} connections of one address may follow the lobby list at once"
            conn.error("lobby_full", text, ref, params={"limit": per_address})
            return False
        self.subscribers.add(conn)
        self._count(conn.address, 1)
        missed = self._missed(self._left.pop(conn, None))
        if missed is None:
            conn.send(message("lobby", tables=self.table_list()))
        else:
            for text in self._texts(missed):
                conn.send_text(text)
        conn.send(lobby_queues(self.queues))
        return True

    def set_queues(self, queues: list[dict[str, Any]]) -> None:
        """The quick-match queues' counts now; subscribers hear of a change."""
        if queues == self.queues:
            return
        self.queues = queues
        text = dumps(lobby_queues(queues))
        for conn in self.subscribers:
            conn.send_text(text)

    def forget(self, conn: Connection) -> None:
        """``conn`` closed: it follows the list no more."""
        self.subscribe(conn, False)
        self._left.pop(conn, None)

    def _count(self, address: str, step: int) -> None:
        self._per_address[address] += step
        if self._per_address[address] <= 0:
            del self._per_address[address]

    def _missed(self, left: tuple[int, float] | None) -> set[str] | None:
        """The tables whose changes a client that left at ``left`` (the list's version, the time) did
        not get; None: it gets the whole list (it is new, away too long, or the changes are forgotten)."""
        if left is None or time.monotonic() - left[1] > RESUBSCRIBE_SECONDS:
            return None
        version = left[0]
        if version == self.version:
            return set()
        if not self._history or self._history[0][0] > version + 1:
            return None
        return {table_id for seen, changed in self._history if seen > version for table_id in changed}

    def _record(self, changed: set[str]) -> None:
        """A new version of the list: ``changed`` are the tables that changed since the last."""
        self.version += 1
        self._history.append((self.version, frozenset(changed)))

    def on_summary(self, table_id: str, summary: Summary | None) -> None:
        """A table's lobby entry changed (None: it closed); subscribers hear of it soon."""
        before = self.summaries.get(table_id)
        if summary is None:
            if self.summaries.pop(table_id, None) is None:
                return
        else:
            self.summaries[table_id] = summary
        self.invites.changed(table_id, before, summary)
        if listing(before) is None and listing(summary) is None:
            return  # a private table: the lobby list never hears of it
        if not self.subscribers:
            self._record({table_id})  # nobody to tell now; one who comes back soon is told then
            return
        self._changes.add(table_id)
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_later(LOBBY_BATCH_SECONDS, self._send_changes)

    def on_lobby_reset(self, summaries: dict[str, Summary]) -> None:
        """The whole list anew (the bus reconnected): every subscriber gets it."""
        self.summaries = dict(summaries)
        self.invites.reset(self.summaries)
        self._changes.clear()
        self.version += 1
        self._history.clear()  # whoever comes back gets the whole list
        text = dumps(message("lobby", tables=self.table_list()))
        for conn in self.subscribers:
            conn.send_text(text)

    def _send_changes(self) -> None:
        self._flush = None
        changes, self._changes = self._changes, set()
        self._record(changes)
        texts = self._texts(changes)
        for conn in self.subscribers:
            for text in texts:
                conn.send_text(text)

    def _texts(self, changed: set[str]) -> list[str]:
        """The messages telling how the tables ``changed`` are now (changed, or removed)."""
        texts = []
        for table_id in sorted(changed):
            entry = listing(self.summaries.get(table_id))
            if entry is not None:
                texts.append(dumps(message("lobby_table", table=entry)))
            elif table_id not in self.summaries:
                texts.append(dumps(message("lobby_table_removed", table_id=table_id)))
        return texts

    def close(self) -> None:
        """Send no more changes (shutdown)."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
