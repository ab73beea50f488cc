"""The store on a real database: migrations, accounts, settlement and hand records.

Every test runs on an SQLite file; set ``TUOLAJI_TEST_POSTGRES`` to a ``postgresql+asyncpg://`` URL
of a scratch database to run them on PostgreSQL too (its tables are dropped first).
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from tuolaji.game.view import RoundResult
from tuolaji.room.effects import HandSeat
from tuolaji.store.accounts import Accounts, BadCredentials, BadNickname, BadPassword, NicknameTaken
from tuolaji.store.db import Database, alembic_config, make_engine, migrate, open_database, sqlite_url
from tuolaji.store.models import Base
from tuolaji.store.records import HandWrite, get_hand, hands_of, record_hand


def _diff(connection: Connection) -> list[Any]:
    return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))


async def test_migrations_match_the_models_and_go_both_ways(db: Database) -> None:
    async with db.engine.connect() as connection:
        assert await connection.run_sync(_diff) == []
        tables = await connection.run_sync(lambda sync: set(inspect(sync).get_table_names()))
    assert {"accounts", "sessions", "hands", "hand_players", "alembic_version"} <= tables
    async with db.engine.begin() as connection:
        await connection.run_sync(lambda sync: command.downgrade(alembic_config(sync), "base"))
    async with db.engine.connect() as connection:
        tables = await connection.run_sync(lambda sync: set(inspect(sync).get_table_names()))
    assert tables == {"alembic_version"}
    await migrate(db.engine)
    async with db.engine.connect() as connection:
        assert await connection.run_sync(_diff) == []


async def test_accounts_and_sessions(db: Database) -> None:
    accounts = Accounts(db, start_silver=500)
    token, alice = await accounts.register("Alice", "tractor-77")
    assert (alice.points, alice.silver, alice.guest) == (0, 500, False)
    assert alice.to_json()["wealth"] == {"title": "正式工", "base": 4}
    with pytest.raises(NicknameTaken):
        await accounts.register("ALICE", "tractor-77")
    with pytest.raises(BadNickname):
        await accounts.register(" Alice", "tractor-77")
    with pytest.raises(BadNickname):
        await accounts.register("a\x00b", "tractor-77")
    with pytest.raises(BadPassword):
        await accounts.register("Bob", "short")
    with pytest.raises(BadCredentials):
        await accounts.login("Alice", "tractor-78")
    with pytest.raises(BadCredentials):
        await accounts.login("Nobody", "tractor-77")
    second, same = await accounts.login("alice", "tractor-77")
    assert same.id == alice.id and second != token
    assert (await accounts.by_token(token)) == alice
    await accounts.logout(token)
    assert await accounts.by_token(token) is None
    assert (await accounts.by_token(second)) == alice
    guest_token, guest = await accounts.create_guest()
    assert guest.guest and guest.nickname == f"guest-{guest.id:04d}"  # unique as ids are
    with pytest.raises(BadCredentials):
        await accounts.login(guest.nickname, "")
    assert (await accounts.by_token(guest_token)) == guest
    assert await accounts.get(9999) is None
    assert await accounts.get_many([guest.id, 9999, alice.id, guest.id]) == {guest.id: guest, alice.id: alice}
    assert await accounts.get_many([]) == {}


def _hand(result: RoundResult, seats: list[HandSeat], number: int = 1) -> HandWrite:
    return HandWrite(
        table_id="t1",
        number=number,
        seed=2**62 + 5,
        options={"preset": "nanning"},
        setup={"seed": 2**62 + 5, "dealer": 0, "level": "3", "first_hand": False, "autoplay": [], "timeouts": []},
        actions=[{"type": "deal", "count": 216}],
        result=result,
        seats=seats,
        started_at=datetime.now(UTC),
    )


async def test_settlement_and_records(url: str) -> None:
    db = await open_database(url)
    try:
        accounts = Accounts(db)
        ids = [(await accounts.register(name, "tractor-77"))[1].id for name in ("南", "東", "北")]
        seats = [
            HandSeat(0, ids[0], "南"),
            HandSeat(1, ids[1], "東"),
            HandSeat(2, ids[2], "北"),
            HandSeat(3, bot="heuristic"),
        ]
        # R40 as a transfer: team 0 (seats 0, 2) wins 2 levels; seat 1 pays 2 × its silver base (16) and
        # no 積分 (it holds none), the bot in seat 3 pays nothing; the winners split the 16.
        won = RoundResult(kind="played", dealer=0, winner="defenders", winning_team=0, levels=2, score=60)
        settled = await record_hand(db, _hand(won, seats))
        lines = settled.lines
        assert [(line["points_delta"], line["silver_delta"]) for line in lines[:3]] == [(0, 8), (0, -16), (0, 8)]
        assert lines[3]["bot"] == "heuristic" and lines[3]["points"] is None
        assert settled.accounts[0].hands_won == 1 and settled.accounts[1].hands_won == 0
        assert settled.accounts[1].silver == 984

        # R43: seat 1 escapes; opponents (0, 2) gain half of what it lost: 3 × its silver base (it
        # paid 6 × 8 in full), but no 積分 (it had none to lose).
        escape = RoundResult(kind="escape", dealer=0, escaped=1)
        second = await record_hand(db, _hand(escape, seats, 2))
        assert [(line["points_delta"], line["silver_delta"]) for line in second.lines[:3]] == [
            (0, 24),
            (0, -48),
            (0, 24),
        ]
        history = await hands_of(db, ids[1])
        assert [(hand["id"], hand["silver_delta"], hand["won"]) for hand in history] == [
            (second.hand_id, -48, False),
            (settled.hand_id, -16, False),
        ]
        assert [hand["id"] for hand in await hands_of(db, ids[1], limit=1, before=second.hand_id)] == [settled.hand_id]
    finally:
        await db.close()

    reopened = await open_database(url)
    try:
        record = await get_hand(reopened, settled.hand_id)
        assert record is not None and record["seed"] == 2**62 + 5 and record["result"] == won.to_json()
        assert record["actions"] == [{"type": "deal", "count": 216}]
        assert record["settlement"] == settled.lines
        assert await get_hand(reopened, 999) is None
        alice = await Accounts(reopened).get(ids[1])
        assert alice is not None and (alice.silver, alice.hands_played) == (1000 - 16 - 48, 2)
    finally:
        await reopened.close()


async def test_concurrent_hand_records_lose_no_update(db: Database) -> None:
    """Many tables finishing at once: every record is stored and every balance change counts."""
    accounts = Accounts(db)
    ids = [(await accounts.create_guest())[1].id for _ in range(4)]
    seats = [HandSeat(seat, ids[seat], f"p{seat}") for seat in range(4)]
    won = RoundResult(kind="played", dealer=0, winner="defenders", winning_team=0, levels=1, score=60)
    settled = await asyncio.gather(*(record_hand(db, _hand(won, seats, number)) for number in range(1, 21)))
    assert len({item.hand_id for item in settled}) == 20
    winner, loser = await accounts.get(ids[0]), await accounts.get(ids[1])
    # R40 as a transfer: each hand moves 8 silver (the loser's base) from each loser to each winner;
    # guests hold no 積分, so none moves.
    assert winner is not None and (winner.hands_played, winner.hands_won, winner.silver) == (20, 20, 1160)
    assert loser is not None and (loser.hands_played, loser.hands_won, loser.silver) == (20, 0, 840)


async def test_engine_creates_the_sqlite_directory(tmp_path: Path) -> None:
    engine = make_engine(sqlite_url(tmp_path / "deep" / "dir" / "x.sqlite3"))
    try:
        await migrate(engine)
    finally:
        await engine.dispose()
    assert (tmp_path / "deep" / "dir" / "x.sqlite3").exists()
