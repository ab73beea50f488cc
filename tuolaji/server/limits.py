"""Rate limits and back-offs, as plain classes with the time passed in (``now``, monotonic seconds).

Each limit is built on :class:`~tuolaji.token_bucket.TokenBucket` or is a back-off:

- :class:`RateLimiter`: one token bucket read from the clock (a WebSocket connection's messages).
- :class:`KeyedLimiter`: one token bucket per key with bounded memory: account requests and guest
  creation per client address (:class:`AddressLimiter`, ``guest_limiter``), joins per account
  (:class:`JoinLimiter`).
- :class:`Backoff`: a wait that doubles with each strike and is forgotten after a quiet time:
  escapes per account (:class:`EscapeCooldown`), early leaves of quick-matched tables
  (:class:`MatchLeaves`), and failed log-ins per nickname
  (:class:`LoginBackoff`, two of them: existing accounts and unknown nicknames, with attempts in
  flight reserved before any password is checked).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

from tuolaji.token_bucket import TokenBucket

RATE_PER_SECOND: Final = 100.0
RATE_BURST: Final = 200.0
ACCOUNT_RATE_PER_MINUTE: Final = 30.0
"""Account requests (``/api/guest``, ``/api/register``, ``/api/login``) per minute per client address."""
ACCOUNT_BURST: Final = 30.0
GUESTS_PER_HOUR: Final = 20.0
"""Guest accounts a client address may create per hour (in bursts of as many)."""
JOINS_PER_MINUTE: Final = 20.0
"""Seats an account may take per minute (``join``, ``create_table``, ``play_now``), in bursts of 10."""
JOIN_BURST: Final = 10.0
MAX_TRACKED: Final = 10_000
"""Keys a limiter remembers before it forgets the ones with nothing to remember."""

K = TypeVar("K", bound=Hashable)


class RateLimiter:
    """A token bucket read from the monotonic clock: ``rate`` messages per second, bursts of ``burst``."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.bucket = TokenBucket(rate, burst, time.monotonic())
        self.dropped = 0

    def allow(self) -> bool:
        """Take one token; False (and count a drop) if the bucket is empty."""
        if self.bucket.take(time.monotonic()):
            return True
        self.dropped += 1
        return False


class KeyedLimiter(Generic[K]):
    """One token bucket per key: ``rate`` per second, bursts of ``burst``; ``rate`` 0 turns it off.

    At most ``max_tracked`` keys are remembered: past that, the keys whose buckets are full are
    forgotten, and if all are in use the oldest ones are.
    """

    def __init__(self, rate: float, burst: float, max_tracked: int = MAX_TRACKED) -> None:
        self.rate = rate
        self.burst = burst
        self.max_tracked = max_tracked
        self._buckets: dict[K, TokenBucket] = {}

    @classmethod
    def per_minute(cls, count: float, burst: float | None = None) -> KeyedLimiter[K]:
        """``count`` per minute per key, in bursts of ``burst`` (default ``count``)."""
        return cls(count / 60.0, count if burst is None else burst)

    @classmethod
    def per_hour(cls, count: float, burst: float | None = None) -> KeyedLimiter[K]:
        """``count`` per hour per key, in bursts of ``burst`` (default ``count``)."""
        return cls(count / 3600.0, count if burst is None else burst)

    def check(self, key: K, now: float) -> int | None:
        """Take one for ``key`` at ``now``: None if allowed, else the whole seconds to wait."""
        if self.rate <= 0:
            return None
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_tracked:
                self._forget(now)
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, now)
        return None if bucket.take(now) else bucket.retry_after()

    def tracked(self) -> int:
        """How many keys are remembered."""
        return len(self._buckets)

    def _forget(self, now: float) -> None:
        kept = {key: bucket for key, bucket in self._buckets.items() if not bucket.full(now)}
        if len(kept) >= self.max_tracked:
            kept = dict(sorted(kept.items(), key=lambda item: item[1].stamp)[len(kept) - self.max_tracked // 2 :])
        self._buckets = kept


@dataclass
class _Strikes:
    count: int
    last: float
    until: float


class Backoff(Generic[K]):
    """Strikes per key, each making the key wait: none for the first ``grace`` strikes, then
    ``base`` seconds, doubling with every further strike up to ``longest``. A key with no strike for
    ``forget_after`` seconds starts again from nothing. At most ``max_tracked`` keys are
    remembered (the ones with nothing to wait for are forgotten first, then the oldest)."""

    def __init__(
        self, grace: int, base: float, longest: float, forget_after: float, max_tracked: int = MAX_TRACKED
    ) -> None:
        if grace < 0 or base <= 0 or longest < base or forget_after <= 0:
            raise ValueError(
                f"Backoff: need grace ≥ 0 and 0 < base ≤ longest, forget_after > 0 (got {grace}, "
                f"{base}, {longest}, {forget_after})"
            )
        self.grace = grace
        self.base = base
        self.longest = longest
        self.forget_after = forget_after
        self.max_tracked = max_tracked
        self._strikes: dict[K, _Strikes] = {}

    def delay(self, strikes: int) -> float:
        """The wait after the ``strikes``-th strike in a row."""
        if strikes <= self.grace:
            return 0.0
        return min(self.longest, self.base * 2.0 ** min(64, strikes - self.grace - 1))

    def _current(self, key: K, now: float) -> _Strikes | None:
        entry = self._strikes.get(key)
        if entry is not None and now - entry.last >= self.forget_after:
            del self._strikes[key]
            return None
        return entry

    def wait(self, key: K, now: float) -> float:
        """Seconds ``key`` must still wait at ``now`` (0.0: none)."""
        entry = self._current(key, now)
        return 0.0 if entry is None else max(0.0, entry.until - now)

    def strike(self, key: K, now: float) -> float:
        """Count a strike for ``key`` at ``now``; the wait it now has (0.0 within the grace)."""
        entry = self._current(key, now)
        if entry is None:
            if len(self._strikes) >= self.max_tracked:
                self._forget(now)
            entry = self._strikes[key] = _Strikes(0, now, now)
        entry.count += 1
        entry.last = now
        entry.until = max(entry.until, now + self.delay(entry.count))
        return entry.until - now

    def clear(self, key: K) -> None:
        """Forget ``key``'s strikes (a successful log-in)."""
        self._strikes.pop(key, None)

    def strikes(self, key: K, now: float) -> int:
        """Strikes ``key`` has at ``now``."""
        entry = self._current(key, now)
        return 0 if entry is None else entry.count

    def tracked(self) -> int:
        """How many keys are remembered."""
        return len(self._strikes)

    def _forget(self, now: float) -> None:
        kept = {key: entry for key, entry in self._strikes.items() if entry.until > now}
        if len(kept) >= self.max_tracked:
            kept = dict(sorted(kept.items(), key=lambda item: item[1].last)[len(kept) - self.max_tracked // 2 :])
        self._strikes = kept


LOGIN_GRACE: Final = 4
LOGIN_BASE_SECONDS: Final = 30.0
LOGIN_LONGEST_SECONDS: Final = 900.0
LOGIN_FORGET_SECONDS: Final = 3600.0
LOGIN_ACCOUNTS_TRACKED: Final = 100_000
"""Accounts whose failed log-ins are remembered (only failures at existing accounts fill this)."""
LOGIN_UNKNOWN_TRACKED: Final = MAX_TRACKED
"""Nicknames of no account whose failed log-ins are remembered (a separate table: these cannot
push an account's lock-out out of memory)."""
LOGIN_PENDING_RETRY: Final = 1.0
"""Seconds to wait when a log-in is refused because others at the same nickname are being checked."""


class LoginBackoff:
    """Failed log-ins per nickname key (``tuolaji.store.accounts.login_key``): 4 free failures, then
    a lock-out of 30 s doubling with every failure up to 15 min; a success or an hour without a
    failure clears it. The address limit still applies, so one address cannot lock many accounts fast.

    Each log-in attempt is first reserved (:meth:`reserve`), before any password is checked, and ends with
    :meth:`failed`, :meth:`succeeded` or :meth:`release`. Attempts in flight count as failures to
    come: a reservation is refused while, were they all to fail, the key would be locked, so
    concurrent guesses get no more checks than guesses one after another. Failures at existing
    accounts and at nicknames of no account are kept in two tables of bounded size: a flood of
    unknown nicknames can only push other unknown nicknames out of memory, never an account.
    """

    def __init__(
        self,
        grace: int = LOGIN_GRACE,
        base: float = LOGIN_BASE_SECONDS,
        longest: float = LOGIN_LONGEST_SECONDS,
        forget_after: float = LOGIN_FORGET_SECONDS,
        *,
        accounts_tracked: int = LOGIN_ACCOUNTS_TRACKED,
        unknown_tracked: int = LOGIN_UNKNOWN_TRACKED,
    ) -> None:
        self.accounts: Backoff[str] = Backoff(grace, base, longest, forget_after, accounts_tracked)
        self.unknown: Backoff[str] = Backoff(grace, base, longest, forget_after, unknown_tracked)
        self._pending: dict[str, int] = {}
        """Attempts reserved and not yet ended, per key (only keys with one or more)."""

    def wait(self, key: str, now: float) -> float:
        """Seconds ``key`` must still wait at ``now`` (0.0: none), ignoring attempts in flight."""
        return max(self.accounts.wait(key, now), self.unknown.wait(key, now))

    def strikes(self, key: str, now: float) -> int:
        """Failures counted for ``key`` at ``now``."""
        return self.accounts.strikes(key, now) + self.unknown.strikes(key, now)

    def pending(self, key: str) -> int:
        """Attempts at ``key`` reserved and not yet ended."""
        return self._pending.get(key, 0)

    def reserve(self, key: str, now: float) -> float:
        """Reserve a log-in attempt at ``key``: 0.0 if reserved (end it with :meth:`failed`,
        :meth:`succeeded` or :meth:`release`), else the seconds to wait (nothing is reserved).

        Runs without awaiting, so on the event loop the check and the reservation are one step."""
        wait = self.wait(key, now)
        if wait > 0:
            return wait
        pending = self.pending(key)
        if pending and self.accounts.delay(self.strikes(key, now) + pending) > 0:
            return LOGIN_PENDING_RETRY
        self._pending[key] = pending + 1
        return 0.0

    def release(self, key: str) -> None:
        """End a reserved attempt that counts neither way (the check could not run)."""
        left = self._pending.get(key, 0) - 1
        if left > 0:
            self._pending[key] = left
        else:
            self._pending.pop(key, None)

    def failed(self, key: str, now: float, *, account: bool) -> float:
        """End a reserved attempt that failed; ``account``: the nickname names an account. The
        wait ``key`` now has."""
        self.release(key)
        return (self.accounts if account else self.unknown).strike(key, now)

    def succeeded(self, key: str) -> None:
        """End a reserved attempt that logged in: the key's failures are forgotten."""
        self.release(key)
        self.clear(key)

    def strike(self, key: str, now: float) -> float:
        """Count a failure at an account's ``key`` outside a reservation; the wait it now has."""
        return self.accounts.strike(key, now)

    def clear(self, key: str) -> None:
        """Forget ``key``'s failures (a successful log-in)."""
        self.accounts.clear(key)
        self.unknown.clear(key)

    def tracked(self) -> tuple[int, int]:
        """Keys remembered: of accounts, of unknown nicknames."""
        return self.accounts.tracked(), self.unknown.tracked()


ESCAPE_BASE_SECONDS: Final = 60.0
ESCAPE_LONGEST_SECONDS: Final = 3600.0
ESCAPE_FORGET_SECONDS: Final = 86400.0


class EscapeCooldown(Backoff[int]):
    """Escapes per account id (R43): after an escape the account may not sit at a table for 60 s,
    doubling with each escape up to an hour; a day without an escape clears it.

    The lobby calls ``strike(account_id, now)`` when an account escapes (the wait it returns can be
    told to the player) and ``wait(account_id, now)`` before letting it sit; above 0 the seat is
    refused with the seconds left.
    """

    def __init__(
        self,
        base: float = ESCAPE_BASE_SECONDS,
        longest: float = ESCAPE_LONGEST_SECONDS,
        forget_after: float = ESCAPE_FORGET_SECONDS,
    ) -> None:
        super().__init__(0, base, longest, forget_after)


MATCH_LEAVE_GRACE: Final = 1
MATCH_LEAVE_BASE_SECONDS: Final = 30.0
MATCH_LEAVE_LONGEST_SECONDS: Final = 600.0
MATCH_LEAVE_FORGET_SECONDS: Final = 86400.0


class MatchLeaves(Backoff[int]):
    """Early leaves of quick-matched tables per account id (``tuolaji.matching.decide.EARLY_LEAVE_MS``):
    the first is free; after each further one the account's next quick match waits 30 s longer before
    it may be matched, doubling up to 10 minutes; a day without one clears it."""

    def __init__(
        self,
        grace: int = MATCH_LEAVE_GRACE,
        base: float = MATCH_LEAVE_BASE_SECONDS,
        longest: float = MATCH_LEAVE_LONGEST_SECONDS,
        forget_after: float = MATCH_LEAVE_FORGET_SECONDS,
    ) -> None:
        super().__init__(grace, base, longest, forget_after)


TABLES_PER_MINUTE: Final = 30.0
"""Tables (``create_table``, ``play_now``) one client address may open per minute, in bursts of as many."""


class TableLimiter(KeyedLimiter[str]):
    """New tables per client address (``tables_per_minute``, beside each account's seats per
    minute): many guests of one address cannot open tables faster than one household would."""

    def __init__(self, per_minute: float = TABLES_PER_MINUTE) -> None:
        super().__init__(per_minute / 60.0, per_minute)
