"""A table step's messages to one client are written together (one send for the mover's ``state`` and
``ack``, ``tuolaji.server.clients.Batch``): over a whole hand between four real clients, every client
gets every ``state`` once and in order (``seq`` one more each time), and each acked play comes after
the state that carries it."""

from __future__ import annotations

import asyncio

from tests.live_server import LiveServer
from tests.server.scenario import FAST, Policy, close_all, default_policy, drive, four_at_table, got
from tests.server.wsclient import Client, Message


async def test_a_whole_hand_reaches_every_client_in_order_with_each_ack_after_its_play(
    live_server: LiveServer,
) -> None:
    clients, _ = await four_at_table(live_server.url, FAST)
    plays: dict[int, dict[int, list[str]]] = {index: {} for index in range(4)}
    """By client: the id of each play it sent, and its cards."""

    def playing(index: int) -> Policy:
        async def policy(client: Client, state: Message) -> bool:
            view = state["view"]
            if view["phase"] == "playing" and view["to_move"] == view["seat"] and view["hint"]:
                plays[index][await client.send("play", cards=view["hint"])] = view["hint"]
                return True
            return await default_policy(client, state)

        return policy

    try:
        await asyncio.gather(*(drive(client, got("hand_end"), playing(index)) for index, client in enumerate(clients)))
        for index, client in enumerate(clients):
            states = [item for item in client.log if item["type"] == "state"]
            seqs = [state["seq"] for state in states if not state["full"]]
            assert seqs and seqs == list(range(seqs[0], seqs[0] + len(seqs))), f"seat {index} missed a state"
            acked = 0
            for position, item in enumerate(client.log):
                if item["type"] != "ack" or item["ref"] not in plays[index]:
                    continue
                carrying = next(earlier for earlier in reversed(client.log[:position]) if earlier["type"] == "state")
                mine = [
                    event["cards"] for event in carrying["events"] if event["type"] == "play" and event["seat"] == index
                ]
                assert mine == [plays[index][item["ref"]]], f"seat {index}: ack {item['ref']} before its state"
                acked += 1
            assert acked == len(plays[index]) > 0
    finally:
        await close_all(clients)
    assert live_server.errors() == []
