"""Leads, follows, 提醒, 撤牌, 勞改 and the review window (R21–R34)."""

from __future__ import annotations

import json

import pytest

from tuolaji.cards import parse_cards
from tuolaji.game import (
    CardsNotHeld,
    CloseReview,
    GameError,
    IllegalFollow,
    InvalidLead,
    NotAllowed,
    NotYourTurn,
    Phase,
    Play,
    Remind,
    Retract,
    Round,
    TableOptions,
    WrongCount,
    WrongPhase,
)

from .helpers import hands_with, playing_round

# Level 10, trump ♥, dealer 0 leads; every seat holds spades.
HANDS = {0: "AS AS KS 9S 7D TH", 1: "3S 4H 5H", 2: "3S 6H 6D", 3: "QS 8H 8D"}


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def spade_round(illegal_follow: str = "laogai") -> Round:
    return playing_round(hands_with(HANDS), options=TableOptions(illegal_follow=illegal_follow))


def test_a_trick_resolves_to_the_highest_play_and_the_winner_leads() -> None:
    """R21 the dealer leads; R27–R29 highest competing play wins and leads next."""
    round_ = spade_round()
    round_.apply(Play(0, cards("KS")))
    round_.apply(Play(1, cards("3S")))
    round_.apply(Play(2, cards("3S")))
    events = round_.apply(Play(3, cards("QS")))
    assert round_.phase is Phase.REVIEW and events[-1].data["phase"] == "review"
    events = round_.apply(CloseReview())
    trick = events[0].data["trick"]
    assert trick.winner == 0 and trick.points == 10
    assert round_.leader == 0 and round_.to_move == 0
    assert round_.score() == 0


def test_the_first_trick_is_led_by_the_dealer() -> None:
    round_ = spade_round()
    with pytest.raises(NotYourTurn, match="R21"):
        round_.apply(Play(1, cards("3S")))


@pytest.mark.parametrize(
    ("seat", "play", "error", "rule"),
    [
        (0, "AS KS", InvalidLead, "R13"),
        (0, "3S", CardsNotHeld, "R22"),
        (0, "", InvalidLead, "R13"),
    ],
)
def test_bad_leads_are_refused_and_change_nothing(seat: int, play: str, error: type[Exception], rule: str) -> None:
    round_ = spade_round()
    before = round_.view(seat)
    with pytest.raises(error, match=rule):
        round_.apply(Play(seat, cards(play)))
    assert round_.view(seat) == before
    assert round_.actions[-1].type == "close_bidding"


def test_wrong_count_is_always_refused_even_in_laogai_mode() -> None:
    round_ = spade_round()
    round_.apply(Play(0, cards("AS AS")))
    with pytest.raises(WrongCount, match="R22"):
        round_.apply(Play(1, cards("3S")))


def test_reject_mode_refuses_a_wrong_follow_naming_the_rule() -> None:
    round_ = spade_round("reject")
    round_.apply(Play(0, cards("KS")))
    with pytest.raises(IllegalFollow, match=r"R2[345]"):
        round_.apply(Play(1, cards("4H")))
    assert round_.to_move == 1


def _wrong_trick(round_: Round, wrong: dict[int, str]) -> None:
    round_.apply(Play(0, cards("KS")))
    for seat, right in ((1, "3S"), (2, "3S"), (3, "QS")):
        round_.apply(Play(seat, cards(wrong.get(seat, right))))


def test_one_wrong_follow_is_laogai_for_that_team() -> None:
    """R33–R34: one team only has wrong follows: 勞改, the other team +3 levels."""
    round_ = spade_round()
    _wrong_trick(round_, {1: "4H"})
    events = round_.apply(CloseReview())
    assert [event.type for event in events] == ["laogai", "round_over"]
    # Everyone sees who followed wrongly and why (a reason code and the rule), not the offender's cards.
    assert events[0].data["wrong"] == [{"seat": 1, "reason": "off_class", "rule": "R24"}]
    result = round_.result
    assert result is not None and result.kind == "laogai"
    assert result.laogai_team == 1 and result.winning_team == 0
    assert result.winner == "defenders" and result.levels == 3
    assert round_.phase is Phase.FINISHED


def test_the_team_with_more_wrong_follows_is_laogai() -> None:
    round_ = spade_round()
    round_.apply(Play(0, cards("KS")))
    round_.apply(Play(1, cards("4H")))
    round_.apply(Play(2, cards("6D")))
    round_.apply(Play(3, cards("8D")))
    round_.apply(CloseReview())
    assert round_.result is not None and round_.result.laogai_team == 1
    assert round_.result.winner == "defenders"


def test_one_wrong_follow_each_is_taken_back_without_penalty_and_a_second_is_refused() -> None:
    """R33: each team exactly one: both retracted by the server, no penalty; a second wrong play is refused."""
    round_ = spade_round()
    _wrong_trick(round_, {1: "4H", 2: "6D"})
    events = round_.apply(CloseReview())
    assert events[0].type == "laogai_retract" and events[0].data["seats"] == [1, 2]
    assert round_.phase is Phase.PLAYING and round_.to_move == 1
    assert round_.retraction_points == [0, 0, 0, 0]
    with pytest.raises(IllegalFollow, match="R33"):
        round_.apply(Play(1, cards("5H")))
    round_.apply(Play(1, cards("3S")))
    round_.apply(Play(2, cards("3S")))
    round_.apply(CloseReview())
    assert round_.result is None and len(round_.tricks) == 1


def test_retracting_a_wrong_follow_costs_10_a_card_and_avoids_laogai() -> None:
    """R31: a follower takes back the follow before the judgement; 10 points per card against the team."""
    round_ = spade_round()
    _wrong_trick(round_, {2: "6D"})
    events = round_.apply(Retract(2))
    assert events[0].data == {"seat": 2, "cards": cards("6D"), "penalty": 10, "first": True, "to_move": 2}
    assert round_.phase is Phase.PLAYING
    round_.apply(Play(2, cards("3S")))
    round_.apply(CloseReview())
    assert round_.result is None
    # Seat 2 is a defender (dealer 0's partner): the attackers' score goes up by 10.
    assert round_.score() == 10 and round_.retraction_points[2] == 10


def test_an_attackers_retraction_lowers_their_score_floor_zero() -> None:
    round_ = spade_round()
    round_.apply(Play(0, cards("KS")))
    round_.apply(Play(1, cards("3S")))
    round_.apply(Retract(1))
    assert round_._penalty() == -10 and round_.score() == 0
    assert round_.to_move == 1


def test_leader_and_players_who_did_not_play_cannot_retract() -> None:
    round_ = spade_round()
    round_.apply(Play(0, cards("KS")))
    with pytest.raises(NotAllowed, match="R31"):
        round_.apply(Retract(0))
    with pytest.raises(NotAllowed, match="R31"):
        round_.apply(Retract(2))


def test_remind_goes_to_the_partner_after_the_partner_followed() -> None:
    """R30: the partner is told; the leader cannot be reminded; once per trick."""
    round_ = spade_round()
    round_.apply(Play(0, cards("KS")))
    with pytest.raises(NotAllowed, match="R30"):
        round_.apply(Remind(2))
    round_.apply(Play(1, cards("4H")))
    assert round_.view(3).can_remind and not round_.view(0).can_remind
    events = round_.apply(Remind(3))
    assert {event.to for event in events} == {1, 3}
    assert round_.view(1).reminded
    with pytest.raises(NotAllowed, match="R30"):
        round_.apply(Remind(3))


def test_retractions_over_200_flag_cheating_and_over_400_dissolve() -> None:
    """R32."""
    round_ = spade_round()
    round_.apply(Play(0, cards("KS")))
    for _ in range(20):
        round_.apply(Play(1, cards("3S")))
        round_.apply(Retract(1))
    assert round_.retraction_points[1] == 200 and round_._cheaters() == ()
    round_.apply(Play(1, cards("3S")))
    round_.apply(Retract(1))
    assert round_._cheaters() == (1,)
    for _ in range(19):
        round_.apply(Play(1, cards("3S")))
        round_.apply(Retract(1))
    assert round_.result is None
    round_.apply(Play(1, cards("3S")))
    events = round_.apply(Retract(1))
    assert events[-1].type == "round_over"
    assert round_.result is not None and round_.result.kind == "dissolved"
    assert round_.result.escaped == 1 and round_.result.cheaters == (1,)
    with pytest.raises(WrongPhase):
        round_.apply(Play(1, cards("3S")))


def test_wrong_follow_reason_only_for_follows_laogai_mode_lets_through() -> None:
    """R33: a wrong follow is played and judged later in laogai mode; refusals are not 'wrong follows'."""
    round_ = spade_round()
    round_.apply(Play(0, cards("KS")))
    assert round_.wrong_follow_reason(1, cards("4H")) is not None
    assert round_.wrong_follow_reason(1, cards("3S")) is None
    assert round_.wrong_follow_reason(2, cards("6D")) is None  # not seat 2's turn
    assert round_.wrong_follow_reason(1, cards("4H 5H")) is None  # wrong count: refused
    strict = spade_round("reject")
    strict.apply(Play(0, cards("KS")))
    assert strict.wrong_follow_reason(1, cards("4H")) is None  # refused in reject mode


def _refusal(round_: Round, action: object) -> GameError:
    with pytest.raises(GameError) as caught:
        round_.apply(action)  # type: ignore[arg-type]
    json.dumps(caught.value.params)
    return caught.value


def test_refusals_carry_a_code_and_json_params() -> None:
    """docs/PROTOCOL.md §2.5: each refusal names its seat, action, rule and reason for the client to word."""
    round_ = spade_round("reject")
    error = _refusal(round_, Play(0, cards("AS 7D")))
    assert error.code == "invalid_lead" and error.rule == "R13"
    assert error.params == {
        "action": "play",
        "seat": 0,
        "cards": ["AS", "7D"],
        "reason": "mixed_classes",
        "rule": "R13",
        "classes": ["S", "D"],
    }
    error = _refusal(round_, Play(1, cards("3S")))
    assert (error.code, error.params["reason"], error.params["to_move"], error.rule) == (
        "not_your_turn",
        "not_to_move",
        0,
        "R21",
    )
    error = _refusal(round_, Play(0, cards("3S")))
    assert (error.code, error.params["reason"], error.params["cards"]) == ("cards_not_held", "not_held", ["3S"])
    round_.apply(Play(0, cards("KS")))
    error = _refusal(round_, Play(1, cards("4H")))
    assert error.code == "illegal_follow" and error.params["reason"] == "off_class" and error.rule == "R24"
    assert error.params["example"][0].endswith("S") and error.params["others"] == ["4H"]
    error = _refusal(round_, Play(1, cards("3S 4H")))
    assert (error.code, error.params["count"], error.params["lead_size"]) == ("wrong_count", 2, 1)
    error = _refusal(round_, Remind(3))
    assert (error.code, error.params["reason"], error.rule) == ("not_allowed", "partner_not_followed", "R30")
    error = _refusal(round_, Retract(0))
    assert (error.code, error.params["reason"], error.rule) == ("not_allowed", "not_follower", "R31")


def test_a_second_wrong_follow_is_refused_with_second_wrong() -> None:
    round_ = spade_round()
    _wrong_trick(round_, {1: "4H", 2: "6D"})
    round_.apply(CloseReview())
    round_.apply(Play(1, cards("3S")))
    error = _refusal(round_, Play(2, cards("6D")))
    assert error.code == "illegal_follow" and error.params["second_wrong"] is True
    assert error.params["reason"] == "off_class"
