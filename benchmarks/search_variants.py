"""Search-bot experiments: arenas of variants of ``tuolaji.bots.search`` against the heuristic.

``--set NAME=VALUE`` changes a module constant of :mod:`tuolaji.bots.search` (``CANDIDATES`` and
``HORIZON_TRICKS`` change the bot's defaults) before the arena starts, so every worker plays the
variant; otherwise the run is exactly ``tuolaji arena search heuristic --deals N --seed S
--budget-ms B --jobs J``.

``--oracle`` lets the search sample only the true deal (it sees every hand: an upper bound on what
better sampling could give, not a legal player). ``--audit`` (one process) replays every move on
which the search replaced the heuristic's choice and prints what the switch promised in the race,
what 60 fresh sampled deals say of it, and what it is worth on the true deal.

Run: ``.venv/bin/python benchmarks/search_variants.py --deals 120 --seed 99 --budget-ms 100 --jobs 2
[--set SPREAD=0.25] [--oracle | --audit]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from tuolaji.bots import arena, search
from tuolaji.bots.base import Bot
from tuolaji.bots.hand import counts_of
from tuolaji.bots.playout import Playout
from tuolaji.bots.sampling import sample_hands
from tuolaji.bots.situation import Situation
from tuolaji.cards import DECKS
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView

AUDIT_DEALS = 60
_current: dict[str, Round] = {}
_audit: list[tuple[float, float, float]] = []


def _set_constant(assignment: str) -> None:
    name, _, value = assignment.partition("=")
    if not hasattr(search, name):
        raise SystemExit(f"--set {assignment}: tuolaji.bots.search has no constant {name!r}")
    setattr(search, name, type(getattr(search, name))(float(value)))
    if name in ("HORIZON_TRICKS", "CANDIDATES"):
        defaults = list(search.SearchBot.__init__.__defaults__ or ())
        defaults[2 if name == "HORIZON_TRICKS" else 3] = int(float(value))
        search.SearchBot.__init__.__defaults__ = tuple(defaults)


PlayRound = Callable[[Round, Sequence[Bot]], arena.HandRecord]


def _remember_round(play_round: PlayRound) -> PlayRound:
    def wrapped(round_: Round, bots: Sequence[Bot]) -> arena.HandRecord:
        _current["round"] = round_
        return play_round(round_, bots)

    return wrapped


def _true_hands() -> list[list[int]]:
    round_ = _current["round"]
    return [counts_of(round_.view(seat).hand) for seat in range(4)]


def _value(sit: Situation, hands: Sequence[Sequence[int]], cards: tuple[int, ...], horizon: int) -> float:
    know = sit.know
    played = [DECKS - know.unseen[k] - sit.counts[k] for k in range(len(sit.counts))]
    hands_copy = [list(hand) for hand in hands]
    playout = Playout(
        sit.table, sit.preset, sit.dealer, hands_copy, played, know.voids, sit.trick, sit.points_taken, sit.seat
    )
    playout.run(cards, horizon)
    return search.team_value(sit, playout)


def _audited_race(race: Any) -> Any:
    def wrapped(self: search.SearchBot, view: SeatView, sit: Situation, candidates: Sequence[tuple[int, ...]]) -> int:
        promised: list[float] = []
        pick = search.pick

        def recording_pick(values: Sequence[Sequence[float]]) -> int:
            index = pick(values)
            if index:
                promised.append(search.paired_gain(values[0], values[index])[0])
            return index

        search.pick = recording_pick
        try:
            index: int = race(self, view, sit, candidates)
        finally:
            search.pick = pick
        if index:
            horizon = self.horizon if sit.hand_size > search.ENDGAME_CARDS else search.END
            rng = random.Random(f"audit:{len(_audit)}")
            fresh = []
            for _ in range(AUDIT_DEALS):
                hands = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng)
                fresh.append(
                    _value(sit, hands, candidates[index], horizon) - _value(sit, hands, candidates[0], horizon)
                )
            true = _true_hands()
            real = _value(sit, true, candidates[index], horizon) - _value(sit, true, candidates[0], horizon)
            _audit.append((promised[0], statistics.mean(fresh), real))
        return index

    return wrapped


def _oracle_sample(
    table: object, know: object, seat: int, own: Sequence[int], sizes: Sequence[int], rng: random.Random
) -> list[list[int]]:
    return _true_hands()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=120)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--budget-ms", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--oracle", action="store_true", help="the search samples only the true deal")
    mode.add_argument("--audit", action="store_true", help="audit every switch (runs in one process)")
    args = parser.parse_args()
    for assignment in args.set:
        _set_constant(assignment)
    if args.oracle or args.audit:
        vars(arena)["play_round"] = _remember_round(arena.play_round)
    if args.oracle:
        vars(search)["sample_hands"] = _oracle_sample
    if args.audit:
        search.SearchBot.race = _audited_race(search.SearchBot.race)  # type: ignore[method-assign]
    jobs = 1 if args.audit else args.jobs
    outcomes, seconds = arena.run_arena(
        "search", "heuristic", args.deals, args.seed, budget_ms=args.budget_ms, jobs=jobs
    )
    print("settings:", " ".join(args.set) or "defaults", "(oracle)" if args.oracle else "")
    print(arena.summarize("search", "heuristic", outcomes, seconds))
    if args.audit and _audit:
        hands = 2 * len(outcomes)
        print(f"switches: {len(_audit)} ({len(_audit) / hands:.2f} per hand, both seats of the team)")
        for label, column in (("promised in the race", 0), ("60 fresh deals", 1), ("on the true deal", 2)):
            print(f"  mean gain per switch, {label}: {statistics.mean(row[column] for row in _audit):+.3f}")


if __name__ == "__main__":
    main()
