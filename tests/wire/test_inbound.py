"""What clients ask of the lobby, typed (``tuolaji.wire.inbound``): each lobby message type becomes its
request with the protocol's defaults, and every other message a command for the client's table."""

from __future__ import annotations

import json
from typing import Any

from tuolaji.room.commands import Join, Player, RequestBid, Watch
from tuolaji.wire.inbound import (
    ClientMessage,
    Hello,
    NewTable,
    Ping,
    Subscribe,
    TakeSeat,
    parse_client_message,
    table_command,
)


def parse(kind: str, **fields: Any) -> ClientMessage:
    return parse_client_message(json.dumps({"v": 2, "type": kind, **fields}))


def test_lobby_messages_become_typed_requests_with_their_defaults() -> None:
    assert parse("hello", token="abc").request == Hello("abc")
    assert parse("ping", id=3).request == Ping()
    assert parse("lobby", on=False).request == Subscribe(False)
    assert parse("create_table").request == NewTable({}, False, 0, None)
    created = parse("create_table", options={"preset": "fourdeck"}, seat=2, private=True).request
    assert created == NewTable({"preset": "fourdeck"}, True, 2, None)
    assert parse("play_now").request == NewTable({}, False, 0, "heuristic")
    assert parse("play_now", bot="hard").request == NewTable({}, False, 0, "search")


def test_join_and_watch_name_a_table_by_id_or_invite() -> None:
    join = parse("join", table="t1", seat=3).request
    assert join == TakeSeat("t1", None, 3) and isinstance(join, TakeSeat) and not join.watching
    watch = parse("watch", invite="code").request
    assert watch == TakeSeat(None, "code", None) and isinstance(watch, TakeSeat) and watch.watching


def test_table_messages_are_no_lobby_request_but_a_table_command() -> None:
    bid = parse("bid", suit="h", count=2, id="a1")
    assert bid.request is None
    assert table_command("n.1", None, bid) == RequestBid("n.1", 1, 2, "a1")
    player = Player(5, "小明")
    join = parse("join", table="t1", seat=1, invite="code")
    assert table_command("n.1", player, join) == Join("n.1", player, 1, None, "code")
    assert table_command("n.1", None, join) is None  # a join needs who sits down
    assert table_command("n.1", None, parse("watch", table="t1", id=7)) == Watch("n.1", 7, None)
    assert table_command("n.1", None, parse("lobby", on=True)) is None
