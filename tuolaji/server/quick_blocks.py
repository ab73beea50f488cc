"""Who must not sit with whom in a quick match: the one place the reasons are gathered.

Two reasons, each kept for a day: a mute (each queued person sends with ``quick_match`` the accounts
they muted in the last day; the browser keeps its mutes with their time) and a report (the accounts
a queued person reported in the last day, ``tuolaji.store.reports.reports_by``). Neither of such
two is seated with the other; the matching (``tuolaji.matching.decide.plan``) only ever sees the
pairs.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Final

from tuolaji.matching.decide import Pair
from tuolaji.matching.entries import QueueEntry
from tuolaji.store.db import Database
from tuolaji.store.reports import reports_by

KEPT_APART: Final = timedelta(days=1)
"""How long a mute or a report keeps two accounts apart."""


async def blocked_pairs(entries: Iterable[QueueEntry], db: Database) -> frozenset[Pair]:
    """The pairs of accounts among (and around) the queued ``entries`` that must not share a table."""
    seekers = [seeker for entry in entries for seeker in entry.seekers]
    since = datetime.now(UTC) - KEPT_APART
    pairs = {frozenset((seeker.account_id, other)) for seeker in seekers for other in seeker.avoid}
    pairs |= {frozenset(pair) for pair in await reports_by(db, (seeker.account_id for seeker in seekers), since)}
    return frozenset(pair for pair in pairs if len(pair) == 2)
