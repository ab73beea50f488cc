"""A fingerprint of the bots' play, to show a refactoring changed no move.

Prints, as one JSON line: per preset, a digest of every move of ``--hands`` whole hands the heuristic
plays against itself (arena deals of seed 77, the bots' own bids) with each hand's score and
last-trick value; and a small search-vs-heuristic arena (``--deals`` deals, seed 5, 50 ms a move)
deal by deal. Run it on two trees and compare the lines:
``.venv/bin/python benchmarks/against_base.py --base REV --rounds 1 -- {python} {here}/benchmarks/same_moves.py``
(the script from the working tree, the code from each tree; it uses only APIs that 4633f3d has).
"""

from __future__ import annotations

import argparse
import hashlib
import json

from tuolaji.bots import make_bot
from tuolaji.bots.arena import deal_setup, run_arena
from tuolaji.game.driver import deal_and_bid, play_with
from tuolaji.game.round import Round


def heuristic_hands(preset: str, hands: int) -> tuple[str, list[tuple[int, int]]]:
    digest = hashlib.sha256()
    results: list[tuple[int, int]] = []
    for index in range(hands):
        bots = [make_bot("heuristic", index * 4 + seat) for seat in range(4)]
        round_ = Round(deal_setup(77, index, preset))
        if not deal_and_bid(round_, bots):
            continue
        play_with(round_, bots)
        for trick in round_.tricks:
            digest.update(repr([(play.seat, play.cards) for play in trick.plays]).encode())
        assert round_.result is not None
        results.append((round_.result.score, round_.result.last_trick))
    return digest.hexdigest(), results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=30, help="heuristic hands per preset (default 30)")
    parser.add_argument("--deals", type=int, default=6, help="search arena deals (default 6)")
    args = parser.parse_args()
    found: dict[str, object] = {
        preset: heuristic_hands(preset, args.hands) for preset in ("nanning", "guigang", "fourdeck")
    }
    outcomes, _ = run_arena("search", "heuristic", args.deals, 5, budget_ms=50, jobs=1)
    found["arena"] = [(o.index, o.won, o.levels, o.score_diff) for o in outcomes]
    print(json.dumps(found))


if __name__ == "__main__":
    main()
