"""A table's messages as deliveries (``tuolaji.server.outgoing``): the same text as encoding each
message whole, what several clients get alike encoded once per broadcast, and each delivery saying
where it puts its client."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tuolaji.bots import make_bot
from tuolaji.game.driver import deal_and_bid
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Round, RoundSetup
from tuolaji.game.settlement import Change
from tuolaji.room.effects import Ack, Refuse, Send, SendState, SendSummary
from tuolaji.server.outgoing import Outgoing
from tuolaji.wire import outbound
from tuolaji.wire.nodes import AtTable, LeftTable, TurnedAway
from tuolaji.wire.views import view_json

SUMMARY: dict[str, Any] = {"id": "t1", "state": "playing", "seats": [{"seat": 0, "nickname": "小明"}], "invite": None}
RECIPIENTS: tuple[tuple[str, int | None], ...] = (("n.1", 0), ("n.2", 1), ("n.3", 2), ("n.4", 3), ("n.9", None))


def whole(kind: str, **fields: Any) -> str:
    """A message encoded on its own, as a client must receive it."""
    return json.dumps({"v": 2, "type": kind, **fields}, ensure_ascii=False, separators=(",", ":"))


@pytest.fixture
def encoded(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every object the wire encoder turns into JSON text, in order."""
    seen: list[Any] = []
    plain = outbound.dumps

    def counting(data: Any) -> str:
        seen.append(data)
        return plain(data)

    monkeypatch.setattr(outbound, "dumps", counting)
    return seen


def test_a_summary_is_encoded_once_and_seats_or_seats_as_spectator_every_recipient(encoded: list[Any]) -> None:
    outgoing = Outgoing("t1")
    outgoing.step()
    deliveries = outgoing.encode(SendSummary(SUMMARY, RECIPIENTS))
    assert [delivery.text for delivery in deliveries] == [
        whole("table", table=SUMMARY, seat=seat) for _, seat in RECIPIENTS
    ]
    assert [(delivery.client, delivery.change) for delivery in deliveries] == [
        (client, AtTable("t1", seat)) for client, seat in RECIPIENTS
    ]
    assert sum(1 for data in encoded if isinstance(data, dict) and data.get("table") == SUMMARY) == 1


def test_a_broadcast_body_is_encoded_once_per_step(encoded: list[Any]) -> None:
    outgoing = Outgoing("t1")
    body = {"table_id": "t1", "hand": 3, "settlement": [{"seat": 0, "points_delta": 2}]}
    outgoing.step()
    texts = [outgoing.encode(Send(client, "hand_end", body))[0].text for client, _ in RECIPIENTS]
    assert texts == [whole("hand_end", **body)] * len(RECIPIENTS)
    assert len(encoded) == 1
    equal_but_not_shared = dict(body)
    outgoing.encode(Send("n.1", "hand_end", equal_but_not_shared))
    outgoing.step()
    outgoing.encode(Send("n.1", "hand_end", body))  # a new step encodes afresh
    assert len(encoded) == 3


def test_deliveries_say_where_they_put_their_client() -> None:
    outgoing = Outgoing("t1")
    outgoing.step()
    [seated] = outgoing.encode(Send("n.1", "table", {"table": SUMMARY, "seat": 1}))
    assert seated.change == AtTable("t1", 1) and seated.text == whole("table", table=SUMMARY, seat=1)
    [left] = outgoing.encode(Send("n.1", "left", {"table_id": "t1", "reason": "left"}))
    assert left.change == LeftTable("t1")
    [phrase] = outgoing.encode(Send("n.1", "phrase", {"table_id": "t1", "seat": 0, "phrase": "hi"}))
    assert phrase.change is None
    refusal = Refuse("n.1", "seat_taken", "seat 1 is taken", "r1", None, {"seat": 1})
    [asked] = outgoing.encode(refusal, asking="n.1")
    assert asked.change == TurnedAway("t1")
    assert asked.text == whole("error", code="seat_taken", message="seat 1 is taken", params={"seat": 1}, ref="r1")
    [other] = outgoing.encode(refusal, asking="n.2")
    assert other.change is None and other.text == asked.text
    [ack] = outgoing.encode(Ack("n.1", 5))
    assert (ack.text, ack.change) == (whole("ack", ref=5), None)
    assert outgoing.internal_error("n.1", 5).change == TurnedAway("t1")


def test_state_messages_equal_their_whole_encoding() -> None:
    round_ = Round(RoundSetup(11, TableOptions()))
    deal_and_bid(round_, [make_bot("heuristic", seat) for seat in range(4)])
    seats = dict.fromkeys(seat for _, seat in RECIPIENTS)
    views = round_.views(seats)
    clock = {"seat": 0, "ms": 1000}
    effect = SendState(RECIPIENTS, views, (), 4, 1, True, clock)
    deliveries = Outgoing("t1", epoch=3).encode(effect)
    for delivery, (client, seat) in zip(deliveries, RECIPIENTS, strict=True):
        assert delivery.client == client and delivery.change is None
        assert json.loads(delivery.text) == {
            "v": 2,
            "type": "state",
            "table_id": "t1",
            "epoch": 3,  # the fencing token of the node that runs the table (docs/PROTOCOL.md §3)
            "hand": 1,
            "seq": 4,
            "full": True,
            "clock": clock,
            "events": [],
            "view": view_json(views[seat], full=True),
            "escape_cost": None,
        }
    # What leaving costs (R43) goes to its own seat only, as amounts lost.
    costly = SendState(RECIPIENTS, views, (), 5, 1, False, clock, {1: Change(-12, -48), 2: Change(0, 0)})
    costs = [json.loads(delivery.text)["escape_cost"] for delivery in Outgoing("t1").encode(costly)]
    assert costs == [None, {"points": 12, "silver": 48}, {"points": 0, "silver": 0}, None, None]
