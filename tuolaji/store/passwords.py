"""Which passwords are accepted, and argon2 password hashing off the event loop, with a bounded queue.

:func:`check_password` refuses, each with a reason (:attr:`PasswordError.reason`): a password that
is not 6–128 characters of valid Unicode, holds control or format characters (NULs included), is
only spaces, has fewer than :data:`MIN_DISTINCT` different characters (``aaaaaa``, ``ababab``), is
the nickname itself, or is one of the :data:`COMMON_COUNT` most common passwords of the ``zxcvbn``
package's list (ranked from leaked password sets; compared case-insensitively).

An argon2 hash or verification takes tens of milliseconds of CPU and 64 MiB of memory (argon2-cffi's
default profile). Run on the event loop it stalls every table; run in an unbounded pool, a burst of
logins takes every core (and memory) from the server. :class:`PasswordHashing` runs them in a few
threads of its own, started at a lower CPU priority (``nice``) where the system allows it, so the
event loop keeps its core, and admits at most ``threads + queue`` operations at once: one more is
refused at once with :class:`HashingBusy` (the HTTP API answers 503 with ``Retry-After``) instead of
waiting behind a long queue.
"""

from __future__ import annotations

import asyncio
import os
import threading
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Final, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

PASSWORD_MIN: Final = 6
PASSWORD_MAX: Final = 128
MIN_DISTINCT: Final = 4
"""Different characters a password needs at least."""
COMMON_COUNT: Final = 10_000
"""How many of the most common passwords are refused."""

HASH_THREADS: Final = 1
"""Threads hashing at once (each argon2 call may use more threads of its own: its parallelism)."""
HASH_QUEUE: Final = 8
"""Operations that may wait for a thread before more are refused."""
HASH_NICE: Final = 10
"""How much lower the hashing threads' CPU priority is than the event loop's (Linux ``nice``)."""

T = TypeVar("T")


class PasswordError(ValueError):
    """A password that breaks a rule of docs/PROTOCOL.md §1; ``reason`` names the rule."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


@cache
def common_passwords() -> frozenset[str]:
    """The :data:`COMMON_COUNT` most common passwords (lower case), from ``zxcvbn``'s ranked list."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    ranked: list[str] = FREQUENCY_LISTS["passwords"]
    return frozenset(word.casefold() for word in ranked[:COMMON_COUNT])


def encodes_as_utf8(value: str) -> bool:
    """Whether ``value`` encodes as UTF-8 (JSON may carry lone surrogates, which do not)."""
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True


def check_password(password: object, nickname: str | None = None) -> str:
    """The password if it passes every rule (module docstring); :class:`PasswordError` otherwise."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise PasswordError(f"password must be a string of {PASSWORD_MIN}–{PASSWORD_MAX} characters", "length")
    if not encodes_as_utf8(password):
        raise PasswordError("password must be valid Unicode text (no lone surrogates)", "unicode")
    if any(unicodedata.category(char)[0] == "C" for char in password):
        raise PasswordError("password must not contain control or format characters", "control")
    if not password.strip():
        raise PasswordError("password must not be only spaces", "blank")
    if len(set(password)) < MIN_DISTINCT:
        raise PasswordError(f"password must have at least {MIN_DISTINCT} different characters", "weak")
    if nickname is not None and password.casefold() == nickname.casefold():
        raise PasswordError("password must not be the nickname", "nickname")
    if password.casefold() in common_passwords():
        raise PasswordError(
            f"password is one of the {COMMON_COUNT:,} most common passwords; choose a less guessable one", "common"
        )
    return password


class HashingBusy(RuntimeError):
    """Too many password operations are running or waiting; try again in a moment."""


def _lower_priority(nice: int) -> None:
    """Thread initialiser: lower this thread's CPU priority (threads it starts inherit it)."""
    if nice <= 0 or not hasattr(os, "setpriority"):
        return
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)
    except OSError:
        return


class PasswordHashing:
    """argon2 ``hash``/``verify`` in ``threads`` worker threads, at most ``threads + queue`` at once."""

    def __init__(
        self,
        threads: int = HASH_THREADS,
        queue: int = HASH_QUEUE,
        nice: int = HASH_NICE,
        hasher: PasswordHasher | None = None,
    ) -> None:
        if threads < 1 or queue < 0:
            raise ValueError(f"PasswordHashing: threads must be ≥ 1 and queue ≥ 0 (got {threads}, {queue})")
        self.hasher = hasher or PasswordHasher()
        self.limit = threads + queue
        self.admitted = 0
        """Operations running or waiting now (only touched from the event loop's thread)."""
        self.refused = 0
        self._pool = ThreadPoolExecutor(threads, "argon2", initializer=_lower_priority, initargs=(nice,))

    async def _run(self, work: Callable[..., T], *args: object) -> T:
        if self.admitted >= self.limit:
            self.refused += 1
            raise HashingBusy(f"{self.admitted} password checks are running or waiting; try again in a moment")
        self.admitted += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)
        finally:
            self.admitted -= 1

    async def hash(self, password: str) -> str:
        """The argon2 hash of ``password``; :class:`HashingBusy` when the queue is full."""
        return await self._run(self.hasher.hash, password)

    async def verify(self, password_hash: str, password: str) -> bool:
        """Whether ``password`` matches ``password_hash``; :class:`HashingBusy` when the queue is full."""
        return await self._run(self._verify, password_hash, password)

    def _verify(self, password_hash: str, password: str) -> bool:
        try:
            return self.hasher.verify(password_hash, password)
        except (VerificationError, InvalidHashError):
            return False

    def close(self) -> None:
        """Stop the threads once the operations already admitted are done."""
        self._pool.shutdown(wait=False, cancel_futures=False)
