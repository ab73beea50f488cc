"""Nickname keys are skeletons: look-alike nicknames (Cyrillic а, fullwidth letters) collide.

``accounts.nickname_key`` was the nickname in NFC, lower case; it becomes
:func:`tuolaji.store.nicknames.skeleton` of the nickname. Two existing accounts whose skeletons are
equal cannot both have it: the older one gets it, the younger keeps its old key (it still logs in:
``Accounts.login`` also looks a nickname up under its old key). The downgrade goes back to the old
keys the same way.

Revision ID: 0003_nickname_skeleton
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

from tuolaji.store.nicknames import KEY_MAX, skeleton

revision = "0003_nickname_skeleton"
down_revision = "0002"
branch_labels = None
depends_on = None

_accounts = sa.table(
    "accounts",
    sa.column("id", sa.Integer()),
    sa.column("nickname", sa.String()),
    sa.column("nickname_key", sa.String()),
)


def _old_key(nickname: str) -> str:
    return unicodedata.normalize("NFC", nickname).lower()


def _rekey(key_of: Callable[[str], str]) -> None:
    """Give every account ``key_of(nickname)`` where that is free (oldest account first), else keep its key."""
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(_accounts.c.id, _accounts.c.nickname, _accounts.c.nickname_key).order_by(_accounts.c.id)
    ).all()
    used: set[str] = set()
    changed: dict[int, str] = {}
    for account_id, nickname, current in rows:
        wanted = key_of(nickname)
        key = wanted if len(wanted) <= KEY_MAX and wanted not in used else current
        used.add(key)
        if key != current:
            changed[account_id] = key
    # Two passes, so that no intermediate state breaks the unique constraint: first a key no
    # nickname can have (it holds a control character), then the final one.
    for account_id in changed:
        bind.execute(_accounts.update().where(_accounts.c.id == account_id).values(nickname_key=f"\x01{account_id}"))
    for account_id, key in changed.items():
        bind.execute(_accounts.update().where(_accounts.c.id == account_id).values(nickname_key=key))


def upgrade() -> None:
    """Recompute every nickname key as the nickname's skeleton."""
    _rekey(skeleton)


def downgrade() -> None:
    """Back to NFC, lower case keys."""
    _rekey(_old_key)
