"""Agents that play through :class:`~tuolaji.env.TractorEnv`: a uniform random one and the engine's
bots mapped to action indices."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tuolaji.bots import make_bot
from tuolaji.env.tractor_env import TractorEnv


class RandomAgent:
    """Picks uniformly among the actions its mask allows; deterministic for its ``seed``."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def act(self, env: TractorEnv, agent: str, observation: Mapping[str, Any]) -> int:
        """An action index whose ``action_mask`` entry is 1."""
        return int(self._rng.choice(np.flatnonzero(observation["action_mask"])))


class BotAgent:
    """One of the engine's bots (:func:`tuolaji.bots.make_bot`) seeing the agent's own view, its bid,
    pass or play mapped to the env's action index. The ``heuristic`` bot's moves are always offered
    (:mod:`tuolaji.env.actions`); another bot's play that is not offered raises ``ValueError``."""

    def __init__(self, name: str = "heuristic", seed: int = 0) -> None:
        self.bot = make_bot(name, seed)

    def act(self, env: TractorEnv, agent: str, observation: Mapping[str, Any]) -> int:
        """The bot's choice for ``agent`` (the selected agent) as an action index."""
        return env.encode(self.bot.choose(env.view(agent)))
