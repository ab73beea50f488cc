"""Bans and mutes (``tuolaji.wire.moderation.SANCTIONS``): imposed by a moderator for a time or for
good, lifted early or run out; each one a row of ``sanctions``, each change in the audit in the same
transaction.

An account's :class:`Standing` (its ban and mute in force, if any) is what sign-in, ``hello``, a
bearer token, guest creation and quick phrases are checked against.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from tuolaji.store.audit import Actor, note_action
from tuolaji.store.db import Database
from tuolaji.store.models import Sanction, utcnow


def aware(moment: datetime) -> datetime:
    """``moment`` with its zone (SQLite keeps none; every column is UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class SanctionData:
    """A ban or mute as read: why, by whom, from when until when (``until`` None: for good)."""

    id: int
    account_id: int
    kind: str
    reason: str
    note: str | None
    actor_id: int | None
    at: datetime
    until: datetime | None
    lifted_at: datetime | None

    @classmethod
    def of(cls, row: Sanction) -> SanctionData:
        until = aware(row.until) if row.until is not None else None
        lifted = aware(row.lifted_at) if row.lifted_at is not None else None
        return cls(row.id, row.account_id, row.kind, row.reason, row.note, row.actor_id, aware(row.at), until, lifted)

    @property
    def until_ms(self) -> int | None:
        """When it ends, in epoch milliseconds (None: for good)."""
        return None if self.until is None else int(self.until.timestamp() * 1000)

    def to_json(self) -> dict[str, Any]:
        """The protocol's ``Sanction`` object (docs/PROTOCOL.md §4)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "reason": self.reason,
            "note": self.note,
            "actor_id": self.actor_id,
            "at": self.at.isoformat(),
            "until": None if self.until is None else self.until.isoformat(),
            "lifted_at": None if self.lifted_at is None else self.lifted_at.isoformat(),
        }


@dataclass(frozen=True)
class Standing:
    """An account's sanctions in force: its ban and its mute, if any."""

    ban: SanctionData | None = None
    mute: SanctionData | None = None


def _in_force(now: datetime) -> Any:
    return (Sanction.lifted_at.is_(None)) & or_(Sanction.until.is_(None), Sanction.until > now)


async def standing(db: Database, account_id: int, now: datetime | None = None) -> Standing:
    """The ban and the mute in force on ``account_id`` at ``now`` (one query)."""
    query = (
        select(Sanction)
        .where(Sanction.account_id == account_id, _in_force(now or utcnow()))
        .order_by(Sanction.id.desc())
    )
    async with db.sessions() as session:
        rows = [SanctionData.of(row) for row in (await session.execute(query)).scalars()]
    found = {kind: next((row for row in rows if row.kind == kind), None) for kind in ("ban", "mute")}
    return Standing(found["ban"], found["mute"])


async def impose(
    db: Database,
    actor: Actor,
    account_id: int,
    kind: str,
    reason: str,
    note: str | None,
    minutes: int | None,
    now: datetime | None = None,
) -> SanctionData:
    """Ban or mute ``account_id`` for ``minutes`` (None: for good); one in force of that kind is
    replaced (ended now). Audited as ``ban`` or ``mute``."""
    moment = now or utcnow()
    until = None if minutes is None else moment + timedelta(minutes=minutes)
    async with db.writing("a sanction imposed"), db.sessions.begin() as session:
        await _end(session, account_id, kind, moment, actor.id)
        row = Sanction(
            account_id=account_id, kind=kind, reason=reason, note=note, actor_id=actor.id, at=moment, until=until
        )
        session.add(row)
        await session.flush()
        details = {"minutes": minutes, "until": None if until is None else until.isoformat()}
        note_action(session, actor, kind, account_id=account_id, reason=reason, note=note, details=details)
        return SanctionData.of(row)


async def lift(
    db: Database, actor: Actor, account_id: int, kind: str, note: str | None, now: datetime | None = None
) -> int:
    """End the ``kind`` in force on ``account_id`` now; how many were (0: there was none, and
    nothing is audited). Audited as ``unban`` or ``unmute``."""
    moment = now or utcnow()
    async with db.writing("a sanction lifted"), db.sessions.begin() as session:
        ended = await _end(session, account_id, kind, moment, actor.id)
        if ended:
            note_action(session, actor, f"un{kind}", account_id=account_id, note=note)
    return ended


async def _end(session: AsyncSession, account_id: int, kind: str, now: datetime, actor_id: int | None) -> int:
    result = await session.execute(
        update(Sanction)
        .where(Sanction.account_id == account_id, Sanction.kind == kind, _in_force(now))
        .values(lifted_at=now, lifted_by=actor_id)
    )
    return int(getattr(result, "rowcount", 0) or 0)


async def history(db: Database, account_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """The account's bans and mutes, newest first, in force or not."""
    query = select(Sanction).where(Sanction.account_id == account_id).order_by(Sanction.id.desc()).limit(limit)
    async with db.sessions() as session:
        return [SanctionData.of(row).to_json() for row in (await session.execute(query)).scalars()]
