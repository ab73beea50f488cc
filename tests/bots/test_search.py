"""The search bot's budget arithmetic and its race between candidates."""

from __future__ import annotations

from tests.bots.conftest import setup
from tuolaji.bots import make_bot
from tuolaji.bots.arena import bid_round
from tuolaji.bots.heuristic import choose_play, legal_follows, ranked_follows, ranked_leads
from tuolaji.bots.search import END, ENDGAME_CARDS, SearchBot, playouts_for
from tuolaji.bots.situation import Situation
from tuolaji.game import CloseReview, Play, Round
from tuolaji.rules import is_legal_follow


def test_playouts_grow_with_the_budget() -> None:
    assert playouts_for(1, 54) == 2
    assert playouts_for(300, 54) > playouts_for(100, 54) > playouts_for(10, 54)
    assert playouts_for(100, 6, END) > playouts_for(100, 54)


def advanced(seed: int, moves: int) -> Round:
    """A hand bid by the heuristic and played on by it for ``moves`` moves."""
    round_ = Round(setup(seed, "nanning", dealer=seed % 4, level=1 + seed % 12))
    assert bid_round(round_)
    for _ in range(moves):
        seat = round_.to_move
        assert seat is not None
        view = round_.view(seat)
        round_.apply(Play(seat, choose_play(Situation.from_view(view))))
        if round_.to_move is None:
            round_.apply(CloseReview())
    return round_


def test_search_moves_are_candidates_and_deterministic() -> None:
    """Leads and follows, early and in the end game (play-outs to the end): the move is one of the
    heuristic's candidates, legal, and the same for the same seed."""
    for seed, moves in ((1, 0), (2, 3), (3, 90), (4, 118)):
        round_ = advanced(seed, moves)
        seat = round_.to_move
        assert seat is not None
        view = round_.view(seat)
        sit = Situation.from_view(view)
        bot = SearchBot(seed, budget_ms=15)
        cards = bot.play(view)
        assert cards == SearchBot(seed, budget_ms=15).play(view)
        if sit.trick:
            assert cards in legal_follows(sit, ranked_follows(sit), bot.candidates)
            assert is_legal_follow(sit.hand(), sit.trick[0][1], cards, sit.table.trump, sit.preset)
        else:
            assert cards in ranked_leads(sit)[: bot.candidates]
    assert sit.hand_size <= ENDGAME_CARDS


def test_no_deal_in_budget_keeps_the_heuristic_choice() -> None:
    round_ = advanced(5, 0)
    seat = round_.to_move
    assert seat is not None
    view = round_.view(seat)
    sit = Situation.from_view(view)
    bot = make_bot("search", 0, budget_ms=0.001, candidates=3)
    action = bot.choose(view)
    assert isinstance(action, Play) and action.cards == choose_play(sit)
