"""The fuzzer of ``tests/server/test_fuzz.py`` with a long budget (issue 46, item 7).

Starts a server of ``--repo`` (this tree by default) on 127.0.0.1 with a fresh database, sends
``--examples`` random WebSocket frames and as many HTTP requests (``tests.fuzzing``: every message
type and endpoint, wrong types, missing and extra fields, huge numbers, strings and arrays, deep
nesting, bad UTF-8, lone surrogates), and prints what it found: the first case that disturbed the
server (a 500, a traceback in its log, a mute connection, a bystander disturbed), shrunk by
hypothesis, and how the server answered the cases by code.

    .venv/bin/python benchmarks/fuzz.py --examples 5000
    .venv/bin/python benchmarks/fuzz.py --examples 500 --seed 7 --repo /tmp/old-input   # an older tree
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

from tests.fuzzing import SERVER_ARGS, Frame, HttpCase, Probe, Targets, frames, http_cases  # noqa: E402
from tests.live_server import LiveServer  # noqa: E402


def server_command(repo: Path) -> tuple[str, ...]:
    """``python -m tuolaji.server`` of the tree ``repo`` (first on the path, before this one)."""
    start = (
        f"import runpy, sys; sys.path.insert(0, {str(repo)!r}); runpy.run_module('tuolaji.server', run_name='__main__')"
    )
    return (sys.executable, "-c", start)


def describe(error: BaseException) -> str:
    """The error and, for a group (hypothesis's flaky failures), each of its errors."""
    text = f"{type(error).__name__}: {error}"[:3000]
    for inner in getattr(error, "exceptions", ()):
        text += "\n  " + describe(inner).replace("\n", "\n  ")
    return text


def campaign(probe: Probe, targets: Targets, examples: int, chosen_seed: int) -> dict[str, Any]:
    """Run both properties for ``examples`` cases each; what each found (None: nothing)."""
    budget = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )

    @seed(chosen_seed)
    @budget
    @given(frame=frames(targets))
    def websocket(frame: Frame) -> None:
        probe.ws_case(frame)

    @seed(chosen_seed)
    @budget
    @given(case=http_cases())
    def http(case: HttpCase) -> None:
        probe.http_case(case)

    found: dict[str, Any] = {}
    for name, prop in (("websocket", websocket), ("http", http)):
        began = time.monotonic()
        try:
            prop()
            found[name] = None
        except Exception as error:
            found[name] = describe(error)
        found[f"{name}_seconds"] = round(time.monotonic() - began, 1)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=2000, help="cases per property (WebSocket, HTTP)")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed")
    parser.add_argument("--repo", default=str(REPO), help="source tree whose server is fuzzed")
    args = parser.parse_args()
    warnings.filterwarnings("ignore", "Generating overly large repr")
    targets = Targets()
    with tempfile.TemporaryDirectory(prefix="tuolaji-fuzz-") as folder:
        server = LiveServer(Path(folder) / "fuzz.sqlite3", SERVER_ARGS, server_command(Path(args.repo).resolve()))
        server.start()
        probe = Probe(server, targets).start()
        try:
            found = campaign(probe, targets, args.examples, args.seed)
        finally:
            probe.close()
            server.stop()
    report = {"repo": args.repo, "examples": args.examples, "seed": args.seed, **found, "answers": dict(probe.seen)}
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 1 if found["websocket"] or found["http"] else 0


if __name__ == "__main__":
    sys.exit(main())
