"""Crash tests: ``kill -9`` of a real server at a dozen points of a match, restart, and the hands go on.

Four people play a table (each plays the hint on their turn and bids when nobody has). At each
crash point the test kills the server process it started (by PID), restarts it on the same database
and reconnects every player with their token. Then it checks what a card room must never get wrong:
every hand finishes and is stored once; every balance is its start plus its settlement lines; each
stored hand begins with exactly the bids and plays the clients had seen before each crash; and no
client was dealt a different hand than the record holds.

"During settlement" is reached for real: the test holds a lock on the database that the hand's
record needs, waits for the server to report its log write waiting (a server warning), and kills it
inside that transaction. Runs on an SQLite file, and on PostgreSQL when ``TUOLAJI_TEST_POSTGRES``
names a scratch server (a database of its own is created for the test).
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from tests.databases import fresh_postgres
from tests.live_server import LiveServer, audit_is_sound
from tests.server.players import WAIT, Party, Player, Step, state_of
from tests.server.wsclient import Client
from tuolaji.store.db import make_engine

ARGS = ("--bot-delay", "0", "--next-hand-delay", "1.0", "--log-level", "info")
OPTIONS = {"deal_interval_ms": 20, "bid_window_seconds": 1.0, "review_seconds": 0.25, "turn_seconds": 60}


@dataclass
class Room:
    """The server under test and the four players."""

    server: LiveServer
    party: Party
    snapshots: list[tuple[int, int, list[Step]]] = field(default_factory=list)
    """(player index, hand, what that player knew) at each crash."""
    shown: list[tuple[int, int, Counter[str], Counter[str]]] = field(default_factory=list)
    """(player index, hand, cards held at a crash, cards held after the restart plus those played since)."""
    errors: list[str] = field(default_factory=list)
    """Error lines of every server run."""
    _before: list[tuple[int | None, Counter[str]]] = field(default_factory=list)

    def lead(self) -> Client:
        return self.party.lead()

    async def until(self, condition: Callable[[], bool], timeout: float = WAIT) -> None:
        try:
            await self.party.until(condition, timeout)
        except TimeoutError as error:
            raise TimeoutError(f"{error}; the server's last lines: {self.server.log[-15:]}") from None

    async def crash(self, server_log_line: str | None = None) -> None:
        """kill -9 the server (after ``server_log_line``, if given), restart it, reconnect everyone."""
        await self.kill(server_log_line)
        await self.restart()

    async def kill(self, server_log_line: str | None = None) -> None:
        """kill -9 the server (after ``server_log_line``, if given), noting what every player knew."""
        if server_log_line is not None:
            assert await asyncio.to_thread(self.server.logged, server_log_line, WAIT)
        for index, player in enumerate(self.party.players):
            player.absorb()
            hand = max(player.known, default=0)
            self.snapshots.append((index, hand, list(player.known.get(hand, []))))
        self._before = [self._hand_now(player) for player in self.party.players]
        self.errors += self.server.errors()
        self.server.kill()
        for player in self.party.players:
            if player.client is not None:
                with contextlib.suppress(Exception):
                    await player.client.close()

    async def restart(self) -> None:
        """Start the server again on the same database and reconnect everyone with their tokens."""
        self.server = LiveServer(self.server.db_path, ARGS, database_url=self.server.database_url).start()
        for index, player in enumerate(self.party.players):
            await player.connect(self.server.url)
            assert player.client is not None
            full = await player.client.wait(lambda m: m["type"] == "state" and m["full"])
            player.absorb()
            held, cards = self._before[index]
            if held is not None and full["hand"] == held and full["view"] is not None:
                mine_since = self._played_since(player, held, index)
                self.shown.append((index, held, cards, Counter(full["view"]["hand"]) + mine_since))

    def _hand_now(self, player: Player) -> tuple[int | None, Counter[str]]:
        state = state_of(player.client) if player.client is not None else None
        if state is None or state["view"] is None or state["view"]["phase"] == "dealing":
            return None, Counter()
        return state["hand"], Counter(state["view"]["hand"])

    def _played_since(self, player: Player, hand: int, index: int) -> Counter[str]:
        known_before = next(steps for i, h, steps in reversed(self.snapshots) if i == index and h == hand)
        after = player.known.get(hand, [])[len(known_before) :]
        return Counter(card for step in after if step[0] == "play" and step[1] == player.seat for card in step[2])


def phase_is(room: Room, phase: str, tricks: int = 0, dealt: int = 0) -> Callable[[], bool]:
    def holds() -> bool:
        state = state_of(room.lead())
        if state is None or state["view"] is None:
            return False
        view = state["view"]
        return bool(view["phase"] == phase and view["tricks_played"] >= tricks and view["cards_dealt"] >= dealt)

    return holds


def hand_ended(room: Room) -> Callable[[], bool]:
    """Between hands: the newest message about the hand is its ``hand_end`` (a connection that comes
    back between hands gets it again after its full state)."""

    def holds() -> bool:
        ends = [item for item in room.lead().log if item["type"] == "hand_end"]
        state = state_of(room.lead())
        return bool(ends) and state is not None and ends[-1]["hand"] == state["hand"]

    return holds


@contextlib.asynccontextmanager
async def settlement_blocked(room: Room) -> AsyncIterator[None]:
    """Hold a lock that the hand's record needs (SQLite: the write lock; PostgreSQL: the hands table)."""
    url = room.server.db_url
    if url.startswith("sqlite"):
        blocker = sqlite3.connect(room.server.db_path, isolation_level=None, timeout=30)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        return
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            transaction = await connection.begin()
            await connection.execute(text("LOCK TABLE hands IN EXCLUSIVE MODE"))
            try:
                yield
            finally:
                await transaction.rollback()
    finally:
        await engine.dispose()


async def crash_in_settlement(room: Room) -> None:
    """Reach the last trick's review, block the record's write, kill the server inside it."""
    await room.until(phase_is(room, "review", tricks=53))
    async with settlement_blocked(room):
        await room.kill(server_log_line="for the database")
    await room.restart()


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest) -> AsyncIterator[str | None]:
    """None for an SQLite file; else the URL of a fresh PostgreSQL database (dropped afterwards)."""
    if request.param == "sqlite":
        yield None
        return
    async with fresh_postgres() as url:
        yield url


async def test_kill_9_at_a_dozen_points_loses_no_hand(tmp_path: Path, database: str | None) -> None:
    server = LiveServer(tmp_path / "crash.sqlite3", ARGS, database_url=database).start()
    room = Room(server, Party([await Player.guest(server.url) for _ in range(4)]))
    try:
        await room.party.seat(OPTIONS)

        points: list[Callable[[], bool] | None] = [
            phase_is(room, "dealing", dealt=60),
            phase_is(room, "bidding"),
            phase_is(room, "playing", tricks=2),
            phase_is(room, "review", tricks=8),
            phase_is(room, "playing", tricks=30),
            None,  # during the settlement
            hand_ended(room),
            phase_is(room, "dealing", dealt=120),
            phase_is(room, "review", tricks=20),
            phase_is(room, "playing", tricks=52),
            None,
            hand_ended(room),
            phase_is(room, "bidding"),
        ]
        for condition in points:
            if condition is None:
                await crash_in_settlement(room)
            else:
                await room.until(condition)
                await room.crash()
        last = state_of(room.lead())
        assert last is not None
        final = last["hand"]
        await room.until(lambda: any(m["type"] == "hand_end" and m["hand"] == final for m in room.lead().log), 120)
        await check_records(room, final)
        assert len(room.snapshots) == 4 * len(points)
        assert len(room.shown) >= 4 * 8, "too few restarts in the middle of a hand"
        assert room.errors + room.server.errors() == []
    finally:
        for player in room.party.players:
            if player.client is not None:
                with contextlib.suppress(Exception):
                    await player.client.close()
        room.server.stop()


async def check_records(room: Room, final_hand: int) -> None:
    """Every hand stored once; balances add up and equal their ledgers; what clients saw is a prefix
    of each record; same deals."""
    audit_is_sound(room.server.db_url)
    async with httpx.AsyncClient(base_url=room.server.url) as http:
        ids: set[int] = set()
        for player in room.party.players:
            listed = (await http.get(f"/api/accounts/{player.account_id}/hands", params={"limit": 100})).json()
            ids |= {hand["id"] for hand in listed["hands"]}
        records = [(await http.get(f"/api/hands/{hand_id}")).json()["hand"] for hand_id in sorted(ids)]
        accounts = [
            (await http.get(f"/api/accounts/{player.account_id}")).json()["account"] for player in room.party.players
        ]
    numbers = [record["number"] for record in records]
    assert numbers == list(range(1, final_hand + 1)), numbers  # each hand once, none lost
    assert all(record["result"]["kind"] == "played" for record in records)
    by_number = {record["number"]: record for record in records}
    for index, player in enumerate(room.party.players):
        lines = [line for record in records for line in record["settlement"] if line["account_id"] == player.account_id]
        assert len(lines) == final_hand
        assert accounts[index]["points"] == sum(line["points_delta"] for line in lines)
        assert accounts[index]["silver"] == 1000 + sum(line["silver_delta"] for line in lines)
        assert accounts[index]["hands_played"] == final_hand
    for _, hand, seen in room.snapshots:
        if hand == 0:
            continue
        stored: list[Step] = []
        for action in by_number[hand]["actions"]:
            if action["type"] == "bid":
                stored.append(("bid", action["seat"], action["suit"], action["count"]))
            elif action["type"] == "play":
                stored.append(("play", action["seat"], tuple(action["cards"].split())))
        assert stored[: len(seen)] == seen, f"hand {hand}: the record does not begin with what a client saw"
    for player in room.party.players:
        for hand, cards in player.dealt.items():
            assert cards == Counter(by_number[hand]["hands"][player.seat]), f"hand {hand}: seat {player.seat} dealt"
    assert room.shown, "no reconnect happened mid-hand"
    for index, hand, before, after in room.shown:
        assert before == after, f"player {index}, hand {hand}: shown another hand after the restart"
