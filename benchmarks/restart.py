"""How long a node takes to come back after a crash with N tables open (the restore of issue 6).

A fresh database; ``tuolaji serve`` (this tree) with ``--tables`` tables of four clients playing
their hints for ``--seconds``; then the node is killed (SIGKILL, mid-move). Every source tree of
``--code`` then starts, ``--rounds`` times in turn, on its own copy of that database, and the time
from starting the process to its health check answering is taken: the node restores every open
table from its log before it serves anything. Each tree also starts on an empty database in the same
rounds, so what the restore itself costs is the difference, printed beside.

    .venv/bin/python benchmarks/restart.py --tables 200 --seconds 10
    .venv/bin/python benchmarks/restart.py --tables 200 --code old=/tmp/tuolaji-old,new=.
    .venv/bin/python benchmarks/restart.py --tables 200 --postgres postgresql+asyncpg://postgres@127.0.0.1/postgres
    .venv/bin/python benchmarks/restart.py --tables 5000 --bots --think-ms 2000 --rounds 2

``--bots`` seats one person and three bots (``random``) at each table (``play_now``), so a node with
thousands of tables stays within one process's 20,000 open files; the person plays its hint after
``--think-ms``. Either way, when the health check answers every table has been restored, resumed and
its clock armed: every table is playing again (a player who does not come back is in 託管, R46).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import uvloop
from load import TABLE_OPTIONS, Seat, Socket, open_seat, open_table
from servers import REPO, admin_execute, fresh_database, source_trees, start_server
from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from tuolaji.store.models import LiveTable, TableLogEntry

MAX_TABLES = 1000
MAX_BOT_TABLES = 5000


async def open_bot_table(base: str, http: httpx.AsyncClient) -> Socket:
    """A new guest at seat 0 of a new table with three random bots, started (``play_now``)."""
    sock = await open_seat(base, http)
    sock.send({"v": 2, "type": "play_now", "options": TABLE_OPTIONS, "bot": "random"})
    await sock.expect("table")
    return sock


async def play_then_crash(
    base: str, server: subprocess.Popen[bytes], tables: int, seconds: float, bots: bool = False, think: float = 0.0
) -> None:
    """Seat ``tables`` tables on the node at ``base`` (four people each, or one and three bots), let
    them play for ``seconds``, then kill the node."""
    async with httpx.AsyncClient(limits=httpx.Limits(max_connections=8), timeout=60) as http:
        if bots:
            sockets = [await open_bot_table(base, http) for _ in range(tables)]
        else:
            sockets = [sock for _ in range(tables) for sock in await open_table([base], http)]
    seats = [Seat(sock, 0 if bots else index % 4, think) for index, sock in enumerate(sockets)]
    for sock in sockets if not bots else ():
        sock.send({"v": 2, "type": "start"})
    await asyncio.sleep(seconds)
    server.send_signal(signal.SIGKILL)
    server.wait(30)
    for seat in seats:
        seat.stopped = True
    for sock in sockets:
        sock.close()


@contextlib.contextmanager
def copy_of(db_url: str) -> Iterator[str]:
    """A copy of the database at ``db_url`` (an SQLite file with its journal, or a PostgreSQL database
    made from it as a template), removed afterwards."""
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite":
        source = Path(url.database or "")
        with tempfile.TemporaryDirectory() as tmp:
            for suffix in ("", "-wal", "-shm"):
                if Path(f"{source}{suffix}").exists():
                    shutil.copy(f"{source}{suffix}", Path(tmp) / f"copy.sqlite3{suffix}")
            yield url.set(database=str(Path(tmp) / "copy.sqlite3")).render_as_string(hide_password=False)
        return
    name = f"{url.database}_copy"
    admin_execute(db_url, f"CREATE DATABASE {name} TEMPLATE {url.database}")
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        admin_execute(db_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def logs_at(db_url: str) -> tuple[int, int]:
    """How many tables are open in the database at ``db_url``, and how many log entries they hold."""

    async def count() -> tuple[int, int]:
        engine = create_async_engine(db_url)
        try:
            async with engine.connect() as connection:
                tables = await connection.scalar(select(func.count()).where(LiveTable.open))
                entries = await connection.scalar(
                    select(func.count())
                    .select_from(TableLogEntry)
                    .join(LiveTable, LiveTable.id == TableLogEntry.table_id)
                    .where(LiveTable.open)
                )
        finally:
            await engine.dispose()
        return int(tables or 0), int(entries or 0)

    return asyncio.run(count())


def time_to_serve(db_url: str, code: Path) -> float:
    """Seconds from starting the tree ``code``'s server on ``db_url`` to its health check answering."""
    start = time.perf_counter()
    server, _ = start_server(db_url, code, poll=0.01)
    elapsed = time.perf_counter() - start
    server.terminate()
    try:
        server.wait(60)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(30)
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--tables",
        type=int,
        default=200,
        help=f"open tables at the crash (1…{MAX_TABLES}, {MAX_BOT_TABLES} with --bots)",
    )
    parser.add_argument("--bots", action="store_true", help="one person and three random bots at each table")
    parser.add_argument("--think-ms", type=float, default=0.0, help="the people's think time before a move")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of play before the crash (default 10)")
    parser.add_argument("--rounds", type=int, default=5, help="starts per tree and database (default 5)")
    parser.add_argument("--code", default=f"this={REPO}", help="NAME=PATH[,NAME=PATH…]: source trees, in turn")
    parser.add_argument("--postgres", help="postgresql+asyncpg:// URL of a server to make the databases on")
    args = parser.parse_args()
    trees = source_trees(parser, args.code)
    most = MAX_BOT_TABLES if args.bots else MAX_TABLES
    if not 1 <= args.tables <= most or not 0 < args.seconds <= 300 or args.rounds < 1:
        parser.error(f"--tables must be 1…{most}, --seconds 0…300 and --rounds at least 1")
    times: dict[tuple[str, str], list[float]] = {}
    with fresh_database(args.postgres) as crashed, fresh_database(args.postgres) as empty:
        server, base = start_server(crashed, REPO)
        uvloop.run(play_then_crash(base, server, args.tables, args.seconds, args.bots, args.think_ms / 1000))
        tables, entries = logs_at(crashed)
        time_to_serve(empty, REPO)  # creates the empty database's schema, as the crashed one has
        for _ in range(args.rounds):
            for name, tree in trees:
                for kind, db_url in (("tables", crashed), ("empty", empty)):
                    with copy_of(db_url) as copy:
                        times.setdefault((name, kind), []).append(time_to_serve(copy, tree))
    print(f"{tables} tables open at the crash, {entries} log entries in all; {args.rounds} starts each")
    print("code      with tables s   empty s   restore s (median)")
    for name, _ in trees:
        full, bare = statistics.median(times[name, "tables"]), statistics.median(times[name, "empty"])
        print(f"{name:<9} {full:>13.2f} {bare:>9.2f} {full - bare:>11.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
