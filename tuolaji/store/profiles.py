"""A player's profile: the account (titles and balances), its places on the leaderboards, its record
as the dealer's team and as the attackers, and its latest hands (each one a replay away)."""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import func, select

from tuolaji.store.accounts import AccountData
from tuolaji.store.db import Database
from tuolaji.store.leaderboard import BOARDS, place_of
from tuolaji.store.models import HandPlayer
from tuolaji.store.records import hands_of

RECENT_HANDS: Final = 10


async def sides(db: Database, account_id: int) -> dict[str, dict[str, int]]:
    """Hands played and won on each side: ``{"dealer": {"hands", "won"}, "attackers": {...}}``
    (counted from the index on (account_id, defending, won))."""
    query = (
        select(HandPlayer.defending, HandPlayer.won, func.count())
        .where(HandPlayer.account_id == account_id)
        .group_by(HandPlayer.defending, HandPlayer.won)
    )
    out = {"dealer": {"hands": 0, "won": 0}, "attackers": {"hands": 0, "won": 0}}
    async with db.sessions() as session:
        for defending, won, count in (await session.execute(query)).all():
            side = out["dealer" if defending else "attackers"]
            side["hands"] += int(count)
            side["won"] += int(count) if won else 0
    return out


async def profile(db: Database, account: AccountData) -> dict[str, Any]:
    """The protocol's ``Profile`` of ``account``."""
    return {
        "account": account.to_json(),
        "places": {board: await place_of(db, board, account) for board in BOARDS},
        "sides": await sides(db, account.id),
        "recent": await hands_of(db, account.id, RECENT_HANDS),
    }
