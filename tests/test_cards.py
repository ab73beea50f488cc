"""Card notation (RULES.md, card notation; R4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tuolaji.cards import (
    BIG_JOKER,
    SMALL_JOKER,
    CardParseError,
    card_points,
    format_cards,
    full_deck,
    make_card,
    parse_card,
    parse_cards,
)


def test_notation_examples() -> None:
    assert parse_cards("AS 10h th BJ sj JS") == [
        make_card(12, 0),
        make_card(8, 1),
        make_card(8, 1),
        BIG_JOKER,
        SMALL_JOKER,
        make_card(9, 0),
    ]
    assert format_cards(parse_cards("10H js")) == "TH JS"


@pytest.mark.parametrize("token", ["1S", "AX", "10", "S", "BJJ", "11H", "", "JJ"])
def test_bad_tokens_name_the_token(token: str) -> None:
    with pytest.raises(CardParseError) as error:
        parse_card(token)
    assert repr(token) in str(error.value)


def test_a_bad_token_in_a_list_is_named() -> None:
    with pytest.raises(ValueError, match="'ZZ'"):
        parse_cards("AS ZZ KD")


@given(st.lists(st.integers(min_value=0, max_value=53), max_size=60))
def test_format_and_parse_are_inverse(cards: list[int]) -> None:
    assert parse_cards(format_cards(cards)) == cards


def test_four_decks_hold_400_points() -> None:
    """R4, R35: 216 cards, 100 points per deck."""
    deck = full_deck()
    assert len(deck) == 216
    assert card_points(deck) == 400
    assert card_points(parse_cards("5S TH KD AS BJ")) == 25
