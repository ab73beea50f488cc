"""The learned belief (:mod:`tuolaji.bots.montecarlo.belief`): the shipped model loads, its
probabilities are well formed and follow the knowledge that is certain, deals drawn with its weights
keep to the voids, caps, known cards and sizes (and lean where the weights say), the deal chain
started from one too, and the search with it is deterministic; the learned cut value with only the strength weight is
the sloped share."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from tests.bots.test_caps import breaks
from tests.bots.test_deal_chain import late_positions
from tests.bots.test_search import advanced
from tuolaji.bots.knowledge.sampling import sample_hands
from tuolaji.bots.knowledge.shapes import counts_of
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.knowledge.tracking import trick_plays
from tuolaji.bots.montecarlo.belief import FEATURES, MODEL_PATH, BeliefModel, belief_input, belief_weights
from tuolaji.bots.montecarlo.deal_chain import DealChain, PastMoves
from tuolaji.bots.montecarlo.value import learned_share, points_left_share
from tuolaji.bots.players.search import SearchBot, SearchConfig
from tuolaji.bots.playouts.rollout import Playout
from tuolaji.game.view import SeatView

MODEL = BeliefModel.load()


def positions() -> list[tuple[SeatView, list[list[int]]]]:
    """Leads and follows from the middle of a hand to its end, with the real hands."""
    return late_positions("nanning", seed=5, every=4, most_cards=40) + late_positions(
        "guigang", seed=6, every=5, most_cards=30, in_trick=True
    )


def test_the_shipped_model_is_small_and_fitted_for_these_features(tmp_path: Path) -> None:
    assert MODEL_PATH.stat().st_size < 100_000
    assert MODEL.w1.shape == (len(FEATURES), MODEL.b1.shape[0]) and MODEL.w2.shape == MODEL.b1.shape
    other = tmp_path / "other.npz"
    np.savez(other, features=np.array(FEATURES[:-1]), mean=MODEL.mean, std=MODEL.std, w1=MODEL.w1, b1=MODEL.b1)
    with pytest.raises(ValueError, match=r"other\.npz: fitted for features"):
        BeliefModel.load(other)


def test_probabilities_are_well_formed_and_keep_to_what_is_certain() -> None:
    checked = 0
    for view, real in positions():
        sit = Situation.from_view(view)
        inp = belief_input(sit, trick_plays(view.tricks, view.trick), view.bids, view.hand_sizes)
        p = MODEL.probabilities(inp)
        assert p.shape == (54, 3) and np.all(p >= 0) and np.all(np.isfinite(p))
        sums = p.sum(axis=1)
        placeable = (inp.free > 0) & np.isfinite(inp.log_room).any(axis=1)
        assert np.allclose(sums[placeable], 1.0, atol=1e-5) and np.all(sums[~placeable] == 0)
        for i, seat in enumerate(inp.seats):
            for kind in range(54):
                free_held = real[seat][kind] - sit.know.known[seat][kind]
                if p[kind, i] == 0 and inp.free[kind]:
                    assert free_held == 0, (seat, kind)
                    checked += 1
                if sit.table.cls[kind] in sit.know.voids[seat]:
                    assert p[kind, i] == 0
    assert checked > 50


def test_weighted_deals_keep_to_the_view_whatever_the_weights() -> None:
    rng = random.Random(7)
    for view, real in positions():
        sit = Situation.from_view(view)
        plays = trick_plays(view.tricks, view.trick)
        learned = belief_weights(sit, plays, view.bids, view.hand_sizes, 2.0, MODEL)
        wild = [[10 ** rng.uniform(-6, 6) for _ in range(54)] for _ in range(4)]
        for weights in (learned, wild):
            deal = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng, weights)
            assert deal[sit.seat] == sit.counts
            assert [sum(hand) for hand in deal] == [sum(hand) for hand in real]
            assert [sum(hand[k] for hand in deal) for k in range(54)] == [
                sum(hand[k] for hand in real) for k in range(54)
            ]
            for seat in range(4):
                if seat != sit.seat:
                    assert breaks(sit.table, sit.know, seat, deal[seat]) == []
                    assert all(deal[seat][k] >= count for k, count in enumerate(sit.know.known[seat]))


def test_weighted_deals_lean_where_the_weights_say() -> None:
    """One seat strongly preferred for a kind gets more of its copies than without weights."""
    round_ = advanced(3, 0)
    seat = round_.to_move
    assert seat is not None
    view = round_.view(seat)
    sit = Situation.from_view(view)
    favoured, kind = (seat + 1) % 4, next(k for k in range(54) if sit.know.unseen[k] >= 3)
    weights = [[1.0] * 54 for _ in range(4)]
    weights[favoured][kind] = 50.0
    counts = {}
    for name, chosen in (("uniform", None), ("weighted", weights)):
        rng = random.Random(1)
        deals = [sample_hands(sit.table, sit.know, seat, sit.counts, view.hand_sizes, rng, chosen) for _ in range(200)]
        counts[name] = sum(deal[favoured][kind] for deal in deals)
    assert counts["weighted"] > 1.5 * counts["uniform"]


def test_the_chain_from_a_weighted_deal_keeps_to_the_view_and_never_fails_more_moves() -> None:
    rng = random.Random(2)
    for view, real in late_positions("nanning", seed=4, every=6):
        sit = Situation.from_view(view)
        plays = trick_plays(view.tricks, view.trick)
        weights = belief_weights(sit, plays, view.bids, view.hand_sizes, 2.0, MODEL)
        start = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng, weights)
        chain = DealChain(PastMoves(sit, plays, 12), start, rng, 0.5)
        for _ in range(30):
            was = chain.disagreements
            chain.step()
            assert chain.disagreements <= was
        deal = chain.deal()
        assert [sum(hand) for hand in deal] == [sum(hand) for hand in real] and deal[sit.seat] == sit.counts
        assert all(breaks(sit.table, sit.know, s, deal[s]) == [] for s in range(4) if s != sit.seat)


def test_the_search_with_the_belief_is_deterministic() -> None:
    for seed, moves in ((2, 3), (3, 90), (4, 118)):
        round_ = advanced(seed, moves)
        seat = round_.to_move
        assert seat is not None
        view = round_.view(seat)
        config = SearchConfig(budget_ms=20, belief=2.0)
        assert SearchBot(5, config).play(view) == SearchBot(5, config).play(view)


def test_the_learned_cut_value_with_the_strength_weight_alone_is_the_sloped_share() -> None:
    for seed in (6, 8):
        round_ = advanced(seed, 0)
        seat = round_.to_move
        assert seat is not None
        sit = Situation.from_view(round_.view(seat))
        playout = Playout.from_situation(sit, [counts_of(round_.view(s).hand) for s in range(4)])
        playout.run(None, 6)
        for team in (0, 1):
            weights = (2.4, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
            learned = learned_share(playout.table, playout.hands, team, playout.leader, weights)
            assert learned == points_left_share(playout.table, playout.hands, team, 2.4)
