"""提醒, 撤牌 and 勞改 end to end (R30–R34), with four scripted clients in ``laogai`` mode."""

from __future__ import annotations

import asyncio

import pytest

from tests.live_server import LiveServer
from tests.server.scenario import (
    close_all,
    default_policy,
    drive,
    four_at_table,
    got,
    in_play,
    latest_view,
    wait_state,
    wrong_follow,
)
from tests.server.wsclient import Client, Message

OPTIONS = {"deal_interval_ms": 0, "bid_window_seconds": 0.5, "review_seconds": 0.5, "turn_seconds": 60}
WARN_OPTIONS = {**OPTIONS, "warn_wrong_follow": True}


class Script:
    """Trick 1: the first follower plays wrong, is reminded by its partner and retracts.
    From trick 2 on: the first follower who can plays wrong once and is judged 勞改.
    With ``warn`` (table option ``warn_wrong_follow``) each wrong follow is first refused with
    ``confirm_laogai`` and then confirmed; without it, it is played at once (R33 as the seeds have it)."""

    def __init__(self, warn: bool) -> None:
        self.warn = warn
        self.wrong: dict[int, int] = {}
        """trick index → seat that played wrong in it."""
        self.reminded = False
        self.retracted = False
        self.confirmations = 0

    async def __call__(self, client: Client, state: Message) -> bool:
        view = state["view"]
        seat = view["seat"]
        if view["phase"] not in ("playing", "review"):
            return await default_policy(client, state)
        trick_no = view["tricks_played"]
        first_follower = (view["leader"] + 1) % 4
        if trick_no == 0 and view["can_remind"] and not self.reminded and seat == (first_follower + 2) % 4:
            self.reminded = True
            await client.send("remind")
            return True
        if view["reminded"] and view["can_retract"] and not self.retracted:
            self.retracted = True
            await client.send("retract")
            return True
        if view["to_move"] != seat:
            return False
        wants_wrong = trick_no == 0 or not any(index > 0 for index in self.wrong)
        if seat == first_follower and view["trick"] and trick_no not in self.wrong and wants_wrong:
            cards = wrong_follow(view)
            if cards is not None:
                self.wrong[trick_no] = seat
                answer = await client.request("play", cards=cards)
                if not self.warn:
                    assert answer["type"] == "ack", answer
                    return True
                assert answer["code"] == "confirm_laogai" and answer["rule"] in ("R23", "R24")
                self.confirmations += 1
                await client.send("play", cards=cards, laogai=True)
                return True
        return await default_policy(client, state)


@pytest.mark.parametrize("warn", [False, True], ids=["silent", "warned"])
async def test_remind_retract_and_laogai(live_server: LiveServer, warn: bool) -> None:
    clients, _ = await four_at_table(live_server.url, WARN_OPTIONS if warn else OPTIONS)
    script = Script(warn)
    try:
        await asyncio.gather(*(drive(client, got("hand_end"), script) for client in clients))
        assert 0 in script.wrong and any(index > 0 for index in script.wrong)
        assert script.confirmations == (len(script.wrong) if warn else 0)
        retractor = script.wrong[0]
        log = clients[retractor].log
        reminded = [e for m in log if m["type"] == "state" for e in m["events"] if e["type"] == "remind"]
        assert reminded and reminded[0]["partner"] == retractor  # R30: the partner is told
        retract = next(m for m in log if m["type"] == "state" and any(e["type"] == "retract" for e in m["events"]))
        event = next(e for e in retract["events"] if e["type"] == "retract")
        assert event["seat"] == retractor and event["first"] is True and event["penalty"] == 10 * len(event["cards"])
        # R31: the first retraction resets the retractor's turn clock.
        assert retract["clock"]["kind"] == "turn" and retract["clock"]["seat"] == retractor
        assert retract["clock"]["remaining_ms"] > 55_000
        assert retract["view"]["retraction_points"][retractor] == event["penalty"]

        end = clients[0].latest("hand_end")
        assert end is not None
        result = end["result"]
        offender = next(seat for index, seat in script.wrong.items() if index > 0)
        # R33–R34: one team alone followed wrongly: it is 勞改; the other team wins 3 levels (R41).
        assert result["kind"] == "laogai" and result["laogai_team"] == offender % 2
        assert result["winning_team"] == 1 - offender % 2 and result["levels"] == 3
        for line in end["settlement"]:
            won = line["seat"] % 2 == result["winning_team"]
            # R40 as a transfer: the losers' 24 silver each go to the winners; their 0 積分 pays nothing.
            assert line["silver_delta"] == (24 if won else -24)
            assert line["points_delta"] == 0
        laogai = [e for m in clients[0].log if m["type"] == "state" for e in m["events"] if e["type"] == "laogai"]
        assert laogai and laogai[0]["wrong"][0]["seat"] == offender
    finally:
        await close_all(clients)
    assert live_server.errors() == []


async def test_retractions_over_400_dissolve_the_table(live_server: LiveServer) -> None:
    clients, table_id = await four_at_table(live_server.url, OPTIONS)
    try:
        await drive(clients[0], lambda client: bool(client.latest("state")) and in_play(client), timeout=30)
        for client in clients[1:]:
            await drive(client, in_play, timeout=30)
        view = (await wait_state(clients[0], lambda view: view["phase"] == "playing"))["view"]
        leader = view["to_move"]
        lead = latest_view(clients[leader])["hint"]
        assert (await clients[leader].request("play", cards=lead))["type"] == "ack"
        cheater = (leader + 1) % 4
        follow = (await wait_state(clients[cheater], lambda view: view["to_move"] == view["seat"]))["view"]["hint"]
        rounds = 400 // (10 * len(follow)) + 1
        for _ in range(rounds):
            assert (await clients[cheater].request("play", cards=follow))["type"] == "ack"
            assert (await clients[cheater].request("retract"))["type"] == "ack"
        end = await clients[0].wait_type("hand_end")
        # R32: over 400 retraction points the hand stops, the cheater pays the escape penalty (R43)
        # and the table is dissolved.
        assert end["result"]["kind"] == "dissolved" and end["result"]["cheaters"] == [cheater]
        lines = end["settlement"]
        assert lines[cheater]["silver_delta"] == -48
        assert all(lines[seat]["silver_delta"] == 24 for seat in range(4) if seat % 2 != cheater % 2)
        assert (await clients[cheater].wait_type("left"))["reason"] == "escaped"
        for seat, client in enumerate(clients):
            if seat != cheater:
                assert (await client.wait_type("left")) == {
                    "v": 2,
                    "type": "left",
                    "table_id": table_id,
                    "reason": "closed",
                }
    finally:
        await close_all(clients)
    assert live_server.errors() == []
