"""A scripted WebSocket client for server tests: send protocol messages, wait for answers.

Every received message is kept in ``log``. ``wait`` scans forward from a cursor, so a test reads
the conversation in order without losing anything that arrived early; all waits are bounded.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

Message = dict[str, Any]
WAIT = 20.0


async def guest_token(base_url: str) -> tuple[str, Message]:
    """A new guest account: (token, account)."""
    async with httpx.AsyncClient(base_url=base_url) as http:
        answer = await http.post("/api/guest")
        answer.raise_for_status()
        body: Message = answer.json()
    return body["token"], body["account"]


class Client:
    """One connection. Use ``await Client.open(server_url)`` and ``await client.close()``."""

    def __init__(self, ws: ClientConnection, token: str, account: Message) -> None:
        self.ws = ws
        self.token = token
        self.account = account
        self.log: list[Message] = []
        self.cursor = 0
        self._ids = itertools.count(1)
        self._arrived = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, base_url: str, token: str | None = None, hello: bool = True, node: str | None = None) -> Client:
        """Connect (as a new guest unless ``token`` is given; asking for the node ``node``, ``/ws?node=``)
        and, by default, say hello."""
        account: Message = {}
        if token is None:
            token, account = await guest_token(base_url)
        query = f"?node={node}" if node is not None else ""
        ws = await connect(base_url.replace("http://", "ws://") + "/ws" + query, max_size=None)
        client = cls(ws, token, account)
        if hello:
            welcome = await client.request("hello", token=token)
            assert welcome["type"] == "ack", welcome
            client.account = (await client.wait(lambda m: m["type"] == "welcome"))["account"]
        return client

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                self.log.append(json.loads(frame))
                self._arrived.set()
        except Exception:  # the connection closed; waits then time out or see `closed`
            pass
        finally:
            self._arrived.set()

    @property
    def closed(self) -> bool:
        return self._reader.done()

    async def send(self, kind: str, **fields: Any) -> int:
        """Send a message with a fresh ``id``; return the id."""
        ref = next(self._ids)
        await self.send_raw(json.dumps({"v": 2, "type": kind, "id": ref, **fields}))
        return ref

    async def send_raw(self, text: str | bytes) -> None:
        await self.ws.send(text)

    async def _until(self, find: Callable[[], Message | None], timeout: float) -> Message:
        async with asyncio.timeout(timeout):
            while True:
                self._arrived.clear()
                found = find()
                if found is not None:
                    return found
                if self.closed:
                    raise ConnectionError(f"connection closed; last messages: {self.log[-5:]}")
                await self._arrived.wait()

    async def request(self, kind: str, timeout: float = WAIT, **fields: Any) -> Message:
        """Send and return the matching ``ack``, ``error`` or ``pong`` (the cursor does not move)."""
        ref = await self.send(kind, **fields)

        def find() -> Message | None:
            for item in self.log:
                if item.get("ref") == ref and item["type"] in ("ack", "error", "pong"):
                    return item
            return None

        return await self._until(find, timeout)

    async def wait(self, predicate: Callable[[Message], bool], timeout: float = WAIT) -> Message:
        """The next message from the cursor on that satisfies ``predicate``; the cursor moves past it."""

        def find() -> Message | None:
            for index in range(self.cursor, len(self.log)):
                if predicate(self.log[index]):
                    self.cursor = index + 1
                    return self.log[index]
            return None

        return await self._until(find, timeout)

    async def wait_type(self, kind: str, timeout: float = WAIT) -> Message:
        return await self.wait(lambda message: message["type"] == kind, timeout)

    def latest(self, kind: str) -> Message | None:
        """The last received message of ``kind``."""
        for item in reversed(self.log):
            if item["type"] == kind:
                return item
        return None

    async def closed_with(self, timeout: float = WAIT) -> int | None:
        """Wait for the server to close the connection; its close code."""
        async with asyncio.timeout(timeout):
            await asyncio.shield(self._reader)
        return self.ws.close_code

    async def close(self) -> None:
        await self.ws.close()
        await self._reader

    async def grown(self, since: int, timeout: float = WAIT) -> None:
        """Wait until more than ``since`` messages have arrived."""

        def find() -> Message | None:
            return {} if len(self.log) > since else None

        await self._until(find, timeout)
