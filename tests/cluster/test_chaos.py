"""A short chaos run (issue 48): every kind of fault once, in a seeded order, on three nodes with
four tables of scripted people and bots; every invariant must hold, and the operator's
``tuolaji admin audit`` finds every balance equal to its ledger afterwards (issue 43). The run is ``tests/chaos``, the
same one ``benchmarks/chaos.py`` runs for half an hour.

It starts its own PostgreSQL and Redis (it restarts them); like the other PostgreSQL tests it runs
only with ``TUOLAJI_TEST_POSTGRES`` set (it does not use that server).
"""

from __future__ import annotations

import os
import random

import pytest

from tests.chaos.faults import KINDS
from tests.chaos.people import Habits
from tests.chaos.run import ChaosConfig, run_chaos
from tests.chaos.services import missing_services

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("TUOLAJI_TEST_POSTGRES"), reason="set TUOLAJI_TEST_POSTGRES to run the PostgreSQL tests"
    ),
    pytest.mark.skipif(missing_services() is not None, reason=f"a chaos run needs {missing_services()}"),
]

SEED = 48


async def test_every_fault_once_and_every_invariant_holds() -> None:
    order = list(KINDS)
    random.Random(SEED).shuffle(order)
    config = ChaosConfig(
        seed=SEED,
        nodes=3,
        tables=4,
        lease=2.0,
        gap=(1.5, 3.0),
        order=tuple(order),
        warmup=4.0,
        bot_delay=0.03,
        review_seconds=0.1,
        habits=Habits(think=(0.02, 0.1)),
    )
    report = await run_chaos(config)
    summary = "\n".join(report.lines())
    assert sorted(fault.kind for fault in report.faults) == sorted(KINDS), summary
    assert report.findings.counts["hand ends checked"] > 0 and report.watch_counts["states"] > 0, summary
    assert report.watch_counts["observer states"] > 0, summary  # the tables' own witnesses saw them move
    assert report.findings.counts["tuolaji admin audit runs"] == 1, summary  # every balance against its ledger
    assert report.violations == {}, summary
