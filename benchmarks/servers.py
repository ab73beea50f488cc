"""Servers for the benchmarks: ``tuolaji serve`` from any source tree on 127.0.0.1, a fresh database
(an SQLite file, or a new PostgreSQL database), a throwaway ``redis-server``. Shared by the benchmark
scripts of this folder (which import it as ``servers``)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
from sqlalchemy.engine import make_url

REPO = Path(__file__).resolve().parent.parent


def serve_options(code: Path) -> str:
    """The tree's own ``tuolaji serve --help`` (to see which options an older tree knows)."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    command = [sys.executable, "-m", "tuolaji.server", "--help"]
    return subprocess.run(command, cwd=code, env=env, check=True, capture_output=True, text=True).stdout


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(
    db_url: str, code: Path, extra: tuple[str, ...] = (), poll: float = 0.1
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``python -m tuolaji.server`` from the source tree ``code`` on ``db_url``; (process, base
    URL) once it answers (asked every ``poll`` seconds).

    The per-address limit on account requests is off: every client guest comes from 127.0.0.1.
    """
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "tuolaji.server",
        "--port",
        str(port),
        "--db",
        db_url,
        "--bot-delay",
        "0",
        "--next-hand-delay",
        "0",
        "--account-rate",
        "0",
        "--log-level",
        "warning",
        *unlimited(code),
        *extra,
    ]
    env = {**os.environ, "PYTHONPATH": str(code)}
    process = subprocess.Popen(command, cwd=code, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return process, base
        except httpx.TransportError:
            time.sleep(poll)
    process.kill()
    raise RuntimeError("the server did not start")


def unlimited(code: Path) -> tuple[str, ...]:
    """Options that switch off the per-address limits the tree's ``tuolaji serve`` knows (every
    client comes from 127.0.0.1 here)."""
    cli = serve_options(code)
    wanted = [
        ("--account-rate", "0"),
        ("--guests-per-hour", "0"),
        ("--max-connections-per-address", "0"),
        ("--tables-per-address", "0"),
        ("--lobby-per-address", "0"),
    ]
    return tuple(word for option, value in wanted if option in cli for word in (option, value))


@contextlib.contextmanager
def redis_server(wanted: bool) -> Iterator[str | None]:
    """A throwaway ``redis-server`` on a free port of 127.0.0.1 (None when not ``wanted``)."""
    if not wanted:
        yield None
        return
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", tmp]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
                time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(30)


@contextlib.contextmanager
def fresh_database(postgres: str | None) -> Iterator[str]:
    """The URL of an empty database: an SQLite file in a temporary folder, or a new PostgreSQL
    database on the server ``postgres`` (dropped afterwards)."""
    if postgres is None:
        with tempfile.TemporaryDirectory() as tmp:
            yield f"sqlite+aiosqlite:///{Path(tmp) / 'load.sqlite3'}"
        return
    url = make_url(postgres)
    name = f"load_{os.getpid()}_{time.monotonic_ns()}"
    admin_execute(postgres, f"CREATE DATABASE {name}")
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        admin_execute(postgres, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def admin_execute(postgres: str, statement: str) -> None:
    """Run ``statement`` (e.g. ``CREATE DATABASE``, outside any transaction) on the PostgreSQL server of
    the URL ``postgres``, connected to its ``postgres`` database."""
    import asyncpg  # type: ignore[import-untyped]

    admin = make_url(postgres).set(drivername="postgresql", database="postgres")

    async def execute() -> None:
        connection = await asyncpg.connect(admin.render_as_string(hide_password=False))
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    asyncio.run(execute())


def source_trees(parser: argparse.ArgumentParser, spec: str) -> list[tuple[str, Path]]:
    """The source trees of a ``--code NAME=PATH[,NAME=PATH…]`` option (a parser error for a bad one)."""
    try:
        trees = [(name, Path(path).resolve()) for name, path in (part.split("=", 1) for part in spec.split(","))]
    except ValueError:
        parser.error(f"--code {spec!r}: expected NAME=PATH[,NAME=PATH…]")
    for name, tree in trees:
        if not (tree / "tuolaji" / "server").is_dir():
            parser.error(f"--code {name}={tree}: not a tuolaji source tree (no tuolaji/server)")
    return trees
