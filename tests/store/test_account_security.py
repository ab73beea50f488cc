"""Accounts against abuse (issue 15), on a real database: expiring sessions, logout, look-alike
nicknames, input that is not valid Unicode, bounded argon2, and the skeleton-key migration."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import pytest
from alembic import command
from argon2 import PasswordHasher
from sqlalchemy import text

from tuolaji.store.accounts import Accounts, BadCredentials, BadNickname, BadPassword, NicknameTaken
from tuolaji.store.db import Database, alembic_config, make_engine, migrate
from tuolaji.store.models import utcnow
from tuolaji.store.nicknames import skeleton
from tuolaji.store.passwords import HashingBusy, PasswordHashing


async def test_sessions_expire_after_session_days(db: Database) -> None:
    accounts = Accounts(db, session_days=30)
    token, alice = await accounts.register("Alice", "tractor-77")
    issued = utcnow()
    assert await accounts.by_token(token, issued + timedelta(days=29, hours=23)) == alice
    assert await accounts.by_token(token, issued + timedelta(days=30, minutes=1)) is None
    assert await accounts.purge_sessions(issued + timedelta(days=29)) == 0
    assert await accounts.purge_sessions(issued + timedelta(days=31)) == 1
    assert await accounts.by_token(token) is None  # purged: gone for good
    short = Accounts(db, session_days=0.5)
    second, _ = await short.login("alice", "tractor-77")
    assert await short.by_token(second, utcnow() + timedelta(hours=13)) is None
    assert await accounts.by_token(second) == alice  # the same row, judged by a longer policy


async def test_logout_revokes_the_token_and_names_its_account(db: Database) -> None:
    accounts = Accounts(db)
    token, alice = await accounts.register("Alice", "tractor-77")
    other, _ = await accounts.login("Alice", "tractor-77")
    assert await accounts.logout(token) == alice.id
    assert await accounts.by_token(token) is None
    assert await accounts.logout(token) is None
    assert await accounts.by_token(other) == alice


async def test_look_alike_nicknames_are_taken_and_guest_is_reserved(db: Database) -> None:
    accounts = Accounts(db)
    _, alice = await accounts.register("alice", "tractor-77")
    for look_alike in ("ALlCE", "ａｌｉｃｅ", "𝐚𝐥𝐢𝐜𝐞", "ɑlice", "ᴀlice"):
        with pytest.raises(NicknameTaken, match="looks the same"):
            await accounts.register(look_alike, "tractor-77")
    refused = ("ali\u034fce", "alice\ufe0f", "alice\u3164", "alice\u2800", "Ꭺlice", "աlice", "аlice")
    for name in refused:
        with pytest.raises(BadNickname) as why:
            await accounts.register(name, "tractor-77")
        assert why.value.reason in ("invisible", "scripts")
    for reserved in ("ｇｕｅｓｔ-abc", "ɡuest-abc", "guest\u3164-abc"):
        with pytest.raises(BadNickname) as why:
            await accounts.register(reserved, "tractor-77")
        assert why.value.reason in ("guest", "invisible")
    # A look-alike names the same account: it logs in with that account's password only.
    _, same = await accounts.login("АLICE", "tractor-77")
    assert same.id == alice.id
    with pytest.raises(BadCredentials):
        await accounts.login("аlice", "tractor-78")


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("123456", "common"),
        ("Password1", "common"),
        ("qwerty123", "common"),
        ("      ", "blank"),
        ("\x00" * 6, "control"),
        ("pass\x00word", "control"),
        ("aaaaaaaa", "weak"),
        ("abababab", "weak"),
        ("12345", "length"),
        ("x" * 129, "length"),
        ("Mallory-77", "nickname"),
    ],
)
async def test_weak_passwords_are_refused_naming_the_rule(db: Database, password: str, reason: str) -> None:
    accounts = Accounts(db)
    with pytest.raises(BadPassword) as refused:
        await accounts.register("Mallory-77", password)
    assert refused.value.reason == reason
    assert (await accounts.register("Mallory-77", "six spaces then some"))[1].nickname == "Mallory-77"


async def test_text_that_is_not_unicode_is_refused_not_crashed_on(db: Database) -> None:
    accounts = Accounts(db)
    await accounts.register("alice", "tractor-77")
    with pytest.raises(BadCredentials):
        await accounts.login("\ud800alice", "tractor-77")
    with pytest.raises(BadCredentials):
        await accounts.login("alice", "pass\udc00word")
    with pytest.raises(BadPassword, match="lone surrogates"):
        await accounts.register("bob", "pass\udc00word")
    assert await accounts.by_token("\ud800") is None


async def test_password_checks_beyond_threads_plus_queue_are_refused_at_once() -> None:
    """Real argon2 in one thread, no queue: of three checks at once, two are refused straight away."""
    hashing = PasswordHashing(threads=1, queue=0)
    try:
        stored = await hashing.hash("tractor-77")
        results = await asyncio.gather(
            *(hashing.verify(stored, "tractor-77") for _ in range(3)), return_exceptions=True
        )
        assert results[0] is True
        assert [type(result) for result in results[1:]] == [HashingBusy, HashingBusy]
        assert hashing.refused == 2 and hashing.admitted == 0
        assert await hashing.verify(stored, "tractor-78") is False
        assert await hashing.verify("not a hash", "tractor-77") is False
    finally:
        hashing.close()
    with pytest.raises(ValueError, match="threads"):
        PasswordHashing(threads=0)


async def test_migrations_0003_and_0005_rekey_nicknames_and_every_account_still_logs_in(url: str) -> None:
    """Accounts made before 0003: at 0003 the older of two look-alikes gets the skeleton key, the
    younger keeps its old key; 0005 recomputes the keys with the UTS #39 skeleton (``ɑnna`` with a
    Latin alpha becomes ``anna``'s), an account whose key is already right keeping it. Every account
    logs in by its own nickname at each step; the downgrade restores NFC lower-case keys."""
    engine = make_engine(url)
    password_hash = PasswordHasher().hash("tractor-77")
    nicknames = ("Alice", "аlice", "Tom", "torn", "南寧", "ɑnna")
    try:
        await migrate(engine, "0001")
        async with engine.begin() as connection:
            for nickname in nicknames:
                await connection.execute(
                    text(
                        "INSERT INTO accounts (nickname, nickname_key, password_hash, guest, points, silver,"
                        " hands_played, hands_won, created_at)"
                        " VALUES (:nickname, :key, :hash, false, 0, 1000, 0, 0, CURRENT_TIMESTAMP)"
                    ),
                    {"nickname": nickname, "key": nickname.lower(), "hash": password_hash},
                )
        keys_sql = text("SELECT nickname, nickname_key FROM accounts ORDER BY id")

        async def keys() -> dict[str, str]:
            async with engine.connect() as connection:
                return {row[0]: row[1] for row in (await connection.execute(keys_sql)).all()}

        accounts = Accounts(Database(engine))
        await migrate(engine, "0004_boards_and_sides")
        old = {"Alice": "allce", "аlice": "аlice", "Tom": "tom", "torn": "torn", "南寧": "南寧", "ɑnna": "ɑnna"}
        assert await keys() == old
        await migrate(engine)
        assert await keys() == {**old, "ɑnna": "anna"}
        for nickname in nicknames:
            assert (await accounts.login(nickname, "tractor-77"))[1].nickname == nickname
        for taken in ("ALICE", "anna", "T0rn"):
            with pytest.raises(NicknameTaken):
                await accounts.register(taken, "tractor-77")
        async with engine.begin() as connection:
            await connection.run_sync(lambda sync: command.downgrade(alembic_config(sync), "0001"))
        assert await keys() == {nickname: nickname.lower() for nickname in nicknames}
    finally:
        await engine.dispose()


async def test_migration_0005_marks_the_hands_of_private_tables_private(url: str) -> None:
    """Hands stored before 0005: private where their table's log says so, public where it says
    public, private where no log is left (nobody can tell); their players keep their rows."""
    engine = make_engine(url)
    try:
        await migrate(engine, "0004_boards_and_sides")
        logs = {
            "pub": [{"t": "round", "number": 1, "private": False}],
            "priv": [{"t": "private", "code": "c" * 16, "creator": 1}, {"t": "sit", "seat": 0}],
            "snap": [{"t": "round", "number": 3, "private": True}],
        }
        async with engine.begin() as connection:
            for number, table_id in enumerate(("pub", "priv", "snap", "gone"), start=1):
                await connection.execute(
                    text(
                        "INSERT INTO hands (id, table_id, number, seed, options, setup, actions, result, seats,"
                        " settlement, started_at, finished_at) VALUES (:id, :t, 1, '1', '{}', '{}', '[]', '{}',"
                        " '[]', '[]', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                    ),
                    {"id": number, "t": table_id},
                )
            for table_id, entries in logs.items():
                await connection.execute(
                    text(
                        "INSERT INTO live_tables (id, options, fence, open, created_at)"
                        " VALUES (:t, '{}', 0, false, CURRENT_TIMESTAMP)"
                    ),
                    {"t": table_id},
                )
                for seq, entry in enumerate(entries):
                    await connection.execute(
                        text("INSERT INTO table_log (table_id, seq, entry) VALUES (:t, :s, :e)"),
                        {"t": table_id, "s": seq, "e": json.dumps(entry)},
                    )
        await migrate(engine)
        async with engine.connect() as connection:
            rows = (await connection.execute(text("SELECT table_id, private FROM hands ORDER BY id"))).all()
        assert [(table_id, bool(private)) for table_id, private in rows] == [
            ("pub", False),
            ("priv", True),
            ("snap", True),
            ("gone", True),
        ]
    finally:
        await engine.dispose()


async def test_migration_0008_numbers_the_open_tables_and_renames_the_guests(url: str) -> None:
    """Open tables of before 0008 are numbered oldest first (第 1 桌, 第 2 桌); guests with the old
    random names become ``guest-`` and their id (``guest-0002``), keys recomputed, registered names
    untouched; a guest made afterwards is named the same way. The downgrade keeps the names."""
    engine = make_engine(url)
    try:
        await migrate(engine, "0005_skeletons_and_private_hands")
        async with engine.begin() as connection:
            for name, guest in (("guest-a1b2c3", True), ("Alice", False), ("guest-000004", True)):
                await connection.execute(
                    text(
                        "INSERT INTO accounts (nickname, nickname_key, password_hash, guest, points, silver,"
                        " hands_played, hands_won, created_at)"
                        " VALUES (:name, :name, NULL, :guest, 0, 1000, 0, 0, CURRENT_TIMESTAMP)"
                    ),
                    {"name": name, "guest": guest},
                )
            for table_id, created in (
                ("young", datetime(2026, 12, 2, tzinfo=UTC)),
                ("old", datetime(2026, 12, 1, tzinfo=UTC)),
            ):
                await connection.execute(
                    text(
                        "INSERT INTO live_tables (id, options, fence, open, created_at) VALUES (:t, '{}', 0, true, :c)"
                    ),
                    {"t": table_id, "c": created},
                )
        await migrate(engine)
        async with engine.connect() as connection:
            names = (await connection.execute(text("SELECT nickname, nickname_key FROM accounts ORDER BY id"))).all()
            tables = (await connection.execute(text("SELECT id, number FROM live_tables ORDER BY id"))).all()
        assert [tuple(row) for row in names] == [
            ("guest-0001", skeleton("guest-0001")),
            ("Alice", "Alice"),
            ("guest-0003", skeleton("guest-0003")),
        ]
        assert [tuple(row) for row in tables] == [("old", 1), ("young", 2)]
        _, made = await Accounts(Database(engine)).create_guest()
        assert made.nickname == f"guest-{made.id:04d}" == "guest-0004"
        async with engine.begin() as connection:
            await connection.run_sync(
                lambda sync: command.downgrade(alembic_config(sync), "0005_skeletons_and_private_hands")
            )
        async with engine.connect() as connection:
            kept = (await connection.execute(text("SELECT nickname FROM accounts ORDER BY id"))).scalars().all()
        assert kept == ["guest-0001", "Alice", "guest-0003", "guest-0004"]
    finally:
        await engine.dispose()
