"""The direct text-frame writer (``tuolaji.server.wsframes``) writes frames a WebSocket client reads
as the text sent, at every length class of RFC 6455 §5.2 (7-bit, 16-bit and 64-bit lengths)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import Close, Frame, Opcode
from websockets.http11 import Request
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from tests.server.transport import Wire
from tuolaji.server.wsframes import TEXT_IN, TextFramesProtocol, frame_header


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65_535, 65_536, 200_000])
def test_a_client_reads_the_frame_as_the_text_written(size: int) -> None:
    data = ("拖拉機" * size)[: size // 3].encode() + b"x" * (size % 3)
    client = ClientProtocol(parse_uri("ws://127.0.0.1/ws"), max_size=None)
    server = ServerProtocol()
    client.send_request(client.connect())
    server.receive_data(b"".join(client.data_to_send()))
    request = next(event for event in server.events_received() if isinstance(event, Request))
    server.send_response(server.accept(request))
    client.receive_data(b"".join(server.data_to_send()))
    client.receive_data(frame_header(len(data)) + data + frame_header(2) + b"ok")
    frames = [event for event in client.events_received() if isinstance(event, Frame)]
    assert [(frame.opcode, frame.fin, bytes(frame.data)) for frame in frames] == [
        (Opcode.TEXT, True, data),
        (Opcode.TEXT, True, b"ok"),
    ]


async def test_a_connection_keeps_its_own_lists_across_messages_and_pings() -> None:
    """``websockets`` and uvicorn make a new list at each message and ping, which would wait for the
    next one tracked by the cycle collector; the protocol hands text over and keeps the lists it had."""
    texts: list[str] = []
    listening = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        scope["extensions"][TEXT_IN](texts.append)
        listening.set()
        while (await receive())["type"] != "websocket.disconnect":
            pass

    server, wire, client, state = await _connected(app, listening, ping_interval=0.05)

    def owned() -> tuple[list[Any], list[Any], list[Any]]:
        return server.conn.events, server.conn.writes, server.frames

    client.send_text("一".encode())
    server.data_received(b"".join(client.data_to_send()))
    lists = owned()  # the handshake's write went out in the list the first message puts back
    for text in ("二", "三" * 300):
        client.send_text(text.encode())
        server.data_received(b"".join(client.data_to_send()))
        assert all(now is then for now, then in zip(owned(), lists, strict=True))
    assert texts == ["一", "二", "三" * 300]
    wire.wrote.clear()
    await asyncio.wait_for(wire.wrote.wait(), 10)  # the keepalive ping, once the client is quiet
    assert server.conn.writes is lists[1] and not lists[1]
    client.receive_data(bytes(wire.written))
    assert [event.opcode for event in client.events_received() if isinstance(event, Frame)] == [Opcode.PING]
    server.data_received(b"".join(client.data_to_send()))  # the pong
    assert server.pending_ping_payload is None and server.conn.events is lists[0]
    assert server.ping_timer is not None and not server.ping_timer.cancelled()  # the next ping is armed
    server.connection_lost(None)
    await asyncio.gather(*state.tasks)


async def test_a_client_that_talks_is_not_pinged_and_a_quiet_dead_one_is_closed() -> None:
    """The keepalive ping goes only to a client quiet for a whole ping interval: one that sends
    something more often gets none; a quiet one gets a ping and, not answering it within the ping
    timeout, is closed (1011) as uvicorn closes it."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        scope["extensions"][TEXT_IN](lambda text: None)
        listening.set()
        while (await receive())["type"] != "websocket.disconnect":
            pass

    listening = asyncio.Event()
    server, wire, client, state = await _connected(app, listening, ping_interval=0.1, ping_timeout=0.1)
    for _ in range(25):  # 0.5 s of talking, five ping intervals
        client.send_text(b"hello")
        server.data_received(b"".join(client.data_to_send()))
        await asyncio.sleep(0.02)
    assert not wire.written
    wire.wrote.clear()
    await asyncio.wait_for(wire.wrote.wait(), 10)
    client.receive_data(bytes(wire.written))
    assert [event.opcode for event in client.events_received() if isinstance(event, Frame)] == [Opcode.PING]
    del wire.written[:]
    client.data_to_send()  # the pong, never delivered: the client is gone
    wire.wrote.clear()
    await asyncio.wait_for(wire.wrote.wait(), 10)
    client.receive_data(bytes(wire.written))
    closes = [event for event in client.events_received() if isinstance(event, Frame)]
    assert [frame.opcode for frame in closes] == [Opcode.CLOSE]
    assert Close.parse(closes[0].data).code == 1011
    server.connection_lost(None)
    await asyncio.gather(*state.tasks)


async def _connected(
    app: Any, listening: asyncio.Event, ping_interval: float, ping_timeout: float = 20.0
) -> tuple[TextFramesProtocol, Wire, ClientProtocol, ServerState]:
    """A server protocol on a :class:`Wire` with ``app`` and a client that has opened the WebSocket
    (``app`` sets ``listening`` once it listens); the wire emptied."""
    config = Config(app, ws=TextFramesProtocol, ws_ping_interval=ping_interval, ws_ping_timeout=ping_timeout)
    config.load()
    state = ServerState()
    server = TextFramesProtocol(config, state, {})
    wire = Wire()
    server.connection_made(wire)
    client = ClientProtocol(parse_uri("ws://127.0.0.1/ws"))
    client.send_request(client.connect())
    server.data_received(b"".join(client.data_to_send()))
    await listening.wait()
    client.receive_data(bytes(wire.written))
    del wire.written[:]
    return server, wire, client, state
