"""Slow bots' moves: the worker pool; an auto-play proposal is only played when it is legal."""

from __future__ import annotations

import pytest

from tests.game.helpers import hands_with, playing_round
from tuolaji.bots import canonical_name, make_bot
from tuolaji.cards import KINDS
from tuolaji.game.actions import Play
from tuolaji.game.round import Round
from tuolaji.game.table import legal_play
from tuolaji.server.autoplay import make_autoplayer
from tuolaji.server.thinking import ThinkingPool


def a_round() -> Round:
    return playing_round(hands_with({}, seed=3))


def play_hint(round_: Round) -> None:
    seat = round_.to_move
    assert seat is not None
    round_.apply(Play(seat, tuple(round_.hint(seat))))


def test_an_illegal_answer_becomes_the_hint() -> None:
    round_ = a_round()
    seat = round_.to_move
    assert seat is not None
    other = (seat + 1) % 4
    hint = Play(seat, tuple(round_.hint(seat)))
    assert legal_play(round_, seat, hint) == hint
    assert legal_play(round_, seat, None) == hint
    assert legal_play(round_, seat, Play(other, tuple(round_.hint(seat)))) == hint
    missing = next(kind for kind in range(KINDS) if kind not in round_.hand(seat))
    assert legal_play(round_, seat, Play(seat, (missing,))) == hint


def test_bot_names_and_levels() -> None:
    assert [canonical_name(name) for name in ("easy", "normal", "hard")] == ["random", "heuristic", "search"]
    assert canonical_name("search") == "search"
    with pytest.raises(ValueError, match="'deep-blue'"):
        canonical_name("deep-blue")
    # A search seat bids and stands in with the heuristic in the table's task.
    assert type(make_autoplayer("search", 1)) is type(make_bot("heuristic", 1))
    assert type(make_autoplayer(None, 1)) is type(make_bot("heuristic", 1))
    assert type(make_autoplayer("random", 1)) is type(make_bot("random", 1))


async def test_the_pool_thinks_like_the_bot_and_reports_failures() -> None:
    round_ = a_round()
    seat = round_.to_move
    assert seat is not None
    view = round_.view(seat)
    pool = ThinkingPool(1, search_budget_ms=20)
    try:
        answer = await pool.ask("search", 11, view)
        assert answer == make_bot("search", 11, budget_ms=20).choose(view)
        assert isinstance(answer, Play) and round_.check_play(seat, answer.cards) is None
        with pytest.raises(ValueError, match="'nope'"):
            await pool.ask("nope", 11, view)
    finally:
        await pool.close()
    with pytest.raises(RuntimeError, match="closed"):
        pool.ask("search", 11, view)
