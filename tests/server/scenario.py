"""Scripted players for server tests: tables of four clients, a driver that plays their hands.

The driver acts only on the newest ``state`` each client has seen, once per decision point, and
stops when a condition holds; every wait is bounded.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from tests.server.wsclient import WAIT, Client, Message

FAST = {"deal_interval_ms": 0, "bid_window_seconds": 0.5, "review_seconds": 0, "turn_seconds": 60}
"""Table options for quick hands between scripted clients."""

Policy = Callable[[Client, Message], Awaitable[bool]]
"""Called with the newest state when it is the client's decision; True if it acted."""


def is_trump(card: str, view: Message) -> bool:
    """R8 from a view: jokers, level cards, 2s, the trump suit."""
    if card in ("BJ", "SJ"):
        return True
    return card[0] in (view["level"], "2") or card[1] == view["trump_suit"]


def suit_class(card: str, view: Message) -> str:
    return "trump" if is_trump(card, view) else card[1]


def wrong_follow(view: Message) -> list[str] | None:
    """A follow that breaks R23/R24 (off-class cards while holding the lead's suit-class), if one exists."""
    lead = view["trick"][0]["cards"]
    wanted = suit_class(lead[0], view)
    others = [card for card in view["hand"] if suit_class(card, view) != wanted]
    if len(others) < len(lead) or len(others) == len(view["hand"]):
        return None
    return others[: len(lead)]


def decision_key(state: Message) -> tuple[Any, ...]:
    view = state["view"]
    return (
        state["hand"],
        view["phase"],
        view["tricks_played"],
        len(view["trick"]),
        sum(view["retraction_points"]),
        view["to_move"],
        view["can_remind"],
        view["can_retract"],
        view["reminded"],
    )


async def default_policy(client: Client, state: Message) -> bool:
    """Bid the longest level-card suit while nobody has bid; play the hint on one's turn."""
    view = state["view"]
    if view["phase"] in ("dealing", "bidding") and view["bid"] is None and view["bid_options"]:
        option = max(view["bid_options"], key=lambda item: item["count"])
        await client.send("bid", suit=option["suit"], count=option["count"])
        return True
    if view["phase"] == "playing" and view["to_move"] == view["seat"] and view["hint"]:
        await client.send("play", cards=view["hint"])
        return True
    return False


async def drive(
    client: Client, done: Callable[[Client], bool], policy: Policy = default_policy, timeout: float = 90.0
) -> None:
    """Let ``policy`` act on ``client``'s newest state until ``done(client)``."""
    seen = 0
    acted: set[tuple[Any, ...]] = set()
    async with asyncio.timeout(timeout):
        while not done(client):
            if seen == len(client.log):
                await client.grown(seen, timeout)
            seen = len(client.log)
            if done(client):
                return
            state = client.latest("state")
            if state is None or state["view"] is None or state["view"]["seat"] is None:
                continue
            key = decision_key(state)
            if key not in acted and await policy(client, state):
                acted.add(key)


def got(kind: str, count: int = 1) -> Callable[[Client], bool]:
    """A ``done`` condition: ``count`` messages of ``kind`` arrived."""
    return lambda client: sum(1 for item in client.log if item["type"] == kind) >= count


async def open_clients(url: str, count: int) -> list[Client]:
    return list(await asyncio.gather(*(Client.open(url) for _ in range(count))))


async def close_all(clients: Sequence[Client]) -> None:
    for client in clients:
        await client.close()


async def four_at_table(url: str, options: dict[str, Any]) -> tuple[list[Client], str]:
    """Four guests at a new table in seats 0–3, all pressed start: the first hand begins."""
    clients = await open_clients(url, 4)
    created = await clients[0].request("create_table", options=options, seat=0)
    assert created["type"] == "ack", created
    table = await clients[0].wait_type("table")
    table_id: str = table["table"]["id"]
    for seat, client in enumerate(clients[1:], start=1):
        joined = await client.request("join", table=table_id, seat=seat)
        assert joined["type"] == "ack", joined
    for client in clients:
        started = await client.request("start")
        assert started["type"] == "ack", started
    return clients, table_id


async def wait_state(client: Client, predicate: Callable[[Message], bool], timeout: float = WAIT) -> Message:
    """The next ``state`` whose view satisfies ``predicate``."""
    return await client.wait(
        lambda item: item["type"] == "state" and item["view"] is not None and predicate(item["view"]), timeout
    )


def latest_view(client: Client) -> Message:
    """The view of the newest ``state`` the client received."""
    state = client.latest("state")
    assert state is not None and state["view"] is not None
    view: Message = state["view"]
    return view


def in_play(client: Client) -> bool:
    """Whether the client's newest ``state`` is in the playing phase (bidding is over)."""
    state = client.latest("state")
    return state is not None and state["view"] is not None and state["view"]["phase"] == "playing"
