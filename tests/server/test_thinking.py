"""Slow bots' moves: the worker pool; an auto-play proposal is only played when it is legal."""

from __future__ import annotations

import asyncio

import pytest

from tests.game.helpers import hands_with, playing_round
from tuolaji.bots import canonical_name, make_bot
from tuolaji.cards import KINDS
from tuolaji.game.actions import Action, Play
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView
from tuolaji.room.table import legal_play
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


def positions(count: int) -> list[tuple[Round, SeatView]]:
    """``count`` different positions (rounds of different deals, the leader to move)."""
    found = []
    for seed in range(count):
        round_ = playing_round(hands_with({0: "TH"}, seed=seed))
        seat = round_.to_move
        assert seat is not None
        found.append((round_, round_.view(seat)))
    return found


async def test_a_table_has_one_move_waiting_and_tables_take_turns() -> None:
    """Real workers: one worker and a move handed to it ahead. A table asking five times in a row
    keeps only its newest move waiting once two are with the worker, so the other table's move is
    the fourth thought (a shared FIFO would make it the sixth)."""
    (_, view_a), (round_b, view_b) = positions(2)
    pool = ThinkingPool(1, search_budget_ms=20)
    order: list[str] = []

    def ask(table: str, seed: int, view: SeatView) -> asyncio.Future[Action | None]:
        future = pool.ask("search", seed, view, table=table)
        future.add_done_callback(lambda done: order.append(f"{table}{seed}") if not done.cancelled() else None)
        return future

    try:
        first, second, *replaced, last = [ask("A", seed, view_a) for seed in range(1, 6)]
        other = ask("B", 9, view_b)
        answers = await asyncio.gather(first, second, last, other)
        assert all(future.cancelled() for future in replaced)
        assert order == ["A1", "A2", "A5", "B9"]
        assert pool.stats.replaced == 2 and pool.stats.asked == 6
        seat_b = round_b.to_move
        assert seat_b is not None and isinstance(answers[3], Play)
        assert round_b.check_play(seat_b, answers[3].cards) is None
    finally:
        await pool.close()


async def test_saturation_shortens_the_budget_and_the_worker_uses_it() -> None:
    """One worker, four tables at once: a move's budget is ``workers / tables`` of the full one
    (never below the floor), counting the tables thinking or waiting when a worker takes it; the
    answer is the search's at that budget."""
    chosen = positions(4)
    pool = ThinkingPool(1, search_budget_ms=240, min_budget_ms=100)
    try:
        futures = [pool.ask("search", 7, view, table=f"T{index}") for index, (_, view) in enumerate(chosen)]
        answers = await asyncio.gather(*futures)
        first, *others = pool.stats.budgets_ms
        # The first has the table alone; the second shares the worker with it (half of a full move);
        # the third and fourth come when three and two tables want moves (the floor, at most half).
        assert first == 240 and others[0] == 120 and all(100 <= budget <= 120 for budget in others)
        assert pool.stats.shortened == 3 and 0 < pool.full_move_ms != 240
        for (_, view), answer, budget in zip(chosen, answers, pool.stats.budgets_ms, strict=True):
            assert answer == make_bot("search", 7, budget_ms=budget).choose(view)
    finally:
        await pool.close()


async def test_closing_cancels_the_moves_still_waiting() -> None:
    (_, view), *_ = positions(1)
    pool = ThinkingPool(1, search_budget_ms=20)
    handed = [pool.ask("search", 1, view, table=table) for table in ("A", "B")]
    waiting = pool.ask("search", 1, view, table="C")
    await pool.close()
    assert waiting.cancelled()
    assert all(future.cancelled() or isinstance(future.result(), Play) for future in handed)
