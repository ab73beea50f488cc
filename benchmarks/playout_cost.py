"""The search bot's cost model, measured: what its budget buys (``SearchConfig.ms_per_move``,
``replay_cost``, ``check_cost``).

Positions come from hands the heuristic plays against itself (arena seed 21), every seventh move,
grouped by cards in hand (buckets of 8). Timed in process CPU time, on the build that is installed
(``python -m tuolaji.native`` says which; the search's defaults are fitted to the compiled one):

- a play-out move: sampled deals played out for 6 tricks by the heuristic (sampling included), ms
  per move by bucket, and the line ``a + b × cards`` fitted to them (least squares);
- a replayed move of the deal chain (positions with 30 cards or fewer): a chain's 100 swaps from a
  sampled deal, its CPU time over the past moves it replayed (the swaps' own work included), in
  play-out moves of the same position;
- a past follow checked while mending a sampled deal (positions with 17 cards or more): 30 swaps of
  ``mend``, CPU time over the follows checked, in play-out moves.

Run: ``.venv/bin/python benchmarks/playout_cost.py [--deals N]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from selfplay import self_play

from tuolaji.bots.knowledge.legal_follows import PastFollows, mend
from tuolaji.bots.knowledge.sampling import sample_hands
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.knowledge.tracking import trick_plays
from tuolaji.bots.montecarlo.config import SearchConfig
from tuolaji.bots.montecarlo.deal_chain import DealChain, PastMoves
from tuolaji.bots.playouts.rollout import Playout
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView
from tuolaji.native import build

BUCKET = 8
PLAYOUTS = 10
CHAIN_FROM = 30
MEND_FROM = 17


def positions(deals: int) -> dict[int, list[SeatView]]:
    """Views of the seat to move, grouped by cards in hand (buckets of 8, keyed by their middle)."""
    found: dict[int, list[SeatView]] = {}

    def visit(round_: Round, view: SeatView) -> None:
        found.setdefault(len(view.hand) // BUCKET * BUCKET + BUCKET // 2, []).append(view)

    self_play(21, deals, visit)
    return found


def cost_per_move(views: list[SeatView]) -> float:
    """Mean ms of CPU per play-out move over ``PLAYOUTS`` play-outs from each view."""
    moves = 0
    start = time.process_time()
    for view in views:
        sit = Situation.from_view(view)
        rng = random.Random(1)
        for _ in range(PLAYOUTS):
            hands = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng)
            playout = Playout.from_situation(sit, hands)
            playout.run(None, 6)
            moves += 4 * playout.tricks_done
    return 1000 * (time.process_time() - start) / max(1, moves)


def cost_per_replay(views: list[SeatView], config: SearchConfig) -> tuple[float, int]:
    """Mean ms of CPU per move a deal chain replays (the chain's swaps included), and the count."""
    replayed = 0
    start = time.process_time()
    for view in views:
        sit = Situation.from_view(view)
        rng = random.Random(2)
        plays = trick_plays(view.tricks, view.trick)
        past = PastMoves(sit, plays, config.replay_depth, config.replay_partner, config.partner_moves)
        hands = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng)
        DealChain(past, hands, rng, config.aimed).run(config.burn_in)
        replayed += past.replayed
    return 1000 * (time.process_time() - start) / max(1, replayed), replayed


def cost_per_check(views: list[SeatView], config: SearchConfig) -> tuple[float, int]:
    """Mean ms of CPU per past follow checked while mending sampled deals (sampling excluded)."""
    checks = 0
    spent = 0.0
    for view in views:
        sit = Situation.from_view(view)
        rng = random.Random(3)
        follows = PastFollows(sit, trick_plays(view.tricks, view.trick), view.illegal_follow == "reject")
        for _ in range(PLAYOUTS):
            hands = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng)
            start = time.process_time()
            mend(follows, hands, rng, config.mend_swaps)
            spent += time.process_time() - start
        checks += follows.checks
    return 1000 * spent / max(1, checks), checks


def fit_line(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Least-squares ``a + b × x`` through ``(x, y)`` points."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / sum((x - mean_x) ** 2 for x, _ in points)
    return mean_y - slope * mean_x, slope


def ratio_line(
    buckets: dict[int, list[SeatView]], keep: Callable[[int], bool], cost: Callable[[list[SeatView]], tuple[float, int]]
) -> list[tuple[int, float, int]]:
    """Per kept bucket: its middle, the cost of ``cost`` there, and how many operations it timed."""
    rows = []
    for size, views in sorted(buckets.items()):
        if keep(size):
            ms, count = cost(views[::7][:12])
            rows.append((size, ms, count))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=8, help="hands to take positions from (default 8)")
    args = parser.parse_args()
    config = SearchConfig()
    print(f"build: {build()}")
    buckets = positions(args.deals)
    moves = {size: cost_per_move(views[::7][:12]) for size, views in sorted(buckets.items())}
    for size, ms in moves.items():
        print(f"about {size:2d} cards in hand: {ms:.4f} ms per play-out move")
    fixed, per_card = fit_line([(float(size), ms) for size, ms in moves.items()])
    print(f"fitted: {fixed:.4f} + {per_card:.5f} × cards ms per play-out move (now {config.ms_per_move})")

    def in_moves(rows: list[tuple[int, float, int]], what: str) -> float:
        ratios = []
        for size, ms, count in rows:
            ratio = ms / (fixed + per_card * size)
            ratios.append(ratio)
            print(f"about {size:2d} cards in hand: {ms:.4f} ms per {what} = {ratio:.2f} play-out moves ({count})")
        return sum(ratios) / len(ratios)

    replay = in_moves(
        ratio_line(buckets, lambda size: size <= CHAIN_FROM, lambda views: cost_per_replay(views, config)),
        "replayed move",
    )
    print(f"replay_cost: {replay:.2f} play-out moves (now {config.replay_cost})")
    check = in_moves(
        ratio_line(buckets, lambda size: size >= MEND_FROM, lambda views: cost_per_check(views, config)),
        "follow checked",
    )
    print(f"check_cost: {check:.3f} play-out moves (now {config.check_cost})")


if __name__ == "__main__":
    main()
