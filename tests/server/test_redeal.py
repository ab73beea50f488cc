"""Redeals (R20): three in a row stop the match until all four press start again; ``fourdeck`` dissolves."""

from __future__ import annotations

import asyncio

from tests.live_server import LiveServer
from tests.server.scenario import close_all, four_at_table, wait_state
from tests.server.wsclient import Client

NO_BIDS = {"deal_interval_ms": 0, "bid_window_seconds": 0, "review_seconds": 0, "turn_seconds": 60}


async def redeals(client: Client, count: int) -> None:
    for _ in range(count):
        end = await client.wait_type("hand_end")
        assert end["result"]["kind"] == "redeal" and end["hand_id"] is None and end["settlement"] == []


async def test_three_redeals_stop_then_resume(live_server: LiveServer) -> None:
    clients, _ = await four_at_table(live_server.url, NO_BIDS)
    try:
        await asyncio.gather(*(redeals(client, 3) for client in clients))
        stopped = await clients[0].wait(lambda item: item["type"] == "table" and item["table"]["state"] == "stopped")
        assert stopped["table"]["redeals"] == 3 and stopped["table"]["levels"] == ["3", "3"]
        for client in clients[:3]:
            assert (await client.request("start"))["type"] == "ack"
        table = clients[0].latest("table")
        assert table is not None and table["table"]["state"] == "stopped"
        assert (await clients[3].request("start"))["type"] == "ack"
        resumed = await wait_state(clients[0], lambda view: view["cards_dealt"] == 216)
        assert resumed["hand"] == 4
    finally:
        await close_all(clients)


async def test_fourdeck_dissolves_after_three_redeals(live_server: LiveServer) -> None:
    clients, table_id = await four_at_table(live_server.url, {**NO_BIDS, "preset": "fourdeck"})
    try:
        await asyncio.gather(*(redeals(client, 3) for client in clients))
        for client in clients:
            left = await client.wait_type("left")
            assert left == {"v": 2, "type": "left", "table_id": table_id, "reason": "closed"}
        assert (await clients[0].request("join", table=table_id, seat=0))["code"] == "no_table"
    finally:
        await close_all(clients)
