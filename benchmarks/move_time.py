"""CPU time of a search move under two settings, on the same positions, alternating.

Positions: every ``--every``-th move of heuristic self-play on arena seed ``--seed`` (``--deals``
deals; a move with one candidate is played at once, as in the game). At each, the search with the defaults
and with ``--set`` settings each choose a move (the order alternating from one position to the
next); the CPU time of each choice is kept. Reported: mean and p99 CPU ms a move for each, and how
often they chose the same move. CPU time, so a shared machine's load changes it little; the budget
is a count of play-outs, so both spend the same number of play-outs when they race as long.

Run: ``nice -n 19 python benchmarks/move_time.py --seed 31 --deals 6 --every 7 --set belief=2``.
"""

from __future__ import annotations

import argparse
import time

from selfplay import self_play

from tuolaji.bots.montecarlo.config import SearchConfig
from tuolaji.bots.players.search import SearchBot
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--budget-ms", type=float, default=300.0)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    base = SearchConfig(budget_ms=args.budget_ms)
    variant = SearchConfig.from_settings(args.set, base)
    bots = {"defaults": SearchBot(1, base), " ".join(args.set): SearchBot(1, variant)}
    times: dict[str, list[float]] = {name: [] for name in bots}
    same = moves = 0

    def visit(round_: Round, view: SeatView) -> None:
        nonlocal same, moves
        moves += 1
        if moves % args.every:
            return
        chosen = []
        order = list(bots.items())
        for name, bot in order if moves % 2 else order[::-1]:
            start = time.process_time()
            chosen.append(bot.play(view))
            times[name].append(1000 * (time.process_time() - start))
        same += chosen[0] == chosen[1]

    self_play(args.seed, args.deals, visit)
    for name, found in times.items():
        mean, p99 = sum(found) / len(found), percentile(found, 0.99)
        print(f"{name}: {len(found)} moves, {mean:.1f} ms CPU mean, {p99:.1f} p99")
    print(f"same move in {same} of {len(times['defaults'])} positions")


if __name__ == "__main__":
    main()
