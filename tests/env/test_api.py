"""PettingZoo's own API test, and the spaces the environment declares."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import cast

import pytest
from gymnasium import spaces
from pettingzoo.test.api_test import api_test as untyped_api_test

from tuolaji.env import HIGH, LAYOUT, MAX_PLAYS, NUM_ACTIONS, OBS_SIZE, TractorEnv, env

api_test = cast(Callable[..., None], untyped_api_test)
"""PettingZoo's API test (its sources carry no annotations)."""

ADVISORY = (
    # Dict observations with an action mask are what PettingZoo's own classic games (chess, go)
    # return; the API test only knows those games by name, and says so for any other.
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    # Finished agents are observed once more before they step with None: nothing is allowed then.
    "Action mask numpy array is all zeros (no legal actions).",
)


def test_the_pettingzoo_api_test_passes() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(), num_cycles=400)
    assert sorted({str(w.message) for w in caught} - set(ADVISORY)) == []


def test_the_api_test_passes_with_the_cards_of_each_play() -> None:
    with warnings.catch_warnings():
        for message in ADVISORY:
            warnings.filterwarnings("ignore", message=message.replace("(", r"\(").replace(")", r"\)"))
        api_test(TractorEnv(action_cards=True), num_cycles=400)


def test_spaces_are_fixed_and_shared() -> None:
    tractor = TractorEnv()
    observation = tractor.observation_space("seat_0")
    assert isinstance(observation, spaces.Dict)
    assert observation["observation"].shape == (OBS_SIZE,)
    assert observation["action_mask"].shape == (NUM_ACTIONS,)
    assert tractor.action_space("seat_3") == spaces.Discrete(NUM_ACTIONS)
    assert all(tractor.observation_space(agent) is observation for agent in tractor.possible_agents)
    assert NUM_ACTIONS == 1 + 16 + MAX_PLAYS
    assert sum(block.stop - block.start for block in LAYOUT.values()) == OBS_SIZE == len(HIGH)


def test_an_action_outside_the_mask_is_refused() -> None:
    tractor = env()
    tractor.reset(seed=3)
    mask = tractor.observe(tractor.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not allowed"):
        tractor.step(int(mask.argmin()))
    with pytest.raises(ValueError, match="expected an action index"):
        tractor.step(None)


def test_render_shows_the_public_state_and_the_acting_hand() -> None:
    tractor = TractorEnv(render_mode="ansi")
    tractor.reset(seed=5)
    text = tractor.render()
    assert text is not None and "phase bidding" in text and f"{tractor.agent_selection} to act, holding" in text
