"""The nodes of a chaos run: ``tuolaji serve --redis`` processes of a source tree on fixed ports (a
restarted node keeps its address), each reaching PostgreSQL and Redis through the run's proxy, each
writing its log to a file of its own (every start marked), started, killed, paused and resumed by
the PIDs this started.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

START_TIMEOUT = 90.0
"""Seconds a node may take to answer its health check after it started (a busy 2-core machine)."""
MARK = "=== chaos: node started at "
"""The line written to a node's log before each start (a monotonic clock reading follows)."""


@dataclass
class Node:
    """One node: ``name``, its ``port``, how it is started, and its process while it runs."""

    name: str
    port: int
    command: tuple[str, ...]
    """``python -m tuolaji.server`` and every option but ``--port``."""
    code: Path
    """The source tree it runs."""
    log_path: Path
    process: subprocess.Popen[bytes] | None = None
    paused: bool = False
    starts: int = 0
    _log: IO[bytes] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def running(self) -> bool:
        """Started and not killed (a paused node is running)."""
        return self.process is not None and self.process.poll() is None

    @property
    def answering(self) -> bool:
        """Running and not paused."""
        return self.running and not self.paused

    async def start(self) -> None:
        """Start it; back once its health check answers (200, or 503 while Redis is away)."""
        if self._log is None:
            self._log = self.log_path.open("ab")
        self._log.write(f"{MARK}{time.monotonic():.3f}\n".encode())
        self._log.flush()
        env = {**os.environ, "PYTHONPATH": str(self.code), "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [*self.command, "--port", str(self.port)],
            cwd=self.code,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
        )
        self.paused = False
        self.starts += 1
        deadline = time.monotonic() + START_TIMEOUT
        async with httpx.AsyncClient(timeout=2.0) as http:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"node {self.name} exited while starting (log: {self.log_path})")
                try:
                    if (await http.get(self.url + "/api/health")).status_code in (200, 503):
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
        raise RuntimeError(f"node {self.name} did not answer within {START_TIMEOUT:g} s (log: {self.log_path})")

    def kill(self) -> None:
        """``kill -9`` it."""
        process = self.process
        if process is not None:
            if self.paused:
                process.send_signal(signal.SIGCONT)
            process.kill()
            process.wait(30)
        self.paused = False

    def pause(self) -> None:
        """``SIGSTOP``: it stops answering, its sockets stay open."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        """``SIGCONT``."""
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)
        self.paused = False

    def stop(self) -> None:
        """End of the run: SIGTERM (a graceful stop), SIGKILL if it is still there after 20 s."""
        process = self.process
        if process is not None and process.poll() is None:
            if self.paused:
                process.send_signal(signal.SIGCONT)
            process.terminate()
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(30)
        self.process = None
        if self._log is not None:
            self._log.close()
            self._log = None


TICK = 0.1
"""Seconds a client of the run waits for a message before it looks at what to do again."""


def connect_to(node: Node) -> connect:
    """A WebSocket connection to ``node`` as the run's clients (people, observers) make it: it pings
    every second, so a stopped node is given up within about 3.5 s."""
    return connect(node.ws_url, open_timeout=3, ping_interval=1.0, ping_timeout=2.5, close_timeout=1, max_size=None)


async def next_message(ws: ClientConnection) -> dict[str, Any] | None:
    """The next message on ``ws`` if one comes within :data:`TICK`."""
    try:
        return dict(json.loads(await asyncio.wait_for(ws.recv(), TICK)))
    except TimeoutError:
        return None
