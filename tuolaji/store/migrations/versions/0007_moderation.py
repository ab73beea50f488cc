"""Moderation: roles, sanctions (bans and mutes), players' reports, and the append-only audit.

The database itself keeps ``audit`` append-only: a trigger refuses every ``UPDATE`` and ``DELETE``
of its rows (PostgreSQL and SQLite alike), so no code path, API or not, can edit what was done.

Revision ID: 0007_moderation
Revises: 0006_ledger
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_moderation"
down_revision = "0006_ledger"
branch_labels = None
depends_on = None

APPEND_ONLY = "the audit is append-only: its rows are never updated or deleted"
_PG_FUNCTION = f"""
CREATE FUNCTION audit_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '{APPEND_ONLY}';
END;
$$ LANGUAGE plpgsql
"""
_PG_TRIGGER = (
    "CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON audit "
    "FOR EACH ROW EXECUTE FUNCTION audit_append_only()"
)
_SQLITE_TRIGGERS = [
    f"CREATE TRIGGER audit_no_{verb.lower()} BEFORE {verb} ON audit BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END"
    for verb in ("UPDATE", "DELETE")
]


def _account(name: str, nullable: bool = False) -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), sa.ForeignKey("accounts.id"), nullable=nullable)


def upgrade() -> None:
    """Create the four tables, their indexes and the audit's triggers."""
    op.create_table(
        "roles",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer(), primary_key=True),
        _account("account_id"),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("reason", sa.String(20), nullable=False),
        sa.Column("note", sa.String(300), nullable=True),
        _account("actor_id", nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lifted_at", sa.DateTime(timezone=True), nullable=True),
        _account("lifted_by", nullable=True),
    )
    op.create_index("ix_sanctions_account", "sanctions", ["account_id", "kind", "id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True),
        _account("reporter_id"),
        _account("reported_id"),
        sa.Column("hand_id", sa.Integer(), sa.ForeignKey("hands.id"), nullable=False),
        sa.Column("reason", sa.String(20), nullable=False),
        sa.Column("note", sa.String(300), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("outcome", sa.String(20), nullable=True),
        _account("closed_by", nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closing_note", sa.String(300), nullable=True),
        sa.UniqueConstraint("reporter_id", "reported_id", "hand_id", name="uq_reports_once"),
    )
    op.create_index("ix_reports_open", "reports", ["outcome", "id"])
    op.create_index("ix_reports_reporter", "reports", ["reporter_id", "at"])
    op.create_index("ix_reports_reported", "reports", ["reported_id", "id"])
    op.create_table(
        "audit",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        _account("actor_id", nullable=True),
        sa.Column("actor", sa.String(40), nullable=False),
        sa.Column("action", sa.String(30), nullable=False),
        _account("account_id", nullable=True),
        sa.Column("target", sa.String(80), nullable=True),
        sa.Column("reason", sa.String(20), nullable=True),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column("details", sa.JSON(), nullable=False),
    )
    op.create_index("ix_audit_account", "audit", ["account_id", "id"])
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_PG_FUNCTION)
        op.execute(_PG_TRIGGER)
    else:
        for trigger in _SQLITE_TRIGGERS:
            op.execute(trigger)


def downgrade() -> None:
    """Drop them (the audit's triggers with it)."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS audit_append_only ON audit")
        op.execute("DROP FUNCTION IF EXISTS audit_append_only()")
    op.drop_index("ix_audit_account", "audit")
    op.drop_table("audit")
    for index in ("ix_reports_reported", "ix_reports_reporter", "ix_reports_open"):
        op.drop_index(index, "reports")
    op.drop_table("reports")
    op.drop_index("ix_sanctions_account", "sanctions")
    op.drop_table("sanctions")
    op.drop_table("roles")
