"""What nodes send each other (``tuolaji.wire.nodes``): every message reads back as what was written,
and text no node wrote is refused."""

from __future__ import annotations

import json

import pytest

from tuolaji.room.commands import Player
from tuolaji.wire.nodes import (
    AtTable,
    CloseClient,
    Delivery,
    Envelope,
    ForClients,
    ForTable,
    LeftTable,
    Logout,
    NodeMessage,
    SeatRef,
    SummaryChange,
    TurnedAway,
    decode_node_message,
    decode_summary,
    encode_node_message,
    encode_summary,
)

PLAYER = Player(7, "小明", "rank", "wealth")


@pytest.mark.parametrize(
    "item",
    [
        ForTable("t1", Envelope("message", "n1.3", PLAYER, '{"v":2,"type":"join","table":"t1","seat":0}')),
        ForTable("t1", Envelope("attach", "n1.3", PLAYER)),
        ForTable("t1", Envelope("watch", "n1.3", PLAYER, invite="code")),
        ForTable("t1", Envelope("detach", "n1.3")),
        ForClients(
            (
                Delivery("n2.1", '{"v":2,"type":"ack","ref":1}'),
                Delivery("n2.1", '{"v":2,"type":"table"}', AtTable("t1", 2)),
                Delivery("n2.2", '{"v":2,"type":"table"}', AtTable("t1", None)),
                Delivery("n2.2", '{"v":2,"type":"left"}', LeftTable("t1")),
                Delivery("n2.3", '{"v":2,"type":"error"}', TurnedAway("t1")),
            ),
            "n1",
        ),
        ForClients((Delivery("n2.1", '{"v":2,"type":"ack","ref":1}'),)),
        CloseClient("n2.1", 4001, '{"v":2,"type":"error"}'),
    ],
)
def test_node_messages_read_back_as_written(item: NodeMessage) -> None:
    assert decode_node_message(encode_node_message(item)) == item


def test_deliveries_of_a_node_that_does_not_name_itself_come_from_no_node() -> None:
    """An older node's deliveries carry no sender: they read back (and the client is told nothing)."""
    older = json.dumps({"k": "dlv", "m": [["n2.1", '{"v":2,"type":"ack","ref":1}']]})
    assert decode_node_message(older) == ForClients((Delivery("n2.1", '{"v":2,"type":"ack","ref":1}'),), None)


def test_unknown_node_messages_and_place_changes_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown node message"):
        decode_node_message(json.dumps({"k": "gossip"}))
    with pytest.raises(ValueError, match="unknown place change"):
        Delivery.from_json(["n1.1", "{}", "elsewhere", "t1"])
    with pytest.raises(ValueError, match="unknown envelope kind"):
        Envelope.from_json({"kind": "shout", "client": "n1.1"})


def test_lobby_changes_logouts_and_seats_read_back() -> None:
    summary = {"id": "t1", "seats": [{"kind": "human", "nickname": "小明"}], "invite": None}
    for change in (SummaryChange("t1", summary), SummaryChange("t1", None)):
        assert SummaryChange.decode(change.encode()) == change
    assert decode_summary(encode_summary(summary)) == summary
    assert Logout.decode(Logout(12, "abc|def").encode()) == Logout(12, "abc|def")
    for seat in (SeatRef("t1", 3), SeatRef("t1", None)):
        assert SeatRef.decode(seat.encode()) == seat
    assert SeatRef.decode("t9|") == SeatRef("t9", None)  # a claim the Redis script wrote
    with pytest.raises(TypeError):
        decode_summary("[1, 2]")
