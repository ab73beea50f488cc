"""What the search's choices late in a hand are worth on the true deal, under variants of the search.

Hands the heuristic plays against itself (heuristic bidding, seed ``--seed``); every position with
``--most-cards`` cards in hand or fewer (and at least ``--fewest-cards``: ``--most-cards 54
--fewest-cards 17`` judges the middle of the hand instead) where the search compares more than one
candidate is kept.
For each setting (``name=value[,name=value…]`` as one argument per setting, fields of
:class:`~tuolaji.bots.montecarlo.config.SearchConfig`; ``-`` for the defaults), the search picks a move in
every position, and the move is valued on the true deal: the hand played to
its end by the heuristic for all four seats (:mod:`tuolaji.bots.playouts.rollout`) from the search's choice
and from the heuristic's, in the search's value units (about levels). Every setting is judged on
the same positions with exact play-outs, which shows where the search's gains come from; whether a
change pays over whole hands it shows less well than an arena does: on the search's own positions
(``--searchers``) a hand's gains add up to what the hand gains (docs/BOTS-RESEARCH.md), and some 47
contested positions a hand, each setting's mean known to about ±0.02 a position, leave a hand's
total known far less well than a paired arena of the same CPU time knows it.
A setting may also name ``chains=K`` (not a field): late deals are then taken in turn from ``K``
deal chains, each started from its own sampled deal with its own burn-in (more distinct deals for
``K`` burn-ins' cost; an experiment, not a search option), and ``mended_start=1`` (not a field
either) mends each chain's first deal as the search mends its sampled ones (R22–R25, checks charged
to the budget alike) before the burn-in. ``oracle=1`` (not a field) deals the search the true hands
every time, at no cost: what perfect knowledge of the hidden cards gives the search as it values
play-outs (its horizon, its estimate of the points still in the hands).
With ``--by-kind`` each setting's gain is also given for leads and follows apart, by cards in hand
(8 or fewer, 9–16, 17–30, 31–54), beside the ceiling of its candidates: the gain had it picked, in
every position, whichever of them does best on the true deal (what perfect knowledge of the hidden
cards would give, with the same candidates).
With ``--searchers`` the hands are played by the search (its defaults) at seats 0 and 2 and the
heuristic at 1 and 3, as in the arena, and only the search's positions are kept: the partner's
past moves are then the search's, which the heuristic does not always replay.
Run: ``.venv/bin/python benchmarks/endgame_choices.py --deals 30 --seed 7 - replay_from=0``.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from selfplay import self_play

from tuolaji.bots.base import Bot
from tuolaji.bots.knowledge.legal_follows import PastFollows, mend
from tuolaji.bots.knowledge.sampling import sample_hands
from tuolaji.bots.knowledge.shapes import counts_of
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.knowledge.tracking import trick_plays
from tuolaji.bots.montecarlo.config import END, SearchConfig
from tuolaji.bots.montecarlo.deal_chain import DealChain, PastMoves
from tuolaji.bots.montecarlo.deals import Deals
from tuolaji.bots.montecarlo.value import team_value
from tuolaji.bots.players.search import SearchBot
from tuolaji.bots.playouts.rollout import Playout
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView

Position = tuple[SeatView, list[list[int]]]
Z95 = 1.959964
BANDS = ((0, 8), (9, 16), (17, 30), (31, 54))
"""Cards in hand, for ``--by-kind``."""
EXTRA = ("chains", "mended_start", "oracle")
"""Settings of this benchmark's experiments, not fields of SearchConfig."""


def positions(seed: int, deals: int, most_cards: int, fewest_cards: int = 0, searchers: bool = False) -> list[Position]:
    """Views of contested moves with ``fewest_cards`` … ``most_cards`` cards in hand in heuristic
    hands (or with ``searchers``, the search's moves in hands it plays at seats 0 and 2), with the
    true hands."""
    found: list[Position] = []
    searcher = SearchBot()
    bots: dict[int, Bot] = {seat: SearchBot(seed * 4 + seat) for seat in (0, 2)} if searchers else {}

    def visit(round_: Round, view: SeatView) -> None:
        if searchers and view.seat not in bots:
            return
        sit = Situation.from_view(view)
        if fewest_cards <= sit.hand_size <= most_cards and len(searcher.candidates_for(sit)) > 1:
            found.append((view, [counts_of(round_.view(s).hand) for s in range(4)]))

    self_play(seed, deals, visit, bots=bots)
    return found


class DealVariants(SearchBot):
    """The search with its late deals taken in turn from ``chains`` deal chains, each started from
    a sampled deal that is mended first if ``mended_start``; or, given ``truth``, the true deal for
    every play-out."""

    def __init__(
        self, seed: int, config: SearchConfig, chains: int, mended_start: bool, truth: list[list[int]] | None = None
    ) -> None:
        super().__init__(seed, config)
        self.chains = chains
        self.mended_start = mended_start
        self.truth = truth

    def deals(self, view: SeatView, sit: Situation, rng: random.Random, per_playout: float) -> Deals:
        config = self.config
        if self.truth is not None:
            while True:
                yield [list(hand) for hand in self.truth], 0.0
        if (self.chains == 1 and not self.mended_start) or sit.hand_size > config.chain_from(leading=not view.trick):
            yield from super().deals(view, sit, rng, per_playout)
            return
        plays = trick_plays(view.tricks, view.trick)
        past = PastMoves(sit, plays, config.replay_depth, config.replay_partner, config.partner_moves)
        follows = PastFollows(sit, plays, view.illegal_follow == "reject")
        runs = []
        for _ in range(self.chains):
            first = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng)
            if self.mended_start:
                mend(follows, first, rng, config.mend_swaps)
            chain = DealChain(past, first, rng, config.aimed)
            chain.run(config.burn_in)
            runs.append(chain)
        while True:
            for chain in runs:
                cost = config.replay_cost * past.replayed + config.check_cost * follows.checks
                yield chain.deal(), cost / per_playout
                past.replayed = 0
                follows.checks = 0
                chain.run(config.gap)


def true_value(sit: Situation, hands: list[list[int]], cards: tuple[int, ...], config: SearchConfig) -> float:
    playout = Playout.from_situation(sit, hands)
    playout.run(cards, END)
    return team_value(sit, playout, config)


def mean_and_half(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1)
    return mean, Z95 * math.sqrt(variance / len(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("settings", nargs="+", help="NAME=VALUE[,NAME=VALUE…] per setting, or - for the defaults")
    parser.add_argument("--deals", type=int, default=30, help="hands to take positions from (default 30)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--most-cards", type=int, default=16, help="positions from this many cards down")
    parser.add_argument("--fewest-cards", type=int, default=0, help="positions down to this many cards")
    parser.add_argument("--searchers", action="store_true", help="positions of the search at seats 0 and 2")
    parser.add_argument("--by-kind", action="store_true", help="gains of leads and follows apart, with a ceiling")
    args = parser.parse_args()
    found = positions(args.seed, args.deals, args.most_cards, args.fewest_cards, args.searchers)
    span = f"{args.fewest_cards}–{args.most_cards}"
    print(f"{len(found)} positions from {args.deals} hands, {span} cards in hand")
    first: list[float] | None = None
    for setting in args.settings:
        names = [] if setting == "-" else setting.split(",")
        extra = {key: int(value) for key, _, value in (name.partition("=") for name in names) if key in EXTRA}
        config = SearchConfig.from_settings([name for name in names if name.partition("=")[0] not in EXTRA])
        gains: list[float] = []
        ceilings: list[float] = []
        moved: list[bool] = []
        seconds = 0.0
        for number, (view, real) in enumerate(found):
            sit = Situation.from_view(view)
            truth = real if extra.get("oracle", 0) else None
            bot = DealVariants(number, config, extra.get("chains", 1), bool(extra.get("mended_start", 0)), truth)
            candidates = bot.candidates_for(sit)
            heuristic = candidates[0]
            start = time.process_time()
            choice = bot.play(view)
            seconds += time.process_time() - start
            moved.append(choice != heuristic)
            if args.by_kind:
                values = {move: true_value(sit, real, move, config) for move in candidates}
                gains.append(values[choice] - values[heuristic])
                ceilings.append(max(values.values()) - values[heuristic])
            elif choice != heuristic:
                gains.append(true_value(sit, real, choice, config) - true_value(sit, real, heuristic, config))
            else:
                gains.append(0.0)
        mean, half = mean_and_half(gains)
        line = f"{setting}: {mean:+.4f} ± {half:.4f} per position over the heuristic's choice, {sum(moved)} switches"
        line += f", {1000 * seconds / max(1, len(found)):.1f} ms CPU per move"
        if first is None:
            first = gains
        else:
            paired = mean_and_half([g - f for g, f in zip(gains, first, strict=True)])
            line += f"; against the first setting {paired[0]:+.4f} ± {paired[1]:.4f}"
        print(line, flush=True)
        if args.by_kind:
            print_by_kind(found, gains, ceilings, moved)


def print_by_kind(found: list[Position], gains: list[float], ceilings: list[float], moved: list[bool]) -> None:
    """Gains and ceilings of leads and follows apart, by cards in hand (``--by-kind``)."""
    kinds = [("follows" if view.trick else "leads", len(view.hand)) for view, _ in found]
    for kind in ("leads", "follows"):
        for low, high in BANDS:
            chosen = [i for i, (k, cards) in enumerate(kinds) if k == kind and low <= cards <= high]
            if len(chosen) < 2:
                continue
            mean, half = mean_and_half([gains[i] for i in chosen])
            ceiling = sum(ceilings[i] for i in chosen) / len(chosen)
            print(
                f"  {kind}, {low}–{high} cards: {len(chosen)} positions, {mean:+.4f} ± {half:.4f}, "
                f"{sum(moved[i] for i in chosen)} switches; the candidates' ceiling {ceiling:+.4f}"
            )


if __name__ == "__main__":
    main()
