"""Cost of one play-out move of the search bot, by cards in hand (``SearchConfig.ms_per_move``).

Positions come from hands the heuristic plays against itself; from each, sampled deals are played
out for 6 tricks by the heuristic policy (sampling included), timed in process CPU time.
Run: ``.venv/bin/python benchmarks/playout_cost.py [--deals N]``.
"""

from __future__ import annotations

import argparse
import random
import time

from tuolaji.bots.knowledge.sampling import sample_hands
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.playouts.rollout import Playout
from tuolaji.bots.selfplay import self_play
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView

BUCKET = 8
PLAYOUTS = 10


def positions(deals: int) -> dict[int, list[SeatView]]:
    """Views of the seat to move, grouped by cards in hand (buckets of 8)."""
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=8, help="hands to take positions from (default 8)")
    args = parser.parse_args()
    for size, views in sorted(positions(args.deals).items()):
        sample = views[::7][:12]
        print(
            f"about {size:2d} cards in hand: {cost_per_move(sample):.4f} ms per play-out move ({len(sample)} positions)"
        )


if __name__ == "__main__":
    main()
