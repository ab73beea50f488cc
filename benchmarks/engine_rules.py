"""Rules-engine speed by follow stage (R24), on random 54-card hands against random leads.

Leads are drawn from another player's hand (units and tractors alike), so tractor leads, which
need the most work (the structure solver), are far more common here than in play.
Run: ``.venv/bin/python benchmarks/engine_rules.py [--cases N]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from collections.abc import Callable

from tuolaji.cards import HAND_SIZE, Card, full_deck
from tuolaji.rules import Trump, is_legal_follow, legal_follow_hint, random_legal_follow, random_valid_lead
from tuolaji.rules.lead import lead_pattern
from tuolaji.rules.presets import get_preset
from tuolaji.rules.structure import follow_stage

STAGE_NAMES = ("free", "exact", "same-count", "exact-or-same", "tractors", "pairs", "short (R23)")

Case = tuple[list[Card], list[Card], list[Card], Trump]


def make_cases(count: int, rng: random.Random) -> dict[str, list[Case]]:
    """Random (hand, lead, legal play, trump) cases, grouped by the follow stage."""
    cases: dict[str, list[Case]] = defaultdict(list)
    preset = get_preset("nanning")
    while sum(map(len, cases.values())) < count:
        deck = full_deck()
        rng.shuffle(deck)
        trump = Trump(rng.randint(1, 12), rng.randint(0, 3))
        hand, other = deck[:HAND_SIZE], deck[HAND_SIZE : 2 * HAND_SIZE]
        for _ in range(20):
            lead = random_valid_lead(other, trump, rng)
            pattern = lead_pattern(lead, trump)
            counts = [0] * 54
            held = [card for card in hand if trump.suit_class(card) == pattern.suit_class]
            for card in held:
                counts[card] += 1
            stage = 6 if len(held) <= pattern.size else follow_stage(counts, pattern, trump, preset)
            play = random_legal_follow(hand, lead, trump, rng)
            cases[STAGE_NAMES[stage]].append((hand, lead, play, trump))
    return cases


def per_call(cases: list[Case], call: Callable[[Case], object]) -> float:
    """Microseconds per call, best of three passes."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for case in cases:
            call(case)
        best = min(best, time.perf_counter() - start)
    return 1e6 * best / len(cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=20_000)
    args = parser.parse_args()
    rng = random.Random(1)
    cases = make_cases(args.cases, rng)
    print(f"{'stage':<14} {'cases':>6} {'is_legal µs':>12} {'random µs':>10} {'hint µs':>8}")
    for name in STAGE_NAMES:
        group = cases.get(name, [])
        if not group:
            continue
        legal = per_call(group, lambda c: is_legal_follow(c[0], c[1], c[2], c[3]))
        rand = per_call(group, lambda c: random_legal_follow(c[0], c[1], c[3], rng))
        hint = per_call(group, lambda c: legal_follow_hint(c[0], c[1], c[3]))
        print(f"{name:<14} {len(group):>6} {legal:>12.1f} {rand:>10.1f} {hint:>8.1f}")


if __name__ == "__main__":
    main()
