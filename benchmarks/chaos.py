"""A chaos run of a card room on many nodes (issue 48): faults at random for minutes, every invariant
checked; the run itself is ``tests/chaos`` (the test suite runs a short one, ``tests/cluster/test_chaos.py``).

A throwaway PostgreSQL and Redis of the run's own on free ports, ``--nodes`` nodes of ``--code`` (this
tree by default), ``--tables`` tables of scripted people and bots, and a seeded schedule of faults:
kill -9 and restart a node, SIGSTOP it longer than the lease, restart Redis empty, restart PostgreSQL
fast and immediate, cut a node's connections, slow its traffic. Prints the fault counts by kind, the
hands played, each invariant with its violations, the failover times and the longest stall by fault
kind; exits 1 if an invariant was broken.

    .venv/bin/python benchmarks/chaos.py --minutes 30 --seed 48
    .venv/bin/python benchmarks/chaos.py --minutes 30 --seed 48 --code /tmp/base --python /tmp/base/.venv/bin/python
    .venv/bin/python benchmarks/chaos.py --minutes 2 --keep /tmp/chaos-logs      # keep the nodes' logs
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.chaos.run import ChaosConfig, run_chaos  # noqa: E402
from tests.chaos.services import missing_services  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="minutes of faults (default 30)")
    parser.add_argument("--seed", type=int, default=48, help="seed of the tables, the people and the faults")
    parser.add_argument("--nodes", type=int, default=3, help="nodes (default 3)")
    parser.add_argument("--tables", type=int, default=12, help="tables (default 12)")
    parser.add_argument("--lease", type=float, default=5.0, help="the nodes' --lease-seconds (default 5)")
    parser.add_argument("--gap", type=float, nargs=2, default=(8.0, 25.0), help="seconds between faults (uniform)")
    parser.add_argument("--code", type=Path, default=REPO, help="the source tree the nodes run (default this one)")
    parser.add_argument("--python", default=sys.executable, help="the Python the nodes run on")
    parser.add_argument("--keep", type=Path, help="a folder to keep the nodes' and PostgreSQL's logs in")
    args = parser.parse_args()
    missing = missing_services()
    if missing:
        parser.error(f"a chaos run needs {missing}")
    if args.nodes < 2 or args.tables < 1 or args.minutes <= 0:
        parser.error("--nodes must be at least 2, --tables at least 1, --minutes above 0")
    config = ChaosConfig(
        seed=args.seed,
        seconds=args.minutes * 60,
        nodes=args.nodes,
        tables=args.tables,
        lease=args.lease,
        gap=tuple(args.gap),
        code=args.code.resolve(),
        python=args.python,
        keep=args.keep.resolve() if args.keep else None,
    )
    report = asyncio.run(run_chaos(config))
    print("\n".join(report.lines()))
    return 1 if report.violations else 0


if __name__ == "__main__":
    sys.exit(main())
