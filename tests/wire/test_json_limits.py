"""A client's JSON is parsed within limits (``tuolaji.wire.json_limits``), and whatever the server
sends back can always be encoded (issue 46, item 3)."""

from __future__ import annotations

import json

import pytest

from tuolaji.room.commands import Join, Player, Watch
from tuolaji.room.seating import same_code
from tuolaji.wire.inbound import ProtocolError, parse_client_message, table_command
from tuolaji.wire.json_limits import MAX_DEPTH, MAX_NUMBER_CHARS, JsonLimitError, depth, load_json, read_json
from tuolaji.wire.outbound import dumps, error_message


def refusal(text: str) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(text)
    return caught.value


@pytest.mark.parametrize("digits", [4301, 10_000])
def test_a_long_number_is_a_bad_message_naming_the_limit(digits: int) -> None:
    for number in ("9" * digits, "-" + "1" * digits, "1." + "5" * digits, "1e" + "9" * digits):
        error = refusal('{"v":2,"type":"ping","id":' + number + "}")
        assert error.code == "bad_message"
        assert error.params == {"reason": "number_too_long", "length": len(number), "limit": MAX_NUMBER_CHARS}
        assert str(MAX_NUMBER_CHARS) in str(error)


def test_numbers_within_the_limit_parse_as_before() -> None:
    assert load_json('{"a": ' + "9" * MAX_NUMBER_CHARS + "}") == {"a": int("9" * MAX_NUMBER_CHARS)}
    assert load_json("[1.5, -2, 3e2]") == [1.5, -2, 300.0]


@pytest.mark.parametrize("number", ["1e400", "-1e400", "9" * 50 + "e300"])
def test_a_number_beyond_a_float_is_a_bad_message(number: str) -> None:
    error = refusal('{"v":2,"type":"create_table","options":{"turn_seconds":' + number + "}}")
    assert error.code == "bad_message"
    assert error.params["reason"] == "number_out_of_range" and error.params["number"] == number


def test_deep_nesting_is_refused_before_it_is_parsed() -> None:
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    error = refusal('{"v":2,"type":"ping","x":' + deep + "}")
    assert error.code == "bad_message"
    assert error.params == {"reason": "too_deep", "depth": MAX_DEPTH + 2, "limit": MAX_DEPTH}
    very_deep = "[" * 10_000
    assert refusal(very_deep).params["reason"] == "too_deep"
    assert load_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None


def test_brackets_inside_strings_are_not_nesting() -> None:
    assert depth('{"a": "[[[[{{{{\\"[[[", "b": [1]}') == 2


@pytest.mark.parametrize("text", ['{"v":2,"type":"\\ud800"}', '{"v":2,"type":"ping","id":"\\udfff"}', '{"\\ud800":1}'])
def test_a_lone_surrogate_is_a_bad_message(text: str) -> None:
    error = refusal(text)
    assert error.code == "bad_message" and error.params["reason"] == "surrogate"


def test_a_pair_of_surrogates_is_one_character() -> None:
    assert load_json('"\\ud83c\\udca1"') == "\U0001f0a1"


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"a": -Infinity}', "{", b"\xff\xfe"])
def test_what_is_not_json_is_not_json(text: str | bytes) -> None:
    with pytest.raises(JsonLimitError) as caught:
        load_json(text)
    assert caught.value.reason == "not_json"


def test_not_json_stays_bad_json() -> None:
    assert refusal("not json{").code == "bad_json"


def test_every_message_can_be_encoded_even_with_a_lone_surrogate() -> None:
    text = dumps(error_message("unknown_type", "unknown message type '\\ud800'", params={"type": "\ud800"}))
    text.encode()
    assert json.loads(text)["params"]["type"] == "\ud800"
    assert dumps({"nickname": "拖拉機"}) == '{"nickname":"拖拉機"}'


@pytest.mark.parametrize("invite", ["é", "a b", "", "x" * 65, "abc\u0000", 5, None])
def test_an_invite_that_no_server_makes_is_a_bad_message(invite: object) -> None:
    error = refusal(json.dumps({"v": 2, "type": "watch", "table": "t1", "invite": invite}))
    assert error.code == "bad_message" and error.params == {"reason": "bad_field", "type": "watch", "field": "invite"}


def test_invites_the_server_makes_pass() -> None:
    msg = parse_client_message(json.dumps({"v": 2, "type": "watch", "invite": "AbC-_09xyzAbC-_0"}))
    assert table_command("c", None, msg) == Watch("c", None, "AbC-_09xyzAbC-_0")
    msg = parse_client_message(json.dumps({"v": 2, "type": "join", "seat": 1, "invite": "code"}))
    player = Player(1, "p", "", "")
    assert table_command("c", player, msg) == Join("c", player, 1, None, "code")


def test_invite_codes_compare_as_bytes_whatever_the_text() -> None:
    assert same_code("AbC-_09", "AbC-_09")
    assert not same_code("é", "AbC-_09")
    assert not same_code("\ud800", "AbC-_09")


@pytest.mark.parametrize("number", ["18446744073709551616", "-9223372036854775809", "9" * 40])
def test_ints_beyond_64_bits_stay_exact_ints(number: str) -> None:
    assert load_json('{"seed": ' + number + "}") == {"seed": int(number)}
    assert read_json("[" + number + ", 1.5]") == [int(number), 1.5]
    assert type(read_json(number)) is int
