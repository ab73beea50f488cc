"""Per-seat views (DESIGN: never another seat's cards), timeouts and 託管 (R44–R46)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tuolaji.cards import DECK_SIZE, contains
from tuolaji.game import (
    Action,
    Bid,
    CloseBidding,
    CloseReview,
    DealCards,
    Escape,
    GameError,
    NotYourTurn,
    Phase,
    Play,
    Retract,
    Round,
    RoundSetup,
    SetAutoPlay,
    TableOptions,
    Timeout,
)
from tuolaji.game.simulate import random_move
from tuolaji.game.view import Event
from tuolaji.wire.views import view_json

CARD_KEYS = ("hand", "hint")


def _cards_in(value: object) -> list[str]:
    """Every card string anywhere in a JSON value, under keys that hold private cards."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in CARD_KEYS and isinstance(item, list):
                found.extend(item)
            else:
                found.extend(_cards_in(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(_cards_in(item))
    return found


def _check_views(round_: Round, events: list[Event]) -> None:
    for view in round_.views([0, 1, 2, 3, None]).values():
        assert dataclasses.replace(view) == view  # built without __init__, yet every field is there
    for seat in range(4):
        view = round_.view(seat)
        assert sorted(view.hand) == sorted(round_.hands[seat])
        assert contains(round_.hands[seat], view.hint)
        data = view_json(view)
        assert sorted(_cards_in(data)) == sorted(_cards_in({"hand": data["hand"], "hint": data["hint"]}))
    spectator = round_.view(None)
    assert spectator.hand == () and spectator.hint == ()
    for event in events:
        if event.to is None:
            assert "cards" not in event.data or event.type in ("play", "retract")
        elif event.type == "deal":
            assert contains(round_.hands[event.to], event.data["cards"])


@pytest.mark.parametrize("seed", range(6))
def test_no_view_or_event_ever_holds_another_seats_cards(seed: int) -> None:
    rng = random.Random(seed)
    round_ = Round(RoundSetup(seed=seed, options=TableOptions(preset=("nanning", "guigang", "fourdeck")[seed % 3])))
    while round_.phase is Phase.DEALING:
        events = round_.apply(DealCards(rng.randint(1, 30)))
        _check_views(round_, events)
    for seat in range(4):
        if round_.bid_options(seat):
            round_.apply(Bid(seat, *round_.bid_options(seat)[0]))
            break
    events = round_.apply(CloseBidding())
    while round_.phase is not Phase.FINISHED:
        if round_.phase is Phase.REVIEW:
            events = round_.apply(CloseReview())
        else:
            mover = round_.to_move
            assert mover is not None and round_.trump is not None
            events = round_.apply(Play(mover, tuple(random_move(round_, mover, round_.trump, rng))))
        _check_views(round_, events)


def test_the_hint_is_always_a_legal_move() -> None:
    rng = random.Random(9)
    round_ = Round(RoundSetup(seed=9, dealer=1, level=5))
    round_.apply(DealCards(DECK_SIZE))
    seat, (suit, count) = next((s, round_.bid_options(s)[0]) for s in range(4) if round_.bid_options(s))
    round_.apply(Bid(seat, suit, count))
    round_.apply(CloseBidding())
    while round_.phase is not Phase.FINISHED:
        if round_.phase is Phase.REVIEW:
            round_.apply(CloseReview())
            continue
        seat_to_move = round_.to_move
        assert seat_to_move is not None
        hint = round_.view(seat_to_move).hint
        assert round_.check_play(seat_to_move, hint) is None
        move = hint if rng.random() < 0.5 else tuple(random_move(round_, seat_to_move, round_.trump, rng))  # type: ignore[arg-type]
        round_.apply(Play(seat_to_move, move))
    assert round_.result is not None and round_.result.kind == "played"


def _playing(preset: str = "nanning") -> Round:
    round_ = Round(RoundSetup(seed=4, options=TableOptions(preset=preset), dealer=0, level=1))
    round_.apply(DealCards(DECK_SIZE))
    seat, (suit, count) = next((s, round_.bid_options(s)[0]) for s in range(4) if round_.bid_options(s))
    round_.apply(Bid(seat, suit, count))
    round_.apply(CloseBidding())
    return round_


def _auto_move(round_: Round) -> None:
    seat = round_.to_move
    assert seat is not None
    round_.apply(Play(seat, tuple(round_.hint(seat))))
    if round_.phase is Phase.REVIEW:
        round_.apply(CloseReview())


@pytest.mark.parametrize(("preset", "limit"), [("nanning", 3), ("guigang", 3), ("fourdeck", 2)])
def test_timeouts_in_a_row_switch_on_autoplay(preset: str, limit: int) -> None:
    """R44–R45: the server plays for the seat; after the preset's count in a row, 託管."""
    round_ = _playing(preset)
    for count in range(1, limit + 1):
        while round_.to_move != 0:
            _auto_move(round_)
        events = round_.apply(Timeout(0))
        assert events[0].data == {"seat": 0, "count": count, "limit": limit}
        assert round_.autoplay[0] == (count == limit)
        _auto_move(round_)
    assert round_.view(2).autoplay == (True, False, False, False)
    round_.apply(SetAutoPlay(0, False))
    assert round_.autoplay[0] is False and round_.timeouts[0] == 0


def test_an_own_move_resets_the_timeout_count() -> None:
    round_ = _playing()
    round_.apply(Timeout(0))
    _auto_move(round_)
    while round_.to_move != 0:
        _auto_move(round_)
    assert round_.timeouts[0] == 1
    _auto_move(round_)
    assert round_.timeouts[0] == 0


def test_a_timeout_for_a_seat_not_on_turn_is_refused() -> None:
    round_ = _playing()
    with pytest.raises(NotYourTurn, match="R44"):
        round_.apply(Timeout(1))


def test_escape_ends_the_round_void() -> None:
    """R43: the hand is void; the escaper is named for settlement."""
    round_ = _playing()
    events = round_.apply(Escape(2))
    assert events[-1].type == "round_over"
    assert round_.result is not None and round_.result.kind == "escape" and round_.result.escaped == 2
    assert round_.result.levels == 0


def _wrong_actions(round_: Round, rng: random.Random) -> list[Action]:
    """Actions the round must refuse now, whatever the phase."""
    mover = round_.to_move
    others = [seat for seat in range(4) if seat != mover]
    wrong: list[Action] = [Bid(rng.choice(others), 0, 5)]
    if round_.phase is not Phase.REVIEW:
        wrong.append(CloseReview())
    if round_.phase is not Phase.BIDDING:
        wrong.append(CloseBidding())
    if round_.phase is not Phase.DEALING:
        wrong.append(DealCards(1))
    if mover is not None:
        stranger = rng.choice(others)
        wrong.append(Play(stranger, tuple(round_.hands[stranger][:1])))
        missing = next(card for card in range(54) if card not in round_.hands[mover])
        wrong.append(Play(mover, (missing,)))
        lead = round_.lead
        if lead is not None and len(round_.hands[mover]) > len(lead):
            wrong.append(Play(mover, tuple(round_.hands[mover][: len(lead) + 1])))
        if lead is None:
            wrong.append(Retract(mover))
    return wrong


@pytest.mark.parametrize("seed", range(3))
def test_refused_actions_change_nothing(seed: int) -> None:
    """Every refused action raises a GameError naming the seat or action and a rule; the state is unchanged."""
    rng = random.Random(seed)
    round_ = Round(RoundSetup(seed=seed, dealer=seed % 4, level=3))
    round_.apply(DealCards(DECK_SIZE))
    seat, (suit, count) = next((s, round_.bid_options(s)[0]) for s in range(4) if round_.bid_options(s))
    round_.apply(Bid(seat, suit, count))
    round_.apply(CloseBidding())
    while round_.phase is not Phase.FINISHED:
        before = ([round_.view(s) for s in range(4)], len(round_.actions), round_.score())
        for action in _wrong_actions(round_, rng):
            with pytest.raises(GameError, match=r"R\d+") as refused:
                round_.apply(action)
            assert "seat" in str(refused.value) or action.type in str(refused.value)
            assert ([round_.view(s) for s in range(4)], len(round_.actions), round_.score()) == before
        if round_.phase is Phase.REVIEW:
            round_.apply(CloseReview())
        else:
            _auto_move(round_)


def _follow_turn(round_: Round, seat: int) -> None:
    """Play on until ``seat`` is to follow (not to lead) in a trick."""
    while not (round_.to_move == seat and round_.leader != seat):
        if round_.phase is Phase.REVIEW:
            round_.apply(CloseReview())
        else:
            _auto_move(round_)


def test_a_play_the_server_made_is_not_the_players_to_retract() -> None:
    """R31 (docs/RULES-NOTES.md): the move a timeout or 託管 made for a seat is not offered for 撤牌
    and a retraction of it is refused (``system_play``); the player's own follow may be retracted."""
    round_ = _playing()
    _follow_turn(round_, 0)
    round_.apply(Timeout(0))
    round_.apply(Play(0, tuple(round_.hint(0))))
    assert not round_.view(0).can_retract
    with pytest.raises(GameError) as refused:
        round_.apply(Retract(0))
    assert (refused.value.code, refused.value.params["reason"], refused.value.rule) == (
        "not_allowed",
        "system_play",
        "R31",
    )
    round_.apply(SetAutoPlay(0, True))
    _follow_turn(round_, 0)
    round_.apply(Play(0, tuple(round_.hint(0))))  # 託管's move
    assert not round_.view(0).can_retract
    round_.apply(SetAutoPlay(0, False))
    _follow_turn(round_, 0)
    round_.apply(Play(0, tuple(round_.hint(0))))  # the player's own
    assert round_.view(0).can_retract
    events = round_.apply(Retract(0))
    assert events[0].type == "retract" and round_.to_move == 0
