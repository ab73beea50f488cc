"""The economy ledger on a real database (docs/RULES-NOTES.md, Economy; R39–R43): every balance
change is a line with its cause, the audit proves balances equal their ledgers, a correction needs a
reason, and migration 0006 opens a ledger for accounts that played before it."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, event, select, text, update

from tuolaji.game.settlement import Change
from tuolaji.game.view import RoundResult
from tuolaji.room.effects import HandSeat
from tuolaji.store.accounts import AccountData, Accounts
from tuolaji.store.db import Database, alembic_config, open_database, sqlite_url
from tuolaji.store.ledger import LedgerError, audit, correct, lines_of
from tuolaji.store.models import Account, HandPlayer, LedgerLine
from tuolaji.store.records import HandWrite, record_hand

WON = RoundResult(kind="played", dealer=0, winner="defenders", winning_team=0, levels=2, score=60)
RANKED: dict[str, object] = {"preset": "nanning"}
FAST: dict[str, object] = {"preset": "nanning", "review_seconds": 0}


def _hand(result: RoundResult, seats: list[HandSeat], number: int, options: dict[str, object]) -> HandWrite:
    return HandWrite(
        table_id="t1",
        number=number,
        seed=7,
        options=options,
        setup={"seed": 7, "dealer": 0, "level": "3", "first_hand": False, "autoplay": [], "timeouts": []},
        actions=[{"type": "deal", "count": 216}],
        result=result,
        seats=seats,
        started_at=datetime.now(UTC),
    )


async def _people(db: Database, names: tuple[str, ...]) -> list[HandSeat]:
    accounts = Accounts(db, start_silver=1000)
    ids = [(await accounts.register(name, "tractor-77"))[1].id for name in names]
    return [HandSeat(seat, account_id, names[seat]) for seat, account_id in enumerate(ids)]


async def test_every_change_is_a_line_and_the_audit_is_sound(db: Database) -> None:
    seats = await _people(db, ("南", "東", "北", "西"))
    settled = await record_hand(db, _hand(WON, seats, 1, RANKED))
    await record_hand(db, _hand(RoundResult(kind="escape", dealer=0, escaped=1), seats, 2, RANKED))
    lines = await lines_of(db, seats[0].account_id or 0)
    assert [line["cause"] for line in lines] == ["escape", "hand", "start_grant"]
    assert lines[-1]["silver_delta"] == 1000 and lines[-1]["hand_id"] is None
    assert lines[1]["hand_id"] == settled.hand_id
    assert lines[0]["silver_after"] == settled.lines[0]["silver"] + lines[0]["silver_delta"]
    found = await audit(db)
    assert found.sound and found.accounts == 4 and found.lines == 4 + 4 + 3
    assert found.by_cause["start_grant"] == (0, 4000)
    # Silver moved between people only (R40, R43): what the hands added up to is at most 0.
    assert found.by_cause["hand"][1] <= 0 and found.by_cause["escape"][1] <= 0


async def test_a_settlement_is_a_few_statements_and_says_the_balances_it_wrote(db: Database) -> None:
    seats = await _people(db, ("南", "東", "北", "西"))
    statements: list[str] = []
    event.listen(db.engine.sync_engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    settled = await record_hand(db, _hand(WON, seats, 1, RANKED))
    # The accounts locked and read, the record, their balances, the players' rows, the ledger's lines.
    assert [statement.split()[0] for statement in statements if statement.split()[0] != "BEGIN"] == [
        "SELECT",
        "INSERT",
        "UPDATE",
        "INSERT",
        "INSERT",
    ], statements
    async with db.sessions() as session:
        rows = {row.id: AccountData.of(row) for row in (await session.execute(select(Account))).scalars()}
        players = (await session.execute(select(HandPlayer).order_by(HandPlayer.seat))).scalars().all()
    assert settled.accounts == {seat.seat: rows[seat.account_id or 0] for seat in seats}
    assert all(account.hands_played == 1 for account in settled.accounts.values())
    assert [account.hands_won for account in settled.accounts.values()] == [1, 0, 1, 0]  # R36: the defenders won
    assert [(player.points_delta, player.silver_delta) for player in players] == [
        (line["points_delta"], line["silver_delta"]) for line in settled.lines
    ]
    assert settled.changes == tuple(Change(player.points_delta, player.silver_delta) for player in players)
    assert (await audit(db)).sound


async def test_the_audit_finds_a_balance_changed_behind_the_ledger(db: Database) -> None:
    seats = await _people(db, ("甲", "乙", "丙", "丁"))
    victim = seats[2].account_id
    async with db.sessions.begin() as session:
        await session.execute(update(Account).where(Account.id == victim).values(silver=Account.silver + 5))
    found = await audit(db)
    assert not found.sound
    assert [(bad.account_id, bad.silver, bad.ledger_silver) for bad in found.mismatches] == [(victim, 1005, 1000)]


async def test_a_correction_needs_a_reason_and_an_amount_and_keeps_balances_at_or_above_zero(db: Database) -> None:
    seats = await _people(db, ("子", "丑", "寅", "卯"))
    account, admin = seats[0].account_id or 0, seats[1].account_id or 0
    for reason in (None, "", "   ", 5, "x" * 501):
        with pytest.raises(LedgerError, match="reason"):
            await correct(db, account, 0, 10, reason, admin)
    with pytest.raises(LedgerError, match="must change"):
        await correct(db, account, 0, 0, "nothing", admin)
    with pytest.raises(LedgerError, match="below 0"):
        await correct(db, account, 0, -1001, "too much", admin)
    with pytest.raises(LedgerError, match="no account"):
        await correct(db, 987654, 0, 1, "who", admin)
    line = await correct(db, account, 3, -200, "  refund of a fault's double settlement  ", admin)
    assert (line.cause, line.points_after, line.silver_after, line.actor_id) == ("correction", 3, 800, admin)
    assert line.reason == "refund of a fault's double settlement"
    assert (await audit(db)).sound


async def test_points_move_by_r40_only_in_a_ranked_hand(db: Database) -> None:
    """RULES-NOTES, Economy: four registered people at the standard pace, played to the last card, is
    the one 積分 faucet; a guest, a bot or a faster table makes 積分 a transfer (here: nothing, as
    the losers hold none)."""
    seats = await _people(db, ("天", "地", "玄", "黃"))
    ranked = await record_hand(db, _hand(WON, seats, 1, RANKED))
    assert [line["points_delta"] for line in ranked.lines] == [2, 0, 2, 0]
    assert all(line["ranked"] for line in ranked.lines)
    fast = await record_hand(db, _hand(WON, seats, 2, FAST))
    assert [line["points_delta"] for line in fast.lines] == [0, 0, 0, 0] and not fast.lines[0]["ranked"]
    with_bot = [*seats[:3], HandSeat(3, bot="heuristic")]
    unranked = await record_hand(db, _hand(WON, with_bot, 3, RANKED))
    assert [line["points_delta"] for line in unranked.lines] == [0, 0, 0, 0]
    laogai = RoundResult(kind="laogai", dealer=0, winner="defenders", winning_team=0, levels=3, laogai_team=1)
    assert [line["points_delta"] for line in (await record_hand(db, _hand(laogai, seats, 4, RANKED))).lines] == [
        0,
        0,
        0,
        0,
    ]
    assert (await audit(db)).sound


def test_migration_0006_opens_a_ledger_for_accounts_that_played_before_it(tmp_path: Path) -> None:
    """An account of revision 0005 with stored hands gets an ``opening`` line plus one line per hand,
    and its balance equals its ledger; run through the ``tuolaji admin audit`` command."""
    url = sqlite_url(tmp_path / "old.sqlite3")
    sync_url = url.replace("+aiosqlite", "")
    sync = create_engine(sync_url)
    with sync.begin() as connection:
        command.upgrade(alembic_config(connection), "0005_skeletons_and_private_hands")
        connection.execute(
            text(
                "INSERT INTO accounts (id, nickname, nickname_key, guest, points, silver, hands_played, hands_won, "
                "created_at) VALUES (1, 'a', 'a', 0, 30, 970, 2, 1, '2026-01-01'), "
                "(2, 'b', 'b', 0, 0, 1000, 0, 0, '2026-01-01')"
            )
        )
        for hand_id, kind in ((10, "played"), (11, "escape")):
            connection.execute(
                text(
                    "INSERT INTO hands (id, table_id, number, seed, options, setup, actions, result, seats, "
                    "settlement, started_at, finished_at, private) VALUES (:id, 't', :id, '1', '{}', '{}', '[]', "
                    ":result, '[]', '[]', '2026-01-02', '2026-01-02', 0)"
                ),
                {"id": hand_id, "result": f'{{"kind": "{kind}"}}'},
            )
        connection.execute(
            text(
                "INSERT INTO hand_players (hand_id, seat, account_id, points_delta, silver_delta, won, defending) "
                "VALUES (10, 0, 1, 40, 50, 1, 0), (11, 0, 1, -10, -80, 0, 0)"
            )
        )
    sync.dispose()
    done = subprocess.run(
        [sys.executable, "-m", "tuolaji.cli", "admin", "audit", "--db", url],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "accounts 2, ledger lines 4" in done.stdout and "sound" in done.stdout
    sync = create_engine(sync_url)
    with sync.connect() as connection:
        rows = connection.execute(
            select(LedgerLine.cause, LedgerLine.points_delta, LedgerLine.silver_delta, LedgerLine.hand_id)
            .where(LedgerLine.account_id == 1)
            .order_by(LedgerLine.id)
        ).all()
    sync.dispose()
    assert [tuple(row) for row in rows] == [("opening", 0, 1000, None), ("hand", 40, 50, 10), ("escape", -10, -80, 11)]


async def test_the_audit_command_fails_on_a_mismatch(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "bad.sqlite3")
    db = await open_database(url)
    try:
        await _people(db, ("w", "x", "y", "z"))
        async with db.sessions.begin() as session:
            await session.execute(update(Account).values(points=Account.points + 1))
    finally:
        await db.close()
    done = subprocess.run(
        [sys.executable, "-m", "tuolaji.cli", "admin", "audit", "--db", url],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1 and done.stdout.count("MISMATCH") == 4
