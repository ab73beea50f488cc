"""Tables get a number players can say (第 N 桌); guests get names players can say (遊客0042).

``live_tables.number`` (new, unique where set) is the table's number: the smallest positive number
no other open table holds when it is opened (``tuolaji.store.tablelog.TableLog.create``). The open
tables of before this revision are numbered 1, 2, … oldest first.

A guest's nickname becomes ``guest-`` and its account id, zero-padded to at least four digits
(``guest-0042``): unique, as ids are, and what the browser client shows as 遊客0042 / 游客0042 /
Guest 0042. Guests made before this revision had six random hex digits (``guest-88a012``); they
are renamed the same way, their nickname keys recomputed. The downgrade drops the numbers and
leaves the names (valid guest names in every revision).

Revision ID: 0008_table_numbers_guest_names
Revises: 0007_moderation
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tuolaji.store.nicknames import guest_nickname, skeleton

revision = "0008_table_numbers_guest_names"
down_revision = "0007_moderation"
branch_labels = None
depends_on = None

_accounts = sa.table(
    "accounts",
    sa.column("id", sa.Integer()),
    sa.column("nickname", sa.String()),
    sa.column("nickname_key", sa.String()),
    sa.column("guest", sa.Boolean()),
)
_tables = sa.table(
    "live_tables",
    sa.column("id", sa.String()),
    sa.column("number", sa.Integer()),
    sa.column("created_at", sa.DateTime()),
)


def _number_open_tables() -> None:
    bind = op.get_bind()
    ids = bind.execute(sa.select(_tables.c.id).order_by(_tables.c.created_at, _tables.c.id)).scalars().all()
    for number, table_id in enumerate(ids, start=1):
        bind.execute(_tables.update().where(_tables.c.id == table_id).values(number=number))


def _rename_guests() -> None:
    bind = op.get_bind()
    ids = bind.execute(sa.select(_accounts.c.id).where(_accounts.c.guest).order_by(_accounts.c.id)).scalars().all()
    # Two passes, so that no intermediate state breaks the unique key: first a key no nickname can
    # have (it holds a control character), then the new one.
    for account_id in ids:
        bind.execute(_accounts.update().where(_accounts.c.id == account_id).values(nickname_key=f"\x02{account_id}"))
    for account_id in ids:
        name = guest_nickname(account_id)
        bind.execute(
            _accounts.update().where(_accounts.c.id == account_id).values(nickname=name, nickname_key=skeleton(name))
        )


def upgrade() -> None:
    """Add and fill ``live_tables.number``; rename the guests."""
    # Not a batch (copy-and-rename) on SQLite: dropping the old ``live_tables`` would cascade to ``table_log``.
    op.add_column("live_tables", sa.Column("number", sa.Integer(), nullable=True))
    _number_open_tables()
    op.create_index("uq_live_tables_number", "live_tables", ["number"], unique=True)
    _rename_guests()


def downgrade() -> None:
    """Drop ``live_tables.number`` (the guests keep their names)."""
    op.drop_index("uq_live_tables_number", "live_tables")
    op.drop_column("live_tables", "number")
