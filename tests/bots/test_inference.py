"""Reading follows backwards (tuolaji.bots.inference): golden tricks, and the contradiction rule.

Whole hands, where the real hands of heuristic players keep every inferred cap at every move,
are in tests/bots/test_caps.py."""

from __future__ import annotations

import random

from tuolaji.bots.inference import infer_kind_caps
from tuolaji.bots.sampling import sample_hands
from tuolaji.bots.table import card_table
from tuolaji.bots.tracking import Knowledge
from tuolaji.cards import HAND_SIZE, KINDS, SUITS, parse_card, parse_cards, parse_rank
from tuolaji.game.view import PlayRecord
from tuolaji.rules import get_preset

NANNING = get_preset("nanning")
TABLE = card_table(parse_rank("7"), SUITS.index("S"))
"""Level 7, spades trump: clubs from 3 up (less the 7) are a plain side suit (R8; 2s are trumps)."""
HEARTS = [card for card in parse_cards("3H 4H 5H 6H 8H 9H TH JH QH KH AH") for _ in range(4)]
CLUBS = parse_cards("3C 3C 5C 5C 6C 6C 8C 8C 9C 9C JC JC")


def plays(*moves: tuple[int, str]) -> list[PlayRecord]:
    return [PlayRecord(seat, tuple(parse_card(card) for card in cards.split())) for seat, cards in moves]


def caps_seen_by_seat_0(clubs: list[int], *tricks: list[PlayRecord]) -> list[dict[int, int]]:
    """The caps seat 0 infers; it holds ``clubs`` and hearts (a full hand before the tricks)."""
    played = sum(len(play.cards) for trick in tricks for play in trick if play.seat == 0)
    hand = clubs + HEARTS[: HAND_SIZE - played - len(clubs)]
    return infer_kind_caps(TABLE, NANNING, 0, hand, list(tricks))


def test_the_last_seat_that_lets_a_rich_trick_go_holds_nothing_that_wins_it() -> None:
    """Seat 3 plays last: an ace would surely have taken seat 0's king (10 points, R35), so having
    played the 3 instead it holds no ace of clubs; nothing is inferred about cards that lose."""
    caps = caps_seen_by_seat_0([], plays((0, "KC"), (1, "4C"), (2, "6C"), (3, "3C")))
    assert caps[3] == {parse_card("AC"): 0}
    assert caps[1] == {} and caps[2] == {}


def test_a_pair_answered_with_a_low_pair_caps_the_winning_kind_at_one() -> None:
    """R24: the last seat answers a pair of kings with a pair of 3s: it held no pair of aces."""
    caps = caps_seen_by_seat_0([], plays((0, "KC KC"), (1, "4C 4C"), (2, "6C 6C"), (3, "3C 3C")))
    assert caps[3] == {parse_card("AC"): 1}


def test_second_seat_low_with_the_viewer_short_in_clubs_tells_nothing() -> None:
    """Seat 1 plays second with seat 2 still to play. Seat 0 holds no clubs, so for all it knows
    seat 1 saw so few clubs hidden that seat 2 might be void and ruff an ace: nothing certain
    follows from its playing low."""
    caps = caps_seen_by_seat_0([], plays((0, "KC"), (1, "4C")))
    assert caps[1] == {}


def test_second_seat_low_while_the_viewer_holds_many_clubs_holds_no_ace() -> None:
    """The same trick seen by a seat 0 holding twelve clubs: seat 1 saw at least those twelve as
    hidden, so seat 2 was almost surely not void and an ace would almost surely have held; by the
    heuristic's reckoning it beats playing low even at its worst, so seat 1 holds no ace."""
    caps = caps_seen_by_seat_0(CLUBS, plays((0, "KC"), (1, "4C")))
    assert caps[1] == {parse_card("AC"): 0}


def test_feeding_points_to_a_sure_winning_partner_caps_the_richer_kinds_not_played() -> None:
    """Seat 2 plays last behind its partner's winning ace: every point card that does not win is
    worth more to feed than the 3 it played, so it holds none of them."""
    caps = caps_seen_by_seat_0([], plays((3, "4C"), (0, "AC"), (1, "8C"), (2, "3C")))
    richer = {parse_card(card) for card in ("5C", "TC", "KC")}
    assert richer <= set(caps[2]) and all(caps[2][kind] == 0 for kind in richer)


def test_a_later_play_of_a_capped_kind_drops_the_cap() -> None:
    """A seat that does not follow like the heuristic shows it: the cap goes once it plays the kind."""
    first = plays((0, "KC"), (1, "4C"), (2, "6C"), (3, "3C"))
    later = plays((3, "AC"), (0, "5C"), (1, "6C"), (2, "8C"))
    assert parse_card("AC") in caps_seen_by_seat_0([], first)[3]
    assert parse_card("AC") not in caps_seen_by_seat_0([], first, later)[3]


def test_the_viewer_infers_nothing_about_itself() -> None:
    caps = caps_seen_by_seat_0([], plays((1, "KC"), (2, "4C"), (3, "6C"), (0, "3C")))
    assert caps[0] == {}


def test_a_low_lead_shows_no_ace_was_safe_to_cash() -> None:
    """The heuristic cashes sure winners first: seat 1 leading the 4 of clubs at the first trick
    held no ace of clubs or hearts, which (with seat 0's twelve clubs and hearts hidden from it)
    it would have reckoned safe from ruffs; an ace of diamonds it may hold, as for all seat 0 knows
    seat 1 saw almost no diamonds hidden and feared a ruff."""
    caps = caps_seen_by_seat_0(CLUBS, plays((1, "4C")))
    assert caps[1][parse_card("AC")] == 0 and caps[1][parse_card("AH")] == 0
    assert parse_card("AD") not in caps[1]


def test_contradictory_inferences_are_dropped_before_the_voids() -> None:
    """Two ace-of-clubs and one ace-of-diamonds hidden, one card in each other hand; seat 3 has
    shown a void in diamonds (R23, a rule) while the inferences leave no room for a second club
    ace: the sampler drops the inferences, not the void."""
    ac, ad = parse_card("AC"), parse_card("AD")
    unseen = [0] * KINDS
    unseen[ac], unseen[ad] = 2, 1
    know = Knowledge(unseen, [set(), set(), set(), {TABLE.cls[ad]}], [[0] * KINDS for _ in range(4)])
    know.kind_caps = [{}, {ac: 0}, {ac: 0}, {}]
    for seed in range(20):
        hands = sample_hands(TABLE, know, 0, [0] * KINDS, [0, 1, 1, 1], random.Random(seed))
        assert hands[3][ac] == 1 and hands[3][ad] == 0
        assert hands[1][ad] + hands[2][ad] == 1
