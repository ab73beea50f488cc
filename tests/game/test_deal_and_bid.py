"""Deal and bid (R15–R20)."""

from __future__ import annotations

import random

import pytest

from tuolaji.cards import DECK_SIZE, SUITS, count_vector, full_deck
from tuolaji.game import (
    BadBid,
    Bid,
    CloseBidding,
    DealCards,
    Match,
    MatchState,
    Phase,
    Play,
    Round,
    RoundSetup,
    TableOptions,
    WrongPhase,
)
from tuolaji.game.round import shuffle
from tuolaji.game.simulate import play_random_round
from tuolaji.game.view import BidRecord
from tuolaji.wire.views import view_json

from .helpers import hands_with, stacked_round


def test_deal_gives_54_each_from_four_decks_in_play_order() -> None:
    """R4, R15: one card at a time in play order from the dealer; 54 each; every card 4 times."""
    round_ = Round(RoundSetup(seed=7, dealer=2, level=1))
    order = round_.setup.dealing_order()
    events = round_.apply(DealCards(5))
    assert [len(hand) for hand in round_.hands] == [1, 1, 2, 1]
    assert round_.hands[2] == [order[0], order[4]]
    assert round_.hands[3] == [order[1]]
    private = {event.to: event.data["cards"] for event in events if event.to is not None}
    assert private[2] == (order[0], order[4])
    round_.apply(DealCards(DECK_SIZE))
    assert round_.phase is Phase.BIDDING
    assert [len(hand) for hand in round_.hands] == [54, 54, 54, 54]
    assert sorted(card for hand in round_.hands for card in hand) == full_deck()


def test_same_seed_same_deal_and_different_seed_different_deal() -> None:
    first = RoundSetup(seed=11).dealing_order()
    assert first == RoundSetup(seed=11).dealing_order()
    assert first != RoundSetup(seed=12).dealing_order()
    assert count_vector(first) == [4] * 54


def test_deal_after_the_deal_is_refused() -> None:
    round_ = Round(RoundSetup(seed=1))
    round_.apply(DealCards(DECK_SIZE))
    with pytest.raises(WrongPhase, match="R15"):
        round_.apply(DealCards(1))


def _bidding_round() -> Round:
    """Level 10, first hand: seat 1 holds TS TS TS TC, seat 2 TH TH TH TH, seat 3 TD."""
    hands = hands_with({0: "TS TC TC TD TD TD", 1: "TS TS TS TC TC", 2: "TH TH TH TH", 3: "TD"})
    round_ = stacked_round(hands, dealer=None, level="T")
    round_.apply(DealCards(DECK_SIZE))
    return round_


def test_bid_reinforce_overturn_and_first_hand_dealer() -> None:
    """R16 bid, R17 加固, R18 反主, R19 the standing bidder deals the first hand."""
    round_ = _bidding_round()
    assert round_.apply(Bid(3, SUITS.index("D"), 1))[0].data["kind"] == "bid"
    assert round_.apply(Bid(1, SUITS.index("S"), 2))[0].data["kind"] == "overturn"
    assert round_.apply(Bid(1, SUITS.index("S"), 3))[0].data["kind"] == "reinforce"
    assert round_.apply(Bid(2, SUITS.index("H"), 4))[0].data["kind"] == "overturn"
    round_.apply(CloseBidding())
    assert round_.dealer == 2
    assert round_.trump is not None and round_.trump.suit == SUITS.index("H")
    assert round_.to_move == 2 and round_.phase is Phase.PLAYING


@pytest.mark.parametrize(
    ("bids", "bad", "rule"),
    [
        ([], Bid(3, SUITS.index("D"), 2), "R16"),
        ([Bid(1, 0, 2)], Bid(3, SUITS.index("D"), 1), "R18"),
        ([Bid(1, 0, 2)], Bid(1, 0, 2), "R17"),
        ([Bid(1, 0, 1)], Bid(1, SUITS.index("C"), 2), "R17"),
        ([Bid(2, 1, 4)], Bid(1, 0, 3), "R18"),
    ],
)
def test_bids_that_do_not_outrank_are_refused_and_change_nothing(bids: list[Bid], bad: Bid, rule: str) -> None:
    round_ = _bidding_round()
    for bid in bids:
        round_.apply(bid)
    standing = round_.bid
    with pytest.raises(BadBid, match=rule):
        round_.apply(bad)
    assert round_.bid == standing


def test_bid_options_follow_the_rules() -> None:
    round_ = _bidding_round()
    assert round_.bid_options(1) == [(0, 1), (0, 2), (0, 3), (2, 1), (2, 2)]
    round_.apply(Bid(1, 0, 1))
    assert round_.bid_options(1) == [(0, 2), (0, 3)]
    assert round_.bid_options(2) == [(1, 2), (1, 3), (1, 4)]
    assert round_.bid_options(3) == []


def test_later_hands_keep_the_dealer_and_bidding_only_picks_trump() -> None:
    """R19: after the first hand the dealer is fixed by R37."""
    hands = hands_with({1: "5S 5S"})
    round_ = stacked_round(hands, dealer=3, level="5")
    round_.apply(DealCards(DECK_SIZE))
    round_.apply(Bid(1, 0, 2))
    round_.apply(CloseBidding())
    assert round_.dealer == 3 and round_.to_move == 3
    assert round_.trump is not None and round_.trump.suit == 0


def test_no_bid_is_a_redeal_and_three_redeals_stop_or_dissolve() -> None:
    """R20: no bid → redeal; after 3 in a row nanning stops (resumable), fourdeck dissolves."""
    for preset, state in (("nanning", MatchState.STOPPED), ("fourdeck", MatchState.OVER)):
        match = Match(TableOptions(preset=preset), seed=5)
        for attempt in range(3):
            round_ = match.start_round()
            round_.apply(DealCards(DECK_SIZE))
            round_.apply(CloseBidding())
            outcome = match.finish_round()
            assert outcome.result.kind == "redeal"
            assert outcome.levels_after == outcome.levels_before
            assert match.state == (state if attempt == 2 else MatchState.PLAYING)
        if preset == "nanning":
            match.resume()
            assert match.state is MatchState.PLAYING and match.levels == [1, 1] and match.dealer is None
        else:
            with pytest.raises(ValueError, match="R20"):
                match.start_round()


def test_closing_bids_during_the_deal_and_playing_before_bidding_are_refused() -> None:
    round_ = Round(RoundSetup(seed=3))
    round_.apply(DealCards(100))
    with pytest.raises(WrongPhase, match="R19"):
        round_.apply(CloseBidding())
    with pytest.raises(WrongPhase):
        round_.apply(Play(0, tuple(round_.hands[0][:1])))


def test_replaying_the_actions_reproduces_the_round() -> None:
    """DESIGN: (setup, actions) fully define a round: same views, same events, same result."""
    original = Round(RoundSetup(seed=42, options=TableOptions(preset="guigang"), dealer=1, level=4))
    play_random_round(original, random.Random(3))
    copy = Round(original.setup)
    events = [event for action in original.actions for event in copy.apply(action)]
    assert copy.result == original.result
    assert [copy.view(seat) for seat in range(4)] == [original.view(seat) for seat in range(4)]
    replayed = Round.replay(original.setup, original.actions)
    assert replayed.tricks == original.tricks
    again = Round(original.setup)
    assert [event for action in original.actions for event in again.apply(action)] == events


def test_every_seat_and_a_spectator_see_every_bid_in_order() -> None:
    """R16–R18: bids are public and shown cards stay in the hand, so every view lists every accepted
    bid of the round, oldest first (overturned ones too); ``bid`` is the last of them."""
    hands = hands_with({0: "TS TS TS TS", 1: "TH TH TH", 3: "TD"})
    round_ = stacked_round(hands, dealer=None, level="T")
    round_.apply(DealCards(DECK_SIZE))
    spade, heart = SUITS.index("S"), SUITS.index("H")
    for seat in (None, 0, 1, 2, 3):
        assert round_.view(seat).bids == () and round_.view(seat).bid is None
    steps = [
        (Bid(0, spade, 1), "bid"),  # R16
        (Bid(1, heart, 2), "overturn"),  # R18
        (Bid(1, heart, 3), "reinforce"),  # R17
        (Bid(0, spade, 4), "overturn"),  # R18: the first bidder takes it back; 4 cannot be overturned
    ]
    expected: list[BidRecord] = []
    for action, kind in steps:
        assert round_.apply(action)[0].data["kind"] == kind
        expected.append(BidRecord(action.seat, action.suit, action.count))
        for seat in (None, 0, 1, 2, 3):
            view = round_.view(seat)
            assert view.bids == tuple(expected) and view.bid == expected[-1]
    with pytest.raises(BadBid, match="R18"):
        round_.apply(Bid(3, SUITS.index("D"), 1))
    assert round_.bids == expected
    round_.apply(CloseBidding())
    assert round_.dealer == 0 and round_.trump is not None and round_.trump.suit == spade
    for seat in (None, 0, 1, 2, 3):
        data = view_json(round_.view(seat))
        assert data["bids"] == [
            {"seat": 0, "suit": "S", "count": 1},
            {"seat": 1, "suit": "H", "count": 2},
            {"seat": 1, "suit": "H", "count": 3},
            {"seat": 0, "suit": "S", "count": 4},
        ]
        assert data["bid"] == data["bids"][-1]


def test_a_redealt_round_lists_no_bids() -> None:
    """R20: nobody bid, so the finished round's views show an empty bid history."""
    round_ = Round(RoundSetup(seed=2))
    round_.apply(DealCards(DECK_SIZE))
    round_.apply(CloseBidding())
    assert round_.result is not None and round_.result.kind == "redeal"
    assert round_.view(None).bids == () and view_json(round_.view(1))["bids"] == []


def test_a_deal_is_shuffled_as_the_standard_library_shuffles() -> None:
    for seed in [*range(200), 2**63 - 1, 987654321987654321]:
        expected = full_deck()
        random.Random(seed).shuffle(expected)
        assert RoundSetup(seed=seed).dealing_order() == expected
        cards, rng, reference = list(range(seed % 7)), random.Random(seed), random.Random(seed)
        mine = list(cards)
        shuffle(mine, rng)
        reference.shuffle(cards)
        assert mine == cards and rng.random() == reference.random()
