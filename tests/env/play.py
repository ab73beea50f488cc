"""Helpers for the environment's tests: whole hands played through :class:`TractorEnv`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tuolaji.env import BotAgent, RandomAgent, TractorEnv

Agent = RandomAgent | BotAgent


@dataclass
class Trace:
    """One episode: each decision (agent, action index) and each agent's final reward and info."""

    steps: list[tuple[str, int]] = field(default_factory=list)
    rewards: dict[str, float] = field(default_factory=dict)
    infos: dict[str, dict[str, Any]] = field(default_factory=dict)


def agents_of(kind: str, seed: int = 0) -> dict[str, Agent]:
    """Four agents of ``kind`` (``random`` or ``heuristic``), seeded by ``seed`` and the seat."""
    if kind == "random":
        return {f"seat_{seat}": RandomAgent(seed * 4 + seat) for seat in range(4)}
    return {f"seat_{seat}": BotAgent("heuristic", seed * 4 + seat) for seat in range(4)}


Check = Callable[[TractorEnv, str, dict[str, Any], int], None]


def play_hand(
    env: TractorEnv,
    agents: dict[str, Agent],
    seed: int,
    options: dict[str, Any] | None = None,
    check: Check | None = None,
) -> Trace:
    """Reset with ``seed`` and ``options`` and play the episode to its end; ``check(env, agent,
    observation, action)`` is called before every live step."""
    env.reset(seed=seed, options=options)
    trace = Trace()
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            trace.rewards[agent] = reward
            trace.infos[agent] = dict(info)
            env.step(None)
            continue
        assert observation is not None
        action = agents[agent].act(env, agent, observation)
        if check is not None:
            check(env, agent, observation, action)
        trace.steps.append((agent, action))
        env.step(np.int64(action))
    return trace
