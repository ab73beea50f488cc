"""Search-bot experiments: duplicate arenas of variants of the search against the heuristic.

``--set name=value`` (repeatable) changes a field of :class:`~tuolaji.bots.montecarlo.config.SearchConfig`
(``candidates=3``, ``spread=0.25``, ``replay_partner=false``); the variant is passed to every worker as
the bot's options, so the run is exactly ``tuolaji arena search heuristic --deals N --seed S
--budget-ms B --jobs J`` with that configuration.

``--per-deal PATH`` writes every deal's outcome as it is done, as ``tuolaji arena --per-deal`` does
(each deal is also reported on stderr), and ``--resume`` plays on after the last deal in PATH, so a
stopped run loses nothing; ``--compare PATH`` reports the gain over the run that wrote PATH deal by
deal (paired over the same deals: far narrower than the difference of two separate intervals, since
the two searches play most moves alike).

Run: ``.venv/bin/python benchmarks/search_variants.py --deals 120 --seed 99 --budget-ms 100 --jobs 2
[--set spread=0.25] [--per-deal PATH [--resume]] [--compare PATH]``. Tune on seeds 99, 2026, 2027 and others, never
on an evaluation seed (the gate and the seeds used: docs/BOTS-RESEARCH.md, "How the search is measured").
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from typing import Any

from tuolaji.bots import arena
from tuolaji.bots.montecarlo.config import SearchConfig


def read_compare(path: str, header: dict[str, Any]) -> list[dict[str, Any]]:
    """The deals of the --compare file, read before the run so a wrong file fails at once;
    ``SystemExit`` naming it if it cannot be read or is not a run of the deals ``header`` names."""
    try:
        found, base = arena.read_log(path)
        arena.check_paired("this run", header, path, found)
    except (OSError, ValueError) as error:
        raise SystemExit(f"--compare: {error}") from None
    return base


def paired_report(outcomes: Sequence[arena.DealOutcome], path: str, base: Sequence[dict[str, Any]]) -> str:
    """This run's gain in levels per hand over the deals ``base`` of the --per-deal file ``path``, on
    the deals both played."""
    gain = arena.paired_gain([dataclasses.asdict(o) for o in outcomes], base)
    if gain is None:
        return f"--compare {path}: no deal in common"
    return (
        f"gain over {path} on {gain.deals} common deals: {gain.mean:+.3f} ± {gain.half:.3f} levels per hand"
        f" (paired; {gain.alike} deals alike)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=120)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--budget-ms", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--per-deal", metavar="PATH", help="write each deal's outcome for A as it is done (JSON lines)")
    parser.add_argument("--resume", action="store_true", help="play on after the last deal of --per-deal PATH")
    parser.add_argument(
        "--compare", metavar="PATH", help="also report the gain over the run whose --per-deal file this is (paired)"
    )
    args = parser.parse_args()
    try:
        config = SearchConfig.from_settings(args.set, SearchConfig(budget_ms=args.budget_ms))
    except ValueError as error:
        raise SystemExit(f"--set: {error}") from None
    search = arena.Entrant("search", dataclasses.asdict(config))
    heuristic = arena.Entrant("heuristic")
    if args.resume and not args.per_deal:
        raise SystemExit("--resume needs --per-deal PATH, the file to play on from")
    header = arena.log_header(search, heuristic, args.seed, "nanning")
    base = read_compare(args.compare, header) if args.compare else None
    outcomes, seconds = arena.run_logged(
        search, heuristic, args.deals, args.seed, "nanning", args.jobs, args.per_deal, args.resume
    )
    print("settings:", " ".join(args.set) or "defaults")
    print(arena.summarize("search", "heuristic", outcomes, seconds))
    if args.compare and base is not None:
        print(paired_report(outcomes, args.compare, base))


if __name__ == "__main__":
    main()
