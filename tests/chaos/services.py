"""The throwaway services of a chaos run: a PostgreSQL cluster of its own (``initdb`` in a temporary
folder, restarted ``fast`` or ``immediate``) and a ``redis-server`` (restarted empty, as after a crash).

PostgreSQL refuses to run as root; run as root, its commands run as the ``postgres`` user, as
``deploy/local-cluster.sh`` and ``.ci/run`` do.
"""

from __future__ import annotations

import glob
import os
import shlex
import shutil
import subprocess
from pathlib import Path

from tests.cluster.conftest import RedisProcess

__all__ = ["PG_BIN", "Postgres", "RedisProcess", "missing_services"]

PG_BIN = next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)), "")
"""The newest PostgreSQL server binaries installed (Debian's layout), or empty."""
TIMEOUT = 60


def missing_services() -> str | None:
    """What a chaos run needs and this machine lacks, or None."""
    if not PG_BIN:
        return "PostgreSQL's server binaries (/usr/lib/postgresql/*/bin)"
    if shutil.which("redis-server") is None and not Path("/usr/bin/redis-server").exists():
        return "redis-server"
    return None


class Postgres:
    """A PostgreSQL cluster in ``workdir/pg`` on 127.0.0.1:``port``."""

    def __init__(self, workdir: Path, port: int) -> None:
        self.port = port
        self.data = workdir / "pg"
        self.log = workdir / "pg.log"
        self._as_postgres = os.geteuid() == 0

    @property
    def url(self) -> str:
        """The server's ``postgres`` database (a run's nodes share it)."""
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        command = [*args]
        if self._as_postgres:
            command = ["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(command)]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=TIMEOUT)

    def start(self) -> Postgres:
        """Create the cluster (the first time) and start it; back when it accepts connections."""
        if not self.data.exists():
            self.data.mkdir(parents=True)
            self.data.parent.chmod(0o711)
            self.log.touch()
            if self._as_postgres:
                shutil.chown(self.data, "postgres")
                shutil.chown(self.log, "postgres")
            self._run(f"{PG_BIN}/initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres")
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        self._run(f"{PG_BIN}/pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-o", options, "start")
        return self

    def restart(self, mode: str) -> None:
        """``pg_ctl restart -m MODE`` (``fast``: sessions ended, a checkpoint; ``immediate``: a crash,
        recovered at start); back when it accepts connections again."""
        self._run(f"{PG_BIN}/pg_ctl", "-D", str(self.data), "-l", str(self.log), "-m", mode, "-w", "restart")

    def stop(self) -> None:
        """Stop it (end of the run)."""
        if (self.data / "postmaster.pid").exists():
            self._run(f"{PG_BIN}/pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
