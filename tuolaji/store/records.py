"""Hand records and settlement: one transaction writes a finished hand and moves the balances (R39–R43).

A record holds the round's setup and action list (``tuolaji.game.actions.action_to_json``), which is
enough to replay the hand exactly with ``Round.replay``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from tuolaji.game.options import TableOptions
from tuolaji.game.settlement import Balance, Change, apply_change, is_ranked, rank_title, settle, wealth_title
from tuolaji.game.view import RoundResult
from tuolaji.room.effects import HandSeat
from tuolaji.store.accounts import AccountData
from tuolaji.store.db import Database
from tuolaji.store.ledger import Cause, ledger_values
from tuolaji.store.models import Account, Hand, HandPlayer, LedgerLine


@dataclass(frozen=True)
class HandWrite:
    """Everything stored about a finished hand (not a redeal)."""

    table_id: str
    number: int
    seed: int
    options: dict[str, Any]
    setup: dict[str, Any]
    actions: list[dict[str, Any]]
    result: RoundResult
    seats: Sequence[HandSeat]
    started_at: datetime
    private: bool = False


@dataclass(frozen=True)
class Settled:
    """What :func:`settle_hand` did: the record id, one settlement line per seat, updated accounts by
    seat, and the change it made to each seated account's balance (none when read back from a record)."""

    hand_id: int
    lines: list[dict[str, Any]]
    accounts: dict[int, AccountData]
    changes: tuple[Change, ...] = ()


def _title(points: int, silver: int) -> dict[str, Any]:
    rank, point_base = rank_title(points)
    wealth, silver_base = wealth_title(silver)
    return {"rank": {"title": rank, "base": point_base}, "wealth": {"title": wealth, "base": silver_base}}


async def record_hand(db: Database, hand: HandWrite) -> Settled:
    """Settle ``hand`` (R39–R43) and store its record, in a transaction of its own."""
    async with db.writing("a hand recorded"), db.sessions.begin() as session:
        return await settle_hand(session, hand)


_ACCOUNTS = cast(Table, Account.__table__)
_HANDS = cast(Table, Hand.__table__)
_HAND_PLAYERS = cast(Table, HandPlayer.__table__)
_LEDGER = cast(Table, LedgerLine.__table__)
_LOCK_ACCOUNTS = (
    select(
        _ACCOUNTS.c.id,
        _ACCOUNTS.c.nickname,
        _ACCOUNTS.c.guest,
        _ACCOUNTS.c.points,
        _ACCOUNTS.c.silver,
        _ACCOUNTS.c.hands_played,
        _ACCOUNTS.c.hands_won,
    )
    .where(_ACCOUNTS.c.id.in_(bindparam("ids", expanding=True)))
    .with_for_update()
)
_NEW_BALANCE = (
    update(_ACCOUNTS)
    .where(_ACCOUNTS.c.id == bindparam("account"))
    .values(
        points=bindparam("points_after"),
        silver=bindparam("silver_after"),
        hands_played=bindparam("played"),
        hands_won=bindparam("won_count"),
    )
)


async def settle_hand(session: AsyncSession, hand: HandWrite) -> Settled:
    """Settle ``hand`` (R39–R43) and store its record within ``session``'s transaction (the caller
    commits; a table's log write does it in the transaction that closes the live hand): :func:`settle_in`."""
    connection = await session.connection()
    return await connection.run_sync(settle_in, hand)


def settle_in(connection: Connection, hand: HandWrite) -> Settled:
    """Settle ``hand`` (R39–R43) and store its record within ``connection``'s transaction, which the
    caller began and commits: the one settlement, whether through the async engine
    (:func:`settle_hand`) or on the SQLite table log's own connection, where a batch's rows and its
    hands are one transaction written at once (``tuolaji.store.sqlitelog.SqliteRows.settle_now``).

    Bots have no balance: their seats neither pay nor receive (R40, docs/RULES-NOTES.md, Economy)
    and nothing of theirs is stored. The rows go in a few Core statements (the accounts locked and
    read, the record, their new balances, the players' rows and the ledger's lines), not through the
    ORM's unit of work: every finished hand pays this, on the log's one writer.
    """
    ids = [seat.account_id for seat in hand.seats if seat.account_id is not None]
    found = {
        row.id: AccountData(row.id, row.nickname, row.guest, row.points, row.silver, row.hands_played, row.hands_won)
        for row in connection.execute(_LOCK_ACCOUNTS, {"ids": ids})
    }
    lines, paid = _settlement(hand, found)
    hand_id = int(connection.execute(insert(_HANDS).returning(_HANDS.c.id), [_hand_row(hand, lines)]).scalar_one())
    rows = _Rows.of(hand_id, hand.result, paid)
    if paid:
        connection.execute(_NEW_BALANCE, rows.balances)
        connection.execute(insert(_HAND_PLAYERS), rows.players)
    if rows.ledger:
        connection.execute(insert(_LEDGER), rows.ledger)
    changes = tuple(Change(row["points_delta"], row["silver_delta"]) for row in rows.players)
    return Settled(hand_id, lines, rows.accounts, changes)


_Paid = tuple[HandSeat, AccountData, Balance]
"""A seat whose account pays or receives: its account before the hand, and its balance after."""


def _settlement(hand: HandWrite, found: dict[int, AccountData]) -> tuple[list[dict[str, Any]], list[_Paid]]:
    """The settlement lines of ``hand`` (R39–R43) for the seated accounts ``found`` (by id), and the
    seats whose balances it moves."""
    result = hand.result
    balances: list[Balance | None] = [
        Balance(found[seat.account_id].points, found[seat.account_id].silver) if seat.account_id in found else None
        for seat in hand.seats
    ]
    people = [seat.account_id in found and not found[seat.account_id].guest for seat in hand.seats]
    ranked = is_ranked(result, TableOptions.from_json(hand.options), people)
    changes = settle(result, balances, ranked=ranked)
    lines: list[dict[str, Any]] = []
    paid: list[_Paid] = []
    for seat, balance, change in zip(hand.seats, balances, changes, strict=True):
        account = found.get(seat.account_id) if seat.account_id is not None else None
        if account is None or balance is None:
            lines.append({**seat.to_json(), "points_delta": 0, "silver_delta": 0, **_NO_BALANCE, "ranked": ranked})
            continue
        after = apply_change(balance, change)
        lines.append({**_line(seat, balance, after), "ranked": ranked})
        paid.append((seat, account, after))
    return lines, paid


@dataclass
class _Rows:
    """What a settlement writes besides the record: the ledger's lines, the players' rows, the
    accounts' new balances and counts, and the accounts as they are after it (by seat)."""

    ledger: list[dict[str, Any]]
    players: list[dict[str, Any]]
    balances: list[dict[str, Any]]
    accounts: dict[int, AccountData]

    @classmethod
    def of(cls, hand_id: int, result: RoundResult, paid: list[_Paid]) -> _Rows:
        rows = cls([], [], [], {})
        cause: Cause = "escape" if result.escaped is not None else "hand"
        for seat, account, after in paid:
            won = result.winning_team is not None and seat.seat % 2 == result.winning_team
            defending = result.dealer is not None and seat.seat % 2 == result.dealer % 2
            points, silver = after.points - account.points, after.silver - account.silver
            if points or silver:
                before = (account.points, account.silver)
                rows.ledger.append(ledger_values(account.id, before, cause, points, silver, hand_id=hand_id))
            rows.players.append(
                {
                    "hand_id": hand_id,
                    "seat": seat.seat,
                    "account_id": account.id,
                    "points_delta": points,
                    "silver_delta": silver,
                    "won": won,
                    "defending": defending,
                }
            )
            now = replace(
                account,
                points=after.points,
                silver=after.silver,
                hands_played=account.hands_played + 1,
                hands_won=account.hands_won + int(won),
            )
            rows.balances.append(
                {
                    "account": now.id,
                    "points_after": now.points,
                    "silver_after": now.silver,
                    "played": now.hands_played,
                    "won_count": now.hands_won,
                }
            )
            rows.accounts[seat.seat] = now
        return rows


_NO_BALANCE: dict[str, Any] = {"points": None, "silver": None, "rank": None, "wealth": None}
"""A bot's settlement line shows no balance."""


def _hand_row(hand: HandWrite, lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``hands`` row of ``hand``, with its settlement ``lines``."""
    return {
        "table_id": hand.table_id,
        "number": hand.number,
        "seed": str(hand.seed),
        "options": hand.options,
        "setup": hand.setup,
        "actions": hand.actions,
        "result": hand.result.to_json(),
        "seats": [seat.to_json() for seat in hand.seats],
        "settlement": lines,
        "started_at": hand.started_at,
        "private": hand.private,
    }


def _line(seat: HandSeat, balance: Balance, after: Balance) -> dict[str, Any]:
    """``seat``'s settlement line: its balance moved from ``balance`` to ``after``."""
    return {
        **seat.to_json(),
        "points_delta": after.points - balance.points,
        "silver_delta": after.silver - balance.silver,
        "points": after.points,
        "silver": after.silver,
        **_title(after.points, after.silver),
    }


async def stored_hand(session: AsyncSession, table_id: str, number: int) -> Settled | None:
    """What storing hand ``number`` of ``table_id`` did, if it is stored (a table restored while its
    hand was being settled)."""
    row = (
        await session.execute(select(Hand).where(Hand.table_id == table_id, Hand.number == number))
    ).scalar_one_or_none()
    if row is None:
        return None
    ids = [line["account_id"] for line in row.settlement if line.get("account_id") is not None]
    accounts = {
        account.id: AccountData.of(account)
        for account in (await session.execute(select(Account).where(Account.id.in_(ids)))).scalars()
    }
    by_seat = {
        line["seat"]: accounts[line["account_id"]] for line in row.settlement if line.get("account_id") in accounts
    }
    return Settled(row.id, list(row.settlement), by_seat)


def _iso(moment: datetime) -> str:
    return moment.isoformat()


def hand_to_json(row: Hand) -> dict[str, Any]:
    """The protocol's ``HandRecord``."""
    return {
        "id": row.id,
        "table_id": row.table_id,
        "number": row.number,
        "seed": int(row.seed),
        "options": row.options,
        "setup": row.setup,
        "actions": row.actions,
        "result": row.result,
        "seats": row.seats,
        "settlement": row.settlement,
        "started_at": _iso(row.started_at),
        "finished_at": _iso(row.finished_at),
        "private": row.private,
    }


def players_of(record: dict[str, Any]) -> set[int]:
    """The account ids seated in a ``HandRecord`` (bots have none)."""
    return {seat["account_id"] for seat in record["seats"] if isinstance(seat.get("account_id"), int)}


async def get_hand(db: Database, hand_id: int) -> dict[str, Any] | None:
    """A stored hand's record, or None."""
    async with db.sessions() as session:
        row = await session.get(Hand, hand_id)
    return None if row is None else hand_to_json(row)


async def hands_of(db: Database, account_id: int, limit: int = 20, before: int | None = None) -> list[dict[str, Any]]:
    """An account's hands, newest first, as ``HandSummary`` objects (docs/PROTOCOL.md §1); a hand of
    a private table is listed without its table's id."""
    query = (
        select(Hand, HandPlayer)
        .join(HandPlayer, HandPlayer.hand_id == Hand.id)
        .where(HandPlayer.account_id == account_id)
        .order_by(Hand.id.desc())
        .limit(limit)
    )
    if before is not None:
        query = query.where(Hand.id < before)
    async with db.sessions() as session:
        rows = (await session.execute(query)).all()
    return [
        {
            "id": hand.id,
            "table_id": None if hand.private else hand.table_id,
            "private": hand.private,
            "number": hand.number,
            "finished_at": _iso(hand.finished_at),
            "seat": player.seat,
            "result": hand.result,
            "points_delta": player.points_delta,
            "silver_delta": player.silver_delta,
            "won": player.won,
        }
        for hand, player in rows
    ]
