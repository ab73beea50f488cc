"""A research environment: one hand of four-deck Tractor as a PettingZoo AEC environment.

``TractorEnv`` (:mod:`tuolaji.env.tractor_env`) with agents ``seat_0`` … ``seat_3``; the observation
encoding is :mod:`tuolaji.env.observation`, the action encoding :mod:`tuolaji.env.actions`, the bid
window's turns :mod:`tuolaji.env.bidding`; :class:`RandomAgent` and :class:`BotAgent` play through
it. Needs the ``env`` extra (``pip install -e ".[env]"``: pettingzoo, gymnasium, numpy).
"""

from tuolaji.env.actions import (
    BID_BASE,
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
from tuolaji.env.agents import BotAgent, RandomAgent
from tuolaji.env.observation import HIGH, LAYOUT, OBS_SIZE, encode_view
from tuolaji.env.tractor_env import AGENTS, MAX_REDEALS, EpisodeOptions, Observation, TractorEnv, env

__all__ = [
    "AGENTS",
    "BID_BASE",
    "HIGH",
    "LAYOUT",
    "MAX_PLAYS",
    "MAX_REDEALS",
    "NUM_ACTIONS",
    "OBS_SIZE",
    "PASS",
    "PLAY_BASE",
    "BotAgent",
    "EpisodeOptions",
    "Observation",
    "PlayOffer",
    "RandomAgent",
    "TractorEnv",
    "action_index",
    "bid_index",
    "encode_view",
    "engine_action",
    "env",
    "play_candidates",
]
