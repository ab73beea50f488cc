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
  through the server, search tables need seated people and a lobby the lead engineer is rewriting.

    .venv/bin/python benchmarks/abuse.py                                   # this tree
    mkdir /tmp/before && git archive 4633f3d | tar -x -C /tmp/before
    .venv/bin/python benchmarks/abuse.py --repo /tmp/before                # the tree before issue 15
    .venv/bin/python benchmarks/abuse.py --only thinking --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = ("login", "guest", "argon2", "escape", "thinking")
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
