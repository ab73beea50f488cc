"""Leaderboards and profiles on a real database (SQLite, and PostgreSQL with ``TUOLAJI_TEST_POSTGRES``):
order, ties, paging, the viewer's place, guests left out, the indexes that serve them, each account's
record per side, and the migration that fills that side in for hands stored before it."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import insert, select, text
from sqlalchemy.ext.asyncio import AsyncConnection

from tuolaji.game.view import RoundResult
from tuolaji.room.effects import HandSeat
from tuolaji.store.accounts import AccountData, Accounts
from tuolaji.store.db import Database, make_engine, migrate
from tuolaji.store.leaderboard import PAGE_SIZE, PAGES, above_query, board_page, page_query, place_of
from tuolaji.store.models import Account, HandPlayer
from tuolaji.store.profiles import profile, sides
from tuolaji.store.records import HandWrite, record_hand


def account_rows(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """``count`` accounts, every fifth a guest, with many equal balances (ties)."""
    rng = random.Random(seed)
    return [
        {
            "id": index,
            "nickname": f"p{index}",
            "nickname_key": f"p{index}",
            "password_hash": None,
            "guest": index % 5 == 0,
            "points": rng.choice([0, 0, 3, 7, 7, 12, 40, rng.randrange(200)]),
            "silver": rng.choice([1000, 1000, 20, rng.randrange(10**6), 2**40]),
            "hands_played": 0,
            "hands_won": 0,
            "created_at": datetime.now(UTC),
        }
        for index in range(1, count + 1)
    ]


async def fill(db: Database, rows: list[dict[str, Any]]) -> None:
    async with db.sessions.begin() as session:
        await session.execute(insert(Account), rows)


def expected_board(rows: list[dict[str, Any]], board: str) -> list[tuple[int, int]]:
    """(place, id) of every registered account in board order, places shared by equal values."""
    ranked = sorted((row for row in rows if not row["guest"]), key=lambda row: (-row[board], row["id"]))
    return [(1 + sum(other[board] > row[board] for other in ranked), row["id"]) for row in ranked]


@pytest.mark.parametrize("board", ["points", "silver"])
async def test_pages_are_in_board_order_with_shared_places_and_no_guests(db: Database, board: str) -> None:
    rows = account_rows(140)
    await fill(db, rows)
    expected = expected_board(rows, board)
    got: list[tuple[int, int]] = []
    for page in range(1, PAGES + 1):
        entries = await board_page(db, board, page)
        assert len(entries) == PAGE_SIZE
        got += [(entry["place"], entry["account"]["id"]) for entry in entries]
        assert all(not entry["account"]["guest"] for entry in entries)
    assert got == expected[: PAGES * PAGE_SIZE]
    # Ties really happen across page boundaries, so the first place of a page is counted, not guessed.
    assert any(got[index][0] == got[index - 1][0] for index in range(PAGE_SIZE, len(got), PAGE_SIZE))
    entry = (await board_page(db, board, 1))[0]
    account = entry["account"]
    assert account[board] == max(row[board] for row in rows if not row["guest"])
    assert {"rank", "wealth", "nickname", "points", "silver"} <= set(account)
    with pytest.raises(ValueError):
        await board_page(db, board, PAGES + 1)
    with pytest.raises(ValueError):
        await board_page(db, "karma", 1)


async def test_an_accounts_place_is_one_more_than_those_ahead(db: Database) -> None:
    rows = account_rows(300, seed=2)
    await fill(db, rows)
    accounts = Accounts(db)
    for board in ("points", "silver"):
        places = dict((account_id, place) for place, account_id in expected_board(rows, board))
        for row in rows[::7]:
            account = await accounts.get(row["id"])
            assert account is not None
            assert await place_of(db, board, account) == places.get(row["id"]), (board, row)
    guest = await accounts.get(5)
    assert guest is not None and guest.guest and await place_of(db, "points", guest) is None


async def test_few_accounts_make_short_pages(db: Database) -> None:
    assert await board_page(db, "points", 1) == []
    await fill(db, account_rows(12))
    assert len(await board_page(db, "points", 1)) == 12 - 2  # accounts 5 and 10 are guests
    assert await board_page(db, "points", 2) == []


async def plan(connection: AsyncConnection, sql: str) -> str:
    if connection.dialect.name == "sqlite":
        rows = (await connection.execute(text(f"EXPLAIN QUERY PLAN {sql}"))).all()
        return "\n".join(str(row[-1]) for row in rows)
    await connection.execute(text("SET enable_seqscan = off"))  # a few rows: show the index can serve it
    return "\n".join(str(row[0]) for row in (await connection.execute(text(f"EXPLAIN {sql}"))).all())


async def test_the_boards_are_served_from_their_indexes(db: Database) -> None:
    """No table scan per request: a page is an index scan in board order (no sort), a place an
    index-only count."""
    await fill(db, account_rows(400))
    async with db.engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            # As autovacuum does in production: the visibility map is what makes a count index-only.
            await connection.execution_options(isolation_level="AUTOCOMMIT")
            await connection.execute(text("VACUUM ANALYZE accounts"))
        for board in ("points", "silver"):
            index = f"ix_accounts_board_{board}"
            for query, only in ((page_query(board, 3), False), (above_query(board, 7), True)):
                sql = str(query.compile(connection.sync_engine, compile_kwargs={"literal_binds": True}))
                shown = await plan(connection, sql)
                assert index in shown, shown
                assert "SORT" not in shown.upper() and "Seq Scan" not in shown, shown
                if only:
                    assert "COVERING INDEX" in shown or "Index Only Scan" in shown, shown
                elif connection.dialect.name == "sqlite":
                    assert "SCAN accounts USING INDEX" in shown or "SEARCH accounts USING INDEX" in shown, shown


def _hand(number: int, dealer: int, winning_team: int | None, seats: list[HandSeat]) -> HandWrite:
    kind = "played" if winning_team is not None else "escape"
    winner = None if winning_team is None else "defenders" if winning_team == dealer % 2 else "attackers"
    result = RoundResult(
        kind=kind, dealer=dealer, winner=winner, winning_team=winning_team, levels=1, escaped=None if winner else 3
    )
    return HandWrite(
        table_id="t1",
        number=number,
        seed=number,
        options={"preset": "nanning"},
        setup={"seed": number, "dealer": dealer, "level": "3", "first_hand": False},
        actions=[{"type": "deal", "count": 216}],
        result=result,
        seats=seats,
        started_at=datetime.now(UTC),
    )


async def test_a_profile_counts_hands_per_side_and_lists_the_latest(db: Database) -> None:
    accounts = Accounts(db)
    alice = (await accounts.register("Alice", "tractor-77"))[1]
    guest = (await accounts.create_guest())[1]
    seats = [HandSeat(0, alice.id, "Alice"), HandSeat(1, guest.id, guest.nickname), HandSeat(2, bot="random")]
    seats.append(HandSeat(3, bot="heuristic"))
    # Alice (seat 0, team 0): dealer's team when the dealer is 0 or 2.
    hands = [(0, 0), (2, 1), (1, 1), (3, 0), (1, 1), (0, None), (2, 0)]
    for number, (dealer, winning_team) in enumerate(hands, start=1):
        await record_hand(db, _hand(number, dealer, winning_team, seats))
    assert await sides(db, alice.id) == {"dealer": {"hands": 4, "won": 2}, "attackers": {"hands": 3, "won": 1}}
    assert await sides(db, guest.id) == {"dealer": {"hands": 3, "won": 2}, "attackers": {"hands": 4, "won": 1}}
    fresh = await accounts.get(alice.id)
    assert isinstance(fresh, AccountData)
    shown = await profile(db, fresh)
    assert shown["account"]["hands_played"] == 7 and shown["account"]["hands_won"] == 3
    assert shown["places"] == {"points": 1, "silver": 1}
    assert [hand["number"] for hand in shown["recent"]] == [7, 6, 5, 4, 3, 2, 1]
    assert shown["recent"][0]["won"] and not shown["recent"][1]["won"]
    guest_now = await accounts.get(guest.id)
    assert guest_now is not None
    assert (await profile(db, guest_now))["places"] == {"points": None, "silver": None}
    for number in range(8, 20):
        await record_hand(db, _hand(number, 0, 0, seats))
    assert len((await profile(db, fresh))["recent"]) == 10


async def test_the_migration_fills_in_the_side_of_hands_stored_before_it(url: str) -> None:
    engine = make_engine(url)
    try:
        await migrate(engine, "0003_nickname_skeleton")
        now = datetime.now(UTC)
        before: dict[
            str, list[dict[str, Any]]
        ] = {  # rows as revision 0003 stored them: the dealer is only in each hand's result
            "INSERT INTO accounts (id, nickname, nickname_key, guest, points, silver, hands_played, hands_won,"
            " created_at) VALUES (:id, :n, :n, false, 0, 1000, 1, 0, :at)": [
                {"id": account_id, "n": f"a{account_id}", "at": now} for account_id in (1, 2)
            ],
            "INSERT INTO hands (id, table_id, number, seed, options, setup, actions, result, seats, settlement,"
            " started_at, finished_at) VALUES (:id, 't', :id, '1', '{}', '{}', '[]', :result, '[]', '[]', :at, :at)": [
                {"id": hand_id, "result": f'{{"kind": "played", "dealer": {dealer}}}', "at": now}
                for hand_id, dealer in ((1, 1), (2, 2))
            ],
            "INSERT INTO hand_players (hand_id, seat, account_id, points_delta, silver_delta, won)"
            " VALUES (:h, :s, :a, 0, 0, false)": [
                {"h": hand_id, "s": seat, "a": seat + 1} for hand_id in (1, 2) for seat in (0, 1)
            ],
        }
        async with engine.begin() as connection:
            for sql, params in before.items():
                await connection.execute(text(sql), params)
        await migrate(engine)
        async with engine.connect() as connection:
            rows = (
                await connection.execute(
                    select(HandPlayer.hand_id, HandPlayer.seat, HandPlayer.defending).order_by(
                        HandPlayer.hand_id, HandPlayer.seat
                    )
                )
            ).all()
        assert [tuple(row) for row in rows] == [(1, 0, False), (1, 1, True), (2, 0, True), (2, 1, False)]
    finally:
        await engine.dispose()
