"""The economy ledger: every change of an account's 積分 and silver, with its cause.

Each existing account gets an ``opening`` line (its balances less what its stored hands changed,
the balances carried over when the ledger began), then one ``hand`` or ``escape`` line per stored
hand it played in (from ``hand_players``), in hand order, so that every balance equals the sum of
its lines from the start.

Revision ID: 0006_ledger
Revises: 0005_skeletons_and_private_hands
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_ledger"
down_revision = "0005_skeletons_and_private_hands"
branch_labels = None
depends_on = None

_accounts = sa.table(
    "accounts",
    sa.column("id", sa.Integer()),
    sa.column("points", sa.BigInteger()),
    sa.column("silver", sa.BigInteger()),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
_hands = sa.table(
    "hands",
    sa.column("id", sa.Integer()),
    sa.column("result", sa.JSON()),
    sa.column("finished_at", sa.DateTime(timezone=True)),
)
_players = sa.table(
    "hand_players",
    sa.column("hand_id", sa.Integer()),
    sa.column("account_id", sa.Integer()),
    sa.column("points_delta", sa.BigInteger()),
    sa.column("silver_delta", sa.BigInteger()),
)


def upgrade() -> None:
    """Create ``ledger`` and fill it from the accounts and their stored hands."""
    ledger = op.create_table(
        "ledger",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("cause", sa.String(20), nullable=False),
        sa.Column("points_delta", sa.BigInteger(), nullable=False),
        sa.Column("silver_delta", sa.BigInteger(), nullable=False),
        sa.Column("points_after", sa.BigInteger(), nullable=False),
        sa.Column("silver_after", sa.BigInteger(), nullable=False),
        sa.Column("hand_id", sa.Integer(), sa.ForeignKey("hands.id"), nullable=True),
        sa.Column("actor_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("reason", sa.String(500), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ledger_account", "ledger", ["account_id", "id"])
    bind = op.get_bind()
    played: dict[int, list[tuple[int, str, int, int, object]]] = {}
    query = (
        sa.select(
            _players.c.account_id,
            _hands.c.id,
            _hands.c.result,
            _players.c.points_delta,
            _players.c.silver_delta,
            _hands.c.finished_at,
        )
        .join(_hands, _hands.c.id == _players.c.hand_id)
        .order_by(_hands.c.id)
    )
    for account_id, hand_id, result, points, silver, finished in bind.execute(query):
        kind = result.get("kind") if isinstance(result, dict) else None
        cause = "escape" if kind == "escape" else "hand"
        played.setdefault(account_id, []).append((hand_id, cause, points or 0, silver or 0, finished))
    rows = []
    for account_id, points, silver, created in bind.execute(sa.select(_accounts).order_by(_accounts.c.id)):
        lines = played.get(account_id, [])
        open_points = points - sum(line[2] for line in lines)
        open_silver = silver - sum(line[3] for line in lines)
        rows.append(_line(account_id, "opening", open_points, open_silver, open_points, open_silver, None, created))
        for hand_id, cause, delta_points, delta_silver, finished in lines:
            open_points += delta_points
            open_silver += delta_silver
            rows.append(
                _line(account_id, cause, delta_points, delta_silver, open_points, open_silver, hand_id, finished)
            )
    if rows:
        op.bulk_insert(ledger, rows)


def _line(
    account_id: int,
    cause: str,
    points: int,
    silver: int,
    points_after: int,
    silver_after: int,
    hand_id: int | None,
    at: object,
) -> dict[str, object]:
    return {
        "account_id": account_id,
        "cause": cause,
        "points_delta": points,
        "silver_delta": silver,
        "points_after": points_after,
        "silver_after": silver_after,
        "hand_id": hand_id,
        "actor_id": None,
        "reason": None,
        "at": at,
    }


def downgrade() -> None:
    """Drop the ledger."""
    op.drop_index("ix_ledger_account", "ledger")
    op.drop_table("ledger")
