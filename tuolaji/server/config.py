"""Server settings (``tuolaji serve`` options)."""

from __future__ import annotations

from dataclasses import dataclass

from tuolaji.server.limits import ACCOUNT_BURST, ACCOUNT_RATE_PER_MINUTE, RATE_BURST, RATE_PER_SECOND
from tuolaji.store.accounts import DEFAULT_START_SILVER
from tuolaji.store.db import DEFAULT_URL


@dataclass(frozen=True)
class ServerConfig:
    """How the server runs; the table rules themselves are per table (``TableOptions``)."""

    db_url: str = DEFAULT_URL
    start_silver: int = DEFAULT_START_SILVER
    """Silver of a new account (§13)."""
    bot_delay: float = 0.6
    """Seconds a bot or 託管 seat waits before it moves, so people can follow the play."""
    next_hand_delay: float = 3.0
    """Seconds between a hand's settlement and the next deal (R37)."""
    seed: int | None = None
    """Seed of the match seeds (reproducible tables for tests and debugging); None: unpredictable."""
    rate_per_second: float = RATE_PER_SECOND
    """Messages per second a connection may send (token bucket), and its burst."""
    rate_burst: float = RATE_BURST
    account_rate_per_minute: float = ACCOUNT_RATE_PER_MINUTE
    """Account requests (guest, register, login) per minute per client address; 0: no limit."""
    account_burst: float = ACCOUNT_BURST
