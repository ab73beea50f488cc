"""The wire codec (``tuolaji.wire.views``): what it writes for every seat at every step decodes back
into the view it came from, the history is cut to the last trick unless the view is full, and the
fast ``play`` events equal their plain JSON."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from tuolaji.bots import make_bot
from tuolaji.cards import RANKS, SUITS, make_card, parse_card
from tuolaji.game.actions import Bid, CloseBidding, CloseReview, DealCards, Play, Remind, Retract
from tuolaji.game.driver import poll_bids
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Phase, Round, RoundSetup
from tuolaji.game.view import BidRecord, PlayRecord, RoundResult, SeatView, TrickRecord
from tuolaji.wire.views import ViewEncoder, encode_view, event_json, view_json


def _cards(names: list[str]) -> tuple[int, ...]:
    return tuple(parse_card(name) for name in names)


def _bid(data: dict[str, Any] | None) -> BidRecord | None:
    return None if data is None else BidRecord(data["seat"], SUITS.index(data["suit"]), data["count"])


def _trick(data: dict[str, Any]) -> TrickRecord:
    plays = tuple(PlayRecord(play["seat"], _cards(play["cards"])) for play in data["plays"])
    return TrickRecord(data["leader"], plays, data["winner"], data["points"], data["multiplier"])


def decode(data: dict[str, Any]) -> SeatView:
    """The :class:`SeatView` a view's JSON describes (its history as far as the JSON carries it)."""
    result = data["result"]
    fields = {
        **data,
        "level": RANKS.index(data["level"]),
        "bid": _bid(data["bid"]),
        "bids": tuple(_bid(bid) for bid in data["bids"]),
        "trump_suit": SUITS.index(data["trump_suit"]) if data["trump_suit"] is not None else None,
        "hand": _cards(data["hand"]),
        "hint": _cards(data["hint"]),
        "point_cards": _cards(data["point_cards"]),
        "trick": tuple(PlayRecord(play["seat"], _cards(play["cards"])) for play in data["trick"]),
        "tricks": tuple(_trick(trick) for trick in data.get("tricks", [])),
        "bid_options": tuple((SUITS.index(option["suit"]), option["count"]) for option in data["bid_options"]),
        "result": None if result is None else RoundResult(**{**result, "cheaters": tuple(result["cheaters"])}),
    }
    for name in ("passes", "hand_sizes", "retraction_points", "autoplay", "timeouts"):
        fields[name] = tuple(data[name])
    for name in ("tricks_played", "last_trick"):
        del fields[name]
    return SeatView(**fields)


def check(round_: Round, encoder: ViewEncoder) -> None:
    """Every viewer's JSON, brief and full, through the shared encoder, decodes to its view."""
    for source in (None, 2):
        for full in (False, True):
            public = encoder.public(round_.view(source), full)
            for seat in (None, 0, 1, 2, 3):
                view = round_.view(seat)
                data = json.loads(encoder.seat_view(public, view))
                assert data == view_json(view, full)
                assert data["tricks_played"] == len(view.tricks)
                last = view.tricks[-1] if view.tricks else None
                assert (_trick(data["last_trick"]) if data["last_trick"] else None) == last
                expected = view if full else dataclasses.replace(view, tricks=())
                assert decode(data) == expected


def test_views_decode_back_through_two_hands() -> None:
    encoder = ViewEncoder()
    for seed in (3, 4):
        round_ = Round(RoundSetup(seed=seed, options=TableOptions(deal_interval_ms=0)))
        bots = [make_bot("heuristic", seed * 4 + seat) for seat in range(4)]
        check(round_, encoder)
        for _ in range(54):
            round_.apply(DealCards(4))
            poll_bids(round_, bots, rounds=1)
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


def test_the_history_is_the_last_trick_unless_full() -> None:
    round_ = Round(RoundSetup(seed=5, options=TableOptions(deal_interval_ms=0)))
    round_.apply(DealCards(216))
    seat, (suit, count) = next((seat, option) for seat in range(4) for option in round_.view(seat).bid_options)
    round_.apply(Bid(seat, suit, count))
    round_.apply(CloseBidding())
    assert view_json(round_.view(0))["last_trick"] is None
    for _ in range(4):
        mover = round_.to_move
        assert mover is not None
        round_.apply(Play(mover, tuple(round_.hint(mover))))
    round_.apply(CloseReview())
    brief = view_json(round_.view(0))
    assert "tricks" not in brief and brief["tricks_played"] == 1
    assert brief["last_trick"] == round_.tricks[0].to_json()
    assert view_json(round_.view(0), full=True)["tricks"] == [brief["last_trick"]]
    assert json.loads(encode_view(round_.view(0))) == brief


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


def test_every_view_on_the_wire_lists_the_whole_bid_history() -> None:
    """R16–R18: bids are public, so the JSON of every seat and of a spectator has every accepted bid
    in order (``bids``), the last one being the standing ``bid``."""
    round_ = Round(RoundSetup(seed=5, options=TableOptions(deal_interval_ms=0)))
    round_.apply(DealCards(216))
    held = [[round_.hand(seat).count(make_card(round_.level, suit)) for suit in range(4)] for seat in range(4)]
    a, x = next((seat, suit) for seat in range(4) for suit in range(4) if held[seat][suit] >= 1)
    b, y = next((seat, suit) for seat in range(4) for suit in range(4) if seat != a and held[seat][suit] >= 2)
    assert view_json(round_.view(None))["bids"] == []
    round_.apply(Bid(a, x, 1))
    round_.apply(Bid(b, y, 2))
    expected = [{"seat": a, "suit": SUITS[x], "count": 1}, {"seat": b, "suit": SUITS[y], "count": 2}]
    for full in (False, True):
        for seat in (None, 0, 1, 2, 3):
            data = view_json(round_.view(seat), full)
            assert data["bids"] == expected and data["bid"] == expected[-1]
