"""Card counting from the whole bid history (R16–R18: bids are public and shown cards stay in the
hand): every seat that showed level cards, overturned or not, is known to hold them until it plays
them; over whole hands the real hands always hold at least the known cards."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.bots.conftest import setup
from tests.game.helpers import hands_with, stacked_round
from tuolaji.bots import make_bot
from tuolaji.bots.knowledge.cardinfo import card_table
from tuolaji.bots.knowledge.sampling import sample_hands
from tuolaji.bots.knowledge.shapes import counts_of
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.knowledge.tracking import Knowledge
from tuolaji.cards import DECK_SIZE, KINDS, SUITS, make_card, parse_card, parse_cards, parse_rank
from tuolaji.game import Bid, CloseBidding, DealCards, Phase, Play, Round
from tuolaji.game.driver import DEAL_STEP, play_to_end
from tuolaji.game.options import TableOptions
from tuolaji.game.view import BidRecord, PlayRecord

SPADE, HEART = SUITS.index("S"), SUITS.index("H")
WAR = (BidRecord(0, SPADE, 1), BidRecord(1, HEART, 2), BidRecord(1, HEART, 3), BidRecord(0, SPADE, 4))
"""Seat 0 bids (R16), seat 1 overturns (R18) and reinforces (R17), seat 0 overturns back (R18)."""


def test_every_bid_counts_not_only_the_standing_one() -> None:
    """Per seat and suit the most level cards it showed (not the sum of its bids), less those played."""
    table = card_table(parse_rank("T"), SPADE)
    ts, th = parse_card("TS"), parse_card("TH")
    hand = parse_cards("2C 3C 4C")
    know = Knowledge.build(table, hand, [[]], WAR)
    assert know.known[0][ts] == 4 and know.known[1][th] == 3
    assert sum(map(sum, know.known)) == 7
    assert Knowledge.build(table, hand, [[]], WAR[-1:]).known[1][th] == 0
    # Seat 1 leads one TH, seat 0 follows with a TS: one fewer of each is known.
    trick = [
        PlayRecord(1, (th,)),
        PlayRecord(2, (parse_card("2S"),)),
        PlayRecord(3, (parse_card("TD"),)),
        PlayRecord(0, (ts,)),
    ]
    know = Knowledge.build(table, hand, [trick, []], WAR)
    assert know.known[0][ts] == 3 and know.known[1][th] == 2
    # More played than shown (seat 1 held a fourth TH it never showed) never goes below zero.
    more = [PlayRecord(1, (th, th, th, th)), *(PlayRecord(s, tuple(parse_cards("2S 3S 4S 5S"))) for s in (2, 3, 0))]
    assert Knowledge.build(table, hand, [more, []], WAR).known[1][th] == 0


def test_the_overturned_bidders_cards_stay_known_until_played() -> None:
    """R18: seat 1's overturned 3×TH stay in its hand; every seat's card counting keeps them as known
    (and seat 0's 4×TS) and takes them off one by one as they are played, through a whole hand."""
    hands = hands_with({0: "TS TS TS TS", 1: "TH TH TH", 2: "TH"}, seed=3)
    options = TableOptions(illegal_follow="reject", deal_interval_ms=0)
    round_ = stacked_round(hands, dealer=None, level="T", options=options)
    round_.apply(DealCards(DECK_SIZE))
    for bid in WAR:
        round_.apply(Bid(bid.seat, bid.suit, bid.count))
    round_.apply(CloseBidding())
    ts, th = parse_card("TS"), parse_card("TH")
    bots = [make_bot("heuristic", seat) for seat in range(4)]
    seen: set[tuple[int, int]] = set()

    def move(seat: int) -> Play:
        played = played_by(round_)
        for viewer in range(4):
            know = Situation.from_view(round_.view(viewer)).know
            assert know.known[0][ts] == 4 - played[0][ts]
            assert know.known[1][th] == 3 - played[1][th]
            seen.add((know.known[0][ts], know.known[1][th]))
        action = bots[seat].choose(round_.view(seat))
        assert isinstance(action, Play)
        return action

    play_to_end(round_, move)
    assert round_.result is not None and round_.result.kind == "played"
    assert max(count for _, count in seen) == 3 and min(count for _, count in seen) < 3
    assert max(count for count, _ in seen) == 4 and min(count for count, _ in seen) < 4


def played_by(round_: Round) -> list[list[int]]:
    """Per seat, how many of each kind it has played so far (judged tricks and the current one)."""
    played = [[0] * KINDS for _ in range(4)]
    plays = [play for trick in round_.tricks for play in trick.plays]
    plays += [PlayRecord(seat, cards) for seat, cards in round_.plays.items()]
    for play in plays:
        for card in play.cards:
            played[play.seat][card] += 1
    return played


def bid_war(round_: Round, rng: random.Random) -> None:
    """Deal in steps; after each step, and after the deal until nobody can, a random seat that may
    bid shows as few level cards as it may (so bids, 加固 and 反主 follow each other, R16–R18)."""
    while round_.phase is Phase.DEALING:
        round_.apply(DealCards(DEAL_STEP))
        if rng.random() < 0.3:
            raise_bid(round_, rng)
    while raise_bid(round_, rng):
        pass
    round_.apply(CloseBidding())


def raise_bid(round_: Round, rng: random.Random) -> bool:
    options = [(seat, suit, count) for seat in range(4) for suit, count in round_.bid_options(seat)]
    if not options:
        return False
    low = min(count for _, _, count in options)
    round_.apply(Bid(*rng.choice([option for option in options if option[2] == low])))
    return True


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    preset=st.sampled_from(["nanning", "guigang", "fourdeck"]),
    dealer=st.sampled_from([None, 0, 1, 2, 3]),
)
def test_real_hands_hold_at_least_the_known_cards(seed: int, preset: str, dealer: int | None) -> None:
    """After a random bid war, at every move of a whole hand and from every seat's view, each seat
    really holds the level cards it is known to hold, exactly the most it showed per suit less those
    it played; the search's sampled deals give them to it too."""
    rng = random.Random(seed)
    round_ = Round(setup(seed, preset, dealer, level=rng.randint(1, 12)))
    bid_war(round_, rng)
    assert round_.phase is Phase.PLAYING  # R16: someone always holds a level card, so no redeal (R20)
    shown = [[0] * KINDS for _ in range(4)]
    for bid in round_.bids:
        kind = make_card(round_.level, bid.suit)
        shown[bid.seat][kind] = max(shown[bid.seat][kind], bid.count)
    bots = [make_bot("heuristic", seed + seat) for seat in range(4)]

    def move(seat: int) -> Play:
        played = played_by(round_)
        real = [counts_of(round_.hands[s]) for s in range(4)]
        for viewer in range(4):
            view = round_.view(viewer)
            assert view.bids == tuple(round_.bids)
            sit = Situation.from_view(view)
            for s in range(4):
                assert sit.know.known[s] == [max(0, shown[s][k] - played[s][k]) for k in range(KINDS)]
                assert all(real[s][k] >= sit.know.known[s][k] for k in range(KINDS))
            if viewer == seat:
                guess = sample_hands(sit.table, sit.know, seat, sit.counts, view.hand_sizes, rng)
                for s in range(4):
                    assert all(guess[s][k] >= sit.know.known[s][k] for k in range(KINDS))
        action = bots[seat].choose(round_.view(seat))
        assert isinstance(action, Play)
        return action

    play_to_end(round_, move)
    assert round_.result is not None
