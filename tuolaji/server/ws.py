"""The WebSocket endpoint ``/ws``: read frames, enforce size and rate limits, validate, dispatch.

Nothing a client sends can crash the server: every refused frame is answered with an ``error``
(docs/PROTOCOL.md §2.5) and the connection, its table and everyone else's game go on.

Every line logged while a connection is served names it (``connection``, and ``account`` after its
``hello``); the metrics count connections opened, messages refused by the rate limit and closes by code.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from tuolaji.server import logs
from tuolaji.server.connection import CLOSE_HELLO_TIMEOUT, CLOSE_POLICY, CLOSE_TOO_MANY, FLOOD_LIMIT, Connection
from tuolaji.server.homing import Hints
from tuolaji.server.lobby import Lobby
from tuolaji.wire.inbound import MAX_FRAME_BYTES, ProtocolError, parse_client_message

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
    client_code: int | None = None
    try:
        client_code = await _read(websocket, conn, lobby)
    except WebSocketDisconnect as gone:
        client_code = gone.code
    finally:
        timer.cancel()
        by_server = conn.close_code is not None
        code = conn.close_code if conn.close_code is not None else client_code or ABNORMAL
        metrics.closed(code, by_server)
        log.info("connection closed", extra={"code": code, "by": "server" if by_server else "client"})
        lobby.router.disconnected(conn)
        await conn.drain()


async def _read(websocket: WebSocket, conn: Connection, lobby: Lobby) -> int | None:
    """Take the client's frames until it goes (or is closed): each refused, or validated and dispatched.
    The code the client closed with, if it closed first."""
    while not conn.closed.is_set():
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return int(frame.get("code", NO_STATUS))
        if conn.closed.is_set():
            return None
        text = _text_of(conn, frame)
        # Nothing but the text may outlive a message while the next is awaited: thousands of
        # connections' frames and messages would sit in the collector's young generation.
        del frame
        if text is not None:
            await _handle(conn, lobby, text)
    return None


async def _handle(conn: Connection, lobby: Lobby, text: str) -> None:
    """One text message: refused past the rate limit or if it is not valid, else dispatched."""
    metrics = lobby.services.metrics
    if not conn.limiter.allow():
        if conn.limiter.dropped >= FLOOD_LIMIT:
            metrics.refused("flood")
            conn.error("rate_limited", "too many messages; closing the connection", params={"reason": "closing"})
            conn.close(CLOSE_POLICY)
            return
        metrics.refused("messages")
        conn.error("rate_limited", "too many messages; this one was dropped", params={"reason": "dropped"})
        return
    try:
        msg = parse_client_message(text)
    except ProtocolError as error:
        conn.error(error.code, str(error), error.ref, error.rule, error.params)
        return
    try:
        await lobby.router.dispatch(conn, msg)
    except Exception:
        metrics.error("message")
        log.exception("error while handling a client's message", extra={"type": msg.type})
        conn.error("internal", "internal server error", msg.id)


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
