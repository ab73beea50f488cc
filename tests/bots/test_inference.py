"""Reading follows backwards (tuolaji.bots.inference): golden tricks, and the contradiction rule.

Whole hands, where the real hands of heuristic players keep every inferred cap at every move,
are in tests/bots/test_caps.py."""

from __future__ import annotations

from tuolaji.bots.inference import note_follow_choices
from tuolaji.bots.table import card_table
from tuolaji.cards import SUITS, parse_card, parse_rank
from tuolaji.game.view import PlayRecord
from tuolaji.rules import get_preset

NANNING = get_preset("nanning")
TABLE = card_table(parse_rank("7"), SUITS.index("S"))
"""Level 7, spades trump: clubs from 3 up (less the 7) are a plain side suit (R8; 2s are trumps)."""


def plays(*moves: tuple[int, str]) -> list[PlayRecord]:
    return [PlayRecord(seat, tuple(parse_card(card) for card in cards.split())) for seat, cards in moves]


def caps_after(*tricks: list[PlayRecord]) -> list[dict[int, int]]:
    kind_caps: list[dict[int, int]] = [{}, {}, {}, {}]
    for trick in tricks:
        note_follow_choices(TABLE, NANNING, trick, kind_caps)
    return kind_caps


def test_the_last_seat_that_lets_a_rich_trick_go_holds_nothing_that_wins_it() -> None:
    """Seat 3 plays last: an ace would surely have taken seat 0's king (10 points, R35), so having
    played the 3 instead it holds no ace of clubs; nothing is inferred about cards that lose."""
    caps = caps_after(plays((0, "KC"), (1, "4C"), (2, "6C"), (3, "3C")))
    assert caps[3] == {parse_card("AC"): 0}
    assert caps[1] == {} and caps[2] == {}


def test_a_pair_answered_with_a_low_pair_caps_the_winning_kind_at_one() -> None:
    """R24: the last seat answers a pair of kings with a pair of 3s: it held no pair of aces."""
    caps = caps_after(plays((0, "KC KC"), (1, "4C 4C"), (2, "6C 6C"), (3, "3C 3C")))
    assert caps[3] == {parse_card("AC"): 1}


def test_no_inference_while_an_opponent_is_still_to_play() -> None:
    """Seat 1 plays second with seat 2 still to play: an ace might have been beaten or ruffed, so
    playing low says nothing certain."""
    caps = caps_after(plays((0, "KC"), (1, "4C")))
    assert caps[1] == {}


def test_feeding_points_to_a_sure_winning_partner_caps_the_richer_kinds_not_played() -> None:
    """Seat 2 plays last behind its partner's winning ace: every point card that does not win is
    worth more to feed than the 3 it played, so it holds none of them."""
    caps = caps_after(plays((3, "4C"), (0, "AC"), (1, "8C"), (2, "3C")))
    richer = {parse_card(card) for card in ("5C", "TC", "KC")}
    assert richer <= set(caps[2]) and all(caps[2][kind] == 0 for kind in richer)


def test_a_later_play_of_a_capped_kind_drops_the_cap() -> None:
    """A seat that does not follow like the heuristic shows it: the cap goes once it plays the kind."""
    first = plays((0, "KC"), (1, "4C"), (2, "6C"), (3, "3C"))
    later = plays((3, "AC"), (0, "5C"), (1, "6C"), (2, "8C"))
    assert caps_after(first, later)[3] == {}
