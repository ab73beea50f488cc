"""Shared fixtures: a real server in a subprocess (``live_server``, ``live_server_factory``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from tests.live_server import FAST_ARGS, LiveServer
from tuolaji.native import stale


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to test compiled modules older than their sources (an in-place build not redone)."""
    old = stale(Path(__file__).resolve().parent.parent)
    if old:
        pytest.exit(f"compiled modules older than their sources ({', '.join(old)}): run ./run.sh setup", returncode=2)


@pytest.fixture
def live_server_factory(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """Start servers: ``factory(db_path=None, args=FAST_ARGS)``; every one is stopped after the test."""
    servers: list[LiveServer] = []

    def start(db_path: Path | None = None, args: Sequence[str] = FAST_ARGS) -> LiveServer:
        server = LiveServer(db_path or tmp_path / "tuolaji.sqlite3", tuple(args))
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def live_server(live_server_factory: Callable[..., LiveServer]) -> LiveServer:
    """A running server with a fresh SQLite file in ``tmp_path``; ``live_server.url`` is its base URL."""
    return live_server_factory()
