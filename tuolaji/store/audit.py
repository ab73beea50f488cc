"""The audit: every action of a moderator or an admin (and of ``tuolaji admin``), appended in the
transaction of the change it records where there is one, never updated or deleted (the database's
triggers refuse it, migration 0007).

:class:`Actor` is who acts; :func:`note_action` appends within a session, :func:`record` in a
transaction of its own (an action whose effect is not in the database: closing a table, a notice,
a drain); :func:`entries` reads them back, newest first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tuolaji.store.db import Database
from tuolaji.store.models import AuditEntry

OPERATOR: Final = "operator"
"""The actor's name for ``tuolaji admin`` (run on the database, no account)."""


@dataclass(frozen=True)
class Actor:
    """Who acts: an account with its nickname and role, or the operator's command line (``id`` None)."""

    id: int | None
    name: str
    role: str


CLI: Final = Actor(None, OPERATOR, OPERATOR)


def note_action(
    session: AsyncSession,
    actor: Actor,
    action: str,
    *,
    account_id: int | None = None,
    target: str | None = None,
    reason: str | None = None,
    note: str | None = None,
    details: dict[str, Any] | None = None,
) -> None:
    """Append what ``actor`` did in ``session``'s transaction (it commits with the change itself)."""
    session.add(
        AuditEntry(
            actor_id=actor.id,
            actor=actor.name[:40],
            action=action,
            account_id=account_id,
            target=target,
            reason=reason,
            note=note,
            details={"role": actor.role, **(details or {})},
        )
    )


async def record(
    db: Database,
    actor: Actor,
    action: str,
    *,
    account_id: int | None = None,
    target: str | None = None,
    reason: str | None = None,
    note: str | None = None,
    details: dict[str, Any] | None = None,
) -> None:
    """Append what ``actor`` did, in a transaction of its own."""
    async with db.writing("a staff action audited"), db.sessions.begin() as session:
        note_action(
            session, actor, action, account_id=account_id, target=target, reason=reason, note=note, details=details
        )


def entry_to_json(entry: AuditEntry) -> dict[str, Any]:
    """An audit entry as the console shows it."""
    return {
        "id": entry.id,
        "at": entry.at.isoformat(),
        "actor_id": entry.actor_id,
        "actor": entry.actor,
        "action": entry.action,
        "account_id": entry.account_id,
        "target": entry.target,
        "reason": entry.reason,
        "note": entry.note,
        "details": entry.details,
    }


async def entries(
    db: Database, limit: int = 50, before: int | None = None, account_id: int | None = None
) -> list[dict[str, Any]]:
    """Audit entries newest first (those about ``account_id`` only, if given)."""
    query = select(AuditEntry).order_by(AuditEntry.id.desc()).limit(limit)
    if before is not None:
        query = query.where(AuditEntry.id < before)
    if account_id is not None:
        query = query.where(AuditEntry.account_id == account_id)
    async with db.sessions() as session:
        return [entry_to_json(entry) for entry in (await session.execute(query)).scalars()]
