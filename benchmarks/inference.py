"""What reading follows backwards (:mod:`tuolaji.bots.inference`) tells the search's sampler.

Hands the heuristic plays against itself (heuristic bidding; ``--players search`` for the search
bot in every seat); at every move of the seat to move, 10 deals are sampled with and without the
inferred kind caps, and the share of the hidden cards each puts in the right hand is compared.
Also counted: the caps inferred, and how many the real hands break (none against heuristic
players; the search sometimes plays another move than the heuristic would).
Run: ``.venv/bin/python benchmarks/inference.py [--deals N] [--players search]``.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import replace

from tuolaji.bots import make_bot
from tuolaji.bots.arena import bid_round, deal_setup
from tuolaji.bots.base import Bot
from tuolaji.bots.hand import counts_of
from tuolaji.bots.inference import read_plays
from tuolaji.bots.sampling import sample_hands
from tuolaji.bots.situation import Situation
from tuolaji.game.actions import Play
from tuolaji.game.driver import play_to_end
from tuolaji.game.round import Round

SAMPLES = 10


def placed(guess: list[list[int]], real: list[list[int]], seat: int) -> tuple[int, int]:
    """Hidden cards ``guess`` puts in the right hand, and all hidden cards."""
    right = hidden = 0
    for other in range(4):
        if other != seat:
            right += sum(min(g, r) for g, r in zip(guess[other], real[other], strict=True))
            hidden += sum(real[other])
    return right, hidden


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=10, help="hands to play (default 10)")
    parser.add_argument("--players", choices=["heuristic", "search"], default="heuristic")
    parser.add_argument("--budget-ms", type=int, default=100, help="the search players' budget (default 100)")
    args = parser.parse_args()
    stats = {"with": [0, 0], "without": [0, 0]}
    caps = broken = moves = 0
    for index in range(args.deals):
        round_ = Round(deal_setup(31, index, "nanning"))
        if not bid_round(round_):
            continue
        options = {"budget_ms": args.budget_ms} if args.players == "search" else {}
        players = [make_bot(args.players, index * 4 + seat, **options) for seat in range(4)]

        def move(seat: int, round_: Round = round_, players: list[Bot] = players) -> Play:
            nonlocal caps, broken, moves
            view = round_.view(seat)
            sit = read_plays(Situation.from_view(view), view)
            real = [counts_of(round_.view(s).hand) for s in range(4)]
            moves += 1
            for other in range(4):
                if other != seat:
                    caps += len(sit.know.kind_caps[other])
                    broken += sum(real[other][k] > cap for k, cap in sit.know.kind_caps[other].items())
            plain = replace(sit.know, kind_caps=[{}, {}, {}, {}])
            for name, know in (("with", sit.know), ("without", plain)):
                rng = random.Random(moves)
                for _ in range(SAMPLES):
                    guess = sample_hands(sit.table, know, seat, sit.counts, view.hand_sizes, rng)
                    right, hidden = placed(guess, real, seat)
                    stats[name][0] += right
                    stats[name][1] += hidden
            action = players[seat].choose(view)
            assert isinstance(action, Play)
            return action

        play_to_end(round_, move)
    for name, (right, hidden) in stats.items():
        print(f"{name} inferred caps: {100 * right / hidden:.1f}% of hidden cards in the right hand")
    print(f"{caps / max(1, moves):.1f} inferred caps per move (other seats), {broken} broken by the real hands", end="")
    print(f" ({100 * broken / max(1, caps):.2f}% of caps, {moves} moves)")


if __name__ == "__main__":
    main()
