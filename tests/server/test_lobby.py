"""Lobby and tables over the socket: the live list, create with options, join, bots, start."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from tests.live_server import LiveServer
from tests.server.scenario import FAST
from tests.server.wsclient import Client


async def test_tables_and_lobby_updates(live_server_factory: Callable[..., LiveServer]) -> None:
    server = live_server_factory()
    watcher = await Client.open(server.url)
    host = await Client.open(server.url)
    guest = await Client.open(server.url)
    try:
        listing = await watcher.request("lobby", on=True)
        assert listing["type"] == "ack"
        assert (await watcher.wait_type("lobby"))["tables"] == []
        options = {**FAST, "preset": "fourdeck", "start_level": "5"}
        assert (await host.request("create_table", options=options, seat=2))["type"] == "ack"
        created = await watcher.wait(
            lambda item: item["type"] == "lobby_table" and item["table"]["seats"][2]["kind"] == "human"
        )
        table = created["table"]
        assert table["options"]["preset"] == "fourdeck" and table["levels"] == ["5", "5"]
        assert table["seats"][2]["account"]["rank"] == "布衣" and table["seats"][2]["account"]["wealth"] == "助理主管"
        assert table["state"] == "waiting"
        assert (await guest.request("join", table=table["id"], seat=2))["code"] == "seat_taken"
        assert (await guest.request("join", table=table["id"], seat=0))["type"] == "ack"
        for seat in (1, 3):
            assert (await host.request("add_bot", seat=seat))["type"] == "ack"
        assert (await host.request("start"))["type"] == "ack"
        assert (await guest.request("start"))["type"] == "ack"
        playing = await watcher.wait(lambda item: item["type"] == "lobby_table" and item["table"]["state"] == "playing")
        assert [seat["kind"] for seat in playing["table"]["seats"]] == ["human", "bot", "human", "bot"]
        async with httpx.AsyncClient(base_url=server.url) as http:
            tables = (await http.get("/api/tables")).json()["tables"]
        assert [t["id"] for t in tables] == [table["id"]]
        bad = await host.request("create_table", options={"preset": "nope"})
        assert bad["code"] == "already_seated"
        bad = await watcher.request("create_table", options={"preset": "nope"})
        assert bad["code"] == "bad_options" and "preset" in bad["message"]
        bad = await watcher.request("create_table", options={"turn_seconds": 0})
        assert bad["code"] == "bad_options"
    finally:
        for client in (watcher, host, guest):
            await client.close()
