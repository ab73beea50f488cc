"""Whether an account may take a seat now (``join``, ``create_table``, ``play_now``, ``quick_match``):
not too many seats in a row (the join limiter, per account) and not while it waits after escaping
from a hand (R43, the escape cool-down kept by the bus)."""

from __future__ import annotations

import logging
import math
import time

from tuolaji.server.bus import Bus, BusDown
from tuolaji.server.connection import Connection
from tuolaji.server.limits import JOIN_BURST, JOINS_PER_MINUTE, KeyedLimiter
from tuolaji.server.services import Services
from tuolaji.wire.inbound import ClientMessage

log = logging.getLogger(__name__)


class SeatGate:
    """The join limiter and the escape cool-down, asked before any seat is taken."""

    def __init__(self, bus: Bus, services: Services) -> None:
        self.bus = bus
        self.services = services
        self.join_limiter: KeyedLimiter[int] = KeyedLimiter.per_minute(JOINS_PER_MINUTE, JOIN_BURST)

    async def may_sit(self, conn: Connection, msg: ClientMessage) -> bool:
        """Whether ``conn``'s account may take a seat now: not too many seats in a row
        (``join_limiter``) and not while it waits after escaping (R43, ``EscapeCooldown``); else it is
        told why."""
        assert conn.account is not None
        account_id, kind = conn.account.id, msg.type
        retry = self.join_limiter.check(account_id, time.monotonic())
        if retry is not None:
            self.services.metrics.refused("joins")
            text = f"{kind}: too many tables in a row; try again in {retry} s"
            conn.error("rate_limited", text, msg.id, params={"reason": "joins", "seconds": retry})
            return False
        # The table shows the account as it is now: titles and the balance an escape would cost (R43).
        try:
            conn.account = await self.services.accounts.get(account_id) or conn.account
        except Exception:
            log.warning(
                "the account could not be read again; the table shows it as at hello", extra={"account": account_id}
            )
        try:
            wait = await self.bus.escape_wait(account_id)
        except BusDown:
            wait = 0.0
        if wait > 0:
            seconds = math.ceil(wait)
            text = f"{kind}: you left a hand (R43); you may sit again in {seconds} s"
            conn.error("escape_cooldown", text, msg.id, "R43", params={"seconds": seconds, "rule": "R43"})
            return False
        return True
