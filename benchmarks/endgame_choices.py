"""What the search's choices late in a hand are worth on the true deal, under variants of the search.

Hands the heuristic plays against itself (heuristic bidding, seed ``--seed``); every position with
``--most-cards`` cards in hand or fewer where the search compares more than one candidate is kept.
For each setting (``--set NAME=VALUE ...`` as one argument per setting, module constants of
:mod:`tuolaji.bots.search`, as in ``benchmarks/search_variants.py``; ``-`` for the defaults), the
search picks a move in every position, and the move is valued on the true deal: the hand played to
its end by the heuristic for all four seats (:mod:`tuolaji.bots.playout`) from the search's choice
and from the heuristic's, in the search's value units (about levels). The mean gain is far less
noisy than an arena, since every setting is judged on the same positions with exact play-outs, but
it judges one move at a time against heuristic players, not whole hands.
Run: ``.venv/bin/python benchmarks/endgame_choices.py --deals 30 --seed 7 - REPLAY_FROM=0``.
"""

from __future__ import annotations

import argparse
import math
import time

from search_variants import set_constant

from tuolaji.bots import search
from tuolaji.bots.arena import bid_round, deal_setup
from tuolaji.bots.hand import counts_of
from tuolaji.bots.heuristic import choose_play
from tuolaji.bots.playout import Playout
from tuolaji.bots.search import END, SearchBot, team_value
from tuolaji.bots.situation import Situation
from tuolaji.game.actions import Play
from tuolaji.game.driver import play_to_end
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView

Position = tuple[SeatView, list[list[int]]]
Z95 = 1.959964


def positions(seed: int, deals: int, most_cards: int) -> list[Position]:
    """Views of contested late moves in heuristic hands, with the true hands."""
    found: list[Position] = []
    for index in range(deals):
        round_ = Round(deal_setup(seed, index, "nanning"))
        if not bid_round(round_):
            continue

        def move(seat: int, round_: Round = round_) -> Play:
            view = round_.view(seat)
            sit = Situation.from_view(view)
            if sit.hand_size <= most_cards and len(SearchBot().candidates_for(sit)) > 1:
                found.append((view, [counts_of(round_.view(s).hand) for s in range(4)]))
            return Play(seat, choose_play(sit))

        play_to_end(round_, move)
    return found


def true_value(sit: Situation, hands: list[list[int]], cards: tuple[int, ...]) -> float:
    playout = Playout.from_situation(sit, hands)
    playout.run(cards, END)
    return team_value(sit, playout)


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
    args = parser.parse_args()
    found = positions(args.seed, args.deals, args.most_cards)
    print(f"{len(found)} positions from {args.deals} hands, {args.most_cards} cards in hand or fewer")
    defaults = {name: getattr(search, name) for name in dir(search) if name.isupper()}
    bot_defaults = SearchBot.__init__.__defaults__
    first: list[float] | None = None
    for setting in args.settings:
        for name, value in defaults.items():
            setattr(search, name, value)
        SearchBot.__init__.__defaults__ = bot_defaults
        if setting != "-":
            for assignment in setting.split(","):
                set_constant(assignment)
        gains: list[float] = []
        switched = 0
        seconds = 0.0
        for number, (view, real) in enumerate(found):
            sit = Situation.from_view(view)
            bot = SearchBot(number)
            heuristic = bot.candidates_for(sit)[0]
            start = time.process_time()
            choice = bot.play(view)
            seconds += time.process_time() - start
            switched += choice != heuristic
            gains.append(
                true_value(sit, real, choice) - true_value(sit, real, heuristic) if choice != heuristic else 0.0
            )
        mean, half = mean_and_half(gains)
        line = f"{setting}: {mean:+.4f} ± {half:.4f} per position over the heuristic's choice, {switched} switches"
        line += f", {1000 * seconds / max(1, len(found)):.1f} ms CPU per move"
        if first is None:
            first = gains
        else:
            paired = mean_and_half([g - f for g, f in zip(gains, first, strict=True)])
            line += f"; against the first setting {paired[0]:+.4f} ± {paired[1]:.4f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
