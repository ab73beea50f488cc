"""Data for leaderboard and profile tests, written into a real database before a server opens it:
accounts with chosen balances and session tokens, and real hands (played out by random-legal players, so their
records replay) settled through the store as a table would."""

from __future__ import annotations

import random
import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import update

from tuolaji.game.actions import action_to_json
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Round, RoundSetup
from tuolaji.game.simulate import play_random_round
from tuolaji.room.effects import HandSeat
from tuolaji.store.accounts import session_id
from tuolaji.store.db import Database, open_database, sqlite_url
from tuolaji.store.models import Account, SessionToken
from tuolaji.store.nicknames import skeleton
from tuolaji.store.records import HandWrite, Settled, record_hand


def played_round(seed: int) -> Round:
    """A whole hand (not a redeal) between random-legal players, dealer seat 0."""
    for attempt in range(seed, seed + 100):
        round_ = Round(RoundSetup(seed=attempt, options=TableOptions(deal_interval_ms=0), dealer=0, level=1))
        play_random_round(round_, random.Random(attempt))
        if round_.result is not None and round_.result.kind != "redeal":
            return round_
    raise AssertionError("no hand was played out")


async def store_hand(db: Database, number: int, seats: list[HandSeat], seed: int = 1) -> Settled:
    """Play a hand and store it (with its settlement) as hand ``number`` of table ``tstand``."""
    round_ = played_round(seed)
    assert round_.result is not None
    return await record_hand(
        db,
        HandWrite(
            table_id="tstand",
            number=number,
            seed=round_.setup.seed,
            options=round_.setup.options.to_json(),
            setup=round_.setup.to_json(),
            actions=[action_to_json(action) for action in round_.actions],
            result=round_.result,
            seats=seats,
            started_at=datetime.now(UTC),
        ),
    )


GUEST_NAME = "guest-000001"


async def set_balances(db: Database, balances: dict[int, tuple[int, int]]) -> None:
    """Give accounts (by id) these balances: (points, silver)."""
    async with db.sessions.begin() as session:
        for account_id, (points, silver) in balances.items():
            await session.execute(update(Account).where(Account.id == account_id).values(points=points, silver=silver))


async def prepared(path: Path, balances: dict[str, tuple[int, int]]) -> dict[str, Any]:
    """A new SQLite file at ``path`` with a registered account per name of ``balances`` (points, silver),
    in that order, and one rich guest; each has a session token. Inserted directly (no password to
    hash): ``{"tokens": name → token, "ids": name → id, "guest": (token, id)}``."""
    db = await open_database(sqlite_url(path))
    try:
        people = [(name, False, points, silver) for name, (points, silver) in balances.items()]
        people.append((GUEST_NAME, True, 10**9, 10**9))  # a rich guest is never ranked
        tokens: dict[str, str] = {}
        ids: dict[str, int] = {}
        async with db.sessions.begin() as session:
            for name, is_guest, points, silver in people:
                row = Account(
                    nickname=name,
                    nickname_key=skeleton(name),
                    guest=is_guest,
                    points=points,
                    silver=silver,
                    hands_played=0,
                    hands_won=0,
                )
                session.add(row)
                await session.flush()
                tokens[name], ids[name] = secrets.token_urlsafe(32), row.id
                session.add(SessionToken(token_hash=session_id(tokens[name]), account_id=row.id))
    finally:
        await db.close()
    return {"tokens": tokens, "ids": ids, "guest": (tokens.pop(GUEST_NAME), ids.pop(GUEST_NAME))}
