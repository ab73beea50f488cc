"""A player is served by the node that runs its table (issue 47, "no extra cost across nodes"): a
node whose client sits at a table of another node tells it that node (``table_node``), the client
connects there (``/ws?node=NAME``, as the browser does behind docs/nginx.conf) and keeps its seat
without 託管 on the way; after its node dies it is back at the node that took the table over; a
client that ignores the hint plays on through Redis; and no node sends a client to the node it
asked for and was not put on (no loop).
"""

from __future__ import annotations

import asyncio
from typing import Any

from tests.cluster.conftest import NodeFactory
from tests.cluster.test_nodes import FAST, check_records, tricks
from tests.server.players import Party, Player
from tests.server.wsclient import Client, Message

WAIT = 30.0


def hints(client: Client | None) -> list[Message]:
    """The ``table_node`` messages ``client`` got."""
    return [item for item in client.log if item["type"] == "table_node"] if client is not None else []


def away_autoplay(clients: list[Client]) -> list[dict[str, Any]]:
    """Every 託管 a disconnect switched on (R46), as the clients saw it."""
    return [
        event
        for client in clients
        for item in client.log
        if item["type"] == "state"
        for event in item["events"]
        if event["type"] == "autoplay" and event["reason"] == "disconnect"
    ]


async def moved_home(player: Player, url: str, node: str, table_id: str, seat: int) -> None:
    """``player`` was told its table runs on ``node`` and moves there: the new connection is
    welcomed by that node at its seat, and the one it leaves is closed as replaced."""
    assert player.client is not None
    hint = await player.client.wait(lambda item: item["type"] == "table_node", WAIT)
    assert (hint["table_id"], hint["node"]) == (table_id, node)
    welcome, old = await player.move(url, node)
    assert (welcome["node"], welcome["table"], welcome["seat"]) == (node, table_id, seat)
    assert old is not None and await old.closed_with(WAIT) == 4001


async def test_players_move_to_their_tables_node_and_after_a_takeover_are_at_the_new_one(nodes: NodeFactory) -> None:
    lease = ("--lease-seconds", "2")
    a, b = nodes("a", *lease), nodes("b", *lease)
    party = Party([await Player.guest(node.url) for node in (b, a, a, b)])
    creator, mover, stayer, reloader = party.players
    table_id = await party.seat(FAST)  # created through b: b runs it
    await moved_home(mover, b.url, "b", table_id, 1)  # dealing: a seat detached now would go to 託管
    assert [hint["node"] for hint in hints(stayer.client)] == ["b"]  # told too; it stays on a
    assert hints(creator.client) == hints(reloader.client) == []  # on the table's node already
    await party.until(lambda: tricks(party) >= 2, 120)

    # Mid-hand the fourth comes back through a (a reload, a second window): a sends it home again.
    welcome, old = await reloader.move(a.url)
    assert (welcome["node"], welcome["table"], welcome["seat"]) == ("a", table_id, 3)
    assert old is not None and await old.closed_with(WAIT) == 4001
    await moved_home(reloader, b.url, "b", table_id, 3)
    await party.until(lambda: tricks(party) >= 4, 120)
    everyone = [player.client for player in party.players if player.client is not None]
    assert away_autoplay(everyone) == []  # no seat went to 託管 on the way (R46)

    b.kill()  # the three of b come back through the proxy, which falls back on a: a takes the table over
    for player in (creator, mover, reloader):
        welcome = await player.connect(a.url, node="b")
        assert (welcome["node"], welcome["table"], welcome["seat"]) == ("a", table_id, player.seat)
    await party.until(party.hand_over(1), 120)
    await check_records(a, party, 1)
    assert [hints(player.client) for player in (creator, mover, reloader)] == [[], [], []]  # a runs it now
    assert a.errors() == []


async def test_no_node_sends_a_client_to_the_node_it_was_not_put_on(nodes: NodeFactory) -> None:
    a, b, c = nodes("a"), nodes("b"), nodes("c", "--no-node-hints")
    creator = await Client.open(b.url)
    assert (await creator.request("create_table", options=FAST))["type"] == "ack"
    table_id = (await creator.wait_type("table"))["table"]["id"]
    # Through a proxy that does not route by node, the client asking for b lands on a: a serves it
    # and does not send it to b again; one asking for no node's name, or for a, is told.
    seated = [
        (await Client.open(a.url, node="b"), []),
        (await Client.open(a.url, node="nosuchnode"), ["b"]),
        (await Client.open(a.url, node="a"), ["b"]),
    ]
    for seat, (client, told) in enumerate(seated, start=1):
        assert (await client.request("join", table=table_id, seat=seat))["type"] == "ack"
        await full_state(client)  # a hint comes with the `table` message, before the full state after it
        assert [hint["node"] for hint in hints(client)] == told
    # Spectators are told as well, but not by a node that tells nobody (--no-node-hints).
    watchers = [(await Client.open(a.url), ["b"]), (await Client.open(c.url), [])]
    for client, told in watchers:
        assert (await client.request("watch", table=table_id))["type"] == "ack"
        await full_state(client)
        assert [hint["node"] for hint in hints(client)] == told
    told_once = seated[1][0]
    assert (await told_once.request("sync"))["type"] == "ack"  # the full picture again, the hint not
    await full_state(told_once)
    assert len(hints(told_once)) == 1
    assert hints(creator) == []
    everyone = [creator, *(client for client, _ in seated + watchers)]
    await asyncio.gather(*(client.close() for client in everyone))
    assert a.errors() + b.errors() + c.errors() == []


async def full_state(client: Client) -> Message:
    """The next full ``state`` ``client`` gets."""
    return await client.wait(lambda item: item["type"] == "state" and item["full"], WAIT)
