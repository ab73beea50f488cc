"""Leaderboard indexes on accounts; each account's side in a hand (dealer's team or attackers).

``hand_players.defending`` is filled from each stored hand's result (its ``dealer``): a seat of
the dealer's team (seat % 2 == dealer % 2) defended. The account index of ``hand_players`` becomes
(account_id, defending, won), so a profile's record per side is counted from the index alone.

Revision ID: 0004_boards_and_sides
Revises: 0003_nickname_skeleton
Create Date: 2026-12-02
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004_boards_and_sides"
down_revision = "0003_nickname_skeleton"
branch_labels = None
depends_on = None

_hands = sa.table("hands", sa.column("id", sa.Integer()), sa.column("result", sa.JSON()))
_players = sa.table(
    "hand_players",
    sa.column("hand_id", sa.Integer()),
    sa.column("seat", sa.Integer()),
    sa.column("defending", sa.Boolean()),
)


def _defended(result: Any, seat: int) -> bool:
    dealer = result.get("dealer") if isinstance(result, dict) else None
    return isinstance(dealer, int) and seat % 2 == dealer % 2


def upgrade() -> None:
    """Add the board indexes and ``hand_players.defending`` (filled from the stored hands)."""
    op.create_index("ix_accounts_board_points", "accounts", ["guest", sa.text("points DESC"), "id"])
    op.create_index("ix_accounts_board_silver", "accounts", ["guest", sa.text("silver DESC"), "id"])
    with op.batch_alter_table("hand_players") as batch:
        batch.add_column(sa.Column("defending", sa.Boolean(), nullable=False, server_default=sa.false()))
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(_players.c.hand_id, _players.c.seat, _hands.c.result).join(_hands, _hands.c.id == _players.c.hand_id)
    ).all()
    defended = [{"h": hand_id, "s": seat} for hand_id, seat, result in rows if _defended(result, seat)]
    if defended:
        bind.execute(
            _players.update()
            .where(_players.c.hand_id == sa.bindparam("h"), _players.c.seat == sa.bindparam("s"))
            .values(defending=True),
            defended,
        )
    op.drop_index("ix_hand_players_account_id", "hand_players")
    op.create_index("ix_hand_players_account_side", "hand_players", ["account_id", "defending", "won"])


def downgrade() -> None:
    """Drop them again."""
    op.drop_index("ix_hand_players_account_side", "hand_players")
    op.create_index("ix_hand_players_account_id", "hand_players", ["account_id"])
    with op.batch_alter_table("hand_players") as batch:
        batch.drop_column("defending")
    op.drop_index("ix_accounts_board_silver", "accounts")
    op.drop_index("ix_accounts_board_points", "accounts")
