"""Players' reports of each other after a hand, and their closing by a moderator.

A report names a stored hand both accounts played in (:func:`file` refuses anything else), a
reason from ``tuolaji.wire.moderation.REASONS`` and an optional note; one per reporter, reported
account and hand. :func:`reports_by` tells whom accounts reported lately (quick match keeps
reporters and the reported apart with it).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from tuolaji.store.audit import Actor, note_action
from tuolaji.store.db import Database
from tuolaji.store.models import Account, Hand, HandPlayer, Report, utcnow
from tuolaji.store.sanctions import aware

REPORTS_PER_HOUR: Final = 5
"""Reports one account may file in an hour."""


class ReportError(ValueError):
    """A report refused: ``code`` (docs/PROTOCOL.md §4), ``status`` (HTTP), ``retry`` (seconds, when rate-limited)."""

    def __init__(self, code: str, text: str, status: int = 400, retry: float | None = None) -> None:
        super().__init__(text)
        self.code, self.status, self.retry = code, status, retry


async def _players(session: AsyncSession, hand_id: int) -> set[int] | None:
    """The accounts seated in hand ``hand_id`` (None: no such hand)."""
    if await session.get(Hand, hand_id) is None:
        return None
    rows = await session.execute(select(HandPlayer.account_id).where(HandPlayer.hand_id == hand_id))
    return {int(account_id) for (account_id,) in rows}


async def file(
    db: Database,
    reporter_id: int,
    hand_id: int,
    reported_id: int,
    reason: str,
    note: str | None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """``reporter_id`` reports ``reported_id`` for hand ``hand_id``; the report. Refused
    (:class:`ReportError`) when the hand is not stored, either account did not play in it, it is
    oneself, it was reported already, or the reporter filed :data:`REPORTS_PER_HOUR` in the last hour."""
    moment = now or utcnow()
    async with db.writing("a report filed"), db.sessions.begin() as session:
        players = await _players(session, hand_id)
        if players is None:
            raise ReportError("not_found", f"no finished hand {hand_id}", 404)
        if reporter_id == reported_id:
            raise ReportError("bad_report", "a report names another player, not yourself")
        if reporter_id not in players or reported_id not in players:
            text = f"a report names someone you played hand {hand_id} with, and you must have played it"
            raise ReportError("not_in_hand", text, 403)
        since = moment - timedelta(hours=1)
        recent = (
            (
                await session.execute(
                    select(Report.at).where(Report.reporter_id == reporter_id, Report.at > since).order_by(Report.at)
                )
            )
            .scalars()
            .all()
        )
        if len(recent) >= REPORTS_PER_HOUR:
            retry = (aware(recent[0]) + timedelta(hours=1) - moment).total_seconds()
            raise ReportError("rate_limited", f"at most {REPORTS_PER_HOUR} reports an hour", 429, retry)
        row = Report(
            reporter_id=reporter_id, reported_id=reported_id, hand_id=hand_id, reason=reason, note=note, at=moment
        )
        session.add(row)
        try:
            await session.flush()
        except IntegrityError:
            raise ReportError("already_reported", f"you reported this player for hand {hand_id} already", 409) from None
        return _report_json(row, {})


def _report_json(row: Report, names: dict[int, str]) -> dict[str, Any]:
    return {
        "id": row.id,
        "hand_id": row.hand_id,
        "reporter": {"id": row.reporter_id, "nickname": names.get(row.reporter_id)},
        "reported": {"id": row.reported_id, "nickname": names.get(row.reported_id)},
        "reason": row.reason,
        "note": row.note,
        "at": aware(row.at).isoformat(),
        "outcome": row.outcome,
        "closed_by": row.closed_by,
        "closed_at": None if row.closed_at is None else aware(row.closed_at).isoformat(),
        "closing_note": row.closing_note,
    }


async def listed(
    db: Database, *, open_only: bool = True, against: int | None = None, limit: int = 50
) -> list[dict[str, Any]]:
    """Reports newest first: the open ones (``open_only``), those ``against`` an account, or all."""
    reporter, reported = aliased(Account), aliased(Account)
    query = (
        select(Report, reporter.nickname, reported.nickname)
        .join(reporter, reporter.id == Report.reporter_id)
        .join(reported, reported.id == Report.reported_id)
        .order_by(Report.id.desc())
        .limit(limit)
    )
    if open_only:
        query = query.where(Report.outcome.is_(None))
    if against is not None:
        query = query.where(Report.reported_id == against)
    async with db.sessions() as session:
        rows = (await session.execute(query)).all()
    return [_report_json(row, {row.reporter_id: by, row.reported_id: of}) for row, by, of in rows]


async def close(db: Database, actor: Actor, report_id: int, outcome: str, note: str | None) -> dict[str, Any]:
    """Close an open report with ``outcome`` and ``note`` (audited as ``close_report``)."""
    async with db.writing("a report closed"), db.sessions.begin() as session:
        row = await session.get(Report, report_id, with_for_update=True)
        if row is None:
            raise ReportError("not_found", f"no report {report_id}", 404)
        if row.outcome is not None:
            raise ReportError("report_closed", f"report {report_id} was closed already ({row.outcome})", 409)
        row.outcome, row.closed_by, row.closed_at, row.closing_note = outcome, actor.id, utcnow(), note
        details = {"outcome": outcome, "hand_id": row.hand_id, "reporter_id": row.reporter_id}
        note_action(
            session,
            actor,
            "close_report",
            account_id=row.reported_id,
            target=f"report {report_id}",
            reason=row.reason,
            note=note,
            details=details,
        )
        return _report_json(row, {})


async def reports_by(db: Database, account_ids: Iterable[int], since: datetime) -> set[tuple[int, int]]:
    """(reporter, reported) of every report made at ``since`` or later by one of ``account_ids``, in
    one query (quick match keeps them apart)."""
    ids = set(account_ids)
    if not ids:
        return set()
    query = select(Report.reporter_id, Report.reported_id).where(Report.reporter_id.in_(ids), Report.at >= since)
    async with db.sessions() as session:
        return {(int(reporter), int(reported)) for reporter, reported in await session.execute(query)}


async def open_count(db: Database) -> int:
    """How many reports are open."""
    async with db.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(Report).where(Report.outcome.is_(None))) or 0)
