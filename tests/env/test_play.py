"""Whole hands through the environment: seeded runs repeat, masks are never empty, the heuristic's
move is always offered, rewards are the engine's level changes (R36), the three presets (§14)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tuolaji.env import MAX_REDEALS, PASS, PLAY_BASE, TractorEnv
from tuolaji.game import OptionError, Round
from tuolaji.game.options import PRESET_NAMES

from .play import agents_of, play_hand


def test_the_same_seed_gives_the_same_hand_and_another_seed_another() -> None:
    first = play_hand(TractorEnv(), agents_of("random", 1), seed=11)
    again = play_hand(TractorEnv(), agents_of("random", 1), seed=11)
    other = play_hand(TractorEnv(), agents_of("random", 1), seed=12)
    assert first.steps == again.steps and first.rewards == again.rewards and first.infos == again.infos
    assert other.steps != first.steps


def test_a_reused_env_repeats_a_seeded_hand_observation_for_observation() -> None:
    tractor = TractorEnv()
    seen: list[list[np.typing.NDArray[np.float32]]] = [[], []]
    for run in range(2):

        def record(env: TractorEnv, agent: str, observation: dict[str, Any], action: int, run: int = run) -> None:
            seen[run].append(observation["observation"])

        play_hand(tractor, agents_of("heuristic"), seed=21, check=record)
    assert len(seen[0]) == len(seen[1]) > 60
    assert all(np.array_equal(a, b) for a, b in zip(seen[0], seen[1], strict=True))


def _check_masks(env: TractorEnv, agent: str, observation: dict[str, Any], action: int) -> None:
    mask = observation["action_mask"]
    assert mask.any() and mask[action] == 1
    for other in env.possible_agents:
        if other != agent:
            assert not env.observe(other)["action_mask"].any()
    if env.round.phase.value == "playing":
        assert not mask[:PLAY_BASE].any() and len(env.offer().plays) == int(mask.sum())
    else:
        assert mask[PASS] == 1 and not mask[PLAY_BASE:].any()


@pytest.mark.parametrize("kind", ["random", "heuristic"])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_masks_are_never_empty_and_every_agent_move_is_in_its_mask(kind: str, preset: str) -> None:
    for seed in range(31, 34):
        options = {"preset": preset, "dealer": seed % 4, "start_level": "3456789TJQKA"[seed % 12]}
        trace = play_hand(TractorEnv(), agents_of(kind, seed), seed=seed, options=options, check=_check_masks)
        assert set(trace.rewards) == {"seat_0", "seat_1", "seat_2", "seat_3"}


@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_rewards_are_the_rounds_level_changes_and_its_moves_replay_legally(kind: str) -> None:
    for seed in (41, 42):
        tractor = TractorEnv()
        trace = play_hand(tractor, agents_of(kind, seed), seed=seed, options={"dealer": seed % 4})
        result = tractor.round.result
        assert result is not None and result.kind == "played"
        assert result.winning_team is not None and result.dealer is not None
        for seat in range(4):
            agent = f"seat_{seat}"
            signed = result.levels if seat % 2 == result.winning_team else -result.levels
            assert trace.rewards[agent] == signed == trace.infos[agent]["levels"]
            assert trace.infos[agent]["score"] == result.score
            assert trace.infos[agent]["attacking"] == (seat % 2 != result.dealer % 2)
        replayed = Round.replay(tractor.round.setup, tractor.round.actions)
        assert replayed.result == result


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_each_preset_and_start_level_is_played(preset: str) -> None:
    tractor = TractorEnv()
    trace = play_hand(tractor, agents_of("heuristic"), seed=51, options={"preset": preset, "start_level": "T"})
    assert tractor.round.preset.name == preset and tractor.round.level == 8
    assert trace.infos["seat_0"]["result"] == "played"


def test_bad_options_are_refused_by_the_engines_checks() -> None:
    with pytest.raises(OptionError, match="preset"):
        TractorEnv().reset(seed=1, options={"preset": "beijing"})
    with pytest.raises(OptionError, match="start_level"):
        TractorEnv().reset(seed=1, options={"start_level": "2"})


def test_a_first_hand_makes_the_standing_bidder_dealer() -> None:
    tractor = TractorEnv()
    play_hand(tractor, agents_of("heuristic"), seed=61)
    bid = tractor.round.bid
    assert tractor.round.setup.dealer is None and bid is not None and tractor.round.dealer == bid.seat


def test_a_hand_nobody_bids_on_is_redealt_until_r20_stops_the_episode() -> None:
    tractor = TractorEnv()
    tractor.reset(seed=71)
    seeds = {tractor.round.setup.seed}
    decisions = 0
    for _agent in tractor.agent_iter():
        _, reward, terminated, truncated, info = tractor.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0 and info["redeals"] == MAX_REDEALS
            tractor.step(None)
            continue
        decisions += 1
        tractor.step(PASS)
        seeds.add(tractor.round.setup.seed)
    assert len(seeds) == MAX_REDEALS and decisions >= MAX_REDEALS
