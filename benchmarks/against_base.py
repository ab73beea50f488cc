"""One benchmark, old code against new in one run: a base commit's tree beside the working tree.

The base commit is exported with ``git archive`` into a temporary directory; the command then runs
``--rounds`` times in each tree, alternating (base, new, base, new, …) so both see the same load on a
shared machine. In the command, ``{root}`` is the measured tree's root (a script under it comes from
that tree), ``{here}`` the working tree's root (a script under it is the same for both) and
``{python}`` this interpreter; each run has ``PYTHONPATH={root}``, so it imports that tree's ``tuolaji``.
Run: ``.venv/bin/python benchmarks/against_base.py --base 4633f3d -- {python} {root}/benchmarks/playout_cost.py``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def export(commit: str, into: Path) -> None:
    """The tree of ``commit`` written under ``into``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
    with tempfile.TemporaryFile() as buffer:
        buffer.write(archive)
        buffer.seek(0)
        with tarfile.open(fileobj=buffer) as tar:
            tar.extractall(into, filter="data")


def run(command: list[str], root: Path) -> str:
    words = [word.format(root=root, here=ROOT, python=sys.executable) for word in command]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(words, cwd=root, env=env, check=True, capture_output=True, text=True)
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=2, help="runs in each tree, alternating (default 2)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command, with {root} and {python}")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        raise SystemExit("against_base: give the command after --")
    with tempfile.TemporaryDirectory(prefix="tuolaji-base-") as temp:
        base = Path(temp)
        export(args.base, base)
        for number in range(1, args.rounds + 1):
            for label, root in ((f"base {args.base}", base), ("working tree", ROOT)):
                print(f"== round {number}, {label}", flush=True)
                print(run(command, root), end="", flush=True)


if __name__ == "__main__":
    main()
