"""The action encoding (bids, plays, the cut at MAX_PLAYS) and the observation's blocks."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tuolaji.bots.knowledge.cardinfo import card_table
from tuolaji.bots.knowledge.shapes import all_leads, counts_of, lead_shapes
from tuolaji.env import (
    BID_BASE,
    LAYOUT,
    PASS,
    PLAY_BASE,
    PlayOffer,
    TractorEnv,
    action_index,
    bid_index,
    encode_view,
    engine_action,
    play_candidates,
)
from tuolaji.game import Bid, Play

from .play import agents_of, play_hand


def test_bids_and_passes_map_both_ways() -> None:
    offer = PlayOffer(((5,), (7, 7)), 2)
    assert engine_action(PASS, 2, offer) is None and action_index(None, offer) == PASS
    indices = {bid_index(suit, count) for suit in range(4) for count in range(1, 5)}
    assert indices == set(range(BID_BASE, PLAY_BASE))
    assert engine_action(bid_index(1, 3), 2, offer) == Bid(2, 1, 3)
    assert action_index(Bid(2, 1, 3), offer) == bid_index(1, 3)
    assert engine_action(PLAY_BASE + 1, 0, offer) == Play(0, (7, 7))
    assert action_index(Play(0, (7, 7)), offer) == PLAY_BASE + 1
    with pytest.raises(ValueError, match="plays offered"):
        engine_action(PLAY_BASE + 2, 0, offer)
    with pytest.raises(ValueError, match="not among"):
        action_index(Play(0, (9,)), offer)
    with pytest.raises(ValueError, match="R16"):
        bid_index(0, 5)


def _first_lead_view(seed: int) -> TractorEnv:
    """An env stopped at the first lead of a hand played by the heuristic."""
    tractor = TractorEnv()
    tractor.reset(seed=seed)
    agents = agents_of("heuristic")
    while tractor.round.phase.value != "playing":
        agent = tractor.agent_selection
        tractor.step(agents[agent].act(tractor, agent, tractor.observe(agent)))
    return tractor


def test_a_lead_offers_every_valid_lead_once_in_display_order() -> None:
    tractor = _first_lead_view(5)
    view = tractor.view(tractor.agent_selection)
    assert view.trump_suit is not None
    table = card_table(view.level, view.trump_suit)
    offer = play_candidates(view)
    assert len(offer.plays) == offer.available == len(set(offer.plays))
    assert set(offer.plays) == {tuple(sorted(shape.cards())) for shape in all_leads(counts_of(view.hand), table)}
    keys = [(len(play), sorted(table.trump.sort_keys[card] for card in play)) for play in offer.plays]
    assert keys == sorted(keys)
    assert any(len(play) >= 4 for play in offer.plays)


def test_past_max_plays_the_hint_and_the_heuristics_leads_are_kept() -> None:
    tractor = _first_lead_view(6)
    view = tractor.view(tractor.agent_selection)
    assert view.trump_suit is not None
    whole = play_candidates(view)
    table = card_table(view.level, view.trump_suit)
    preferred = {tuple(sorted(shape.cards())) for shape in lead_shapes(counts_of(view.hand), table)}
    limit = len(preferred) + 2
    assert whole.available > limit
    cut = play_candidates(view, limit)
    assert cut.cut and len(cut.plays) == limit and cut.available == whole.available
    assert preferred | {tuple(sorted(view.hint))} <= set(cut.plays)
    assert list(cut.plays) == [play for play in whole.plays if play in set(cut.plays)]


def test_a_follow_offers_legal_plays_with_the_hint() -> None:
    tractor = TractorEnv()
    checked = 0

    def check(env: TractorEnv, agent: str, observation: object, action: int) -> None:
        nonlocal checked
        view = env.view(agent)
        if view.phase == "playing" and view.trick:
            offer = env.offer()
            assert tuple(sorted(view.hint)) in offer.plays
            for play in offer.plays:
                assert env.round.check_play(view.seat or 0, play) is None
            checked += 1

    play_hand(tractor, agents_of("random"), seed=7, check=check)
    assert checked > 100


def test_the_observation_blocks_hold_the_view() -> None:
    tractor = _first_lead_view(8)
    agent = tractor.agent_selection
    seat = int(agent[-1])
    view = tractor.view(agent)
    obs = tractor.observe(agent)["observation"]
    assert np.array_equal(obs[LAYOUT["hand"]], counts_of(view.hand))
    assert obs[LAYOUT["to_act"]].tolist() == [1, 0, 0, 0]
    assert obs[LAYOUT["phase"]].tolist() == [0, 1, 0]
    assert obs[LAYOUT["level"]].argmax() == view.level - 1
    assert view.trump_suit is not None and obs[LAYOUT["trump"]].argmax() == view.trump_suit
    assert view.bid is not None and obs[LAYOUT["standing_count"]][0] == view.bid.count
    assert obs[LAYOUT["standing_seat"]].argmax() == (view.bid.seat - seat) % 4
    assert obs[LAYOUT["hand_sizes"]].tolist() == [1.0] * 4
    play = tractor.offer().plays[0]
    tractor.step(PLAY_BASE)
    nxt = tractor.agent_selection
    after = tractor.observe(nxt)["observation"]
    trick = after[LAYOUT["trick"]].reshape(4, 54)
    assert trick[(seat - int(nxt[-1])) % 4].tolist() == counts_of(play)
    assert after[LAYOUT["leader"]].argmax() == (seat - int(nxt[-1])) % 4


def test_a_spectators_view_cannot_be_encoded() -> None:
    tractor = _first_lead_view(9)
    view = replace(tractor.view("seat_0"), seat=None)
    with pytest.raises(ValueError, match="spectator"):
        encode_view(view, None)
