"""Rate limits and back-offs with a fake clock (``now`` passed in): the pure parts of issue 15's defences."""

from __future__ import annotations

import pytest

from tuolaji.server.limits import (
    Backoff,
    EscapeCooldown,
    KeyedLimiter,
    LoginBackoff,
)


def test_address_limiter_refills_and_forgets_idle_addresses() -> None:
    limiter: KeyedLimiter[str] = KeyedLimiter.per_minute(60, burst=2)
    limiter.max_tracked = 2
    assert limiter.check("a", 0.0) is None and limiter.check("a", 0.0) is None
    assert limiter.check("a", 0.0) == 1
    assert limiter.check("b", 0.0) is None  # addresses have their own buckets
    assert limiter.check("a", 1.0) is None
    assert limiter.check("c", 61.0) is None  # a and b refilled: forgotten to make room
    assert limiter.tracked() == 1
    assert all(KeyedLimiter[str].per_minute(0).check("a", 0.0) is None for _ in range(100))


def test_keyed_limiter_memory_is_bounded_even_when_every_key_is_in_use() -> None:
    limiter: KeyedLimiter[str] = KeyedLimiter.per_hour(1)
    limiter.max_tracked = 100
    for number in range(1000):
        assert limiter.check(f"10.0.{number // 256}.{number % 256}", float(number)) is None
        assert limiter.tracked() <= 100
    # The newest keys are the ones kept: a recent address is still refused.
    assert limiter.check("10.0.3.231", 1000.0) is not None


def test_guests_per_hour() -> None:
    limiter: KeyedLimiter[str] = KeyedLimiter.per_hour(3)
    assert [limiter.check("1.2.3.4", 0.0) for _ in range(4)] == [None, None, None, 1200]
    assert limiter.check("1.2.3.5", 0.0) is None
    assert limiter.check("1.2.3.4", 1199.0) == 1
    assert limiter.check("1.2.3.4", 1200.0) is None


def test_join_limiter_per_account() -> None:
    joins: KeyedLimiter[int] = KeyedLimiter.per_minute(6, burst=2)
    assert joins.check(7, 0.0) is None and joins.check(7, 0.0) is None
    assert joins.check(7, 0.0) == 10
    assert joins.check(8, 0.0) is None
    assert joins.check(7, 10.0) is None


def test_backoff_doubles_after_the_grace_up_to_the_longest_and_is_forgotten() -> None:
    backoff: Backoff[str] = Backoff(grace=2, base=10.0, longest=45.0, forget_after=100.0)
    assert [backoff.delay(n) for n in range(1, 7)] == [0.0, 0.0, 10.0, 20.0, 40.0, 45.0]
    assert backoff.strike("k", 0.0) == 0.0 and backoff.strike("k", 1.0) == 0.0
    assert backoff.wait("k", 1.0) == 0.0
    assert backoff.strike("k", 2.0) == 10.0
    assert backoff.wait("k", 7.0) == 5.0
    assert backoff.strike("k", 8.0) == 20.0
    assert backoff.wait("k", 28.0) == 0.0 and backoff.strikes("k", 28.0) == 4
    assert backoff.strikes("k", 108.0) == 0  # quiet for forget_after: a fresh start
    assert backoff.strike("k", 108.0) == 0.0
    backoff.clear("k")
    assert backoff.strikes("k", 108.0) == 0
    with pytest.raises(ValueError, match="grace"):
        Backoff(grace=-1, base=1.0, longest=1.0, forget_after=1.0)


def test_backoff_memory_is_bounded() -> None:
    backoff: Backoff[int] = Backoff(grace=0, base=1000.0, longest=1000.0, forget_after=5000.0, max_tracked=50)
    for key in range(500):
        backoff.strike(key, float(key))
        assert backoff.tracked() <= 50
    assert backoff.wait(499, 499.0) == 1000.0


def test_login_backoff_locks_a_nickname_after_four_failures() -> None:
    """30 s after the 5th failure in a row, doubling to at most 15 min; a success clears it."""
    logins = LoginBackoff()
    waits = [logins.strike("allce", 0.0) for _ in range(10)]
    assert waits == [0.0, 0.0, 0.0, 0.0, 30.0, 60.0, 120.0, 240.0, 480.0, 900.0]
    assert logins.wait("allce", 899.0) == 1.0
    assert logins.wait("bob", 0.0) == 0.0
    logins.clear("allce")
    assert logins.wait("allce", 1.0) == 0.0


def test_escape_cooldown_doubles_with_each_escape_and_clears_after_a_quiet_day() -> None:
    """The API the lobby calls: ``strike`` on an escape, ``wait`` before letting the account sit."""
    cooldown = EscapeCooldown()
    assert cooldown.wait(1, 0.0) == 0.0
    assert cooldown.strike(1, 0.0) == 60.0
    assert cooldown.wait(1, 59.0) == 1.0 and cooldown.wait(1, 60.0) == 0.0
    assert cooldown.strike(1, 100.0) == 120.0
    assert cooldown.strike(1, 300.0) == 240.0
    assert cooldown.wait(2, 300.0) == 0.0  # per account
    for n in range(10):
        cooldown.strike(1, 1000.0 + n)
    assert cooldown.wait(1, 1009.0) == 3600.0
    assert cooldown.strike(1, 1009.0 + 86400.0) == 60.0
