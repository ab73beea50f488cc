"""The cyclic garbage collector of a node process: its pauses timed, and the start-up's objects kept
out of its way.

Every collection stops the whole node (every table, every socket) until it ends, so its pauses are
a move's latency tail (docs/BENCHMARKS.md, Server). :class:`GcPauses` times each one into
``tuolaji_gc_pause_seconds{generation}``. :func:`freeze_start_up` moves what the start-up built —
modules, the database's metadata, every table restored from its log — into the permanent
generation, which no later collection walks: the oldest generation's passes, which walk the whole
heap, then cost what the node built since, not what it started with.
"""

from __future__ import annotations

import gc
import time
from typing import Any

from tuolaji.server.metrics import Metrics


class GcPauses:
    """Times every collection of the garbage collector into ``metrics`` while installed."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self._started = 0.0
        self.total = 0.0
        """Seconds of collection timed so far."""

    def install(self) -> None:
        """Start timing."""
        if self._on_gc not in gc.callbacks:
            gc.callbacks.append(self._on_gc)

    def remove(self) -> None:
        """Stop timing."""
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            paused = time.perf_counter() - self._started
            self.total += paused
            self.metrics.gc_paused(str(info["generation"]), paused)


def freeze_start_up() -> None:
    """Collect once, then keep every object alive now out of all later collections (``gc.freeze``).
    For a node process once its start-up is done; objects frozen are never freed, so nothing that is
    meant to go (a restored table that closes) costs more than its memory."""
    gc.collect()
    gc.freeze()
