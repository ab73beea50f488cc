"""One card room on three nodes, one PostgreSQL and one Redis (issue 14): any node serves any client,
a table moves when its node dies or freezes, and Redis restarting loses no hand.

Four people play through different nodes. The checks are the card room's invariants: every hand is
stored once (its record numbers 1, 2, … for the table), every balance is its start plus its
settlement lines, and the lobby list is the same on every node.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from redis.asyncio import Redis
from sqlalchemy import text

from tests.cluster.conftest import NodeFactory, RedisProcess
from tests.live_server import LiveServer, audit_is_sound
from tests.server.players import Party, Player, state_of
from tuolaji.server.redis_link import key
from tuolaji.store.db import make_engine
from tuolaji.wire.nodes import SeatRef

FAST = {"deal_interval_ms": 0, "bid_window_seconds": 0.5, "review_seconds": 0, "turn_seconds": 60}
WAIT = 60.0


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float = WAIT, every: float = 0.1) -> None:
    """Wait (bounded) until ``check`` holds, asking again every ``every`` seconds."""
    async with asyncio.timeout(timeout):
        while not await check():
            await asyncio.sleep(every)


async def tables_on(node: LiveServer) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=node.url) as http:
        tables: list[dict[str, Any]] = (await http.get("/api/tables")).json()["tables"]
    return sorted(tables, key=lambda table: str(table["id"]))


async def same_lobby(nodes: list[LiveServer]) -> bool:
    lists = [await tables_on(node) for node in nodes]
    return all(lobby == lists[0] for lobby in lists) and bool(lists[0])


async def check_records(node: LiveServer, party: Party, hands: int) -> None:
    """Hands 1…``hands`` of the table stored once each; every balance adds up, and equals its ledger."""
    audit_is_sound(node.db_url)
    async with httpx.AsyncClient(base_url=node.url) as http:
        ids: set[int] = set()
        for player in party.players:
            listed = (await http.get(f"/api/accounts/{player.account_id}/hands", params={"limit": 100})).json()
            ids |= {hand["id"] for hand in listed["hands"]}
        records = [(await http.get(f"/api/hands/{hand_id}")).json()["hand"] for hand_id in sorted(ids)]
        accounts = [
            (await http.get(f"/api/accounts/{player.account_id}")).json()["account"] for player in party.players
        ]
    assert sorted(record["number"] for record in records)[:hands] == list(range(1, hands + 1))
    assert len({record["number"] for record in records}) == len(records)  # none stored twice
    for player, account in zip(party.players, accounts, strict=True):
        lines = [line for record in records for line in record["settlement"] if line["account_id"] == player.account_id]
        assert account["points"] == sum(line["points_delta"] for line in lines)
        assert account["silver"] == 1000 + sum(line["silver_delta"] for line in lines)
        assert account["hands_played"] == len(lines)


def tricks(party: Party) -> int:
    state = state_of(party.lead())
    return state["view"]["tricks_played"] if state is not None and state["view"] is not None else 0


async def test_four_players_on_three_nodes_play_a_hand(nodes: NodeFactory) -> None:
    a, b, c = nodes("a"), nodes("b"), nodes("c")
    party = Party([await Player.guest(node.url) for node in (a, b, c, c)])
    table_id = await party.seat(FAST)
    await eventually(lambda: same_lobby([a, b, c]))
    assert [table["id"] for table in await tables_on(b)] == [table_id]
    await party.until(party.hand_over(1), 120)
    await check_records(b, party, 1)
    await eventually(lambda: same_lobby([a, b, c]))
    [listed] = await tables_on(c)
    assert listed["hands_played"] >= 1 and [seat["kind"] for seat in listed["seats"]] == ["human"] * 4
    for player in party.players:  # nothing refused but a bid another bid overtook (R17–R18)
        assert player.client is not None
        assert [m["code"] for m in player.client.log if m["type"] == "error" and m["code"] != "bad_bid"] == []
    assert a.errors() + b.errors() + c.errors() == []


async def test_kill_9_of_the_owner_moves_the_table_and_the_hand_goes_on(nodes: NodeFactory) -> None:
    a, b, c = nodes("a"), nodes("b"), nodes("c")
    party = Party([await Player.guest(node.url) for node in (a, b, c, b)])
    await party.seat(FAST)  # created through a: a runs the table
    await party.until(lambda: tricks(party) >= 5, 120)
    killed = time.monotonic()
    a.kill()
    dead = party.players[0]
    welcome = await dead.connect(b.url)  # the client of the dead node comes back through another
    assert welcome["table"] is not None and welcome["seat"] == 0
    # Another node takes the table over from its log; everyone gets a full state from it.
    marks = [len(player.client.log) if player.client is not None else 0 for player in party.players]
    for player, mark in zip(party.players[1:], marks[1:], strict=True):
        assert player.client is not None
        player.client.cursor = mark
        await player.client.wait(lambda m: m["type"] == "state" and m["full"], timeout=30)
    resumed = time.monotonic() - killed
    assert resumed < 10, f"the table came back after {resumed:.1f} s"
    await eventually(lambda: _logged([b, c], "taken over from its log"))
    await party.until(party.hand_over(1), 120)
    await check_records(c, party, 1)
    assert b.errors() + c.errors() == []


async def test_a_frozen_node_cannot_write_again_and_gives_the_table_up(nodes: NodeFactory, postgres: str) -> None:
    lease = ("--lease-seconds", "2")
    a, b, c = nodes("a", *lease), nodes("b", *lease), nodes("c", *lease)
    party = Party([await Player.guest(node.url) for node in (a, b, c, b)])
    table_id = await party.seat(FAST)  # a runs the table; its creator then moves to c, so a has no client
    await party.players[0].connect(c.url)
    await party.until(lambda: tricks(party) >= 3, 120)
    os.kill(a.pid, signal.SIGSTOP)
    try:
        await eventually(lambda: _logged([b, c], "taken over from its log"))
        await party.until(lambda: tricks(party) >= 6, 120)
    finally:
        os.kill(a.pid, signal.SIGCONT)
    assert await asyncio.to_thread(a.logged, "giving it up")
    given_up = [record for record in a.records() if "giving it up" in record["event"]]  # the fencing loss
    assert given_up and all((record["table"], record["level"]) == (table_id, "warning") for record in given_up)
    await party.until(party.hand_over(1), 120)
    await check_records(b, party, 1)
    engine = make_engine(postgres)
    try:
        async with engine.connect() as connection:
            fence = (await connection.execute(text("SELECT fence FROM live_tables"))).scalar_one()
    finally:
        await engine.dispose()
    assert fence == 2  # one takeover: a's token (1) was refused from then on


async def test_redis_restarting_loses_no_hand(nodes: NodeFactory, redis_server: RedisProcess) -> None:
    a, b = nodes("a", redis=redis_server.url), nodes("b", redis=redis_server.url)
    party = Party([await Player.guest(node.url) for node in (a, b, a, b)])
    await party.seat(FAST)
    await party.until(lambda: tricks(party) >= 3, 120)
    redis_server.kill()

    async def health_is(status: int, *nodes: LiveServer) -> bool:
        async with httpx.AsyncClient() as http:
            codes = [(await http.get(node.url + "/api/health")).status_code for node in nodes]
        return all(code == status for code in codes)

    await eventually(lambda: health_is(503, a))
    assert await asyncio.to_thread(a.logged, "unreachable")
    redis_server.start()  # empty, as after a crash: leases, seats and the lobby are asserted again
    await eventually(lambda: health_is(200, a, b))
    down = a.records("Redis is unreachable: the tables here go on, new tables are refused")
    back = a.records("Redis answers again: this node is connected")
    assert down and all((record["level"], record["redis"]) == ("error", redis_server.url) for record in down)
    assert back and all(record["down_seconds"] > 0 and record["node"] == "a" for record in back)
    await party.until(party.hand_over(1), 180)
    await check_records(a, party, 1)
    await eventually(lambda: same_lobby([a, b]))


async def _logged(nodes: list[LiveServer], text: str) -> bool:
    return any(text in line for node in nodes for line in node.log)


async def test_a_seat_the_bus_names_at_a_table_that_closed_is_given_up(nodes: NodeFactory, redis_url: str) -> None:
    """A node's unseat write lost on the way (its Redis connection cut just as the table closed: issue
    48's chaos run) leaves the bus naming a closed table as an account's seat. The player's ``hello``
    is sent there, hears nothing from it, and is told it closed (``left``, ``closed``) instead of
    waiting for it for good; the stale seat is gone."""
    a, b = nodes("a"), nodes("b")
    player = await Player.guest(a.url)
    assert player.client is not None
    created = await player.client.request("create_table", options=FAST, seat=0)
    assert created["type"] == "ack"
    table_id = (await player.client.wait_type("table"))["table"]["id"]
    assert (await player.client.request("leave"))["type"] == "ack"  # nobody left: the table closes
    await player.client.wait(lambda m: m["type"] == "left" and m["table_id"] == table_id)
    redis = Redis.from_url(redis_url)
    try:
        await eventually(lambda: _unseated(redis, player.account_id))
        await redis.hset(key("seated"), str(player.account_id), SeatRef(table_id, 0).encode())  # the lost write
        welcome = await player.connect(b.url)
        assert (welcome["table"], welcome["seat"]) == (table_id, 0)
        assert player.client is not None
        left = await player.client.wait(lambda m: m["type"] == "left", timeout=20)
        assert (left["table_id"], left["reason"]) == (table_id, "closed")
        await eventually(lambda: _unseated(redis, player.account_id), timeout=10)
        assert (await player.connect(a.url))["table"] is None
    finally:
        await redis.aclose()
    assert a.errors() + b.errors() == []


async def _unseated(redis: Redis, account_id: int) -> bool:
    return await redis.hget(key("seated"), str(account_id)) is None
