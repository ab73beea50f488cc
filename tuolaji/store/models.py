"""Tables: accounts, session tokens, hand records, each account's part in a hand, the economy ledger,
the live tables' durable logs, and moderation (roles, sanctions, reports, the audit).

The schema is created and changed only by the Alembic migrations in ``migrations/versions``;
these classes must match them (``tests/store`` checks that).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, ForeignKey, Index, Integer, String, UniqueConstraint, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of every table."""


class Account(Base):
    """A player: 積分 (``points``) and silver are never below 0 (§11)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    nickname: Mapped[str] = mapped_column(String(40))
    nickname_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    points: Mapped[int] = mapped_column(BigInteger, default=0)
    silver: Mapped[int] = mapped_column(BigInteger, default=0)
    hands_played: Mapped[int] = mapped_column(Integer, default=0)
    hands_won: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# The leaderboards (``tuolaji.store.leaderboard``): registered accounts in board order, so a page is
# read from the index and an account's place is a count over the index only.
Index("ix_accounts_board_points", Account.guest, Account.points.desc(), Account.id)
Index("ix_accounts_board_silver", Account.guest, Account.silver.desc(), Account.id)


class SessionToken(Base):
    """An opaque session token, stored as its SHA-256 hex digest."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Hand(Base):
    """A finished hand: enough to replay it exactly (setup + actions), plus its result and settlement."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("table_id", "number", name="uq_hands_table_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(40))
    number: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    actions: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    settlement: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Played at a private table: the record is shown to its players only."""


class HandPlayer(Base):
    """One account's seat in a stored hand, with what the settlement changed (for its history)."""

    __tablename__ = "hand_players"

    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    points_delta: Mapped[int] = mapped_column(BigInteger, default=0)
    silver_delta: Mapped[int] = mapped_column(BigInteger, default=0)
    won: Mapped[bool] = mapped_column(Boolean, default=False)
    defending: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The seat was on the dealer's team (莊家方) rather than the attackers (閒家)."""


# An account's hands (its history) and its record per side (its profile), from the index alone.
Index("ix_hand_players_account_side", HandPlayer.account_id, HandPlayer.defending, HandPlayer.won)


class LedgerLine(Base):
    """One change of an account's 積分 and silver with its cause (``tuolaji.store.ledger``): an
    account's balances always equal the sums of its lines. Append-only: lines are never updated or
    deleted."""

    __tablename__ = "ledger"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    cause: Mapped[str] = mapped_column(String(20))
    points_delta: Mapped[int] = mapped_column(BigInteger)
    silver_delta: Mapped[int] = mapped_column(BigInteger)
    points_after: Mapped[int] = mapped_column(BigInteger)
    silver_after: Mapped[int] = mapped_column(BigInteger)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"), nullable=True)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    reason: Mapped[str | None] = mapped_column(String(500), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# An account's ledger in order (its audit and its history of corrections).
Index("ix_ledger_account", LedgerLine.account_id, LedgerLine.id)


class LiveTable(Base):
    """A card table of the server: its options and, while open, its log (``table_log``).

    ``fence`` is the fencing token of the node that may write the log (0 on a single node); a write
    with another token is refused, so a node that lost the table can never write again.
    """

    __tablename__ = "live_tables"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    fence: Mapped[int] = mapped_column(BigInteger, default=0)
    open: Mapped[bool] = mapped_column(Boolean, default=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    number: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """What players call the table (第 N 桌): the smallest positive number no other open table held
    when it was opened (:meth:`tuolaji.store.tablelog.TableLog.create`)."""


Index("uq_live_tables_number", LiveTable.number, unique=True)


class TableLogEntry(Base):
    """One entry of a live table's log (``tuolaji.room.table``), in order; entries before the last
    ``round`` snapshot are deleted."""

    __tablename__ = "table_log"

    table_id: Mapped[str] = mapped_column(ForeignKey("live_tables.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)


class Role(Base):
    """An account's role in the moderators' console (``moderator`` or ``admin``), given and taken
    only by ``tuolaji admin grant`` / ``revoke``; an account without a row is a player."""

    __tablename__ = "roles"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    role: Mapped[str] = mapped_column(String(20))
    granted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Sanction(Base):
    """A ban or a mute of an account (``kind``), by a moderator (``actor_id``) for a ``reason`` (a code
    of ``tuolaji.wire.moderation.REASONS``) and ``note``, from ``at`` until ``until`` (None: for good)
    or until it is lifted (``lifted_at``, by ``lifted_by``)."""

    __tablename__ = "sanctions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    kind: Mapped[str] = mapped_column(String(10))
    reason: Mapped[str] = mapped_column(String(20))
    note: Mapped[str | None] = mapped_column(String(300), nullable=True)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    lifted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    lifted_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)


# An account's sanctions of a kind, newest last (the standing checked at sign-in and hello).
Index("ix_sanctions_account", Sanction.account_id, Sanction.kind, Sanction.id)


class Report(Base):
    """A player's report of another after a hand they played together (``hand_id``); open while
    ``outcome`` is None, closed by a moderator with an outcome and a note."""

    __tablename__ = "reports"
    __table_args__ = (UniqueConstraint("reporter_id", "reported_id", "hand_id", name="uq_reports_once"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    reported_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"))
    reason: Mapped[str] = mapped_column(String(20))
    note: Mapped[str | None] = mapped_column(String(300), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    outcome: Mapped[str | None] = mapped_column(String(20), nullable=True)
    closed_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    closing_note: Mapped[str | None] = mapped_column(String(300), nullable=True)


# Open reports in order; what a reporter reported lately (the rate limit, ``reports_by``); the
# reports against an account.
Index("ix_reports_open", Report.outcome, Report.id)
Index("ix_reports_reporter", Report.reporter_id, Report.at)
Index("ix_reports_reported", Report.reported_id, Report.id)


class AuditEntry(Base):
    """One action of a moderator or admin (or of the operator's command line: ``actor_id`` None):
    who (``actor``, their nickname then), what (``action``), to whom (``account_id``, or ``target``: a
    table, a node, a report), why (``reason``, ``note``), when (``at``), and the rest in ``details``.
    Append-only: the database refuses to update or delete a row (triggers of migration 0007)."""

    __tablename__ = "audit"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    actor: Mapped[str] = mapped_column(String(40))
    action: Mapped[str] = mapped_column(String(30))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    target: Mapped[str | None] = mapped_column(String(80), nullable=True)
    reason: Mapped[str | None] = mapped_column(String(20), nullable=True)
    note: Mapped[str | None] = mapped_column(String(500), nullable=True)
    details: Mapped[dict[str, Any]] = mapped_column(JSON)


# What was done to an account, newest first.
Index("ix_audit_account", AuditEntry.account_id, AuditEntry.id)
