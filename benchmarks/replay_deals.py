"""How much replaying the other seats' past moves (:mod:`tuolaji.bots.replay`) tells the search.

Hands the heuristic plays against itself (heuristic bidding); at every third move from
``--most-cards`` cards in hand down, a deal sampled as the search samples it is compared with the
same deal after ``--steps`` swaps of a :class:`~tuolaji.bots.replay.ReplayChain` (the search's
burn-in): the share of the hidden cards each puts in the right hand, by cards in hand, and how often
the chain reached a deal that replays every past move. Also the CPU time per swap and the moves
replayed per swap.
Run: ``.venv/bin/python benchmarks/replay_deals.py [--deals N] [--steps S] [--depth D]``.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field

from inference import placed

from tuolaji.bots import search
from tuolaji.bots.arena import bid_round, deal_setup
from tuolaji.bots.hand import counts_of
from tuolaji.bots.heuristic import choose_play
from tuolaji.bots.replay import PastMoves, ReplayChain
from tuolaji.bots.sampling import sample_hands
from tuolaji.bots.situation import Situation
from tuolaji.bots.tracking import trick_plays
from tuolaji.game.actions import Play
from tuolaji.game.driver import play_to_end
from tuolaji.game.round import Round

BUCKET = 4


@dataclass
class Bucket:
    """Positions with about the same number of cards in hand."""

    sampled: list[int] = field(default_factory=lambda: [0, 0])
    chained: list[int] = field(default_factory=lambda: [0, 0])
    consistent: int = 0
    positions: int = 0

    def add(self, sampled: tuple[int, int], chained: tuple[int, int], consistent: bool) -> None:
        for total, part in ((self.sampled, sampled), (self.chained, chained)):
            total[0] += part[0]
            total[1] += part[1]
        self.consistent += consistent
        self.positions += 1


def report(buckets: dict[int, Bucket]) -> None:
    for bucket, found in sorted(buckets.items()):
        low = bucket * BUCKET + 1
        print(
            f"{low:2d}-{low + BUCKET - 1:2d} cards in hand: sampled {100 * found.sampled[0] / found.sampled[1]:.1f}%, "
            f"after the chain {100 * found.chained[0] / found.chained[1]:.1f}% of hidden cards in the right hand; "
            f"every move replayed in {found.consistent}/{found.positions} positions"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=6, help="hands to play (default 6)")
    parser.add_argument("--steps", type=int, default=search.BURN_IN, help="swaps proposed (default: the search's)")
    parser.add_argument("--depth", type=int, default=search.REPLAY_DEPTH, help="moves replayed per seat")
    parser.add_argument("--most-cards", type=int, default=24, help="from this many cards in hand down (default 24)")
    args = parser.parse_args()
    buckets: dict[int, Bucket] = {}
    seconds = 0.0
    steps = replayed = moves = 0
    for index in range(args.deals):
        round_ = Round(deal_setup(41, index, "nanning"))
        if not bid_round(round_):
            continue

        def move(seat: int, round_: Round = round_) -> Play:
            nonlocal seconds, steps, replayed, moves
            view = round_.view(seat)
            sit = Situation.from_view(view)
            moves += 1
            if view.tricks and len(view.hand) <= args.most_cards and moves % 3 == 0:
                real = [counts_of(round_.view(s).hand) for s in range(4)]
                rng = random.Random(moves)
                sampled = sample_hands(sit.table, sit.know, seat, sit.counts, view.hand_sizes, rng)
                start = time.process_time()
                past = PastMoves(sit, trick_plays(view.tricks, view.trick), args.depth)
                chain = ReplayChain(past, sampled, rng)
                chain.run(args.steps)
                seconds += time.process_time() - start
                steps += args.steps
                replayed += past.replayed
                bucket = buckets.setdefault((len(view.hand) - 1) // BUCKET, Bucket())
                bucket.add(placed(sampled, real, seat), placed(chain.hands, real, seat), not chain.disagreements)
            return Play(seat, choose_play(sit))

        play_to_end(round_, move)
    report(buckets)
    print(
        f"{1000 * seconds / max(1, steps):.3f} ms CPU per swap, {replayed / max(1, steps):.1f} moves replayed per swap"
    )


if __name__ == "__main__":
    main()
