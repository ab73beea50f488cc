"""argon2 password hashing off the event loop, with a bounded queue.

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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

HASH_THREADS: Final = 1
"""Threads hashing at once (each argon2 call may use more threads of its own: its parallelism)."""
HASH_QUEUE: Final = 8
"""Operations that may wait for a thread before more are refused."""
HASH_NICE: Final = 10
"""How much lower the hashing threads' CPU priority is than the event loop's (Linux ``nice``)."""

T = TypeVar("T")


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
