"""Cost of one play-out move of the search bot, by cards in hand (the search's ``MS_PER_MOVE``).

Positions come from hands the heuristic plays against itself; from each, sampled deals are played
out for 6 tricks by the heuristic policy (sampling included), timed in process CPU time.
Run: ``.venv/bin/python benchmarks/playout_cost.py [--deals N]``.
"""

from __future__ import annotations

import argparse
import random
import time

from tuolaji.bots.arena import bid_round, deal_setup
from tuolaji.bots.heuristic import choose_play
from tuolaji.bots.playout import Playout
from tuolaji.bots.sampling import sample_hands
from tuolaji.bots.situation import Situation
from tuolaji.game.actions import Play
from tuolaji.game.driver import play_to_end
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView

BUCKET = 8
PLAYOUTS = 10


def positions(deals: int) -> dict[int, list[SeatView]]:
    """Views of the seat to move, grouped by cards in hand (buckets of 8)."""
    found: dict[int, list[SeatView]] = {}
    for index in range(deals):
        round_ = Round(deal_setup(21, index, "nanning"))
        if not bid_round(round_):
            continue

        def move(seat: int, round_: Round = round_) -> Play:
            view = round_.view(seat)
            found.setdefault(len(view.hand) // BUCKET * BUCKET + BUCKET // 2, []).append(view)
            return Play(seat, choose_play(Situation.from_view(view)))

        play_to_end(round_, move)
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
