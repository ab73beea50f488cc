"""Turn clocks: a timeout plays a legal move for the seat, 託管 after N timeouts, and turning it off (R44–R45)."""

from __future__ import annotations

from tests.live_server import LiveServer
from tests.server.scenario import close_all, drive, got, wait_state
from tests.server.wsclient import Client


def events(client: Client, kind: str) -> list[dict[str, object]]:
    return [
        event for item in client.log if item["type"] == "state" for event in item["events"] if event["type"] == kind
    ]


async def test_timeouts_then_autoplay_then_back(live_server: LiveServer) -> None:
    client = await Client.open(live_server.url)
    try:
        options = {"deal_interval_ms": 5, "bid_window_seconds": 0.3, "review_seconds": 0, "turn_seconds": 1}
        assert (await client.request("play_now", options=options))["type"] == "ack"
        # R15: the deal is paced, four cards (one per seat) per tick.
        dealing = await wait_state(client, lambda view: view["phase"] == "dealing" and view["cards_dealt"] > 0)
        assert dealing["clock"]["kind"] == "deal"
        # R45: the third timeout in a row switches the seat to 託管 (preset nanning).
        switched = await client.wait(
            lambda item: (
                item["type"] == "state" and any(event["type"] == "autoplay" and event["on"] for event in item["events"])
            ),
            timeout=30,
        )
        assert switched["view"]["autoplay"][0] is True
        timeouts = events(client, "timeout")
        assert [event["count"] for event in timeouts] == [1, 2, 3]
        assert all(event["seat"] == 0 for event in timeouts)
        own_plays = [event for event in events(client, "play") if event["seat"] == 0]
        assert len(own_plays) >= 2  # each timeout is followed by the auto-play's legal move
        deals = [e for e in events(client, "deal")]
        assert len(deals) == 54  # one card per tick for this seat
        back = await client.request("autoplay", on=False)
        assert back["type"] == "ack", back
        off = await wait_state(client, lambda view: view["autoplay"][0] is False)
        assert off["view"]["timeouts"][0] == 0
        await drive(client, got("hand_end"))
        end = client.latest("hand_end")
        assert end is not None and end["result"]["kind"] == "played"
    finally:
        await close_all([client])
    assert live_server.errors() == []
