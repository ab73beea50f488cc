"""A restart keeps accounts, sessions, balances and hand records (the server run as ``tuolaji serve``)."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx

from tests.live_server import FAST_ARGS, LiveServer
from tests.server.scenario import FAST
from tests.server.wsclient import Client

TUOLAJI_SERVE = (sys.executable, "-m", "tuolaji.cli", "serve")
ARGS = (*FAST_ARGS, "--next-hand-delay", "60")
"""No next hand before the restart is checked: the restored table waits between hands."""


async def test_restart_keeps_accounts_balances_and_records(tmp_path: Path) -> None:
    db = tmp_path / "kept.sqlite3"
    with LiveServer(db, ARGS, TUOLAJI_SERVE) as server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            registered = await http.post("/api/register", json={"nickname": "阿明", "password": "secret-1"})
            assert registered.status_code == 201, registered.text
            token = registered.json()["token"]
        player = await Client.open(server.url, token=token)
        try:
            assert (await player.request("play_now", options=FAST))["type"] == "ack"
            assert (await player.request("autoplay", on=True))["type"] == "ack"  # R45: 託管 on request
            end = await player.wait_type("hand_end", timeout=120)
        finally:
            await player.close()
        assert end["hand_id"] is not None
    line = end["settlement"][0]

    with LiveServer(db, ARGS, TUOLAJI_SERVE) as server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            me = (await http.get("/api/me", headers={"Authorization": f"Bearer {token}"})).json()["account"]
            assert (me["nickname"], me["points"], me["silver"], me["hands_played"]) == (
                "阿明",
                line["points"],
                line["silver"],
                1,
            )
            login = await http.post("/api/login", json={"nickname": "阿明", "password": "secret-1"})
            assert login.status_code == 200 and login.json()["account"]["id"] == me["id"]
            record = (await http.get(f"/api/hands/{end['hand_id']}")).json()["hand"]
            assert record["result"] == end["result"] and record["settlement"] == end["settlement"]
            history = (await http.get(f"/api/accounts/{me['id']}/hands")).json()["hands"]
            assert [hand["id"] for hand in history] == [end["hand_id"]]
