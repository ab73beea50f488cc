"""The lobby list as this node knows it: every open table's summary (all nodes'), the invite codes,
and the clients subscribed to changes, which get them at most every :data:`LOBBY_BATCH_SECONDS`.

Summaries come from the bus (:class:`~tuolaji.server.bus.LobbyList`); the list shows public tables
only (:func:`~tuolaji.server.listing.listing`), and private tables are found by their invite code.
"""

from __future__ import annotations

import asyncio

from tuolaji.server.connection import Connection
from tuolaji.server.listing import InviteIndex, listing
from tuolaji.wire.nodes import Summary
from tuolaji.wire.outbound import dumps, message

LOBBY_BATCH_SECONDS = 0.25
"""Lobby subscribers get a table's changes at most this often (the newest summary wins)."""


class LobbyFeed:
    """Every open table's summary on this node, and the lobby list's subscribers."""

    def __init__(self) -> None:
        self.summaries: dict[str, Summary] = {}
        """Every open table's summary (all nodes; the lobby list shows the public ones)."""
        self.invites = InviteIndex()
        """Invite code → private table id."""
        self.subscribers: set[Connection] = set()
        self._changes: set[str] = set()
        self._flush: asyncio.TimerHandle | None = None

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

    def subscribe(self, conn: Connection, on: bool) -> None:
        """``conn`` wants the lobby list (it gets the whole list now), or no longer (``on`` false)."""
        if on and conn not in self.subscribers:
            self.subscribers.add(conn)
            conn.send(message("lobby", tables=self.table_list()))
        elif not on:
            self.subscribers.discard(conn)

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
        self._changes.add(table_id)
        if self._flush is None and self.subscribers:
            self._flush = asyncio.get_running_loop().call_later(LOBBY_BATCH_SECONDS, self._send_changes)
        elif not self.subscribers:
            self._changes.clear()

    def on_lobby_reset(self, summaries: dict[str, Summary]) -> None:
        """The whole list anew (the bus reconnected): every subscriber gets it."""
        self.summaries = dict(summaries)
        self.invites.reset(self.summaries)
        self._changes.clear()
        text = dumps(message("lobby", tables=self.table_list()))
        for conn in self.subscribers:
            conn.send_text(text)

    def _send_changes(self) -> None:
        self._flush = None
        changes, self._changes = self._changes, set()
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

    def close(self) -> None:
        """Send no more changes (shutdown)."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
