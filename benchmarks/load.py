"""Load test: a real server and N tables of four bot clients over real WebSockets on loopback.

Every client plays its seat with zero think time (the view's legal ``hint``; it bids its longest
level-card suit while nobody has bid). The run is bounded: ``--seconds`` of measured play per table
count, after the tables are seated. Reported per run: moves/s, hands/s, p50/p99/max latency from a
client sending a move to that client receiving the broadcast that contains it, the CPU of the server,
of the client processes and of the whole machine (in cores: 100% = one core; machine minus server
and clients is other load on the box), and the server's memory (RSS, and RSS per table).

    .venv/bin/python benchmarks/load.py --tables 200 --seconds 20
    .venv/bin/python benchmarks/load.py --sweep 25,50,100,150,200,300 --seconds 15
    .venv/bin/python benchmarks/load.py --tables 200 --think-ms 500     # a human-like pace
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

REPO = Path(__file__).resolve().parent.parent
TABLE_OPTIONS = {"deal_interval_ms": 0, "bid_window_seconds": 1.0, "review_seconds": 0, "turn_seconds": 60}
MAX_TABLES = 1000
MAX_SECONDS = 300
CLK_TCK = os.sysconf("SC_CLK_TCK")


@dataclass
class Sample:
    """Server process CPU seconds and RSS bytes at one moment."""

    when: float
    cpu: float
    rss: int


def sample(pid: int) -> Sample:
    """Read CPU time and RSS of ``pid`` from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / CLK_TCK
    with open(f"/proc/{pid}/status") as status:
        rss = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:"))
    return Sample(time.monotonic(), cpu, rss)


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as stat:
        values = [int(value) for value in stat.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Seat:
    """One bot client: plays its hints, measures move-to-broadcast latency.

    To keep the clients' CPU for the server, a frame is parsed only when it may need an answer:
    plain substring tests on the compact JSON skip the others (the server's encoding is fixed).
    """

    def __init__(self, ws: ClientConnection, seat: int, think: float) -> None:
        self.ws = ws
        self.seat = seat
        self.think = think
        self.own_play = f'"type":"play","seat":{seat},'
        self.my_turn = f'"to_move":{seat},'
        self.sent_at: float | None = None
        self.acted: tuple[Any, ...] | None = None
        self.latencies: list[float] = []
        self.moves = 0
        self.hands = 0
        self.measuring = False

    def _needs_parse(self, frame: str) -> bool:
        if self.my_turn in frame:
            return True
        return '"bid":null' in frame and ('"phase":"bidding"' in frame or '"phase":"dealing"' in frame)

    async def play(self, stop: asyncio.Event) -> None:
        """Answer this seat's turns until ``stop`` (or the socket closes)."""
        async for frame in self.ws:
            if stop.is_set():
                return
            assert isinstance(frame, str)
            if frame.startswith('{"v":1,"type":"hand_end"'):
                self.hands += self.measuring
                continue
            if self.sent_at is not None and self.own_play in frame:
                if self.measuring:
                    self.latencies.append(time.perf_counter() - self.sent_at)
                    self.moves += 1
                self.sent_at = None
            if not frame.startswith('{"v":1,"type":"state"') or not self._needs_parse(frame):
                continue
            message = json.loads(frame)
            view = message["view"]
            if view is None:
                continue
            key = (message["hand"], view["phase"], len(view["tricks"]), len(view["trick"]), view["to_move"])
            if key == self.acted:
                continue
            if view["phase"] in ("dealing", "bidding") and view["bid"] is None and view["bid_options"]:
                option = max(view["bid_options"], key=lambda item: item["count"])
                self.acted = key
                await self.ws.send(json.dumps({"v": 1, "type": "bid", **option}))
            elif view["phase"] == "playing" and view["to_move"] == self.seat and view["hint"]:
                self.acted = key
                if self.think:
                    await asyncio.sleep(self.think)
                self.sent_at = time.perf_counter()
                await self.ws.send(json.dumps({"v": 1, "type": "play", "cards": view["hint"]}))


async def _expect(ws: ClientConnection, kind: str) -> dict[str, Any]:
    async with asyncio.timeout(30):
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            if message["type"] == "error":
                raise RuntimeError(f"server refused: {message}")
            if message["type"] == kind:
                return message


async def open_seat(base: str, http: httpx.AsyncClient) -> ClientConnection:
    """A new guest's connection, past ``hello``."""
    token = (await http.post("/api/guest")).json()["token"]
    ws = await connect(base.replace("http://", "ws://") + "/ws", max_size=None, compression=None)
    await ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
    await _expect(ws, "welcome")
    return ws


async def open_table(base: str, http: httpx.AsyncClient) -> list[ClientConnection]:
    """Four connections seated at a new table (not started yet)."""
    sockets = [await open_seat(base, http) for _ in range(4)]
    await sockets[0].send(json.dumps({"v": 1, "type": "create_table", "options": TABLE_OPTIONS, "seat": 0}))
    table_id = (await _expect(sockets[0], "table"))["table"]["id"]
    for seat, ws in enumerate(sockets[1:], start=1):
        await ws.send(json.dumps({"v": 1, "type": "join", "table": table_id, "seat": seat}))
        await _expect(ws, "table")
    return sockets


async def client_main(
    base: str, tables: int, think: float, ready: EventType, go: EventType, halt: EventType
) -> dict[str, Any]:
    """One client process: seat ``tables`` tables, wait for ``go``, play until ``halt``."""
    limits = httpx.Limits(max_connections=8)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        sockets = [ws for _ in range(tables) for ws in await open_table(base, http)]
    ready.set()
    await asyncio.to_thread(go.wait)
    seats = [Seat(ws, index % 4, think) for index, ws in enumerate(sockets)]
    stop = asyncio.Event()
    for seat in seats:
        seat.measuring = True
    players = [asyncio.create_task(seat.play(stop)) for seat in seats]
    for ws in sockets:
        await ws.send(json.dumps({"v": 1, "type": "start"}))
    await asyncio.to_thread(halt.wait)
    for seat in seats:
        seat.measuring = False
    stop.set()
    for ws in sockets:
        await ws.close()
    await asyncio.gather(*players, return_exceptions=True)
    return {
        "latencies": [value for seat in seats for value in seat.latencies],
        "moves": sum(seat.moves for seat in seats),
        "hands": sum(seat.hands for seat in seats) / 4,
    }


def client_process(
    base: str, tables: int, think: float, ready: EventType, go: EventType, halt: EventType, out: Any
) -> None:
    """Entry point of a client process: run :func:`client_main` and put its results on ``out``."""
    out.put(asyncio.run(client_main(base, tables, think, ready, go, halt)))


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``python -m tuolaji.server`` on ``db``; (process, base URL) once it answers."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "tuolaji.server",
        "--port",
        str(port),
        "--db",
        f"sqlite+aiosqlite:///{db}",
        "--bot-delay",
        "0",
        "--next-hand-delay",
        "0",
        "--log-level",
        "warning",
    ]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(command, cwd=REPO, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return process, base
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def run_once(tables: int, seconds: float, procs: int, think: float = 0.0) -> dict[str, Any]:
    """One measured run with a fresh server and database."""
    with tempfile.TemporaryDirectory() as tmp:
        server, base = start_server(Path(tmp) / "load.sqlite3")
        try:
            context = multiprocessing.get_context("spawn")
            go, halt, out = context.Event(), context.Event(), context.Queue()
            shares = [tables // procs + (1 if index < tables % procs else 0) for index in range(procs)]
            readies = []
            workers = []
            for share in shares:
                if share == 0:
                    continue
                ready = context.Event()
                worker = context.Process(target=client_process, args=(base, share, think, ready, go, halt, out))
                worker.start()
                readies.append(ready)
                workers.append(worker)
            for ready in readies:
                if not ready.wait(300):
                    raise RuntimeError("client processes did not get ready")
            idle = sample(server.pid)
            clients_before = sum(sample(worker.pid or 0).cpu for worker in workers)
            machine_before = machine_busy()
            go.set()
            time.sleep(seconds)
            busy = sample(server.pid)
            clients_after = sum(sample(worker.pid or 0).cpu for worker in workers)
            machine_after = machine_busy()
            halt.set()
            results = [out.get(timeout=120) for _ in workers]
            for worker in workers:
                worker.join(60)
        finally:
            server.terminate()
            server.wait(30)
    cores = os.cpu_count() or 1
    machine = (machine_after[0] - machine_before[0]) / max(1, machine_after[1] - machine_before[1]) * cores
    latencies = sorted(value * 1000 for result in results for value in result["latencies"])
    moves = sum(result["moves"] for result in results)
    wall = busy.when - idle.when

    def percentile(share: float) -> float:
        return latencies[min(len(latencies) - 1, int(share * len(latencies)))] if latencies else float("nan")

    return {
        "tables": tables,
        "moves_per_s": moves / wall,
        "hands_per_s": sum(result["hands"] for result in results) / wall,
        "p50_ms": percentile(0.50),
        "p99_ms": percentile(0.99),
        "max_ms": latencies[-1] if latencies else float("nan"),
        "mean_ms": statistics.fmean(latencies) if latencies else float("nan"),
        "server_cpu": (busy.cpu - idle.cpu) / wall,
        "client_cpu": (clients_after - clients_before) / wall,
        "machine_cpu": machine,
        "server_rss_mb": busy.rss / 2**20,
        "kb_per_table": busy.rss / 1024 / tables,
    }


def main() -> int:
    """Run the load test(s) and print the results."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200, help=f"concurrent tables (1…{MAX_TABLES})")
    parser.add_argument("--sweep", help="comma-separated table counts, one fresh server each")
    parser.add_argument("--seconds", type=float, default=20.0, help=f"measured seconds per run (≤ {MAX_SECONDS})")
    parser.add_argument("--client-procs", type=int, default=1, help="client processes (default 1)")
    parser.add_argument(
        "--think-ms", type=float, default=0.0, help="think time before each move (default 0: zero think time)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of a table")
    args = parser.parse_args()
    counts = [int(part) for part in args.sweep.split(",")] if args.sweep else [args.tables]
    if not all(1 <= count <= MAX_TABLES for count in counts) or not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"tables must be 1…{MAX_TABLES} and seconds 0…{MAX_SECONDS}")
    header = "tables  moves/s  hands/s  p50 ms  p99 ms  max ms  server CPU  clients CPU  machine CPU  RSS MB  KB/table"
    if not args.json:
        print(header)
    for count in counts:
        row = run_once(count, args.seconds, max(1, args.client_procs), args.think_ms / 1000)
        if args.json:
            print(json.dumps(row))
        else:
            print(
                f"{row['tables']:6}  {row['moves_per_s']:7.0f}  {row['hands_per_s']:7.2f}  {row['p50_ms']:6.1f}  "
                f"{row['p99_ms']:6.1f}  {row['max_ms']:6.0f}  {row['server_cpu']:9.0%}  "
                f"{row['client_cpu']:10.0%}  {row['machine_cpu']:10.0%}  "
                f"{row['server_rss_mb']:6.0f}  {row['kb_per_table']:8.0f}"
            )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
