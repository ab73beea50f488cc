"""Checks that a client never received another seat's cards (issue 3: every broadcast is per seat)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.server.wsclient import Message


def _card_lists(value: Any, path: str = "") -> list[str]:
    """Paths of every list held under a ``hand`` or ``hint`` key."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("hand", "hint") and isinstance(item, list):
                found.append(f"{path}.{key}")
            found += _card_lists(item, f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:
            found += _card_lists(item, path + "[]")
    return found


def assert_only_own_cards(log: list[Message], seat: int | None) -> None:
    """``log`` is what one client received at ``seat`` (None: a spectator).

    Hidden cards reach a client only as ``view.hand``, ``view.hint`` and ``deal`` events: each hand's
    deal events to a seat add up to at most 54 cards, every view's hand is a sub-multiset of them,
    the hint is part of the hand, and a spectator gets none of the three.
    """
    dealt: dict[int, Counter[str]] = {}
    for message in log:
        for path in _card_lists(message):
            assert message["type"] == "state" and path in (".view.hand", ".view.hint"), (path, message)
        if message["type"] != "state":
            continue
        mine = dealt.setdefault(message["hand"], Counter())
        for event in message["events"]:
            if event["type"] == "deal":
                assert seat is not None, f"a spectator received dealt cards: {event}"
                mine.update(event["cards"])
        assert sum(mine.values()) <= 54, f"seat {seat} received {sum(mine.values())} dealt cards"
        view = message["view"]
        if view is None:
            continue
        assert view["seat"] == seat, (view["seat"], seat)
        hand = Counter(view["hand"])
        assert not hand - mine, f"seat {seat} view holds cards never dealt to it: {hand - mine}"
        assert not Counter(view["hint"]) - hand, "the hint is not part of the hand"
        if seat is None:
            assert view["hand"] == [] and view["hint"] == [] and view["bid_options"] == []
