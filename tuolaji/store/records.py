"""Hand records and settlement: one transaction writes a finished hand and moves the balances (R39–R43).

A record holds the round's setup and action list (``tuolaji.game.actions.action_to_json``), which is
enough to replay the hand exactly with ``Round.replay``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tuolaji.game.options import TableOptions
from tuolaji.game.settlement import Balance, Change, apply_change, is_ranked, rank_title, settle, wealth_title
from tuolaji.game.view import RoundResult
from tuolaji.room.effects import HandSeat
from tuolaji.store.accounts import AccountData
from tuolaji.store.db import Database
from tuolaji.store.ledger import Cause, post
from tuolaji.store.models import Account, Hand, HandPlayer


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
    async with db.writing(), db.sessions.begin() as session:
        return await settle_hand(session, hand)


async def settle_hand(session: AsyncSession, hand: HandWrite) -> Settled:
    """Settle ``hand`` (R39–R43) and store its record within ``session``'s transaction (the caller
    commits; a table's log write does it in the transaction that closes the live hand).

    Bots have no balance: their seats neither pay nor receive (R40, docs/RULES-NOTES.md, Economy)
    and nothing of theirs is stored.
    """
    result = hand.result
    ids = [seat.account_id for seat in hand.seats if seat.account_id is not None]
    rows = {
        row.id: row
        for row in (await session.execute(select(Account).where(Account.id.in_(ids)).with_for_update())).scalars()
    }
    balances: list[Balance | None] = [
        Balance(rows[seat.account_id].points, rows[seat.account_id].silver) if seat.account_id in rows else None
        for seat in hand.seats
    ]
    people = [seat.account_id in rows and not rows[seat.account_id].guest for seat in hand.seats]
    ranked = is_ranked(result, TableOptions.from_json(hand.options), people)
    changes = settle(result, balances, ranked=ranked)
    record = _hand_row(hand)
    session.add(record)
    await session.flush()
    lines: list[dict[str, Any]] = []
    accounts: dict[int, AccountData] = {}
    moved: list[Change] = []
    for seat, balance, change in zip(hand.seats, balances, changes, strict=True):
        row = rows.get(seat.account_id) if seat.account_id is not None else None
        if row is None or balance is None:
            lines.append({**seat.to_json(), "points_delta": 0, "silver_delta": 0, **_NO_BALANCE, "ranked": ranked})
            continue
        line, player = _settle_seat(session, record.id, seat, row, (balance, apply_change(balance, change)), result)
        line["ranked"] = ranked
        lines.append(line)
        accounts[seat.seat] = AccountData.of(row)
        moved.append(Change(player.points_delta, player.silver_delta))
        session.add(player)
    record.settlement = lines
    return Settled(record.id, lines, accounts, tuple(moved))


_NO_BALANCE: dict[str, Any] = {"points": None, "silver": None, "rank": None, "wealth": None}
"""A bot's settlement line shows no balance."""


def _hand_row(hand: HandWrite) -> Hand:
    """The record of ``hand`` (its settlement lines are filled in once settled)."""
    return Hand(
        table_id=hand.table_id,
        number=hand.number,
        seed=str(hand.seed),
        options=hand.options,
        setup=hand.setup,
        actions=hand.actions,
        result=hand.result.to_json(),
        seats=[seat.to_json() for seat in hand.seats],
        settlement=[],
        started_at=hand.started_at,
        private=hand.private,
    )


def _settle_seat(
    session: AsyncSession,
    hand_id: int,
    seat: HandSeat,
    row: Account,
    change: tuple[Balance, Balance],
    result: RoundResult,
) -> tuple[dict[str, Any], HandPlayer]:
    """Move ``row``'s balance from ``change[0]`` to ``change[1]`` through the ledger and count the
    hand; the seat's settlement line and its ``hand_players`` row."""
    balance, after = change
    won = result.winning_team is not None and seat.seat % 2 == result.winning_team
    defending = result.dealer is not None and seat.seat % 2 == result.dealer % 2
    cause: Cause = "escape" if result.escaped is not None else "hand"
    if after != balance:
        post(session, row, cause, after.points - balance.points, after.silver - balance.silver, hand_id=hand_id)
    row.hands_played += 1
    row.hands_won += int(won)
    line: dict[str, Any] = {
        **seat.to_json(),
        "points_delta": after.points - balance.points,
        "silver_delta": after.silver - balance.silver,
        "points": after.points,
        "silver": after.silver,
        **_title(after.points, after.silver),
    }
    player = HandPlayer(
        hand_id=hand_id,
        seat=seat.seat,
        account_id=row.id,
        points_delta=line["points_delta"],
        silver_delta=line["silver_delta"],
        won=won,
        defending=defending,
    )
    return line, player


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
