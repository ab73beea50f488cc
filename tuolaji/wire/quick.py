"""What the server sends about the quick match (快速開始, docs/PROTOCOL.md §2.8): one builder per
message, from the queue's typed data (``tuolaji.matching.entries``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tuolaji.matching.entries import PendingMatch, QueueEntry, QueueKey
from tuolaji.wire.outbound import message


def queue_status(
    entry: QueueEntry, account_id: int, now_ms: int, size: int, estimate_ms: int | None, requeued: bool = False
) -> dict[str, Any]:
    """``QueueStatus``: what ``account_id`` sees of its ``entry`` at ``now_ms``: the queue, how many
    people wait in it (``size``), its wait so far and the ``estimate_ms`` of what is left (None:
    unknown), the wait still held back after early leaves, its partner (or the code a partner
    brings), and whether it came back to the queue after a match that did not happen (``requeued``)."""
    partner = next((seeker.player for seeker in entry.seekers if seeker.account_id != account_id), None)
    return {
        **entry.key.to_json(),
        "bots_after": None if entry.bots_after_ms is None else entry.bots_after_ms // 1000,
        "bot": entry.bot,
        "size": size,
        "waited_ms": max(0, now_ms - entry.since_ms),
        "estimate_ms": estimate_ms,
        "held_ms": max(0, entry.not_before_ms - now_ms),
        "pair_code": entry.pair_code,
        "partner": partner.to_json() if partner is not None else None,
        "requeued": requeued,
    }


def match_status(status: dict[str, Any]) -> dict[str, Any]:
    """``match_status``: the player's place in the queue (a ``QueueStatus``)."""
    return message("match_status", queue=status)


def match_found(match: PendingMatch, answer_ms: int) -> dict[str, Any]:
    """``match_found``: people were found; answer ``accept_match`` within ``answer_ms``."""
    return message(
        "match_found",
        match=match.id,
        preset=match.key.preset,
        illegal_follow=match.key.kind,
        players=[seeker.player.to_json() for seeker in match.seekers],
        bots=4 - len(match.seekers),
        answer_ms=answer_ms,
    )


def match_cancelled(reason: str) -> dict[str, Any]:
    """``match_cancelled``: the player is no longer in the queue, because of ``reason``."""
    return message("match_cancelled", reason=reason)


def queue_counts(counts: Mapping[QueueKey, int]) -> list[dict[str, Any]]:
    """``QueueCount`` list: people queueing per preset and kind (every queue, none left out)."""
    return [
        {**key.to_json(), "players": count}
        for key, count in sorted(counts.items(), key=lambda i: (i[0].preset, i[0].kind))
    ]


def lobby_queues(counts: list[dict[str, Any]]) -> dict[str, Any]:
    """``lobby_queues``: how many people queue for a quick match, per preset and kind."""
    return message("lobby_queues", queues=counts)
