"""The tables' durable logs on a real database: write ahead, snapshots, closing, fencing, and a hand
settled in the transaction that writes its last step (SQLite, and PostgreSQL when configured)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, select, text

from tuolaji.game.actions import DealCards
from tuolaji.game.view import RoundResult
from tuolaji.room.commands import Player
from tuolaji.room.effects import HandSeat
from tuolaji.room.entries import (
    Acted,
    BadEntry,
    Readied,
    RoundBegun,
    Sat,
    SeatRecord,
    Settling,
    TableClosed,
    entry_to_json,
)
from tuolaji.store.accounts import Accounts
from tuolaji.store.db import IDLE_IN_TRANSACTION_MS, Database, open_database, sqlite_url
from tuolaji.store.models import LiveTable, TableLogEntry
from tuolaji.store.records import HandWrite, get_hand
from tuolaji.store.sqlitelog import RowsWrite, SqliteRows, plan_rows
from tuolaji.store.tablelog import HANDS_PER_WRITE, Fenced, LogWrite, TableLog
from tuolaji.wire.outbound import dumps

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


async def test_a_batch_of_many_steps_keeps_every_row_in_order(db: Database) -> None:
    """Steps of several tables in one batch, more rows than one insert statement takes."""
    log = TableLog(db)
    try:
        names = [f"t{index}" for index in range(5)]
        for name in names:
            await log.create(name, OPTIONS)
        steps = [LogWrite(name, 1, [act(1 + (seq % 216)) for seq in range(150)]) for name in names]
        await asyncio.gather(*(log.append(step) for step in steps))
        opened = {table.id: table for table in await log.open_tables()}
        for step in steps:
            assert opened[step.table_id].entries == list(step.entries)
            assert opened[step.table_id].next_seq == 151
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
        # R40: a win against a bot and empty seats is paid by nobody (docs/RULES-NOTES.md, Economy).
        assert settled is not None and (settled.lines[0]["points_delta"], settled.lines[0]["silver_delta"]) == (0, 0)
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
        # The writer goes on after the failed transaction: the next hand is settled and stored.
        following = await log.append(LogWrite("t1", 2, [Settling()], hand=replace(hand, number=2)))
        assert following is not None and following.hand_id != settled.hand_id
        assert (await log.load("t1")).entries == [Settling(), Settling()]  # type: ignore[union-attr]
    finally:
        await log.close()
        accounts.close()


def bots_hand(table_id: str) -> HandWrite:
    """A finished hand of four bots at ``table_id`` (settled, paid by nobody: R40)."""
    result = RoundResult("played", dealer=0, winner="defenders", winning_team=0, levels=1, score=60)
    seats = [HandSeat(seat, bot="heuristic") for seat in range(4)]
    return HandWrite(table_id, 1, 7, OPTIONS, {"seed": 7}, [], result, seats, datetime.now(UTC))


class Batches:
    """A log watcher that keeps each committed batch's size and, after the first batch of hands,
    has another move of table ``mover`` written (as a table does while the settlements go on)."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.log: TableLog | None = None
        self.later: asyncio.Task[object] | None = None

    def batch_committed(self, steps: int, seconds: float, hands: int) -> None:
        assert hands in (0, steps)  # a batch's moves and its settlements are written apart
        self.sizes.append(steps)
        if self.log is not None and self.later is None and steps == HANDS_PER_WRITE:
            self.later = asyncio.ensure_future(self.log.append(LogWrite("mover", 2, [act(2)])))

    def batch_failed(self, steps: int) -> None:
        raise AssertionError("no batch fails here")


async def test_a_burst_of_settlements_does_not_hold_up_the_other_tables_moves(db: Database) -> None:
    watcher = Batches()
    log = watcher.log = TableLog(db, watcher=watcher)
    hands = 3 * HANDS_PER_WRITE
    try:
        for table_id in ["mover", *(f"h{index}" for index in range(hands))]:
            await log.create(table_id, OPTIONS)
        settling = [
            log.append(LogWrite(f"h{index}", 1, [Settling()], hand=bots_hand(f"h{index}"))) for index in range(hands)
        ]
        results = await asyncio.gather(log.append(LogWrite("mover", 1, [act(1)])), *settling)
        assert watcher.later is not None and await watcher.later is None
        assert results[0] is None and all(settled is not None for settled in results[1:])
        # The move first; then the settlements a few at a time, the next move between them.
        assert watcher.sizes == [1, HANDS_PER_WRITE, 1, HANDS_PER_WRITE, HANDS_PER_WRITE]
        assert (await log.load("mover")).entries == [act(1), act(2)]  # type: ignore[union-attr]
    finally:
        await log.close()


async def test_the_log_keeps_each_entry_as_the_codecs_json_and_reads_it_back(db: Database) -> None:
    log = TableLog(db)
    written = [Sat(0, Player(1, "p1")), snapshot(1), act(3), Settling()]
    try:
        await log.create("t1", OPTIONS)
        await log.append(LogWrite("t1", 1, written))
        async with db.sessions() as session:
            stored = (await session.execute(select(TableLogEntry.entry).order_by(TableLogEntry.seq))).scalars()
            assert list(stored) == [entry_to_json(entry) for entry in written[1:]]  # from the snapshot on
        assert entry_to_json(act(3)) == {"t": "act", "action": {"type": "deal", "count": 3}}
        opened = await log.load("t1")
        assert opened is not None and opened.entries == written[1:]
    finally:
        await log.close()


async def test_an_entry_that_is_not_one_names_its_table_and_seq(db: Database) -> None:
    log = TableLog(db)
    try:
        await log.create("t1", OPTIONS)
        await log.append(LogWrite("t1", 1, [act(1)]))
        async with db.sessions.begin() as session:
            session.add(TableLogEntry(table_id="t1", seq=2, entry={"t": "teleport", "seat": 1}))
        (opened,) = await log.open_tables()
        with pytest.raises(BadEntry, match=r"table t1: log entry 2: unknown log entry \{'t': 'teleport'"):
            _ = opened.entries
    finally:
        await log.close()


def counting(db: Database) -> list[str]:
    """The SQL statements ``db`` runs from now on (one string each)."""
    statements: list[str] = []

    def count(_connection: object, _cursor: object, statement: str, *_: object) -> None:
        statements.append(statement)

    event.listen(db.engine.sync_engine, "before_cursor_execute", count)
    return statements


@pytest.mark.parametrize("tables", [1, 7])
async def test_restoring_or_taking_over_tables_takes_the_same_few_queries_however_many(
    db: Database, tables: int
) -> None:
    log = TableLog(db)
    names = [f"t{number}" for number in range(tables)]
    try:
        for name in names:
            await log.create(name, OPTIONS)
            await log.append(LogWrite(name, 1, [Sat(0, Player(1, "p1")), snapshot(1), act(1), act(2)]))
        statements = counting(db)
        opened = await log.open_tables()
        assert len(opened) == tables and all(table.entries == [snapshot(1), act(1), act(2)] for table in opened)
        assert len(statements) == 2, statements
        statements.clear()
        taken = await log.take_many([*names, "unknown"])
        assert sorted(table.id for table in taken) == names and all(table.fence == 1 for table in taken)
        assert len(statements) == 4, statements
    finally:
        await log.close()


async def test_a_takeover_leaves_out_a_table_whose_old_owner_is_frozen_in_the_middle_of_a_write(db: Database) -> None:
    """The old owner holds its tables' rows while it writes (``FOR UPDATE``); frozen in the middle of
    a write it would hold them until it thawed. The takeover skips such a table rather than wait
    (the next scan tries again), and PostgreSQL ends the frozen session within a lease."""
    if db.engine.dialect.name != "postgresql":
        pytest.skip("row locks are PostgreSQL's (SQLite writers take turns on the whole file)")
    log = TableLog(db)
    try:
        await log.create("frozen", OPTIONS, fence=1)
        await log.create("free", OPTIONS, fence=1)
        async with db.engine.connect() as writer:
            timeout = (await writer.execute(text("SHOW idle_in_transaction_session_timeout"))).scalar_one()
            assert timeout == f"{IDLE_IN_TRANSACTION_MS // 1000}s"
            await writer.execute(select(LiveTable.id).where(LiveTable.id == "frozen").with_for_update())
            taken = await log.take_many(["frozen", "free"])
            assert [(table.id, table.fence) for table in taken] == [("free", 2)]
            await writer.rollback()  # the old owner thawed (or its session was ended)
        [again] = await log.take_many(["frozen"])
        assert (again.id, again.fence) == ("frozen", 2)
    finally:
        await log.close()


async def test_the_seated_accounts_of_restored_tables_are_read_in_one_query(db: Database) -> None:
    accounts = Accounts(db)
    try:
        ids = [(await accounts.create_guest())[1].id for _ in range(6)]
        statements = counting(db)
        found = await accounts.get_many([*ids, 10_000])
        assert sorted(found) == sorted(ids) and len(statements) == 1, statements
    finally:
        accounts.close()


async def test_a_new_table_gets_the_smallest_number_no_open_table_holds(db: Database) -> None:
    """第 N 桌: 1, 2, 3 …; a closed table's number is free again; two tables opening at once get two."""
    log = TableLog(db)
    try:
        assert [await log.create(name, OPTIONS) for name in ("t1", "t2", "t3")] == [1, 2, 3]
        await log.append(LogWrite("t2", 1, [TableClosed("empty")]))
        assert await log.create("t4", OPTIONS) == 2
        assert sorted(await asyncio.gather(log.create("t5", OPTIONS), log.create("t6", OPTIONS))) == [4, 5]
        numbers = {table.id: table.number for table in await log.open_tables()}
        assert numbers == {"t1": 1, "t3": 3, "t4": 2, "t5": 4, "t6": 5}
    finally:
        await log.close()


async def test_the_next_write_after_the_database_closed_the_writers_connection_succeeds(db: Database) -> None:
    """A database restart closes the connection the log's writer keeps between batches; the next
    batch, however long after, opens a new one instead of failing on it (issue 48)."""
    if db.engine.dialect.name != "postgresql":
        pytest.skip("an SQLite file has no server to close the connection")
    log = TableLog(db)
    try:
        await log.create("t1", OPTIONS)
        await log.append(LogWrite("t1", 1, [act(1)]))
        others = text("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        async with db.engine.connect() as admin:
            killed = list((await admin.execute(others)).scalars())
            terminate = text("SELECT pg_terminate_backend(pid) FROM unnest(CAST(:pids AS integer[])) AS pid")
            await admin.execute(terminate, {"pids": killed})
            async with asyncio.timeout(30):  # until the server ended them (as a restart does)
                while set((await admin.execute(others)).scalars()) & set(killed):
                    await admin.rollback()
            await admin.rollback()
        assert killed
        await log.append(LogWrite("t1", 2, [act(2)]))
        opened = await log.load("t1")
        assert opened is not None and opened.entries == [act(1), act(2)]
    finally:
        await log.close()


async def test_a_small_batch_written_on_the_loop_waits_for_nobody_and_is_not_lost_when_the_file_is_locked(
    tmp_path: Path,
) -> None:
    """The loop's connection never waits for another's write lock: a small batch that finds the file
    locked goes to the thread, which waits, while the loop goes on; then every row is there."""
    database = await open_database(sqlite_url(tmp_path / "locked.sqlite3"))
    log = TableLog(database)
    try:
        await log.create("t1", OPTIONS)
        await log.append(LogWrite("t1", 1, [act(1)]))
        rows = log._rows
        assert rows is not None and (rows.on_loop, rows.in_thread) == (1, 0)
        other = sqlite3.connect(tmp_path / "locked.sqlite3", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        appended = asyncio.ensure_future(log.append(LogWrite("t1", 2, [act(2)])))
        turns = 0
        while rows.in_thread + rows.on_loop == 1 and turns < 50:  # the loop turns while the write waits
            await asyncio.sleep(0.01)
            turns += 1
        assert not appended.done() and turns == 50
        other.execute("COMMIT")
        other.close()
        await appended
        assert (rows.on_loop, rows.in_thread) == (1, 1)
        opened = await log.load("t1")
        assert opened is not None and opened.entries == [act(1), act(2)]
    finally:
        await log.close()
        await database.close()


async def test_the_thread_checkpoints_what_the_loop_commits(tmp_path: Path) -> None:
    """The loop's connection never checkpoints; after ``checkpoint_every`` of its commits the thread
    copies the write-ahead log into the database file, so the log does not grow without bound."""
    path = tmp_path / "wal.sqlite3"
    database = await open_database(sqlite_url(path))
    log = TableLog(database)
    await log.create("t1", OPTIONS)
    await log.close()
    await database.close()
    rows = SqliteRows(path, checkpoint_every=10)
    try:
        for seq in range(1, 10):
            await rows.write(plan_rows([RowsWrite("t1", seq, [act(seq)])]))
        assert not _in_file(path, act(9))
        await rows.write(plan_rows([RowsWrite("t1", 10, [act(10)])]))
        checkpoint = rows._checkpoint
        assert checkpoint is not None
        await checkpoint
        assert _in_file(path, act(9)) and _in_file(path, act(10))
        assert (rows.on_loop, rows.in_thread) == (10, 0)
    finally:
        await rows.close()


def _in_file(path: Path, entry: Acted) -> bool:
    """Whether ``entry``'s log row is in the database file itself (not only in its write-ahead log)."""
    return dumps(entry_to_json(entry)).encode() in path.read_bytes()


class _Heard(logging.Handler):
    """Sets ``event`` at the first record whose message is ``message`` (the fields of each kept in ``records``)."""

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message
        self.records: list[dict[str, Any]] = []
        self.event = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage() == self.message:
            self.records.append(vars(record))
            self.event.set()


async def test_a_log_write_kept_waiting_names_the_write_that_holds_the_turn(tmp_path: Path) -> None:
    """On SQLite the process's writes take turns: when the log's write waits a second, its warning
    says which write holds the turn, for how long and how many wait; the holder is named again when
    it lets go after holding the turn long."""
    database = await open_database(sqlite_url(tmp_path / "turn.sqlite3"))
    log = TableLog(database)
    waited = _Heard("table log: a write has waited long for the database")
    held = _Heard("database: a write held the write turn long")
    for name, handler in (("tuolaji.store.tablelog", waited), ("tuolaji.store.db", held)):
        logging.getLogger(name).addHandler(handler)
    try:
        await log.create("t1", OPTIONS)
        assert database.write_turn() == {"held_by": None, "waiting": 0}
        async with database.writing("a hand recorded"):
            appended = asyncio.ensure_future(log.append(LogWrite("t1", 1, [act(1)])))
            await waited.event.wait()
            assert not appended.done() and not held.records
        (warning,) = waited.records
        assert (warning["steps"], warning["held_by"], warning["waiting"]) == (1, "a hand recorded", 1)
        assert warning["held_seconds"] >= 1.0
        await appended
        (long_turn,) = held.records
        assert (long_turn["purpose"], long_turn["waiting"]) == ("a hand recorded", 1)
        assert long_turn["seconds"] >= warning["held_seconds"]
        assert database.write_turn() == {"held_by": None, "waiting": 0}
        opened = await log.load("t1")
        assert opened is not None and opened.entries == [act(1)]
    finally:
        for name, handler in (("tuolaji.store.tablelog", waited), ("tuolaji.store.db", held)):
            logging.getLogger(name).removeHandler(handler)
        await log.close()
        await database.close()


async def test_a_settlement_is_written_on_the_loop_or_from_the_thread_when_the_file_is_locked(tmp_path: Path) -> None:
    """On SQLite a batch that settles hands is one transaction written at once on the loop (no hop
    between its statements); one that finds the file locked by another connection goes to the
    thread, which waits for the lock while the loop turns; every settlement and row is there."""
    database = await open_database(sqlite_url(tmp_path / "settle.sqlite3"))
    log = TableLog(database)
    try:
        for table_id in ("h1", "h2"):
            await log.create(table_id, OPTIONS)
        first = await log.append(LogWrite("h1", 1, [Settling()], hand=bots_hand("h1")))
        rows = log._rows
        assert rows is not None and (rows.on_loop, rows.in_thread) == (1, 0)
        other = sqlite3.connect(tmp_path / "settle.sqlite3", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        settling = asyncio.ensure_future(log.append(LogWrite("h2", 1, [Settling()], hand=bots_hand("h2"))))
        turns = 0
        while not settling.done() and turns < 50:  # the loop turns while the settlement waits
            await asyncio.sleep(0.01)
            turns += 1
        assert turns == 50 and rows.in_thread == 0
        other.execute("COMMIT")
        other.close()
        second = await settling
        assert (rows.on_loop, rows.in_thread) == (1, 1)
        assert first is not None and second is not None and first.hand_id != second.hand_id
        for table_id, settled in (("h1", first), ("h2", second)):
            record = await get_hand(database, settled.hand_id)
            assert record is not None and record["table_id"] == table_id
            assert (await log.load(table_id)).entries == [Settling()]  # type: ignore[union-attr]
    finally:
        await log.close()
        await database.close()
