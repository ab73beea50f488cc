"""Nickname keys recomputed with the UTS #39 skeleton; hands of private tables marked private.

``accounts.nickname_key`` becomes :func:`tuolaji.store.nicknames.skeleton` of the nickname (the full
confusables data instead of a hand-made table). An account whose key is already its new one keeps
it; the others, oldest first, get their new key if it is free, else keep their key if that is
still free, else their NFC lower-case nickname (``Accounts.login`` looks a nickname up under that
too), else a key no nickname can have. The
downgrade gives every account its NFC lower-case nickname, which every earlier version finds.

``hands.private`` (new, default false) says the hand was played at a private table: only its
players may read it. Hands stored before this revision are marked from their table's log where it
still says (a ``private`` entry, or a ``round`` snapshot with ``private`` true: private; a log
saying neither: public); a hand whose table left no log is marked private, as nobody can tell.

Revision ID: 0005_skeletons_and_private_hands
Revises: 0004_boards_and_sides
Create Date: 2026-12-06
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

from tuolaji.store.nicknames import KEY_MAX, skeleton

revision = "0005_skeletons_and_private_hands"
down_revision = "0004_boards_and_sides"
branch_labels = None
depends_on = None

_accounts = sa.table(
    "accounts",
    sa.column("id", sa.Integer()),
    sa.column("nickname", sa.String()),
    sa.column("nickname_key", sa.String()),
)
_hands = sa.table(
    "hands", sa.column("id", sa.Integer()), sa.column("table_id", sa.String()), sa.column("private", sa.Boolean())
)
_log = sa.table("table_log", sa.column("table_id", sa.String()), sa.column("entry", sa.JSON()))


def _lower(nickname: str) -> str:
    return unicodedata.normalize("NFC", nickname).lower()


def _rekey(key_of: Callable[[str], str]) -> None:
    """Give every account ``key_of(nickname)`` where that is free (oldest account first), else the
    first free of its current key, its NFC lower-case nickname, or ``"\\x01" + id``."""
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(_accounts.c.id, _accounts.c.nickname, _accounts.c.nickname_key).order_by(_accounts.c.id)
    ).all()
    wanted = {account_id: key_of(nickname) for account_id, nickname, _ in rows}
    # An account whose key is already the wanted one keeps it; the others, oldest first, take theirs if free.
    keys = {account_id: current for account_id, _, current in rows if wanted[account_id] == current}
    used = set(keys.values())
    for account_id, nickname, current in rows:
        if account_id in keys:
            continue
        choices = (wanted[account_id], current, _lower(nickname), f"\x01{account_id}")
        key = next(key for key in choices if len(key) <= KEY_MAX and key not in used)
        used.add(key)
        keys[account_id] = key
    changed = {account_id: key for account_id, _, current in rows if (key := keys[account_id]) != current}
    # Two passes, so that no intermediate state breaks the unique constraint: first a key no
    # nickname can have (it holds a control character), then the final one.
    for account_id in changed:
        bind.execute(_accounts.update().where(_accounts.c.id == account_id).values(nickname_key=f"\x02{account_id}"))
    for account_id, key in changed.items():
        bind.execute(_accounts.update().where(_accounts.c.id == account_id).values(nickname_key=key))


def _says_private(entry: Any) -> bool | None:
    """What a log entry says of its table: private (True), public (False) or nothing (None)."""
    if not isinstance(entry, dict):
        return None
    if entry.get("t") == "private":
        return True
    if entry.get("t") in ("round", "public"):
        return entry.get("t") == "round" and bool(entry.get("private"))
    return None


def _mark_private_hands() -> None:
    bind = op.get_bind()
    tables = {row[0] for row in bind.execute(sa.select(_hands.c.table_id).distinct())}
    said: dict[str, bool] = {}
    for table_id, entry in bind.execute(sa.select(_log.c.table_id, _log.c.entry)):
        verdict = _says_private(entry)
        if table_id in tables and verdict is not None:
            said[table_id] = said.get(table_id, False) or verdict
    private = [{"t": table_id} for table_id in tables if said.get(table_id, True)]
    if private:
        bind.execute(_hands.update().where(_hands.c.table_id == sa.bindparam("t")).values(private=True), private)


def upgrade() -> None:
    """Recompute the nickname keys; add and fill ``hands.private``."""
    _rekey(skeleton)
    # Not a batch (copy-and-rename) on SQLite: dropping the old ``hands`` would cascade to ``hand_players``.
    op.add_column("hands", sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false()))
    _mark_private_hands()


def downgrade() -> None:
    """Drop ``hands.private``; NFC lower-case nickname keys."""
    op.drop_column("hands", "private")
    _rekey(_lower)
