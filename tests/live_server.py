"""A real ``tuolaji serve`` in a subprocess on 127.0.0.1, for tests that talk HTTP and WebSocket.

Use the ``live_server`` / ``live_server_factory`` fixtures from ``tests/conftest.py``. The server
picks a free port itself (``--port 0``); its address is read from uvicorn's start-up line, so no
test ever sleeps to wait for it (keep ``--log-level`` at ``info`` or lower in ``args``). Its log
lines are JSON (``tuolaji.server.logs``) unless ``args`` ask for ``--log-format console``:
:func:`fields_of` reads one, :meth:`LiveServer.records` them all.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

REPO = Path(__file__).resolve().parent.parent
START_TIMEOUT = 30.0
SERVE_COMMAND = (sys.executable, "-m", "tuolaji.server")
"""How the fixture starts a server (``python -m tuolaji.server`` is ``tuolaji serve``)."""
_RUNNING = re.compile(r"Uvicorn running on http://([\d.]+):(\d+)")


def fields_of(line: str) -> dict[str, Any] | None:
    """A JSON log line's fields, or None for a line that is not one (a console line, a worker's output)."""
    try:
        fields = json.loads(line)
    except ValueError:
        return None
    return fields if isinstance(fields, dict) else None


def is_error(line: str) -> bool:
    """Whether a log line tells of an error: level ``error`` or worse, or a traceback (JSON or not)."""
    fields = fields_of(line)
    if fields is None:
        return "ERROR" in line or "Traceback" in line
    return fields.get("level") in ("error", "critical") or "exception" in fields


@dataclass
class LiveServer:
    """A running server: ``url`` (``http://127.0.0.1:PORT``), ``ws_url``, its database and log lines."""

    db_path: Path
    args: tuple[str, ...] = ()
    command: tuple[str, ...] = SERVE_COMMAND
    database_url: str | None = None
    """Another database than the SQLite file ``db_path`` (e.g. PostgreSQL)."""
    port: int = 0
    """0: the server picks a free port. A fixed one lets a restarted server keep its address."""
    url: str = ""
    log: list[str] = field(default_factory=list)
    _process: subprocess.Popen[str] | None = None
    _reader: threading.Thread | None = None
    _grown: threading.Condition = field(default_factory=threading.Condition)

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://", 1) + "/ws"

    @property
    def db_url(self) -> str:
        return self.database_url or f"sqlite+aiosqlite:///{self.db_path}"

    def start(self) -> LiveServer:
        """Start the process and wait (bounded) for uvicorn's "running on" line."""
        command = [*self.command, "--port", str(self.port), "--db", self.db_url, *self.args]
        env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
        process = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        self._process = process
        assert process.stderr is not None
        found = threading.Event()

        def read() -> None:
            assert process.stderr is not None
            for line in process.stderr:
                with self._grown:
                    self.log.append(line.rstrip("\n"))
                    self._grown.notify_all()
                match = _RUNNING.search(line)
                if match and not found.is_set():
                    self.url = f"http://{match.group(1)}:{match.group(2)}"
                    found.set()
            found.set()

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        if not found.wait(START_TIMEOUT) or not self.url:
            self.stop()
            raise RuntimeError("the server did not start:\n" + "\n".join(self.log[-40:]))
        return self

    @property
    def pid(self) -> int:
        """The server's process id (while it runs)."""
        assert self._process is not None, "the server is not running"
        return self._process.pid

    def kill(self) -> None:
        """``kill -9`` the server (by the PID this fixture started) and wait until it is gone."""
        assert self._process is not None, "the server is not running"
        self._end(signal_first=False)

    def stop(self) -> int | None:
        """Stop the process (SIGTERM, then SIGKILL) and close its pipe; its exit code (None if not running)."""
        return self._end(signal_first=True) if self._process is not None else None

    def _end(self, signal_first: bool) -> int | None:
        process = self._process
        assert process is not None
        self._process = None
        if signal_first and process.poll() is None:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(15)
        if process.poll() is None:
            process.kill()
            process.wait(15)
        if self._reader is not None:
            self._reader.join(15)
        if process.stderr is not None:
            process.stderr.close()
        return process.returncode

    def logged(self, text: str, timeout: float = START_TIMEOUT) -> bool:
        """Wait (bounded; blocking, so call it through ``asyncio.to_thread``) until a log line contains
        ``text``; whether one did."""
        with self._grown:
            return self._grown.wait_for(lambda: any(text in line for line in self.log), timeout)

    def errors(self) -> list[str]:
        """Log lines of errors and tracebacks (a test may assert there are none)."""
        return [line for line in self.log if is_error(line)]

    def records(self, event: str | None = None) -> list[dict[str, Any]]:
        """The JSON log lines' fields so far (with ``event``: only the lines of that event)."""
        found = [fields for fields in map(fields_of, list(self.log)) if fields is not None]
        return [fields for fields in found if event is None or fields.get("event") == event]

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


FAST_ARGS: Sequence[str] = ("--bot-delay", "0", "--next-hand-delay", "0.05", "--log-level", "info")
"""Server options for tests: bots move at once, hands follow each other quickly."""


def audit_is_sound(db_url: str) -> None:
    """Run the real ``tuolaji admin audit`` on ``db_url``: every balance equals its ledger (issue 43)."""
    done = subprocess.run(
        [sys.executable, "-m", "tuolaji.cli", "admin", "audit", "--db", db_url],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
