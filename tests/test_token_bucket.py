"""The token bucket every rate limit is built from, with a fake clock."""

from __future__ import annotations

import math

from tuolaji.token_bucket import TokenBucket


def test_token_bucket_refills_at_its_rate_up_to_its_burst() -> None:
    bucket = TokenBucket(rate=2.0, burst=3.0, now=100.0)
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.wait() == 0.5 and bucket.retry_after() == 1
    assert bucket.take(100.5) and not bucket.take(100.5)
    assert not bucket.full(101.0) and bucket.full(102.0)
    assert bucket.take(99.0)  # a clock that goes back refills nothing and breaks nothing


def test_token_bucket_in_milliseconds_and_one_that_never_refills() -> None:
    bucket = TokenBucket(rate=1 / 3000, burst=3.0, now=0)
    assert all(bucket.take(0) for _ in range(3)) and not bucket.take(1000)
    assert math.isclose(bucket.wait(), 2000.0)
    assert bucket.take(3000) and not bucket.take(3000)
    stuck = TokenBucket(rate=0.0, burst=1.0, now=0.0)
    assert stuck.take(0.0) and not stuck.take(1e9)
    assert stuck.wait() == math.inf and stuck.retry_after() == 60
