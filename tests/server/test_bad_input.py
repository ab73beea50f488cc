"""Bad input never crashes the server or stops a game: each gets an ``error`` with a code (issue 3)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from websockets.exceptions import ConnectionClosed

from tests.live_server import LiveServer
from tests.server.scenario import close_all, drive, four_at_table, got, in_play, latest_view, wait_state, wrong_follow
from tests.server.wsclient import Client, Message
from tuolaji.cards import KINDS, format_card

OPTIONS = {
    "deal_interval_ms": 0,
    "bid_window_seconds": 0.5,
    "review_seconds": 0,
    "turn_seconds": 60,
    "illegal_follow": "reject",
}


async def refused(client: Client, frame: str | bytes) -> Message:
    """Send a raw frame and return the error it causes."""
    await client.send_raw(frame)
    return await client.wait(lambda item: item["type"] == "error")


def raw(**fields: Any) -> str:
    return json.dumps(fields)


async def test_before_hello(live_server: LiveServer) -> None:
    client = await Client.open(live_server.url, hello=False)
    try:
        error = await refused(client, raw(v=2, type="play", cards=["AS"]))
        assert error["code"] == "auth_required"
        error = await refused(client, raw(v=2, type="hello", token="nope"))
        assert error["code"] == "bad_token"
        error = await refused(client, raw(v=2, type="hello", token=""))
        assert error["code"] == "bad_token"
        welcome = await client.request("hello", token=client.token)
        assert welcome["type"] == "ack"
    finally:
        await client.close()


async def test_bad_messages_and_moves_leave_the_game_going(live_server: LiveServer) -> None:
    clients, table_id = await four_at_table(live_server.url, OPTIONS)
    try:
        for client in clients:
            await drive(client, lambda c: c.latest("state") is not None and in_play(c), timeout=20)
        state = await wait_state(clients[0], lambda view: view["phase"] == "playing")
        mover_seat = state["view"]["to_move"]
        mover, other = clients[mover_seat], clients[(mover_seat + 1) % 4]

        assert (await refused(other, "not json{"))["code"] == "bad_json"
        assert (await refused(other, "[1, 2]"))["code"] == "bad_message"
        assert (await refused(other, raw(v=2, type="dance")))["code"] == "unknown_type"
        assert (await refused(other, raw(type="ping")))["code"] == "bad_message"
        assert (await refused(other, raw(v=1, type="ping")))["code"] == "bad_message"
        assert (await refused(other, raw(v=2, type="ping", extra=1)))["code"] == "bad_message"
        assert (await refused(other, raw(v=2, type="bid", suit="X", count=1)))["code"] == "bad_message"
        assert (await refused(other, raw(v=2, type="bid", suit="S")))["code"] == "bad_message"
        assert (await refused(other, raw(v=2, type="play", cards=["ZZ"])))["code"] == "bad_card"
        assert (await refused(other, raw(v=2, type="play", cards=[])))["code"] == "bad_message"
        assert (await refused(other, raw(v=2, type="join", table=table_id, seat=9)))["code"] == "bad_message"
        assert (await refused(other, raw(v=2, type="join", table=table_id, seat=1)))["code"] == "already_seated"
        assert (await refused(other, raw(v=2, type="watch", table="nope")))["code"] == "no_table"
        assert (await refused(other, raw(v=2, type="start")))["code"] == "not_ready_state"
        assert (await refused(other, raw(v=2, type="remove_bot", seat=0)))["code"] == "seat_empty"
        assert (await refused(other, b"\x00\x01"))["code"] == "bad_message"
        too_big = await refused(other, raw(v=2, type="ping", id="x" * 20_000))
        assert too_big["code"] == "too_large"
        assert (await other.request("ping"))["type"] == "pong"  # the connection is still open

        mover_view = latest_view(mover)
        assert mover_view["to_move"] == mover_seat
        wrong_turn = await other.request("play", cards=[latest_view(other)["hand"][0]])
        assert wrong_turn["code"] == "not_your_turn" and wrong_turn["rule"] == "R21"
        missing = next(format_card(kind) for kind in range(KINDS) if format_card(kind) not in mover_view["hand"])
        not_held = await mover.request("play", cards=[missing])
        assert not_held["code"] == "cards_not_held" and not_held["rule"] == "R22"

        # R30 (reject mode): a wrong follow is refused with the rule it breaks; then play goes on.
        assert (await mover.request("play", cards=mover_view["hint"]))["type"] == "ack"
        follow_view = (await wait_state(other, lambda view: view["to_move"] == view["seat"] and view["trick"]))["view"]
        cards = wrong_follow(follow_view)
        if cards is not None:
            illegal = await other.request("play", cards=cards)
            assert illegal["code"] == "illegal_follow" and illegal["rule"] in ("R23", "R24"), illegal

        await asyncio.gather(*(drive(client, got("hand_end")) for client in clients))
        assert all(client.latest("hand_end") is not None for client in clients)
    finally:
        await close_all(clients)
    assert live_server.errors() == []


async def test_flood_is_rate_limited_then_closed(live_server: LiveServer) -> None:
    flooder = await Client.open(live_server.url)
    bystander = await Client.open(live_server.url)
    try:
        for _ in range(1000):
            await flooder.send_raw(raw(v=2, type="ping"))
        await flooder.wait(lambda item: item["type"] == "error" and item["code"] == "rate_limited")
        assert await flooder.closed_with() == 1008
        pongs = sum(1 for item in flooder.log if item["type"] == "pong")
        assert 1 <= pongs < 1000
        assert (await bystander.request("ping"))["type"] == "pong"
    finally:
        await close_all([flooder, bystander])


async def test_huge_frame_closes_the_socket(live_server: LiveServer) -> None:
    client = await Client.open(live_server.url)
    try:
        with contextlib.suppress(ConnectionClosed):  # the server may close before the frame is sent
            await client.send_raw("x" * (2 * 1024 * 1024))
        assert await client.closed_with() == 1009
        again = await Client.open(live_server.url, token=client.token)
        await again.close()
    finally:
        await client.close()
    assert live_server.errors() == []
