"""A fuzzer that stays (issue 46, item 7): hypothesis cases for every WebSocket message type and every
HTTP endpoint against a real server, which must answer each one cleanly without a traceback, go on
answering the sender and leave a bystander's private table undisturbed (``tests.fuzzing``).

A short, derandomized budget here; ``benchmarks/fuzz.py --examples N`` runs a long one.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings

from tests.fuzzing import SERVER_ARGS, Frame, HttpCase, Probe, Targets, frames, http_cases
from tests.live_server import LiveServer

pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr")
BUDGET = settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
TARGETS = Targets()
"""Filled by the probe when it has made the bystander's table (the strategies read it lazily)."""


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Probe]:
    server = LiveServer(tmp_path_factory.mktemp("fuzz") / "tuolaji.sqlite3", SERVER_ARGS).start()
    probe = Probe(server, TARGETS)
    try:
        yield probe.start()
    finally:
        probe.close()
        server.stop()


@BUDGET
@given(frame=frames(TARGETS))
def test_websocket_frames_are_answered_cleanly(probe: Probe, frame: Frame) -> None:
    probe.ws_case(frame)


@BUDGET
@given(case=http_cases())
def test_http_requests_are_answered_cleanly(probe: Probe, case: HttpCase) -> None:
    probe.http_case(case)
