"""``LoginBackoff`` (issue 46): attempts reserved before the password check, and accounts' lock-outs
kept apart from unknown nicknames, so neither concurrency nor a flood of made-up nicknames gets an
attacker more guesses."""

from __future__ import annotations

from tuolaji.server.limits import LOGIN_PENDING_RETRY, LoginBackoff


def test_reservations_in_flight_count_as_failures_to_come() -> None:
    """Five may be in flight at a fresh key (were all to fail, the fifth failure locks); a sixth waits."""
    logins = LoginBackoff()
    assert [logins.reserve("allce", 0.0) for _ in range(5)] == [0.0] * 5
    assert logins.reserve("allce", 0.0) == LOGIN_PENDING_RETRY
    assert logins.pending("allce") == 5
    waits = [logins.failed("allce", 1.0, account=True) for _ in range(5)]
    assert waits == [0.0, 0.0, 0.0, 0.0, 30.0]
    assert logins.pending("allce") == 0
    assert logins.reserve("allce", 2.0) == 29.0
    # Once the lock has passed, one attempt at a time: each may be the one that locks again.
    assert logins.reserve("allce", 31.0) == 0.0
    assert logins.reserve("allce", 31.0) == LOGIN_PENDING_RETRY
    logins.release("allce")  # the check could not run (busy): nothing counted
    assert logins.strikes("allce", 31.0) == 5
    assert logins.reserve("allce", 31.0) == 0.0
    logins.succeeded("allce")
    assert logins.strikes("allce", 31.0) == 0 and logins.pending("allce") == 0
    assert logins.reserve("allce", 31.0) == 0.0


def test_unknown_nicknames_cannot_push_an_account_out_of_memory() -> None:
    """A locked account stays locked through 10,080 failures at unknown nicknames (the issue's
    flood), with both tables bounded."""
    logins = LoginBackoff(accounts_tracked=100, unknown_tracked=1000)
    for moment in (0.0, 0.0, 0.0, 0.0, 0.0, 30.0):
        assert logins.reserve("victim", moment) == 0.0
        logins.failed("victim", moment, account=True)
    for number in range(10_080):
        key = f"nobody{number}"
        assert logins.reserve(key, 31.0 + number / 1000) == 0.0
        logins.failed(key, 31.0 + number / 1000, account=False)
        assert logins.tracked()[1] <= 1000
    assert logins.tracked()[0] == 1
    assert logins.wait("victim", 42.0) == 48.0
    assert logins.strikes("victim", 42.0) == 6


def test_account_memory_is_bounded_too() -> None:
    logins = LoginBackoff(accounts_tracked=50)
    for number in range(500):
        logins.failed(f"account{number}", float(number), account=True)
        assert logins.tracked()[0] <= 50
