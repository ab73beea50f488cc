"""The PettingZoo AEC environment of one hand of four-deck Tractor (see :class:`TractorEnv`)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from tuolaji.cards import DECK_SIZE, KINDS, RANKS, SUITS, format_cards
from tuolaji.env.actions import (
    MAX_PLAYS,
    NUM_ACTIONS,
    PASS,
    PLAY_BASE,
    PlayOffer,
    action_index,
    bid_index,
    engine_action,
    play_candidates,
)
from tuolaji.env.bidding import BidTurns
from tuolaji.env.observation import HIGH, OBS_SIZE, encode_view
from tuolaji.game.actions import Action, CloseBidding, CloseReview, DealCards, Play
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Phase, Round, RoundSetup
from tuolaji.game.view import SeatView

AGENTS: Final = ("seat_0", "seat_1", "seat_2", "seat_3")
"""Agent ``seat_i`` plays seat ``i`` (R1: 0 South, 1 East, 2 North, 3 West; teams 0+2 and 1+3, R2)."""
MAX_REDEALS: Final = 3
"""R20: after this many redeals in a row the episode stops (truncated, no reward)."""

Observation = dict[str, npt.NDArray[Any]]
"""What :meth:`TractorEnv.observe` returns: ``observation``, ``action_mask`` (and ``action_cards``)."""
ActionIndex = int | np.integer[Any] | None
"""What :meth:`TractorEnv.step` takes: an action index, or None for a finished agent."""
METADATA: Final[dict[str, Any]] = {"name": "tuolaji_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}


@dataclass(frozen=True)
class EpisodeOptions:
    """What ``reset(options=...)`` may set: ``preset`` (``nanning``, ``guigang``, ``fourdeck``, §14),
    ``start_level`` (``"3"`` … ``"A"``, the level played at, R5–R6), ``dealer`` (a seat 0–3, or None
    for a match's first hand, where the standing bid makes its bidder dealer, R19) and ``deck`` (216
    card kinds in dealing order for the first deal, for tests and puzzles; None shuffles by the seed)."""

    preset: str = "nanning"
    start_level: str = "3"
    dealer: int | None = None
    deck: tuple[int, ...] | None = None

    @classmethod
    def parse(cls, options: dict[str, Any] | None) -> EpisodeOptions:
        """The options of ``options``; keys other than the four above are ignored."""
        options = options or {}
        deck = options.get("deck")
        return cls(
            preset=str(options.get("preset", "nanning")),
            start_level=str(options.get("start_level", "3")),
            dealer=options.get("dealer"),
            deck=None if deck is None else tuple(int(card) for card in deck),
        )


class TractorEnv(AECEnv[str, dict[str, Any], ActionIndex]):
    """One hand (盤) of four-deck Tractor as a PettingZoo AEC environment; an episode is one hand.

    - **Agents** ``seat_0`` … ``seat_3`` (:data:`AGENTS`).
    - **Episode**: :meth:`reset` shuffles by ``seed`` and deals all 216 cards (R15); then the bid
      window as turns (:mod:`tuolaji.env.bidding`, R16–R19), then the tricks (R21–R35) to the last
      card. A hand nobody bids on is redealt from the same seeded generator and the episode goes on
      (R20; ``info["redeals"]`` counts them); after :data:`MAX_REDEALS` in a row it is truncated.
      The review window of each trick closes at once, only legal plays are offered (the table option
      ``illegal_follow="reject"``), so there is no 勞改, 提醒 or 撤牌 (R30–R34).
    - **Actions** ``Discrete(NUM_ACTIONS)``: pass, bids and plays (:mod:`tuolaji.env.actions`).
    - **Observations** ``{"observation": float32[OBS_SIZE], "action_mask": int8[NUM_ACTIONS]}``
      (:mod:`tuolaji.env.observation`), from the agent's own :class:`SeatView` only; the mask is all
      zeros except for the agent whose decision it is. ``action_cards=True`` adds
      ``"action_cards"``: int8[MAX_PLAYS, 54], the cards of each play offered (row ``i`` is action
      ``PLAY_BASE + i``).
    - **Rewards** at the hand's end, in levels (R36): ``+levels`` to each seat of the team that won the
      hand, ``-levels`` to the other (0 for both when the attackers take over without a level, 160–239).
      ``infos`` then holds ``result`` (the engine's ``RoundResult.kind``), ``levels`` (the seat's
      signed levels), ``score`` (the attackers' points, R35), ``card_points``, ``attacking``,
      ``dealer`` and ``redeals``.

    Same seed and options, same actions: the same hand, step for step.
    """

    def __init__(self, render_mode: str | None = None, action_cards: bool = False) -> None:
        self.metadata = METADATA
        if render_mode is not None and render_mode not in METADATA["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected None, 'ansi' or 'human'")
        self.render_mode = render_mode
        self.action_cards = action_cards
        self.possible_agents = list(AGENTS)
        self.agents = []
        observation: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(0.0, HIGH, (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }
        if action_cards:
            observation["action_cards"] = spaces.Box(0, 4, (MAX_PLAYS, KINDS), np.int8)
        self._observation_space = spaces.Dict(observation)
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self._rng = random.Random(0)
        self._options = EpisodeOptions()
        self._round = Round(RoundSetup(seed=0))
        self._turns = BidTurns(0)
        self._acting: int | None = None
        self._offer: PlayOffer | None = None
        self._redeals = 0

    def observation_space(self, agent: str) -> spaces.Space[dict[str, Any]]:
        """The same ``Dict`` space for every agent (see the class docstring)."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[ActionIndex]:
        """``Discrete(NUM_ACTIONS)`` for every agent."""
        return self._action_space

    @property
    def round(self) -> Round:
        """The engine's round being played: the whole state, every hand included (for evaluation and
        tests; an agent's policy should see only :meth:`observe` or :meth:`view`)."""
        return self._round

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new hand: shuffle by ``seed`` (None: a fresh random seed), deal, open the bidding.
        ``options``: see :class:`EpisodeOptions`."""
        self._rng = random.Random(seed) if seed is not None else random.Random()
        self._options = EpisodeOptions.parse(options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._redeals = 0
        self._deal(self._options.deck)

    def _deal(self, deck: tuple[int, ...] | None) -> None:
        """Shuffle (or stack ``deck``), deal the whole hand (R15) and ask the first bidder."""
        options = self._options
        table = TableOptions(
            preset=options.preset, start_level=options.start_level, illegal_follow="reject", deal_interval_ms=0
        )
        setup = RoundSetup(
            seed=self._rng.getrandbits(63),
            options=table,
            dealer=options.dealer,
            level=table.start_level_index,
            deck=deck,
        )
        self._round = Round(setup)
        self._round.apply(DealCards(DECK_SIZE))
        self._turns = BidTurns(options.dealer if options.dealer is not None else 0)
        self._next_bidder()

    def _next_bidder(self) -> None:
        """Select the next seat to bid, or close the window (R19): play, or redeal (R20)."""
        self._offer = None
        seat = self._turns.next_bidder()
        if seat is not None:
            self._select(seat)
            return
        self._round.apply(CloseBidding())
        if self._round.phase is Phase.PLAYING:
            assert self._round.to_move is not None
            self._select(self._round.to_move)
            return
        self._redeals += 1
        if self._redeals < MAX_REDEALS:
            self._deal(None)
            return
        self._acting = None
        for agent in self.agents:
            self.truncations[agent] = True
            self.infos[agent] = {"result": "redeal", "redeals": self._redeals}

    def _select(self, seat: int) -> None:
        self._acting = seat
        self.agent_selection = AGENTS[seat]

    def step(self, action: ActionIndex) -> None:
        """Apply the selected agent's ``action`` (an index whose mask entry is 1; ``ValueError``
        otherwise). A finished agent must step with None."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent}: expected an action index, got None (only finished agents step with None)")
        index = int(action)
        if not 0 <= index < NUM_ACTIONS or not self._mask(agent)[index]:
            raise ValueError(f"{agent}: action {index} is not allowed now (its action_mask entry is 0)")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        move = self.decode(index)
        if self._round.phase is Phase.BIDDING:
            if move is not None:
                self._round.apply(move)
            self._turns.record(move is not None)
            self._next_bidder()
        else:
            assert isinstance(move, Play)
            self._play(move)
        self._accumulate_rewards()

    def _play(self, play: Play) -> None:
        """Play a legal move (offered from the engine's own legality checks, R13, R22–R25), close the
        trick's review at once (R33) and select the seat to move, or finish the hand."""
        round_ = self._round
        round_.apply(play, checked=False)
        self._offer = None
        if round_.phase is Phase.REVIEW:
            round_.apply(CloseReview())
        if round_.phase is Phase.FINISHED:
            self._finish()
        else:
            assert round_.to_move is not None
            self._select(round_.to_move)

    def _finish(self) -> None:
        """Rewards in levels (R36) and the hand's result in ``infos``."""
        result = self._round.result
        assert result is not None and result.dealer is not None and result.winning_team is not None
        self._acting = None
        for seat, agent in enumerate(AGENTS):
            levels = result.levels if seat % 2 == result.winning_team else -result.levels
            self.rewards[agent] = float(levels)
            self.terminations[agent] = True
            self.infos[agent] = {
                "result": result.kind,
                "levels": levels,
                "score": result.score,
                "card_points": result.card_points,
                "attacking": seat % 2 != result.dealer % 2,
                "dealer": result.dealer,
                "redeals": self._redeals,
            }

    def view(self, agent: str) -> SeatView:
        """``agent``'s own view of the hand: what a person in that seat sees (never others' cards)."""
        return self._round.view(AGENTS.index(agent))

    def offer(self, view: SeatView | None = None) -> PlayOffer:
        """The plays offered to the selected agent (empty outside its turn to play); ``view``, if
        given, is that agent's current view (saves building it again)."""
        if self._offer is None:
            acting = self._acting
            if acting is None or self._round.phase is not Phase.PLAYING:
                self._offer = PlayOffer((), 0)
            else:
                self._offer = play_candidates(view if view is not None else self._round.view(acting))
        return self._offer

    def decode(self, index: int) -> Action | None:
        """The engine action of action ``index`` for the selected agent now (None for a pass)."""
        return engine_action(index, AGENTS.index(self.agent_selection), self.offer())

    def encode(self, action: Action | None) -> int:
        """The action index of an engine action (a ``Bid``, a ``Play`` or None for a pass) for the
        selected agent now; ``ValueError`` if it is not offered."""
        return action_index(action, self.offer())

    def _mask(self, agent: str, view: SeatView | None = None) -> npt.NDArray[np.int8]:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        seat = AGENTS.index(agent)
        if seat != self._acting:
            return mask
        if self._round.phase is Phase.BIDDING:
            mask[PASS] = 1
            for suit, count in self._round.bid_options(seat):
                mask[bid_index(suit, count)] = 1
        else:
            mask[PLAY_BASE : PLAY_BASE + len(self.offer(view).plays)] = 1
        return mask

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation (from its own view only) and its action mask."""
        view = self._round.view(AGENTS.index(agent))
        observation: Observation = {
            "observation": encode_view(view, self._acting),
            "action_mask": self._mask(agent, view),
        }
        if self.action_cards:
            cards = np.zeros((MAX_PLAYS, KINDS), dtype=np.int8)
            if AGENTS.index(agent) == self._acting:
                for row, play in enumerate(self.offer().plays):
                    np.add.at(cards[row], list(play), 1)
            observation["action_cards"] = cards
        return observation

    def render(self) -> str | None:
        """The public state and the selected agent's hand as text (``ansi`` returns it, ``human`` prints it)."""
        round_ = self._round
        bid = round_.bid
        lines = [
            f"phase {round_.phase}, level {RANKS[round_.level]}, dealer {round_.dealer}, "
            f"trump {SUITS[round_.trump.suit] if round_.trump else '-'}, attackers' score {round_.score()}",
            "standing bid: "
            + (f"seat {bid.seat} {bid.count}×{RANKS[round_.level]}{SUITS[bid.suit]}" if bid else "none"),
            "trick: " + "  ".join(f"{seat}: {format_cards(cards)}" for seat, cards in round_.plays.items()),
        ]
        if self._acting is not None:
            lines.append(f"{AGENTS[self._acting]} to act, holding {format_cards(round_.view(self._acting).hand)}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the env holds no window, file or process."""


def env(render_mode: str | None = None, action_cards: bool = False) -> TractorEnv:
    """A new :class:`TractorEnv` (PettingZoo's ``env()`` convention); call ``reset`` before use."""
    return TractorEnv(render_mode=render_mode, action_cards=action_cards)


__all__ = ["AGENTS", "MAX_REDEALS", "EpisodeOptions", "Observation", "TractorEnv", "env"]
