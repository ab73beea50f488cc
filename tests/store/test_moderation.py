"""Moderation in the store (issue 43): roles from the command line, bans and mutes in force or not,
players' reports and whom an account reported lately, balance corrections through the ledger, and
an audit the database keeps append-only. On SQLite, and on PostgreSQL with ``TUOLAJI_TEST_POSTGRES``.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from tests.store.test_store import _hand
from tuolaji.game.view import RoundResult
from tuolaji.room.effects import HandSeat
from tuolaji.store.accounts import Accounts
from tuolaji.store.audit import Actor, entries, record
from tuolaji.store.db import Database
from tuolaji.store.ledger import LedgerError, audit, correct, lines_of
from tuolaji.store.records import record_hand
from tuolaji.store.reports import REPORTS_PER_HOUR, ReportError, close, file, listed, reports_by
from tuolaji.store.roles import RoleError, grant, revoke, role_of
from tuolaji.store.sanctions import impose, lift, standing

MOD = Actor(None, "mod", "moderator")
NUMBERS = itertools.count(1)


async def test_roles_are_given_and_taken_by_name_and_audited(db: Database) -> None:
    accounts = Accounts(db)
    _, alice = await accounts.register("Alice", "tractor-77")
    _, guest = await accounts.create_guest()
    assert await role_of(db, alice.id) is None
    assert await grant(db, "ALICE", "moderator") == (alice.id, None)  # the nickname as a log-in reads it
    assert await grant(db, "alice", "admin") == (alice.id, "moderator")
    assert await role_of(db, alice.id) == "admin"
    with pytest.raises(RoleError, match="guest"):
        await grant(db, guest.nickname, "moderator")
    with pytest.raises(RoleError, match="no account"):
        await grant(db, "nobody", "moderator")
    with pytest.raises(RoleError, match="role must be one of"):
        await grant(db, "alice", "owner")
    assert await revoke(db, "alice") == (alice.id, "admin")
    assert await role_of(db, alice.id) is None
    logged = await entries(db, account_id=alice.id)
    assert [(entry["action"], entry["actor"], entry["actor_id"]) for entry in logged] == [
        ("revoke", "operator", None),
        ("grant", "operator", None),
        ("grant", "operator", None),
    ]


async def test_a_ban_is_in_force_until_it_ends_or_is_lifted(db: Database) -> None:
    _, bob = await Accounts(db).register("Bob", "tractor-77")
    now = datetime.now(UTC)
    ban = await impose(db, MOD, bob.id, "ban", "cheating", "two accounts at one table", 60, now)
    assert ban.until is not None and abs((ban.until - now) - timedelta(minutes=60)) < timedelta(seconds=1)
    held = await standing(db, bob.id, now + timedelta(minutes=59))
    assert held.ban is not None and held.ban.id == ban.id and held.mute is None
    assert (await standing(db, bob.id, now + timedelta(minutes=61))).ban is None  # it ran out
    forever = await impose(db, MOD, bob.id, "ban", "bot", None, None, now)  # replaces the first
    later = await standing(db, bob.id, now + timedelta(days=3650))
    assert later.ban is not None and later.ban.id == forever.id and later.ban.until is None
    assert await lift(db, MOD, bob.id, "ban", "appeal granted", now + timedelta(days=1)) == 1
    assert (await standing(db, bob.id, now + timedelta(days=2))).ban is None
    assert await lift(db, MOD, bob.id, "ban", None) == 0  # nothing in force: nothing to lift or audit
    mute = await impose(db, MOD, bob.id, "mute", "abuse", None, 5, now)
    assert (await standing(db, bob.id, now)).mute == mute
    actions = [entry["action"] for entry in await entries(db, account_id=bob.id)]
    assert actions == ["mute", "unban", "ban", "ban"]


async def _hand_of(db: Database, people: list[int]) -> int:
    seats = [HandSeat(seat, account, f"p{seat}") for seat, account in enumerate(people)]
    seats += [HandSeat(seat, bot="heuristic") for seat in range(len(people), 4)]
    won = RoundResult(kind="played", dealer=0, winner="defenders", winning_team=0, levels=1, score=60)
    return (await record_hand(db, _hand(won, seats, number=next(NUMBERS)))).hand_id


async def test_reports_name_a_hand_played_together_once_and_a_few_an_hour(db: Database) -> None:
    accounts = Accounts(db)
    a, b, c = [(await accounts.create_guest())[1].id for _ in range(3)]
    hand = await _hand_of(db, [a, b])
    report = await file(db, a, hand, b, "cheating", "signals")
    assert (report["reporter"]["id"], report["reported"]["id"], report["outcome"]) == (a, b, None)
    for reporter, reported, code in [
        (a, a, "bad_report"),
        (a, c, "not_in_hand"),
        (c, a, "not_in_hand"),
        (a, b, "already_reported"),
    ]:
        with pytest.raises(ReportError) as refused:
            await file(db, reporter, hand, reported, "other", None)
        assert refused.value.code == code
    with pytest.raises(ReportError) as missing:
        await file(db, a, 99_999, b, "other", None)
    assert missing.value.status == 404
    assert await reports_by(db, [a, b], datetime.now(UTC) - timedelta(days=1)) == {(a, b)}
    assert await reports_by(db, [a], datetime.now(UTC) + timedelta(minutes=1)) == set()
    assert await reports_by(db, [b], datetime.now(UTC) - timedelta(days=1)) == set()
    assert await reports_by(db, [], datetime.now(UTC) - timedelta(days=1)) == set()
    for _ in range(REPORTS_PER_HOUR):
        await file(db, b, await _hand_of(db, [a, b]), a, "stalling", None)
    with pytest.raises(ReportError) as limited:
        await file(db, b, await _hand_of(db, [a, b]), a, "stalling", None)
    assert limited.value.code == "rate_limited" and limited.value.retry is not None and 0 < limited.value.retry <= 3600
    opened = await listed(db)
    assert len(opened) == REPORTS_PER_HOUR + 1 and opened[-1]["id"] == report["id"]
    assert opened[-1]["reported"]["nickname"] is not None
    closed = await close(db, MOD, report["id"], "no_action", "nothing odd in the replay")
    assert closed["outcome"] == "no_action"
    with pytest.raises(ReportError) as again:
        await close(db, MOD, report["id"], "action_taken", None)
    assert again.value.code == "report_closed"
    assert report["id"] not in [item["id"] for item in await listed(db)]
    assert [item["id"] for item in await listed(db, open_only=False, against=b)] == [report["id"]]


async def test_a_correction_is_a_ledger_line_and_an_audit_entry(db: Database) -> None:
    _, carol = await Accounts(db).register("Carol", "tractor-77")
    admin = Actor(None, "root", "admin")
    with pytest.raises(LedgerError, match="reason"):
        await correct(db, carol.id, 0, 50, "  ", 0, actor=admin)
    with pytest.raises(LedgerError, match="R39"):
        await correct(db, carol.id, 0, -5000, "too much", 0, actor=admin)
    line = await correct(db, carol.id, 10, 50, "lost in a crash", carol.id, actor=admin)
    assert (line.points_after, line.silver_after) == (10, 1050)
    [newest, *_] = await lines_of(db, carol.id)
    assert (newest["cause"], newest["reason"]) == ("correction", "lost in a crash")
    [entry] = await entries(db, account_id=carol.id)
    assert (entry["action"], entry["actor"], entry["note"]) == ("correct", "root", "lost in a crash")
    assert entry["details"]["silver"] == 50 and entry["details"]["role"] == "admin"
    assert (await audit(db)).sound


async def test_the_database_refuses_to_edit_or_delete_the_audit(db: Database) -> None:
    await record(db, MOD, "notice", target="all", details={"kind": "maintenance"})
    for statement in ("UPDATE audit SET actor = 'someone else'", "DELETE FROM audit"):
        with pytest.raises(DBAPIError, match="append-only"):
            async with db.sessions.begin() as session:
                await session.execute(text(statement))
    [entry] = await entries(db)
    assert entry["actor"] == "mod"
