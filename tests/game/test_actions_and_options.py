"""The JSON forms of actions (the hand-record format) and table options: round trips and bad input."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from tuolaji.cards import parse_cards
from tuolaji.game import (
    Action,
    ActionFormatError,
    Bid,
    CloseBidding,
    CloseReview,
    DealCards,
    Escape,
    OptionError,
    Play,
    Remind,
    Retract,
    SetAutoPlay,
    TableOptions,
    Timeout,
    action_from_json,
    action_to_json,
)
from tuolaji.game.actions import Pass, action_from_row, action_row

ACTIONS: list[Action] = [
    DealCards(4),
    Bid(1, 2, 3),
    CloseBidding(),
    Play(3, tuple(parse_cards("AS AS KS KS"))),
    Remind(0),
    Retract(2),
    CloseReview(),
    Timeout(1),
    SetAutoPlay(2, True, "disconnect"),
    SetAutoPlay(2, False),
    Escape(3),
]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda action: action.type)
def test_actions_round_trip_through_json(action: Action) -> None:
    assert action_from_json(action_to_json(action)) == action


@pytest.mark.parametrize("action", [*ACTIONS, Pass(1)], ids=lambda action: action.type)
def test_actions_kept_as_rows_come_back_the_same_and_leave_the_collector(action: Action) -> None:
    row = action_row(action)
    assert action_from_row(row) == action
    assert type(row) is tuple and row[0] == action.type
    gc.collect(0)  # the first (young) pass it meets
    assert not gc.is_tracked(row)


def test_json_forms_are_readable() -> None:
    assert action_to_json(Play(1, tuple(parse_cards("10H JS")))) == {"type": "play", "seat": 1, "cards": "TH JS"}
    assert action_to_json(Bid(0, 1, 2)) == {"type": "bid", "seat": 0, "suit": "H", "count": 2}
    assert action_from_json({"type": "play", "seat": 0, "cards": ["BJ", "bj"]}) == Play(0, (53, 53))


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ([], "JSON object"),
        ({"type": "shuffle"}, "'shuffle'"),
        ({"type": "play", "seat": 4, "cards": "AS"}, "'seat'"),
        ({"type": "play", "seat": True, "cards": "AS"}, "'seat'"),
        ({"type": "play", "seat": 0, "cards": 5}, "'cards'"),
        ({"type": "play", "seat": 0, "cards": "AS 1S"}, "'1S'"),
        ({"type": "bid", "seat": 0, "suit": "X", "count": 1}, "'suit'"),
        ({"type": "bid", "seat": 0, "suit": "S", "count": 0}, "'count'"),
        ({"type": "autoplay", "seat": 0, "on": "yes"}, "'on'"),
        ({"type": "autoplay", "seat": 0, "on": True, "reason": "bored"}, "'reason'"),
    ],
)
def test_bad_action_json_names_what_is_wrong(data: Any, named: str) -> None:
    with pytest.raises(ActionFormatError, match=named):
        action_from_json(data)


def test_options_defaults_and_round_trip() -> None:
    options = TableOptions.from_json({"preset": "guigang", "start_level": "10", "illegal_follow": "reject"})
    assert options.start_level == "T" and options.start_level_index == 8
    assert TableOptions.from_json(options.to_json()) == options
    assert TableOptions().preset == "nanning" and TableOptions().illegal_follow == "laogai"


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"preset": "beijing"}, "preset='beijing'"),
        ({"start_level": "2"}, "R5"),
        ({"start_level": "Z"}, "start_level='Z'"),
        ({"illegal_follow": "ignore"}, "illegal_follow"),
        ({"turn_seconds": 0}, "turn_seconds"),
        ({"turn_seconds": "20"}, "turn_seconds"),
        ({"review_seconds": 99}, "review_seconds"),
        ({"deal_interval_ms": 2.5}, "deal_interval_ms"),
        ({"colour": "red"}, "'colour'"),
        ("nanning", "JSON object"),
    ],
)
def test_bad_options_name_the_option(data: Any, named: str) -> None:
    with pytest.raises(OptionError, match=named):
        TableOptions.from_json(data)


@pytest.mark.parametrize(
    ("data", "field", "rule"),
    [
        ({"preset": "beijing"}, "preset", "§14"),
        ({"start_level": "2"}, "start_level", "R5"),
        ({"illegal_follow": "ignore"}, "illegal_follow", "§8"),
        ({"warn_wrong_follow": "yes"}, "warn_wrong_follow", "R33"),
        ({"review_seconds": 99}, "review_seconds", "R44"),
        ({"deal_interval_ms": -1}, "deal_interval_ms", "R15"),
    ],
)
def test_bad_options_carry_the_field_and_rule(data: Any, field: str, rule: str) -> None:
    with pytest.raises(OptionError, match=rf"{field}=.*\({rule}\)") as caught:
        TableOptions.from_json(data)
    assert caught.value.params["field"] == field and caught.value.params["rule"] == rule
    assert caught.value.params["reason"] == "bad_value"


def test_warn_wrong_follow_is_off_unless_asked() -> None:
    assert TableOptions().warn_wrong_follow is False
    assert TableOptions.from_json({"warn_wrong_follow": True}).to_json()["warn_wrong_follow"] is True
    with pytest.raises(OptionError) as caught:
        TableOptions.from_json({"colour": "red"})
    assert caught.value.params == {"reason": "unknown", "fields": ["colour"]}
