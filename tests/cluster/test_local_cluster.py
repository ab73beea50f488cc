"""``deploy/local-cluster.sh`` (``./run.sh cluster``) end to end, as on a fresh machine: the script
makes its own PostgreSQL and Redis, starts two nodes at once on the empty database, and nginx in
front (once with nginx, if installed, and once without); the test talks to it over HTTP, then
stops it, once as Ctrl-C in a terminal does (SIGINT to the script's process group, which the test
made) and once with SIGTERM to the script (the PID the test started), and checks that nothing it
started is left.

Every port is a free one chosen here (the script's ``TUOLAJI_CLUSTER_*`` variables), so this runs
beside CI's PostgreSQL and Redis and beside a ``./run.sh cluster`` on its default ports. Needs
PostgreSQL's server binaries, ``redis-server`` and ``.venv/bin/tuolaji``; like the other PostgreSQL
tests it runs only with ``TUOLAJI_TEST_POSTGRES`` set (it does not use that server).
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests import waiting
from tests.live_server import REPO, free_port

SCRIPT = REPO / "deploy" / "local-cluster.sh"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
STEP_TIMEOUT = 60
"""Seconds the script gives each part to become ready (``TUOLAJI_CLUSTER_TIMEOUT``)."""
DEADLINE = 4 * STEP_TIMEOUT
"""Seconds this test waits for the whole cluster to be ready, or for anything else."""

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("TUOLAJI_TEST_POSTGRES"), reason="set TUOLAJI_TEST_POSTGRES to run the PostgreSQL tests"
    ),
    pytest.mark.skipif(not glob.glob("/usr/lib/postgresql/*/bin/initdb"), reason="PostgreSQL is not installed"),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed"),
    pytest.mark.skipif(not (REPO / ".venv" / "bin" / "tuolaji").exists(), reason=".venv/bin/tuolaji is missing"),
]

_PART = re.compile(r"^cluster: (.+) ready on (\S+) \(pid (\d+)\)$")
_WORK = re.compile(r"^cluster: work directory (\S+) ")


@dataclass
class Script:
    """The running script and what it has printed (stdout and stderr, one list)."""

    process: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    grown: threading.Condition = field(default_factory=threading.Condition)

    def read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self.grown:
                self.lines.append(line.rstrip("\n"))
                self.grown.notify_all()
        with self.grown:
            self.grown.notify_all()

    def wait_for(self, text: str) -> None:
        """Wait (bounded) for a line containing ``text``; fail if the script ends first."""
        with self.grown:
            self.grown.wait_for(
                lambda: any(text in line for line in self.lines) or self.process.poll() is not None, DEADLINE
            )
            if not any(text in line for line in self.lines):
                pytest.fail(f"no {text!r} from the script:\n" + "\n".join(self.lines[-60:]))

    def parts(self) -> dict[str, tuple[str, int]]:
        """Each part the script reported ready: its name, address and process id."""
        found = (_PART.match(line) for line in self.lines)
        return {match[1]: (match[2], int(match[3])) for match in found if match}

    def work(self) -> Path:
        return Path(next(match[1] for match in map(_WORK.match, self.lines) if match))


def distinct_free_ports(count: int) -> list[int]:
    ports: set[int] = set()
    while len(ports) < count:
        ports.add(free_port())
    return sorted(ports)


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and has not exited (an exited one nobody reaped yet counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def answers(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def command_lines_naming(text: str) -> list[str]:
    """The command lines of running processes that contain ``text``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            with contextlib.suppress(OSError):
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                if text in command and running(int(entry.name)):
                    found.append(command)
    return found


def eventually(check: Callable[[], bool], what: str) -> None:
    """Poll ``check`` until it holds, failing after :data:`DEADLINE` seconds."""
    waiting.eventually(check, what, DEADLINE)


@contextlib.contextmanager
def local_cluster(env: dict[str, str]) -> Iterator[Script]:
    """Run the script; afterwards, whatever the test did, stop it (SIGTERM to the script) and, if it
    did not stop in time, the parts it reported (by their PIDs)."""
    process = subprocess.Popen(
        # SIGINT as in a terminal, even if this test runs where it is ignored (a background job)
        ["env", "--default-signal=INT", str(SCRIPT)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    script = Script(process)
    reader = threading.Thread(target=script.read, daemon=True)
    reader.start()
    try:
        yield script
    finally:
        if process.poll() is None:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(DEADLINE)
        if process.poll() is None:
            process.kill()
            process.wait(15)
            for _, pid in script.parts().values():
                if running(pid):
                    os.kill(pid, signal.SIGTERM)
        reader.join(15)
        if process.stdout is not None:
            process.stdout.close()


@pytest.mark.parametrize(
    ("with_nginx", "ctrl_c"), [(True, True), (False, False)], ids=["nginx-ctrl-c", "no-nginx-sigterm"]
)
def test_local_cluster_starts_on_a_fresh_machine_serves_and_stops(with_nginx: bool, ctrl_c: bool) -> None:
    if with_nginx and NGINX is None:
        pytest.skip("nginx is not installed")
    front, pg, redis, *nodes = distinct_free_ports(5)
    env = {
        **os.environ,
        "TUOLAJI_CLUSTER_PORT": str(front),
        "TUOLAJI_CLUSTER_NODE_PORTS": " ".join(map(str, nodes)),
        "TUOLAJI_CLUSTER_PG_PORT": str(pg),
        "TUOLAJI_CLUSTER_REDIS_PORT": str(redis),
        "TUOLAJI_CLUSTER_TIMEOUT": str(STEP_TIMEOUT),
        "TUOLAJI_CLUSTER_NGINX": NGINX if with_nginx and NGINX else "none",
    }
    names = {f"n{port}" for port in nodes}
    with local_cluster(env) as script, httpx.Client(timeout=10, trust_env=False) as http:
        script.wait_for("cluster: ready")
        parts = script.parts()
        work = script.work()
        expected = {"PostgreSQL", "Redis", *(f"node {name}" for name in names), *(["nginx"] if with_nginx else [])}
        assert set(parts) == expected, script.lines
        for port in nodes:
            health = http.get(f"http://127.0.0.1:{port}/api/health")
            assert (health.status_code, health.json()["node"]) == (200, f"n{port}")

        seen: set[str] = set()

        def both_nodes_answer_through_the_front() -> bool:
            for port in [front] if with_nginx else nodes:
                health = http.get(f"http://127.0.0.1:{port}/api/health")
                if health.status_code == 200:
                    seen.add(health.json()["node"])
            return seen == names

        eventually(both_nodes_answer_through_the_front, f"GET /api/health answered 200 by {sorted(names)}")

        entry = f"http://127.0.0.1:{front if with_nginx else nodes[0]}"
        guest = http.post(f"{entry}/api/guest", json={})
        assert guest.status_code == 201, guest.text
        account = guest.json()["account"]
        assert account["guest"] is True
        bearer = {"Authorization": f"Bearer {guest.json()['token']}"}
        for port in nodes:
            me = http.get(f"http://127.0.0.1:{port}/api/me", headers=bearer)
            assert (me.status_code, me.json()["account"]["id"]) == (200, account["id"])

        if ctrl_c:
            os.killpg(script.process.pid, signal.SIGINT)
        else:
            script.process.send_signal(signal.SIGTERM)
        assert script.process.wait(DEADLINE) == 0, script.lines
        script.wait_for("cluster: stopped")
        for name, (_, pid) in parts.items():
            assert not running(pid), f"{name} (pid {pid}) is still running"
        for port in (front, pg, redis, *nodes):
            assert not answers(port), f"something still answers on port {port}"
        assert command_lines_naming(str(work)) == []
        assert not work.exists()
