"""The economy ledger: the only way an account's 積分 and silver change (docs/RULES-NOTES.md, Economy).

Every change is a :class:`~tuolaji.store.models.LedgerLine` written in the same transaction as the
balance it moves, naming its cause: ``start_grant`` (the one silver faucet, at account creation),
``hand`` and ``escape`` (a settlement, R39–R43, tied to its hand record), ``correction`` (an
admin's, with the admin and a reason) and ``opening`` (the balances carried over when the ledger
began, migration 0006). :func:`audit` proves every balance equals the sum of its lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from tuolaji.store.audit import Actor, note_action
from tuolaji.store.db import Database
from tuolaji.store.models import Account, LedgerLine

Cause = Literal["start_grant", "hand", "escape", "correction", "opening"]
CAUSES: Final[tuple[Cause, ...]] = ("start_grant", "hand", "escape", "correction", "opening")
REASON_MAX: Final = 500
"""Longest reason of a correction, in characters."""


class LedgerError(ValueError):
    """A change the ledger refuses: it would take a balance below 0 (R39), or a correction without a
    reason or without an amount."""


def ledger_values(
    account_id: int,
    balance: tuple[int, int],
    cause: Cause,
    points: int,
    silver: int,
    *,
    hand_id: int | None = None,
    actor_id: int | None = None,
    reason: str | None = None,
) -> dict[str, Any]:
    """The ``ledger`` row that changes account ``account_id``'s balance (its 積分 and silver, as
    ``balance``) by ``points`` and ``silver``, as column values. Raises :class:`LedgerError` if a
    balance would go below 0 (R39)."""
    points_after, silver_after = balance[0] + points, balance[1] + silver
    if points_after < 0 or silver_after < 0:
        raise LedgerError(
            f"{cause} of {points:+} 積分 and {silver:+} silver would take account {account_id} "
            f"({balance[0]} 積分, {balance[1]} silver) below 0 (R39)"
        )
    return {
        "account_id": account_id,
        "cause": cause,
        "points_delta": points,
        "silver_delta": silver,
        "points_after": points_after,
        "silver_after": silver_after,
        "hand_id": hand_id,
        "actor_id": actor_id,
        "reason": reason,
    }


def post(
    session: AsyncSession,
    account: Account,
    cause: Cause,
    points: int,
    silver: int,
    *,
    actor_id: int | None = None,
    reason: str | None = None,
) -> LedgerLine:
    """Change ``account``'s balances by ``points`` and ``silver`` and append the line saying why, in
    ``session``'s transaction (the account row must be locked by the caller where others may write
    it). Raises :class:`LedgerError` if a balance would go below 0 (R39). A hand's settlement writes
    its lines in bulk (:func:`tuolaji.store.records.settle_hand`), from :func:`ledger_values` too."""
    values = ledger_values(
        account.id, (account.points, account.silver), cause, points, silver, actor_id=actor_id, reason=reason
    )
    account.points, account.silver = values["points_after"], values["silver_after"]
    line = LedgerLine(**values)
    session.add(line)
    return line


def check_reason(reason: object) -> str:
    """A correction's reason: required, at most :data:`REASON_MAX` characters."""
    if not isinstance(reason, str) or not reason.strip():
        raise LedgerError("a balance correction needs a reason (reason: a non-empty text)")
    text = reason.strip()
    if len(text) > REASON_MAX:
        raise LedgerError(f"reason: at most {REASON_MAX} characters, got {len(text)}")
    return text


async def correct(
    db: Database,
    account_id: int,
    points: int,
    silver: int,
    reason: object,
    actor_id: int,
    *,
    actor: Actor | None = None,
) -> LedgerLine:
    """An admin's correction of an account's balances, as a ``correction`` line naming the admin and
    the reason, and an audit entry in the same transaction (``actor``: who, as the audit names them;
    by default the account ``actor_id``); refused without a reason, without an amount, or below 0 (R39)."""
    text = check_reason(reason)
    if points == 0 and silver == 0:
        raise LedgerError("a correction must change 積分 or silver (points and silver are both 0)")
    who = actor if actor is not None else Actor(actor_id, f"account {actor_id}", "admin")
    async with db.writing("a ledger correction"), db.sessions.begin() as session:
        account = (
            await session.execute(select(Account).where(Account.id == account_id).with_for_update())
        ).scalar_one_or_none()
        if account is None:
            raise LedgerError(f"no account {account_id}")
        line = post(session, account, "correction", points, silver, actor_id=actor_id, reason=text)
        details = {
            "points": points,
            "silver": silver,
            "points_after": line.points_after,
            "silver_after": line.silver_after,
        }
        note_action(session, who, "correct", account_id=account_id, note=text, details=details)
        return line


@dataclass(frozen=True)
class Mismatch:
    """An account whose balances differ from the sums of its ledger lines."""

    account_id: int
    points: int
    silver: int
    ledger_points: int
    ledger_silver: int


@dataclass(frozen=True)
class Audit:
    """What :func:`audit` found: how many accounts and lines it read, the totals by cause, and every
    account whose balance is not its ledger's sum (none when the economy is sound)."""

    accounts: int
    lines: int
    by_cause: dict[str, tuple[int, int]]
    mismatches: list[Mismatch]

    @property
    def sound(self) -> bool:
        return not self.mismatches


async def audit(db: Database) -> Audit:
    """Check every account's 積分 and silver against the sum of its ledger lines."""
    sums = (
        select(
            LedgerLine.account_id.label("account_id"),
            func.coalesce(func.sum(LedgerLine.points_delta), 0).label("points"),
            func.coalesce(func.sum(LedgerLine.silver_delta), 0).label("silver"),
        )
        .group_by(LedgerLine.account_id)
        .subquery()
    )
    query = select(
        Account.id, Account.points, Account.silver, func.coalesce(sums.c.points, 0), func.coalesce(sums.c.silver, 0)
    ).outerjoin(sums, sums.c.account_id == Account.id)
    causes = select(
        LedgerLine.cause, func.count(), func.sum(LedgerLine.points_delta), func.sum(LedgerLine.silver_delta)
    ).group_by(LedgerLine.cause)
    async with db.sessions() as session:
        rows = (await session.execute(query)).all()
        by_cause = {
            cause: (int(p or 0), int(s or 0), int(n)) for cause, n, p, s in (await session.execute(causes)).all()
        }
    mismatches = [
        Mismatch(account_id, points, silver, int(ledger_points), int(ledger_silver))
        for account_id, points, silver, ledger_points, ledger_silver in rows
        if (points, silver) != (ledger_points, ledger_silver)
    ]
    return Audit(
        accounts=len(rows),
        lines=sum(n for _, _, n in by_cause.values()),
        by_cause={cause: (p, s) for cause, (p, s, _) in by_cause.items()},
        mismatches=mismatches,
    )


def line_to_json(line: LedgerLine) -> dict[str, Any]:
    """A ledger line as the console shows it."""
    return {
        "id": line.id,
        "account_id": line.account_id,
        "cause": line.cause,
        "points_delta": line.points_delta,
        "silver_delta": line.silver_delta,
        "points_after": line.points_after,
        "silver_after": line.silver_after,
        "hand_id": line.hand_id,
        "actor_id": line.actor_id,
        "reason": line.reason,
        "at": _iso(line.at),
    }


def _iso(moment: datetime) -> str:
    return moment.isoformat()


async def lines_of(db: Database, account_id: int, limit: int = 50, before: int | None = None) -> list[dict[str, Any]]:
    """An account's ledger lines, newest first."""
    query = select(LedgerLine).where(LedgerLine.account_id == account_id).order_by(LedgerLine.id.desc()).limit(limit)
    if before is not None:
        query = query.where(LedgerLine.id < before)
    async with db.sessions() as session:
        return [line_to_json(line) for line in (await session.execute(query)).scalars()]
