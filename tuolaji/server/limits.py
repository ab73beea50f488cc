"""Token-bucket rate limits: per WebSocket connection (messages) and per client address (account requests)."""

from __future__ import annotations

import math
import time

RATE_PER_SECOND = 100.0
RATE_BURST = 200.0
ACCOUNT_RATE_PER_MINUTE = 30.0
"""Account requests (``/api/guest``, ``/api/register``, ``/api/login``) per minute per client address."""
ACCOUNT_BURST = 30.0
MAX_TRACKED = 10_000
"""Client addresses kept before idle (full) buckets are forgotten."""


class RateLimiter:
    """A token bucket: ``rate`` messages per second, bursts of ``burst``."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()
        self.dropped = 0

    def _refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def allow(self) -> bool:
        """Take one token; False (and count a drop) if the bucket is empty."""
        self._refill(time.monotonic())
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        return False

    def retry_after(self) -> int:
        """Whole seconds until the next token (at least 1)."""
        return max(1, math.ceil((1.0 - self.tokens) / self.rate)) if self.rate > 0 else 60

    def full(self, now: float) -> bool:
        """Whether the bucket has refilled completely by ``now`` (nothing to remember about it)."""
        self._refill(now)
        return self.tokens >= self.burst


class AddressLimiter:
    """One :class:`RateLimiter` per client address; ``per_minute`` 0 turns the limit off."""

    def __init__(self, per_minute: float = ACCOUNT_RATE_PER_MINUTE, burst: float = ACCOUNT_BURST) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self._buckets: dict[str, RateLimiter] = {}

    def check(self, address: str) -> int | None:
        """Take one request for ``address``: None if allowed, else the seconds to wait before retrying."""
        if self.rate <= 0:
            return None
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= MAX_TRACKED:
                self._forget_idle()
            bucket = self._buckets[address] = RateLimiter(self.rate, self.burst)
        return None if bucket.allow() else bucket.retry_after()

    def _forget_idle(self) -> None:
        now = time.monotonic()
        self._buckets = {address: bucket for address, bucket in self._buckets.items() if not bucket.full(now)}
