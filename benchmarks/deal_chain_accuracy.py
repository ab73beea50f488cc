"""How much replaying the other seats' past moves (:mod:`tuolaji.bots.montecarlo.deal_chain`) tells the search.

Hands the heuristic plays against itself (heuristic bidding); at every third move from
``--most-cards`` cards in hand down, a deal sampled as the search samples it is compared with the
same deal after ``--steps`` swaps of a :class:`~tuolaji.bots.montecarlo.deal_chain.DealChain` (the search's
burn-in): the share of the hidden cards each puts in the right hand, by cards in hand, and how often
the chain reached a deal that replays every past move. Also the CPU time per swap and the moves
replayed per swap. With ``--belief P`` the deal is sampled with the learned belief's weights raised
to the power P, as the search samples the chain's first deal (``SearchConfig.belief``).
Run: ``.venv/bin/python benchmarks/deal_chain_accuracy.py [--deals N] [--steps S] [--depth D] [--belief P]``.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field

from selfplay import self_play

from tuolaji.bots.knowledge.sampling import sample_hands
from tuolaji.bots.knowledge.shapes import counts_of
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.knowledge.tracking import trick_plays
from tuolaji.bots.montecarlo.belief import belief_weights
from tuolaji.bots.montecarlo.config import SearchConfig
from tuolaji.bots.montecarlo.deal_chain import DealChain, PastMoves
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView

BUCKET = 4
DEFAULTS = SearchConfig()


def placed(guess: list[list[int]], real: list[list[int]], seat: int) -> tuple[int, int]:
    """Hidden cards ``guess`` puts in the right hand, and all hidden cards."""
    right = hidden = 0
    for other in range(4):
        if other != seat:
            right += sum(min(g, r) for g, r in zip(guess[other], real[other], strict=True))
            hidden += sum(real[other])
    return right, hidden


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
    parser.add_argument("--steps", type=int, default=DEFAULTS.burn_in, help="swaps proposed (default: the search's)")
    parser.add_argument("--depth", type=int, default=DEFAULTS.replay_depth, help="moves replayed per seat")
    parser.add_argument("--aimed", type=float, default=DEFAULTS.aimed, help="share of aimed swaps")
    parser.add_argument("--most-cards", type=int, default=24, help="from this many cards in hand down (default 24)")
    parser.add_argument("--belief", type=float, default=0.0, help="power of the learned belief's weights (default 0)")
    args = parser.parse_args()
    buckets: dict[int, Bucket] = {}
    seconds = 0.0
    steps = replayed = moves = 0

    def visit(round_: Round, view: SeatView) -> None:
        nonlocal seconds, steps, replayed, moves
        seat = view.seat
        assert seat is not None
        moves += 1
        if view.tricks and len(view.hand) <= args.most_cards and moves % 3 == 0:
            sit = Situation.from_view(view)
            real = [counts_of(round_.view(s).hand) for s in range(4)]
            rng = random.Random(moves)
            plays = trick_plays(view.tricks, view.trick)
            weights = None
            if args.belief:
                weights = belief_weights(sit, plays, view.bids, view.hand_sizes, args.belief)
            sampled = sample_hands(sit.table, sit.know, seat, sit.counts, view.hand_sizes, rng, weights)
            start = time.process_time()
            past = PastMoves(sit, plays, args.depth)
            chain = DealChain(past, sampled, rng, args.aimed)
            chain.run(args.steps)
            seconds += time.process_time() - start
            steps += args.steps
            replayed += past.replayed
            bucket = buckets.setdefault((len(view.hand) - 1) // BUCKET, Bucket())
            bucket.add(placed(sampled, real, seat), placed(chain.hands, real, seat), not chain.disagreements)

    self_play(41, args.deals, visit)
    report(buckets)
    print(
        f"{1000 * seconds / max(1, steps):.3f} ms CPU per swap, {replayed / max(1, steps):.1f} moves replayed per swap"
    )


if __name__ == "__main__":
    main()
