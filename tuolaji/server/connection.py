"""One WebSocket client: a bounded outbox drained by a writer task, and a per-connection rate limit.

Tables and the lobby never await a client: they ``send`` into the outbox, so a slow or dead
client cannot hold up a table. A client whose outbox overflows is disconnected.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from tuolaji.server.limits import RATE_BURST, RATE_PER_SECOND, RateLimiter
from tuolaji.server.protocol import error_message

if TYPE_CHECKING:
    from tuolaji.store.accounts import AccountData

OUTBOX_LIMIT = 2000
"""Queued messages a client may fall behind by before it is disconnected."""
FLOOD_LIMIT = 200
"""Dropped messages after which a flooding connection is closed (1008)."""
CLOSE_REPLACED = 4001
CLOSE_POLICY = 1008
CLOSE_RESTART = 1012
"""Service restart (RFC 6455): the server is restarting; reconnect."""


class Connection:
    """A client connection: its ``id`` (how tables address it), who it is, and its outgoing queue."""

    def __init__(
        self, websocket: WebSocket, client_id: str, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST
    ) -> None:
        self.websocket = websocket
        self.id = client_id
        self.account: AccountData | None = None
        self.token: str | None = None
        self.limiter = RateLimiter(rate, burst)
        self.closed = asyncio.Event()
        self._outbox: collections.deque[str] = collections.deque()
        self._close_code: int | None = None
        self._wakeup: asyncio.Future[None] | None = None
        self._writer = asyncio.create_task(self._write())

    def send(self, body: dict[str, Any]) -> None:
        """Queue a message (never blocks); a client too far behind is disconnected."""
        self.send_text(json.dumps(body, ensure_ascii=False, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Queue an already encoded message."""
        if self.closed.is_set():
            return
        if len(self._outbox) >= OUTBOX_LIMIT:
            self.close(CLOSE_POLICY)
            return
        self._outbox.append(text)
        self._wake()

    def error(
        self,
        code: str,
        text: str,
        ref: str | int | None = None,
        rule: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        """Queue an ``error`` message (``params`` let the client word it, docs/PROTOCOL.md §2.5)."""
        self.send(error_message(code, text, ref, rule, params))

    def close(self, code: int = 1000) -> None:
        """Flush what is queued, then close the socket with ``code``."""
        if not self.closed.is_set():
            self.closed.set()
            self._close_code = code
            self._wake()

    def _wake(self) -> None:
        waiter = self._wakeup
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def _write(self) -> None:
        """Send what is queued, oldest first, then wait for more; after ``close`` flush and close the socket."""
        outbox = self._outbox
        send = self.websocket.send
        try:
            while True:
                while outbox:
                    await send({"type": "websocket.send", "text": outbox.popleft()})
                if self._close_code is not None:
                    if self._open():
                        await self.websocket.close(self._close_code)
                    return
                self._wakeup = asyncio.get_running_loop().create_future()
                await self._wakeup
                self._wakeup = None
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed.set()

    def _open(self) -> bool:
        return (
            self.websocket.application_state is WebSocketState.CONNECTED
            and self.websocket.client_state is WebSocketState.CONNECTED
        )

    async def drain(self, timeout: float = 2.0) -> None:
        """After the reader is done: flush what is queued and close, or give up after ``timeout``."""
        self.close()
        try:
            await asyncio.wait_for(asyncio.shield(self._writer), timeout)
        except TimeoutError:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
