"""Follow legality (R22–R25) against the brute-force reference, for every preset and lead shape."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tuolaji.cards import BIG_JOKER, SMALL_JOKER, Card, make_card
from tuolaji.rules import (
    PRESETS,
    Trump,
    explain_follow,
    is_legal_follow,
    legal_follow_hint,
    random_legal_follow,
)

from .reference import ref_class, ref_is_legal_follow, ref_legal_set, ref_tractor_shape

TRACTOR_SHAPES = [(2, 2), (2, 3), (3, 2), (3, 3), (4, 2)]
UNIT_SHAPES = [(2, 1), (3, 1), (4, 1), (1, 1)]
SHAPES = TRACTOR_SHAPES + UNIT_SHAPES
"""(arity, length), tractors first (Hypothesis favours early entries): pair / triple / bomb tractors,
then pair, triple, bomb and single."""


@dataclass(frozen=True)
class Case:
    trump: Trump
    preset: str
    held: list[Card]
    others: list[Card]
    lead: list[Card]
    suit_class: int
    arity: int
    length: int
    seed: int

    @property
    def hand(self) -> list[Card]:
        return self.held + self.others

    @property
    def n(self) -> int:
        return self.arity * self.length

    def ref_legal(self, play: tuple[Card, ...] | list[Card]) -> bool:
        shape = (self.suit_class, self.arity, self.length)
        merged = PRESETS[self.preset].merged_exact
        return ref_is_legal_follow(self.hand, shape, play, self.trump.level, self.trump.suit, merged)

    def legal_from_held(self) -> frozenset[tuple[Card, ...]]:
        merged = PRESETS[self.preset].merged_exact
        return ref_legal_set(
            tuple(sorted(self.held)), self.arity, self.length, self.trump.level, self.trump.suit, merged
        )


def natural_sequence(level: int, suit: int, suit_class: int) -> list[Card]:
    """The class's kinds in an order where neighbours are often adjacent in R12's sequence."""
    if suit_class == 4:
        off = [s for s in range(4) if s != suit]
        return [
            make_card(12, suit),
            *(make_card(rank, suit) for rank in range(13)),
            *(make_card(0, s) for s in off),
            *(make_card(level, s) for s in off),
            SMALL_JOKER,
            BIG_JOKER,
        ]
    return [make_card(rank, suit_class) for rank in range(1, 13) if rank != level]


def lead_options(sequence: list[Card], level: int, suit: int, arity: int, length: int) -> list[list[Card]]:
    kinds = list(dict.fromkeys(sequence))
    if length == 1:
        return [[kind] * arity for kind in kinds]
    found = []
    for start in range(len(sequence) - length + 1):
        cards = [kind for kind in sequence[start : start + length] for _ in range(arity)]
        if ref_tractor_shape(cards, level, suit) == (arity, length):
            found.append(cards)
    return found


@st.composite
def follow_cases(
    draw: st.DrawFn, shapes: list[tuple[int, int]] = SHAPES, max_held: int = 11, max_width: int = 6
) -> Case:
    level, suit = draw(st.integers(1, 12)), draw(st.integers(0, 3))
    suit_class = draw(st.sampled_from([4, *(s for s in range(4) if s != suit)]))
    sequence = natural_sequence(level, suit, suit_class)
    width = draw(st.integers(2, max_width))
    start = draw(st.integers(0, len(sequence) - width))
    window = list(dict.fromkeys(sequence[start : start + width]))
    counts = draw(st.lists(st.integers(0, 4), min_size=len(window), max_size=len(window)))
    held = [kind for kind, count in zip(window, counts, strict=True) for _ in range(count)]
    assume(len(held) <= max_held)
    arity, length = draw(st.sampled_from(shapes))
    options = lead_options(sequence, level, suit, arity, length)
    assume(options)
    lead = draw(st.sampled_from(options))
    outside = [kind for kind in range(54) if ref_class(kind, level, suit) != suit_class]
    others = draw(st.lists(st.sampled_from(outside), max_size=3))
    preset = draw(st.sampled_from(sorted(PRESETS)))
    seed = draw(st.integers(0, 2**32))
    return Case(Trump(level, suit), preset, held, others, lead, suit_class, arity, length, seed)


def candidate_plays(case: Case) -> set[tuple[Card, ...]]:
    """Every n-card play from H (when |H| > n) or from a small hand, plus random plays from the hand."""
    rng = random.Random(case.seed)
    hand = sorted(case.hand)
    plays: set[tuple[Card, ...]] = set()
    if len(case.held) > case.n:
        plays |= set(itertools.combinations(sorted(case.held), case.n))
    elif len(hand) <= 10:
        plays |= set(itertools.combinations(hand, case.n))
    if len(hand) >= case.n:
        plays |= {tuple(sorted(rng.sample(hand, case.n))) for _ in range(20)}
    plays.add(tuple(hand[: case.n + 1]))  # wrong count (or the whole hand)
    return plays


@settings(deadline=None, max_examples=1500, suppress_health_check=[HealthCheck.filter_too_much])
@given(follow_cases(TRACTOR_SHAPES, max_held=12))
def test_tractor_leads_match_brute_force(case: Case) -> None:
    check_against_reference(case)


@settings(deadline=None, max_examples=600, suppress_health_check=[HealthCheck.filter_too_much])
@given(follow_cases(UNIT_SHAPES))
def test_unit_leads_match_brute_force(case: Case) -> None:
    check_against_reference(case)


def check_against_reference(case: Case) -> None:
    hand = case.hand
    checked_messages = 0
    for play in candidate_plays(case):
        expected = case.ref_legal(play)
        assert is_legal_follow(hand, case.lead, play, case.trump, case.preset) == expected, play
        if checked_messages < 6:
            checked_messages += 1
            message = explain_follow(hand, case.lead, play, case.trump, case.preset)
            assert (message is None) == expected, message
            assert message is None or message[:3] in ("R22", "R23", "R24", "R25")


@settings(deadline=None, max_examples=600, suppress_health_check=[HealthCheck.filter_too_much])
@given(follow_cases(max_held=16))
def test_hint_and_random_follow_are_legal(case: Case) -> None:
    assume(len(case.hand) >= case.n)
    hint = legal_follow_hint(case.hand, case.lead, case.trump, case.preset)
    assert case.ref_legal(hint), hint
    assert is_legal_follow(case.hand, case.lead, hint, case.trump, case.preset)
    rng = random.Random(case.seed)
    for _ in range(5):
        play = random_legal_follow(case.hand, case.lead, case.trump, rng, case.preset)
        assert case.ref_legal(play), play


@settings(deadline=None, max_examples=500, derandomize=True, suppress_health_check=[HealthCheck.filter_too_much])
@given(follow_cases(max_held=10, max_width=8))
def test_random_follow_reaches_every_legal_follow(case: Case) -> None:
    if len(case.held) > case.n:
        legal = case.legal_from_held()
    else:
        assume(len(case.hand) >= case.n)
        rest = sorted(case.others)
        legal = frozenset(
            tuple(sorted(case.held + list(extra))) for extra in itertools.combinations(rest, case.n - len(case.held))
        )
    assume(len(legal) <= 12)
    rng = random.Random(case.seed)
    seen = {
        tuple(sorted(random_legal_follow(case.hand, case.lead, case.trump, rng, case.preset)))
        for _ in range(300 * len(legal))
    }
    assert seen == legal
