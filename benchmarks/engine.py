"""Engine speed on one core: follow checks, hints, random follows and whole random hands.

Positions are real ones: every follow of some simulated random hands, recorded with the
follower's hand, the lead and the play. Run: ``.venv/bin/python benchmarks/engine.py [--hands N]``;
``--profile`` adds the top hot spots of whole-hand simulation.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from tuolaji.cards import Card
from tuolaji.game import Play, Round
from tuolaji.game.driver import play_to_end
from tuolaji.game.match import Match
from tuolaji.game.options import TableOptions
from tuolaji.game.simulate import deal_and_bid_randomly, play_random_round, random_move, simulate
from tuolaji.rules import Preset, Trump, is_legal_follow, legal_follow_hint, random_legal_follow


@dataclass(frozen=True)
class Position:
    hand: tuple[Card, ...]
    lead: tuple[Card, ...]
    play: tuple[Card, ...]
    trump: Trump
    preset: Preset


def collect_positions(rounds: int, seed: int) -> list[Position]:
    """Every follow of ``rounds`` random hands, as (hand before playing, lead, play)."""
    rng = random.Random(seed)
    match = Match(TableOptions(), seed)
    positions: list[Position] = []
    while rounds:
        round_ = match.start_round()
        _play_recording(round_, rng, positions)
        match.finish_round()
        if round_.result is not None and round_.result.kind == "played":
            rounds -= 1
    return positions


def _play_recording(round_: Round, rng: random.Random, positions: list[Position]) -> None:
    trump = deal_and_bid_randomly(round_, rng)
    if trump is None:
        return

    def move(seat: int) -> Play:
        cards = tuple(random_move(round_, seat, trump, rng))
        lead = round_.lead
        if lead is not None:
            positions.append(Position(tuple(round_.hands[seat]), lead, cards, trump, round_.preset))
        return Play(seat, cards)

    play_to_end(round_, move)


def per_call(label: str, calls: int, run: Callable[[], object]) -> None:
    """Time ``run`` by this process's CPU time, so other load on the machine does not count."""
    start = time.process_time()
    run()
    seconds = time.process_time() - start
    print(
        f"{label}: {calls / seconds:,.0f} calls per CPU second ({1e6 * seconds / calls:.1f} µs/call)"
        f" over {calls:,} calls"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1000, help="whole hands to simulate (default 1000)")
    parser.add_argument("--profile", action="store_true", help="profile whole-hand simulation")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")

    positions = collect_positions(20, seed=1)
    print(f"positions: {len(positions)} follows from 20 random hands")
    per_call(
        "is_legal_follow",
        len(positions) * 5,
        lambda: [is_legal_follow(list(p.hand), p.lead, p.play, p.trump, p.preset) for _ in range(5) for p in positions],
    )
    per_call(
        "legal_follow_hint",
        len(positions),
        lambda: [legal_follow_hint(list(p.hand), p.lead, p.trump, p.preset) for p in positions],
    )
    rng = random.Random(2)
    per_call(
        "random_legal_follow",
        len(positions),
        lambda: [random_legal_follow(list(p.hand), p.lead, p.trump, rng, p.preset) for p in positions],
    )
    for preset in ("nanning", "guigang", "fourdeck"):
        summary = simulate(args.hands, seed=3, preset=preset)
        print(
            f"whole random hands ({preset}): {summary.hands_per_second:.1f} hands/s wall,"
            f" {summary.hands_per_cpu_second:.1f} hands per CPU second, over {summary.hands} hands"
        )
    if args.profile:
        profiler = cProfile.Profile()
        match = Match(TableOptions(), 4)
        profiler.enable()
        for _ in range(200):
            play_random_round(match.start_round(), rng)
            match.finish_round()
            if match.state == "stopped":
                match.resume()
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(12)
        print(out.getvalue())


if __name__ == "__main__":
    main()
