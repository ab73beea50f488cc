"""The search bot: determinized Monte-Carlo search (PIMC) over the heuristic.

Every number below is a field of the bot's :class:`SearchConfig`. For a move, the heuristic's best
few candidates (``candidates``; its own choice first) are each tried against the same deals of the
hidden cards. A move with one candidate is played at once. The deals are sampled
(:mod:`tuolaji.bots.knowledge.sampling`: consistent with the cards seen, the voids shown, the pairs a
seat has shown it lacks, R24 caps, and the level cards shown in bids) and then mended by up to
``mend_swaps`` swaps towards a deal on which the other seats' past follows were all legal
(:mod:`tuolaji.bots.knowledge.legal_follows`, R22–R25; a rule, so it holds for people too). Late in
the hand (``replay_from`` cards in hand or fewer, ``lead_replay_from`` before a lead) they come from a
:class:`~tuolaji.bots.knowledge.replay_chain.ReplayChain` instead: a sampled deal moved, ``burn_in``
card swaps between two other seats before the first deal and ``gap`` between two deals, towards
deals on which the other seats' last ``replay_depth`` moves each, replayed with the heuristic, are
the moves they made: for the opponents the heuristic's choice, for the partner any of the
heuristic's ``partner_moves`` best (1 by default; a search partner plays one of its candidates; a
model of how they play, not a rule).

From each deal and candidate the hand is played on by the heuristic for all four seats
(:mod:`tuolaji.bots.playouts.rollout`) for up to ``horizon_tricks`` tricks, or to the end of the hand
once the bot holds ``endgame_cards`` cards or fewer, and scored for the bot's team as

    value = expected signed level change (R36) of the estimated final score + signed score × score_weight

where the estimated final score is the attackers' score so far, plus what the play-out moved, plus,
when the play-out stopped before the end, the attackers' share of the points still in the hands:
``0.5 + share_slope × (s − 0.5)`` within 0 and 1, where ``s`` is their share of the strength left
(:func:`tuolaji.bots.policy.values.card_value` summed over each team's cards). That
estimate is uncertain, so its level change is an expectation (:func:`expected_levels`) over a normal
error of ``spread`` × the points still in the hands; a play-out played to the end is valued by its
exact level change.

The candidates race (:meth:`SearchBot.race`): after ``min_deals`` deals, and after each deal from
then on, an alternative whose mean gain over the heuristic's choice (paired over the same deals)
could not reach ``switch_margin`` even ``race_z`` standard errors up leaves the race. When the
budget or ``max_deals`` is spent, an alternative replaces the heuristic's choice only if its mean
gain is at least ``switch_margin`` per deal and stays above zero ``switch_z`` standard errors down
(:func:`pick`); among those, the surest wins.

Determinism and the time budget: the number of play-outs is computed from the budget, not
measured: ``play-outs = budget_ms / (expected play-out moves × cost per move)`` (at least two),
where the cost per move (``ms_per_move``, growing with the cards in hand) was measured on the
reference machine with the compiled build (:mod:`tuolaji.native`; ``benchmarks/playout_cost.py``);
each deal spends one play-out per candidate still in the race, each move a chain replays
``replay_cost`` play-out moves and each past follow checked ``check_cost``. So a seed and a view
always give the same move, on any machine and either build; on a slower machine, or as plain
Python (2.5 to 3 times slower), a move takes proportionally longer than the budget.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields, replace

from tuolaji.bots.base import Bot
from tuolaji.bots.knowledge.cardinfo import CardTable
from tuolaji.bots.knowledge.legal_follows import PastFollows, mend
from tuolaji.bots.knowledge.replay_chain import PastMoves, ReplayChain
from tuolaji.bots.knowledge.sampling import sample_hands
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.knowledge.tracking import trick_plays
from tuolaji.bots.players.bidding import choose_bid
from tuolaji.bots.players.heuristic import best_plays
from tuolaji.bots.playouts.rollout import Playout
from tuolaji.bots.policy.values import card_value
from tuolaji.game.actions import Bid
from tuolaji.game.view import SeatView
from tuolaji.rules import hand_result
from tuolaji.rules.scoring import MAX_SCORE

END = 1000
"""A horizon longer than any hand."""


@dataclass(frozen=True)
class SearchConfig:
    """Everything the search bot's play depends on besides its seed (see the module docstring)."""

    budget_ms: float = 300.0
    """Time budget per move on the reference machine, compiled (turned into a number of play-outs)."""
    candidates: int = 4
    """How many of the heuristic's best moves are searched."""
    horizon_tricks: int = 6
    """Play-outs stop after this many tricks (the points still in the hands are then shared by strength)."""
    endgame_cards: int = 16
    """From this many cards in hand down, play-outs run to the end of the hand (摳底, R35, in every one)."""
    ms_per_move: tuple[float, float] = (0.02, 0.001)
    """Cost of one play-out move on the reference machine with the compiled build, a + b × cards in
    hand (ms), fitted by ``benchmarks/playout_cost.py``."""
    cards_per_trick: float = 1.6
    """Average cards per play, to estimate how many tricks are left."""
    score_weight: float = 1 / 80
    """Levels per point of the attackers' score in a play-out's value, beside the level change itself."""
    share_slope: float = 2.4
    """When a play-out stops before the end, how steeply the attackers' share of the points still in
    the hands follows their share of the strength (1: the strength share itself, the search as
    measured on seed 579030; 2.4 fitted on heuristic hands by ``benchmarks/cutoff_share.py``)."""
    spread: float = 0.15
    """When a play-out stops before the end, the error of its estimated final score, as a share of
    the points still in the hands."""
    switch_margin: float = 0.05
    """Per deal, how much better (in the value's units: 0.1 ≈ 8 points) an alternative must do than the
    heuristic's choice to replace it."""
    switch_z: float = 1.0
    """An alternative replaces the heuristic's choice only if its mean gain less this many standard
    errors is above zero."""
    race_z: float = 1.5
    """An alternative stays in the race while its mean gain plus this many standard errors reaches
    ``switch_margin``."""
    min_deals: int = 8
    """Deals every candidate gets before any leaves the race."""
    max_deals: int = 64
    """No move plays out more deals than this, whatever the budget."""
    replay_from: int = 16
    """From this many cards in hand down, deals come from a replay chain."""
    lead_replay_from: int = 30
    """From this many cards in hand down, the deals for a lead come from the replay chain (never
    fewer than ``replay_from``; 16 is the search as measured on seed 172972)."""
    replay_depth: int = 12
    """How many of each other seat's latest moves the chain replays."""
    replay_partner: bool = True
    """Whether the partner's moves are replayed too (else only the opponents')."""
    partner_moves: int = 1
    """A partner's past move replays if it is one of the heuristic's this many best moves (1, the
    default: only its choice; ``candidates``: any move a search partner might have played there)."""
    burn_in: int = 100
    """Swaps proposed before the chain's first deal."""
    gap: int = 5
    """Swaps proposed between two deals."""
    aimed: float = 0.5
    """Share of the chain's swaps that give away a card a failing replay played."""
    replay_cost: float = 1.7
    """What replaying one move of the chain costs (its swap's own work included), in play-out moves
    (``benchmarks/playout_cost.py``)."""
    mend_swaps: int = 30
    """Before the replay chain takes over, swaps that may move each sampled deal towards one on which
    the other seats' past follows were all legal (:func:`~tuolaji.bots.knowledge.legal_follows.mend`;
    0: none)."""
    check_cost: float = 0.15
    """What checking one past follow costs, in play-out moves (``benchmarks/playout_cost.py``)."""

    def __post_init__(self) -> None:
        if self.budget_ms <= 0 or self.horizon_tricks < 1 or self.candidates < 1:
            raise ValueError(
                f"bot 'search': budget_ms={self.budget_ms!r}, horizon_tricks={self.horizon_tricks!r} and "
                f"candidates={self.candidates!r} must be positive"
            )
        if self.partner_moves < 1:
            raise ValueError(f"bot 'search': partner_moves={self.partner_moves!r} must be at least 1")

    @classmethod
    def from_settings(cls, settings: Sequence[str], base: SearchConfig | None = None) -> SearchConfig:
        """``base`` (default: the defaults) with ``name=value`` settings applied, as benchmarks take them
        on the command line (``candidates=3``, ``replay_partner=false``, ``ms_per_move=0.02,0.001``);
        ``ValueError`` for an unknown field or a value of the wrong kind."""
        base = base or cls()
        changes: dict[str, object] = {}
        for setting in settings:
            name, _, text = setting.partition("=")
            default = getattr(base, name, None) if name in _FIELDS else None
            if isinstance(default, bool):
                if text.lower() not in ("true", "false"):
                    raise ValueError(f"{setting}: {name} is true or false")
                changes[name] = text.lower() == "true"
            elif isinstance(default, int | float):
                changes[name] = type(default)(text)
            elif isinstance(default, tuple):
                numbers = tuple(float(part) for part in text.split(","))
                if len(numbers) != len(default):
                    raise ValueError(f"{setting}: {name} is {len(default)} numbers separated by commas")
                changes[name] = numbers
            else:
                raise ValueError(f"{setting}: no number or switch {name!r} in SearchConfig")
        return replace(base, **changes)  # type: ignore[arg-type]

    def playout_moves(self, hand_size: int, horizon: int) -> float:
        """The expected moves of one play-out."""
        return 4 * min(horizon, max(1.0, hand_size / self.cards_per_trick))

    def playouts_for(self, hand_size: int, horizon: int) -> int:
        """How many play-outs fit the budget (see the module docstring); at least two."""
        fixed, per_card = self.ms_per_move
        per_playout = self.playout_moves(hand_size, horizon) * (fixed + per_card * hand_size)
        return max(2, int(self.budget_ms / per_playout))

    def chain_from(self, leading: bool) -> int:
        """From how many cards in hand down a move's deals come from the replay chain."""
        return max(self.replay_from, self.lead_replay_from) if leading else self.replay_from

    def horizon_for(self, hand_size: int) -> int:
        """Tricks a play-out runs from a hand of ``hand_size`` cards."""
        return self.horizon_tricks if hand_size > self.endgame_cards else END


_FIELDS = frozenset(field.name for field in fields(SearchConfig))


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


def team_value(sit: Situation, playout: Playout, config: SearchConfig) -> float:
    """The play-out's worth for ``sit.seat``'s team (see the module docstring)."""
    score = playout.points_taken + playout.gained
    spread = 0.0
    if not playout.finished:
        expected, left = points_left_share(playout.table, playout.hands, 1 - sit.dealer % 2, config.share_slope)
        score += expected
        spread = config.spread * left
    score = max(0, min(MAX_SCORE, score))
    attackers_value = expected_levels(score, spread) + config.score_weight * score
    return -attackers_value if sit.defending else attackers_value


def points_left_share(
    table: CardTable, hands: Sequence[Sequence[int]], attackers: int, share_slope: float
) -> tuple[int, int]:
    """Of the card points still in the four ``hands`` (count vectors) of an unfinished play-out, how
    many the ``attackers`` (team 0 or 1) are expected to take, and how many there are:
    ``0.5 + share_slope × (s − 0.5)`` of them, within none and all, where ``s`` is their share of
    the strength left."""
    strength = [0.0, 0.0]
    left = 0
    for seat, hand in enumerate(hands):
        for kind, count in enumerate(hand):
            if count:
                strength[seat % 2] += count * card_value(table, hand, kind)
                left += count * table.points[kind]
    share = strength[attackers] / (sum(strength) or 1.0)
    share += (share_slope - 1.0) * (share - 0.5)
    return round(left * max(0.0, min(1.0, share))), left


Deals = Iterator[tuple[list[list[int]], float]]
"""Deals of the hidden cards, each with what it cost beyond sampling, in play-outs."""


class SearchBot(Bot):
    """Determinized Monte-Carlo search; bids like the heuristic."""

    name = "search"

    def __init__(self, seed: int = 0, config: SearchConfig | None = None) -> None:
        super().__init__(seed)
        self.config = config or SearchConfig()

    def bid(self, view: SeatView) -> Bid | None:
        return choose_bid(view)

    def play(self, view: SeatView) -> tuple[int, ...]:
        sit = Situation.from_view(view)
        candidates = self.candidates_for(sit)
        if len(candidates) == 1:
            return candidates[0]
        return candidates[pick(self.race(view, sit, candidates), self.config)]

    def candidates_for(self, sit: Situation) -> list[tuple[int, ...]]:
        """The moves compared, the heuristic's choice first: its best legal follows or its best leads."""
        return best_plays(sit, self.config.candidates)

    def race(self, view: SeatView, sit: Situation, candidates: Sequence[tuple[int, ...]]) -> list[list[float]]:
        """Each candidate's values over the deals it was played out on (see the module docstring):
        deals are played out for every candidate still in the race; an alternative leaves it once
        it cannot plausibly beat the heuristic's choice (index 0) by ``switch_margin``."""
        config = self.config
        margin = config.switch_margin
        rng = self.rng_for(view)
        horizon = config.horizon_for(sit.hand_size)
        units = float(config.playouts_for(sit.hand_size, horizon))
        values: list[list[float]] = [[] for _ in candidates]
        active = list(range(len(candidates)))
        deals = self.deals(view, sit, rng, config.playout_moves(sit.hand_size, horizon))
        while len(active) > 1 and units >= len(active) and len(values[0]) < config.max_deals:
            hands, cost = next(deals)
            units -= len(active) + cost
            for index in active:
                playout = Playout.from_situation(sit, hands)
                playout.run(candidates[index], horizon)
                values[index].append(team_value(sit, playout, config))
            if len(values[0]) >= config.min_deals:
                active = [0] + [i for i in active[1:] if _upper_gain(values[0], values[i], config) >= margin]
        return values

    def deals(self, view: SeatView, sit: Situation, rng: random.Random, per_playout: float) -> Deals:
        """The deals to play out, each with what it cost beyond sampling, in play-outs of
        ``per_playout`` moves: sampled and mended ones, or late in the hand those of a replay chain."""
        config = self.config
        plays = trick_plays(view.tricks, view.trick)
        if sit.hand_size > config.chain_from(leading=not view.trick):
            follows = PastFollows(sit, plays, view.illegal_follow == "reject")
            while True:
                hands = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng)
                if config.mend_swaps:
                    mend(follows, hands, rng, config.mend_swaps)
                yield hands, config.check_cost * follows.checks / per_playout
                follows.checks = 0
        past = PastMoves(sit, plays, config.replay_depth, config.replay_partner, config.partner_moves)
        first = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng)
        chain = ReplayChain(past, first, rng, config.aimed)
        chain.run(config.burn_in)
        while True:
            yield chain.deal(), config.replay_cost * past.replayed / per_playout
            past.replayed = 0
            chain.run(config.gap)


def pick(values: Sequence[Sequence[float]], config: SearchConfig) -> int:
    """The candidate to play given each one's values over the deals (index 0, the heuristic's
    choice, played on every deal; the others on the first deals, paired): the alternative whose gain
    over index 0 is surest, if its mean gain reaches ``switch_margin`` and its gain less ``switch_z``
    standard errors is above zero; else 0."""
    gains = {i: paired_gain(values[0], values[i]) for i in range(1, len(values)) if values[i]}
    sure = {i: mean - config.switch_z * error for i, (mean, error) in gains.items() if mean >= config.switch_margin}
    best = max(sure, key=lambda i: (sure[i], -i), default=0)
    return best if best and sure[best] > 0 else 0


def _upper_gain(base: Sequence[float], other: Sequence[float], config: SearchConfig) -> float:
    """An optimistic bound on the mean gain of ``other`` over ``base`` (paired deals)."""
    mean, error = paired_gain(base, other)
    return mean + config.race_z * error


def paired_gain(base: Sequence[float], other: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``other − base`` over the deals both were played on."""
    diffs = [o - b for b, o in zip(base, other, strict=False)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(variance / n)
