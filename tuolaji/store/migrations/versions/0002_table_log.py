"""Live tables and their durable logs; one hand record per (table, number).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``live_tables`` and ``table_log``; make hand numbers unique per table."""
    op.create_table(
        "live_tables",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("fence", sa.BigInteger(), nullable=False),
        sa.Column("open", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_live_tables_open", "live_tables", ["open"])
    op.create_table(
        "table_log",
        sa.Column("table_id", sa.String(40), sa.ForeignKey("live_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("entry", sa.JSON(), nullable=False),
    )
    # Earlier servers numbered hands per match, so two matches at one table could store the same
    # (table_id, number): keep the first and give the others a table id of their own.
    op.execute(
        "UPDATE hands SET table_id = table_id || '#' || CAST(id AS VARCHAR(20)) "
        "WHERE id NOT IN (SELECT MIN(id) FROM hands GROUP BY table_id, number)"
    )
    with op.batch_alter_table("hands") as batch:
        batch.create_unique_constraint("uq_hands_table_number", ["table_id", "number"])


def downgrade() -> None:
    """Drop the live tables' logs and the uniqueness of hand numbers."""
    with op.batch_alter_table("hands") as batch:
        batch.drop_constraint("uq_hands_table_number", type_="unique")
    op.drop_table("table_log")
    op.drop_index("ix_live_tables_open", "live_tables")
    op.drop_table("live_tables")
