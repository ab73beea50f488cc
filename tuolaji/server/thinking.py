"""Slow bots think in worker processes, so no table's task ever waits for them.

The ``search`` bot spends hundreds of milliseconds on a move; run in the server's event loop it
would stall every table. A :class:`ThinkingPool` (made by the app's lifespan and closed with it)
hands such moves to a ``ProcessPoolExecutor`` started with ``spawn`` (the workers get a fresh
interpreter, not a copy of the server's loop, sockets and database connections) and gives the
answer back as an asyncio future. :func:`think` is what a worker runs.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from tuolaji.bots import make_bot
from tuolaji.game.actions import Action
from tuolaji.game.view import SeatView

SLOW_BOTS = frozenset({"search"})
"""Bots (canonical names) whose moves are thought out in the pool rather than in a table's task."""


def think(name: str, seed: int, options: dict[str, float], view: SeatView) -> Action | None:
    """Worker side: what bot ``name`` (seeded ``seed``, built with ``options``) does in ``view``.

    A fresh bot per call plays the same move a kept one would (each decision is seeded by the bot's
    seed and the view, ``Bot.rng_for``), and building one costs nothing next to its thinking.
    """
    return make_bot(name, seed, **options).choose(view)


def _ignore_interrupts() -> None:
    """Worker initialiser: Ctrl-C reaches the whole process group, but the server stops its workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ThinkingPool:
    """Worker processes for slow bots' moves.

    ``workers`` processes at most, started on the first move that needs one. ``search_budget_ms``
    is the search bot's time budget per move. A pool whose worker died (``BrokenProcessPool``) is
    replaced on the next move; the move that was being thought fails, and the table plays another.
    """

    def __init__(self, workers: int, search_budget_ms: float) -> None:
        self.workers = workers
        self.bot_options: dict[str, dict[str, float]] = {"search": {"budget_ms": search_budget_ms}}
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False

    def ask(self, name: str, seed: int, view: SeatView) -> asyncio.Future[Action | None]:
        """Start thinking for bot ``name`` in ``view``; its action (or the failure) comes as a future
        of the running loop. Raises ``RuntimeError`` once the pool is closed."""
        options = self.bot_options.get(name, {})
        try:
            future = self._pool().submit(think, name, seed, options, view)
        except BrokenProcessPool:
            self._discard()
            future = self._pool().submit(think, name, seed, options, view)
        return asyncio.wrap_future(future)

    def _pool(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the thinking pool is closed (the server is stopping)")
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_ignore_interrupts
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
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
