"""不叫 (``Pass``) in the bid window after the deal (R19, docs/RULES-NOTES.md): golden cases, properties
of any sequence of bids and passes, and hand records from before the action replaying as they did."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tuolaji.cards import DECK_SIZE, SUITS
from tuolaji.game import Bid, CloseBidding, DealCards, NotAllowed, Phase, Round, RoundSetup, TableOptions, WrongPhase
from tuolaji.game.actions import Action, Pass, action_from_json, action_to_json
from tuolaji.game.driver import pass_the_rest
from tuolaji.game.errors import GameError
from tuolaji.wire.views import view_json

from .helpers import hands_with, stacked_round

RECORDS = Path(__file__).parent / "data" / "records_before_pass.json"
"""Hand records written by the code before 不叫 existed (commit bca8c05): heuristic bots' hands in each
preset and a redeal, each with its setup, its actions and what they led to (result, tricks, the
spectator's final view)."""


def bidding_round() -> Round:
    """Level 10, first hand, dealt in full: seat 0 holds TS TC, seat 1 TS TS TS TC TC, seat 2 TH×4,
    seat 3 TD; nobody else holds a 10."""
    hands = hands_with({0: "TS TC TC TD TD TD", 1: "TS TS TS TC TC", 2: "TH TH TH TH", 3: "TD"})
    round_ = stacked_round(hands, dealer=None, level="T")
    round_.apply(DealCards(DECK_SIZE))
    return round_


def test_pass_is_said_after_the_deal_and_only_once() -> None:
    """R19: 不叫 belongs to the window after the deal; a second one is refused, naming the rule."""
    round_ = stacked_round(hands_with({}), dealer=None, level="T")
    round_.apply(DealCards(100))
    with pytest.raises(WrongPhase, match="R19") as during_deal:
        round_.apply(Pass(0))
    assert during_deal.value.params["reason"] == "deal_not_finished" and during_deal.value.rule == "R19"
    round_.apply(DealCards(DECK_SIZE))
    assert [event.type for event in round_.apply(Pass(0))] == ["pass"]
    with pytest.raises(NotAllowed, match="R19") as twice:
        round_.apply(Pass(0))
    assert twice.value.params["reason"] == "already_passed"
    assert round_.view(1).passes == (True, False, False, False)


def test_the_window_may_close_once_every_seat_is_done() -> None:
    """A seat is done when it said 不叫 or has no bid left to make; a bid reopens it for everyone."""
    round_ = bidding_round()
    assert not round_.bidding_settled
    round_.apply(Bid(3, SUITS.index("D"), 1))
    assert not round_.bidding_settled  # seats 0, 1 and 2 may overturn
    assert round_.bid_options(3) == []  # its one TD is shown: nothing left to reinforce with (R17)
    for seat in (0, 1):
        round_.apply(Pass(seat))
    assert not round_.bidding_settled
    round_.apply(Bid(2, SUITS.index("H"), 4))  # the unbeatable bid (R18): nobody has a bid left
    assert round_.view(0).passes == (False, False, False, False)
    assert round_.bidding_settled
    round_.apply(CloseBidding())
    assert round_.phase is Phase.PLAYING and round_.dealer == 2
    with pytest.raises(WrongPhase, match="R19") as closed:
        round_.apply(Pass(0))
    assert closed.value.params["reason"] == "bidding_closed"


def test_a_bid_clears_the_passes_and_everyone_says_again() -> None:
    round_ = bidding_round()
    for seat in range(4):
        round_.apply(Pass(seat))
    assert round_.bidding_settled  # all four said 不叫 without a bid: the window closes and R20 redeals
    round_.apply(Bid(0, SUITS.index("S"), 1))
    assert not round_.bidding_settled and not any(round_.view(None).passes)
    assert [action.seat for action, _ in pass_the_rest(round_, range(4))] == [1, 2]  # 0 and 3: no bid left
    assert round_.bidding_settled
    round_.apply(CloseBidding())
    assert round_.trump is not None and round_.trump.suit == SUITS.index("S")


def test_all_passing_without_a_bid_is_a_redeal() -> None:
    """R20 is kept: no bid when the window closes, the hand is redealt."""
    round_ = bidding_round()
    pass_the_rest(round_, range(4))
    assert round_.bidding_settled
    [event] = round_.apply(CloseBidding())
    assert event.type == "round_over" and event.data["result"].kind == "redeal"


def test_pass_has_a_json_form() -> None:
    assert action_to_json(Pass(3)) == {"type": "pass", "seat": 3}
    assert action_from_json({"type": "pass", "seat": 3}) == Pass(3)


# ---------------------------------------------------------------------- properties


@st.composite
def bidding_actions(draw: st.DrawFn) -> tuple[int, list[tuple[str, int, int]]]:
    """A deal seed and a sequence of (kind, seat, choice) moves for the window after the deal."""
    seed = draw(st.integers(0, 2**32))
    moves = draw(
        st.lists(st.tuples(st.sampled_from(["bid", "pass"]), st.integers(0, 3), st.integers(0, 15)), max_size=24)
    )
    return seed, moves


def play_moves(seed: int, moves: list[tuple[str, int, int]]) -> tuple[Round, list[Action]]:
    """The round after the deal and every move of ``moves`` it accepts (a bid picks one of the seat's
    options by ``choice``); also the accepted actions."""
    round_ = Round(RoundSetup(seed=seed, options=TableOptions()))
    round_.apply(DealCards(DECK_SIZE))
    accepted: list[Action] = []
    for kind, seat, choice in moves:
        options = round_.bid_options(seat)
        action: Action = Pass(seat) if kind == "pass" or not options else Bid(seat, *options[choice % len(options)])
        try:
            round_.apply(action)
        except GameError:
            assert isinstance(action, Pass) and round_.passed(seat)  # only a second 不叫 is refused here
            continue
        accepted.append(action)
    return round_, accepted


@settings(max_examples=60, deadline=None)
@given(bidding_actions())
def test_passes_never_change_the_bidding(case: tuple[int, list[tuple[str, int, int]]]) -> None:
    """Whatever the order of bids and 不叫: the passes are exactly the seats that said 不叫 after the
    last bid; the window may close exactly when every seat is done; the same bids without the passes
    lead to the same cards, bids and trump; the actions replay to the same round."""
    seed, moves = case
    round_, accepted = play_moves(seed, moves)
    last_bid = max((index for index, action in enumerate(accepted) if isinstance(action, Bid)), default=-1)
    said = {action.seat for action in accepted[last_bid + 1 :] if isinstance(action, Pass)}
    assert {seat for seat in range(4) if round_.passed(seat)} == said
    assert round_.bidding_settled == all(seat in said or not round_.bid_options(seat) for seat in range(4))
    without = Round.replay(round_.setup, [action for action in round_.actions if not isinstance(action, Pass)])
    assert without.bids == round_.bids and without.hands == round_.hands
    replayed = Round.replay(round_.setup, [action_from_json(action_to_json(action)) for action in round_.actions])
    assert replayed.view(0) == round_.view(0)
    round_.apply(CloseBidding())
    without.apply(CloseBidding())
    assert (round_.trump, round_.dealer, round_.phase) == (without.trump, without.dealer, without.phase)


# ---------------------------------------------------------------------- records from before 不叫


def spectator_view(round_: Round) -> dict[str, Any]:
    """The spectator's final view as the old records have it (they have no ``passes``)."""
    view = view_json(round_.view(None))
    assert view.pop("passes") == [False] * 4
    return view


@pytest.mark.parametrize("index", range(4))
def test_records_from_before_pass_replay_as_they_did(index: int) -> None:
    """Stored hands have no 不叫 and close the window by the clock: they replay to the same result,
    the same tricks and the same final view."""
    record = json.loads(RECORDS.read_text(encoding="utf-8"))[index]
    options = TableOptions.from_json(record["options"])
    round_ = Round.replay(
        RoundSetup.from_json(options, record["setup"]), [action_from_json(raw) for raw in record["actions"]]
    )
    assert round_.result is not None and round_.result.to_json() == record["result"]
    assert [trick.to_json() for trick in round_.tricks] == record["tricks"]
    assert spectator_view(round_) == record["view"]
