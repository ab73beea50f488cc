"""The research environment's speed: steps a second through ``tuolaji.env.TractorEnv``.

Whole hands (episodes) with four random agents (uniform over the action mask), then with four
heuristic agents (the ``heuristic`` bot's move mapped to its action index), each on the presets in
turn. A step is one ``env.last()`` (the observation and mask) plus one ``env.step(action)``,
finished agents' closing steps included; the time is CPU time of this process, the agents' own
choosing included. Also counted: the plays offered per position (leads and follows apart) and how
many positions had more candidates than ``MAX_PLAYS`` (the cut of ``tuolaji.env.actions``).

Run: ``.venv/bin/python benchmarks/env_speed.py [--hands 200] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import time
from dataclasses import dataclass, field

from tuolaji.env import MAX_PLAYS, BotAgent, RandomAgent, TractorEnv
from tuolaji.game.options import PRESET_NAMES
from tuolaji.native import build


@dataclass
class Tally:
    """Steps, CPU seconds and the plays offered, over the hands of one kind of agent."""

    hands: int = 0
    steps: int = 0
    seconds: float = 0.0
    lead_offers: list[int] = field(default_factory=list)
    follow_offers: list[int] = field(default_factory=list)
    cut: int = 0

    def line(self, kind: str) -> str:
        positions = len(self.lead_offers) + len(self.follow_offers)
        return (
            f"{kind:9} agents: {self.steps / self.seconds:8.0f} steps/s, {self.hands / self.seconds:6.1f} hands/s "
            f"({self.hands} hands, {self.steps} steps, {self.seconds:.2f} CPU s); plays offered: leads mean "
            f"{_mean(self.lead_offers):.1f} max {max(self.lead_offers)}, follows mean "
            f"{_mean(self.follow_offers):.1f} max {max(self.follow_offers)}; "
            f"cut at MAX_PLAYS={MAX_PLAYS}: {self.cut} of {positions} positions"
        )


def _mean(values: list[int]) -> float:
    return sum(values) / len(values)


def run(kind: str, hands: int, seed: int, tally: Tally) -> None:
    """Play ``hands`` hands with four agents of ``kind``; add their steps, time and offers to ``tally``
    (the offer read is the one the observation's mask was built from: no extra work)."""
    env = TractorEnv()
    for hand in range(hands):
        agents = {
            agent: RandomAgent(seed * 4 + seat) if kind == "random" else BotAgent("heuristic", seed * 4 + seat)
            for seat, agent in enumerate(env.possible_agents)
        }
        env.reset(seed=seed * 100_000 + hand, options={"preset": PRESET_NAMES[hand % len(PRESET_NAMES)]})
        start = time.process_time()
        steps = 0
        offers: list[tuple[bool, int]] = []
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                assert observation is not None
                if env.round.phase.value == "playing":
                    offers.append((env.round.lead is None, env.offer().available))
                env.step(agents[agent].act(env, agent, observation))
            steps += 1
        tally.seconds += time.process_time() - start
        tally.steps += steps
        tally.hands += 1
        for lead, available in offers:
            (tally.lead_offers if lead else tally.follow_offers).append(available)
            tally.cut += available > MAX_PLAYS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200, help="hands per kind of agent (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{when}, {platform.processor() or platform.machine()}, CPython {platform.python_version()}, {build()} build")
    for kind in ("random", "heuristic"):
        tally = Tally()
        run(kind, args.hands, args.seed, tally)
        print(tally.line(kind))


if __name__ == "__main__":
    main()
