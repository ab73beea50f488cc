"""Slow bots think in worker processes, so no table's task ever waits for them.

The ``search`` bot spends hundreds of milliseconds on a move; run in the server's event loop it
would stall every table. A :class:`ThinkingPool` (made by the app's lifespan and closed with it)
hands such moves to a ``ProcessPoolExecutor`` started with ``spawn`` (the workers get a fresh
interpreter, not a copy of the server's loop, sockets and database connections) and gives the
answer back as an asyncio future. :func:`think` is what a worker runs.

The workers are shared fairly between tables: moves wait in one slot per table, and a free worker
takes the next table's move in turn (round robin), so six busy tables cannot push a seventh to the
back of a queue; each worker has one move handed to it ahead, so it never idles between two. A
table has at most one move waiting: a new question from it replaces its unanswered one (the
position it was asked for has passed). When more tables want moves than there are workers, every
move is given a shorter budget: ``workers / tables`` of what a move with the full budget takes
(measured, as a search often stops before its budget), down to ``min_budget_ms``. A table then
keeps its pace with a weaker move rather than stalling.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import multiprocessing
import signal
import time
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Final

from tuolaji.bots import make_bot
from tuolaji.game.actions import Action
from tuolaji.game.view import SeatView
from tuolaji.server.metrics import NO_METRICS, Metrics

SLOW_BOTS = frozenset({"search"})
"""Bots (canonical names) whose moves are thought out in the pool rather than in a table's task."""
MIN_BUDGET_SHARE: Final = 0.05
"""Under saturation a move's budget shrinks to no less than this share of the full budget ..."""
MIN_BUDGET_MS: Final = 20.0
"""... and never below this many milliseconds."""
STATS_KEPT: Final = 1000
FULL_MOVE_WEIGHT: Final = 0.2
"""Weight of the newest measured full-budget move in ``ThinkingPool.full_move_ms``."""
AHEAD_PER_WORKER: Final = 1
"""Moves handed to the executor beyond one per worker, so a worker that answers finds its next
move already there instead of idling through the round trip to the event loop and back."""


def think(name: str, seed: int, options: dict[str, float], view: SeatView) -> Action | None:
    """Worker side: what bot ``name`` (seeded ``seed``, built with ``options``) does in ``view``.

    A fresh bot per call plays the same move a kept one would (each decision is seeded by the bot's
    seed and the view, ``Bot.rng_for``), and building one costs nothing next to its thinking.
    """
    return make_bot(name, seed, **options).choose(view)


def think_timed(name: str, seed: int, options: dict[str, float], view: SeatView) -> tuple[Action | None, float]:
    """Worker side: :func:`think`, and the milliseconds of CPU it took (not of waiting for a core)."""
    started = time.process_time()
    action = think(name, seed, options, view)
    return action, (time.process_time() - started) * 1000


def _start_worker() -> None:
    """Worker initialiser: ignore Ctrl-C (it reaches the whole process group, but the server stops
    its workers itself), and import the search bot now rather than during the first move."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    importlib.import_module("tuolaji.bots.players.search")


@dataclass
class _Move:
    """A move asked for and not yet handed to a worker."""

    name: str
    seed: int
    view: SeatView
    answer: asyncio.Future[Action | None]
    asked: float
    """When it was asked for (``time.perf_counter``)."""
    full: bool = False
    """Whether it was given the full budget (its time then tells what a full move costs)."""


@dataclass
class _Stats:
    """What the pool did (for benchmarks and logs): moves asked, replaced before a worker took
    them, given a shortened budget, and the budgets of the last ``STATS_KEPT`` moves."""

    asked: int = 0
    replaced: int = 0
    shortened: int = 0
    budgets_ms: deque[float] = field(default_factory=lambda: deque(maxlen=STATS_KEPT))


class ThinkingPool:
    """Worker processes for slow bots' moves, shared fairly between tables.

    ``workers`` processes at most, started on the first move that needs one. ``search_budget_ms``
    is the search bot's full time budget per move; under saturation a move gets less, but never
    under ``min_budget_ms`` (default: a twentieth of the full budget, at least 20 ms). A pool whose
    worker died (``BrokenProcessPool``) is replaced on the next move; the move that was being
    thought fails, and the table plays another. ``metrics``: where each move's wait for a worker and
    its CPU time are counted.
    """

    def __init__(
        self,
        workers: int,
        search_budget_ms: float,
        min_budget_ms: float | None = None,
        metrics: Metrics = NO_METRICS,
    ) -> None:
        self.workers = workers
        self.metrics = metrics
        self.search_budget_ms = search_budget_ms
        self.min_budget_ms = min(
            search_budget_ms,
            min_budget_ms if min_budget_ms is not None else max(MIN_BUDGET_MS, MIN_BUDGET_SHARE * search_budget_ms),
        )
        self.stats = _Stats()
        self.full_move_ms = search_budget_ms
        """What a move with the full budget takes (a moving average of the measured ones)."""
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False
        self._waiting: dict[str, _Move] = {}
        """table → its move waiting for a worker (at most one per table)."""
        self._turns: deque[str] = deque()
        """Tables with a waiting move, in the order they get a worker."""
        self._running: dict[Future[tuple[Action | None, float]], str] = {}
        """Moves being thought (the worker's future → its table)."""

    def ask(self, name: str, seed: int, view: SeatView, *, table: str | None = None) -> asyncio.Future[Action | None]:
        """Start thinking for bot ``name`` in ``view`` at ``table`` (the table's id); its action (or
        the failure) comes as a future of the running loop. A move the same table asked for earlier
        that no worker has taken yet is dropped (its future is cancelled). Without ``table`` the move
        is a table of its own (nothing is dropped). Raises ``RuntimeError`` once the pool is closed."""
        if self._closed:
            raise RuntimeError("the thinking pool is closed (the server is stopping)")
        answer: asyncio.Future[Action | None] = asyncio.get_running_loop().create_future()
        self.stats.asked += 1
        if table is None:
            table = f"\x00{self.stats.asked}"
        earlier = self._waiting.pop(table, None)
        if earlier is not None:
            earlier.answer.cancel()
            self.stats.replaced += 1
        else:
            self._turns.append(table)
        self._waiting[table] = _Move(name, seed, view, answer, time.perf_counter())
        self._dispatch()
        return answer

    def load(self) -> tuple[int, int]:
        """Moves waiting for a worker, and moves being thought (or handed to a worker ahead)."""
        return len(self._waiting), len(self._running)

    def budget_ms(self) -> float:
        """The budget the next move handed to a worker gets: the full one unless more tables are
        thinking or waiting than there are workers, then ``workers / tables`` of it."""
        tables = len(set(self._running.values()) | set(self._waiting))
        if tables <= self.workers:
            return self.search_budget_ms
        full = min(self.search_budget_ms, self.full_move_ms)
        return min(self.search_budget_ms, max(self.min_budget_ms, full * self.workers / tables))

    def _dispatch(self) -> None:
        """Hand waiting moves to free workers, one table after the other."""
        while self._turns and len(self._running) < self.workers * (1 + AHEAD_PER_WORKER) and not self._closed:
            budget = self.budget_ms()
            table = self._turns.popleft()
            move = self._waiting.pop(table)
            if move.answer.done():  # the asker gave up on it
                continue
            options: dict[str, float] = {}
            if move.name in SLOW_BOTS:
                options["budget_ms"] = budget
                move.full = budget >= self.search_budget_ms
                self.stats.budgets_ms.append(budget)
                self.stats.shortened += budget < self.search_budget_ms
            try:
                work = self._submit(move, options)
            except Exception as error:
                move.answer.set_exception(error)
                continue
            self._running[work] = table
            self.metrics.thinking_wait.observe(time.perf_counter() - move.asked)
            work.add_done_callback(functools.partial(self._answered, move))

    def _answered(self, move: _Move, done: Future[tuple[Action | None, float]]) -> None:
        """A worker's answer came (in the executor's thread): pass it to the loop's thread."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            move.answer.get_loop().call_soon_threadsafe(self._finished, done, move)

    def _submit(self, move: _Move, options: dict[str, float]) -> Future[tuple[Action | None, float]]:
        try:
            return self._pool().submit(think_timed, move.name, move.seed, options, move.view)
        except BrokenProcessPool:
            self._discard()
            return self._pool().submit(think_timed, move.name, move.seed, options, move.view)

    def _finished(self, done: Future[tuple[Action | None, float]], move: _Move) -> None:
        """A worker answered (in the loop's thread): pass the answer on, hand out the next move."""
        self._running.pop(done, None)
        if done.cancelled():
            move.answer.cancel()
        elif (error := done.exception()) is not None:
            if not move.answer.done():
                move.answer.set_exception(error)
        else:
            action, took_ms = done.result()
            self.metrics.thinking_cpu.observe(took_ms / 1000)
            if move.full:
                self.full_move_ms += FULL_MOVE_WEIGHT * (took_ms - self.full_move_ms)
            if not move.answer.done():
                move.answer.set_result(action)
        self._dispatch()

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker
            )
        return self._executor

    def _discard(self) -> None:
        """Forget a broken executor (its processes are already gone)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    async def close(self) -> None:
        """Cancel the moves still waiting for a worker, let the running ones end, stop the workers."""
        self._closed = True
        for move in self._waiting.values():
            move.answer.cancel()
        self._waiting.clear()
        self._turns.clear()
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
