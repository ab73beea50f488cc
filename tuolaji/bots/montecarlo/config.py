"""What the search's play depends on besides its seed: :class:`SearchConfig` (see
:mod:`tuolaji.bots.montecarlo`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

END = 1000
"""A horizon longer than any hand."""


@dataclass(frozen=True)
class SearchConfig:
    """Everything the search bot's play depends on besides its seed (see :mod:`tuolaji.bots.montecarlo`)."""

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
    cut_model: bool = False
    """Whether a play-out stopped before the end shares the points left by the fitted ``cut_weights``
    (:func:`~tuolaji.bots.montecarlo.value.learned_share`) instead of ``share_slope``."""
    cut_weights: tuple[float, float, float, float, float, float, float] = (
        2.284,
        -0.454,
        -0.155,
        0.228,
        0.049,
        0.021,
        0.335,
    )
    """The weights of :data:`~tuolaji.bots.montecarlo.value.CUT_FEATURES` when ``cut_model``: fitted
    by ``benchmarks/cutoff_share.py --fit 21 22 --test 23 --deals 100 --learn`` (30.1 points of error
    on seed 23 against 30.7 for the slope fitted on the same cuts: not better enough to try, so off)."""
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
    """From this many cards in hand down, deals come from a deal chain (:mod:`tuolaji.bots.montecarlo.deal_chain`)."""
    lead_replay_from: int = 30
    """From this many cards in hand down, the deals for a lead come from the deal chain (never
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
    """Before the deal chain takes over, swaps that may move each sampled deal towards one on which
    the other seats' past follows were all legal (:func:`~tuolaji.bots.knowledge.legal_follows.mend`;
    0: none)."""
    check_cost: float = 0.15
    """What checking one past follow costs, in play-out moves (``benchmarks/playout_cost.py``)."""
    belief: float = 0.0
    """How strongly the sampled deals follow the learned belief (:mod:`tuolaji.bots.montecarlo.belief`):
    each seat's cards are drawn in proportion to the model's probabilities raised to this power (the
    deal chain starts from such a deal; its swaps stay as they are). 0: uniform consistent deals,
    the search as measured on seed 741076."""

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
        """How many play-outs fit the budget (see :mod:`tuolaji.bots.montecarlo`); at least two."""
        fixed, per_card = self.ms_per_move
        per_playout = self.playout_moves(hand_size, horizon) * (fixed + per_card * hand_size)
        return max(2, int(self.budget_ms / per_playout))

    def chain_from(self, leading: bool) -> int:
        """From how many cards in hand down a move's deals come from the deal chain."""
        return max(self.replay_from, self.lead_replay_from) if leading else self.replay_from

    def horizon_for(self, hand_size: int) -> int:
        """Tricks a play-out runs from a hand of ``hand_size`` cards."""
        return self.horizon_tricks if hand_size > self.endgame_cards else END


_FIELDS = frozenset(field.name for field in fields(SearchConfig))
