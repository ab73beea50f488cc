"""The search bot's budget arithmetic, its valuation of play-outs and its race between candidates."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.bots.conftest import setup
from tuolaji.bots import make_bot
from tuolaji.bots.knowledge.shapes import counts_of
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.montecarlo.config import END, SearchConfig
from tuolaji.bots.montecarlo.race import pick
from tuolaji.bots.montecarlo.value import LEVEL_STEPS, expected_levels, points_left_share, signed_levels
from tuolaji.bots.players.search import SearchBot
from tuolaji.bots.playouts.rollout import Playout
from tuolaji.bots.policy.bidding import HEURISTIC_BIDDERS
from tuolaji.bots.policy.card_play import choose_play, legal_follows, ranked_follows, ranked_leads
from tuolaji.game import CloseReview, Play, Round
from tuolaji.game.driver import deal_and_bid
from tuolaji.rules import hand_result, is_legal_follow


def playouts(budget_ms: float, hand_size: int, horizon: int = 6) -> int:
    return SearchConfig(budget_ms=budget_ms).playouts_for(hand_size, horizon)


def test_playouts_grow_with_the_budget() -> None:
    assert playouts(1, 54) == 2
    assert playouts(300, 54) > playouts(100, 54) > playouts(10, 54)
    assert playouts(100, 6, END) > playouts(100, 54)


def test_config_is_checked_and_make_bot_builds_it() -> None:
    with pytest.raises(ValueError, match="must be positive"):
        SearchConfig(budget_ms=0)
    with pytest.raises(ValueError, match="partner_moves=0 must be at least 1"):
        SearchConfig.from_settings(["partner_moves=0"])
    with pytest.raises(ValueError, match="no option"):
        make_bot("search", 1, read_plays=True)
    assert SearchConfig.from_settings(["ms_per_move=0.02,0.001", "gap=9"]) == SearchConfig(
        ms_per_move=(0.02, 0.001), gap=9
    )
    with pytest.raises(ValueError, match="ms_per_move is 2 numbers"):
        SearchConfig.from_settings(["ms_per_move=0.02"])
    with pytest.raises(ValueError, match="no number or switch 'speed'"):
        SearchConfig.from_settings(["speed=2"])
    bot = make_bot("hard", 3, budget_ms=20, candidates=2)
    assert isinstance(bot, SearchBot) and bot.config == SearchConfig(budget_ms=20, candidates=2)


def advanced(seed: int, moves: int) -> Round:
    """A hand bid by the heuristic and played on by it for ``moves`` moves."""
    round_ = Round(setup(seed, "nanning", dealer=seed % 4, level=1 + seed % 12))
    assert deal_and_bid(round_, HEURISTIC_BIDDERS)
    for _ in range(moves):
        seat = round_.to_move
        assert seat is not None
        view = round_.view(seat)
        round_.apply(Play(seat, choose_play(Situation.from_view(view))))
        if round_.to_move is None:
            round_.apply(CloseReview())
    return round_


def test_points_left_are_shared_by_strength_as_steeply_as_configured() -> None:
    """A play-out cut short: slope 1 shares the points left by the strength share (the two teams'
    shares add up to the points left), slope 0 halves them, a steeper slope moves the stronger
    team's share away from half and, very steep, gives it every point."""
    round_ = advanced(6, 0)
    seat = round_.to_move
    assert seat is not None
    sit = Situation.from_view(round_.view(seat))
    playout = Playout.from_situation(sit, [counts_of(round_.view(s).hand) for s in range(4)])
    playout.run(None, 6)
    assert not playout.finished
    shares = {
        slope: [points_left_share(playout.table, playout.hands, team, slope) for team in (0, 1)]
        for slope in (0.0, 1.0, 2.4, 1e6)
    }
    left = shares[1.0][0][1]
    assert left > 0 and all(total == left for pair in shares.values() for _, total in pair)
    assert abs(shares[1.0][0][0] + shares[1.0][1][0] - left) <= 1
    assert shares[0.0][0][0] == shares[0.0][1][0] == round(left / 2)
    strong = 0 if shares[1.0][0][0] > shares[1.0][1][0] else 1
    taken = [shares[slope][strong][0] for slope in (0.0, 1.0, 2.4, 1e6)]
    assert taken[0] < taken[1] < taken[2] < taken[3] == left
    assert shares[1e6][1 - strong][0] == 0


def test_search_moves_are_candidates_and_deterministic() -> None:
    """Leads and follows, early and in the end game (play-outs to the end): the move is one of the
    heuristic's candidates, legal, and the same for the same seed."""
    for seed, moves in ((1, 0), (2, 3), (3, 90), (4, 118)):
        round_ = advanced(seed, moves)
        seat = round_.to_move
        assert seat is not None
        view = round_.view(seat)
        sit = Situation.from_view(view)
        config = SearchConfig(budget_ms=15)
        bot = SearchBot(seed, config)
        cards = bot.play(view)
        assert cards == SearchBot(seed, config).play(view)
        if sit.trick:
            assert cards in legal_follows(sit, ranked_follows(sit), config.candidates)
            assert is_legal_follow(sit.hand(), sit.trick[0][1], cards, sit.table.trump, sit.preset)
        else:
            assert cards in ranked_leads(sit)[: config.candidates]
    assert sit.hand_size <= config.endgame_cards


def test_no_deal_in_budget_keeps_the_heuristic_choice() -> None:
    round_ = advanced(5, 0)
    seat = round_.to_move
    assert seat is not None
    view = round_.view(seat)
    sit = Situation.from_view(view)
    bot = make_bot("search", 0, budget_ms=0.001, candidates=3)
    action = bot.choose(view)
    assert isinstance(action, Play) and action.cards == choose_play(sit)


def test_level_steps_follow_r36() -> None:
    """R36: the attackers' level change steps up at 5, 80, 160, 240, 320 and 400 points."""
    assert LEVEL_STEPS == (5, 80, 160, 240, 320, 400)
    assert [signed_levels(score) for score in (0, 4, 5, 79, 80, 159, 160, 239, 240, 320, 399, 400)] == [
        -3,
        -3,
        -2,
        -2,
        -1,
        -1,
        0,
        0,
        1,
        2,
        2,
        3,
    ]


@given(st.integers(0, 400))
def test_exact_levels_without_spread(score: int) -> None:
    winner, levels = hand_result(score)
    assert expected_levels(score, 0.0) == (levels if winner == "attackers" else -levels)


@given(st.floats(0, 400), st.floats(0, 400), st.floats(1, 200))
def test_expected_levels_rise_with_the_score_and_stay_in_range(a: float, b: float, spread: float) -> None:
    low, high = sorted((a, b))
    assert -3 <= expected_levels(low, spread) <= expected_levels(high, spread) <= 3


def test_a_small_spread_is_close_to_the_step() -> None:
    assert expected_levels(120, 1.0) == pytest.approx(-1, abs=1e-6)
    assert expected_levels(160, 20.0) == pytest.approx(-0.5, abs=0.05)


def test_pick_switches_only_for_a_sure_gain() -> None:
    """An alternative replaces the heuristic's choice (index 0) only when its paired gain reaches
    the margin and is clear of the noise; otherwise the heuristic's choice stands."""
    base = [0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    steady = [value + 0.5 for value in base]
    wild = [value + swing for value, swing in zip(base, (3.0, -2.0, 3.0, -2.0, 3.0, -2.0), strict=True)]
    config = SearchConfig()
    small = [value + config.switch_margin / 2 for value in base]
    assert pick([base, steady], config) == 1
    assert pick([base, wild, steady], config) == 2
    assert pick([base, wild], config) == 0
    assert pick([base, small], config) == 0
    assert pick([base, steady[:1]], config) == 0
    assert pick([base, small], SearchConfig(switch_margin=0.01)) == 1
    assert pick([base, []], config) == 0
