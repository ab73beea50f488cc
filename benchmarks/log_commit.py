"""What the table log costs a step written alone, as at a person's pace: CPU, and where it was written.

Opens a fresh SQLite file in a temporary directory, opens ``--tables`` tables' logs and has them
append ``--steps`` one-entry steps (a card played), each awaited before the next, as a table's host
does when no other table's step shares its batch (a person's pace: one or two steps a batch). Prints
one line: the process's CPU a step (every thread: the event loop and the log's thread) and wall
milliseconds a step (the log's 2 ms linger included), and, for code that counts them, how many
batches were written on the event loop and how many from the thread. Old code against new in one
run (``{here}``: this script, the same for both trees)::

    .venv/bin/python benchmarks/against_base.py --base REV --rounds 3 -- {python} {here}/benchmarks/log_commit.py
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import uvloop

from tuolaji.game.actions import Play
from tuolaji.room.entries import Acted
from tuolaji.store.db import open_database, sqlite_url
from tuolaji.store.tablelog import LogWrite, TableLog


async def measure(steps: int, tables: int) -> str:
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(sqlite_url(Path(folder) / "log.sqlite3"))
        log = TableLog(db)
        try:
            ids = [f"table-{index}" for index in range(tables)]
            for table_id in ids:
                await log.create(table_id, {"preset": "nanning"})
            entry = Acted(Play(1, (5, 5)))
            for seq in range(1, 51):  # warm up: connections opened, statements prepared
                await log.append(LogWrite(ids[0], seq, [entry]))
            next_seq = dict.fromkeys(ids, 1)
            next_seq[ids[0]] = 51
            cpu, wall = time.process_time(), time.perf_counter()
            for step in range(steps):
                table_id = ids[step % tables]
                await log.append(LogWrite(table_id, next_seq[table_id], [entry]))
                next_seq[table_id] += 1
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            rows = getattr(log, "_rows", None)
            where = (
                f"  on the loop {rows.on_loop}, in the thread {rows.in_thread}"
                if rows is not None and hasattr(rows, "on_loop")
                else ""
            )
            return f"{cpu / steps * 1e6:.1f} µs of CPU a step, {wall / steps * 1e3:.2f} ms wall{where}"
        finally:
            await log.close()
            await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000, help="steps written, one at a time (default 3000)")
    parser.add_argument("--tables", type=int, default=100, help="tables they are spread over (default 100)")
    args = parser.parse_args()
    if args.steps < 1 or args.tables < 1:
        parser.error("--steps and --tables must be at least 1")
    print(uvloop.run(measure(args.steps, args.tables)))  # the server's loop


if __name__ == "__main__":
    main()
