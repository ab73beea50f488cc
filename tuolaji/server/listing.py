"""What the lobby list shows of a table, and which table an invite code opens.

Every node hears every table's summary (through the bus), private tables' included: it needs them to
find a table by its invite code. The lobby list (``lobby``, ``lobby_table``, ``GET /api/tables``)
shows public tables only, and never an invite code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def listing(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    """The lobby list's entry for a table's ``summary``: None for a private table, else the summary
    with ``invite`` null (a table made public keeps its code for the links already sent)."""
    if summary is None or summary.get("private"):
        return None
    return {**summary, "invite": None} if summary.get("invite") is not None else summary


class InviteIndex:
    """Invite code → table id, kept from the tables' summaries."""

    def __init__(self) -> None:
        self._tables: dict[str, str] = {}

    def changed(self, table_id: str, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> None:
        """A table's summary went from ``before`` to ``after`` (None: unknown, or closed)."""
        old = before.get("invite") if before is not None else None
        if isinstance(old, str) and self._tables.get(old) == table_id:
            del self._tables[old]
        new = after.get("invite") if after is not None else None
        if isinstance(new, str):
            self._tables[new] = table_id

    def reset(self, summaries: Mapping[str, Mapping[str, Any]]) -> None:
        """Every table's summary anew (the bus reconnected)."""
        self._tables.clear()
        for table_id, summary in summaries.items():
            self.changed(table_id, None, summary)

    def table_of(self, code: str) -> str | None:
        """The open table whose invite code is ``code``, if any."""
        return self._tables.get(code)


def invitation(summary: Mapping[str, Any]) -> dict[str, Any]:
    """What an invite link's landing page shows before sign-in (``GET /api/invites/{code}``): the
    table's ``number`` and the ``inviter``'s nickname: the table's creator if seated there, else the
    first person seated (None if nobody is). Nothing else of the table: no id, no cards, no code."""
    people = [seat["account"] for seat in summary.get("seats", []) if seat.get("account")]
    creator = [account for account in people if account.get("id") == summary.get("creator")]
    inviter = (creator or people or [None])[0]
    return {"number": summary.get("number", 0), "inviter": inviter["nickname"] if inviter else None}
