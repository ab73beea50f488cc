"""The leaderboard with many accounts (issue 17): ``GET /api/leaderboard`` and the store functions
behind it, on SQLite and PostgreSQL.

For each database: a fresh one (an SQLite file; a scratch database on the PostgreSQL server given by
``--postgres``, dropped afterwards), ``--accounts`` accounts bulk-inserted (one in ten a guest;
積分 and 銀子 spread with many ties, as in a real card room) and a session token for 1,000 random
viewers; then ``ANALYZE`` and a WAL checkpoint (PostgreSQL: ``VACUUM ANALYZE``, which autovacuum
does in production: it is what makes a count index-only).

- ``store``: ``board_page`` (a random board and page 1–5) plus ``place_of`` (a random viewer), as
  the endpoint calls them, timed together; also the worst viewer (the last place: the longest count).
- ``http``: ``GET /api/leaderboard?by=…&page=…`` with a random viewer's bearer token against a real
  ``python -m tuolaji.server`` on that database (started as ``benchmarks/load.py`` starts it), over
  one keep-alive connection, one request at a time.

    .venv/bin/python benchmarks/leaderboard.py
    .venv/bin/python benchmarks/leaderboard.py --postgres postgresql+asyncpg://postgres@127.0.0.1:54350/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import httpx
from servers import REPO, fresh_database, start_server
from sqlalchemy import insert, text

from tuolaji.store.accounts import AccountData, session_id
from tuolaji.store.db import Database, open_database
from tuolaji.store.leaderboard import BOARDS, PAGES, board_page, place_of
from tuolaji.store.models import Account, SessionToken

VIEWERS = 1000
CHUNK = 5000


def account_rows(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """``count`` accounts: 積分 mostly small (many ties at 0), a long tail; 銀子 spread around the start."""
    now = datetime.now(UTC)
    rows = []
    for index in range(1, count + 1):
        points = max(0, int(rng.paretovariate(1.1) * 20) - 20)
        silver = max(0, int(rng.lognormvariate(6.9, 1.2)))
        rows.append(
            {
                "id": index,
                "nickname": f"bench{index}",
                "nickname_key": f"bench{index}",
                "password_hash": None,
                "guest": index % 10 == 0,
                "points": points,
                "silver": silver,
                "hands_played": 0,
                "hands_won": 0,
                "created_at": now,
            }
        )
    return rows


async def fill(db: Database, count: int, rng: random.Random) -> dict[str, AccountData]:
    """Insert the accounts and the viewers' sessions; the viewers by token."""
    rows = account_rows(count, rng)
    async with db.sessions.begin() as session:
        for start in range(0, len(rows), CHUNK):
            await session.execute(insert(Account), rows[start : start + CHUNK])
    viewers = {secrets.token_urlsafe(24): rows[index] for index in rng.sample(range(count), min(VIEWERS, count))}
    async with db.sessions.begin() as session:
        await session.execute(
            insert(SessionToken),
            [
                {"token_hash": session_id(token), "account_id": row["id"], "created_at": datetime.now(UTC)}
                for token, row in viewers.items()
            ],
        )
    return {
        token: AccountData(
            row["id"], row["nickname"], row["guest"], row["points"], row["silver"], row["hands_played"], 0
        )
        for token, row in viewers.items()
    }


async def analyze(db: Database) -> None:
    """Statistics for the planner, as a database in service has them (and SQLite's WAL written back)."""
    async with db.engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            await connection.execution_options(isolation_level="AUTOCOMMIT")
            await connection.execute(text("VACUUM ANALYZE accounts"))
            await connection.execute(text("VACUUM ANALYZE sessions"))
        else:
            await connection.execute(text("ANALYZE"))
            await connection.commit()
            await connection.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))


def summary(times: list[float]) -> dict[str, float]:
    """Count, p50, p99 and max of ``times`` (ms)."""
    ordered = sorted(times)
    return {
        "n": len(ordered),
        "p50": round(statistics.median(ordered), 2),
        "p99": round(ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))], 2),
        "max": round(ordered[-1], 2),
    }


async def timed(requests: int, once: Callable[[], Awaitable[object]]) -> dict[str, float]:
    """``once()`` ``requests`` times, after a tenth as many to warm up: milliseconds each."""
    for _ in range(max(1, requests // 10)):
        await once()
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        await once()
        times.append((time.perf_counter() - started) * 1000)
    return summary(times)


async def store_rows(db: Database, viewers: dict[str, AccountData], requests: int, rng: random.Random) -> list[Any]:
    """The store's rows: a random page and viewer; the last page and the last place."""
    people = list(viewers.values())

    async def request() -> None:
        board = rng.choice(BOARDS)
        await board_page(db, board, rng.randint(1, PAGES))
        await place_of(db, board, rng.choice(people))

    last = min((person for person in people if not person.guest), key=lambda person: (person.points, -person.id))

    async def worst() -> None:
        await board_page(db, "points", PAGES)
        await place_of(db, "points", last)

    return [
        ("store: page + viewer's place", await timed(requests, request)),
        ("store: last page + the last place", await timed(requests // 4, worst)),
    ]


async def http_rows(base: str, viewers: dict[str, AccountData], requests: int, rng: random.Random) -> list[Any]:
    """The endpoint's row, against the server at ``base``."""
    tokens = list(viewers)
    async with httpx.AsyncClient(base_url=base) as http:

        async def request() -> None:
            params = {"by": rng.choice(BOARDS), "page": rng.randint(1, PAGES)}
            answer = await http.get(
                "/api/leaderboard", params=params, headers={"Authorization": f"Bearer {rng.choice(tokens)}"}
            )
            answer.raise_for_status()

        return [("http: GET /api/leaderboard (viewer's token)", await timed(requests, request))]


async def store_part(
    url: str, args: argparse.Namespace, rng: random.Random
) -> tuple[dict[str, AccountData], list[Any]]:
    """Fill the database at ``url`` and time the store: (the viewers by token, the rows)."""
    db = await open_database(url)
    try:
        started = time.perf_counter()
        viewers = await fill(db, args.accounts, rng)
        await analyze(db)
        print(f"{args.accounts} accounts in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        return viewers, await store_rows(db, viewers, args.requests, rng)
    finally:
        await db.close()


def measure(postgres: str | None, args: argparse.Namespace) -> list[Any]:
    """Both measurements on a fresh database (SQLite, or a scratch one on the PostgreSQL server ``postgres``)."""
    rng = random.Random(args.seed)
    with fresh_database(postgres) as url:
        viewers, rows = asyncio.run(store_part(url, args, rng))
        server, base = start_server(url, REPO)
        try:
            rows += asyncio.run(http_rows(base, viewers, args.requests, rng))
        finally:
            server.terminate()
            server.wait(15)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--accounts", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument(
        "--postgres", help="a PostgreSQL server URL (postgresql+asyncpg://…) to make a scratch database on"
    )
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    results = [("SQLite", what, numbers) for what, numbers in measure(None, args)]
    if args.postgres:
        results += [("PostgreSQL", what, numbers) for what, numbers in measure(args.postgres, args)]
    print(f"\n{args.accounts} accounts, {args.requests} requests each\n")
    print("| database | what | requests | p50 ms | p99 ms | max ms |")
    print("|---|---|---|---|---|---|")
    for name, what, numbers in results:
        print(f"| {name} | {what} | {numbers['n']} | {numbers['p50']} | {numbers['p99']} | {numbers['max']} |")


if __name__ == "__main__":
    main()
