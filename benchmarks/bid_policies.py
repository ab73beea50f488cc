"""What the heuristic's bidding costs: duplicate deals where only one team's bid policy differs.

For each policy P and arena deal (:func:`tuolaji.bots.arena.deal_setup`: dealer ``i % 4``, a drawn
level, so bidding only chooses the trump, R16–R19), the deal is played twice: P bids for seats 0
and 2 while the heuristic's policy bids for 1 and 3, then the other way round. Every seat plays
with the heuristic (the arena's seeds), so the only difference between P and the heuristic's own
bids is the bidding. Reported per policy: P's team's mean level change per hand (+levels for a
won hand, −levels for a lost one, R36) with a 95% interval over deals — the heuristic against
itself is 0 by symmetry — and how often the trump differs from the heuristic's bids on both sides.
Run: ``.venv/bin/python benchmarks/bid_policies.py --deals 300 --seed 2026 --jobs 2 [--policies a,b]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from tuolaji.bots import make_bot
from tuolaji.bots.arena import deal_setup, interval
from tuolaji.bots.policy.bidding import HEURISTIC_BIDS, BidConfig, HeuristicBidder
from tuolaji.game.driver import deal_and_bid, play_with
from tuolaji.game.round import Round

INF = float("inf")
POLICIES: dict[str, BidConfig] = {
    "heuristic": HEURISTIC_BIDS,
    "no-reinforce": BidConfig(reinforce=False),
    "patient": BidConfig(open_share=1.0),
    "eager": BidConfig(open_share=0.25, open_strength=(1.0, 0.0)),
    "no-overturn": BidConfig(overturn_margin=INF, partner_margin=INF),
    "overturn-more": BidConfig(overturn_margin=0.5, partner_margin=3.0),
    "patient-no-reinforce": BidConfig(open_share=1.0, reinforce=False),
    "pairs-heavy": BidConfig(weights=(1.6, 0.3, 1.5)),
    "tops-heavy": BidConfig(weights=(0.8, 1.0, 1.5)),
    "length-only": BidConfig(weights=(0.0, 0.0, 0.0)),
}
"""The policies compared (fields of :class:`~tuolaji.bots.policy.bidding.BidConfig`)."""


@dataclass(frozen=True)
class DealResult:
    """One deal under one policy: P's team's level change in each seating, and whether the trump
    differed from the heuristic's."""

    levels: tuple[int, int]
    trump_changed: tuple[bool, bool]


Hand = tuple[int, int, int]
"""The winning team, its levels and the trump suit."""


def hand(seed: int, index: int, bidders: Sequence[BidConfig]) -> Hand | None:
    """Deal ``index`` bid with ``bidders[seat]``'s policy and played by the heuristic: the winning
    team, its levels and the trump suit; None if nobody bid."""
    round_ = Round(deal_setup(seed, index, "nanning"))
    if not deal_and_bid(round_, [HeuristicBidder(config) for config in bidders]):
        return None
    play_with(round_, [make_bot("heuristic", seed * 1000 + index * 4 + seat) for seat in range(4)])
    result = round_.result
    assert result is not None and result.winning_team is not None and round_.trump is not None
    return result.winning_team, result.levels, round_.trump.suit


def play_deal(args: tuple[int, int, tuple[str, ...]]) -> dict[str, DealResult]:
    """Deal ``index`` twice for each policy, with it on one team and the heuristic's on the other."""
    seed, index, names = args
    base = hand(seed, index, [HEURISTIC_BIDS] * 4)
    if base is None:
        return {}
    found: dict[str, DealResult] = {}
    for name in names:
        policy = POLICIES[name]
        levels: list[int] = []
        changed: list[bool] = []
        for team in (0, 1):
            played = hand(seed, index, [policy if seat % 2 == team else HEURISTIC_BIDS for seat in range(4)])
            if played is None:
                break
            winner, won, suit = played
            levels.append(won if winner == team else -won)
            changed.append(suit != base[2])
        if len(levels) == 2:
            found[name] = DealResult((levels[0], levels[1]), (changed[0], changed[1]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--policies", default=",".join(name for name in POLICIES if name != "heuristic"))
    args = parser.parse_args()
    names = args.policies.split(",")
    unknown = [name for name in names if name not in POLICIES]
    if unknown:
        raise SystemExit(f"--policies: unknown {', '.join(unknown)}; known: {', '.join(POLICIES)}")
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        deals = list(pool.map(play_deal, [(args.seed, i, tuple(names)) for i in range(args.deals)]))
    print(
        f"bid policies against the heuristic's bids, {args.deals} deals, seed {args.seed}, "
        f"{time.perf_counter() - start:.0f} s"
    )
    for name in names:
        results = [deal[name] for deal in deals if name in deal]
        mean, half = interval([sum(r.levels) / 2 for r in results])
        changed = sum(sum(r.trump_changed) for r in results) / (2 * max(1, len(results)))
        print(
            f"{name}: {mean:+.3f} ± {half:.3f} levels per hand over {len(results)} deals; "
            f"trump changed in {100 * changed:.1f}% of hands"
        )


if __name__ == "__main__":
    main()
