"""Load test: a real server and N tables of four bot clients over real WebSockets on loopback.

Every client plays its seat with zero think time (the view's legal ``hint``; it bids its longest
level-card suit while nobody has bid); each bid and play carries an ``id``, as the browser's do, so
the server acks it as in play. The run is bounded: ``--seconds`` of measured play per table
count, after the tables are seated (and after ``--warmup`` seconds of play, when given: every table
starts its first hand in the first ``--think-ms`` of a run, so with a think time the first seconds
are a burst of deals and bids no room sees in steady play; a warm-up measures past it). Reported
per run: moves/s, hands/s, p50/p99/max latency from a client sending a move to that client
receiving the broadcast that contains it, the CPU of the server
(also per move: everything it did, bids and trick reviews included, divided by the moves played),
of the client processes and of the whole machine (in cores: 100% = one core; machine minus server
and clients is other load on the box), the server's memory (RSS, and RSS per table), and its write
syscalls a move (``/proc/PID/io`` ``syscw``: a socket write of the event loop each, plus the log's
file writes), and its garbage collector's share (ms a second, passes over 50 ms, full passes and
their mean, from ``/metrics``). ``--timeline`` prints the window second by second with what was busy
then: the node (its CPU and collector ms, sampled each second), a client process (its own longest
collector pause: the measuring side's delay is part of the latency it measures) or the host (steal).

The clients speak RFC 6455 through the ``websockets`` sans-I/O protocol on uvloop, handling each
frame in ``data_received``: they share the machine with the server, so they are kept lean.

    .venv/bin/python benchmarks/load.py --tables 200 --seconds 20
    .venv/bin/python benchmarks/load.py --sweep 25,50,100,150,200,300 --seconds 15
    .venv/bin/python benchmarks/load.py --tables 200 --think-ms 500     # a human-like pace
    .venv/bin/python benchmarks/load.py --tables 2000 --think-ms 2000 --think-spread 0.5 --client-procs 2
    .venv/bin/python benchmarks/load.py --tables 1000 --think-ms 2000 --think-spread 0.5 --warmup 15  # steady play
    .venv/bin/python benchmarks/load.py --tables 1000 --think-ms 2000 --think-spread 0.5 --timeline  # second by second
    .venv/bin/python benchmarks/load.py --tables 200 --code old=/tmp/old,new=.   # two source trees, one run
    .venv/bin/python benchmarks/load.py --tables 200 --postgres postgresql+asyncpg://postgres@127.0.0.1/postgres
    .venv/bin/python benchmarks/load.py --sweep 200,400 --nodes 1,2 --postgres postgresql+asyncpg://…  # Redis too
    .venv/bin/python benchmarks/load.py --tables 200 --rounds 3 \
        --variants "on=--log-level info;off=--no-metrics --log-format console --log-level info"  # metrics' cost

With several nodes (``--nodes``) each client first connects to a node at random, as a proxy spreads
them; a table runs on its creator's node, and a client told that its table runs on another node
(``table_node``, docs/PROTOCOL.md §3) connects there before the measured play, as the browser does
(a tree whose server tells nothing leaves its clients where they landed: most moves then cross nodes).

``--think-spread F`` draws each think time at random between (1 − F) and (1 + F) times ``--think-ms``,
so the tables do not move in step; with a think time the tables start spread over one and bid for
:data:`PACED_BID_WINDOW` seconds. ``--code`` compares server source trees (e.g. a ``git worktree``
of an older commit) in one run, each table count played on each tree in turn; ``--variants`` compares
server options the same way (each variant's options come after the benchmark's own, so they override
them), and ``--rounds`` repeats the whole alternation, then prints each tree's and variant's means.
``--postgres`` names
a server where every run creates a database of its own (dropped afterwards) instead of an SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import multiprocessing
import os
import random
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any, cast

import httpx
import uvloop
from prometheus_client.parser import text_string_to_metric_families
from quantiles import percentile
from servers import REPO, fresh_database, redis_server, source_trees, start_server
from sqlalchemy.engine import make_url
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.typing import BytesLike
from websockets.uri import parse_uri

TABLE_OPTIONS = {"deal_interval_ms": 0, "bid_window_seconds": 1.0, "review_seconds": 0, "turn_seconds": 60}
PACED_BID_WINDOW = 5.0
"""The bid window with a think time: thousands of tables dealt within a second must all get their
bids in (a 1 s window then closes unbid, and a table redeals until R20 stops it)."""
MAX_TABLES = 5000
"""At four connections a table, 5,000 tables pass the 20,000 open files a process may have here."""
MAX_SECONDS = 1800
"""Long enough for a run to see the collector's rare full passes (every few minutes at the most)."""
CLK_TCK = os.sysconf("SC_CLK_TCK")


@dataclass
class Sample:
    """Server process CPU seconds, RSS bytes and write syscalls (``syscw``: each socket write of the
    event loop, and the log's file writes) at one moment."""

    when: float
    cpu: float
    rss: int
    writes: int


def sample(pid: int) -> Sample:
    """Read CPU time and RSS of ``pid`` from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / CLK_TCK
    with open(f"/proc/{pid}/status") as status:
        rss = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:"))
    with open(f"/proc/{pid}/io") as io:
        writes = next(int(line.split()[1]) for line in io if line.startswith("syscw:"))
    return Sample(time.monotonic(), cpu, rss, writes)


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU jiffies of the whole machine, from /proc/stat."""
    values = machine_times()
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def machine_times() -> list[int]:
    """The whole machine's CPU jiffies by kind, from /proc/stat (user, nice, system, idle, iowait,
    irq, softirq, steal, …)."""
    with open("/proc/stat") as stat:
        return [int(value) for value in stat.readline().split()[1:]]


def watch_window(pids: list[int], bases: list[str], start: float, seconds: float) -> list[dict[str, float]]:
    """Sample each second of the measured window (from ``start``, ``time.perf_counter``): the nodes'
    CPU (1.0 = a core), their collector's ms, and the share of the machine's time its host took
    (steal), so a slow second can be told apart: a busy node, its collector, or the host."""
    rows = []

    def now() -> tuple[float, float, list[int]]:
        totals = gc_pauses(bases) or {}
        return (
            sum(sample(pid).cpu for pid in pids),
            sum(values[0] for values in totals.values()),
            machine_times(),
        )

    before = now()
    second = 0
    while start + second + 1 <= start + seconds:
        time.sleep(max(0.0, start + second + 1 - time.perf_counter()))
        after = now()
        total = sum(after[2]) - sum(before[2])
        rows.append(
            {
                "second": second,
                "node_cpu": after[0] - before[0],
                "node_gc_ms": (after[1] - before[1]) * 1000,
                "steal": (after[2][7] - before[2][7]) / total if total else 0.0,
            }
        )
        before = after
        second += 1
    time.sleep(max(0.0, start + seconds - time.perf_counter()))
    return rows


class Socket(asyncio.Protocol):
    """A client WebSocket on the ``websockets`` sans-I/O protocol (RFC 6455 handshake and framing).

    Frames are handed to ``handler`` (bytes of one text message) right in ``data_received``: no
    reader task and no task switch per frame, so the clients leave more CPU to the server.
    """

    def __init__(self, url: str) -> None:
        self.protocol = ClientProtocol(parse_uri(url), max_size=None)
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.handler: Callable[[bytes], None] = self.inbox.put_nowait
        self.transport: asyncio.Transport | None = None
        self._parts: list[BytesLike] = []

    @classmethod
    async def open(cls, url: str) -> Socket:
        """Connect to ``url`` (``ws://host:port/path``) and complete the opening handshake."""
        uri = parse_uri(url)
        _, sock = await asyncio.get_running_loop().create_connection(lambda: cls(url), uri.host, uri.port)
        async with asyncio.timeout(30):
            await sock.opened
        return sock

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports do not subclass it
        self.protocol.send_request(self.protocol.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Frame):
                if event.opcode in (Opcode.TEXT, Opcode.CONT):
                    self._parts.append(event.data)
                    if event.fin:
                        self.handler(b"".join(self._parts))
                        self._parts.clear()
            elif not self.opened.done():
                if self.protocol.handshake_exc is not None:
                    self.opened.set_exception(self.protocol.handshake_exc)
                else:
                    self.opened.set_result(None)
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("the connection closed during the handshake"))

    def send(self, body: dict[str, Any]) -> None:
        """Send one JSON message."""
        self.protocol.send_text(json.dumps(body, separators=(",", ":")).encode())
        self._flush()

    def _flush(self) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        for chunk in self.protocol.data_to_send():
            if chunk:
                self.transport.write(chunk)
            else:
                self.transport.close()

    def close(self) -> None:
        """Send a close frame and let the server finish the closing handshake."""
        if self.transport is not None and not self.transport.is_closing():
            self.protocol.send_close(1000)
            self._flush()

    async def expect(self, kind: str) -> dict[str, Any]:
        """The next message of type ``kind`` (before the seat plays; a refusal raises)."""
        async with asyncio.timeout(30):
            while True:
                message: dict[str, Any] = json.loads(await self.inbox.get())
                if message["type"] == "error":
                    raise RuntimeError(f"server refused: {message}")
                if message["type"] == kind:
                    return message


class Seat:
    """One bot client: plays its hints, measures move-to-broadcast latency.

    To keep the clients' CPU for the server, a frame is parsed only when it may need an answer:
    plain substring tests on the compact JSON skip the others (the server's encoding is fixed).
    """

    def __init__(self, sock: Socket, seat: int, think: float, spread: float = 0.0) -> None:
        self.sock = sock
        self.seat = seat
        self.think = think
        self.spread = spread
        self.own_play = f'"type":"play","seat":{seat},'.encode()
        self.my_turn = f'"to_move":{seat},'.encode()
        self.sent_at: float | None = None
        self.sent_measured = False
        """Whether the move in flight was sent in the measured window (not in the warm-up)."""
        self.sent = 0
        """Moves sent: each carries an ``id`` as the browser's do, so the server acks it (an ``ack`` and
        a ``state`` to the mover, as in play)."""
        self.acted: tuple[Any, ...] | None = None
        self.latencies: list[tuple[float, float]] = []
        """Each measured move: when it was sent (``time.perf_counter``) and its latency, in seconds."""
        self.moves = 0
        self.hands = 0
        self.measuring = False
        self.stopped = False
        sock.handler = self.receive

    def _needs_parse(self, frame: bytes) -> bool:
        if self.my_turn in frame:
            return True
        return b'"bid":null' in frame and (b'"phase":"bidding"' in frame or b'"phase":"dealing"' in frame)

    def receive(self, frame: bytes) -> None:
        """Handle one message from the server: answer this seat's turns (until ``stopped``)."""
        if self.stopped:
            return
        if frame.startswith(b'{"v":2,"type":"hand_end"'):
            self.hands += self.measuring
            return
        if self.sent_at is not None and self.own_play in frame:
            if self.measuring and self.sent_measured:
                self.latencies.append((self.sent_at, time.perf_counter() - self.sent_at))
                self.moves += 1
            self.sent_at = None
        if not frame.startswith(b'{"v":2,"type":"state"') or not self._needs_parse(frame):
            return
        message = json.loads(frame)
        view = message["view"]
        if view is None:
            return
        key = (message["hand"], view["phase"], view["tricks_played"], len(view["trick"]), view["to_move"])
        if key == self.acted:
            return
        if view["phase"] in ("dealing", "bidding") and view["bid"] is None and view["bid_options"]:
            option = max(view["bid_options"], key=lambda item: item["count"])
            self.acted = key
            self._send({"v": 2, "type": "bid", **option})
        elif view["phase"] == "playing" and view["to_move"] == self.seat and view["hint"]:
            self.acted = key
            body = {"v": 2, "type": "play", "cards": view["hint"]}
            if self.think:
                delay = self.think * random.uniform(1 - self.spread, 1 + self.spread)
                asyncio.get_running_loop().call_later(delay, self._play, body)
            else:
                self._play(body)

    def _play(self, body: dict[str, Any]) -> None:
        if not self.stopped:
            self.sent_at = time.perf_counter()
            self.sent_measured = self.measuring
            self._send(body)

    def _send(self, body: dict[str, Any]) -> None:
        self.sent += 1
        self.sock.send({**body, "id": f"c{self.sent}"})


async def connect(base: str, token: str, node: str | None = None) -> tuple[Socket, dict[str, Any]]:
    """A connection of ``token``'s guest to the node at ``base`` (asking for ``node``: ``/ws?node=``),
    past ``hello``; and its ``welcome``."""
    query = f"?node={node}" if node is not None else ""
    sock = await Socket.open(base.replace("http://", "ws://") + "/ws" + query)
    sock.send({"v": 2, "type": "hello", "token": token})
    return sock, await sock.expect("welcome")


async def open_seat(base: str, http: httpx.AsyncClient) -> Socket:
    """A new guest's connection to the node at ``base``, past ``hello``."""
    sock, _ = await connect(base, (await http.post(base + "/api/guest")).json()["token"])
    return sock


async def open_table(
    bases: list[str], http: httpx.AsyncClient, options: dict[str, Any] = TABLE_OPTIONS
) -> list[Socket]:
    """Four connections seated at a new table (not started yet). Each connects to a node at random,
    as a proxy spreads them; the table runs on its creator's node, and a player whose table runs on
    another node is told so (``table_node``, docs/PROTOCOL.md §3) and connects there, as the browser
    does (a server that tells nothing, as before issue 47, leaves it where it is)."""
    homes = {f"n{index}": base for index, base in enumerate(bases)}  # the names run_once gives the nodes
    tokens = [(await http.post(bases[0] + "/api/guest")).json()["token"] for _ in range(4)]
    seated = [await connect(random.choice(bases), token) for token in tokens]
    sockets = [sock for sock, _ in seated]
    sockets[0].send({"v": 2, "type": "create_table", "options": options, "seat": 0})
    table_id = (await sockets[0].expect("table"))["table"]["id"]
    owner = seated[0][1].get("node")
    for seat, (sock, welcome) in enumerate(seated[1:], start=1):
        sock.send({"v": 2, "type": "join", "table": table_id, "seat": seat})
        await sock.expect("table")
        if owner is not None and len(bases) > 1 and welcome["node"] != owner:
            node = (await sock.expect("table_node"))["node"]
            sockets[seat], _ = await connect(homes[node], tokens[seat], node)
            await sockets[seat].expect("table")  # the seat attached to the new connection; the old one is closed
    return sockets


async def client_main(
    bases: list[str],
    tables: int,
    offset: int,
    think: tuple[float, float],
    ready: EventType,
    go: EventType,
    measure: EventType,
    halt: EventType,
) -> dict[str, Any]:
    """One client process: seat ``tables`` tables (the ``offset``-th on), wait for ``go``, play until
    ``halt``, counting from ``measure`` on; ``think`` is the think time and its spread."""
    random.seed(offset)
    limits = httpx.Limits(max_connections=8)
    options = {**TABLE_OPTIONS, "bid_window_seconds": PACED_BID_WINDOW} if think[0] else TABLE_OPTIONS
    async with httpx.AsyncClient(limits=limits, timeout=60) as http:
        sockets = [sock for _ in range(tables) for sock in await open_table(bases, http, options)]
    # The seated connections live as long as the run: frozen out of the collector's walks, the
    # measuring side pauses as little as it can; what pauses it still has are timed and reported.
    gc.collect()
    gc.freeze()
    pauses = CollectorPauses()
    ready.set()
    await asyncio.to_thread(go.wait)
    seats = [Seat(sock, index % 4, *think) for index, sock in enumerate(sockets)]
    loop = asyncio.get_running_loop()
    for first in range(0, len(sockets), 4):
        # With a think time the tables start spread over one (people do not sit down in step).
        delay = random.uniform(0, think[0])
        for sock in sockets[first : first + 4]:
            loop.call_later(delay, sock.send, {"v": 2, "type": "start"})
    await asyncio.to_thread(measure.wait)
    for seat in seats:
        seat.measuring = True
    pauses.install()
    await asyncio.to_thread(halt.wait)
    pauses.remove()
    for seat in seats:
        seat.measuring = False
        seat.stopped = True
    for sock in sockets:
        sock.close()
    await asyncio.sleep(0.5)
    return {
        "latencies": [value for seat in seats for value in seat.latencies],
        "moves": sum(seat.moves for seat in seats),
        "hands": sum(seat.hands for seat in seats) / 4,
        "gc_pauses": pauses.pauses,
    }


class CollectorPauses:
    """A client process's own garbage-collector pauses while installed: when each began
    (``time.perf_counter``) and how long it took, in seconds. A pause of the measuring side delays
    the latencies it measures, so the timeline shows them apart from the node's."""

    def __init__(self) -> None:
        self.pauses: list[tuple[float, float]] = []
        self._started = 0.0

    def install(self) -> None:
        """Start timing."""
        gc.callbacks.append(self._on_gc)

    def remove(self) -> None:
        """Stop timing."""
        gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append((self._started, time.perf_counter() - self._started))


def client_process(
    bases: list[str],
    tables: int,
    offset: int,
    think: tuple[float, float],
    ready: EventType,
    go: EventType,
    measure: EventType,
    halt: EventType,
    out: Any,
) -> None:
    """Entry point of a client process: run :func:`client_main` and put its results on ``out``."""
    out.put(uvloop.run(client_main(bases, tables, offset, think, ready, go, measure, halt)))


def store_counters(db_url: str, redis: str | None) -> dict[str, float]:
    """PostgreSQL's commits and inserted rows in the run's database and Redis's commands so far
    (nothing for an SQLite file)."""
    counters: dict[str, float] = {}
    if db_url.startswith("postgresql"):
        import asyncpg  # type: ignore[import-untyped]

        url = make_url(db_url)

        async def read() -> None:
            connection = await asyncpg.connect(url.set(drivername="postgresql").render_as_string(hide_password=False))
            try:
                row = await connection.fetchrow(
                    "SELECT xact_commit, tup_inserted FROM pg_stat_database WHERE datname = $1", url.database
                )
                counters["pg_commits"], counters["pg_rows_inserted"] = float(row[0]), float(row[1])
            finally:
                await connection.close()

        asyncio.run(read())
    if redis is not None:
        import redis as redis_client

        client = redis_client.Redis.from_url(redis)
        try:
            counters["redis_commands"] = float(client.info("stats")["total_commands_processed"])
        finally:
            client.close()
    return counters


GC_LONG = 0.05
"""A garbage-collector pause this long or longer is counted as long (seconds; a bucket bound of
``tuolaji_gc_pause_seconds``)."""


GcTotals = dict[str, tuple[float, float, float]]
"""A node set's collector pauses so far, by generation: seconds in all, passes, long passes."""


def gc_pauses(bases: list[str]) -> GcTotals | None:
    """The nodes' garbage-collector pauses so far by generation ("0", "1", "2"), from their
    ``/metrics`` (long: :data:`GC_LONG` or more); None for code that does not time them."""
    totals: dict[str, list[float]] = {}
    for base in bases:
        for family in text_string_to_metric_families(httpx.get(f"{base}/metrics", timeout=30).text):
            if family.name != "tuolaji_gc_pause_seconds":
                continue
            for sample in family.samples:
                values = totals.setdefault(sample.labels["generation"], [0.0, 0.0, 0.0])
                if sample.name.endswith("_sum"):
                    values[0] += sample.value
                elif sample.name.endswith("_count"):
                    values[1] += sample.value
                    values[2] += sample.value
                elif sample.name.endswith("_bucket") and float(sample.labels["le"]) == GC_LONG:
                    values[2] -= sample.value
    return {generation: (values[0], values[1], values[2]) for generation, values in totals.items()} if totals else None


def gc_window(before: GcTotals | None, after: GcTotals | None, wall: float) -> dict[str, float]:
    """The collector's share of a measured window: ms a second in all, long passes, and the full
    (oldest-generation) passes with their mean ms; NaN for code that does not time them."""
    if before is None or after is None:
        return {name: float("nan") for name in ("gc_ms_per_s", "gc_long", "gc_full", "gc_full_ms")}

    def change(generation: str, index: int) -> float:
        return after.get(generation, (0.0, 0.0, 0.0))[index] - before.get(generation, (0.0, 0.0, 0.0))[index]

    generations = set(before) | set(after)
    full = change("2", 1)
    return {
        "gc_ms_per_s": sum(change(generation, 0) for generation in generations) / wall * 1000,
        "gc_long": sum(change(generation, 2) for generation in generations),
        "gc_full": full,
        "gc_full_ms": change("2", 0) / full * 1000 if full else float("nan"),
    }


def timeline(
    samples: list[tuple[float, float]],
    start: float,
    client_pauses: Sequence[tuple[float, float]] = (),
    watched: Sequence[dict[str, float]] = (),
) -> list[dict[str, float]]:
    """Second by second of the measured window (by when each move was sent): moves, p50, p99 and max
    latency in ms; the longest collector pause of a client process then (ms, from
    ``client_pauses``: when each began and its seconds); and what :func:`watch_window` sampled that
    second, when it did. A burst or a pause shows as the seconds it spoils, and what was busy then."""
    seconds: dict[int, list[float]] = {}
    for sent, latency in samples:
        seconds.setdefault(max(0, int(sent - start)), []).append(latency)
    client_gc: dict[int, float] = {}
    for began, took in client_pauses:
        second = int(began - start)
        client_gc[second] = max(client_gc.get(second, 0.0), took * 1000)
    by_second = {int(row["second"]): row for row in watched}
    rows = []
    for second in sorted(seconds):
        values = sorted(seconds[second])
        rows.append(
            {
                "second": second,
                "moves": len(values),
                "p50_ms": percentile(values, 0.50),
                "p99_ms": percentile(values, 0.99),
                "max_ms": values[-1],
                "client_gc_ms": client_gc.get(second, 0.0),
                **{key: value for key, value in by_second.get(second, {}).items() if key != "second"},
            }
        )
    return rows


def run_once(
    tables: int,
    seconds: float,
    procs: int,
    think: float = 0.0,
    code: Path = REPO,
    postgres: str | None = None,
    nodes: int = 1,
    options: tuple[str, ...] = (),
    spread: float = 0.0,
    warmup: float = 0.0,
    watch: bool = False,
) -> dict[str, Any]:
    """One measured run with fresh servers (from the source tree ``code``, with ``options`` added to
    their command line; ``nodes`` of them on one Redis when more than one) and a fresh database;
    ``seconds`` measured after ``warmup`` seconds of play; ``watch``: the nodes and the machine
    sampled each second too (:func:`watch_window`), for the timeline."""
    with fresh_database(postgres) as db_url, redis_server(nodes > 1) as redis:
        servers = [
            start_server(db_url, code, (*(("--redis", redis, "--node-name", f"n{index}") if redis else ()), *options))
            for index in range(nodes)
        ]
        bases = [base for _, base in servers]
        try:
            context = multiprocessing.get_context("spawn")
            go, measure, halt, out = context.Event(), context.Event(), context.Event(), context.Queue()
            shares = [tables // procs + (1 if index < tables % procs else 0) for index in range(procs)]
            readies = []
            workers = []
            offset = 0
            for share in shares:
                if share == 0:
                    continue
                ready = context.Event()
                worker = context.Process(
                    target=client_process, args=(bases, share, offset, (think, spread), ready, go, measure, halt, out)
                )
                offset += share
                worker.start()
                readies.append(ready)
                workers.append(worker)
            for ready in readies:
                if not ready.wait(300):
                    raise RuntimeError("client processes did not get ready")
            go.set()
            time.sleep(warmup)
            idle = [sample(server.pid) for server, _ in servers]
            stores_before = store_counters(db_url, redis)
            clients_before = sum(sample(worker.pid or 0).cpu for worker in workers)
            machine_before = machine_busy()
            gc_before = gc_pauses(bases)
            measured_from = time.perf_counter()  # the clients' clock too (CLOCK_MONOTONIC)
            measure.set()
            if watch:
                watched = watch_window([server.pid for server, _ in servers], bases, measured_from, seconds)
            else:
                watched = []
                time.sleep(seconds)
            busy = [sample(server.pid) for server, _ in servers]
            gc_after = gc_pauses(bases)
            stores_after = store_counters(db_url, redis)
            clients_after = sum(sample(worker.pid or 0).cpu for worker in workers)
            machine_after = machine_busy()
            halt.set()
            results = [out.get(timeout=120) for _ in workers]
            for worker in workers:
                worker.join(60)
        finally:
            for server, _ in servers:
                server.terminate()
            for server, _ in servers:
                try:
                    server.wait(60)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait(30)
    cores = os.cpu_count() or 1
    machine = (machine_after[0] - machine_before[0]) / max(1, machine_after[1] - machine_before[1]) * cores
    samples = [(sent, latency * 1000) for result in results for sent, latency in result["latencies"]]
    latencies = sorted(latency for _, latency in samples)
    moves = sum(result["moves"] for result in results)
    wall = busy[0].when - idle[0].when
    server_cpu = [(after.cpu - before.cpu) / wall for before, after in zip(idle, busy, strict=True)]

    return {
        "nodes": nodes,
        "tables": tables,
        "moves_per_s": moves / wall,
        "hands_per_s": sum(result["hands"] for result in results) / wall,
        "p50_ms": percentile(latencies, 0.50),
        "p99_ms": percentile(latencies, 0.99),
        "max_ms": latencies[-1] if latencies else float("nan"),
        "mean_ms": statistics.fmean(latencies) if latencies else float("nan"),
        "timeline": timeline(
            samples, measured_from, [pause for result in results for pause in result["gc_pauses"]], watched
        ),
        "server_cpu": sum(server_cpu),
        "node_cpu": server_cpu,
        "server_us_per_move": sum(server_cpu) * wall / max(1, moves) * 1e6,
        "writes_per_move": sum(after.writes - before.writes for before, after in zip(idle, busy, strict=True))
        / max(1, moves),
        "client_cpu": (clients_after - clients_before) / wall,
        "machine_cpu": machine,
        "server_rss_mb": sum(sample.rss for sample in busy) / 2**20,
        "kb_per_table": sum(sample.rss for sample in busy) / 1024 / tables,
        **gc_window(gc_before, gc_after, wall),
        **{f"{name}_per_s": (stores_after[name] - stores_before[name]) / wall for name in stores_after},
    }


def main() -> int:
    """Run the load test(s) and print the results."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200, help=f"concurrent tables (1…{MAX_TABLES})")
    parser.add_argument("--sweep", help="comma-separated table counts, one fresh server each")
    parser.add_argument("--seconds", type=float, default=20.0, help=f"measured seconds per run (≤ {MAX_SECONDS})")
    parser.add_argument(
        "--warmup",
        type=float,
        default=0.0,
        help="seconds of play before the measured window (the tables' first deals and bids, all at once)",
    )
    parser.add_argument("--client-procs", type=int, default=1, help="client processes (default 1)")
    parser.add_argument(
        "--think-ms", type=float, default=0.0, help="think time before each move (default 0: zero think time)"
    )
    parser.add_argument(
        "--code",
        default=f"this={REPO}",
        help="NAME=PATH[,NAME=PATH…]: server source trees to compare, each run in turn (default: this tree)",
    )
    parser.add_argument(
        "--think-spread",
        type=float,
        default=0.0,
        help="each think time drawn at random within ±this share of --think-ms (e.g. 0.5: 1–3 s for 2000)",
    )
    parser.add_argument("--postgres", help="postgresql+asyncpg:// URL of a server to create each run's database on")
    parser.add_argument(
        "--nodes",
        default="1",
        help="comma-separated node counts (e.g. 1,2); more than 1 needs --postgres and redis-server, "
        "and runs the nodes on a throwaway Redis",
    )
    parser.add_argument(
        "--variants",
        default="",
        help='NAME=OPTIONS[;NAME=OPTIONS…]: server options to compare, each run in turn (e.g. "on=;off=--no-metrics")',
    )
    parser.add_argument("--rounds", type=int, default=1, help="repeat the whole alternation this many times")
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of a table")
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="after each run, its measured window second by second: moves, p50, p99 and max latency, the "
        "clients' collector pauses, and (sampled each second) the nodes' CPU and collector ms and the host's steal",
    )
    args = parser.parse_args()
    trees = source_trees(parser, args.code)
    variants = server_variants(parser, args.variants)
    counts = [int(part) for part in args.sweep.split(",")] if args.sweep else [args.tables]
    try:
        node_counts = [int(part) for part in args.nodes.split(",")]
    except ValueError:
        parser.error(f"--nodes {args.nodes!r}: expected comma-separated whole numbers, e.g. 1,2")
    if any(count < 1 for count in node_counts) or (max(node_counts) > 1 and not args.postgres):
        parser.error("--nodes: counts are ≥ 1, and more than one node needs --postgres (nodes share one database)")
    if not all(1 <= count <= MAX_TABLES for count in counts) or not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"tables must be 1…{MAX_TABLES} and seconds 0…{MAX_SECONDS}")
    if not 0 <= args.warmup <= MAX_SECONDS:
        parser.error(f"--warmup {args.warmup:g}: expected 0…{MAX_SECONDS} seconds")
    header = (
        "code    nodes  tables  moves/s  hands/s  p50 ms  p99 ms  max ms  server CPU  µs/move  clients CPU  machine CPU"
        "  RSS MB  KB/table  CPU per node"
    )
    if not args.json:
        print(header)
    rows = []
    for _ in range(max(1, args.rounds)):
        for count, nodes, (name, tree), (variant, options) in itertools.product(counts, node_counts, trees, variants):
            procs, think = max(1, args.client_procs), args.think_ms / 1000
            row = run_once(
                count,
                args.seconds,
                procs,
                think,
                tree,
                args.postgres,
                nodes,
                options,
                args.think_spread,
                args.warmup,
                args.timeline,
            )
            row["code"] = f"{name}:{variant}" if variant else name
            print_row(row, args.json)
            if args.timeline and not args.json:
                print_timeline(row["timeline"])
            rows.append(row)
    if args.rounds > 1 and not args.json:
        print_means(rows)
    return 0


def server_variants(parser: argparse.ArgumentParser, spec: str) -> list[tuple[str, tuple[str, ...]]]:
    """The variants of a ``--variants NAME=OPTIONS[;NAME=OPTIONS…]`` option (one nameless variant
    without options when it is empty; a parser error for a bad one)."""
    if not spec:
        return [("", ())]
    variants = []
    for part in spec.split(";"):
        name, equals, options = part.partition("=")
        if not equals or not name.strip():
            parser.error(f"--variants {spec!r}: expected NAME=OPTIONS[;NAME=OPTIONS…]")
        variants.append((name.strip(), tuple(shlex.split(options))))
    return variants


def print_means(rows: list[dict[str, Any]]) -> None:
    """Each tree's and variant's means over the rounds, per table and node count."""
    print("\nmeans over the rounds")
    groups: dict[tuple[str, int, int], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["code"], row["nodes"], row["tables"]), []).append(row)
    for (code, nodes, tables), runs in groups.items():
        keys = ("moves_per_s", "p99_ms", "server_us_per_move")
        mean = {key: statistics.fmean(run[key] for run in runs) for key in keys}
        each = ", ".join(f"{run['server_us_per_move']:.0f}" for run in runs)
        print(
            f"{code:10}  nodes {nodes}  tables {tables}  runs {len(runs)}  moves/s {mean['moves_per_s']:7.0f}  "
            f"p99 ms {mean['p99_ms']:6.1f}  µs/move {mean['server_us_per_move']:6.1f}  (µs/move each run: {each})"
        )


def print_timeline(rows: list[dict[str, float]]) -> None:
    """A run's :func:`timeline`, a line a second."""
    for row in rows:
        watched = (
            f"  node CPU {row['node_cpu']:4.0%}  node gc ms {row['node_gc_ms']:5.0f}  steal {row['steal']:4.0%}"
            if "node_cpu" in row
            else ""
        )
        print(
            f"    second {row['second']:3.0f}  moves {row['moves']:6.0f}  p50 ms {row['p50_ms']:6.1f}  "
            f"p99 ms {row['p99_ms']:6.1f}  max ms {row['max_ms']:6.0f}  client gc ms {row['client_gc_ms']:4.0f}"
            + watched
        )
    sys.stdout.flush()


def print_row(row: dict[str, Any], as_json: bool) -> None:
    """One result, as a JSON line or a table row."""
    if as_json:
        print(json.dumps(row))
    else:
        print(
            f"{row['code']:6}  {row['nodes']:5}  {row['tables']:6}  {row['moves_per_s']:7.0f}  "
            f"{row['hands_per_s']:7.2f}  {row['p50_ms']:6.1f}  {row['p99_ms']:6.1f}  {row['max_ms']:6.0f}  "
            f"{row['server_cpu']:9.0%}  "
            f"{row['server_us_per_move']:7.0f}  "
            f"{row['client_cpu']:10.0%}  {row['machine_cpu']:10.0%}  "
            f"{row['server_rss_mb']:6.0f}  {row['kb_per_table']:8.0f}  "
            + " ".join(f"{cpu:.0%}" for cpu in row["node_cpu"])
            + f"  gc {row['gc_ms_per_s']:.1f} ms/s, {row['gc_long']:.0f} over {GC_LONG * 1000:.0f} ms, "
            + f"{row['gc_full']:.0f} full of {row['gc_full_ms']:.0f} ms"
            + f"  writes {row['writes_per_move']:.2f}/move"
            + "".join(
                f"  {name.removesuffix('_per_s')} {row[name]:.0f}/s"
                for name in row
                if name.endswith("_per_s") and name.split("_")[0] in ("pg", "redis")
            )
        )
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
