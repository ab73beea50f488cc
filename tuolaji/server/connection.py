"""One WebSocket client: a bounded outbox drained by a writer task, and a per-connection rate limit.

Tables and the lobby never await a client: they ``send`` into the outbox, so a slow or dead
client cannot hold up a table. A message that finds the outbox empty and the socket ready is
written at once (``tuolaji.server.wsframes``), without waking the writer. The outbox is bounded by
the memory its messages take: a client that falls that far behind (it does not read) loses what was
queued and is closed with :data:`CLOSE_TOO_SLOW` and a reason saying so, so a reader that never
reads costs the server at most ``outbox_bytes`` (and the socket's buffer up to uvicorn's high-water
mark, past which nothing is written at once).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import sys
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from tuolaji.server.homing import Hints
from tuolaji.server.limits import RATE_BURST, RATE_PER_SECOND, RateLimiter
from tuolaji.server.metrics import NO_METRICS, Metrics
from tuolaji.server.wsframes import TEXT_FRAMES, WriteText
from tuolaji.wire.outbound import dumps, error_message

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from tuolaji.store.accounts import AccountData

OUTBOX_BYTES = 1 << 20
"""Memory (bytes of queued message strings) a client may fall behind by before it is disconnected."""
CLOSE_SECONDS = 5.0
"""How long closing a client that does not read may take before the server stops waiting for it."""
FLOOD_LIMIT = 200
"""Dropped messages after which a flooding connection is closed (1008)."""
CLOSE_REPLACED = 4001
CLOSE_POLICY = 1008
CLOSE_RESTART = 1012
"""Service restart (RFC 6455): the server is restarting; reconnect."""
CLOSE_TOO_SLOW = 4008
"""The client fell too far behind in reading (its outbox overflowed)."""
CLOSE_HELLO_TIMEOUT = 4003
"""No ``hello`` in time."""
CLOSE_TOO_MANY = 4029
"""Too many connections from one client address."""
CLOSE_LOGGED_OUT = 4004
"""The connection's token was logged out, or its session expired."""
CLOSE_BANNED = 4005
"""The account is banned (after an ``error`` ``banned`` with the reason and the end)."""
CLOSE_GOING = 1001
CLOSE_INTERNAL = 1011
"""Internal error (RFC 6455): the server could not send a message."""


class Connection:
    """A client connection: its ``id`` (how tables address it), who it is, and its outgoing queue."""

    def __init__(
        self,
        websocket: WebSocket,
        client_id: str,
        rate: float = RATE_PER_SECOND,
        burst: float = RATE_BURST,
        outbox_bytes: int = OUTBOX_BYTES,
        metrics: Metrics = NO_METRICS,
    ) -> None:
        self.websocket = websocket
        self.id = client_id
        self.metrics = metrics
        self.account: AccountData | None = None
        self.token: str | None = None
        self.session_ends = math.inf
        """When the session of ``token`` expires (``time.time()`` seconds; checked on every command)."""
        self.muted: tuple[str, int | None] | None = None
        """The account's phrases are muted: the reason and the end (epoch ms; None: for good)."""
        self.address = ""
        """The client address it came from (``X-Forwarded-For`` only from a trusted proxy)."""
        self.hints = Hints()
        """The node it asked for (``/ws?node=``) and the tables' nodes it was told (``tuolaji.server.homing``)."""
        self.limiter = RateLimiter(rate, burst)
        self.closed = asyncio.Event()
        self.outbox_bytes = outbox_bytes
        self.queued_bytes = 0
        self._outbox: collections.deque[tuple[str, int]] = collections.deque()
        """Messages not written yet, oldest first; the writer's message stays in it until it is written."""
        self._write_now: WriteText | None = (websocket.scope.get("extensions") or {}).get(TEXT_FRAMES)
        self._held: list[str] | None = None
        """While held (:meth:`hold`): the messages to write at :meth:`release`, oldest first."""
        self.close_code: int | None = None
        """The code the server closed (or is closing) the connection with; None if it has not."""
        self._close_reason = ""
        self._wakeup: asyncio.Future[None] | None = None
        self._writer = asyncio.create_task(self._write())
        self._closer: asyncio.Task[None] | None = None

    def send(self, body: dict[str, Any]) -> None:
        """Queue a message (never blocks); a client too far behind is disconnected."""
        self.send_text(dumps(body))

    def send_text(self, text: str) -> None:
        """Queue an already encoded message."""
        if self.closed.is_set():
            return
        if self._held is not None:
            self._held.append(text)
            return
        self._put([text])

    def hold(self) -> bool:
        """Keep what is sent from now on until :meth:`release`, which writes it in one go (one send
        syscall for several messages, when the socket takes them at once); False if already held.
        Only for a block that does not wait: the connection's writer must not run in between."""
        if self._held is not None:
            return False
        self._held = []
        return True

    def release(self) -> None:
        """Write what was sent since :meth:`hold`, in order."""
        held, self._held = self._held, None
        if held:
            self._put(held)

    def _put(self, texts: list[str]) -> None:
        """Write ``texts`` at once if nothing is queued before them and the socket takes them, else
        queue them for the writer (up to a fall behind)."""
        if not self._outbox and self._write_now is not None and self._write_now([text.encode() for text in texts]):
            return
        for text in texts:
            if self.close_code == CLOSE_TOO_SLOW:
                return
            self._queue(text)

    def _queue(self, text: str) -> None:
        """Queue ``text`` for the writer; a client too far behind is disconnected."""
        size = sys.getsizeof(text)
        if self.queued_bytes + size > self.outbox_bytes:
            self._fell_behind()
            return
        self._outbox.append((text, size))
        self.queued_bytes += size
        self._wake()

    def _fell_behind(self) -> None:
        """The client does not read: drop what is queued and close it, saying why."""
        waiting = self.queued_bytes
        self._outbox.clear()
        self.queued_bytes = 0
        self.closed.set()
        self._writer.cancel()  # it may be waiting for the socket to drain, which it may never do
        self.close_code = CLOSE_TOO_SLOW
        reason = f"too far behind: {waiting} bytes were waiting for you to read them"
        log.info("closed a client too far behind in reading", extra={"connection": self.id, "queued_bytes": waiting})
        self._closer = asyncio.create_task(self._close_now(CLOSE_TOO_SLOW, reason))

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

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Flush what is queued, then close the socket with ``code`` (and ``reason``)."""
        if not self.closed.is_set():
            self.closed.set()
            self.close_code, self._close_reason = code, reason
            self._wake()

    async def _close_now(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code, reason), CLOSE_SECONDS)

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
                    text, size = outbox[0]
                    await send({"type": "websocket.send", "text": text})
                    outbox.popleft()
                    self.queued_bytes -= size
                if self.close_code is not None:
                    if self._open():
                        await self.websocket.close(self.close_code, self._close_reason)
                    return
                self._wakeup = asyncio.get_running_loop().create_future()
                await self._wakeup
                self._wakeup = None
        except (WebSocketDisconnect, RuntimeError, OSError):
            await self._writer_ended(CLOSE_GOING, "the connection is gone")
        except Exception:
            self.metrics.error("send")
            log.exception("sending a message failed; closing the connection", extra={"connection": self.id})
            self.close_code = self.close_code or CLOSE_INTERNAL
            await self._writer_ended(CLOSE_INTERNAL, "internal error while sending a message")

    async def _writer_ended(self, code: int, reason: str) -> None:
        """The writer cannot send any more: drop what is queued and close the socket, so its reader
        (waiting for the client's next frame) ends too and the client is cleaned up."""
        self.closed.set()
        self._outbox.clear()
        self.queued_bytes = 0
        if self._open():
            await self._close_now(code, reason)

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
        except asyncio.CancelledError:
            if not self._writer.cancelled():
                raise  # not the writer's end (``_fell_behind``) but ours
        if self._closer is not None:
            await self._closer
