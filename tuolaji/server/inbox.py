"""A connection's text messages, taken as they arrive (``wsframes.TEXT_IN``, or the ASGI ``receive``).

Each is admitted first (the rate limit, then JSON and the protocol: ``tuolaji.wire.inbound``), then
routed at once when that needs no waiting (``Router.dispatch_now``: a move for a table of this node,
``ping``, the lobby, every refusal), or by a task of the connection's own when it does (``hello``,
creating, joining, the quick match, a table on another node). Messages behind one that waits wait
too, so the client's messages are carried out in the order it sent them.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections import deque
from typing import Final

from tuolaji.server.connection import CLOSE_POLICY, FLOOD_LIMIT, Connection
from tuolaji.server.lobby import Lobby
from tuolaji.wire.inbound import ClientMessage, ProtocolError, parse_client_message

log = logging.getLogger(__name__)

MAX_WAITING: Final = 64
"""Messages that may wait behind one being carried out (a ``hello`` reading the database); more are
dropped with ``rate_limited``, so a client cannot pile them up."""


class Inbox:
    """The messages of one connection, in the order its client sent them."""

    def __init__(self, conn: Connection, lobby: Lobby) -> None:
        self.conn = conn
        self.lobby = lobby
        self._waiting: deque[tuple[ClientMessage, bool]] = deque()
        """Messages not carried out yet, each with whether :meth:`Router.dispatch_now` has had it."""
        self._task: asyncio.Task[None] | None = None
        self.context = contextvars.copy_context()
        """The connection's log context (its ``connection``, and its ``account`` once ``hello`` binds
        it): every message is carried out in it, wherever the protocol hands it over."""

    def take(self, text: str) -> None:
        """One text message from the client: refused, carried out, or queued behind one that waits."""
        self.context.run(self._take, text)

    def _take(self, text: str) -> None:
        conn = self.conn
        if conn.closed.is_set():
            return
        msg = self._admit(text)
        if msg is None:
            return
        if self._waiting:
            if len(self._waiting) >= MAX_WAITING:
                self.lobby.services.metrics.refused("messages")
                params = {"reason": "dropped"}
                conn.error("rate_limited", "too many messages waiting; this one was dropped", msg.id, params=params)
                return
            self._waiting.append((msg, False))
            return
        try:
            if self.lobby.router.dispatch_now(conn, msg):
                return
        except Exception:
            self._failed(msg)
            return
        self._waiting.append((msg, True))
        self._task = asyncio.get_running_loop().create_task(self._carry_out(), context=self.context)

    async def finish(self) -> None:
        """Wait for the message being carried out, if any (the connection is ending: nothing after it)."""
        if self._task is not None:
            await self._task

    def _admit(self, text: str) -> ClientMessage | None:
        """``text`` as a message, or None: refused by the rate limit (past it the connection closes)
        or as not valid, the client told why."""
        conn, metrics = self.conn, self.lobby.services.metrics
        if not conn.limiter.allow():
            if conn.limiter.dropped >= FLOOD_LIMIT:
                metrics.refused("flood")
                conn.error("rate_limited", "too many messages; closing the connection", params={"reason": "closing"})
                conn.close(CLOSE_POLICY)
            else:
                metrics.refused("messages")
                conn.error("rate_limited", "too many messages; this one was dropped", params={"reason": "dropped"})
            return None
        try:
            return parse_client_message(text)
        except ProtocolError as error:
            conn.error(error.code, str(error), error.ref, error.rule, error.params)
            return None

    async def _carry_out(self) -> None:
        """Carry out the waiting messages in order until none is left (or the connection closed)."""
        router = self.lobby.router
        while self._waiting and not self.conn.closed.is_set():
            msg, tried = self._waiting[0]
            try:
                if tried:
                    await router.dispatch_later(self.conn, msg)
                else:
                    await router.dispatch(self.conn, msg)
            except Exception:
                self._failed(msg)
            self._waiting.popleft()
        self._waiting.clear()
        self._task = None

    def _failed(self, msg: ClientMessage) -> None:
        self.lobby.services.metrics.error("message")
        log.exception("error while handling a client's message", extra={"type": msg.type})
        self.conn.error("internal", "internal server error", msg.id)
