"""快速開始 scenarios against running servers: each takes the nodes' URLs (one node, or several that
share a Redis) and plays people who queue through them, answer, sit down, leave or vanish.

A person is a :class:`~tests.server.wsclient.Client`; ``seated`` answers the ``match_found`` and
waits for the full table. Every scenario ends with its people leaving their tables, so no table
plays on behind the next one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from sqlalchemy import text

from tests.server.wsclient import Client, Message
from tuolaji.store.db import make_engine

WAIT = 30.0
FULL = 4
SERVER_ARGS = ("--guests-per-hour", "0", "--account-rate", "0", "--max-connections-per-address", "0")
"""Many guests from one address (the tests' loopback)."""


def node(urls: Sequence[str], index: int) -> str:
    """The node a person connects through: round robin over ``urls``."""
    return urls[index % len(urls)]


async def people(urls: Sequence[str], count: int, first: int = 0) -> list[Client]:
    """``count`` new guests, connected through the nodes in turn."""
    return list(await asyncio.gather(*(Client.open(node(urls, first + index)) for index in range(count))))


async def set_points(db_url: str, points: dict[int, int]) -> None:
    """Give accounts their 積分 (their rank titles follow, §13) before they connect again."""
    engine = make_engine(db_url)
    try:
        async with engine.begin() as connection:
            for account, value in points.items():
                await connection.execute(
                    text("UPDATE accounts SET points = :points WHERE id = :id"), {"points": value, "id": account}
                )
    finally:
        await engine.dispose()


async def queue(client: Client, **fields: Any) -> Message:
    """Queue for a quick match (accepted); the ``match_status`` that answers. The cursor stays before
    it: a ``match_found`` may come first (another node may match the person before this one says
    where they queue)."""
    mark = len(client.log)
    client.cursor = max(client.cursor, mark)
    answer = await client.request("quick_match", **fields)
    assert answer["type"] == "ack", answer
    await client.wait(lambda m: m["type"] == "match_status")
    client.cursor = mark
    return next(m for m in client.log[mark:] if m["type"] == "match_status")


def full_table(message: Message) -> bool:
    return message["type"] == "table" and all(seat["kind"] != "empty" for seat in message["table"]["seats"])


async def seated(client: Client, timeout: float = WAIT) -> Message:
    """Answer the next ``match_found`` and wait until the table is full; that ``table`` message."""
    found = await client.wait(lambda m: m["type"] == "match_found", timeout)
    answer = await client.request("accept_match", match=found["match"])
    assert answer["type"] == "ack", answer
    return await client.wait(full_table, timeout)


def seat_of(table: Message, account_id: int) -> int:
    """The seat ``account_id`` has at the table of a ``table`` message."""
    [seat] = [s["seat"] for s in table["table"]["seats"] if s["account"] and s["account"]["id"] == account_id]
    return int(seat)


async def leave_all(clients: Sequence[Client]) -> None:
    """Everyone leaves their table (the first of a table escapes, R43) and closes."""
    for client in clients:
        if not client.closed:
            await client.send("leave")
    for client in clients:
        if not client.closed:
            await client.close()


async def lobby_counts(client: Client, preset: str, kind: str, players: int) -> None:
    """Wait until ``client``'s lobby shows ``players`` queueing for ``preset`` and ``kind``."""

    def shows(message: Message) -> bool:
        return message["type"] == "lobby_queues" and any(
            q["preset"] == preset and q["illegal_follow"] == kind and q["players"] == players for q in message["queues"]
        )

    await client.wait(shows, WAIT)


async def eight_people_make_two_tables(urls: Sequence[str]) -> None:
    """Eight people queue through the nodes for one queue: two full tables of people, each of the
    preset and kind asked, every person at exactly one."""
    clients = await people(urls, 8)
    for client in clients:
        status = await queue(client, preset="guigang", illegal_follow="reject")
        assert status["queue"]["preset"] == "guigang" and status["queue"]["size"] >= 1
    tables = await asyncio.gather(*(seated(client) for client in clients))
    ids = {table["table"]["id"] for table in tables}
    assert len(ids) == 2
    for client, table in zip(clients, tables, strict=True):
        assert [seat["kind"] for seat in table["table"]["seats"]] == ["human"] * FULL
        assert table["table"]["options"]["preset"] == "guigang"
        assert table["table"]["options"]["illegal_follow"] == "reject"
        assert table["seat"] == seat_of(table, client.account["id"])
    by_table: dict[str, set[int]] = {}
    for table in tables:
        by_table.setdefault(table["table"]["id"], set()).update(
            seat["account"]["id"] for seat in table["table"]["seats"]
        )
    assert sorted(len(accounts) for accounts in by_table.values()) == [FULL, FULL]
    assert set.union(*by_table.values()) == {client.account["id"] for client in clients}
    await leave_all(clients)


async def ranks_far_apart_sit_apart(urls: Sequence[str], db_url: str) -> None:
    """Four 布衣 and four 御史 (§13: ten titles apart) queue together: two tables, each of one rank (the
    rank the account has when it queues: these got their 積分 after they connected)."""
    clients = await people(urls, 8, first=1)
    await set_points(db_url, {c.account["id"]: (0 if index % 2 else 21_400) for index, c in enumerate(clients)})
    for client in clients:
        await queue(client, preset="nanning", illegal_follow="laogai")
    tables = await asyncio.gather(*(seated(client) for client in clients))
    for table in tables:
        ranks = {seat["account"]["rank"] for seat in table["table"]["seats"]}
        assert ranks in ({"布衣"}, {"御史"}), table["table"]["seats"]
    await leave_all(clients)


async def partners_sit_opposite(urls: Sequence[str]) -> None:
    """Two people queue as partners (the second brings the first's code) and two alone: the partners
    sit opposite each other (seats 0 and 2, or 1 and 3: one team, R4)."""
    first, second, *others = await people(urls, 4, first=2)
    status = await queue(first, preset="fourdeck", pair=True)
    code = status["queue"]["pair_code"]
    assert code and status["queue"]["partner"] is None
    joined = await queue(second, partner=code)
    assert joined["queue"]["partner"]["id"] == first.account["id"] and joined["queue"]["preset"] == "fourdeck"
    told = await first.wait(lambda m: m["type"] == "match_status" and m["queue"]["partner"] is not None)
    assert told["queue"]["partner"]["id"] == second.account["id"] and told["queue"]["pair_code"] is None
    for client in others:
        await queue(client, preset="fourdeck")
    tables = await asyncio.gather(*(seated(client) for client in (first, second, *others)))
    table = tables[0]
    seats = {seat_of(table, first.account["id"]), seat_of(table, second.account["id"])}
    assert seats in ({0, 2}, {1, 3})
    await leave_all([first, second, *others])


async def one_vanishes_before_the_seats(urls: Sequence[str]) -> None:
    """Four are matched; one closes its connection instead of answering. The others go back to the
    front of the queue (told ``requeued``), the one who vanished leaves it, and a fifth person makes
    the table full; no table is left waiting for the one who vanished."""
    clients = await people(urls, 4, first=3)
    for client in clients:
        await queue(client, preset="nanning", illegal_follow="reject")
    found = [await client.wait(lambda m: m["type"] == "match_found") for client in clients]
    gone, *stay = clients
    await gone.close()
    for client, message in zip(stay, found[1:], strict=True):
        assert (await client.request("accept_match", match=message["match"]))["type"] == "ack"
    for client in stay:
        back = await client.wait(lambda m: m["type"] == "match_status" and m["queue"]["requeued"], WAIT)
        assert back["queue"]["preset"] == "nanning"
    [fifth] = await people(urls, 1, first=7)
    await queue(fifth, preset="nanning", illegal_follow="reject")
    tables = await asyncio.gather(*(seated(client) for client in (*stay, fifth)))
    assert len({table["table"]["id"] for table in tables}) == 1
    accounts = {seat["account"]["id"] for seat in tables[0]["table"]["seats"]}
    assert gone.account["id"] not in accounts
    back_again = await Client.open(node(urls, 0), token=gone.token)
    welcome = back_again.latest("welcome")
    assert welcome is not None and welcome["queue"] is None and welcome["table"] is None
    await leave_all([*stay, fifth, back_again])


async def cancel_leaves_every_node(urls: Sequence[str]) -> None:
    """A person queues through one node: every node's lobby counts them; they cancel: every node's
    lobby counts nobody, and they are not matched."""
    watchers = await people(urls, len(urls), first=0)
    for watcher in watchers:
        await watcher.request("lobby", on=True)
    [person] = await people(urls, 1, first=1)
    await queue(person, preset="fourdeck", illegal_follow="reject")
    for watcher in watchers:
        await lobby_counts(watcher, "fourdeck", "reject", 1)
    assert (await person.request("cancel_match"))["type"] == "ack"
    cancelled = await person.wait(lambda m: m["type"] == "match_cancelled")
    assert cancelled["reason"] == "cancelled"
    for watcher in watchers:
        await lobby_counts(watcher, "fourdeck", "reject", 0)
    refused = await person.request("cancel_match")
    assert refused["type"] == "error" and refused["code"] == "not_queued"
    await leave_all([*watchers, person])


async def queued_through_a_dead_node_are_served_by_another(urls: Sequence[str], kill: Any) -> None:
    """Three people queue through the first node, which is killed (``kill``: kill -9 by its PID); they
    come back through another node with their places (the ``welcome`` says so: they keep their
    wait), a fourth queues through a third node, and the four sit down together."""
    dead, alive, third = urls[0], urls[1], urls[2]
    clients = [await Client.open(dead) for _ in range(3)]
    for client in clients:
        await queue(client, preset="guigang", illegal_follow="laogai", bots_after=None)
    watcher = await Client.open(alive)
    await watcher.request("lobby", on=True)
    await lobby_counts(watcher, "guigang", "laogai", 3)
    kill()
    back = [await Client.open(alive, token=client.token) for client in clients]
    for client in back:
        welcome = client.latest("welcome")
        assert welcome is not None and welcome["queue"] is not None, welcome
        assert welcome["queue"]["preset"] == "guigang" and welcome["queue"]["waited_ms"] > 0
    [fourth] = await people([third], 1)
    await queue(fourth, preset="guigang", illegal_follow="laogai")
    tables = await asyncio.gather(*(seated(client) for client in (*back, fourth)))
    assert len({table["table"]["id"] for table in tables}) == 1
    await leave_all([*back, fourth, watcher])
