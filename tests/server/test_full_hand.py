"""A whole hand between four scripted clients, from the deal to settlement (issue 3), plus a spectator."""

from __future__ import annotations

import argparse
import asyncio
import io

import httpx

from tests.live_server import LiveServer
from tests.server.scenario import FAST, close_all, drive, four_at_table, got
from tests.server.secrecy import assert_only_own_cards
from tests.server.wsclient import Client
from tuolaji.cards import parse_rank
from tuolaji.game.actions import action_from_json
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Round, RoundSetup
from tuolaji.server import hand_history


async def test_full_hand_from_deal_to_settlement(live_server: LiveServer) -> None:
    clients, table_id = await four_at_table(live_server.url, FAST)
    spectator = await Client.open(live_server.url)
    try:
        watched = await spectator.request("watch", table=table_id)
        assert watched["type"] == "ack"
        await asyncio.gather(*(drive(client, got("hand_end")) for client in clients))
        await spectator.wait_type("hand_end")
        ends = [client.latest("hand_end") for client in clients]
        assert all(end is not None for end in ends)
        end = ends[0]
        assert end is not None
        assert {e["hand_id"] for e in ends if e} == {end["hand_id"]}
        assert end["result"]["kind"] == "played"
        assert [line["seat"] for line in end["settlement"]] == [0, 1, 2, 3]
        # R40 as a transfer: the losers pay own bases × levels (8 silver × levels each, from 1,000)
        # and the winners receive it; new accounts hold no 積分, so no 積分 moves.
        levels = end["result"]["levels"]
        for line in end["settlement"]:
            won = line["seat"] % 2 == end["result"]["winning_team"]
            assert line["silver_delta"] == (8 * levels if won else -8 * levels)
            assert line["points_delta"] == 0
        # R37: the match goes on with the next dealer, at the dealer team's level (R6).
        following = await clients[0].wait(lambda item: item["type"] == "state" and item["hand"] == 2)
        dealer = end["dealer"]
        assert following["view"]["dealer"] == dealer
        assert following["view"]["level"] == end["levels"][dealer % 2]
        for seat, client in enumerate(clients):
            assert_only_own_cards(client.log, seat)
        assert_only_own_cards(spectator.log, None)

        async with httpx.AsyncClient(base_url=live_server.url) as http:
            for seat, client in enumerate(clients):
                me = (await http.get("/api/me", headers={"Authorization": f"Bearer {client.token}"})).json()
                line = end["settlement"][seat]
                assert me["account"]["silver"] == line["silver"] == 1000 + line["silver_delta"]
                assert me["account"]["hands_played"] == 1
                history = (await http.get(f"/api/accounts/{me['account']['id']}/hands")).json()
                assert [hand["id"] for hand in history["hands"]] == [end["hand_id"]]
                assert history["hands"][0]["seat"] == seat
            record = (await http.get(f"/api/hands/{end['hand_id']}")).json()["hand"]
        assert record["result"] == end["result"]
        assert record["table_id"] == table_id
        # Derived for replays: the dealt hands, the bid, trump and every trick.
        dealt = [sorted(record["hands"][seat]) for seat in range(4)]
        for seat, client in enumerate(clients):
            first_full = next(
                item["view"]["hand"]
                for item in client.log
                if item["type"] == "state" and item["hand"] == 1 and item["view"]["cards_dealt"] == 216
            )
            assert sorted(first_full) == dealt[seat]
        assert record["dealer"] == end["result"]["dealer"] and record["bid"] is not None
        assert record["trump"]["suit"] == record["bid"]["suit"]
        assert sum(trick["points"] for trick in record["tricks"]) == 400
        setup = record["setup"]
        replayed = Round.replay(
            RoundSetup(
                seed=setup["seed"],
                options=TableOptions.from_json(record["options"]),
                dealer=setup["dealer"],
                level=parse_rank(setup["level"]),
            ),
            [action_from_json(action) for action in record["actions"]],
        )
        assert replayed.result is not None and replayed.result.to_json() == end["result"]

        out = io.StringIO()
        hand_history.print_hand(record, out)
        text = out.getvalue()
        assert "trick  1:" in text and "result:" in text
        args = argparse.Namespace(id=end["hand_id"], db=live_server.db_url)
        assert await asyncio.to_thread(hand_history.run, args) == 0
    finally:
        await close_all([*clients, spectator])
    assert live_server.errors() == []
