"""Each seat's observation comes from its own view only (R46's view: never another seat's cards):
deals that differ only in cards another seat holds hidden give the same observation and offer."""

from __future__ import annotations

import random

import numpy as np

from tuolaji.cards import full_deck, make_card
from tuolaji.env import TractorEnv, encode_view, play_candidates
from tuolaji.game import Round, RoundSetup
from tuolaji.game.actions import Play
from tuolaji.game.round import stack_deck

from .play import agents_of, play_hand


def _hands(seed: int) -> list[list[int]]:
    deck = full_deck()
    random.Random(seed).shuffle(deck)
    return [deck[seat * 54 : seat * 54 + 54] for seat in range(4)]


def test_at_the_deal_a_seat_sees_the_same_whatever_the_others_hold() -> None:
    hands = _hands(1)
    others = hands[1] + hands[2] + hands[3]
    random.Random(2).shuffle(others)
    shuffled = [hands[0], others[:54], others[54:108], others[108:]]
    assert shuffled[1] != hands[1]
    seen = []
    for cards in (hands, shuffled):
        tractor = TractorEnv()
        tractor.reset(seed=3, options={"deck": stack_deck(cards)})
        assert tractor.agent_selection == "seat_0"
        seen.append(tractor.observe("seat_0"))
    assert np.array_equal(seen[0]["observation"], seen[1]["observation"])
    assert np.array_equal(seen[0]["action_mask"], seen[1]["action_mask"])
    assert not np.array_equal(TractorEnv().observation_space("seat_0").sample()["observation"], seen[0]["observation"])


def _swap_hidden(round_: Round, seat_a: int, seat_b: int) -> tuple[int, ...]:
    """The round's deck with one card still held by ``seat_a`` and a different one still held by
    ``seat_b`` exchanged (neither a level card, so every bid stays possible)."""
    level_cards = {make_card(round_.level, suit) for suit in range(4)}
    card_a, card_b = next(
        (a, b) for a in round_.hands[seat_a] for b in round_.hands[seat_b] if a != b and not {a, b} & level_cards
    )
    deck = list(round_.setup.dealing_order())
    first = round_.setup.dealer if round_.setup.dealer is not None else 0
    owner = [(first + index) % 4 for index in range(len(deck))]
    index_a = next(i for i, c in enumerate(deck) if c == card_a and owner[i] == seat_a)
    index_b = next(i for i, c in enumerate(deck) if c == card_b and owner[i] == seat_b)
    deck[index_a], deck[index_b] = card_b, card_a
    return tuple(deck)


def test_mid_hand_a_seat_sees_the_same_when_two_others_swap_hidden_cards() -> None:
    checked = 0
    for stop in (10, 50, 90):
        tractor = TractorEnv()
        play_hand(tractor, agents_of("heuristic"), seed=81 + stop)
        actions = tractor.round.actions
        cut = next(i for i, a in enumerate(actions) if isinstance(a, Play)) + stop
        assert cut < len(actions)
        original = Round.replay(tractor.round.setup, actions[:cut])
        for observer in range(4):
            seat_a, seat_b = [seat for seat in range(4) if seat != observer][:2]
            setup = RoundSetup(
                seed=0,
                options=original.setup.options,
                dealer=original.setup.dealer,
                level=original.level,
                deck=_swap_hidden(original, seat_a, seat_b),
            )
            swapped = Round(setup)
            for action in actions[:cut]:
                # The swap may make a past follow of seat_a or seat_b break R24; what it showed is the same.
                swapped.apply(action, checked=False)
            assert sorted(swapped.hands[seat_a]) != sorted(original.hands[seat_a])
            views = original.view(observer), swapped.view(observer)
            acting = original.to_move
            assert np.array_equal(encode_view(views[0], acting), encode_view(views[1], acting))
            assert play_candidates(views[0]) == play_candidates(views[1])
            checked += 1
    assert checked == 12
