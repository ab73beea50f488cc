"""Who must not sit with whom in a quick match: the one place the reasons are gathered.

Today the reason is a mute: each queued person sends with ``quick_match`` the accounts they muted in
the last day (the browser keeps its mutes with their time), and neither of such two is seated with
the other. Another reason (such as a report) is one more source of pairs here; the matching
(``tuolaji.matching.decide.plan``) only ever sees the pairs.
"""

from __future__ import annotations

from collections.abc import Iterable

from tuolaji.matching.decide import Pair
from tuolaji.matching.entries import QueueEntry


async def blocked_pairs(entries: Iterable[QueueEntry]) -> frozenset[Pair]:
    """The pairs of accounts among (and around) the queued ``entries`` that must not share a table."""
    return frozenset(
        frozenset((seeker.account_id, other))
        for entry in entries
        for seeker in entry.seekers
        for other in seeker.avoid
        if other != seeker.account_id
    )
