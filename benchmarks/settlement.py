"""What settling a finished hand costs the table log's writer: wall and CPU time, and statements.

Opens a fresh database (an SQLite file in a temporary directory, or ``--db`` a scratch database's
URL), makes four guest accounts and ``--hands`` tables, then has each table's log write the step that
finishes a hand of those four (216 plays in its record) and settles it (R39–R43), one after another,
as :meth:`tuolaji.store.tablelog.TableLog.append` does for a table. Prints one line: milliseconds a
settlement of wall clock, of the process's CPU and of the event loop's thread's CPU, and the SQL
statements a settlement sends through SQLAlchemy (any engine; statements sent by ``sqlite3`` itself,
such as the SQLite log's rows, are not counted). Old code against new in one run::

    .venv/bin/python benchmarks/against_base.py --base REV --rounds 2 -- {python} {here}/benchmarks/settlement.py
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event

from tuolaji.game.view import RoundResult
from tuolaji.room.effects import HandSeat
from tuolaji.room.entries import Settling
from tuolaji.store.accounts import Accounts
from tuolaji.store.db import open_database, sqlite_url
from tuolaji.store.records import HandWrite
from tuolaji.store.tablelog import LogWrite, TableLog

OPTIONS: dict[str, Any] = {"preset": "nanning"}
RESULT = RoundResult("played", dealer=0, winner="attackers", winning_team=1, levels=2, score=130)


async def measure(url: str, hands: int) -> dict[str, float]:
    db = await open_database(url)
    accounts = Accounts(db)
    log = TableLog(db)
    statements = [0]
    counting = [False]

    def count(*_: object) -> None:
        if counting[0]:
            statements[0] += 1

    event.listen(Engine, "before_cursor_execute", count)
    try:
        people = [(await accounts.create_guest())[1] for _ in range(4)]
        seats = [HandSeat(seat, people[seat].id, people[seat].nickname) for seat in range(4)]
        actions = [{"t": "play", "seat": index % 4, "cards": ["S10", "S10"]} for index in range(216)]
        stamp = f"{time.time_ns()}"
        writes = []
        for index in range(hands):
            table_id = f"s{stamp[-9:]}-{index}"
            await log.create(table_id, OPTIONS)
            hand = HandWrite(table_id, 1, index, OPTIONS, {"seed": index}, actions, RESULT, seats, datetime.now(UTC))
            writes.append(LogWrite(table_id, 1, [Settling()], hand=hand))
        counting[0] = True
        wall, cpu, loop = time.perf_counter(), time.process_time(), time.thread_time()
        for write in writes:
            await log.append(write)
        wall, cpu, loop = time.perf_counter() - wall, time.process_time() - cpu, time.thread_time() - loop
        counting[0] = False
    finally:
        event.remove(Engine, "before_cursor_execute", count)
        await log.close()
        accounts.close()
        await db.close()
    return {
        "hands": hands,
        "wall_ms": round(wall / hands * 1000, 2),
        "cpu_ms": round(cpu / hands * 1000, 2),
        "loop_cpu_ms": round(loop / hands * 1000, 2),
        "statements": round(statements[0] / hands, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=300, help="settlements to time (default 300)")
    parser.add_argument("--db", help="a scratch database's URL (default: an SQLite file in a temporary directory)")
    args = parser.parse_args()
    if args.hands < 1:
        parser.error(f"--hands must be 1 or more, not {args.hands}")
    with tempfile.TemporaryDirectory(prefix="tuolaji-settle-") as temp:
        url = args.db or sqlite_url(Path(temp) / "settle.sqlite3")
        figures = asyncio.run(measure(url, args.hands))
    print(" ".join(f"{name} {value}" for name, value in figures.items()))


if __name__ == "__main__":
    main()
