"""How long a person waits at a table of three bots (issue 44): from 和機器人開打 (``play_now``) to the
first playable turn, and per trick.

For each source tree of ``--code`` (``NAME=PATH,…``; default this tree), in alternating rounds, a
``tuolaji serve`` with the standard pace (the table defaults: deal 50 ms a tick, bid window 10 s,
review 2 s; ``--bot-delay`` 0.6 s, the server's default) on a fresh SQLite file. Each sample is a
new guest who sends ``play_now`` (three ``heuristic`` bots), says 不叫 (``pass``) the moment the deal
is over (a tree without ``pass`` refuses it, and the guest waits for the window like everyone did
before), plays its hint the moment its turn comes, and leaves after ``--tricks`` tricks. Times are
the guest's, from the messages it receives (``time.perf_counter``):

- start: ``play_now`` sent → the last card → the hand in play (bidding closed; the dealer may lead)
  → the guest's own first turn;
- trick: from one trick's judging to the next's, and its two parts: the four plays (the guest's at
  once, each bot's after the bot delay), then the review to the judging.

    .venv/bin/python benchmarks/pace.py --code old=/tmp/book-base,new=. --rounds 3 --tricks 8
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from servers import REPO, fresh_database, source_trees, start_server
from websockets.asyncio.client import connect

STANDARD_PACE = ("--bot-delay", "0.6", "--next-hand-delay", "3")
"""The server's default pace (``servers.start_server`` sets both to 0 for load tests)."""
SEAT = 0
"""``play_now`` seats the guest at seat 0."""


@dataclass
class Sample:
    """One guest's table: seconds from ``play_now`` and the tricks' durations."""

    dealt: float = 0.0
    playing: float = 0.0
    first_turn: float = 0.0
    tricks: list[float] = field(default_factory=list)
    plays: list[float] = field(default_factory=list)
    reviews: list[float] = field(default_factory=list)


async def one_sample(base: str, tricks: int) -> Sample:
    """A new guest's ``play_now`` table, measured until ``tricks`` tricks are judged; the guest then leaves."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        token = (await http.post("/api/guest")).json()["token"]
    sample = Sample()
    async with connect(base.replace("http://", "ws://") + "/ws", max_size=None) as ws:
        await ws.send(json.dumps({"v": 2, "type": "hello", "token": token}))
        start = time.perf_counter()
        await ws.send(json.dumps({"v": 2, "type": "play_now", "bot": "heuristic"}))
        passed = False
        turn_played = -1
        trick_start = review_start = None
        async for frame in ws:
            now = time.perf_counter() - start
            message = json.loads(frame)
            if message.get("type") != "state" or message.get("view") is None:
                continue
            view: dict[str, Any] = message["view"]
            phase = view["phase"]
            if phase == "finished":
                raise RuntimeError(f"the hand ended before {tricks} tricks: {view.get('result')}")
            if not sample.dealt and phase in ("bidding", "playing"):
                sample.dealt = now
            if phase == "bidding" and not passed:
                passed = True
                await ws.send(json.dumps({"v": 2, "type": "pass", "id": "pass"}))
            if phase not in ("playing", "review"):
                continue
            if not sample.playing:
                sample.playing = trick_start = now
            for event in message.get("events", []):
                if event["type"] == "play" and event.get("phase") == "review":
                    review_start = now
                elif event["type"] == "trick" and trick_start is not None and review_start is not None:
                    sample.tricks.append(now - trick_start)
                    sample.plays.append(review_start - trick_start)
                    sample.reviews.append(now - review_start)
                    trick_start = now
            if len(sample.tricks) >= tricks:
                await ws.send(json.dumps({"v": 2, "type": "leave"}))
                return sample
            played = view["tricks_played"]
            if phase == "playing" and view["to_move"] == SEAT and turn_played != played:
                turn_played = played
                if not sample.first_turn:
                    sample.first_turn = now
                await ws.send(json.dumps({"v": 2, "type": "play", "cards": view["hint"]}))
    raise RuntimeError("the connection closed")


def run_tree(code: Path, samples: int, tricks: int) -> list[Sample]:
    """``samples`` guests, one after another, on a server of the tree ``code``."""
    with fresh_database(None) as db_url:
        process, base = start_server(db_url, code, STANDARD_PACE)
        try:
            return [asyncio.run(one_sample(base, tricks)) for _ in range(samples)]
        finally:
            process.terminate()
            process.wait(30)


def summary(name: str, samples: list[Sample]) -> str:
    """One line of medians (seconds)."""

    def median(values: list[float]) -> str:
        return f"{statistics.median(values):5.2f}"

    def p90(values: list[float]) -> str:
        return f"{statistics.quantiles(values, n=10)[-1]:5.2f}" if len(values) > 1 else "  -  "

    tricks = [value for sample in samples for value in sample.tricks]
    plays = [value for sample in samples for value in sample.plays]
    reviews = [value for sample in samples for value in sample.reviews]
    return (
        f"{name:8} start: dealt {median([s.dealt for s in samples])}  in play {median([s.playing for s in samples])}"
        f"  your first turn {median([s.first_turn for s in samples])}  |  trick {median(tricks)} (p90 {p90(tricks)})"
        f" = four plays {median(plays)} + review {median(reviews)}  [{len(samples)} tables, {len(tricks)} tricks]"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--code", default=f"new={REPO}", help="NAME=PATH[,NAME=PATH…]: source trees to compare")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds of every tree")
    parser.add_argument("--samples", type=int, default=2, help="tables per tree and round")
    parser.add_argument("--tricks", type=int, default=8, help="tricks measured per table")
    args = parser.parse_args()
    trees = source_trees(parser, args.code)
    results: dict[str, list[Sample]] = {name: [] for name, _ in trees}
    for _ in range(args.rounds):
        for name, code in trees:
            results[name].extend(run_tree(code, args.samples, args.tricks))
    print("seconds, medians over tables (start) and tricks:")
    for name, samples in results.items():
        print(summary(name, samples))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
