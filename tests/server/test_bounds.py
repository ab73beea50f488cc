"""Issue 46's bounds on requests and sockets, each against a real server on 127.0.0.1 (the writer's
death against a stand-in socket): bodies refused as they arrive, header and keep-alive timeouts,
a socket whose writer died closed, expired sessions closed, tables per address, closed tables'
rows removed, and the lobby's re-subscriptions and subscribers per address."""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import httpx

from tests.live_server import FAST_ARGS, LiveServer
from tests.server.scenario import FAST
from tests.server.wsclient import Client
from tuolaji.server.connection import CLOSE_INTERNAL, Connection
from tuolaji.server.http_io import MAX_BODY_BYTES

Factory = Callable[..., LiveServer]


def connect(url: str) -> socket.socket:
    """A plain TCP connection to the server, reading with a short timeout."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    sock.settimeout(0.2)
    return sock


def read_until_closed(sock: socket.socket, within: float) -> tuple[bytes, float | None]:
    """What the server sends until it closes the connection, and after how many seconds it did
    (None: still open after ``within`` seconds)."""
    started = time.monotonic()
    data = b""
    while time.monotonic() - started < within:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return data, time.monotonic() - started
        if not chunk:
            return data, time.monotonic() - started
        data += chunk
    return data, None


def read_response(sock: socket.socket, first: bytes = b"", within: float = 10.0) -> bytes:
    """One whole HTTP response (headers and ``Content-Length`` bytes of body), from ``first`` on."""
    data, deadline = first, time.monotonic() + within
    while time.monotonic() < deadline:
        head, found, body = data.partition(b"\r\n\r\n")
        if found:
            length = next(
                int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")
            )
            if len(body) >= length:
                return data
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        if not chunk:
            break
        data += chunk
    return data


def error_of(response: bytes) -> tuple[int, dict[str, Any]]:
    """The status and JSON error of a raw HTTP response."""
    head, _, body = response.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)["error"]


async def test_a_body_past_the_limit_is_refused_before_it_is_all_sent(live_server: LiveServer) -> None:
    """A declared 256 MiB body is answered 413 from its headers alone and the connection closed; a
    chunked one (no length) is answered 413 once it passes the limit, while the client has sent a
    fraction of it."""
    declared = connect(live_server.url)
    declared.sendall(
        b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 268435456\r\n\r\n"
    )
    answer, after = await asyncio.to_thread(read_until_closed, declared, 10.0)
    status, error = error_of(answer)
    assert (status, error["code"]) == (413, "too_large") and str(MAX_BODY_BYTES) in error["message"]
    assert after is not None and after < 3.0  # closed at once (not after the 5 s keep-alive): the rest is never read
    declared.close()

    chunked = connect(live_server.url)
    chunked.sendall(b"POST /api/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
    piece = b"x" * 4096
    sent = 0
    answer = b""
    while sent < 64 * MAX_BODY_BYTES and not answer:
        chunked.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
        sent += len(piece)
        try:
            answer = chunked.recv(65536)
        except TimeoutError:
            continue
    assert error_of(await asyncio.to_thread(read_response, chunked, answer))[0] == 413
    assert sent <= 2 * MAX_BODY_BYTES + 64 * 1024, sent
    chunked.close()
    async with httpx.AsyncClient(base_url=live_server.url) as http:
        small = await http.post("/api/login", json={"nickname": "nobody", "password": "password1"})
        assert small.status_code == 401  # a body within the limit is read as before
    assert live_server.errors() == []


async def test_idle_and_half_sent_header_sockets_are_closed(live_server_factory: Factory) -> None:
    """With a 1 s header deadline and a 1 s keep-alive: a socket that sends nothing, one that stops
    in the middle of its headers, and one idle after a response are all closed within 4 s, while
    a WebSocket opened at the same time stays open and answers."""
    server = live_server_factory(args=(*FAST_ARGS, "--header-timeout", "1", "--keep-alive-timeout", "1"))
    player = await Client.open(server.url)
    idle = connect(server.url)
    half = connect(server.url)
    half.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    kept = connect(server.url)
    kept.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
    results = await asyncio.gather(*(asyncio.to_thread(read_until_closed, sock, 10.0) for sock in (idle, half, kept)))
    for (_, after), name in zip(results, ("idle", "half-sent header", "kept alive"), strict=True):
        assert after is not None and after < 4.0, (name, after)
    assert results[0][0] == b"" and results[1][0] == b""
    assert results[2][0].startswith(b"HTTP/1.1 200")
    assert (await player.request("ping"))["type"] == "pong"
    for sock in (idle, half, kept):
        sock.close()
    await player.close()
    assert server.errors() == []


class DeadSocket:
    """A stand-in for a Starlette WebSocket whose sending fails (as a text that cannot be encoded did)."""

    def __init__(self) -> None:
        from starlette.websockets import WebSocketState

        self.application_state = self.client_state = WebSocketState.CONNECTED
        self.scope: dict[str, Any] = {"type": "websocket", "extensions": {}}
        """No direct text-frame writer (``tuolaji.server.wsframes``): every message goes through ``send``."""
        self.closed_with: tuple[int, str] | None = None

    async def send(self, message: dict[str, Any]) -> None:
        raise ValueError("cannot encode this message")

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed_with = (code, reason)


async def test_a_socket_whose_writer_died_is_closed() -> None:
    socket_ = DeadSocket()
    conn = Connection(socket_, "n.1")  # type: ignore[arg-type]
    conn.send({"type": "pong"})
    await asyncio.wait_for(conn.closed.wait(), 5.0)
    await conn.drain()
    assert socket_.closed_with is not None and socket_.closed_with[0] == CLOSE_INTERNAL
    assert conn.queued_bytes == 0
    conn.send({"type": "pong"})  # after the close nothing more is queued
    assert conn.queued_bytes == 0


async def test_an_open_socket_is_closed_when_its_session_expires(live_server_factory: Factory) -> None:
    """Sessions of 3 s (0.0000347 days): the socket works, then its first command after the expiry
    is refused with ``bad_token`` (reason ``expired``) and the socket closed (4004)."""
    server = live_server_factory(args=(*FAST_ARGS, "--session-days", "0.0000347"))
    player = await Client.open(server.url)
    assert (await player.request("ping"))["type"] == "pong"
    deadline = time.monotonic() + 15.0
    answer: dict[str, Any] = {"type": "pong"}
    while answer["type"] == "pong" and time.monotonic() < deadline:
        answer = await player.request("ping", timeout=5.0)
        if answer["type"] == "pong":
            await asyncio.sleep(0.25)  # polling pace, within the rate limit
    assert (answer["code"], answer["params"]) == ("bad_token", {"reason": "expired"})
    assert await player.closed_with() == 4004
    assert server.errors() == []


async def test_tables_per_address_are_limited(live_server_factory: Factory) -> None:
    """Three tables a minute per address: three guests open one each, a fourth is refused."""
    server = live_server_factory(args=(*FAST_ARGS, "--tables-per-address", "3"))
    guests = [await Client.open(server.url) for _ in range(4)]
    for guest in guests[:3]:
        assert (await guest.request("create_table", options=FAST))["type"] == "ack"
    refused = await guests[3].request("play_now", options=FAST)
    assert (refused["type"], refused["code"], refused["params"]["reason"]) == ("error", "rate_limited", "tables")
    assert "3 new tables a minute" in refused["message"]
    for guest in guests:
        await guest.close()
    assert server.errors() == []


async def test_a_closed_tables_rows_are_removed(live_server: LiveServer) -> None:
    watcher = await Client.open(live_server.url)
    host = await Client.open(live_server.url)
    assert (await watcher.request("lobby", on=True))["type"] == "ack"
    assert (await host.request("create_table", options=FAST))["type"] == "ack"
    table = host.latest("table")
    assert table is not None
    table_id = table["table"]["id"]
    with sqlite3.connect(live_server.db_path) as db:
        assert db.execute("SELECT count(*) FROM live_tables WHERE id = ?", (table_id,)).fetchone() == (1,)
    assert (await host.request("leave"))["type"] == "ack"
    await watcher.wait(lambda m: m["type"] == "lobby_table_removed" and m["table_id"] == table_id)
    with sqlite3.connect(live_server.db_path) as db:
        assert db.execute("SELECT count(*) FROM live_tables").fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM table_log").fetchone() == (0,)
    for client in (watcher, host):
        await client.close()
    assert live_server.errors() == []


async def test_a_resubscription_resends_only_what_changed(live_server: LiveServer) -> None:
    """``lobby`` off and on again: the whole list once, then nothing for re-subscriptions in which
    nothing changed, and only the new table for one in which a table opened."""
    subscriber = await Client.open(live_server.url)
    host = await Client.open(live_server.url)
    assert (await host.request("create_table", options=FAST))["type"] == "ack"
    assert (await subscriber.request("lobby", on=True))["type"] == "ack"
    assert len((await subscriber.wait_type("lobby"))["tables"]) == 1
    for _ in range(10):
        assert (await subscriber.request("lobby", on=False))["type"] == "ack"
        assert (await subscriber.request("lobby", on=True))["type"] == "ack"
    assert (await subscriber.request("lobby", on=False))["type"] == "ack"
    other = await Client.open(live_server.url)
    assert (await other.request("create_table", options=FAST))["type"] == "ack"
    table = other.latest("table")
    assert table is not None
    assert (await subscriber.request("lobby", on=True))["type"] == "ack"
    await subscriber.wait(lambda m: m["type"] == "lobby_table" and m["table"]["id"] == table["table"]["id"])
    assert [m["type"] for m in subscriber.log].count("lobby") == 1
    for client in (subscriber, host, other):
        await client.close()
    assert live_server.errors() == []


async def test_lobby_subscribers_per_address_are_limited(live_server_factory: Factory) -> None:
    server = live_server_factory(args=(*FAST_ARGS, "--lobby-per-address", "2"))
    clients = [await Client.open(server.url) for _ in range(3)]
    for client in clients[:2]:
        assert (await client.request("lobby", on=True))["type"] == "ack"
    refused = await clients[2].request("lobby", on=True)
    assert (refused["type"], refused["code"], refused["params"]) == ("error", "lobby_full", {"limit": 2})
    assert "at most 2 connections" in refused["message"]
    assert (await clients[0].request("lobby", on=False))["type"] == "ack"
    assert (await clients[2].request("lobby", on=True))["type"] == "ack"  # a place came free
    for client in clients:
        await client.close()
    assert server.errors() == []
