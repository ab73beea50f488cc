"""Tables: accounts, session tokens, hand records, each account's part in a hand, and the live tables'
durable logs.

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
