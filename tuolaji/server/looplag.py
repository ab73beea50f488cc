"""How late the node's event loop runs, watched: a timer every :data:`INTERVAL_SECONDS` notes how
much later than due it ran.

Everything of a node — every table's step, every socket, the log's commits — runs on one event
loop, so a loop held up (by a pass of the garbage collector over the whole heap, or by one long
piece of work) holds up every move at once, and any timeout measured meanwhile reads long. The lag
goes into ``tuolaji_event_loop_lag_seconds``; a lag over :data:`LONG_LAG_SECONDS` is logged as
``event loop: held up`` with the collector's share of it, so a warning about a slow write or a
late move next to it can be told apart from a slow database.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from tuolaji.server.heap import GcPauses
from tuolaji.server.metrics import Metrics

INTERVAL_SECONDS: Final = 0.25
LONG_LAG_SECONDS: Final = 0.5
log = logging.getLogger(__name__)


class LoopLag:
    """Samples the running loop's lag into ``metrics`` from :meth:`start` to :meth:`stop`; ``pauses``
    (installed) gives the collector's time, for the warning."""

    def __init__(self, metrics: Metrics, pauses: GcPauses, interval: float = INTERVAL_SECONDS) -> None:
        self.metrics = metrics
        self.pauses = pauses
        self.interval = interval
        self.longest = 0.0
        """The longest lag seen (seconds)."""
        self._handle: asyncio.TimerHandle | None = None
        self._due = 0.0
        self._collected = 0.0

    def start(self) -> None:
        """Begin sampling on the running loop."""
        loop = asyncio.get_running_loop()
        self._collected = self.pauses.total
        self._due = loop.time() + self.interval
        self._handle = loop.call_at(self._due, self._tick, loop)

    def stop(self) -> None:
        """Stop sampling."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _tick(self, loop: asyncio.AbstractEventLoop) -> None:
        now = loop.time()
        lag = max(0.0, now - self._due)
        self.metrics.loop_lag.observe(lag)
        self.longest = max(self.longest, lag)
        collected, self._collected = self.pauses.total - self._collected, self.pauses.total
        if lag > LONG_LAG_SECONDS:
            fields = {"seconds": round(lag, 3), "gc_seconds": round(collected, 3)}
            log.warning("event loop: held up", extra=fields)
        self._due = now + self.interval
        self._handle = loop.call_at(self._due, self._tick, loop)
