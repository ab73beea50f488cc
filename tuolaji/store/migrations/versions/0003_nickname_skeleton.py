"""Nickname keys are skeletons: look-alike nicknames (Cyrillic а, fullwidth letters) collide.

``accounts.nickname_key`` was the nickname in NFC, lower case; it becomes
:func:`tuolaji.store.nicknames.skeleton` of the nickname. Two existing accounts whose skeletons are
equal cannot both have it: the older one gets it, the younger keeps its old key (it still logs in:
``Accounts.login`` also looks a nickname up under its old key). The downgrade goes back to the old
keys the same way. The skeleton is the one of this revision, kept here (a later revision,
``0005_skeletons_and_private_hands``, recomputes the keys with the skeleton that replaced it).

Revision ID: 0003_nickname_skeleton
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Final

import sqlalchemy as sa
from alembic import op

KEY_MAX = 40

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


def _table(*groups: tuple[str, str]) -> dict[int, str]:
    table: dict[int, str] = {}
    for looks, latin in groups:
        for char in looks:
            table[ord(char)] = latin
    return table


_LOOK_ALIKES: Final = _table(
    # Applied after case folding, so only small letters appear; a letter whose capital and small
    # forms look like different Latin letters (Greek Η/η: H/n) maps to its small form's look-alike,
    # as names are mostly spoofed in small letters.
    # Cyrillic.
    ("аӑ", "a"),
    ("вь", "b"),
    ("сϲ", "c"),
    ("ԁ", "d"),
    ("еёє", "e"),
    ("һн", "h"),
    ("іїӏ", "l"),
    ("ј", "j"),
    ("к", "k"),
    ("м", "m"),
    ("о", "o"),
    ("р", "p"),
    ("ԛ", "q"),
    ("ѕ", "s"),
    ("т", "t"),
    ("уү", "y"),
    ("ѵ", "v"),
    ("х", "x"),
    ("ԝ", "w"),
    ("з", "3"),
    ("б", "6"),
    # Greek.
    ("α", "a"),
    ("β", "b"),
    ("ε", "e"),
    ("ζ", "z"),
    ("η", "n"),
    ("ι", "l"),
    ("κ", "k"),
    ("μ", "m"),
    ("ν", "v"),
    ("ο", "o"),
    ("ρ", "p"),
    ("τ", "t"),
    ("υ", "u"),
    ("χ", "x"),
    ("ϳ", "j"),
    # Armenian.
    ("օ", "o"),
    ("ս", "u"),
    ("հ", "h"),
    ("ց", "g"),
    ("զ", "q"),
    # Latin letters and digits that look alike once folded: capital I is small l's twin, so i and l
    # are one letter here; 1, | and 0 too.
    ("iıl1|ǀ∣", "l"),
    ("0", "o"),
    ("ȷ", "j"),
    # Dashes and dash-like marks (一 is the CJK digit one, ー the katakana long vowel mark).
    ("‐‑‒–—―−⁃˗۔ー一ㅡ╴─", "-"),
    # Dots that look alike.
    ("·•‧∙⋅ꞏ", "."),
)

_SEQUENCES: Final = (("rn", "m"), ("vv", "w"))


def skeleton(name: str) -> str:
    """The nickname skeleton of this revision: NFKC, case folding, a table of Latin look-alikes."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).translate(_LOOK_ALIKES)
    for pair, single in _SEQUENCES:
        folded = folded.replace(pair, single)
    return " ".join(unicodedata.normalize("NFKC", folded).split())


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
