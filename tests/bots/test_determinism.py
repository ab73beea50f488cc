"""Same seed, same moves; and the bots use nothing but the view."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.bots.conftest import play_hand, setup
from tuolaji.bots import ALIASES, BOT_NAMES, Bot, make_bot
from tuolaji.bots.policy.bidding import HEURISTIC_BIDDERS
from tuolaji.cards import DECK_SIZE, make_card
from tuolaji.game import Bid, CloseBidding, CloseReview, DealCards, GameError, Phase, Play, Round
from tuolaji.game.driver import deal_and_bid
from tuolaji.game.round import stack_deck


def bots_for(name: str, seed: int) -> list[Bot]:
    options = {"budget_ms": 1, "horizon_tricks": 2} if name == "search" else {}
    return [make_bot(name, seed + seat, **options) for seat in range(4)]


@pytest.mark.parametrize("name", BOT_NAMES)
def test_same_seed_same_moves(name: str) -> None:
    first = play_hand(bots_for(name, 5), 11, "nanning", dealer=2, level=4)
    second = play_hand(bots_for(name, 5), 11, "nanning", dealer=2, level=4)
    assert first is not None and second is not None
    assert first.actions == second.actions


def test_aliases() -> None:
    assert {ALIASES[alias] for alias in ("easy", "normal", "hard")} == set(BOT_NAMES)
    assert make_bot("normal", 1).name == "heuristic"
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nobody", 1)
    with pytest.raises(ValueError, match="no options"):
        make_bot("random", 1, budget_ms=5)


def test_not_my_turn_and_spectator() -> None:
    round_ = Round(setup(3, "nanning", dealer=0))
    assert deal_and_bid(round_, HEURISTIC_BIDDERS)
    bot = make_bot("heuristic", 0)
    assert bot.choose(round_.view(None)) is None
    assert bot.choose(round_.view(1)) is None
    assert isinstance(bot.choose(round_.view(0)), Play)


def deal_then_bid(seed: int, dealer: int) -> Round:
    """A round dealt in one go and then bid by the heuristic, so any deck order replays the same bids."""
    round_ = Round(setup(seed, "nanning", dealer=dealer, level=3))
    round_.apply(DealCards(DECK_SIZE))
    bidders = bots_for("heuristic", seed)
    for _ in range(20):
        actions = [bidders[s].choose(round_.view(s)) for s in range(4)]
        bids = [action for action in actions if isinstance(action, Bid)]
        if not bids:
            break
        round_.apply(bids[0])
    round_.apply(CloseBidding())
    return round_


def swapped_world(round_: Round, seat: int, rng: random.Random) -> Round | None:
    """The same history seen from ``seat``, with some hidden cards swapped between two other
    seats (same suit-class, never the bid's level cards); None if that history is no longer legal."""
    assert round_.trump is not None and round_.bid is not None and round_.dealer is not None
    trump = round_.trump
    played: list[list[int]] = [[], [], [], []]
    for trick in round_.tricks:
        for play in trick.plays:
            played[play.seat] += play.cards
    for s, cards in round_.plays.items():
        played[s] += cards
    hidden = [list(round_.hands[s]) for s in range(4)]
    others = [s for s in range(4) if s != seat]
    a, b = rng.sample(others, 2)
    bid_card = make_card(round_.level, round_.bid.suit)
    for _ in range(6):
        pairs = [
            (i, j)
            for i, x in enumerate(hidden[a])
            for j, y in enumerate(hidden[b])
            if x != y and trump.suit_class(x) == trump.suit_class(y) and bid_card not in (x, y)
        ]
        if not pairs:
            break
        i, j = rng.choice(pairs)
        hidden[a][i], hidden[b][j] = hidden[b][j], hidden[a][i]
    deck = stack_deck([played[s] + hidden[s] for s in range(4)], round_.dealer)
    try:
        return Round.replay(replace(round_.setup, deck=deck), round_.actions)
    except GameError:
        return None


@pytest.mark.parametrize("name", BOT_NAMES)
def test_decisions_depend_on_the_view_only(name: str) -> None:
    """Hidden cards moved between the other seats (same history, same view) never change a move."""
    rng = random.Random(4)
    checked = 0
    for seed in range(8):
        round_ = deal_then_bid(seed, seed % 4)
        if round_.phase is not Phase.PLAYING:
            continue
        movers = bots_for("heuristic", seed)
        for _ in range(20 + 7 * seed):
            seat = round_.to_move
            assert seat is not None
            action = movers[seat].choose(round_.view(seat))
            assert action is not None
            round_.apply(action)
            if round_.to_move is None:
                round_.apply(CloseReview())
        seat = round_.to_move
        assert seat is not None
        other = swapped_world(round_, seat, rng)
        if other is None:
            continue
        assert other.view(seat) == round_.view(seat)
        assert [sorted(h) for h in other.hands] != [sorted(h) for h in round_.hands]
        bot = bots_for(name, 9)[seat]
        assert bot.choose(other.view(seat)) == bot.choose(round_.view(seat))
        checked += 1
    assert checked >= 3
