"""The match (局): team levels, dealer rotation and redeal limits across rounds (R5, R19–R20, R36–R38)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tuolaji.cards import RANKS, parse_rank
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Phase, Round, RoundSetup, team_of
from tuolaji.game.view import RoundResult
from tuolaji.rules import get_preset

LEVEL_COUNT = 12
"""Levels 3 … A (R5): rank indices 1 … 12."""
REDEAL_LIMIT = 3
"""R20: after this many redeals in a row the match stops (or, preset fourdeck, dissolves)."""


class MatchState(StrEnum):
    PLAYING = "playing"
    STOPPED = "stopped"
    """R20: three redeals in a row; resumable when all four press start again."""
    OVER = "over"
    """A player left or the table was dissolved (R20 fourdeck, R32, R43, R47)."""


def raise_level(level: int, gain: int) -> int:
    """``level`` (rank index 1 = 3 … 12 = A) raised by ``gain``, wrapping after A to 3 (R5, R38)."""
    return 1 + (level - 1 + gain) % LEVEL_COUNT


def next_dealer(result: RoundResult) -> int | None:
    """R37 (and R34 for 勞改): the defenders' win passes the deal to the partner, an attackers' win to the next seat."""
    dealer = result.dealer
    if dealer is None or result.winning_team is None:
        return dealer
    if result.winning_team == team_of(dealer):
        return (dealer + 2) % 4
    return (dealer + 1) % 4


@dataclass(frozen=True)
class RoundOutcome:
    """What a finished round did to the match."""

    result: RoundResult
    levels_before: tuple[int, int]
    levels_after: tuple[int, int]
    next_dealer: int | None
    state: MatchState


class Match:
    """A match at one table: a sequence of rounds from the same options and seed."""

    def __init__(self, options: TableOptions, seed: int) -> None:
        self.options = options
        self.seed = seed
        self.preset = get_preset(options.preset)
        start = options.start_level_index
        self.levels: list[int] = [start, start]
        self.dealer: int | None = None
        self.rounds_started = 0
        self.hands_played = 0
        self.redeals_in_row = 0
        self.state = MatchState.PLAYING
        self.round: Round | None = None

    def round_seed(self, number: int) -> int:
        """The seed of the ``number``-th round (0-based), derived from the match seed."""
        return random.Random(f"{self.seed}:{number}").getrandbits(63)

    def next_setup(self) -> RoundSetup:
        """The setup of the next round: the dealer team's level (R6), 託管 state carried over."""
        level = self.levels[team_of(self.dealer)] if self.dealer is not None else self.levels[0]
        previous = self.round
        return RoundSetup(
            seed=self.round_seed(self.rounds_started),
            options=self.options,
            dealer=self.dealer,
            level=level,
            autoplay=(previous.autoplay[0], previous.autoplay[1], previous.autoplay[2], previous.autoplay[3])
            if previous
            else (False, False, False, False),
            timeouts=(previous.timeouts[0], previous.timeouts[1], previous.timeouts[2], previous.timeouts[3])
            if previous
            else (0, 0, 0, 0),
        )

    def start_round(self, setup: RoundSetup | None = None) -> Round:
        """Deal the next round, from :meth:`next_setup` or from ``setup`` (a restored table's round).
        Refused while a round is running or the match is not playing."""
        if self.state is not MatchState.PLAYING:
            raise ValueError(f"start of a round: the match is {self.state} (R20, R47)")
        if self.round is not None and self.round.phase is not Phase.FINISHED:
            raise ValueError("start of a round: the current round is not finished")
        self.round = Round(setup if setup is not None else self.next_setup())
        self.rounds_started += 1
        return self.round

    def finish_round(self) -> RoundOutcome:
        """Apply the finished round's result to levels, dealer and redeal count (R20, R34, R36–R38)."""
        round_ = self.round
        if round_ is None or round_.result is None:
            raise ValueError("finish of a round: no round has finished")
        result = round_.result
        before = (self.levels[0], self.levels[1])
        if result.kind == "redeal":
            self.redeals_in_row += 1
            if self.redeals_in_row >= REDEAL_LIMIT:
                self.state = MatchState.OVER if self.preset.redeal_limit_dissolves else MatchState.STOPPED
        elif result.kind in ("played", "laogai"):
            self.redeals_in_row = 0
            self.hands_played += 1
            if result.winning_team is not None:
                team = result.winning_team
                self.levels[team] = raise_level(self.levels[team], result.levels)
            self.dealer = next_dealer(result)
        else:
            self.hands_played += 1
            self.state = MatchState.OVER
        outcome = RoundOutcome(result, before, (self.levels[0], self.levels[1]), self.dealer, self.state)
        return outcome

    def to_json(self) -> dict[str, Any]:
        """The match between rounds (seed, levels, dealer, counts, state); :meth:`from_json` restores it
        without its round."""
        return {
            "seed": self.seed,
            "levels": [RANKS[level] for level in self.levels],
            "dealer": self.dealer,
            "rounds_started": self.rounds_started,
            "hands_played": self.hands_played,
            "redeals_in_row": self.redeals_in_row,
            "state": str(self.state),
        }

    @classmethod
    def from_json(cls, options: TableOptions, data: dict[str, Any]) -> Match:
        """The match whose :meth:`to_json` is ``data``, under ``options`` (no round yet)."""
        match = cls(options, int(data["seed"]))
        match.levels = [parse_rank(level) for level in data["levels"]]
        match.dealer = data["dealer"]
        match.rounds_started = int(data["rounds_started"])
        match.hands_played = int(data["hands_played"])
        match.redeals_in_row = int(data["redeals_in_row"])
        match.state = MatchState(data["state"])
        return match

    def resume(self) -> None:
        """R20: all four pressed start again after three redeals; play on from the same levels and dealer."""
        if self.state is not MatchState.STOPPED:
            raise ValueError(f"resume: the match is {self.state}, not stopped after redeals (R20)")
        self.state = MatchState.PLAYING
        self.redeals_in_row = 0
