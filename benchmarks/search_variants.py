"""Search-bot experiments: arenas of variants of ``tuolaji.bots.search`` against the heuristic.

``--set NAME=VALUE`` changes a module constant of :mod:`tuolaji.bots.search` (``CANDIDATES`` and
``HORIZON_TRICKS`` change the bot's defaults) before the arena starts, so every worker plays the
variant; otherwise the run is exactly ``tuolaji arena search heuristic --deals N --seed S
--budget-ms B --jobs J``.

``--oracle`` lets the search sample only the true deal (it sees every hand: an upper bound on what
better sampling could give, not a legal player); ``--lengths`` lets it sample deals that give every
seat its true number of cards of each suit-class (the cards within a class at random). ``--audit``
(one process) replays every move on which the search replaced the heuristic's choice and prints
what the switch promised in the race, what 60 fresh sampled deals say of it, and what it is worth
on the true deal, overall and by stage of the hand and kind of move.

``--per-deal PATH`` writes every deal's outcome; ``--compare PATH`` reports the gain over the run
that wrote PATH deal by deal (paired over the same deals: far narrower than the difference of two
separate intervals, since the two searches play most moves alike).

Run: ``.venv/bin/python benchmarks/search_variants.py --deals 120 --seed 99 --budget-ms 100 --jobs 2
[--set SPREAD=0.25] [--oracle | --lengths | --audit] [--per-deal PATH] [--compare PATH]``.
"""

from __future__ import annotations

import argparse
import json
import math
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
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView

AUDIT_DEALS = 60
_current: dict[str, Round] = {}
_audit: list[tuple[float, float, float, int, bool, float, int]] = []


def set_constant(assignment: str) -> None:
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
    playout = Playout.from_situation(sit, hands)
    playout.run(cards, horizon)
    return search.team_value(sit, playout)


def _audited_race(race: Any) -> Any:
    def wrapped(self: search.SearchBot, view: SeatView, sit: Situation, candidates: Sequence[tuple[int, ...]]) -> int:
        promised: list[float] = []
        sureness: list[float] = []
        pick = search.pick

        def recording_pick(values: Sequence[Sequence[float]]) -> int:
            index = pick(values)
            if index:
                mean, error = search.paired_gain(values[0], values[index])
                promised.append(mean)
                sureness.append(mean / error if error else math.inf)
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
            row = (promised[0], statistics.mean(fresh), real, sit.hand_size, bool(sit.trick), sureness[0], index)
            _audit.append(row)
        return index

    return wrapped


def _oracle_sample(
    table: object, know: object, seat: int, own: Sequence[int], sizes: Sequence[int], rng: random.Random
) -> list[list[int]]:
    return _true_hands()


def _lengths_sample(
    table: Any, know: Any, seat: int, own: Sequence[int], sizes: Sequence[int], rng: random.Random
) -> list[list[int]]:
    """A deal where every seat holds its true number of cards of each suit-class (the cards of a
    class shared at random among the seats short of them)."""
    true = _true_hands()
    hands = [[0] * len(own) for _ in range(4)]
    hands[seat] = list(own)
    for kinds in table.class_kinds:
        cards = [kind for kind in kinds for _ in range(know.unseen[kind])]
        rng.shuffle(cards)
        for other in range(4):
            if other == seat:
                continue
            for _ in range(sum(true[other][kind] for kind in kinds)):
                hands[other][cards.pop()] += 1
    return hands


STAGES = ((0, 16), (17, 30), (31, 44), (45, 54))
"""Cards in the switching seat's hand, for the audit's breakdown."""
SURENESS = ((0.0, 0.5), (0.5, 1.0), (1.0, 1.5), (1.5, 2.5), (2.5, math.inf))
"""How many standard errors the race's mean gain was, for the audit's breakdown."""


def _print_audit_rows(label: str, rows: Sequence[tuple[float, ...]]) -> None:
    if len(rows) < 2:
        return
    promised, fresh, true = (statistics.mean(row[column] for row in rows) for column in range(3))
    error = 1.96 * statistics.stdev(row[2] for row in rows) / len(rows) ** 0.5
    print(
        f"  {label}: {len(rows)} switches, promised {promised:+.3f}, fresh {fresh:+.3f}, true {true:+.3f} ± {error:.3f}"
    )


def _print_audit_by_stage() -> None:
    """The audit's three means by stage of the hand, by how sure the race was and by the rank of the
    candidate switched to, per kind of move."""
    for low, high in STAGES:
        for follow in (False, True):
            kind = "follow" if follow else "lead"
            rows = [row for row in _audit if low <= row[3] <= high and row[4] == follow]
            _print_audit_rows(f"{low}-{high} cards, {kind}", rows)
    for low_z, high_z in SURENESS:
        for follow in (False, True):
            kind = "follow" if follow else "lead"
            rows = [row for row in _audit if low_z <= row[5] < high_z and row[4] == follow]
            _print_audit_rows(f"{kind}s with mean gain {low_z}-{high_z} standard errors", rows)
    for index in sorted({row[6] for row in _audit}):
        for follow in (False, True):
            kind = "follow" if follow else "lead"
            rows = [row for row in _audit if row[6] == index and row[4] == follow]
            _print_audit_rows(f"{kind}s to the heuristic's choice number {index + 1}", rows)


def _paired_report(outcomes: Sequence[arena.DealOutcome], path: str) -> str:
    """This run's gain in levels per hand over another run's --per-deal file, on the deals both played."""
    with open(path, encoding="utf-8") as lines:
        other = {row["index"]: row for row in map(json.loads, lines)}
    diffs = [sum(o.levels) / 2 - sum(other[o.index]["levels"]) / 2 for o in outcomes if o.index in other]
    if not diffs:
        return f"--compare {path}: no deal in common"
    mean, half = arena.interval(diffs)
    return f"gain over {path} on {len(diffs)} common deals: {mean:+.3f} ± {half:.3f} levels per hand (paired)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=120)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--budget-ms", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--per-deal", metavar="PATH", help="write each deal's outcome for A (JSON lines)")
    parser.add_argument(
        "--compare", metavar="PATH", help="also report the gain over the run whose --per-deal file this is (paired)"
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--oracle", action="store_true", help="the search samples only the true deal")
    mode.add_argument("--lengths", action="store_true", help="the search samples true suit-class lengths")
    mode.add_argument("--audit", action="store_true", help="audit every switch (runs in one process)")
    args = parser.parse_args()
    for assignment in args.set:
        set_constant(assignment)
    if args.oracle or args.audit or args.lengths:
        vars(arena)["play_round"] = _remember_round(arena.play_round)
    if args.oracle:
        vars(search)["sample_hands"] = _oracle_sample
    if args.lengths:
        vars(search)["sample_hands"] = _lengths_sample
    if args.audit:
        search.SearchBot.race = _audited_race(search.SearchBot.race)  # type: ignore[method-assign]
    jobs = 1 if args.audit else args.jobs
    outcomes, seconds = arena.run_arena(
        "search", "heuristic", args.deals, args.seed, budget_ms=args.budget_ms, jobs=jobs
    )
    print("settings:", " ".join(args.set) or "defaults", "(oracle)" if args.oracle else "")
    print(arena.summarize("search", "heuristic", outcomes, seconds))
    if args.per_deal:
        with open(args.per_deal, "w", encoding="utf-8") as out:
            for outcome in outcomes:
                row = {"index": outcome.index, "levels": outcome.levels, "score_diff": outcome.score_diff}
                out.write(json.dumps(row) + "\n")
    if args.compare:
        print(_paired_report(outcomes, args.compare))
    if args.audit and _audit:
        hands = 2 * len(outcomes)
        print(f"switches: {len(_audit)} ({len(_audit) / hands:.2f} per hand, both seats of the team)")
        for label, column in (("promised in the race", 0), ("60 fresh deals", 1), ("on the true deal", 2)):
            print(f"  mean gain per switch, {label}: {statistics.mean(row[column] for row in _audit):+.3f}")
        _print_audit_by_stage()


if __name__ == "__main__":
    main()
