"""Client message schemas (docs/PROTOCOL.md §2.2, §2.5), without a server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tuolaji.wire.inbound import MAX_FRAME_BYTES, SCHEMAS, ProtocolError, parse_client_message
from tuolaji.wire.outbound import error_message


def parse(**data: object) -> object:
    return parse_client_message(json.dumps(data))


def code_of(text: str) -> str:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(text)
    return caught.value.code


def test_valid_messages_are_converted() -> None:
    bid = parse_client_message('{"v": 2, "type": "bid", "suit": "h", "count": 2, "id": "a1"}')
    assert (bid.type, bid.fields, bid.id) == ("bid", {"suit": 1, "count": 2}, "a1")
    play = parse_client_message('{"v": 2, "type": "play", "cards": ["AS", "10h", "BJ"]}')
    assert play.fields == {"cards": (12, 21, 53)}
    assert parse_client_message('{"v": 2, "type": "play", "cards": "AS AS"}').fields == {"cards": (12, 12)}
    create = parse_client_message('{"v": 2, "type": "create_table"}')
    assert create.fields == {}
    # A bot by its level arrives by its name.
    add_bot = parse_client_message('{"v": 2, "type": "add_bot", "seat": 1, "bot": "hard"}')
    assert add_bot.fields == {"seat": 1, "bot": "search"}
    assert parse_client_message('{"v": 2, "type": "play_now", "bot": "easy"}').fields == {"bot": "random"}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("{", "bad_json"),
        ('"hello"', "bad_message"),
        ('{"type": "ping"}', "bad_message"),
        ('{"v": true, "type": "ping"}', "bad_message"),
        ('{"v": 1, "type": "ping"}', "bad_message"),
        ('{"v": 2}', "unknown_type"),
        ('{"v": 2, "type": "shuffle"}', "unknown_type"),
        ('{"v": 2, "type": "ping", "x": 1}', "bad_message"),
        ('{"v": 2, "type": "ping", "id": [1]}', "bad_message"),
        ('{"v": 2, "type": "ping", "id": true}', "bad_message"),
        ('{"v": 2, "type": "join", "table": "t1"}', "bad_message"),
        ('{"v": 2, "type": "join", "table": "t1", "seat": 4}', "bad_message"),
        ('{"v": 2, "type": "join", "table": "t1", "seat": true}', "bad_message"),
        ('{"v": 2, "type": "bid", "suit": "SH", "count": 1}', "bad_message"),
        ('{"v": 2, "type": "bid", "suit": "S", "count": 5}', "bad_message"),
        ('{"v": 2, "type": "play", "cards": []}', "bad_message"),
        ('{"v": 2, "type": "play", "cards": [1]}', "bad_message"),
        ('{"v": 2, "type": "play", "cards": ["1S"]}', "bad_card"),
        ('{"v": 2, "type": "autoplay", "on": 1}', "bad_message"),
        ('{"v": 2, "type": "create_table", "options": []}', "bad_message"),
        ('{"v": 2, "type": "add_bot", "seat": 1, "bot": "Hard"}', "bad_message"),
        ('{"v": 2, "type": "play_now", "bot": 3}', "bad_message"),
        ("[" * 100_00 + "]" * 100_00, "too_large"),
    ],
)
def test_refused_messages(text: str, code: str) -> None:
    assert code_of(text) == code


def test_deep_nesting_is_bad_json_not_a_crash() -> None:
    text = "[" * 5000 + "]" * 5000
    assert len(text) < MAX_FRAME_BYTES
    assert code_of(text) in ("bad_json", "bad_message")


def test_errors_name_the_field_and_echo_the_id() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message('{"v": 2, "type": "join", "table": "t1", "id": 7}')
    assert caught.value.ref == 7 and "'seat'" in str(caught.value)
    assert caught.value.params == {"reason": "missing_field", "type": "join", "field": "seat"}
    assert error_message("illegal_follow", "x", 7, "R24", {"reason": "pairs", "rule": "R24"}) == {
        "v": 2,
        "type": "error",
        "code": "illegal_follow",
        "message": "x",
        "params": {"reason": "pairs", "rule": "R24"},
        "ref": 7,
        "rule": "R24",
    }
    assert error_message("bad_json", "x")["params"] == {}


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("[1]", "bad_message", {"reason": "not_object"}),
        ('{"v": 1, "type": "ping"}', "bad_message", {"reason": "bad_field", "field": "v"}),
        ('{"v": 2, "type": "fly"}', "unknown_type", {"type": "fly"}),
        (
            '{"v": 2, "type": "ping", "x": 1}',
            "bad_message",
            {"reason": "unknown_field", "type": "ping", "fields": ["x"]},
        ),
        (
            '{"v": 2, "type": "join", "table": "t", "seat": 9}',
            "bad_message",
            {"reason": "bad_field", "type": "join", "field": "seat"},
        ),
        ('{"v": 2, "type": "play", "cards": "ZZ"}', "bad_card", {"type": "play", "field": "cards"}),
        ('{"v": 2, "type": "ping", "id": true}', "bad_message", {"reason": "bad_field", "field": "id"}),
    ],
)
def test_refusals_carry_code_and_params(text: str, code: str, params: dict[str, object]) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(text)
    assert (caught.value.code, caught.value.params) == (code, params)


def test_every_documented_client_message_has_a_schema() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    for kind in SCHEMAS:
        assert f"| `{kind}` |" in text, kind
