"""A card room on several nodes: a real Redis on loopback, a fresh PostgreSQL database
(``TUOLAJI_TEST_POSTGRES``), and ``tuolaji serve --redis`` nodes as subprocesses.

The Redis is the one ``TUOLAJI_TEST_REDIS`` names (CI starts a throwaway one; it is emptied before
each test), else a ``redis-server`` of the test's own; a test that restarts Redis always starts its own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from redis.asyncio import Redis

from tests.databases import fresh_postgres
from tests.live_server import LiveServer, free_port

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
SHARED_REDIS = os.environ.get("TUOLAJI_TEST_REDIS")
START_TIMEOUT = 30.0


@dataclass
class RedisProcess:
    """A throwaway ``redis-server`` (no persistence: a restart starts empty, as after a crash)."""

    workdir: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisProcess:
        """Start it and wait (bounded) until it accepts connections."""
        command = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        process = subprocess.Popen(
            [*command, "--dir", str(self.workdir)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.process = process
        ready = threading.Event()

        def read() -> None:
            assert process.stdout is not None
            for line in process.stdout:
                if "Ready to accept connections" in line:
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(START_TIMEOUT) or process.poll() is not None:
            raise RuntimeError(f"redis-server did not start on port {self.port}")
        return self

    def kill(self) -> None:
        """``kill -9`` it (by the PID this fixture started)."""
        process = self.process
        if process is not None:
            self.process = None
            process.kill()
            process.wait(15)
            if process.stdout is not None:
                process.stdout.close()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisProcess]:
    if not Path(REDIS_SERVER).exists():
        pytest.skip(f"{REDIS_SERVER} is not installed")
    server = RedisProcess(tmp_path).start()
    yield server
    server.kill()


@pytest.fixture
async def redis_url(tmp_path: Path) -> AsyncIterator[str]:
    """The Redis the nodes share: ``TUOLAJI_TEST_REDIS`` (emptied first), else one of the test's own."""
    if SHARED_REDIS:
        client = Redis.from_url(SHARED_REDIS)
        try:
            await client.flushdb()
        finally:
            await client.aclose()
        yield SHARED_REDIS
        return
    if not Path(REDIS_SERVER).exists():
        pytest.skip(f"{REDIS_SERVER} is not installed and TUOLAJI_TEST_REDIS is not set")
    server = RedisProcess(tmp_path).start()
    try:
        yield server.url
    finally:
        server.kill()


@pytest.fixture
async def postgres() -> AsyncIterator[str]:
    """A fresh PostgreSQL database for the nodes."""
    async with fresh_postgres() as url:
        yield url


NodeFactory = Callable[..., LiveServer]


@pytest.fixture
def nodes(tmp_path: Path, postgres: str, redis_url: str) -> Iterator[NodeFactory]:
    """Start nodes: ``nodes(name, *extra_args, redis=URL)`` (``redis_url`` by default); every one is
    stopped after the test."""
    started: list[LiveServer] = []

    def start(name: str, *extra: str, redis: str = redis_url) -> LiveServer:
        args = ("--redis", redis, "--node-name", name, "--bot-delay", "0", "--next-hand-delay", "0.3")
        node = LiveServer(tmp_path / "unused.sqlite3", (*args, "--log-level", "info", *extra), database_url=postgres)
        started.append(node)
        return node.start()

    yield start
    for node in started:
        node.stop()
