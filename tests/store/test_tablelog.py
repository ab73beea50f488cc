"""The tables' durable logs on a real database: write ahead, snapshots, closing, fencing, and a hand
settled in the transaction that writes its last step (SQLite, and PostgreSQL when configured)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from tuolaji.game.view import RoundResult
from tuolaji.game.actions import DealCards
from tuolaji.room.commands import Player
from tuolaji.room.effects import HandSeat
from tuolaji.room.entries import Acted, BadEntry, Readied, RoundBegun, Sat, SeatRecord, Settling, TableClosed
from tuolaji.store.accounts import Accounts
from tuolaji.store.db import Database
from tuolaji.store.records import HandWrite, get_hand
from tuolaji.store.tablelog import Fenced, LogWrite, TableLog

OPTIONS = {"preset": "nanning"}


SEATS = (SeatRecord(Player(1, "p1"), None, True, False), *(SeatRecord(None, "random", True, False) for _ in range(3)))


def act(count: int) -> Acted:
    """A log entry told apart by ``count``."""
    return Acted(DealCards(count))


def snapshot(number: int) -> RoundBegun:
    """A ``round`` entry: the log before it may be dropped."""
    return RoundBegun(number, 1_000, SEATS, {"seed": 7}, {"seed": number})


async def test_entries_are_kept_in_order_from_the_last_snapshot(db: Database) -> None:
    log = TableLog(db)
    try:
        await log.create("t1", OPTIONS)
        await log.append(LogWrite("t1", 1, [Sat(0, Player(1, "p1")), Readied(0)]))
        await log.append(LogWrite("t1", 3, [snapshot(1), act(1)]))
        await log.append(LogWrite("t1", 5, [act(2)]))
        opened = await log.load("t1")
        assert opened is not None
        assert opened.entries == [snapshot(1), act(1), act(2)]
        assert (opened.next_seq, opened.options, opened.fence) == (6, OPTIONS, 0)
        assert [table.id for table in await log.open_tables()] == ["t1"] and await log.open_ids() == ["t1"]
        await log.append(LogWrite("t1", 6, [TableClosed("empty")]))
        assert await log.load("t1") is None and await log.open_ids() == []
    finally:
        await log.close()


async def test_open_tables_reads_every_open_log_as_load_does(db: Database) -> None:
    log = TableLog(db)
    try:
        for name in ("b", "a", "quiet", "gone"):
            await log.create(name, {**OPTIONS, "name": name}, fence=len(name))
        await log.append(LogWrite("a", 1, [act(1), snapshot(1)]))
        await log.append(LogWrite("b", 1, [act(2)]))
        await log.append(LogWrite("a", 3, [act(3)]))
        await log.append(LogWrite("gone", 1, [act(4), TableClosed("empty")]))
        opened = {table.id: table for table in await log.open_tables()}
        assert sorted(opened) == ["a", "b", "quiet"]
        for name, table in opened.items():
            assert table == await log.load(name)
        assert opened["a"].entries == [snapshot(1), act(3)] and opened["a"].next_seq == 4
        assert opened["quiet"].entries == [] and opened["quiet"].next_seq == 1 and opened["quiet"].fence == 5
    finally:
        await log.close()


async def test_a_fenced_write_is_refused_and_the_rest_of_its_batch_is_written(db: Database) -> None:
    log = TableLog(db)
    try:
        await log.create("old", OPTIONS, fence=1)
        await log.create("other", OPTIONS, fence=1)
        taken = await log.take("old")  # another node: the token goes to 2, and its log is read after that
        assert taken is not None and taken.fence == 2
        stale = log.append(LogWrite("old", 1, [act(1)], fence=1))
        fine = log.append(LogWrite("other", 1, [act(1)], fence=1))
        results = await asyncio.gather(stale, fine, return_exceptions=True)
        assert isinstance(results[0], Fenced) and results[1] is None
        assert (await log.load("old")).entries == []  # type: ignore[union-attr]
        assert (await log.load("other")).entries == [act(1)]  # type: ignore[union-attr]
        await log.append(LogWrite("old", 1, [act(9)], fence=2))
        assert (await log.load("old")).entries == [act(9)]  # type: ignore[union-attr]
        assert await log.take("closed-or-unknown") is None
    finally:
        await log.close()


async def test_the_last_step_and_the_settlement_share_one_transaction(db: Database) -> None:
    accounts = Accounts(db)
    _, alice = await accounts.create_guest()
    log = TableLog(db)
    result = RoundResult("played", dealer=0, winner="defenders", winning_team=0, levels=1, score=60)
    hand = HandWrite(
        table_id="t1",
        number=1,
        seed=7,
        options=OPTIONS,
        setup={"seed": 7},
        actions=[],
        result=result,
        seats=[HandSeat(0, alice.id, alice.nickname), HandSeat(1, bot="heuristic"), HandSeat(2), HandSeat(3)],
        started_at=datetime.now(UTC),
    )
    try:
        await log.create("t1", OPTIONS)
        settled = await log.append(LogWrite("t1", 1, [Settling()], hand=hand))
        assert settled is not None and settled.lines[0]["points_delta"] > 0
        record = await get_hand(db, settled.hand_id)
        assert record is not None and record["number"] == 1
        again = await log.stored_hand("t1", 1)
        assert again is not None and (again.hand_id, again.lines) == (settled.hand_id, settled.lines)
        # The same hand again (a second settlement) fails whole: neither its entries nor a record.
        with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
            await log.append(LogWrite("t1", 2, [Settling()], hand=hand))
        assert (await log.load("t1")).entries == [Settling()]  # type: ignore[union-attr]
        me = await accounts.get(alice.id)
        assert me is not None and me.points == settled.lines[0]["points"]
    finally:
        await log.close()
        accounts.close()
