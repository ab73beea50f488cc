"""The WebSocket endpoint ``/ws``: read frames, enforce size and rate limits, validate, dispatch.

Nothing a client sends can crash the server: every refused frame is answered with an ``error``
(docs/PROTOCOL.md §2.5) and the connection, its table and everyone else's game go on.
"""

from __future__ import annotations

import asyncio
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from tuolaji.server.connection import CLOSE_HELLO_TIMEOUT, CLOSE_POLICY, CLOSE_TOO_MANY, FLOOD_LIMIT, Connection
from tuolaji.server.lobby import Lobby
from tuolaji.wire.inbound import MAX_FRAME_BYTES, ProtocolError, parse_client_message

log = logging.getLogger(__name__)


async def serve_socket(websocket: WebSocket, lobby: Lobby) -> None:
    """Run one client connection until it closes."""
    await websocket.accept()
    config = lobby.config
    conn = Connection(websocket, lobby.new_client_id(), config.rate_per_second, config.rate_burst, config.outbox_bytes)
    address = websocket.client.host if websocket.client is not None else "unknown"
    if not lobby.connected(conn, address):
        conn.close(CLOSE_TOO_MANY, f"too many connections from {address}")
        await conn.drain()
        return

    def hello_due() -> None:
        if conn.account is None:
            conn.close(CLOSE_HELLO_TIMEOUT, f"no hello within {config.hello_timeout:g} s")

    timer = asyncio.get_running_loop().call_later(config.hello_timeout, hello_due)
    try:
        while not conn.closed.is_set():
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect" or conn.closed.is_set():
                break
            text = frame.get("text")
            if text is None:
                size = len(frame.get("bytes") or b"")
                if size > MAX_FRAME_BYTES:
                    conn.error(
                        "too_large",
                        f"message of {size} bytes; the limit is {MAX_FRAME_BYTES}",
                        params={"bytes": size, "limit": MAX_FRAME_BYTES},
                    )
                else:
                    conn.error(
                        "bad_message",
                        "binary frames are not part of the protocol; send JSON text",
                        params={"reason": "binary"},
                    )
                continue
            if not conn.limiter.allow():
                if conn.limiter.dropped >= FLOOD_LIMIT:
                    conn.error(
                        "rate_limited", "too many messages; closing the connection", params={"reason": "closing"}
                    )
                    conn.close(CLOSE_POLICY)
                    break
                conn.error("rate_limited", "too many messages; this one was dropped", params={"reason": "dropped"})
                continue
            try:
                msg = parse_client_message(text)
            except ProtocolError as error:
                conn.error(error.code, str(error), error.ref, error.rule, error.params)
                continue
            try:
                await lobby.dispatch(conn, msg)
            except Exception:
                log.exception("error while handling %s", msg.type)
                conn.error("internal", "internal server error", msg.id)
    except WebSocketDisconnect:
        pass
    finally:
        timer.cancel()
        lobby.disconnected(conn)
        await conn.drain()
