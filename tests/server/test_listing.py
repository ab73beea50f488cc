"""What the lobby list shows of a table and which table an invite code opens (every node keeps both
from the summaries the bus brings, also after the bus reconnects)."""

from __future__ import annotations

from typing import Any

from tuolaji.server.listing import InviteIndex, listing


def summary(table_id: str, private: bool = False, invite: str | None = None) -> dict[str, Any]:
    return {"id": table_id, "state": "waiting", "private": private, "invite": invite, "creator": 7 if invite else None}


def test_private_tables_are_not_listed_and_no_code_ever_is() -> None:
    assert listing(None) is None
    assert listing(summary("t1", private=True, invite="code1")) is None
    public = summary("t2")
    assert listing(public) is public
    made_public = summary("t3", invite="code3")
    shown = listing(made_public)
    assert shown == {**made_public, "invite": None} and made_public["invite"] == "code3"


def test_invite_codes_follow_the_summaries() -> None:
    index = InviteIndex()
    index.changed("t1", None, summary("t1", private=True, invite="code1"))
    index.changed("t2", None, summary("t2"))
    assert index.table_of("code1") == "t1" and index.table_of("t2") is None
    index.changed("t1", summary("t1", private=True, invite="code1"), summary("t1", invite="code1"))
    assert index.table_of("code1") == "t1"  # made public: old links still open it
    index.changed("t1", summary("t1", invite="code1"), None)
    assert index.table_of("code1") is None  # closed
    index.reset({"t4": summary("t4", private=True, invite="code4"), "t5": summary("t5")})
    assert index.table_of("code4") == "t4" and index.table_of("code1") is None
