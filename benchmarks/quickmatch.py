"""快速開始 under a steady stream of people (issue 45): two real nodes (``tuolaji serve --redis``) on one
PostgreSQL database and one Redis, and simulated players arriving at a steady rate through them.

Each run starts fresh (database, Redis, nodes), makes ``--players`` guests and gives them 積分 so
their rank titles spread as a card room's would (title k of §13 with weight 0.6^k: most 布衣 to 進士,
a few up to 御史), then lets them arrive one after another, ``--rate`` a second per preset (the
three presets in turn, 勞改 tables, people only: ``bots_after`` null), alternately through the two
nodes. A player connects, sends ``quick_match``, answers ``match_found`` at once and, once its table
is full, leaves it (the first leaver of a table escapes, R43) and closes. Once the last has arrived
the run waits until nobody was seated for ``--drain`` seconds (the bands open fully after 5 s);
whoever is still queueing then cancels, which must be answered ``ack``: the entry was still there.

Reported per rate: people seated and left queueing, the time from sending ``quick_match`` to the
full ``table`` (p50, p90, p99, max) and, of it, to the (last) ``match_found`` (p99: matching) and
from it to the full table (p50, p99: answering and seating), how many were told to queue again
(their answer came after the 5 s; they queue again at once, their wait still counted from the first
time), the rank spread of the tables (largest minus smallest title index: mean, p90, max, and the
share of tables within one title), the nodes' CPU, how busy the whole machine was, and the checks:
every seated person at exactly one table, every table four different people who all saw it (nobody
matched twice), every leftover entry still in the queue (none lost).

    nice -n 10 .venv/bin/python benchmarks/quickmatch.py --postgres postgresql+asyncpg://postgres@127.0.0.1:54359/postgres
    nice -n 10 .venv/bin/python benchmarks/quickmatch.py --rates 2,4,8 --players 2000 --postgres …
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from quantiles import percentile
from servers import REPO, fresh_database, redis_server, start_server
from sqlalchemy import text
from websockets.asyncio.client import ClientConnection, connect

from tuolaji.game.settlement import RANK_TABLE
from tuolaji.store.db import make_engine

PRESETS = ("nanning", "guigang", "fourdeck")
TITLE_WEIGHT = 0.6
"""Title k of §13 is drawn with weight TITLE_WEIGHT**k (k ≤ 10)."""
CLK_TCK = os.sysconf("SC_CLK_TCK")
WAIT = 120.0


@dataclass
class Person:
    """One simulated player and what happened to it."""

    token: str
    account: int
    preset: str
    node: str
    queued: float = 0.0
    found: float | None = None
    seated: float | None = None
    table: str | None = None
    table_accounts: tuple[int, ...] = ()
    table_ranks: tuple[int, ...] = ()
    tables_seen: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    still_queued: bool | None = None
    queued_again: int = 0
    """Times it was told to queue again (``match_cancelled``: it answered too late) and did."""


def rank_points(rng: random.Random) -> int:
    """積分 for a player whose title is drawn with weight TITLE_WEIGHT**k."""
    titles = range(11)
    level = rng.choices(titles, weights=[TITLE_WEIGHT**k for k in titles])[0]
    low = RANK_TABLE[level][2]
    high = RANK_TABLE[level + 1][2] - 1
    return rng.randint(low, high)


async def make_people(nodes: list[str], count: int, db_url: str, seed: int) -> list[Person]:
    """``count`` guests made through the nodes in turn, with their 積分 set in the database."""
    async with httpx.AsyncClient(timeout=30) as http:
        limit = asyncio.Semaphore(16)

        async def guest(index: int) -> tuple[str, int]:
            async with limit:
                body = (await http.post(nodes[index % len(nodes)] + "/api/guest")).json()
            return body["token"], body["account"]["id"]

        made = await asyncio.gather(*(guest(index) for index in range(count)))
    rng = random.Random(seed)
    people = [
        Person(token, account, PRESETS[index % len(PRESETS)], nodes[index % len(nodes)])
        for index, (token, account) in enumerate(made)
    ]
    engine = make_engine(db_url)
    try:
        async with engine.begin() as connection:
            await connection.execute(
                text("UPDATE accounts SET points = :points WHERE id = :id"),
                [{"points": rank_points(rng), "id": person.account} for person in people],
            )
    finally:
        await engine.dispose()
    return people


async def receive(ws: ClientConnection, person: Person) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await ws.recv())
    if message["type"] == "error":
        person.errors.append(message["code"])
    return message


async def play(person: Person, at: float, done: asyncio.Event) -> None:
    """Arrive at ``at`` (monotonic), queue, answer, sit down, leave; or cancel once ``done`` is set."""
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    async with connect(person.node.replace("http://", "ws://") + "/ws", max_size=None) as ws:
        await ws.send(json.dumps({"v": 2, "type": "hello", "token": person.token}))
        while (await receive(ws, person))["type"] != "welcome":
            pass
        person.queued = time.monotonic()
        await ws.send(json.dumps({"v": 2, "type": "quick_match", "preset": person.preset}))
        reader = asyncio.ensure_future(_until_seated(ws, person))
        waiter = asyncio.ensure_future(done.wait())
        await asyncio.wait([reader, waiter], return_when=asyncio.FIRST_COMPLETED)
        if reader.done():
            waiter.cancel()
            await ws.send(json.dumps({"v": 2, "type": "leave"}))
            return
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
        await ws.send(json.dumps({"v": 2, "type": "cancel_match", "id": "cancel"}))
        while True:
            message = await receive(ws, person)
            if message.get("ref") == "cancel":
                person.still_queued = message["type"] == "ack"
                return


async def _until_seated(ws: ClientConnection, person: Person) -> None:
    while True:
        message = await receive(ws, person)
        if message["type"] == "match_found":
            person.found = time.monotonic()
            await ws.send(json.dumps({"v": 2, "type": "accept_match", "match": message["match"]}))
        elif message["type"] == "match_cancelled":
            person.queued_again += 1
            await ws.send(json.dumps({"v": 2, "type": "quick_match", "preset": person.preset}))
        elif message["type"] == "table":
            seats = message["table"]["seats"]
            person.tables_seen.add(message["table"]["id"])
            if all(seat["kind"] == "human" for seat in seats):
                person.seated = time.monotonic()
                person.table = message["table"]["id"]
                person.table_accounts = tuple(seat["account"]["id"] for seat in seats)
                person.table_ranks = tuple(_title_index(seat["account"]["rank"]) for seat in seats)
                return


def _title_index(title: str) -> int:
    return next(index for index, row in enumerate(RANK_TABLE) if row[0] == title)


async def stream(people: list[Person], rate: float, drain: float) -> float:
    """Let everyone arrive (``rate`` a second per preset) and wait until nobody was seated for
    ``drain`` seconds; the seconds the arrivals took."""
    done = asyncio.Event()
    start = time.monotonic() + 1.0
    gap = 1.0 / (rate * len(PRESETS))
    tasks = [asyncio.ensure_future(play(person, start + index * gap, done)) for index, person in enumerate(people)]
    arrivals = len(people) * gap
    await asyncio.sleep(arrivals + 1.0)
    seated = -1
    quiet_since = time.monotonic()
    while time.monotonic() - quiet_since < drain:
        await asyncio.sleep(0.5)
        now_seated = sum(person.seated is not None for person in people)
        if now_seated != seated:
            seated, quiet_since = now_seated, time.monotonic()
    done.set()
    await asyncio.wait_for(asyncio.gather(*tasks), WAIT)
    return arrivals


def checks(people: list[Person]) -> dict[str, Any]:
    """Nobody matched twice, nobody lost."""
    seated = [person for person in people if person.table is not None]
    tables: dict[str, set[int]] = {}
    for person in seated:
        tables.setdefault(str(person.table), set()).update(person.table_accounts)
    at_tables = [account for accounts in tables.values() for account in accounts]
    by_account = {person.account: person for person in people}
    return {
        "tables": len(tables),
        "four_different_people_each": all(len(accounts) == 4 for accounts in tables.values()),
        "each_seated_at_one_table": len(at_tables) == len(set(at_tables)) == len(seated)
        and all(by_account[a].table == t for t, accounts in tables.items() for a in accounts),
        "full_tables_seen_once": all(len(person.tables_seen) <= 1 for person in people),
        "leftovers_still_queued": all(person.still_queued for person in people if person.table is None),
        "queued_again": sum(person.queued_again for person in people),
        "late_answers": sum(person.errors.count("match_gone") for person in people),
        "errors": sorted({code for person in people for code in person.errors} - {"match_gone"}),
    }


def machine_busy() -> tuple[int, int]:
    """(busy, total) CPU jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as stat:
        values = [int(value) for value in stat.readline().split()[1:]]
    return sum(values) - values[3] - values[4], sum(values)


def node_cpu(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / CLK_TCK
    return total


def run_once(postgres: str, rate: float, players: int, drain: float, seed: int) -> dict[str, Any]:
    """One fresh card room of two nodes, ``players`` arriving at ``rate`` a second per preset."""
    with fresh_database(postgres) as db_url, redis_server(True) as redis:
        assert redis is not None
        started = [start_server(db_url, REPO, ("--redis", redis, "--node-name", name)) for name in ("a", "b")]
        try:
            nodes = [base for _, base in started]
            people = asyncio.run(make_people(nodes, players, db_url, seed))
            cpu_before, busy_before = node_cpu([process.pid for process, _ in started]), machine_busy()
            arrivals = asyncio.run(stream(people, rate, drain))
            cpu = node_cpu([process.pid for process, _ in started]) - cpu_before
            busy_after = machine_busy()
        finally:
            for process, _ in started:
                process.terminate()
                process.wait(30)
    waits = [person.seated - person.queued for person in people if person.seated is not None]
    seating = [person.seated - person.found for person in people if person.seated and person.found]
    matching = [person.found - person.queued for person in people if person.seated and person.found]
    ranks = {person.table: person.table_ranks for person in people if person.table is not None}
    spreads = [max(seen) - min(seen) for seen in ranks.values()]
    return {
        "rate_per_preset": rate,
        "players": players,
        "arrivals_s": round(arrivals, 1),
        "seated": len(waits),
        "left_queueing": players - len(waits),
        "wait_p50_s": round(percentile(waits, 0.50), 2),
        "wait_p90_s": round(percentile(waits, 0.90), 2),
        "wait_p99_s": round(percentile(waits, 0.99), 2),
        "wait_max_s": round(max(waits, default=float("nan")), 2),
        "queued_to_found_p99_s": round(percentile(matching, 0.99), 2),
        "found_to_seated_p50_s": round(percentile(seating, 0.50), 2),
        "found_to_seated_p99_s": round(percentile(seating, 0.99), 2),
        "spread_mean": round(statistics.fmean(spreads), 2) if spreads else None,
        "spread_p90": percentile([float(s) for s in spreads], 0.9),
        "spread_max": max(spreads, default=None),
        "tables_within_one_title": round(sum(s <= 1 for s in spreads) / len(spreads), 3) if spreads else None,
        "nodes_cpu_s": round(cpu, 1),
        "machine_busy": round((busy_after[0] - busy_before[0]) / max(1, busy_after[1] - busy_before[1]), 2),
        "load_1min": round(os.getloadavg()[0], 1),
        **checks(people),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", required=True, help="a PostgreSQL server URL (each run makes a database)")
    parser.add_argument("--rates", default="2,4,8", help="arrivals a second per preset, one run each")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--drain", type=float, default=15.0, help="seconds without a seating that end a run")
    parser.add_argument("--seed", type=int, default=45)
    parser.add_argument("--json", action="store_true", help="one JSON line per run")
    args = parser.parse_args()
    for rate in (float(part) for part in args.rates.split(",")):
        row = run_once(args.postgres, rate, args.players, args.drain, args.seed)
        print(
            json.dumps(row, ensure_ascii=False) if args.json else "  ".join(f"{k}={v}" for k, v in row.items()),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
