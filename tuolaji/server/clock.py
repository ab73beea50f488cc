"""Clocks of a table (R44): one pending deadline at a time, delivered into the table's queue.

The game never reads a clock; a :class:`TableClock` turns a deadline into a message for the table's
actor, which then applies the matching system action (``DealCards``, ``CloseBidding``,
``CloseReview``, ``Timeout``). Re-arming or stopping makes a pending expiry stale, and stale expiries
are recognised by their generation number.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Expired:
    """The clock armed as generation ``generation`` ran out."""

    generation: int


@dataclass(frozen=True)
class Deadline:
    """What the clock runs for: ``kind`` (deal, bid, turn, review, next_hand), the seat (turn only), when."""

    kind: str
    seat: int | None
    at: float
    """``time.monotonic()`` of the expiry."""

    def remaining(self) -> float:
        """Seconds left (never negative)."""
        return max(0.0, self.at - time.monotonic())

    def to_json(self) -> dict[str, Any]:
        """The protocol's ``Clock`` object."""
        return {"kind": self.kind, "seat": self.seat, "remaining_ms": round(self.remaining() * 1000)}


class TableClock:
    """A single re-armable timer that posts :class:`Expired` through ``deliver``."""

    def __init__(self, deliver: Callable[[Expired], None]) -> None:
        self._deliver = deliver
        self._handle: asyncio.TimerHandle | None = None
        self.generation = 0
        self.deadline: Deadline | None = None

    def arm(self, kind: str, seat: int | None, seconds: float) -> None:
        """Run for ``seconds`` (replacing any pending deadline)."""
        self.stop()
        self.deadline = Deadline(kind, seat, time.monotonic() + seconds)
        generation = self.generation
        self._handle = asyncio.get_running_loop().call_later(max(0.0, seconds), self._deliver, Expired(generation))

    def stop(self) -> None:
        """Cancel the pending deadline, if any."""
        self.generation += 1
        self.deadline = None
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def is_current(self, expired: Expired) -> bool:
        """Whether ``expired`` belongs to the deadline that is still armed."""
        return expired.generation == self.generation and self.deadline is not None

    def running(self, kind: str, seat: int | None = None) -> bool:
        """Whether a deadline of this kind (and seat) is armed."""
        return self.deadline is not None and self.deadline.kind == kind and self.deadline.seat == seat
