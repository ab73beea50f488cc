"""Issue 15's attacks, measured on one source tree: run it on this tree and on an older one for
"before" and "after" figures (docs/SECURITY.md).

Every attack is bounded in count and time and goes only to a server it starts itself on 127.0.0.1.

- ``login``: 60 log-ins, each with a made-up ``X-Forwarded-For``: how many were rate-limited.
- ``guest``: 200 guest creations from one address with made-up ``X-Forwarded-For``: how many were made.
- ``argon2``: 12 clients logging in as fast as they can for ``--seconds`` while one WebSocket
  client pings every 20 ms: ping p50/p99/max against an idle baseline, log-ins/s, 503s.
- ``escape``: the settlement arithmetic of a broke account escaping 487 times against an
  accomplice (the issue's figure): the accomplice's 積分 and silver after.
- ``thinking``: the search-bot worker pool (``ThinkingPool``) with one victim table and six
  others, each table asking for its next move as soon as the last one is played (one move at a
  time per table, played ``bot_delay`` after it was asked or when it comes, as the server does):
  the victim's moves per second alone and against the six. Measured through the pool directly:
  through the server, search tables need seated people at search tables.
- ``slow``: five clients that never read a byte, each watching a busy table (bots playing flat out)
  and sending ``lobby on`` 95 times a second with 40 tables open, for ``--seconds``: the server's
  memory (RSS) before and after, and how many of them it closed.
- ``lobby``: 1,000 lobby subscribers while three clients toggle ``watch``/``leave`` as fast as their
  rate limit lets them, for ``--seconds``: ping p50/p99/max of another client, lobby messages each
  subscriber got.
- ``farm``: through the server, a broke guest joins an accomplice's table and escapes during the
  deal over and over for ``--seconds``: escapes made, the accomplice's 積分 and silver after.
- ``bodies`` (issue 46): six 256 MiB ``POST /api/login`` bodies at once from one address: the
  server's RSS before and at its peak, and what each got.
- ``idle``: 600 sockets, half sending nothing and half stopping mid-header: how many are still
  open after 30 s, and whether ``/api/health`` answers.
- ``togglers``: 19 guests of one address, each at a busy table, toggling ``lobby`` off and on at 90
  messages a second and reading everything, for ``--seconds``: a bystander's ping p50/p99/max and
  the MB they drew.
- ``tables``: 20 guests of one address ``create_table`` and ``leave`` over and over for 60 s: tables
  made per minute, refusals, ``live_tables`` rows left.
- ``eviction`` (issue 46): a registered account's log-in is locked by 5 wrong guesses; then, for
  ``--seconds``, rounds of 10,080 failed log-ins with unknown nicknames from 336 addresses (made-up
  ``X-Forwarded-For`` through a trusted proxy, 30 each: the per-address limit), each followed by
  guesses at the account until one is refused: how many guesses had their password checked, and
  how many the documented back-off allows in that time.
- ``concurrency`` (issue 46): 12 clients guessing at one account at once, each guess from another
  address, for ``--seconds`` (a locked client polls every 0.2 s): checks of the first 12 at once,
  and in all, against what the back-off allows.
- ``freeze`` (issue 46): a private table of one person (on autoplay) and three bots at the
  server's own pace, for ``--seconds`` alone and ``--seconds`` while another guest sends
  ``{"type": "watch", "table": ID, "invite": "é"}`` 5 times a second: plays per second of each
  half, and how the attacker was answered.
- ``frames`` (issue 46): 10 connections each send a JSON number of 5,000 digits, 10 others a lone
  surrogate as the message type (``"\\ud800"``), each followed by a ``ping``: how many still answer;
  and ``POST /api/guest``, ``/api/register``, ``/api/login`` with a 5,000-digit number: the statuses.
- ``laogai_farm`` (issue 46): a guest's table (``deal_interval_ms 0, bid_window_seconds 0,
  review_seconds 0, warn_wrong_follow true``, on autoplay) with two bots; a fresh guest opposite
  follows outside the led class in every trick, confirming ``laogai``, for ``--seconds``: hands,
  and the 積分 and silver the two people hold together, created per minute.
- ``ranked_farm`` (issue 46): the 勞改 farm by four registered accounts at the farm's pace (three on
  autoplay, the fourth 勞改 every hand): hands, and the 積分 and silver created per minute (a ranked
  hand, the one 積分 faucet, needs a whole hand at the standard pace).
- ``bot_tables`` (issue 46): one guest on autoplay with three bots at the server's fastest pace
  for ``--seconds``: hands, and the 積分 and silver created per minute.

    .venv/bin/python benchmarks/abuse.py                                   # this tree
    mkdir /tmp/before && git archive 4633f3d | tar -x -C /tmp/before
    .venv/bin/python benchmarks/abuse.py --repo /tmp/before                # the tree before issue 15
    .venv/bin/python benchmarks/abuse.py --only thinking --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import inspect
import itertools
import json
import os
import re
import secrets
import socket
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
from servers import unlimited
from websockets.asyncio.client import connect

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = (
    "login",
    "guest",
    "argon2",
    "escape",
    "thinking",
    "slow",
    "lobby",
    "farm",
    "bodies",
    "idle",
    "togglers",
    "tables",
    "eviction",
    "concurrency",
    "freeze",
    "frames",
    "laogai_farm",
    "ranked_farm",
    "bot_tables",
)
OPEN = {"deal_interval_ms": 0, "bid_window_seconds": 0.5, "review_seconds": 0, "turn_seconds": 60}
_RUNNING = re.compile(r"Uvicorn running on (http://[\d.]+:\d+)")
MAX_SECONDS = 120.0


class Server:
    """``python -m tuolaji.server`` from ``repo`` on a free port of 127.0.0.1, with its own database."""

    def __init__(self, repo: Path, args: Sequence[str]) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="tuolaji-abuse-")
        db = f"sqlite+aiosqlite:///{self.folder.name}/abuse.sqlite3"
        command = [sys.executable, "-m", "tuolaji.server", "--port", "0", "--db", db, "--log-level", "info", *args]
        env = {**os.environ, "PYTHONPATH": str(repo)}
        self.process = subprocess.Popen(
            command, cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        self.url = ""
        found = threading.Event()

        def read() -> None:
            assert self.process.stderr is not None
            for line in self.process.stderr:
                match = _RUNNING.search(line)
                if match and not found.is_set():
                    self.url = match.group(1)
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(30) or not self.url:
            self.stop()
            raise RuntimeError("the server did not start")

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL) and remove its database."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(15)
        self.folder.cleanup()


Scenario = Callable[[str], Awaitable[dict[str, Any]]]


class Ws:
    """A small WebSocket client for the scenarios: hello, send, and read what comes into a list."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.got: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def guest(cls, url: str, http: httpx.AsyncClient) -> Ws:
        token = (await http.post("/api/guest")).json()["token"]
        client = cls(await connect(url.replace("http://", "ws://") + "/ws", max_size=None))
        await client.send("hello", token=token)
        await client.until(lambda m: m["type"] == "welcome")
        return client

    @classmethod
    async def registered(cls, url: str, http: httpx.AsyncClient) -> Ws:
        """A new registered account's client (a random nickname and a strong password)."""
        nickname = "farm" + secrets.token_hex(4)
        answer = await http.post("/api/register", json={"nickname": nickname, "password": secrets.token_urlsafe(12)})
        client = cls(await connect(url.replace("http://", "ws://") + "/ws", max_size=None))
        await client.send("hello", token=answer.json()["token"])
        await client.until(lambda m: m["type"] == "welcome")
        return client

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for frame in self.ws:
                self.got.append(json.loads(frame))

    async def send(self, kind: str, **fields: Any) -> int:
        ref = next(self._ids)
        await self.ws.send(json.dumps({"v": 2, "type": kind, "id": ref, **fields}))
        return ref

    async def until(
        self, found: Callable[[dict[str, Any]], bool], timeout: float = 30.0, since: int = 0
    ) -> dict[str, Any]:
        """The first message from index ``since`` on that ``found`` accepts (polled; bounded)."""
        async with asyncio.timeout(timeout):
            while True:
                for message in self.got[since:]:
                    if found(message):
                        return message
                await asyncio.sleep(0.01)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        self._reader.cancel()


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024


def slow_readers(seconds: float, readers: int = 5, tables: int = 40) -> Callable[[Server], Awaitable[dict[str, Any]]]:
    """``readers`` clients that never read, each watching a busy table and sending ``lobby on`` at 95/s."""

    async def run(server: Server) -> dict[str, Any]:
        url = server.url
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            owners = [await Ws.guest(url, http) for _ in range(tables)]
            for owner in owners:
                await owner.send("play_now", options=OPEN)
                await owner.until(lambda m: m["type"] == "table")
                await owner.send("autoplay", on=True)
            ids = [next(m for m in owner.got if m["type"] == "table")["table"]["id"] for owner in owners]
            tokens = [(await http.post("/api/guest")).json()["token"] for _ in range(readers)]
        before = rss_mib(server.process.pid)
        sockets = []
        for index, token in enumerate(tokens):
            sock = await asyncio.to_thread(raw_socket, url)
            sock.sendall(frame(json.dumps({"v": 2, "type": "hello", "token": token})))
            sock.sendall(frame(json.dumps({"v": 2, "type": "watch", "table": ids[index]})))
            sockets.append(sock)
        peak = before
        deadline = time.monotonic() + seconds
        lobby_on = frame(json.dumps({"v": 2, "type": "lobby", "on": True}))
        while time.monotonic() < deadline:
            for sock in sockets:
                with contextlib.suppress(OSError):
                    sock.sendall(lobby_on)
            peak = max(peak, rss_mib(server.process.pid))
            await asyncio.sleep(1 / 95)
        after = rss_mib(server.process.pid)
        closed = 0
        for sock in sockets:
            closed += await asyncio.to_thread(closed_too_slow, sock)
            sock.close()
        for owner in owners:
            await owner.close()
        return {
            "rss_before_mib": round(before),
            "rss_peak_mib": round(peak),
            "rss_after_mib": round(after),
            "growth_mib": round(peak - before),
            "readers_closed_too_slow": closed,
        }

    return run


def raw_socket(url: str) -> socket.socket:
    """A WebSocket opened by hand with a tiny receive buffer, read only when the scenario wants."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
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
    return sock


def frame(text: str) -> bytes:
    """One masked WebSocket text frame."""
    data = text.encode()
    mask = os.urandom(4)
    size = bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0xFE]) + struct.pack(">H", len(data))
    return bytes([0x81]) + size + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(data))


def closed_too_slow(sock: socket.socket, within: float = 10.0) -> bool:
    """Whether the server closed this never-read socket as too slow: read what it holds (bounded in
    time) and look for the close frame's reason at its end."""
    sock.settimeout(within)
    tail = b""
    with contextlib.suppress(OSError):
        while chunk := sock.recv(1 << 16):
            tail = (tail + chunk)[-4096:]
    return b"too far behind" in tail


def lobby_fan_out(seconds: float, subscribers: int = 1000, togglers: int = 3) -> Scenario:
    """``subscribers`` lobby subscribers, ``togglers`` clients toggling watch/leave; a pinger's p99."""

    async def run(url: str) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            owner = await Ws.guest(url, http)
            await owner.send("create_table", options=OPEN)
            table_id = (await owner.until(lambda m: m["type"] == "table"))["table"]["id"]
            listeners = [await Ws.guest(url, http) for _ in range(subscribers)]
            for listener in listeners:
                await listener.send("lobby", on=True)
            toggles = [await Ws.guest(url, http) for _ in range(togglers)]
            token = (await http.post("/api/guest")).json()["token"]
        stop = asyncio.Event()

        async def toggle(client: Ws) -> int:
            count = 0
            while not stop.is_set():
                await client.send("watch", table=table_id)
                await client.send("leave")
                count += 2
                await asyncio.sleep(0.025)  # 80 messages a second, under the limit of 100
            return count

        marks = [len(listener.got) for listener in listeners]
        pings = asyncio.create_task(pinger(url, token, stop))
        toggling = [asyncio.create_task(toggle(client)) for client in toggles]
        await asyncio.sleep(seconds)
        stop.set()
        toggled = sum(await asyncio.gather(*toggling))
        times = await pings
        received = [len(listener.got) - mark for listener, mark in zip(listeners, marks, strict=True)]
        for client in [owner, *listeners, *toggles]:
            await client.close()
        return {
            **percentiles(times),
            "toggles": toggled,
            "lobby_messages_per_subscriber": round(statistics.fmean(received), 1),
        }

    return run


def farming(seconds: float) -> Scenario:
    """A broke guest escapes from an accomplice's table during the deal, over and over."""

    async def run(url: str) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            accomplice = await Ws.guest(url, http)
            escaper = await Ws.guest(url, http)
        await accomplice.send("create_table", options={**OPEN, "deal_interval_ms": 500})
        table_id = (await accomplice.until(lambda m: m["type"] == "table"))["table"]["id"]
        for seat in (2, 3):
            await accomplice.send("add_bot", seat=seat)
        await accomplice.send("start")
        escapes = refused = 0
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            mark = len(escaper.got)
            await escaper.send("join", table=table_id, seat=1)
            answer = await escaper.until(lambda m: m.get("type") in ("ack", "error"), 10, mark)
            if answer["type"] == "error":
                refused += 1
                await asyncio.sleep(0.05)
                continue
            await escaper.send("start")
            with contextlib.suppress(TimeoutError):
                await escaper.until(lambda m: m["type"] == "state" and m["view"] is not None, 5, mark)
            await escaper.send("leave")
            escapes += 1
            with contextlib.suppress(TimeoutError):
                await escaper.until(lambda m: m["type"] == "left", 5, mark)
            await accomplice.send("start")
        me = [m for m in accomplice.got if m["type"] == "account"]
        account = me[-1]["account"] if me else None
        await accomplice.close()
        await escaper.close()
        return {
            "escapes": escapes,
            "joins_refused": refused,
            "accomplice_points": account["points"] if account else 0,
            "accomplice_silver": account["silver"] if account else 1000,
        }

    return run


BODY_BYTES = 256 * 1024 * 1024


def big_body(url: str, deadline: float) -> str:
    """One ``POST /api/login`` declaring and sending a 256 MiB body, 1 MiB at a time, until the server
    answers or closes (or ``deadline``): the status it answered, or how the sending ended."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(
            f"POST /api/login HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {BODY_BYTES}\r\n\r\n".encode()
        )
        piece = b" " * (1 << 20)
        sent = 0
        try:
            while sent < BODY_BYTES and time.monotonic() < deadline:
                sock.sendall(piece)
                sent += len(piece)
            sock.settimeout(max(1.0, deadline - time.monotonic()))
            answer = sock.recv(256)
        except OSError:
            sock.settimeout(5)
            try:
                answer = sock.recv(256)
            except OSError:
                return "closed"
        return answer.split(b" ")[1].decode() if answer.startswith(b"HTTP/1.1 ") else "closed"


def huge_bodies(parallel: int = 6) -> Callable[[Server], Awaitable[dict[str, Any]]]:
    """``parallel`` 256 MiB log-in bodies at once from one address: the server's RSS before and at its peak."""

    async def run(server: Server) -> dict[str, Any]:
        pid = server.process.pid
        before = rss_mib(pid)
        deadline = time.monotonic() + MAX_SECONDS
        senders = [asyncio.create_task(asyncio.to_thread(big_body, server.url, deadline)) for _ in range(parallel)]
        peak = before
        while not all(sender.done() for sender in senders):
            peak = max(peak, rss_mib(pid))
            await asyncio.sleep(0.05)
        answers = [sender.result() for sender in senders]
        return {
            "rss_before_mib": round(before),
            "rss_peak_mib": round(peak),
            "growth_mib": round(peak - before),
            "answers": sorted(answers),
        }

    return run


def still_open(sock: socket.socket) -> bool:
    """Whether the server still holds ``sock`` open (nothing to read, no end of stream)."""
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def idle_sockets(count: int = 600, wait: float = 30.0) -> Scenario:
    """``count`` sockets, half sending nothing and half stopping in the middle of their headers: how
    many the server still holds after ``wait`` seconds, and whether ``/api/health`` answers meanwhile."""

    async def run(url: str) -> dict[str, Any]:
        host, port = url.removeprefix("http://").split(":")
        sockets = []
        for number in range(count):
            sock = socket.create_connection((host, int(port)), timeout=10)
            if number % 2:
                sock.sendall(f"GET /api/health HTTP/1.1\r\nHost: {host}\r\nX-Slow: ".encode())
            sockets.append(sock)
        await asyncio.sleep(wait)
        open_idle = sum(still_open(sock) for sock in sockets[0::2])
        open_half = sum(still_open(sock) for sock in sockets[1::2])
        async with httpx.AsyncClient(base_url=url, timeout=10) as http:
            health = (await http.get("/api/health")).status_code
        for sock in sockets:
            sock.close()
        return {
            "sockets": count,
            "seconds": wait,
            "open_idle": open_idle,
            "open_half_header": open_half,
            "health": health,
        }

    return run


class Counting:
    """A WebSocket client that counts what it reads (bytes, messages) without keeping it."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.bytes = 0
        self.messages = 0
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for frame in self.ws:
                self.bytes += len(frame)
                self.messages += 1

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        self._reader.cancel()


def lobby_togglers(seconds: float, togglers: int = 19) -> Scenario:
    """``togglers`` guests of one address, each at a busy table of its own, send ``lobby`` off and on as
    fast as their rate limit lets them and read all they get: a bystander's ping p50/p99/max, and
    the bytes the togglers drew."""

    async def run(url: str) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            players = [await Ws.guest(url, http) for _ in range(togglers)]
            for player in players:
                await player.send("play_now", options=OPEN)
                await player.until(lambda m: m["type"] == "table")
                await player.send("autoplay", on=True)
            tokens = [(await http.post("/api/guest")).json()["token"] for _ in range(togglers + 1)]
        ws_url = url.replace("http://", "ws://") + "/ws"
        clients = [Counting(await connect(ws_url, max_size=None)) for _ in range(togglers)]
        for client, token in zip(clients, tokens, strict=False):
            await client.ws.send(json.dumps({"v": 2, "type": "hello", "token": token}))
        stop = asyncio.Event()
        off = json.dumps({"v": 2, "type": "lobby", "on": False})
        on = json.dumps({"v": 2, "type": "lobby", "on": True})

        async def toggle(client: Counting) -> int:
            count = 0
            with contextlib.suppress(Exception):
                while not stop.is_set():
                    await client.ws.send(off)
                    await client.ws.send(on)
                    count += 2
                    await asyncio.sleep(0.022)  # 90 messages a second, under the limit of 100
            return count

        pings = asyncio.create_task(pinger(url, tokens[-1], stop))
        toggling = [asyncio.create_task(toggle(client)) for client in clients]
        await asyncio.sleep(seconds)
        stop.set()
        toggled = sum(await asyncio.gather(*toggling))
        times = await pings
        drawn = sum(client.bytes for client in clients)
        for client in clients:
            await client.close()
        for player in players:
            await player.close()
        return {**percentiles(times), "toggles": toggled, "seconds": seconds, "mb_drawn": round(drawn / 1e6, 1)}

    return run


async def answer_to(client: Ws, ref: int) -> dict[str, Any]:
    """The ``ack`` or ``error`` answering the message ``ref`` of ``client`` (bounded)."""
    return await client.until(lambda m: m.get("ref") == ref and m["type"] in ("ack", "error"), 10)


def table_spam(seconds: float = 60.0, guests: int = 20) -> Callable[[Server], Awaitable[dict[str, Any]]]:
    """``guests`` of one address each ``create_table`` then ``leave``, over and over, for ``seconds``:
    tables made (and per minute), refusals, and the ``live_tables`` rows left in the database."""

    async def run(server: Server) -> dict[str, Any]:
        url = server.url
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            clients = [await Ws.guest(url, http) for _ in range(guests)]
        deadline = time.monotonic() + seconds
        made = refused = 0

        async def spam(client: Ws) -> None:
            nonlocal made, refused
            while time.monotonic() < deadline:
                client.got.clear()
                answer = await answer_to(client, await client.send("create_table", options=OPEN))
                if answer["type"] == "error":
                    refused += 1
                    await asyncio.sleep(0.1)
                    continue
                made += 1
                await answer_to(client, await client.send("leave"))

        await asyncio.gather(*(spam(client) for client in clients))
        for client in clients:
            await client.close()
        with sqlite3.connect(Path(server.folder.name) / "abuse.sqlite3") as db:
            rows = db.execute("SELECT count(*) FROM live_tables").fetchone()[0]
        return {
            "guests": guests,
            "seconds": seconds,
            "tables_made": made,
            "per_minute": round(made * 60 / seconds),
            "refused": refused,
            "live_tables_rows": rows,
        }

    return run


def without(args: Sequence[str], flag: str) -> tuple[str, ...]:
    """``args`` (flag, value pairs) without ``flag`` and its value."""
    pairs = zip(args[0::2], args[1::2], strict=True)
    return tuple(word for option, value in pairs if option != flag for word in (option, value))


async def bounds(repo: Path, chosen: list[str], seconds: float) -> dict[str, Any]:
    """Issue 46's bounds on requests and sockets (``bodies``, ``idle``, ``togglers``, ``tables``), each
    against a fresh server from ``repo``."""
    report: dict[str, Any] = {}
    if "bodies" in chosen:
        server = Server(repo, ())
        try:
            report["bodies_6x256MiB"] = await huge_bodies()(server)
        finally:
            server.stop()
    if "idle" in chosen:
        report["idle_sockets_600"] = await with_server(repo, (), idle_sockets())
    if "togglers" in chosen:
        args = without(unlimited(repo), "--lobby-per-address")
        report["lobby_19_togglers"] = await with_server(repo, args, lobby_togglers(seconds))
    if "tables" in chosen:
        server = Server(repo, without(unlimited(repo), "--tables-per-address"))
        try:
            report["table_spam_20_guests"] = await table_spam()(server)
        finally:
            server.stop()
    return report


def plays_seen(messages: list[dict[str, Any]]) -> int:
    """The ``play`` events in the (not full) ``state`` messages of ``messages``."""
    return sum(
        1
        for message in messages
        if message["type"] == "state" and not message.get("full")
        for event in message.get("events", [])
        if event.get("type") == "play"
    )


def freeze(seconds: float, per_second: float = 5.0) -> Scenario:
    """Plays per second at a private table, alone and under ``watch`` with a bad invite code."""

    async def run(url: str) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            owner = await Ws.guest(url, http)
            attacker = await Ws.guest(url, http)
        options = {**OPEN, "turn_seconds": 60, "review_seconds": 0}
        await owner.send("create_table", options=options, private=True)
        table_id = (await owner.until(lambda m: m["type"] == "table"))["table"]["id"]
        for seat in (1, 2, 3):
            await owner.send("add_bot", seat=seat)
        await owner.send("start")
        await owner.until(lambda m: m["type"] == "state" and m["view"] is not None)
        await owner.send("autoplay", on=True)
        mark = len(owner.got)
        await asyncio.sleep(seconds)
        alone = plays_seen(owner.got[mark:]) / seconds
        mark = len(owner.got)
        deadline = time.monotonic() + seconds
        sent = 0
        while time.monotonic() < deadline:
            await attacker.send("watch", table=table_id, invite="é")
            sent += 1
            await asyncio.sleep(1 / per_second)
        attacked = plays_seen(owner.got[mark:]) / seconds
        answers: dict[str, int] = {}
        for message in attacker.got:
            if message["type"] == "error":
                answers[message["code"]] = answers.get(message["code"], 0) + 1
        await owner.close()
        await attacker.close()
        return {
            "plays_per_s_alone": round(alone, 2),
            "plays_per_s_attacked": round(attacked, 2),
            "bad_watches_sent": sent,
            "attacker_answers": answers,
        }

    return run


async def frames_that_kill(url: str, each: int = 10) -> dict[str, Any]:
    """Connections sent a 5,000-digit number or a lone surrogate, then a ping: how many answer it."""
    bad = {
        "number_5000_digits": '{"v":2,"type":"ping","id":' + "9" * 5000 + "}",
        "surrogate_type": '{"v":2,"type":"\\ud800"}',
    }
    report: dict[str, Any] = {}
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        for name, text in bad.items():
            answered = 0
            for _ in range(each):
                client = await Ws.guest(url, http)
                await client.ws.send(text)
                mark = len(client.got)
                await client.send("ping")
                with contextlib.suppress(TimeoutError):
                    await client.until(lambda m: m.get("type") == "pong", 5, mark)
                    answered += 1
                await client.close()
            report[f"{name}_connections_answering"] = f"{answered}/{each}"
    body = '{"nickname": "alice", "password": ' + "1" * 5000 + "}"
    for path in ("/api/guest", "/api/register", "/api/login"):
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            try:
                report[f"{path}_status"] = (await http.post(path, content=body)).status_code
            except httpx.TransportError as error:
                report[f"{path}_status"] = f"no answer ({type(error).__name__})"
    return report


FARM_OPTIONS = {
    "deal_interval_ms": 0,
    "bid_window_seconds": 0,
    "review_seconds": 0,
    "turn_seconds": 60,
    "warn_wrong_follow": True,
}


def off_class(view: dict[str, Any]) -> list[str] | None:
    """Cards outside the led suit-class while holding it (R23/R24 broken), if the hand has them."""

    def suit_class(card: str) -> str:
        trump = card in ("BJ", "SJ") or card[0] in (view["level"], "2") or card[1] == view["trump_suit"]
        return "trump" if trump else card[1]

    lead = view["trick"][0]["cards"]
    others = [card for card in view["hand"] if suit_class(card) != suit_class(lead[0])]
    if len(others) < len(lead) or len(others) == len(view["hand"]):
        return None
    return others[: len(lead)]


async def wrong_follower(client: Ws, deadline: float) -> int:
    """Play every turn of ``client`` until ``deadline``: a wrong follow confirmed as 勞改 (R33) when
    the hand allows one, else the hint; bid when asked. The 勞改 confirmations made."""
    done: set[tuple[Any, ...]] = set()
    confirmed = 0
    while time.monotonic() < deadline:
        await asyncio.sleep(0.005)
        state = next((m for m in reversed(client.got) if m["type"] == "state"), None)
        if state is None or state["view"] is None or state["view"]["seat"] is None:
            continue
        view = state["view"]
        key = (state["hand"], view["phase"], view["tricks_played"], len(view["trick"]), view["to_move"])
        if key in done:
            continue
        if view["phase"] in ("dealing", "bidding") and view["bid"] is None and view["bid_options"]:
            option = max(view["bid_options"], key=lambda item: item["count"])
            await client.send("bid", suit=option["suit"], count=option["count"])
        elif view["phase"] == "playing" and view["to_move"] == view["seat"]:
            wrong = off_class(view) if view["trick"] else None
            if wrong is not None:
                await client.send("play", cards=wrong, laogai=True)
                confirmed += 1
            elif view["hint"]:
                await client.send("play", cards=view["hint"])
        else:
            continue
        done.add(key)
    return confirmed


def answered(ref: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a message answers the request numbered ``ref``."""
    return lambda message: message["type"] in ("ack", "error") and message.get("ref") == ref


def holdings(client: Ws) -> tuple[int, int]:
    """The client's 積分 and silver from the newest ``account`` (or ``welcome``) message."""
    for message in reversed(client.got):
        if message["type"] in ("account", "welcome") and message.get("account"):
            return message["account"]["points"], message["account"]["silver"]
    raise RuntimeError("no account seen")


def created(people: Sequence[Ws], before: Sequence[tuple[int, int]], seconds: float) -> dict[str, Any]:
    """Hands seen and the 積分 and silver the people gained together, in all and per minute."""
    after = [holdings(client) for client in people]
    points = sum(p for p, _ in after) - sum(p for p, _ in before)
    silver = sum(s for _, s in after) - sum(s for _, s in before)
    return {
        "hands": sum(1 for m in people[0].got if m["type"] == "hand_end"),
        "seconds": round(seconds, 1),
        "points_created": points,
        "silver_created": silver,
        "points_per_minute": round(points * 60 / seconds, 1),
        "silver_per_minute": round(silver * 60 / seconds, 1),
        "people_after": after,
    }


def laogai_farm(seconds: float) -> Scenario:
    """Issue 46 (a): an accomplice's fast table, two bots, a guest opposite who is 勞改 every hand."""

    async def run(url: str) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            owner = await Ws.guest(url, http)
            victim = await Ws.guest(url, http)
        before = [holdings(owner), holdings(victim)]
        await owner.send("create_table", options=FARM_OPTIONS)
        table_id = (await owner.until(lambda m: m["type"] == "table"))["table"]["id"]
        for seat in (2, 3):
            await owner.send("add_bot", seat=seat)
        ref = await victim.send("join", table=table_id, seat=1)
        await victim.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == ref)
        await owner.send("start")
        await victim.send("start")
        await owner.until(lambda m: m["type"] == "state" and m["view"] is not None)
        await owner.send("autoplay", on=True)
        started = time.monotonic()
        confirmed = await wrong_follower(victim, started + seconds)
        report = {**created([owner, victim], before, time.monotonic() - started), "laogai_confirmed": confirmed}
        await owner.close()
        await victim.close()
        return report

    return run


def ranked_farm(seconds: float) -> Scenario:
    """Issue 46: the 勞改 farm by four registered accounts (no guest, no bot) at the farm's pace: the
    owner and two accomplices on autoplay, the fourth 勞改 every hand."""

    async def run(url: str) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            people = [await Ws.registered(url, http) for _ in range(4)]
        owner, victim = people[0], people[1]
        before = [holdings(client) for client in people]
        await owner.send("create_table", options=FARM_OPTIONS)
        table_id = (await owner.until(lambda m: m["type"] == "table"))["table"]["id"]
        for seat, client in ((1, victim), (2, people[2]), (3, people[3])):
            ref = await client.send("join", table=table_id, seat=seat)
            await client.until(answered(ref))
        for client in people:
            await client.send("start")
        await owner.until(lambda m: m["type"] == "state" and m["view"] is not None)
        for client in (owner, people[2], people[3]):
            await client.send("autoplay", on=True)
        started = time.monotonic()
        confirmed = await wrong_follower(victim, started + seconds)
        report = {**created(people, before, time.monotonic() - started), "laogai_confirmed": confirmed}
        for client in people:
            await client.close()
        return report

    return run


def bot_tables(seconds: float) -> Scenario:
    """Issue 46 (b): one guest on autoplay with three bots, hands as fast as the server deals them."""

    async def run(url: str) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            person = await Ws.guest(url, http)
        before = [holdings(person)]
        await person.send("create_table", options={**OPEN, "bid_window_seconds": 0, "review_seconds": 0})
        await person.until(lambda m: m["type"] == "table")
        for seat in (1, 2, 3):
            await person.send("add_bot", seat=seat)
        await person.send("start")
        await person.until(lambda m: m["type"] == "state" and m["view"] is not None)
        await person.send("autoplay", on=True)
        started = time.monotonic()
        await asyncio.sleep(seconds)
        report = created([person], before, time.monotonic() - started)
        await person.close()
        return report

    return run


async def with_server(repo: Path, args: Sequence[str], run: Scenario) -> dict[str, Any]:
    """``run(url)`` against a fresh server from ``repo`` started with ``args``."""
    server = Server(repo, args)
    try:
        return await run(server.url)
    finally:
        server.stop()


async def login_flood(url: str) -> dict[str, Any]:
    """60 log-ins with 60 made-up client addresses, one after the other."""
    codes: list[int] = []
    async with httpx.AsyncClient(base_url=url) as http:
        for number in range(60):
            answer = await http.post(
                "/api/login",
                json={"nickname": f"nobody{number}", "password": "password1"},
                headers={"X-Forwarded-For": f"198.51.100.{number}"},
            )
            codes.append(answer.status_code)
    return {"attempts": len(codes), "answered_401": codes.count(401), "refused_429": codes.count(429)}


async def guest_flood(url: str) -> dict[str, Any]:
    """200 guest creations from 127.0.0.1, each with a made-up ``X-Forwarded-For``."""
    made = refused = 0
    started = time.monotonic()
    async with httpx.AsyncClient(base_url=url) as http:
        for number in range(200):
            answer = await http.post("/api/guest", headers={"X-Forwarded-For": f"203.0.113.{number % 250}"})
            made += answer.status_code == 201
            refused += answer.status_code == 429
    return {"attempts": 200, "made": made, "refused_429": refused, "seconds": round(time.monotonic() - started, 1)}


async def pinger(url: str, token: str, stop: asyncio.Event, every: float = 0.02) -> list[float]:
    """Round-trip times (ms) of ``ping`` over one WebSocket until ``stop``."""
    times: list[float] = []
    async with connect(url.replace("http://", "ws://") + "/ws") as ws:
        await ws.send(json.dumps({"v": 2, "type": "hello", "id": 0, "token": token}))
        while json.loads(await ws.recv())["type"] != "welcome":
            pass
        for ref in itertools.count(1):
            if stop.is_set():
                break
            sent = time.perf_counter()
            await ws.send(json.dumps({"v": 2, "type": "ping", "id": ref}))
            while json.loads(await ws.recv()).get("type") != "pong":
                pass
            times.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(every)
    return times


def percentiles(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "pings": len(ordered),
        "p50_ms": round(statistics.median(ordered), 1),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1),
        "max_ms": round(ordered[-1], 1),
    }


def argon2_flood(seconds: float, clients: int = 12) -> Scenario:
    """``clients`` log-in loops for ``seconds`` while one WebSocket client pings."""

    async def run(url: str) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            made = await http.post("/api/register", json={"nickname": "victim", "password": "hunter22"})
            token = made.json()["token"]
            idle_stop = asyncio.Event()
            idle = asyncio.create_task(pinger(url, token, idle_stop))
            await asyncio.sleep(min(5.0, seconds / 2))
            idle_stop.set()
            baseline = await idle

            codes: list[int] = []
            deadline = time.monotonic() + seconds

            async def login_loop() -> None:
                while time.monotonic() < deadline:
                    answer = await http.post("/api/login", json={"nickname": "victim", "password": "hunter22"})
                    codes.append(answer.status_code)
                    if answer.status_code == 503:
                        await asyncio.sleep(0.05)

            stop = asyncio.Event()
            busy = asyncio.create_task(pinger(url, token, stop))
            await asyncio.gather(*(login_loop() for _ in range(clients)))
            stop.set()
            loaded = await busy
        return {
            "idle_ping": percentiles(baseline),
            "ping_under_logins": percentiles(loaded),
            "logins_per_s": round(codes.count(200) / seconds, 1),
            "answered_503": codes.count(503),
            "other": sorted({code for code in codes if code not in (200, 503)}),
        }

    return run


LOCK_SCHEDULE = (0.0, 0.0, 0.0, 0.0, 0.0, 30.0, 90.0, 210.0, 450.0, 930.0, 1830.0)
"""When the documented back-off lets guesses at one nickname start, from the first (4 free failures,
then 30 s doubling up to 15 min)."""
PROXY = ("--forwarded-allow-ips", "127.0.0.1")


def allowed_guesses(seconds: float) -> int:
    """Guesses the documented back-off allows at one nickname within ``seconds`` of the first."""
    return sum(start <= seconds for start in LOCK_SCHEDULE)


class Addresses:
    """Made-up client addresses (documentation ranges and 10/8), each used for at most 30 requests."""

    def __init__(self) -> None:
        self._next = itertools.count(1)

    def take(self) -> str:
        number = next(self._next)
        return f"10.{number >> 16 & 255}.{number >> 8 & 255}.{number & 255}"


async def guess(http: httpx.AsyncClient, nickname: str, address: str, password: str = "wrong-guess") -> int:
    """One log-in at ``nickname`` from ``address``; its status."""
    answer = await http.post(
        "/api/login", json={"nickname": nickname, "password": password}, headers={"X-Forwarded-For": address}
    )
    return answer.status_code


async def unknown_flood(http: httpx.AsyncClient, addresses: Addresses, count: int = 10_080, per: int = 30) -> int:
    """``count`` failed log-ins with unknown nicknames, ``per`` from each address, 16 at a time."""
    sources = [addresses.take() for _ in range(-(-count // per))]
    done = 0

    async def worker(numbers: range) -> None:
        nonlocal done
        for n in numbers:
            await guess(http, f"nobody-{sources[n // per]}-{n}", sources[n // per])
            done += 1

    await asyncio.gather(*(worker(range(k, count, 16)) for k in range(16)))
    return done


def eviction_attack(seconds: float) -> Scenario:
    """Lock an account, then flood unknown nicknames and guess again, for ``seconds``."""

    async def run(url: str) -> dict[str, Any]:
        addresses = Addresses()
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            made = await http.post("/api/register", json={"nickname": "victim", "password": "Tuolaji-victim-1"})
            assert made.status_code == 201, made.text
            started = time.monotonic()
            checks = rounds = flooded = 0
            for _ in range(6):
                code = await guess(http, "victim", addresses.take())
                checks += code == 401
                if code == 429:
                    break
            while time.monotonic() - started < seconds:
                flooded += await unknown_flood(http, addresses)
                rounds += 1
                for _ in range(6):
                    code = await guess(http, "victim", addresses.take())
                    checks += code == 401
                    if code != 401:
                        break
            elapsed = time.monotonic() - started
        return {
            "seconds": round(elapsed, 1),
            "flood_rounds": rounds,
            "unknown_logins": flooded,
            "victim_checks": checks,
            "back_off_allows": allowed_guesses(elapsed),
            "per_15_min_at_this_pace": round(checks * 900 / elapsed),
        }

    return run


def concurrent_guessing(seconds: float, clients: int = 12) -> Scenario:
    """``clients`` guessing loops at one account, each guess from a fresh address, for ``seconds``."""

    async def run(url: str) -> dict[str, Any]:
        addresses = Addresses()
        async with httpx.AsyncClient(base_url=url, timeout=60, limits=httpx.Limits(max_connections=64)) as http:
            made = await http.post("/api/register", json={"nickname": "victim", "password": "Tuolaji-victim-1"})
            assert made.status_code == 201, made.text
            first = await asyncio.gather(*(guess(http, "victim", addresses.take()) for _ in range(clients)))
            started = time.monotonic()
            codes: list[int] = list(first)

            async def loop() -> None:
                while time.monotonic() - started < seconds:
                    code = await guess(http, "victim", addresses.take())
                    codes.append(code)
                    if code != 401:
                        await asyncio.sleep(0.2)

            await asyncio.gather(*(loop() for _ in range(clients)))
            elapsed = time.monotonic() - started
        return {
            "seconds": round(elapsed, 1),
            "first_12_at_once_checked": first.count(401),
            "first_12_at_once_busy_503": first.count(503),
            "victim_checks": codes.count(401),
            "refused_429": codes.count(429),
            "busy_503": codes.count(503),
            "back_off_allows": allowed_guesses(elapsed),
        }

    return run


def escape_farming() -> dict[str, Any]:
    """A broke account escapes 487 times; its accomplice is an opponent (seat 1), starting at 0 積分, 1,000 silver."""
    from tuolaji.game import RoundResult
    from tuolaji.game.settlement import Balance, apply_change, rank_title, settle

    table = [Balance(0, 0), Balance(0, 1000), Balance(0, 0), Balance(0, 0)]
    for _ in range(487):
        changes = settle(RoundResult(kind="escape", dealer=0, escaped=0), table)
        table = [apply_change(balance, change) for balance, change in zip(table, changes, strict=True)]
    return {
        "escapes": 487,
        "escaper": {"points": table[0].points, "silver": table[0].silver},
        "accomplice": {"points": table[1].points, "silver": table[1].silver, "rank": rank_title(table[1].points)[0]},
    }


def positions(count: int) -> list[Any]:
    """``count`` views of a seat to lead the first trick (each a different deal, bid by heuristic bots)."""
    from tuolaji.bots import make_bot
    from tuolaji.game.driver import deal_and_bid
    from tuolaji.game.round import Round, RoundSetup

    views = []
    for seed in itertools.count(1):
        round_ = Round(RoundSetup(seed=seed, dealer=0))
        if deal_and_bid(round_, [make_bot("heuristic", seed * 4 + seat) for seat in range(4)]):
            seat = round_.to_move
            assert seat is not None
            views.append(round_.view(seat))
        if len(views) == count:
            return views
    raise AssertionError("unreachable")


async def table_loop(pool: Any, table: str, view: Any, bot_delay: float, deadline: float, moves: list[float]) -> None:
    """One table: ask for a move, play it ``bot_delay`` after asking or when it comes, ask again."""
    keyword = "table" in inspect.signature(pool.ask).parameters
    seed = 0
    while time.monotonic() < deadline:
        asked = time.monotonic()
        seed += 1
        future = pool.ask("search", seed, view, table=table) if keyword else pool.ask("search", seed, view)
        await future
        wait = bot_delay - (time.monotonic() - asked)
        if wait > 0:
            await asyncio.sleep(wait)
        if time.monotonic() <= deadline:
            moves.append(time.monotonic())


async def fairness(seconds: float, budget_ms: float, bot_delay: float, others: int = 6) -> dict[str, Any]:
    from tuolaji.server.config import default_bot_workers
    from tuolaji.server.thinking import ThinkingPool

    views = positions(others + 1)
    rates = {}
    for load in (0, others):
        pool = ThinkingPool(default_bot_workers(), budget_ms)
        try:
            await pool.ask("search", 0, views[0])  # start the workers before the clock
            deadline = time.monotonic() + seconds
            victim: list[float] = []
            tasks = [table_loop(pool, "victim", views[0], bot_delay, deadline, victim)]
            tasks += [table_loop(pool, f"t{n}", views[n + 1], bot_delay, deadline, []) for n in range(load)]
            await asyncio.gather(*tasks)
        finally:
            await pool.close()
        rates[load] = len(victim) / seconds
    return {
        "workers": default_bot_workers(),
        "budget_ms": budget_ms,
        "bot_delay_s": bot_delay,
        "victim_moves_per_s_alone": round(rates[0], 2),
        f"victim_moves_per_s_with_{others}": round(rates[others], 2),
        "kept": f"{100 * rates[others] / rates[0]:.0f}%",
    }


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    repo = Path(args.repo).resolve()
    chosen = args.only.split(",") if args.only else list(SCENARIOS)
    seconds = min(args.seconds, MAX_SECONDS)
    report: dict[str, Any] = {"repo": str(repo)}
    if "login" in chosen:
        report["login_flood_forged_xff"] = await with_server(repo, (), login_flood)
    if "guest" in chosen:
        report["guest_flood_forged_xff"] = await with_server(repo, (), guest_flood)
    if "argon2" in chosen:
        report["argon2_12_clients"] = await with_server(repo, ("--account-rate", "0"), argon2_flood(seconds))
    if "escape" in chosen:
        report["escape_farming"] = escape_farming()
    if "slow" in chosen:
        server = Server(repo, ("--bot-delay", "0", "--next-hand-delay", "0", *unlimited(repo)))
        try:
            report["slow_readers_5"] = await slow_readers(seconds)(server)
        finally:
            server.stop()
    if "lobby" in chosen:
        report["lobby_1000_subscribers_3_togglers"] = await with_server(repo, unlimited(repo), lobby_fan_out(seconds))
    if "farm" in chosen:
        args_farm = ("--bot-delay", "0", "--next-hand-delay", "0", *unlimited(repo))
        report["escape_farming_server"] = await with_server(repo, args_farm, farming(seconds))
    report.update(await bounds(repo, chosen, seconds))
    if "eviction" in chosen:
        report["login_eviction_attack"] = await with_server(repo, PROXY, eviction_attack(seconds))
    if "concurrency" in chosen:
        report["login_12_concurrent_guessers"] = await with_server(repo, PROXY, concurrent_guessing(seconds))
    if "freeze" in chosen:
        report["freeze_private_table"] = await with_server(repo, unlimited(repo), freeze(seconds))
    if "frames" in chosen:
        report["frames_that_kill"] = await with_server(repo, unlimited(repo), frames_that_kill)
    fast = ("--bot-delay", "0", "--next-hand-delay", "0", *unlimited(repo))
    if "laogai_farm" in chosen:
        report["laogai_farm"] = await with_server(repo, fast, laogai_farm(seconds))
    if "ranked_farm" in chosen:
        report["ranked_farm"] = await with_server(repo, fast, ranked_farm(seconds))
    if "bot_tables" in chosen:
        report["bot_tables_one_person"] = await with_server(repo, fast, bot_tables(seconds))
    if "thinking" in chosen:
        report["thinking_server_pace"] = await fairness(seconds, args.budget_ms, bot_delay=0.6)
        report["thinking_flat_out"] = await fairness(seconds, args.budget_ms, bot_delay=0.0)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", default=str(REPO), help="source tree whose server and modules are measured")
    parser.add_argument("--only", help=f"comma-separated scenarios of {', '.join(SCENARIOS)}")
    parser.add_argument("--seconds", type=float, default=15.0, help=f"length of timed scenarios (≤ {MAX_SECONDS:g})")
    parser.add_argument("--budget-ms", type=float, default=300.0, help="the search bot's full budget per move")
    args = parser.parse_args()
    unknown = set(args.only.split(",")) - set(SCENARIOS) if args.only else set()
    if unknown:
        parser.error(f"--only: unknown scenario(s) {', '.join(sorted(unknown))}; choose from {', '.join(SCENARIOS)}")
    sys.path.insert(0, str(Path(args.repo).resolve()))
    print(json.dumps(asyncio.run(main_async(args)), ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
