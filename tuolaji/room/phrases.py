"""Quick phrases (快捷語) at the table: a fixed list of ids, and how often a person may say one.

A phrase travels as its id; every client words it in its reader's language (``tuolaji/web/phrases.js``
holds the texts). There is no free text. The limit is a token bucket per speaker with the time
passed in, so the table decides it without reading a clock.
"""

from __future__ import annotations

from typing import Final

from tuolaji.token_bucket import TokenBucket

PHRASES: Final = (
    "hello",
    "hurry",
    "nice_cards",
    "well_played",
    "thanks",
    "sorry",
    "oops",
    "wait",
    "again",
    "bye",
)
"""Every phrase id, in the order the client lists them (大家好, 快點吧, 好牌！, 打得好！, 謝謝, 不好意思…,
失誤了, 稍等一下, 再來一局！, 再見)."""
PHRASE_BURST: Final = 3
"""Phrases a person may say in a row."""
PHRASE_EVERY_MS: Final = 3000
"""After a burst, one more phrase per this many milliseconds."""


class PhraseLimiter:
    """Per speaker (an account id): :data:`PHRASE_BURST` phrases at once, then one per :data:`PHRASE_EVERY_MS`."""

    def __init__(self, burst: int = PHRASE_BURST, every_ms: int = PHRASE_EVERY_MS) -> None:
        self.burst = burst
        self.every_ms = every_ms
        self._buckets: dict[int, TokenBucket] = {}

    def take(self, speaker: int, now_ms: int) -> int:
        """0 if ``speaker`` may say a phrase at ``now_ms`` (counted), else the milliseconds to wait."""
        bucket = self._buckets.get(speaker)
        if bucket is None:
            bucket = self._buckets[speaker] = TokenBucket(1 / self.every_ms, self.burst, now_ms)
        return 0 if bucket.take(now_ms) else max(1, round(bucket.wait()))
