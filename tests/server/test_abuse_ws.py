"""Issue 15's attacks on the WebSocket side, each bounded, against a real server on 127.0.0.1.

A client that never reads is cut off with a clear close reason once its outbox is full; a socket
that never says hello is closed; one address cannot open unlimited sockets; lobby changes are
coalesced; an escape makes the escaper wait before sitting again (R43); logging out closes the
token's socket.
"""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import struct
import time
from collections.abc import Callable

import httpx

from tests.live_server import FAST_ARGS, LiveServer
from tests.server.scenario import FAST
from tests.server.wsclient import Client, guest_token

Factory = Callable[..., LiveServer]


def raw_socket(url: str) -> socket.socket:
    """A WebSocket opened by hand (RFC 6455 handshake) that the test reads only when it wants to."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting, so it holds
    sock.settimeout(30)
    sock.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def send_text(sock: socket.socket, text: str) -> None:
    """One masked text frame (a client must mask)."""
    data = text.encode()
    mask = os.urandom(4)
    size = bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0xFE]) + struct.pack(">H", len(data))
    header = bytes([0x81]) + size
    sock.sendall(header + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(data)))


def close_frame(sock: socket.socket) -> tuple[int, str]:
    """Read frames until the server's close frame; its code and reason."""
    while True:
        first, second = sock.recv(1), sock.recv(1)
        if not first or not second:
            raise ConnectionError("the server closed without a close frame")
        length = second[0] & 0x7F
        if length == 126:
            length = struct.unpack(">H", _exactly(sock, 2))[0]
        elif length == 127:
            length = struct.unpack(">Q", _exactly(sock, 8))[0]
        payload = _exactly(sock, length)
        if first[0] & 0x0F == 0x8:
            return struct.unpack(">H", payload[:2])[0], payload[2:].decode()


def _exactly(sock: socket.socket, count: int) -> bytes:
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise ConnectionError("the server closed mid-frame")
        data += chunk
    return data


async def test_a_client_that_never_reads_is_closed_with_a_reason(live_server_factory: Factory) -> None:
    server = live_server_factory(args=(*FAST_ARGS, "--outbox-kib", "64"))
    token, _ = await guest_token(server.url)
    player = await Client.open(server.url)
    assert (await player.request("play_now", options=FAST))["type"] == "ack"
    table = player.latest("table")
    assert table is not None
    assert (await player.request("autoplay", on=True))["type"] == "ack"  # hands follow each other, bots only
    reader = await asyncio.to_thread(raw_socket, server.url)
    try:
        send_text(reader, f'{{"v": 2, "type": "hello", "token": "{token}"}}')
        send_text(reader, f'{{"v": 2, "type": "watch", "table": "{table["table"]["id"]}"}}')
        assert await asyncio.to_thread(server.logged, "too far behind", 120)  # it never read a byte
        code, reason = await asyncio.to_thread(close_frame, reader)
        assert code == 4008 and "too far behind" in reason
    finally:
        reader.close()
        await player.close()
    assert server.errors() == []


async def test_a_socket_without_hello_is_closed(live_server_factory: Factory) -> None:
    server = live_server_factory(args=(*FAST_ARGS, "--hello-timeout", "0.5"))
    sock = await asyncio.to_thread(raw_socket, server.url)
    started = time.monotonic()
    try:
        code, reason = await asyncio.to_thread(close_frame, sock)
    finally:
        sock.close()
    assert (code, reason) == (4003, "no hello within 0.5 s") and time.monotonic() - started < 10
    late = await Client.open(server.url)  # one that says hello stays
    assert (await late.request("ping"))["type"] == "pong"
    await late.close()


async def test_one_address_cannot_open_unlimited_sockets(live_server_factory: Factory) -> None:
    server = live_server_factory(args=(*FAST_ARGS, "--max-connections-per-address", "3"))
    first = [await Client.open(server.url) for _ in range(3)]
    extra = await asyncio.to_thread(raw_socket, server.url)
    try:
        code, reason = await asyncio.to_thread(close_frame, extra)
    finally:
        extra.close()
    assert (code, reason) == (4029, "too many connections from 127.0.0.1")
    await first[0].close()
    await first[0].closed_with()
    again = await Client.open(server.url)  # a closed one frees its place
    assert (await again.request("ping"))["type"] == "pong"
    for client in [*first[1:], again]:
        await client.close()


async def test_lobby_changes_are_coalesced_and_a_repeated_subscription_sends_nothing(
    live_server_factory: Factory,
) -> None:
    server = live_server_factory(args=FAST_ARGS)
    owner = await Client.open(server.url)
    assert (await owner.request("create_table", options=FAST))["type"] == "ack"
    table = owner.latest("table")
    assert table is not None
    watcher = await Client.open(server.url)
    subscriber = await Client.open(server.url)
    assert (await subscriber.request("lobby", on=True))["type"] == "ack"
    assert (await subscriber.request("lobby", on=True))["type"] == "ack"
    assert [m["type"] for m in subscriber.log].count("lobby") == 1
    started = time.monotonic()
    for _ in range(20):  # 40 changes of the table's spectator count within the rate limit
        assert (await watcher.request("watch", table=table["table"]["id"]))["type"] == "ack"
        assert (await watcher.request("leave"))["type"] == "ack"
    toggled = time.monotonic() - started
    await subscriber.wait(lambda m: m["type"] == "lobby_table" and m["table"]["spectators"] == 0)
    changes = [m for m in subscriber.log if m["type"] == "lobby_table"]
    assert len(changes) <= toggled / 0.25 + 2, (len(changes), toggled)  # at most one per table per 250 ms
    for client in (owner, watcher, subscriber):
        await client.close()


async def test_an_escaper_waits_before_sitting_again(live_server_factory: Factory) -> None:
    server = live_server_factory(args=FAST_ARGS)
    player = await Client.open(server.url)
    assert (await player.request("play_now", options={**FAST, "deal_interval_ms": 200}))["type"] == "ack"
    await player.wait(lambda m: m["type"] == "state" and m["view"] is not None and m["view"]["phase"] == "dealing")
    assert (await player.request("leave"))["type"] == "ack"  # during the hand: an escape (R43)
    await player.wait_type("left")
    refused = await player.request("play_now", options=FAST)
    assert refused["type"] == "error" and refused["code"] == "escape_cooldown"
    assert refused["rule"] == "R43" and 50 <= refused["params"]["seconds"] <= 60
    await player.close()


async def test_logging_out_closes_the_tokens_socket(live_server: LiveServer) -> None:
    player = await Client.open(live_server.url)
    async with httpx.AsyncClient(base_url=live_server.url) as http:
        answer = await http.post("/api/logout", headers={"Authorization": f"Bearer {player.token}"})
        assert answer.status_code == 200
    error = await player.wait_type("error")
    assert (error["code"], error["params"]) == ("bad_token", {"reason": "logged_out"})
    assert await player.closed_with() == 4004
