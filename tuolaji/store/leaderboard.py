"""Leaderboards: the top registered accounts by 積分 or by 銀子 (RULES.md §13), and an account's place.

Guests are never ranked. Accounts are in board order (most first; equal ones by account id, the
older first), read from the indexes ``ix_accounts_board_points`` / ``ix_accounts_board_silver`` on
(guest, value DESC, id): a page is a short index scan, and a place is a count over the index only,
never a scan of the table. Equal values share a place (1, 2, 2, 4): an account's place is one more
than the number of registered accounts with more.
"""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import ColumnElement, Select, false, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from tuolaji.store.accounts import AccountData
from tuolaji.store.db import Database
from tuolaji.store.models import Account

BOARDS: Final = ("points", "silver")
"""The boards, by the account field they rank."""
PAGE_SIZE: Final = 20
TOP: Final = 100
"""Only the top 100 are listed."""
PAGES: Final = TOP // PAGE_SIZE


def _column(board: str) -> InstrumentedAttribute[int]:
    if board not in BOARDS:
        raise ValueError(f"unknown leaderboard {board!r}: one of {', '.join(BOARDS)}")
    column: InstrumentedAttribute[int] = Account.points if board == "points" else Account.silver
    return column


def _registered() -> ColumnElement[bool]:
    return Account.guest == false()


def above_query(board: str, value: int) -> Select[int]:
    """How many registered accounts have more than ``value`` on ``board`` (a count over the index)."""
    return select(func.count()).select_from(Account).where(_registered(), _column(board) > value)


def page_query(board: str, page: int) -> Select[Account]:
    """The accounts of page ``page`` (1…:data:`PAGES`) of ``board``, in order (a short index scan)."""
    if not 1 <= page <= PAGES:
        raise ValueError(f"leaderboard page {page}: pages are 1…{PAGES}")
    column = _column(board)
    offset = (page - 1) * PAGE_SIZE
    return select(Account).where(_registered()).order_by(column.desc(), Account.id).offset(offset).limit(PAGE_SIZE)


async def _above(session: AsyncSession, board: str, value: int) -> int:
    return int((await session.execute(above_query(board, value))).scalar_one())


async def board_page(db: Database, board: str, page: int) -> list[dict[str, Any]]:
    """Page ``page`` (1…:data:`PAGES`) of ``board``: ``{"place", "account": Account}`` in order."""
    query = page_query(board, page)
    offset = (page - 1) * PAGE_SIZE
    async with db.sessions() as session:
        rows = list((await session.execute(query)).scalars())
        if not rows:
            return []
        place = 1 if offset == 0 else 1 + await _above(session, board, getattr(rows[0], board))
    entries = []
    for index, row in enumerate(rows):
        if index and getattr(row, board) != getattr(rows[index - 1], board):
            place = offset + index + 1
        entries.append({"place": place, "account": AccountData.of(row).to_json()})
    return entries


async def place_of(db: Database, board: str, account: AccountData) -> int | None:
    """``account``'s place on ``board`` (None for a guest: guests are not ranked)."""
    if account.guest:
        return None
    async with db.sessions() as session:
        return 1 + await _above(session, board, getattr(account, board))
