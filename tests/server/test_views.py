"""The server's fast view JSON equals the plain wire view (``views.wire_view``) for every seat at every step."""

from __future__ import annotations

import contextlib
import json

from tuolaji.bots import make_bot
from tuolaji.cards import SUITS, make_card
from tuolaji.game.actions import Bid, CloseBidding, CloseReview, DealCards, Play, Remind, Retract
from tuolaji.game.errors import GameError
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Phase, Round, RoundSetup
from tuolaji.server import views
from tuolaji.server.views import ViewEncoder, event_json, wire_view


def check(round_: Round, encoder: ViewEncoder) -> None:
    for source in (None, 2):
        for full in (False, True):
            public = encoder.public(round_.view(source), full)
            for seat in (None, 0, 1, 2, 3):
                view = round_.view(seat)
                assert json.loads(ViewEncoder.seat_view(public, view)) == wire_view(view, full)


def test_event_json_matches_to_json_through_a_hand() -> None:
    round_ = Round(RoundSetup(seed=6, options=TableOptions(deal_interval_ms=0)))
    events = round_.apply(DealCards(216))
    seat, (suit, count) = next((seat, option) for seat in range(4) for option in round_.view(seat).bid_options)
    events += round_.apply(Bid(seat, suit, count)) + round_.apply(CloseBidding())
    while round_.phase is not Phase.FINISHED:
        if round_.phase is Phase.REVIEW:
            events += round_.apply(CloseReview())
        else:
            mover = round_.to_move
            assert mover is not None
            events += round_.apply(Play(mover, tuple(round_.hint(mover))))
    assert {"play", "trick", "round_over"} <= {event.type for event in events}
    for event in events:
        assert json.loads(event_json(event)) == event.to_json()


def test_wire_view_replaces_the_history_by_the_last_trick_unless_full() -> None:
    round_ = Round(RoundSetup(seed=5, options=TableOptions(deal_interval_ms=0)))
    round_.apply(DealCards(216))
    seat, (suit, count) = next((seat, option) for seat in range(4) for option in round_.view(seat).bid_options)
    round_.apply(Bid(seat, suit, count))
    round_.apply(CloseBidding())
    assert wire_view(round_.view(0), full=False)["last_trick"] is None
    while not round_.tricks:
        if round_.phase is Phase.REVIEW:
            round_.apply(CloseReview())
        else:
            mover = round_.to_move
            assert mover is not None
            round_.apply(Play(mover, tuple(round_.hint(mover))))
    brief = wire_view(round_.view(0), full=False)
    assert "tricks" not in brief and brief["tricks_played"] == 1
    assert brief["last_trick"] == round_.tricks[0].to_json()
    assert wire_view(round_.view(0), full=True)["tricks"] == [brief["last_trick"]]


def test_the_fast_path_covers_every_view_field() -> None:
    assert views._FAST


def test_views_match_to_json_through_two_hands() -> None:
    encoder = ViewEncoder()
    for seed in (3, 4):
        round_ = Round(RoundSetup(seed=seed, options=TableOptions(deal_interval_ms=0)))
        bots = [make_bot("heuristic", seed * 4 + seat) for seat in range(4)]
        check(round_, encoder)
        for _ in range(54):
            round_.apply(DealCards(4))
            for seat in range(4):
                action = bots[seat].choose(round_.view(seat))
                if isinstance(action, Bid):
                    with contextlib.suppress(GameError):
                        round_.apply(action)
        check(round_, encoder)
        round_.apply(CloseBidding())
        retracted = False
        while round_.phase is not Phase.FINISHED:
            if round_.phase is Phase.REVIEW:
                round_.apply(CloseReview())
            else:
                mover = round_.to_move
                assert mover is not None
                round_.apply(Play(mover, tuple(round_.hint(mover))))
                if not retracted and len(round_.plays) == 2:
                    retracted = True
                    round_.apply(Remind((mover + 2) % 4))
                    check(round_, encoder)
                    round_.apply(Retract(mover))
            check(round_, encoder)


def test_every_view_on_the_wire_lists_the_whole_bid_history() -> None:
    """R16–R18: bids are public, so the client JSON of every seat and of a spectator has every
    accepted bid in order (``bids``), the last one being the standing ``bid``; the same in the
    fast encoder and in the plain wire view."""
    round_ = Round(RoundSetup(seed=5, options=TableOptions(deal_interval_ms=0)))
    round_.apply(DealCards(216))
    held = [[round_.hand(seat).count(make_card(round_.level, suit)) for suit in range(4)] for seat in range(4)]
    a, x = next((seat, suit) for seat in range(4) for suit in range(4) if held[seat][suit] >= 1)
    b, y = next((seat, suit) for seat in range(4) for suit in range(4) if seat != a and held[seat][suit] >= 2)
    encoder = ViewEncoder()
    assert json.loads(ViewEncoder.seat_view(encoder.public(round_.view(None)), round_.view(None)))["bids"] == []
    round_.apply(Bid(a, x, 1))
    round_.apply(Bid(b, y, 2))
    expected = [{"seat": a, "suit": SUITS[x], "count": 1}, {"seat": b, "suit": SUITS[y], "count": 2}]
    for full in (False, True):
        public = encoder.public(round_.view(None), full)
        for seat in (None, 0, 1, 2, 3):
            view = round_.view(seat)
            for data in (json.loads(ViewEncoder.seat_view(public, view)), wire_view(view, full)):
                assert data["bids"] == expected and data["bid"] == expected[-1]
