"""A TCP proxy between each node and PostgreSQL and Redis, so a chaos run can cut a node's connections
or slow its traffic without root (no firewall rules, no ``ss -K``): every node is given the proxy's
ports for PostgreSQL and Redis, and the run tells the proxy what to do to a node's connections.

Run as a process of its own (``python -m tests.chaos.proxy ROUTES``, ROUTES a JSON list of
``{"group", "listen", "target"}``: a group is a node), so its forwarding never waits for the run's
own event loop. It prints ``ready`` once it listens, then reads commands on stdin, answering ``ok``:

- ``drop GROUP`` — abort every open connection of the group, both ways (new ones are let through);
- ``delay GROUP SECONDS`` — from now on every chunk of the group's traffic, each way, is forwarded
  that long after it arrived (in order; ``0`` ends it);
- ``quit``.

:class:`Proxy` starts it and sends the commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CONNECT_TIMEOUT = 5.0
CHUNK = 65536


@dataclass(frozen=True)
class Route:
    """Connections to ``listen`` go on to ``target`` (both on 127.0.0.1), as part of ``group``."""

    group: str
    listen: int
    target: int


@dataclass(eq=False)
class _Link:
    """One proxied connection: both sockets and the tasks forwarding between them."""

    writers: list[asyncio.StreamWriter] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    def abort(self) -> None:
        for writer in self.writers:
            writer.transport.abort()
        for task in self.tasks:
            task.cancel()


class _Forwarder:
    """The proxy itself (in its own process)."""

    def __init__(self, routes: Sequence[Route]) -> None:
        self.routes = routes
        self.delays: dict[str, float] = {route.group: 0.0 for route in routes}
        self.links: dict[str, set[_Link]] = {route.group: set() for route in routes}

    async def serve(self) -> None:
        servers = [
            await asyncio.start_server(functools.partial(self._accept, route), "127.0.0.1", route.listen, backlog=512)
            for route in self.routes
        ]
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        commands = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(commands), sys.stdin)
        while line := (await commands.readline()).decode().split():
            if line[0] == "quit":
                break
            if line[0] == "drop":
                for link in list(self.links[line[1]]):
                    link.abort()
                self.links[line[1]].clear()
            elif line[0] == "delay":
                self.delays[line[1]] = float(line[2])
            print("ok", flush=True)
        for server in servers:
            server.close()

    async def _accept(self, route: Route, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT):
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", route.target)
        except (OSError, TimeoutError):
            writer.transport.abort()
            return
        link = _Link([writer, up_writer])
        self.links[route.group].add(link)
        link.tasks = [
            asyncio.create_task(self._pump(route.group, reader, up_writer, link)),
            asyncio.create_task(self._pump(route.group, up_reader, writer, link)),
        ]
        await asyncio.gather(*link.tasks, return_exceptions=True)
        self.links[route.group].discard(link)
        link.abort()

    async def _pump(self, group: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, link: _Link) -> None:
        """Forward one direction, each chunk after the group's delay at its arrival, in order."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        async def send() -> None:
            while True:
                due, data = await queue.get()
                if not data:
                    with contextlib.suppress(OSError):
                        writer.write_eof()
                    return
                if due > loop.time():
                    await asyncio.sleep(due - loop.time())
                writer.write(data)
                await writer.drain()

        sender = asyncio.create_task(send())
        link.tasks.append(sender)
        try:
            while data := await reader.read(CHUNK):
                queue.put_nowait((loop.time() + self.delays[group], data))
        except OSError:
            pass
        queue.put_nowait((loop.time() + self.delays[group], b""))
        with contextlib.suppress(OSError, asyncio.CancelledError):
            await sender
        link.abort()


class Proxy:
    """The proxy process of a run, and its commands."""

    def __init__(self, routes: Sequence[Route]) -> None:
        self.routes = routes
        self._process: asyncio.subprocess.Process | None = None

    def port(self, group: str, target: int) -> int:
        """The port through which ``group`` reaches ``target``."""
        return next(route.listen for route in self.routes if route.group == group and route.target == target)

    async def start(self) -> Proxy:
        """Start the process; back once it listens."""
        spec = json.dumps([route.__dict__ for route in self.routes])
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self._process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.chaos.proxy", spec, cwd=REPO, env=env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        await self._answer("ready")
        return self

    async def _answer(self, expected: str) -> None:
        assert self._process is not None and self._process.stdout is not None
        async with asyncio.timeout(30):
            line = (await self._process.stdout.readline()).decode().strip()
        if line != expected:
            raise RuntimeError(f"the chaos proxy answered {line!r}, not {expected!r}")

    async def _command(self, text: str) -> None:
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.write(text.encode() + b"\n")
        await self._process.stdin.drain()
        await self._answer("ok")

    async def drop(self, group: str) -> None:
        """Abort every connection of ``group`` (a node's to PostgreSQL and Redis)."""
        await self._command(f"drop {group}")

    async def delay(self, group: str, seconds: float) -> None:
        """Delay ``group``'s traffic by ``seconds`` each way (0: no more)."""
        await self._command(f"delay {group} {seconds:.3f}")

    async def close(self) -> None:
        """Stop the process (by the PID this started)."""
        process = self._process
        if process is None:
            return
        self._process = None
        if process.returncode is None:
            process.kill()
        await process.wait()


def main(argv: Sequence[str]) -> None:
    routes = [Route(**item) for item in json.loads(argv[0])]
    asyncio.run(_Forwarder(routes).serve())


if __name__ == "__main__":
    main(sys.argv[1:])
