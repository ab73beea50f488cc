"""The wire codec of views and events: the one JSON form of a :class:`SeatView` (docs/PROTOCOL.md §2.3).

A view's JSON has every :class:`SeatView` field, cards as strings in RULES.md notation, suits as
letters and the level as a rank, except for the trick history: ``tricks_played`` (how many tricks
were judged) and ``last_trick`` (the newest one, or null) stand for it, and only a *full* view —
join, watch, reconnect — also carries the whole history as ``tricks``. Per-move messages therefore
stay the same size all hand long. :func:`view_json` gives it as a dict, :func:`encode_view` as text.

A broadcast sends one view per seat plus the spectators' view. Everything but a few private
fields is the same for all of them, so :class:`ViewEncoder` encodes that public part once per
broadcast and splices in each seat's private fields; finished tricks are encoded once per trick
and reused for the rest of the hand, and a seat's cards once each time they change (a move changes
one seat's). ``tests/wire/test_views.py`` decodes what it writes back into the view it came from.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Final

from tuolaji.cards import KINDS, RANKS, SUITS, format_card
from tuolaji.game.view import BidRecord, Event, SeatView, TrickRecord
from tuolaji.wire.outbound import dumps

PRIVATE_FIELDS: Final = ("seat", "hand", "hint", "bid_options", "reminded", "can_remind", "can_retract")
"""SeatView fields that differ between seats; every other field is the same for everyone."""
_NAMES: Final = tuple(format_card(kind) for kind in range(KINDS))
_QUOTED: Final = tuple(f'"{name}"' for name in _NAMES)
"""Each card kind as a JSON string (card names never need escaping)."""


_PUBLIC_FIELDS: Final = frozenset(
    {
        "phase", "level", "dealer", "first_hand", "bid", "bids", "passes", "trump_suit", "hand_sizes", "cards_dealt",
        "to_move", "leader", "trick", "tricks", "attackers_points", "point_cards", "retraction_points", "autoplay",
        "timeouts", "result", "preset", "illegal_follow",
    }
)  # fmt: skip
_PLAY_KEYS: Final = frozenset({"seat", "cards", "to_move", "phase"})
if _PUBLIC_FIELDS | set(PRIVATE_FIELDS) != {field.name for field in dataclasses.fields(SeatView)}:
    raise ImportError("tuolaji.wire.views does not encode every SeatView field: update _PUBLIC_FIELDS")


def encode_view(view: SeatView, full: bool = False) -> str:
    """The JSON text of ``view`` (``full``: with the whole trick history)."""
    encoder = ViewEncoder()
    return encoder.seat_view(encoder.public(view, full), view)


def view_json(view: SeatView, full: bool = False) -> dict[str, Any]:
    """The JSON object of ``view``, as a client receives it."""
    data: dict[str, Any] = json.loads(encode_view(view, full))
    return data


def _bid(bid: BidRecord) -> dict[str, Any]:
    return {"seat": bid.seat, "suit": SUITS[bid.suit], "count": bid.count}


def _public_fields(view: SeatView) -> dict[str, Any]:
    """The fields every viewer shares but the tricks, field by field."""
    return {
        "phase": view.phase,
        "level": RANKS[view.level],
        "dealer": view.dealer,
        "first_hand": view.first_hand,
        "bid": _bid(view.bid) if view.bid is not None else None,
        "bids": [_bid(bid) for bid in view.bids],
        "passes": list(view.passes),
        "trump_suit": SUITS[view.trump_suit] if view.trump_suit is not None else None,
        "hand_sizes": list(view.hand_sizes),
        "cards_dealt": view.cards_dealt,
        "to_move": view.to_move,
        "leader": view.leader,
        "trick": [{"seat": play.seat, "cards": [_NAMES[card] for card in play.cards]} for play in view.trick],
        "attackers_points": view.attackers_points,
        "point_cards": [_NAMES[card] for card in view.point_cards],
        "retraction_points": list(view.retraction_points),
        "autoplay": list(view.autoplay),
        "timeouts": list(view.timeouts),
        "result": view.result.to_json() if view.result is not None else None,
        "preset": view.preset,
        "illegal_follow": view.illegal_follow,
    }


def _cards(cards: tuple[int, ...]) -> str:
    return ",".join([_QUOTED[card] for card in cards])


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _private(view: SeatView, hand: str) -> str:
    """The private fields of ``view`` as JSON members (``hand``: its cards' JSON), written out directly
    (the hot path of a broadcast)."""
    seat = "null" if view.seat is None else int(view.seat)
    options = ",".join(f'{{"suit":"{SUITS[suit]}","count":{int(count)}}}' for suit, count in view.bid_options)
    return (
        f'"seat":{seat},"hand":[{hand}],"hint":[{_cards(view.hint)}],"bid_options":[{options}],'
        f'"reminded":{_flag(view.reminded)},"can_remind":{_flag(view.can_remind)},'
        f'"can_retract":{_flag(view.can_retract)}'
    )


def event_json(event: Event) -> str:
    """``Event.to_json()`` as compact JSON; ``play`` events (most of them) are written out directly."""
    data = event.data
    if event.type == "play" and data.keys() == _PLAY_KEYS:
        to_move = data["to_move"]
        return (
            f'{{"type":"play","seat":{int(data["seat"])},"cards":[{_cards(data["cards"])}],'
            f'"to_move":{"null" if to_move is None else int(to_move)},"phase":{dumps(data["phase"])}}}'
        )
    return dumps(event.to_json())


class ViewEncoder:
    """Encodes the views of one table; keep one per table (it caches the current hand's tricks)."""

    def __init__(self) -> None:
        self._records: list[TrickRecord] = []
        self._texts: list[str] = []
        self._hands: dict[int | None, tuple[tuple[int, ...], str]] = {}
        """By seat: the cards last encoded (the very tuple, which the round keeps while they do not
        change) and their JSON."""

    def _tricks(self, tricks: tuple[TrickRecord, ...]) -> list[str]:
        """The JSON of each trick of ``tricks``, encoding only the ones not seen before."""
        cached = len(self._records)
        if cached > len(tricks) or (cached and tricks[cached - 1] is not self._records[-1]):
            self._records, self._texts = [], []
        for record in tricks[len(self._records) :]:
            self._records.append(record)
            self._texts.append(dumps(record.to_json()))
        return self._texts

    def public(self, view: SeatView, full: bool = False) -> str:
        """The part shared by every view of this moment (taken from any one of them), as JSON text
        without its closing brace; ``full`` adds the whole trick history."""
        data = _public_fields(view)
        texts = self._tricks(view.tricks)
        head = dumps(data)[:-1]
        last = texts[-1] if texts else "null"
        tail = f',"tricks":[{",".join(texts)}]' if full else ""
        return f'{head},"tricks_played":{len(texts)},"last_trick":{last}{tail}'

    def seat_view(self, public: str, view: SeatView) -> str:
        """One seat's (or the spectator's) full view: ``public`` plus the private fields of ``view``."""
        cached = self._hands.get(view.seat)
        if cached is not None and cached[0] is view.hand:
            hand = cached[1]
        else:
            hand = _cards(view.hand)
            self._hands[view.seat] = (view.hand, hand)
        return public + "," + _private(view, hand) + "}"
