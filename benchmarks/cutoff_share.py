"""How well the search's estimate of a play-out cut short predicts the rest of the hand
(``SearchConfig.share_slope``).

Positions: every lead with more than ``endgame_cards`` cards in hand in hands the heuristic plays
against itself (arena seeds ``--fit`` and ``--test``, ``--deals`` each). From each, the true deal is
played by the heuristic for ``horizon_tricks`` tricks, where the search would stop, and then to the
end of the hand. The attackers' points from the cut to the end (摳底 included, R35) are compared with
the search's estimate (:func:`tuolaji.bots.montecarlo.value.points_left_share`): the points still in
the hands shared by strength, ``0.5 + slope × (s − 0.5)``. The slope is fitted by least squares on
the ``--fit`` seeds and judged on the ``--test`` seeds by the root-mean-square error in points,
beside slope 1 (the strength share itself); the fit is also shown by how many cards are left at the
cut, and the error left over as a share of the points left (``SearchConfig.spread``'s unit).

Run: ``.venv/bin/python benchmarks/cutoff_share.py --fit 21 --test 22 --deals 40``.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

import numpy as np
from selfplay import self_play

from tuolaji.bots.knowledge.cardinfo import CardTable
from tuolaji.bots.knowledge.shapes import counts_of
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.montecarlo.config import END, SearchConfig
from tuolaji.bots.montecarlo.value import CUT_FEATURES, cut_features, learned_share, points_left_share
from tuolaji.bots.playouts.rollout import Playout
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView


@dataclass(frozen=True)
class Cut:
    """A play-out stopped where the search stops it, and how the hand went on."""

    table: CardTable
    hands: list[list[int]]
    """The four hands at the cut."""
    attackers: int
    leader: int
    """Who leads the first trick after the cut."""
    gain: int
    """The attackers' points from the cut to the end of the hand."""

    def share(self, slope: float) -> tuple[int, int]:
        """The search's estimate with ``slope``, and the points left (:func:`points_left_share`)."""
        return points_left_share(self.table, self.hands, self.attackers, slope)

    @property
    def cards(self) -> int:
        """Cards still in the four hands at the cut."""
        return sum(sum(hand) for hand in self.hands)


def cuts(seed: int, deals: int, config: SearchConfig) -> list[Cut]:
    """One cut per lead with more than ``config.endgame_cards`` cards in hand (see the module docstring)."""
    found: list[Cut] = []

    def visit(round_: Round, view: SeatView) -> None:
        if view.trick or len(view.hand) <= config.endgame_cards:
            return
        sit = Situation.from_view(view)
        playout = Playout.from_situation(sit, [counts_of(round_.view(seat).hand) for seat in range(4)])
        playout.run(None, config.horizon_tricks)
        if playout.finished:
            return
        hands = [list(hand) for hand in playout.hands]
        before, leader = playout.gained, playout.leader
        playout.run(None, END)
        found.append(Cut(playout.table, hands, 1 - sit.dealer % 2, leader, playout.gained - before))

    self_play(seed, deals, visit)
    return found


def fitted_slope(found: list[Cut]) -> float:
    """The least-squares slope ``k`` of ``gain − left / 2 ≈ k × (strength share × left − left / 2)``."""
    num = den = 0.0
    for cut in found:
        shared, left = cut.share(1.0)
        x = shared - left / 2
        num += x * (cut.gain - left / 2)
        den += x * x
    return num / den


def fitted_weights(found: list[Cut]) -> tuple[float, ...]:
    """The least-squares weights ``w`` of ``gain − left / 2 ≈ left × w · cut_features``
    (:func:`~tuolaji.bots.montecarlo.value.learned_share`), in points."""
    lefts = [cut.share(1.0)[1] for cut in found]
    rows = [
        [left * f for f in cut_features(cut.table, cut.hands, cut.attackers, cut.leader)]
        for cut, left in zip(found, lefts, strict=True)
    ]
    targets = [cut.gain - left / 2 for cut, left in zip(found, lefts, strict=True)]
    weights, *_ = np.linalg.lstsq(np.array(rows), np.array(targets), rcond=None)
    return tuple(round(float(w), 3) for w in weights)


def error(found: list[Cut], slope: float, weights: tuple[float, ...] = ()) -> tuple[float, float]:
    """Root-mean-square error in points of the estimate with ``slope`` (or the learned ``weights``),
    and as a share of the points left."""
    squares = shares = 0.0
    counted = 0
    for cut in found:
        if weights:
            expected, left = learned_share(cut.table, cut.hands, cut.attackers, cut.leader, weights)
        else:
            expected, left = cut.share(slope)
        squares += (expected - cut.gain) ** 2
        if left:
            shares += ((expected - cut.gain) / left) ** 2
            counted += 1
    return math.sqrt(squares / len(found)), math.sqrt(shares / max(1, counted))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fit", type=int, nargs="+", default=[21], help="arena seeds the slope is fitted on")
    parser.add_argument("--test", type=int, nargs="+", default=[22], help="arena seeds it is judged on")
    parser.add_argument("--deals", type=int, default=40, help="hands a seed (default 40)")
    parser.add_argument("--learn", action="store_true", help="also fit and judge the learned cut value")
    args = parser.parse_args()
    config = SearchConfig()
    fit = [cut for seed in args.fit for cut in cuts(seed, args.deals, config)]
    test = [cut for seed in args.test for cut in cuts(seed, args.deals, config)]
    slope = fitted_slope(fit)
    print(f"{len(fit)} cuts to fit on (seeds {args.fit}), {len(test)} to judge on (seeds {args.test})")
    for name, found in (("fit", fit), ("test", test)):
        print(f"slope fitted on the {name} seeds alone: {fitted_slope(found):.3f}")
    for label, value in (("slope 1 (the strength share)", 1.0), (f"slope {slope:.3f} (fitted)", slope)):
        points, share = error(test, value)
        print(f"{label}: error on the test seeds {points:.1f} points, {share:.3f} of the points left")
    if args.learn:
        weights = fitted_weights(fit)
        points, share = error(test, 0.0, weights)
        print(f"learned cut_weights={','.join(map(str, weights))} ({', '.join(CUT_FEATURES)})")
        print(f"learned: error on the test seeds {points:.1f} points, {share:.3f} of the points left")
    both = fit + test
    for low, high in ((0, 60), (60, 120), (120, 216)):
        band = [cut for cut in both if low <= cut.cards < high]
        if band:
            print(f"{low}–{high - 1} cards at the cut: {len(band)} cuts, slope {fitted_slope(band):.3f}")


if __name__ == "__main__":
    main()
