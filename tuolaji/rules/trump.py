"""The trump context of one hand (R5–R9, R12, R14): suit-classes, power order and tractor sequence.

Everything is precomputed per card kind when a :class:`Trump` is built (instances are cached per
level and suit), so the rest of the engine only does table lookups.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, final

from tuolaji.cards import BIG_JOKER, KINDS, RANKS, SMALL_JOKER, SUITS, Card, make_card

from .pattern import Pattern

TRUMP_CLASS: Final = 4
"""The suit-class of every trump (R8); off-suit cards have their suit index 0–3 as class."""

CLASS_NAMES: Final = ("♠", "♥", "♣", "♦", "trump")
"""Display names of the suit-classes 0–4."""

JOKER_TRACTOR_TOP: Final = 16
"""Tractor top of ``SJ SJ BJ BJ``: above every other tractor (R14)."""
LOW_2233_TOP: Final = 15
"""Tractor top of the trump 2-3 tractor at level 3 in preset ``guigang`` (R14): just below the jokers."""
A_HIGH_TOP: Final = 14
"""Tractor top of a tractor ending in a high A (R14); natural ranks 2…K are 2…13, a low A is 1."""

TRUMP_CHAIN_CAP: Final = 13
"""The trump-suit sequence A 2 … K A holds 13 kinds; A is never used twice in one tractor (R12)."""

Chain = tuple[tuple[Card, ...], int]
"""A stretch of the tractor sequence (R12): kinds in consecutive positions, and the longest
tractor it can hold (its number of distinct kinds)."""

_ACE: Final = 12
_TWO: Final = 0

# Power values (R9). Off-suit cards use their rank index (they are only compared within their
# suit); trumps are all above that range so that a trump's power also tells it is a trump.
_TRUMP_SUIT_BASE: Final = 20
_OTHER_TWO: Final = 40
_TRUMP_TWO: Final = 41
_OTHER_LEVEL: Final = 42
_TRUMP_LEVEL: Final = 43
_SMALL_JOKER_POWER: Final = 44
_BIG_JOKER_POWER: Final = 45

_CACHE: dict[tuple[int, int], Trump] = {}


def _parse_level(level: str | int) -> int:
    if isinstance(level, bool) or not isinstance(level, int | str):
        raise ValueError(f"bad trump level {level!r}: expected 3..A (T or 10 for ten) or a rank index 1..12")
    if isinstance(level, int):
        rank = level
    else:
        token = level.strip().upper()
        token = "T" if token == "10" else token
        rank = RANKS.index(token) if len(token) == 1 and token in RANKS else -1
    if rank == _TWO:
        raise ValueError(f"bad trump level {level!r}: 2 is never a level (R5)")
    if not 1 <= rank <= _ACE:
        raise ValueError(f"bad trump level {level!r}: expected 3..A (T or 10 for ten) or a rank index 1..12")
    return rank


def _parse_suit(suit: str | int) -> int:
    if isinstance(suit, bool) or not isinstance(suit, int | str):
        raise ValueError(f"bad trump suit {suit!r}: expected S, H, C, D or a suit index 0..3")
    if isinstance(suit, int):
        index = suit
    else:
        token = suit.strip().upper()
        index = SUITS.index(token) if len(token) == 1 and token in SUITS else -1
    if not 0 <= index <= 3:
        raise ValueError(f"bad trump suit {suit!r}: expected S, H, C, D or a suit index 0..3 (R7)")
    return index


@final
class Trump:
    """The hand's level rank and trump suit (R6, R7), with per-kind tables.

    ``Trump("T", "H")``, ``Trump("10", "h")`` and ``Trump(8, 1)`` are the same context: level ten,
    trump ♥. An int level is a rank *index* (0 = 2 … 12 = A), so ``Trump(10, 1)`` is level Q.
    Bad input raises ``ValueError`` naming it. Instances are immutable and cached.

    Attributes (all tuples indexed by card kind or suit-class): ``level`` and ``suit`` (indices),
    ``suit_classes``, ``powers``, ``sort_keys``; ``class_kinds[c]`` (kinds of suit-class ``c``,
    strongest first); ``chains[c]`` (the stretches of the tractor sequence of class ``c``, R12);
    ``tractor_tops`` maps the bit mask of a tractor's kinds to its top (R14);
    ``unit_patterns[arity][kind]`` is the :class:`Pattern` of that unit.
    """

    __slots__ = (
        "chains",
        "class_kinds",
        "level",
        "low_2233_mask",
        "powers",
        "sort_keys",
        "suit",
        "suit_classes",
        "tractor_tops",
        "unit_patterns",
    )

    level: int
    suit: int
    suit_classes: tuple[int, ...]
    powers: tuple[int, ...]
    sort_keys: tuple[int, ...]
    class_kinds: tuple[tuple[Card, ...], ...]
    chains: tuple[tuple[Chain, ...], ...]
    tractor_tops: dict[int, int]
    low_2233_mask: int
    unit_patterns: tuple[tuple[Pattern, ...], ...]

    def __new__(cls, level: str | int, suit: str | int) -> Trump:
        key = (_parse_level(level), _parse_suit(suit))
        cached = _CACHE.get(key)
        if cached is None:
            cached = super().__new__(cls)
            cached._build(*key)
            _CACHE[key] = cached
        return cached

    def _build(self, level: int, suit: int) -> None:
        self.level = level
        self.suit = suit
        classes, powers = _classes_and_powers(level, suit)
        self.suit_classes = tuple(classes)
        self.powers = tuple(powers)
        # Display order: trumps, then ♠ ♥ ♣ ♦; strongest first; equal powers by suit.
        self.sort_keys = tuple(
            (0 if classes[kind] == TRUMP_CLASS else 1 + classes[kind]) * 1000
            + (100 - powers[kind]) * 4
            + kind // 13 % 4
            for kind in range(KINDS)
        )
        self.unit_patterns = tuple(
            tuple(Pattern(arity, 1, classes[kind], powers[kind]) for kind in range(KINDS)) for arity in range(5)
        )
        self.class_kinds = tuple(
            tuple(sorted((k for k in range(KINDS) if classes[k] == c), key=self.sort_keys.__getitem__))
            for c in range(TRUMP_CLASS + 1)
        )
        tops: dict[int, int] = {}
        self.chains = _chains(level, suit, tops)
        self.tractor_tops = tops
        self.low_2233_mask = kinds_mask((make_card(_TWO, suit), make_card(1, suit))) if level == 1 else 0

    def suit_class(self, card: Card) -> int:
        """``TRUMP_CLASS`` (4) for a trump, else the card's suit 0–3 (R8)."""
        return self.suit_classes[card]

    def is_trump(self, card: Card) -> bool:
        """Whether ``card`` is a trump: joker, level card, 2, or of the trump suit (R8)."""
        return self.suit_classes[card] == TRUMP_CLASS

    def power(self, card: Card) -> int:
        """R9 power: bigger is stronger, equal for equal power (e.g. off-suit level cards).

        Every trump is above every off-suit card; off-suit cards compare only within their suit.
        """
        return self.powers[card]

    def sort_key(self, card: Card) -> int:
        """Display order: trumps first, then ♠ ♥ ♣ ♦, each strongest first."""
        return self.sort_keys[card]

    def __repr__(self) -> str:
        return f"Trump({RANKS[self.level]!r}, {SUITS[self.suit]!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Trump):
            return NotImplemented
        return (self.level, self.suit) == (other.level, other.suit)

    def __hash__(self) -> int:
        return hash((Trump, self.level, self.suit))

    def __reduce__(self) -> tuple[type[Trump], tuple[int, int]]:
        return (Trump, (self.level, self.suit))


def kinds_mask(kinds: Iterable[Card]) -> int:
    """The bit mask of a set of kinds, the key of :attr:`Trump.tractor_tops`."""
    mask = 0
    for kind in kinds:
        mask |= 1 << kind
    return mask


def _classes_and_powers(level: int, suit: int) -> tuple[list[int], list[int]]:
    """Per card kind, its suit-class (R8) and its R9 power (see the power constants)."""
    classes: list[int] = []
    powers: list[int] = []
    for kind in range(SMALL_JOKER):
        kind_suit, rank = divmod(kind, 13)
        own = kind_suit == suit
        if rank == level:
            classes.append(TRUMP_CLASS)
            powers.append(_TRUMP_LEVEL if own else _OTHER_LEVEL)
        elif rank == _TWO:
            classes.append(TRUMP_CLASS)
            powers.append(_TRUMP_TWO if own else _OTHER_TWO)
        elif own:
            classes.append(TRUMP_CLASS)
            powers.append(_TRUMP_SUIT_BASE + rank)
        else:
            classes.append(kind_suit)
            powers.append(rank)
    classes += [TRUMP_CLASS, TRUMP_CLASS]
    powers += [_SMALL_JOKER_POWER, _BIG_JOKER_POWER]
    return classes, powers


def _chains(level: int, suit: int, tops: dict[int, int]) -> tuple[tuple[Chain, ...], ...]:
    """Per suit-class, the stretches of its tractor sequence (R12); the top of every tractor they
    hold goes into ``tops`` by the mask of its kinds (R14)."""
    chains: list[tuple[Chain, ...]] = []
    for off_suit in range(4):
        if off_suit == suit:
            chains.append(())
            continue
        # R12: natural ranks 3…A without the level rank, so its neighbours do not join.
        below = tuple(make_card(r, off_suit) for r in range(1, level))
        above = tuple(make_card(r, off_suit) for r in range(level + 1, _ACE + 1))
        stretches = tuple((s, len(s)) for s in (below, above) if len(s) >= 2)
        chains.append(stretches)
        for stretch, _ in stretches:
            for start in range(len(stretch)):
                for end in range(start + 2, len(stretch) + 1):
                    tops[kinds_mask(stretch[start:end])] = stretch[end - 1] % 13 + 2
    # R12: A(low) 2 3 … K A(high) of the trump suit, level card and 2 in their natural places.
    trump_run = (make_card(_ACE, suit), *(make_card(r, suit) for r in range(_ACE + 1)))
    jokers = (SMALL_JOKER, BIG_JOKER)
    chains.append(((trump_run, TRUMP_CHAIN_CAP), (jokers, 2)))
    for start in range(len(trump_run)):
        for end in range(start + 2, min(len(trump_run), start + TRUMP_CHAIN_CAP) + 1):
            mask = kinds_mask(trump_run[start:end])
            # Position of the last kind: A low = 1, 2 = 2, …, K = 13, A high = 14 (R14).
            tops[mask] = max(tops.get(mask, 0), end)
    tops[kinds_mask(jokers)] = JOKER_TRACTOR_TOP
    return tuple(chains)
