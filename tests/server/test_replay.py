"""What ``GET /api/hands/ID`` derives from a stored hand by replaying it (docs/PROTOCOL.md §1)."""

from __future__ import annotations

from typing import Any

from tuolaji.cards import SUITS, make_card
from tuolaji.game.actions import Bid, CloseBidding, DealCards, action_to_json
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Round, RoundSetup
from tuolaji.server.hand_history import record_details


def stored(round_: Round) -> dict[str, Any]:
    """The replay-relevant part of the HandRecord the server stores for ``round_`` (as ``Table._hand_write``):
    setup and actions only, nothing derived."""
    setup = round_.setup
    return {
        "options": setup.options.to_json(),
        "setup": setup.to_json(),
        "actions": [action_to_json(action) for action in round_.actions],
    }


def test_replay_details_list_every_bid_of_a_stored_hand() -> None:
    """R16–R18: ``bids`` is every accepted bid in order, the overturned one first, the standing one
    (``bid``, R19: its bidder deals the first hand) last. Records hold no bids, only actions, so
    records stored before the field existed get it too."""
    round_ = Round(RoundSetup(seed=8, options=TableOptions(deal_interval_ms=0), dealer=None, level=1))
    round_.apply(DealCards(216))
    held = [[round_.hand(seat).count(make_card(round_.level, suit)) for suit in range(4)] for seat in range(4)]
    a, x = next((seat, suit) for seat in range(4) for suit in range(4) if held[seat][suit] >= 1)
    b, y = next((seat, suit) for seat in range(4) for suit in range(4) if seat != a and held[seat][suit] >= 2)
    round_.apply(Bid(a, x, 1))
    round_.apply(Bid(b, y, 2))
    round_.apply(CloseBidding())
    record = stored(round_)
    assert "bid" not in record and "bids" not in record
    details = record_details(record)
    assert details["bids"] == [{"seat": a, "suit": SUITS[x], "count": 1}, {"seat": b, "suit": SUITS[y], "count": 2}]
    assert details["bid"] == details["bids"][-1] and details["dealer"] == b
    assert details["trump"]["suit"] == SUITS[y]


def test_a_redealt_hand_has_no_bids() -> None:
    """R20: nobody bid."""
    round_ = Round(RoundSetup(seed=3, options=TableOptions(deal_interval_ms=0)))
    round_.apply(DealCards(216))
    round_.apply(CloseBidding())
    details = record_details(stored(round_))
    assert details["bids"] == [] and details["bid"] is None
