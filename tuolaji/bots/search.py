"""The search bot: determinized Monte-Carlo search (PIMC) over the heuristic.

For a move, the heuristic's best few candidates (:data:`CANDIDATES`; its own choice first) are each
tried against the same sampled deals of the hidden cards (:mod:`tuolaji.bots.sampling`: consistent
with the cards seen, the voids shown, the pairs a seat has shown it lacks (R24 caps,
:func:`tuolaji.bots.tracking.note_trick`) and the level cards shown in bids). A move with one
candidate is played at once. From each deal and candidate the hand is played on by
the heuristic policy for all four seats (:mod:`tuolaji.bots.playout`) for up to
:data:`HORIZON_TRICKS` tricks, or to the end of the hand once the bot holds :data:`ENDGAME_CARDS`
cards or fewer, and scored for the bot's team as

    value = expected signed level change (R36) of the estimated final score + signed score × SCORE_WEIGHT

where the estimated final score is the attackers' score so far, plus what the play-out moved, plus,
when the play-out stopped before the end, a share of the points still in the hands: the attackers'
share of the strength left (:func:`tuolaji.bots.heuristic.card_value` summed over each team's
cards), so spending strength early is not free. Such an estimate is uncertain, so its level change
is an expectation (:func:`expected_levels`) over a normal error of :data:`SPREAD` × the points
still in the hands: a candidate that moves the estimate just across a threshold of R36 gains a
fraction of a level, not a whole one, which makes the comparison of candidates far less noisy.
A play-out played to the end is valued by its exact level change.

Late in the hand (:data:`REPLAY_FROM` cards in hand or fewer) the deals come from a
:class:`~tuolaji.bots.replay.ReplayChain` instead: a sampled deal moved, :data:`BURN_IN` card swaps
between two other seats before the first deal and :data:`GAP` between two deals, towards deals on
which the other seats' last :data:`REPLAY_DEPTH` moves each, replayed with the heuristic, are the
moves they made. Against heuristic players that puts far more hidden cards in the right hands
(docs/BENCHMARKS.md); against others it is a model of how they play, not a rule.

The candidates race (:meth:`SearchBot.race`): after :data:`MIN_DEALS` deals, and after each deal
from then on, an alternative whose mean gain over the heuristic's choice (paired over the same
deals) could not reach :data:`SWITCH_MARGIN` even :data:`RACE_Z` standard errors up leaves the race,
so easy moves (every alternative clearly worse, or all candidates playing out alike) stop after a
few deals and contested ones get the budget. When the budget or :data:`MAX_DEALS` is spent, an
alternative replaces the heuristic's choice only if its mean gain is at least :data:`SWITCH_MARGIN`
per deal and stays above zero :data:`SWITCH_Z` standard errors down (:func:`pick`); among those,
the surest wins. Without that second test the search mostly switched on sampling noise: the best
of several noisy means overstates its gain (measured: switches promised about six times what
fresh deals confirmed, see docs/BENCHMARKS.md).

Determinism and the time budget: the number of play-outs is computed from the budget, not
measured: ``play-outs = budget_ms / (expected play-out moves × cost per move)`` (at least two),
where the cost per move (:data:`MS_PER_MOVE`, growing with the cards in hand) was measured on the
reference machine; each sampled deal spends one play-out per candidate still in the race, and
each move a chain replays :data:`REPLAY_COST` play-out moves. So a
seed and a view always give the same move, on any machine; on a slower machine a move takes
proportionally longer than the budget.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence

from tuolaji.bots.base import Bot
from tuolaji.bots.bidding import choose_bid
from tuolaji.bots.heuristic import legal_follows, ranked_follows, ranked_leads
from tuolaji.bots.inference import read_plays
from tuolaji.bots.playout import Playout
from tuolaji.bots.replay import PastMoves, ReplayChain
from tuolaji.bots.sampling import sample_hands
from tuolaji.bots.situation import Situation
from tuolaji.bots.tracking import trick_plays
from tuolaji.bots.values import card_value
from tuolaji.game.actions import Bid
from tuolaji.game.view import SeatView
from tuolaji.rules import hand_result
from tuolaji.rules.scoring import MAX_SCORE

CANDIDATES = 4
"""How many of the heuristic's best moves are searched."""
HORIZON_TRICKS = 6
"""Play-outs stop after this many tricks (the points still in the hands are then shared by strength)."""
MS_PER_MOVE = (0.035, 0.002)
"""Measured cost of one play-out move on the reference machine (the 2-core VM of docs/BENCHMARKS.md,
under load): a + b × cards in hand (ms)."""
SCORE_WEIGHT = 1 / 80
"""Levels per point of the attackers' score in a play-out's value, beside the level change itself."""
SWITCH_MARGIN = 0.05
"""Per sampled deal, how much better (in the value's units: 0.1 ≈ 8 points) a candidate must do
than the heuristic's own choice to replace it; below that the difference is mostly sampling noise."""
ENDGAME_CARDS = 16
"""From this many cards in hand down, play-outs run to the end of the hand (the last trick's
multiplier, 摳底 R35, is then in every play-out)."""
END = 1000
"""A horizon longer than any hand."""
MIN_DEALS = 8
"""Sampled deals every candidate gets before any leaves the race."""
MAX_DEALS = 64
"""No move samples more deals than this, whatever the budget."""
RACE_Z = 1.5
"""An alternative stays in the race while its mean gain over the heuristic's choice plus this many
standard errors reaches :data:`SWITCH_MARGIN`."""
SPREAD = 0.15
"""When a play-out stops before the end, the error of its estimated final score, as a share of
the points still in the hands (the level change is then an expectation over that error)."""
SWITCH_Z = 1.0
"""An alternative replaces the heuristic's choice only if its mean gain less this many standard
errors is above zero (besides reaching :data:`SWITCH_MARGIN`)."""
READ_PLAYS = False
"""Whether the sampler keeps to the kind caps read from the other seats' leads and follows
(:func:`tuolaji.bots.inference.read_plays`). Off: against the heuristic it placed 2% more hidden
cards right but gained nothing measurable in the arena (docs/BENCHMARKS.md)."""
REPLAY_FROM = 16
"""From this many cards in hand down, deals come from a :class:`~tuolaji.bots.replay.ReplayChain`:
deals on which the other seats' past moves, replayed with the heuristic, agree with what they played."""
REPLAY_DEPTH = 12
"""How many of each other seat's latest moves are replayed."""
BURN_IN = 100
"""Swaps proposed before the chain's first deal."""
GAP = 5
"""Swaps proposed between two deals."""
REPLAY_PARTNER = True
"""Whether the partner's moves are replayed too (else only the opponents')."""
REPLAY_COST = 2.5
"""What replaying one move costs, in play-out moves (measured late in a hand: about 0.12 ms against 0.048 ms)."""
CARDS_PER_TRICK = 1.6
"""Average cards per play, to estimate how many tricks are left."""


def playout_moves(hand_size: int, horizon: int = HORIZON_TRICKS) -> float:
    """The expected moves of one play-out."""
    return 4 * min(horizon, max(1.0, hand_size / CARDS_PER_TRICK))


def playouts_for(budget_ms: float, hand_size: int, horizon: int = HORIZON_TRICKS) -> int:
    """How many play-outs fit the budget (see the module docstring); at least two."""
    per_playout = playout_moves(hand_size, horizon) * (MS_PER_MOVE[0] + MS_PER_MOVE[1] * hand_size)
    return max(2, int(budget_ms / per_playout))


def signed_levels(score: int) -> int:
    """The attackers' level change for a final score (R36): negative when the defenders win."""
    winner, levels = hand_result(score)
    return levels if winner == "attackers" else -levels


LEVEL_STEPS = tuple(score for score in range(1, MAX_SCORE + 1) if signed_levels(score) != signed_levels(score - 1))
"""The scores at which the attackers' level change goes up by one (R36)."""


def expected_levels(score: float, spread: float) -> float:
    """The attackers' expected level change when the final score is ``score`` give or take a
    normal error of standard deviation ``spread`` (0: exactly ``score``)."""
    if spread <= 0:
        return signed_levels(max(0, min(MAX_SCORE, round(score))))
    low = signed_levels(0)
    return low + sum(0.5 * math.erfc((step - 0.5 - score) / (spread * math.sqrt(2))) for step in LEVEL_STEPS)


def team_value(sit: Situation, playout: Playout) -> float:
    """The play-out's worth for ``sit.seat``'s team (see the module docstring)."""
    score = playout.points_taken + playout.gained
    spread = 0.0
    if not playout.finished:
        table = playout.table
        strength = [0.0, 0.0]
        left = 0
        for seat, hand in enumerate(playout.hands):
            for kind, count in enumerate(hand):
                if count:
                    strength[seat % 2] += count * card_value(table, hand, kind)
                    left += count * table.points[kind]
        attackers = 1 - sit.dealer % 2
        score += round(left * strength[attackers] / (sum(strength) or 1.0))
        spread = SPREAD * left
    score = max(0, min(MAX_SCORE, score))
    attackers_value = expected_levels(score, spread) + SCORE_WEIGHT * score
    return -attackers_value if sit.defending else attackers_value


class SearchBot(Bot):
    """Determinized Monte-Carlo search; bids like the heuristic."""

    name = "search"

    def __init__(
        self,
        seed: int = 0,
        budget_ms: float = 300.0,
        horizon_tricks: int = HORIZON_TRICKS,
        candidates: int = CANDIDATES,
    ) -> None:
        if budget_ms <= 0 or horizon_tricks < 1 or candidates < 1:
            raise ValueError(
                f"bot 'search': budget_ms={budget_ms!r}, horizon_tricks={horizon_tricks!r} and "
                f"candidates={candidates!r} must be positive"
            )
        super().__init__(seed)
        self.budget_ms = budget_ms
        self.horizon = horizon_tricks
        self.candidates = candidates

    def bid(self, view: SeatView) -> Bid | None:
        return choose_bid(view)

    def play(self, view: SeatView) -> tuple[int, ...]:
        sit = Situation.from_view(view)
        if READ_PLAYS:
            read_plays(sit, view)
        candidates = self.candidates_for(sit)
        if len(candidates) == 1:
            return candidates[0]
        return candidates[self.race(view, sit, candidates)]

    def candidates_for(self, sit: Situation) -> list[tuple[int, ...]]:
        """The moves compared, the heuristic's choice first: its best legal follows or its best leads."""
        if sit.trick:
            return legal_follows(sit, ranked_follows(sit), self.candidates)
        return ranked_leads(sit)[: self.candidates]

    def race(self, view: SeatView, sit: Situation, candidates: Sequence[tuple[int, ...]]) -> int:
        """The index of the candidate to play (see the module docstring): sampled deals are played
        out for every candidate still in the race; an alternative leaves it once it cannot
        plausibly beat the heuristic's choice (index 0) by :data:`SWITCH_MARGIN`."""
        rng = self.rng_for(view)
        horizon = self.horizon if sit.hand_size > ENDGAME_CARDS else END
        units: float = playouts_for(self.budget_ms, sit.hand_size, horizon)
        values: list[list[float]] = [[] for _ in candidates]
        active = list(range(len(candidates)))
        deals = self.deals(view, sit, rng, playout_moves(sit.hand_size, horizon))
        while len(active) > 1 and units >= len(active) and len(values[0]) < MAX_DEALS:
            hands, cost = next(deals)
            units -= len(active) + cost
            for index in active:
                playout = Playout.from_situation(sit, hands)
                playout.run(candidates[index], horizon)
                values[index].append(team_value(sit, playout))
            if len(values[0]) >= MIN_DEALS:
                active = [0] + [i for i in active[1:] if _upper_gain(values[0], values[i]) >= SWITCH_MARGIN]
        return pick(values)

    @staticmethod
    def deals(
        view: SeatView, sit: Situation, rng: random.Random, per_playout: float
    ) -> Iterator[tuple[list[list[int]], float]]:
        """The deals of the hidden cards to play out, each with what it cost beyond sampling, in
        play-outs of ``per_playout`` moves: sampled ones, or late in the hand those of a
        :class:`~tuolaji.bots.replay.ReplayChain` (see the module docstring)."""
        if sit.hand_size > REPLAY_FROM:
            while True:
                yield sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng), 0.0
        past = PastMoves(sit, trick_plays(view.tricks, view.trick), REPLAY_DEPTH, REPLAY_PARTNER)
        chain = ReplayChain(past, sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng), rng)
        chain.run(BURN_IN)
        while True:
            yield chain.deal(), REPLAY_COST * past.replayed / per_playout
            past.replayed = 0
            chain.run(GAP)


def pick(values: Sequence[Sequence[float]]) -> int:
    """The candidate to play given each one's values over the sampled deals (index 0, the
    heuristic's choice, played on every deal; the others on the first deals, paired): the
    alternative whose gain over index 0 is surest, if its mean gain reaches :data:`SWITCH_MARGIN`
    and its gain less :data:`SWITCH_Z` standard errors is above zero; else 0."""
    gains = {i: paired_gain(values[0], values[i]) for i in range(1, len(values)) if values[i]}
    sure = {i: mean - SWITCH_Z * error for i, (mean, error) in gains.items() if mean >= SWITCH_MARGIN}
    best = max(sure, key=lambda i: (sure[i], -i), default=0)
    return best if best and sure[best] > 0 else 0


def _upper_gain(base: Sequence[float], other: Sequence[float]) -> float:
    """An optimistic bound on the mean gain of ``other`` over ``base`` (paired deals)."""
    mean, error = paired_gain(base, other)
    return mean + RACE_Z * error


def paired_gain(base: Sequence[float], other: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``other − base`` over the deals both were played on."""
    diffs = [o - b for b, o in zip(base, other, strict=False)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(variance / n)
