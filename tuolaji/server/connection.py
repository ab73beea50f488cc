"""One WebSocket client: a bounded outbox drained by a writer task, and a per-connection rate limit.

Tables and the lobby never await a client: they ``send`` into the outbox, so a slow or dead
client cannot hold up a table. A client whose outbox overflows is disconnected.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from tuolaji.server.protocol import error_message

if TYPE_CHECKING:
    from tuolaji.server.table import TableActor
    from tuolaji.store.accounts import AccountData

OUTBOX_LIMIT = 2000
"""Queued messages a client may fall behind by before it is disconnected."""
RATE_PER_SECOND = 100.0
RATE_BURST = 200.0
FLOOD_LIMIT = 200
"""Dropped messages after which a flooding connection is closed (1008)."""
CLOSE_REPLACED = 4001
CLOSE_POLICY = 1008


class RateLimiter:
    """A token bucket: ``rate`` messages per second, bursts of ``burst``."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()
        self.dropped = 0

    def allow(self) -> bool:
        """Take one token; False (and count a drop) if the bucket is empty."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        return False


class Connection:
    """A client connection: who it is, where it sits, and its outgoing queue."""

    def __init__(self, websocket: WebSocket, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.websocket = websocket
        self.account: AccountData | None = None
        self.token: str | None = None
        self.table: TableActor | None = None
        self.seat: int | None = None
        self.lobby = False
        self.limiter = RateLimiter(rate, burst)
        self.closed = asyncio.Event()
        self._outbox: asyncio.Queue[tuple[str, int | None]] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    def send(self, body: dict[str, Any]) -> None:
        """Queue a message (never blocks); a client too far behind is disconnected."""
        self.send_text(json.dumps(body, ensure_ascii=False, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Queue an already encoded message."""
        if self.closed.is_set():
            return
        if self._outbox.qsize() >= OUTBOX_LIMIT:
            self.close(CLOSE_POLICY)
            return
        self._outbox.put_nowait((text, None))

    def error(self, code: str, text: str, ref: str | int | None = None, rule: str | None = None) -> None:
        """Queue an ``error`` message."""
        self.send(error_message(code, text, ref, rule))

    def close(self, code: int = 1000) -> None:
        """Flush what is queued, then close the socket with ``code``."""
        if not self.closed.is_set():
            self.closed.set()
            self._outbox.put_nowait(("", code))

    async def _write(self) -> None:
        try:
            while True:
                text, close_code = await self._outbox.get()
                if close_code is not None:
                    if self._open():
                        await self.websocket.close(close_code)
                    return
                await self.websocket.send_text(text)
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
