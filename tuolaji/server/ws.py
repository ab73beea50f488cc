"""The WebSocket endpoint ``/ws``: read frames, enforce size and rate limits, validate, dispatch.

Nothing a client sends can crash the server: every refused frame is answered with an ``error``
(docs/PROTOCOL.md §2.5) and the connection, its table and everyone else's game go on.

Every line logged while a connection is served names it (``connection``, and ``account`` after its
``hello``); the metrics count connections opened, messages refused by the rate limit and closes by code.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from tuolaji.server import logs
from tuolaji.server.connection import CLOSE_HELLO_TIMEOUT, CLOSE_TOO_MANY, Connection
from tuolaji.server.homing import Hints
from tuolaji.server.inbox import Inbox
from tuolaji.server.lobby import Lobby
from tuolaji.server.wsframes import TEXT_IN, TextHandler
from tuolaji.wire.inbound import MAX_FRAME_BYTES

log = logging.getLogger(__name__)
INVALID_TEXT = "Invalid UTF-8 sequence received from client."
"""What uvicorn logs, with a traceback at ERROR, when a text frame is not UTF-8 (it closes the socket with 1007)."""


class _InvalidTextIsNotAnError(logging.Filter):
    """A client's text frame that is not UTF-8 is the client's fault, not the server's: uvicorn's
    record of it becomes one INFO line without a traceback, so no client can fill the log with them."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == INVALID_TEXT:
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.exc_info = record.exc_text = None
            record.msg = "closed a WebSocket (1007): a text frame was not UTF-8"
        return True


logging.getLogger("uvicorn.error").addFilter(_InvalidTextIsNotAnError())


NO_STATUS = 1005
"""The close code of a close frame without one (RFC 6455)."""
ABNORMAL = 1006
"""The connection dropped without a close frame (RFC 6455)."""


async def serve_socket(websocket: WebSocket, lobby: Lobby) -> None:
    """Run one client connection until it closes."""
    config, metrics = lobby.services.config, lobby.services.metrics
    client_id = lobby.clients.new_id()
    logs.bind_only(connection=client_id)
    await websocket.accept()
    conn = Connection(websocket, client_id, config.rate_per_second, config.rate_burst, config.outbox_bytes, metrics)
    conn.hints = Hints.asking(websocket.query_params.get("node"))
    metrics.connections_opened.inc()
    address = websocket.client.host if websocket.client is not None else "unknown"
    if not lobby.clients.connected(conn, address):
        metrics.refused("connections")
        conn.close(CLOSE_TOO_MANY, f"too many connections from {address}")
        await conn.drain()
        metrics.closed(CLOSE_TOO_MANY, by_server=True)
        return

    def hello_due() -> None:
        if conn.account is None:
            conn.close(CLOSE_HELLO_TIMEOUT, f"no hello within {config.hello_timeout:g} s")

    timer = asyncio.get_running_loop().call_later(config.hello_timeout, hello_due)
    inbox = Inbox(conn, lobby)
    listen: Callable[[TextHandler], None] | None = (websocket.scope.get("extensions") or {}).get(TEXT_IN)
    client_code: int | None = None
    try:
        if listen is not None:
            listen(inbox.take)
        client_code = await _read(websocket, conn, inbox)
    except WebSocketDisconnect as gone:
        client_code = gone.code
    finally:
        timer.cancel()
        await inbox.finish()
        by_server = conn.close_code is not None
        code = conn.close_code if conn.close_code is not None else client_code or ABNORMAL
        metrics.closed(code, by_server)
        inbox.context.run(_closed, conn, lobby, code, by_server)
        await conn.drain()


def _closed(conn: Connection, lobby: Lobby, code: int, by_server: bool) -> None:
    """Log the close and tell the router (in the connection's log context: its ``account`` too)."""
    log.info("connection closed", extra={"code": code, "by": "server" if by_server else "client"})
    lobby.router.disconnected(conn)


async def _read(websocket: WebSocket, conn: Connection, inbox: Inbox) -> int | None:
    """Take the client's frames until it goes (or is closed): text to ``inbox`` (when the protocol does
    not hand it over itself), anything else refused. The code the client closed with, if it closed first."""
    while not conn.closed.is_set():
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return int(frame.get("code", NO_STATUS))
        if conn.closed.is_set():
            return None
        text = _text_of(conn, frame)
        if text is not None:
            inbox.take(text)
    return None


def _text_of(conn: Connection, frame: Mapping[str, Any]) -> str | None:
    """A frame's text; a binary frame is refused (None), saying whether it was too large."""
    text: str | None = frame.get("text")
    if text is not None:
        return text
    size = len(frame.get("bytes") or b"")
    if size > MAX_FRAME_BYTES:
        reason = f"message of {size} bytes; the limit is {MAX_FRAME_BYTES}"
        conn.error("too_large", reason, params={"bytes": size, "limit": MAX_FRAME_BYTES})
    else:
        reason = "binary frames are not part of the protocol; send JSON text"
        conn.error("bad_message", reason, params={"reason": "binary"})
    return None
