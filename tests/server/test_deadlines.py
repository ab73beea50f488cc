"""The header deadline on both of uvicorn's HTTP protocols (h11 and httptools), in this process: a
connection that sends nothing or stops mid-header is closed after the deadline; a request under
way is not (its response comes after the deadline has passed)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
import time
import weakref
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.uri import parse_uri

from tests.server.transport import Wire
from tuolaji.server.deadlines import Config, GuardedH11, http_protocol
from tuolaji.server.wsframes import TextFramesProtocol

DEADLINE = 0.5


async def slow_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Answers every request 1.5 deadlines after its headers came."""
    if scope["type"] != "http":
        return
    await asyncio.sleep(DEADLINE * 1.5)  # a slow handler: the request is under way past the deadline
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


@contextlib.asynccontextmanager
async def serving(protocol: type[asyncio.Protocol]) -> AsyncIterator[int]:
    """A uvicorn server with ``protocol`` on a free port of 127.0.0.1; its port."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port: int = sock.getsockname()[1]
    config = Config(slow_app, header_timeout=DEADLINE, http=protocol, lifespan="off", log_level="warning")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        async with asyncio.timeout(10):
            while not server.started:
                await asyncio.sleep(0.01)
        yield port
    finally:
        server.should_exit = True
        await task
        sock.close()


async def closed_after(reader: asyncio.StreamReader, within: float) -> tuple[bytes, float]:
    """What the server sent until it closed the connection, and after how long (bounded)."""
    started = time.monotonic()
    async with asyncio.timeout(within):
        data = await reader.read()
    return data, time.monotonic() - started


@pytest.mark.parametrize("protocol", [GuardedH11, http_protocol()], ids=["h11", "auto"])
async def test_the_header_deadline_closes_idle_and_slow_connections(protocol: type[asyncio.Protocol]) -> None:
    async with serving(protocol) as port:
        idle_reader, idle = await asyncio.open_connection("127.0.0.1", port)
        half_reader, half = await asyncio.open_connection("127.0.0.1", port)
        half.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        slow_reader, slow = await asyncio.open_connection("127.0.0.1", port)
        slow.write(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        results = await asyncio.gather(
            closed_after(idle_reader, 10), closed_after(half_reader, 10), closed_after(slow_reader, 10)
        )
        for writer in (idle, half, slow):
            writer.close()
    (idle_data, idle_after), (half_data, half_after), (slow_data, _) = results
    assert idle_data == b"" and DEADLINE * 0.8 <= idle_after < DEADLINE * 4
    assert half_data == b"" and DEADLINE * 0.8 <= half_after < DEADLINE * 4
    assert slow_data.startswith(b"HTTP/1.1 200") and slow_data.endswith(b"ok")


def test_the_auto_protocol_is_httptools_when_installed() -> None:
    pytest.importorskip("httptools")
    assert http_protocol().__name__ == "GuardedHttpTools"


@pytest.mark.parametrize("protocol", [GuardedH11, http_protocol()], ids=["h11", "auto"])
async def test_a_connection_upgraded_to_a_websocket_lets_its_http_protocol_go(protocol: type[Any]) -> None:
    """Once the WebSocket protocol has the socket nothing refers to the HTTP one: reference counting
    frees it, its request and headers at once (with the collector off), instead of the collector's
    rare full pass."""
    accepted = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        accepted.set()
        while (await receive())["type"] != "websocket.disconnect":
            pass

    config = Config(app, header_timeout=DEADLINE, ws=TextFramesProtocol, lifespan="off")
    config.load()
    state = ServerState()
    wire = Wire()
    client = ClientProtocol(parse_uri("ws://127.0.0.1/ws"))
    client.send_request(client.connect())
    gc.disable()
    try:
        http = protocol(config, state, {})
        http.connection_made(wire)
        wire.set_protocol(http)
        http.data_received(b"".join(client.data_to_send()))
        gone = weakref.ref(http)
        del http
        assert gone() is None
    finally:
        gc.enable()
    socket_protocol = wire.get_protocol()
    assert isinstance(socket_protocol, TextFramesProtocol)
    await accepted.wait()
    client.receive_data(bytes(wire.written))
    assert client.handshake_exc is None
    socket_protocol.connection_lost(None)
    await asyncio.gather(*state.tasks)
