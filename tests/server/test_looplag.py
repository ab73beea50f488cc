"""The event loop's lag, watched (tuolaji.server.looplag): a loop held up shows in the histogram and
in a warning that says how much of it was the garbage collector."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Any

from prometheus_client import CollectorRegistry

from tuolaji.server.heap import GcPauses
from tuolaji.server.looplag import LONG_LAG_SECONDS, LoopLag
from tuolaji.server.metrics import Metrics


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.fields: list[dict[str, Any]] = []
        self.heard = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage() == "event loop: held up":
            self.fields.append(vars(record))
            self.heard.set()


def _observed(registry: CollectorRegistry | None, suffix: str) -> float:
    assert registry is not None
    value = registry.get_sample_value("tuolaji_event_loop_lag_seconds" + suffix)
    return value or 0.0


def _hold_the_loop(seconds: float) -> None:
    """Keep the event loop from running anything for ``seconds``, a full collection of garbage cycles
    among them (as a long step and a pass of the collector do)."""
    began = time.monotonic()
    for _ in range(200_000):
        cycle: list[Any] = []
        cycle.append(cycle)
    gc.collect()
    while time.monotonic() - began < seconds:
        pass


async def test_a_held_up_loop_is_measured_and_logged_with_the_collectors_share() -> None:
    metrics = Metrics()
    pauses = GcPauses(metrics)
    pauses.install()
    lag = LoopLag(metrics, pauses, interval=0.05)
    warnings = _Warnings()
    logging.getLogger("tuolaji.server.looplag").addHandler(warnings)
    try:
        lag.start()
        while _observed(metrics.registry, "_count") < 3:  # a few ticks of a free loop: no warning
            await asyncio.sleep(0.05)
        assert warnings.fields == [] and lag.longest < LONG_LAG_SECONDS
        held = LONG_LAG_SECONDS + 0.3
        _hold_the_loop(held)
        await warnings.heard.wait()
        (warning,) = warnings.fields
        assert held - 0.05 - 0.01 <= warning["seconds"] == round(lag.longest, 3)
        assert 0 < warning["gc_seconds"] < held
        assert _observed(metrics.registry, '_bucket{le="0.5"}') < _observed(metrics.registry, "_count")
    finally:
        lag.stop()
        pauses.remove()
        logging.getLogger("tuolaji.server.looplag").removeHandler(warnings)
