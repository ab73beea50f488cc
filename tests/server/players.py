"""People at a table for crash and cluster tests: each plays the hint on their turn and bids when
nobody has, keeps what they were shown, survives reconnections, and asks again when a request was
refused because the table was moving or the server restarting.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.server.wsclient import Client, Message, guest_token

WAIT = 60.0
RETRY_SECONDS = 0.3
"""A request refused for a passing reason is sent again after this long."""
PASSING = frozenset({"table_moving", "service_unavailable", "server_restarting"})
"""Refusals that mean "not now": the request is sent again."""
Step = tuple[Any, ...]
"""A bid ``("bid", seat, suit, count)`` or a play ``("play", seat, cards)``, as clients see them."""


def state_of(client: Client | None) -> Message | None:
    """The newest ``state`` a client received."""
    return client.latest("state") if client is not None else None


@dataclass
class Player:
    """A person, kept across reconnections: token, seat, and what they were shown."""

    token: str
    account_id: int
    seat: int = -1
    client: Client | None = None
    known: dict[int, list[Step]] = field(default_factory=dict)
    """Hand number → every bid and play of that hand this player knows of, in order."""
    dealt: dict[int, Counter[str]] = field(default_factory=dict)
    """Hand number → the 54 cards this player was dealt (hand + own plays, once the deal is over)."""
    acted: set[tuple[Any, ...]] = field(default_factory=set)
    processed: int = 0
    last: tuple[int, tuple[Any, ...]] | None = None
    """The ref and decision of the last request."""
    retry_at: float = 0.0

    @classmethod
    async def guest(cls, url: str) -> Player:
        """A new guest, connected to the server at ``url``."""
        token, account = await guest_token(url)
        player = cls(token, account["id"])
        await player.connect(url)
        return player

    async def connect(self, url: str, node: str | None = None) -> Message:
        """(Re)connect to ``url`` with the token (asking for ``node``: ``/ws?node=``); the ``welcome``."""
        if self.client is not None and not self.client.closed:
            await self.client.close()
        return await self._opened(await Client.open(url, token=self.token, node=node))

    async def move(self, url: str, node: str | None = None) -> tuple[Message, Client | None]:
        """Connect again to ``url`` (asking for ``node``) while the connection in use stays open, as
        the browser does when it moves to its table's node: the new connection's ``welcome``, and
        the one it replaces (the server closes that)."""
        old = self.client
        return await self._opened(await Client.open(url, token=self.token, node=node)), old

    async def _opened(self, client: Client) -> Message:
        self.client = client
        self.processed = 0
        self.acted.clear()  # a request sent just before the connection dropped may be lost: decide again
        welcome = client.latest("welcome")
        assert welcome is not None
        return welcome

    def absorb(self) -> None:
        """Read the messages not read yet: full states rebuild ``known``, others extend it."""
        if self.client is None:
            return
        log = self.client.log
        while self.processed < len(log):
            item = log[self.processed]
            self.processed += 1
            if item["type"] == "welcome" and item["seat"] is not None:
                self.seat = item["seat"]
            last = self.last
            if item["type"] == "error" and last is not None and item.get("ref") == last[0] and item["code"] in PASSING:
                self.acted.discard(last[1])
                self.retry_at = time.monotonic() + RETRY_SECONDS
            if item["type"] != "state" or item["view"] is None:
                continue
            self._learn(item)

    def _learn(self, item: Message) -> None:
        hand, view = item["hand"], item["view"]
        if item["full"]:
            steps: list[Step] = [("bid", bid["seat"], bid["suit"], bid["count"]) for bid in view["bids"]]
            for trick in view["tricks"]:
                steps += [("play", play["seat"], tuple(play["cards"])) for play in trick["plays"]]
            steps += [("play", play["seat"], tuple(play["cards"])) for play in view["trick"]]
            self.known[hand] = steps
        else:
            steps = self.known.setdefault(hand, [])
            for event in item["events"]:
                if event["type"] == "bid":
                    steps.append(("bid", event["seat"], event["suit"], event["count"]))
                elif event["type"] == "play":
                    steps.append(("play", event["seat"], tuple(event["cards"])))
        if view["cards_dealt"] == 216 and hand not in self.dealt and view["seat"] is not None:
            mine = [card for step in self.known[hand] if step[0] == "play" and step[1] == self.seat for card in step[2]]
            self.dealt[hand] = Counter(view["hand"]) + Counter(mine)  # fmt: skip

    async def act(self) -> None:
        """Bid when nobody has, play the hint on one's turn: once per decision point."""
        client = self.client
        state = state_of(client)
        if client is None or client.closed or state is None or state["view"] is None:
            return
        if time.monotonic() < self.retry_at:
            return
        view = state["view"]
        key: tuple[Any, ...]
        if view["phase"] in ("dealing", "bidding") and view["bid"] is None and view["bid_options"]:
            key = ("bid", state["hand"])
            if key not in self.acted:
                self.acted.add(key)
                option = view["bid_options"][0]
                self.last = (await client.send("bid", suit=option["suit"], count=option["count"]), key)
        elif view["phase"] == "playing" and view["to_move"] == view["seat"] and view["hint"]:
            key = ("play", state["hand"], view["tricks_played"], len(view["trick"]))
            if key not in self.acted:
                self.acted.add(key)
                self.last = (await client.send("play", cards=view["hint"]), key)


@dataclass
class Party:
    """Four players at one table."""

    players: list[Player]

    def lead(self) -> Client:
        client = self.players[0].client
        assert client is not None
        return client

    async def seat(self, options: dict[str, Any]) -> str:
        """Player 0 creates a table with ``options``, the others join it in seats 1–3, everyone
        presses start; the table id."""
        created = await self.lead().request("create_table", options=options)
        assert created["type"] == "ack", created
        table = self.lead().latest("table")
        assert table is not None
        table_id: str = table["table"]["id"]
        for seat, player in enumerate(self.players):
            assert player.client is not None
            if seat:
                joined = await player.client.request("join", table=table_id, seat=seat)
                assert joined["type"] == "ack", joined
            player.seat = seat
        for player in self.players:
            assert player.client is not None
            assert (await player.client.request("start"))["type"] == "ack"
        return table_id

    async def until(self, condition: Callable[[], bool], timeout: float = WAIT) -> None:
        """Keep everyone playing until ``condition`` holds (bounded; the timeout says where things stood)."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    for player in self.players:
                        player.absorb()
                        await player.act()
                    if condition():
                        return
                    await self._anything_new()
        except TimeoutError:
            raise TimeoutError(f"waited {timeout:g} s in vain; {self.where()}") from None

    def where(self) -> str:
        """Each player's newest state and last messages, for a failure's message."""
        lines = []
        for index, player in enumerate(self.players):
            client = player.client
            state = state_of(client)
            view = state["view"] if state is not None else None
            seen = (
                f"hand {state['hand']} seq {state['seq']} {view['phase']} tricks {view['tricks_played']} "
                f"to_move {view['to_move']} hint {view['hint']} clock {state['clock']}"
                if state is not None and view is not None
                else "no view"
            )
            last = [
                item["type"] + (f":{item.get('code')}" if item["type"] == "error" else "")
                for item in (client.log[-6:] if client else [])
            ]
            lines.append(f"player {index} (seat {player.seat}): {seen}; last {last}")
        return "; ".join(lines)

    async def _anything_new(self) -> None:
        """Wait until any open connection receives a message (or a refused request is due again)."""
        clients = [player.client for player in self.players if player.client is not None and not player.client.closed]
        assert clients, "every player's connection is closed"
        waits = [asyncio.create_task(client.grown(len(client.log), WAIT)) for client in clients]
        try:
            await asyncio.wait(waits, timeout=RETRY_SECONDS, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()
            await asyncio.gather(*waits, return_exceptions=True)

    def hand_over(self, hand: int) -> Callable[[], bool]:
        """Whether every player saw ``hand`` end (``hand_end``)."""
        return lambda: all(
            player.client is not None
            and any(item["type"] == "hand_end" and item["hand"] == hand for item in player.client.log)
            for player in self.players
        )
