"""Waiting in a test for something another process does: poll a check, bounded."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest


def eventually(check: Callable[[], bool], what: str, timeout: float, every: float = 0.1) -> None:
    """Ask ``check`` every ``every`` seconds until it holds; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"not within {timeout:g} s: {what}")
        time.sleep(every)
