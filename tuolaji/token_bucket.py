"""A token bucket with the time passed in: the one rate limit every other limit is built from.

The server's limits (:mod:`tuolaji.server.limits`) count in seconds of the monotonic clock; the
table's quick-phrase limit (:mod:`tuolaji.room.phrases`) in the table's milliseconds. The bucket
does not care which unit ``now`` is in, as long as ``rate`` is per the same unit.
"""

from __future__ import annotations

import math


class TokenBucket:
    """``rate`` tokens per unit of time up to ``burst``, full at ``now``."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = now

    def _refill(self, now: float) -> None:
        # A clock that goes back refills nothing.
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = max(self.stamp, now)

    def take(self, now: float) -> bool:
        """Take one token at ``now``; False if there is none."""
        self._refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Time until the next token (0 if one is there); ``math.inf`` if the bucket never refills."""
        if self.tokens >= 1.0:
            return 0.0
        return (1.0 - self.tokens) / self.rate if self.rate > 0 else math.inf

    def retry_after(self) -> int:
        """Whole units of time until the next token, at least 1 (60 if the bucket never refills)."""
        wait = self.wait()
        return 60 if math.isinf(wait) else max(1, math.ceil(wait))

    def full(self, now: float) -> bool:
        """Whether the bucket has refilled completely by ``now`` (nothing to remember about it)."""
        self._refill(now)
        return self.tokens >= self.burst
