"""Roles in the moderators' console: ``moderator`` or ``admin`` (``tuolaji.wire.moderation.ROLES``),
given and taken only by the operator's command line (``tuolaji admin grant NAME --role ROLE``,
``tuolaji admin revoke NAME``), each change in the audit. Guests hold no role."""

from __future__ import annotations

from sqlalchemy import delete, or_, select

from tuolaji.store.accounts import login_key
from tuolaji.store.audit import CLI, note_action
from tuolaji.store.db import Database
from tuolaji.store.models import Account, Role
from tuolaji.wire.moderation import ROLES


class RoleError(ValueError):
    """A grant or revoke the store refuses (no such account, a guest, an unknown role)."""


async def role_of(db: Database, account_id: int) -> str | None:
    """The account's role, or None (a player)."""
    async with db.sessions() as session:
        return await session.scalar(select(Role.role).where(Role.account_id == account_id))


async def _registered(db: Database, nickname: str) -> Account:
    """The registered account ``nickname`` names (by its skeleton, as a log-in does)."""
    key = login_key(nickname)
    async with db.sessions() as session:
        match = (
            Account.nickname == nickname
            if key is None
            else or_(Account.nickname_key == key, Account.nickname == nickname)
        )
        row = (await session.execute(select(Account).where(match).order_by(Account.id))).scalars().first()
    if row is None:
        raise RoleError(f"no account named {nickname!r}")
    if row.guest:
        raise RoleError(f"{row.nickname!r} is a guest: only registered accounts hold a role")
    return row


async def grant(db: Database, nickname: str, role: str) -> tuple[int, str | None]:
    """Give the account ``nickname`` the ``role``; its id and the role it had before."""
    if role not in ROLES:
        raise RoleError(f"role must be one of {', '.join(ROLES)} (got {role!r})")
    account = await _registered(db, nickname)
    async with db.writing("a role granted"), db.sessions.begin() as session:
        row = await session.get(Role, account.id)
        before = row.role if row is not None else None
        if row is None:
            session.add(Role(account_id=account.id, role=role))
        else:
            row.role = role
        note_action(session, CLI, "grant", account_id=account.id, details={"role_given": role, "before": before})
    return account.id, before


async def revoke(db: Database, nickname: str) -> tuple[int, str | None]:
    """Take the account ``nickname``'s role away; its id and the role it had (None: it had none)."""
    account = await _registered(db, nickname)
    async with db.writing("a role revoked"), db.sessions.begin() as session:
        before = await session.scalar(select(Role.role).where(Role.account_id == account.id))
        if before is not None:
            await session.execute(delete(Role).where(Role.account_id == account.id))
            note_action(session, CLI, "revoke", account_id=account.id, details={"before": before})
    return account.id, before
