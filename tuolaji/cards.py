"""Cards as small ints (RULES.md R4, card notation).

A card *kind* is an int 0–53: ``suit * 13 + rank`` for the 52 suited kinds, where suits are
``S H C D`` (0–3) and ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (0–12), then ``SJ`` = 52 and ``BJ`` = 53.
Four decks hold every kind four times (216 cards). A hand is a list of kinds, or a 54-slot
count vector where that is handier.

>>> parse_cards("AS 10h BJ")
[12, 21, 53]
>>> format_cards([12, 21, 53])
'AS TH BJ'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

Card = int
"""A card kind, 0–53."""

SUITS: Final = "SHCD"
"""Suit letters in kind order: ♠ 黑桃, ♥ 紅桃, ♣ 梅花, ♦ 方塊."""
RANKS: Final = "23456789TJQKA"
"""Rank letters in kind order (T is ten)."""

SMALL_JOKER: Final[Card] = 52
BIG_JOKER: Final[Card] = 53
KINDS: Final = 54
DECKS: Final = 4
DECK_SIZE: Final = KINDS * DECKS
"""216 cards (R4)."""
HAND_SIZE: Final = DECK_SIZE // 4
"""54 cards each, no kitty (R4)."""

_JOKER_NAMES: Final = {"SJ": SMALL_JOKER, "BJ": BIG_JOKER}


class CardParseError(ValueError):
    """A card token that is not in the notation of RULES.md (rank then suit, or BJ/SJ)."""


def make_card(rank: int, suit: int) -> Card:
    """The kind of a suited card from rank index (0 = 2 … 12 = A) and suit index (0 = S … 3 = D)."""
    return suit * 13 + rank


def is_joker(card: Card) -> bool:
    return card >= SMALL_JOKER


def suit_of(card: Card) -> int:
    """Suit index 0–3; jokers have none and give -1."""
    return -1 if card >= SMALL_JOKER else card // 13


def rank_of(card: Card) -> int:
    """Rank index 0 (= 2) … 12 (= A); jokers give -1."""
    return -1 if card >= SMALL_JOKER else card % 13


def parse_rank(text: str) -> int:
    """Rank index of ``2``…``A`` (``10`` or ``T`` for ten), case-insensitive."""
    token = text.strip().upper()
    if token == "10":
        token = "T"
    if len(token) != 1 or token not in RANKS:
        raise CardParseError(f"bad rank {text!r}: expected one of 2 3 4 5 6 7 8 9 T(10) J Q K A")
    return RANKS.index(token)


def parse_suit(text: str) -> int:
    """Suit index of ``S``/``H``/``C``/``D``, case-insensitive."""
    token = text.strip().upper()
    if len(token) != 1 or token not in SUITS:
        raise CardParseError(f"bad suit {text!r}: expected one of S H C D")
    return SUITS.index(token)


def parse_card(token: str) -> Card:
    """One card: rank then suit (``AS``, ``TH``, ``10H``) or a joker (``BJ`` 大王, ``SJ`` 小王)."""
    text = token.strip().upper()
    if text in _JOKER_NAMES:
        return _JOKER_NAMES[text]
    if len(text) < 2:
        raise CardParseError(f"bad card {token!r}: expected rank then suit, e.g. AS, 10H, or BJ/SJ")
    try:
        return make_card(parse_rank(text[:-1]), parse_suit(text[-1]))
    except CardParseError:
        raise CardParseError(
            f"bad card {token!r}: expected rank (2-9, T or 10, J, Q, K, A) then suit (S, H, C, D), or BJ/SJ"
        ) from None


def parse_cards(text: str) -> list[Card]:
    """Whitespace-separated card tokens, in order. A bad token raises :class:`CardParseError`."""
    return [parse_card(token) for token in text.split()]


def format_card(card: Card) -> str:
    if not 0 <= card < KINDS:
        raise ValueError(f"bad card kind {card!r}: expected 0..{KINDS - 1}")
    if card == SMALL_JOKER:
        return "SJ"
    if card == BIG_JOKER:
        return "BJ"
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def format_cards(cards: Iterable[Card]) -> str:
    """The inverse of :func:`parse_cards`: tokens joined by single spaces."""
    return " ".join(format_card(card) for card in cards)


def card_points(cards: Iterable[Card]) -> int:
    """Point value (R35): 5 = 5, 10 = 10, K = 10, everything else 0."""
    return sum(POINTS[card] for card in cards)


POINTS: Final[tuple[int, ...]] = tuple(
    {3: 5, 8: 10, 11: 10}.get(rank_of(kind), 0) if kind < SMALL_JOKER else 0 for kind in range(KINDS)
)
"""Points per kind (R35)."""


def full_deck() -> list[Card]:
    """All 216 cards of four decks (R4), in kind order."""
    return [kind for kind in range(KINDS) for _ in range(DECKS)]


def count_vector(cards: Iterable[Card]) -> list[int]:
    """A 54-slot vector: how many of each kind."""
    counts = [0] * KINDS
    for card in cards:
        counts[card] += 1
    return counts


def contains(hand: Sequence[Card], cards: Sequence[Card]) -> bool:
    """Whether ``hand`` holds every card of ``cards`` (with multiplicity)."""
    have = count_vector(hand)
    for card in cards:
        have[card] -= 1
        if have[card] < 0:
            return False
    return True


def remove_cards(hand: list[Card], cards: Iterable[Card]) -> None:
    """Remove ``cards`` from ``hand`` in place; raises ``ValueError`` if one is missing."""
    for card in cards:
        hand.remove(card)
