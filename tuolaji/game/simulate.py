"""``tuolaji simulate``: whole hands between random-legal players, with a summary.

Each hand is dealt at once, bid by random players (one poll of the four seats in turn,
:func:`~tuolaji.game.driver.poll_bids`), and played to the last trick with random valid
leads and random legal follows. Every finished hand is checked: its tricks hold all 216 cards and
all 400 card points (R4, R35).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from tuolaji.cards import DECK_SIZE, POINTS, Card
from tuolaji.game.actions import Action, Bid, CloseBidding, DealCards, Play
from tuolaji.game.driver import play_to_end, poll_bids
from tuolaji.game.match import Match
from tuolaji.game.options import PRESET_NAMES, TableOptions
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView
from tuolaji.rules import Trump, random_legal_follow, random_valid_lead

TOTAL_POINTS = 400


class SimulationError(AssertionError):
    """A simulated hand broke an invariant (cards or points lost)."""


BID_CHANCE = 0.75
"""How often a random player with a bid open to it makes one."""


class RandomBidder:
    """A random player's bids, as a :class:`~tuolaji.game.driver.Chooser`: when it may show level
    cards (R16–R18), it does with probability :data:`BID_CHANCE`, a random one of its options."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Action | None:
        options = view.bid_options
        if view.seat is None or not options or self.rng.random() >= BID_CHANCE:
            return None
        suit, count = self.rng.choice(options)
        return Bid(view.seat, suit, count)


def random_move(round_: Round, seat: int, trump: Trump, rng: random.Random) -> list[Card]:
    """A random valid lead (R13) or a random legal follow (R22–R25) for ``seat``."""
    hand = round_.hands[seat]
    lead = round_.lead
    if lead is None:
        return random_valid_lead(hand, trump, rng)
    return random_legal_follow(hand, lead, trump, rng, round_.preset)


def deal_and_bid_randomly(round_: Round, rng: random.Random) -> Trump | None:
    """Deal ``round_`` at once, poll random bidders once in seat order, close the bidding; the trump,
    or None when nobody bid (a redeal, R20)."""
    round_.apply(DealCards(DECK_SIZE))
    poll_bids(round_, (RandomBidder(rng),) * 4, rounds=1)
    round_.apply(CloseBidding())
    return round_.trump


def play_random_round(round_: Round, rng: random.Random, *, checked: bool = False) -> None:
    """Deal, bid and play ``round_`` to its end with random-legal players.

    The moves come from the rules engine's own legal-move generators, so by default the round does
    not check them again; ``checked=True`` does (the tests compare both).
    """
    trump = deal_and_bid_randomly(round_, rng)
    if trump is None:
        return
    play_to_end(round_, lambda seat: Play(seat, tuple(random_move(round_, seat, trump, rng))), checked=checked)


def check_round(round_: Round) -> None:
    """Raise :class:`SimulationError` unless the round's tricks hold every card and every point once."""
    cards = [card for trick in round_.tricks for play in trick.plays for card in play.cards]
    if len(cards) != DECK_SIZE:
        raise SimulationError(f"round seed {round_.setup.seed}: tricks hold {len(cards)} cards, not {DECK_SIZE}")
    points = sum(POINTS[card] for card in cards)
    if points != TOTAL_POINTS:
        raise SimulationError(f"round seed {round_.setup.seed}: tricks hold {points} points, not {TOTAL_POINTS}")
    if any(round_.hands):
        raise SimulationError(f"round seed {round_.setup.seed}: cards left in hand after the last trick")


@dataclass
class Summary:
    """What a simulation measured."""

    hands: int = 0
    redeals: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    scores: list[int] = field(default_factory=list)
    results: Counter[str] = field(default_factory=Counter)
    last_trick_multiplied: int = 0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0

    @property
    def hands_per_cpu_second(self) -> float:
        """Hands per second of this process's CPU time: the one-core speed, whatever else the machine runs."""
        return self.hands / self.cpu_seconds if self.cpu_seconds else 0.0

    def render(self) -> str:
        mean = sum(self.scores) / len(self.scores) if self.scores else 0.0
        lines = [
            f"hands: {self.hands} ({self.redeals} redeals) in {self.seconds:.2f} s"
            f" = {self.hands_per_second:.1f} hands/s ({self.hands_per_cpu_second:.1f} per CPU second)",
            f"mean attackers' score: {mean:.1f}",
            "results:",
        ]
        lines += [
            f"  {name}: {count} ({100 * count / max(1, self.hands):.1f}%)"
            for name, count in sorted(self.results.items())
        ]
        share = 100 * self.last_trick_multiplied / max(1, self.hands)
        lines.append(f"摳底 (last trick multiplied): {self.last_trick_multiplied} ({share:.1f}%)")
        return "\n".join(lines)


def simulate(hands: int, seed: int, preset: str = "nanning") -> Summary:
    """Play ``hands`` whole hands (redeals not counted) of one match and check each one."""
    rng = random.Random(seed)
    match = Match(TableOptions(preset=preset), seed)
    summary = Summary()
    start, cpu_start = time.perf_counter(), time.process_time()
    while summary.hands < hands:
        round_ = match.start_round()
        play_random_round(round_, rng)
        outcome = match.finish_round()
        result = outcome.result
        if result.kind == "redeal":
            summary.redeals += 1
            if match.state == "stopped":
                match.resume()
            continue
        check_round(round_)
        summary.hands += 1
        summary.scores.append(result.score)
        summary.results[f"{result.winner} +{result.levels}"] += 1
        if round_.tricks[-1].multiplier > 1:
            summary.last_trick_multiplied += 1
    summary.seconds = time.perf_counter() - start
    summary.cpu_seconds = time.process_time() - cpu_start
    return summary


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=_positive, default=100, help="whole hands to play (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    parser.add_argument("--preset", choices=PRESET_NAMES, default="nanning", help="rule preset (§14)")


def run(args: argparse.Namespace) -> int:
    print(simulate(args.hands, args.seed, args.preset).render())
    return 0


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--hands {text!r}: expected a whole number ≥ 1") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"--hands {text!r}: expected a whole number ≥ 1")
    return value
