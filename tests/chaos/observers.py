"""The table's own witnesses in a chaos run: a spectator of each table company's current table on
every node.

The people of a table see it only through the node each is connected to, and a person whose node is
stopped sees nothing until it finds another node — a table may go on meanwhile (R46: the seat plays
in 託管) and close unseen. So that a stall measures the table and not one person's way back, each
slot has an :class:`Observer` on every node, watching (``watch``) whatever table the slot's first
person sits at now; the stream rules (``Watch.accept``) hold for their states as for the people's,
and their progress marks count with the people's. A node's observer sees nothing while that node is
stopped or down, and comes back to it when it answers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from typing import TYPE_CHECKING

import httpx
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import WebSocketException

from tests.chaos.nodes import Node, connect_to, next_message
from tests.chaos.watch import Message, Stream

if TYPE_CHECKING:
    from tests.chaos.people import Crowd, Slot

REWATCH = 2.0
"""Seconds before a ``watch`` the server refused (the table closed or moves) is sent again."""


class Observer:
    """A spectator of ``slot``'s tables through ``node``; :meth:`run` until :attr:`done`."""

    def __init__(self, crowd: Crowd, slot: Slot, node: Node) -> None:
        self.crowd, self.slot, self.node = crowd, slot, node
        self.name = f"o{slot.index}.{node.name}"
        self.token: str | None = None
        self.done = False
        self.ws: ClientConnection | None = None
        self.stream = Stream()
        self.watching: str | None = None
        self._asked = 0.0
        self._ids = itertools.count(1)

    async def run(self) -> None:
        """Stay connected to this observer's node whenever it runs (until done)."""
        while not self.done:
            if self.node.answering:
                with contextlib.suppress(OSError, TimeoutError, WebSocketException, httpx.HTTPError):
                    if self.token is None:
                        made = await self.crowd.guest_on(self.node)
                        self.token = made[0] if made is not None else None
                    if self.token is not None:
                        await self._session()
            if not self.done:
                await asyncio.sleep(0.5)

    def drop(self) -> None:
        """Cut the connection at once (the node's sockets dropped)."""
        if self.ws is not None:
            self.ws.transport.abort()

    async def _session(self) -> None:
        async with connect_to(self.node) as ws:
            self.ws, self.stream, self.watching = ws, Stream(), None
            self._note("connected")
            try:
                await self._send("hello", token=self.token or "")
                while not self.done:
                    msg = await next_message(ws)
                    if msg is not None:
                        await self._on(msg)
                    await self._follow()
            finally:
                self._note(f"disconnected {ws.close_code}")
                self.ws = None

    def _note(self, text: str) -> None:
        self.crowd.note(self.name, f"s{self.slot.index}.w", self.node, text)

    async def _send(self, kind: str, **fields: object) -> None:
        if self.ws is not None:
            await self.ws.send(json.dumps({"v": 2, "type": kind, "id": next(self._ids), **fields}))

    async def _follow(self) -> None:
        """Watch the slot's table of the moment (a new one when the company moved on)."""
        table = self.slot.table
        now = time.monotonic()
        if table is not None and table != self.watching and now - self._asked > REWATCH:
            self._asked = now
            self.stream = Stream()
            self.watching = table
            self._note(f"> watch {table}")
            await self._send("watch", table=table)

    async def _on(self, msg: Message) -> None:
        kind, watch = msg["type"], self.crowd.watch
        if kind in ("left", "error"):
            self._note(f"< {kind} {msg.get('table_id', '')} {msg.get('reason') or msg.get('code')}")
        if kind == "state" and msg["table_id"] == self.watching:
            watch.counts["observer states"] += 1
            if watch.accept(self.stream, msg, self.name) in ("gap", "refuse"):
                await self._send("sync")
        elif kind == "table" and msg["table"]["id"] == self.watching:
            watch.summary(msg["table"])
        elif kind == "left" and msg["table_id"] == self.watching:
            if msg["reason"] == "closed":
                watch.closed(msg["table_id"])
            self.watching = None
        elif kind == "error" and msg["code"] in ("no_table", "table_moving", "service_unavailable"):
            self.watching = None  # asked again after REWATCH, if the slot still sits there
