"""Disconnects (R46), reconnects with the token, a second connection, and escapes (R43)."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from tests.live_server import LiveServer
from tests.server.scenario import FAST, close_all, drive, got, wait_state
from tests.server.wsclient import Client

SLOW_BOTS = ("--bot-delay", "0.02", "--next-hand-delay", "0.05")


def saw_event(kind: str, **fields: object) -> Callable[[dict[str, object]], bool]:
    def check(item: dict[str, object]) -> bool:
        events = item.get("events") if item["type"] == "state" else None
        return isinstance(events, list) and any(
            event["type"] == kind and all(event.get(key) == value for key, value in fields.items()) for event in events
        )

    return check


async def test_disconnect_autoplay_then_reconnect_with_full_view(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    server = live_server_factory(args=SLOW_BOTS)
    player = await Client.open(server.url)
    spectator = await Client.open(server.url)
    clients = [player, spectator]
    try:
        assert (await player.request("play_now", options=FAST))["type"] == "ack"
        table_id = (await player.wait_type("table"))["table"]["id"]
        assert (await spectator.request("watch", table=table_id))["type"] == "ack"
        await wait_state(player, lambda view: view["phase"] == "playing")
        await player.close()
        # R46: 託管 at once, the seat is kept, and the auto-play moves for it.
        await spectator.wait(saw_event("autoplay", seat=0, on=True, reason="disconnect"))
        await spectator.wait(saw_event("play", seat=0))
        summary = spectator.latest("table")
        assert summary is not None and summary["table"]["seats"][0]["connected"] is False

        back = await Client.open(server.url, token=player.token)
        clients.append(back)
        welcome = back.latest("welcome")
        assert welcome is not None and welcome["table"] == table_id and welcome["seat"] == 0
        full = await wait_state(back, lambda view: True)
        view = full["view"]
        assert full["full"] is True and view["seat"] == 0 and view["phase"] in ("playing", "review")
        assert len(view["hand"]) > 0 and len(view["tricks"]) == view["tricks_played"]
        assert any(play["seat"] == 0 for trick in view["tricks"] for play in trick["plays"]) or any(
            play["seat"] == 0 for play in view["trick"]
        )
        # Reconnecting takes the seat back: 託管 set by the disconnect is switched off.
        await wait_state(back, lambda view: view["autoplay"][0] is False)
        await drive(back, got("hand_end"))
        end = back.latest("hand_end")
        assert end is not None and end["result"]["kind"] == "played"
        assert end["settlement"][0]["account_id"] == back.account["id"]
    finally:
        await close_all(clients)
    assert server.errors() == []


async def test_second_connection_takes_over(live_server: LiveServer) -> None:
    first = await Client.open(live_server.url)
    clients = [first]
    try:
        options = {**FAST, "turn_seconds": 60}
        assert (await first.request("play_now", options=options))["type"] == "ack"
        await wait_state(first, lambda view: view["phase"] == "playing")
        second = await Client.open(live_server.url, token=first.token)
        clients.append(second)
        replaced = await first.wait(lambda item: item["type"] == "error")
        assert replaced["code"] == "session_replaced"
        assert await first.closed_with() == 4001
        state = await wait_state(second, lambda view: view["seat"] == 0)
        assert len(state["view"]["hand"]) > 0
    finally:
        await close_all(clients)


async def test_still_away_at_hand_end_is_removed(live_server: LiveServer) -> None:
    player = await Client.open(live_server.url)
    spectator = await Client.open(live_server.url)
    try:
        assert (await player.request("play_now", options=FAST))["type"] == "ack"
        table_id = (await player.wait_type("table"))["table"]["id"]
        assert (await spectator.request("watch", table=table_id))["type"] == "ack"
        await wait_state(player, lambda view: view["phase"] == "playing")
        await player.close()
        end = await spectator.wait_type("hand_end", timeout=60)
        assert end["result"]["kind"] == "played"  # no escape: the hand was finished for them
        left = await spectator.wait_type("left")
        assert left["reason"] == "closed"  # the only person left, so the table closes
        async with httpx.AsyncClient(base_url=live_server.url) as http:
            tables = (await http.get("/api/tables")).json()["tables"]
            assert table_id not in [table["id"] for table in tables]
            me = (await http.get("/api/me", headers={"Authorization": f"Bearer {player.token}"})).json()
        assert me["account"]["hands_played"] == 1
        assert me["account"]["silver"] == end["settlement"][0]["silver"]
    finally:
        await close_all([player, spectator])


async def test_leaving_mid_hand_is_an_escape(live_server: LiveServer) -> None:
    escaper = await Client.open(live_server.url)
    opponent = await Client.open(live_server.url)
    try:
        assert (await escaper.request("create_table", options=FAST, seat=0))["type"] == "ack"
        table_id = (await escaper.wait_type("table"))["table"]["id"]
        assert (await opponent.request("join", table=table_id, seat=1))["type"] == "ack"
        assert (await escaper.request("add_bot", seat=2))["type"] == "ack"
        assert (await opponent.request("add_bot", seat=3, bot="random"))["type"] == "ack"
        for client in (escaper, opponent):
            assert (await client.request("start"))["type"] == "ack"
        await wait_state(escaper, lambda view: view["phase"] == "playing")
        assert (await escaper.request("leave"))["type"] == "ack"
        end = await opponent.wait_type("hand_end")
        assert end["result"]["kind"] == "escape" and end["result"]["escaped"] == 0
        lines = end["settlement"]
        # R43: the escaper loses 6× own bases (積分 floored at 0); each opponent gains half of what it
        # actually lost (docs/RULES-NOTES.md, Economy): 3× its silver base, no 積分.
        assert (lines[0]["points_delta"], lines[0]["silver_delta"], lines[0]["silver"]) == (0, -48, 952)
        assert (lines[1]["points_delta"], lines[1]["silver_delta"], lines[1]["silver"]) == (0, 24, 1024)
        assert lines[2]["bot"] == "heuristic" and lines[2]["points"] is None
        left = await escaper.wait_type("left")
        assert left["reason"] == "escaped"
        account = escaper.latest("account")  # sent with the settlement, before "left"
        assert account is not None and account["account"]["silver"] == 952
        waiting = await opponent.wait(lambda item: item["type"] == "table" and item["table"]["state"] == "waiting")
        assert waiting["table"]["seats"][0]["kind"] == "empty"
        again = await escaper.request("join", table=table_id, seat=0)  # R43: not at once after escaping
        assert (again["type"], again["code"], again["rule"]) == ("error", "escape_cooldown", "R43")
    finally:
        await close_all([escaper, opponent])
    assert live_server.errors() == []
