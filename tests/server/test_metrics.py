"""``/metrics``: a real Prometheus (Debian's ``/usr/bin/prometheus``, started here on a free port)
scrapes a real node while people and bots play a few tables, and the figures are read back through
Prometheus's HTTP API; the sample alert rules load and evaluate there, and every metric the sample
dashboard and rules name is one the node serves. The endpoint is refused to other addresses, to a
client behind a proxy the node does not trust, and to a wrong token; ``--no-metrics`` serves none.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import secrets
import subprocess
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.live_server import FAST_ARGS, REPO, LiveServer, free_port
from tests.server.players import Party, Player
from tests.server.wsclient import Client

PROMETHEUS = Path("/usr/bin/prometheus")
PROMTOOL = Path("/usr/bin/promtool")
DEPLOY = REPO / "deploy"
ALERTS = DEPLOY / "prometheus" / "alerts.yml"
DASHBOARD = DEPLOY / "grafana" / "tuolaji.json"
START_TIMEOUT = 30.0
WAIT = 90.0
FAST = {"deal_interval_ms": 0, "bid_window_seconds": 0.5, "review_seconds": 0, "turn_seconds": 60}
LiveServerFactory = Callable[..., LiveServer]


@dataclass
class Prometheus:
    """A throwaway Prometheus scraping ``target`` (``host:port``) every second, with the sample
    alert rules loaded; killed by the PID this test started."""

    workdir: Path
    target: str
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Prometheus:
        """Start it and wait (bounded) for its "ready" line."""
        config = self.workdir / "prometheus.yml"
        scrape = {"job_name": "tuolaji", "scrape_interval": "1s", "static_configs": [{"targets": [self.target]}]}
        settings = {
            "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
            "rule_files": [str(ALERTS)],
            "scrape_configs": [scrape],
        }
        config.write_text(json.dumps(settings))  # JSON is YAML
        command = [
            str(PROMETHEUS),
            f"--config.file={config}",
            f"--storage.tsdb.path={self.workdir / 'data'}",
            f"--web.listen-address=127.0.0.1:{self.port}",
        ]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.process = process
        ready = threading.Event()
        lines: list[str] = []

        def read() -> None:
            assert process.stderr is not None
            for line in process.stderr:
                lines.append(line)
                if "Server is ready to receive web requests" in line:
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(START_TIMEOUT) or process.poll() is not None:
            self.kill()
            raise RuntimeError("prometheus did not start:\n" + "".join(lines[-20:]))
        return self

    def kill(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            process.kill()
            process.wait(15)
            if process.stderr is not None:
                process.stderr.close()

    async def query(self, expression: str) -> list[tuple[dict[str, str], float]]:
        """An instant query's samples: (labels, value)."""
        async with httpx.AsyncClient(base_url=self.url) as http:
            answer = (await http.get("/api/v1/query", params={"query": expression})).json()
        assert answer["status"] == "success", answer
        return [(item["metric"], float(item["value"][1])) for item in answer["data"]["result"]]

    async def value(self, expression: str) -> float | None:
        """The one value of ``expression`` (None while it has no sample)."""
        samples = await self.query(expression)
        return samples[0][1] if samples else None

    async def rules(self) -> list[dict[str, Any]]:
        async with httpx.AsyncClient(base_url=self.url) as http:
            answer = (await http.get("/api/v1/rules")).json()
        return [rule for group in answer["data"]["groups"] for rule in group["rules"]]


@pytest.fixture
def prometheus_for(tmp_path: Path) -> Iterator[Callable[[str], Prometheus]]:
    if not PROMETHEUS.exists():
        pytest.skip(f"{PROMETHEUS} is not installed (Debian's prometheus package; .ci/run installs it)")
    started: list[Prometheus] = []

    def start(target: str) -> Prometheus:
        server = Prometheus(tmp_path, target)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.kill()


async def eventually(check: Callable[[], Awaitable[bool]], what: str, timeout: float = WAIT) -> None:
    """Wait (bounded) until ``check`` holds, asking again every half second (Prometheus cannot tell us)."""
    try:
        async with asyncio.timeout(timeout):
            while not await check():
                await asyncio.sleep(0.5)
    except TimeoutError:
        raise TimeoutError(f"waited {timeout:g} s in vain for {what}") from None


async def scraped(url: str, **headers: str) -> dict[str, float]:
    """The node's ``/metrics`` read by Prometheus's own parser: sample name with labels → value."""
    async with httpx.AsyncClient(base_url=url) as http:
        answer = await http.get("/metrics", headers=headers)
    assert answer.status_code == 200, answer.text
    found = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            labels = ",".join(f"{name}={value}" for name, value in sorted(sample.labels.items()))
            found[sample.name + (f"{{{labels}}}" if labels else "")] = sample.value
    return found


@pytest.fixture
async def players() -> AsyncIterator[list[Player]]:
    people: list[Player] = []
    yield people
    for person in people:
        if person.client is not None and not person.client.closed:
            await person.client.close()


async def settled_by_records(url: str, people: list[Player]) -> dict[str, float]:
    """Silver and 積分 lost (paid_in) and won (paid_out) by ``people``, from their stored hands."""
    totals = dict.fromkeys(("silver/paid_in", "silver/paid_out", "points/paid_in", "points/paid_out"), 0.0)
    async with httpx.AsyncClient(base_url=url) as http:
        for person in people:
            listed = (await http.get(f"/api/accounts/{person.account_id}/hands", params={"limit": 100})).json()
            for hand in listed["hands"]:
                for kind in ("silver", "points"):
                    delta = hand[f"{kind}_delta"]
                    totals[f"{kind}/{'paid_out' if delta > 0 else 'paid_in'}"] += abs(delta)
    return totals


def family(sample: str) -> str:
    """The metric a sample's name belongs to (``_bucket``, ``_count``, ``_sum``, ``_total`` dropped)."""
    return re.sub(r"(_bucket|_count|_sum|_total)$", "", sample)


def settled_by_metrics(figures: dict[str, float]) -> dict[str, float]:
    return {
        f"{kind}/{way}": figures[f"tuolaji_settled_{kind}_total{{direction={way}}}"]
        for kind in ("silver", "points")
        for way in ("paid_in", "paid_out")
    }


async def test_prometheus_scrapes_a_node_under_tables_of_people_and_bots(
    live_server_factory: LiveServerFactory, prometheus_for: Callable[[str], Prometheus], players: list[Player]
) -> None:
    server = live_server_factory()
    players.extend([await Player.guest(server.url) for _ in range(9)])
    tables = [await Party(players[0:4]).seat(FAST), await Party(players[4:8]).seat(FAST)]
    solo = players[8]
    assert solo.client is not None
    assert (await solo.client.request("play_now", options=FAST))["type"] == "ack"  # three heuristic bots
    solo.seat = 0
    spectator = await Client.open(server.url)
    assert (await spectator.request("watch", table=tables[0]))["type"] == "ack"
    room = Party(players)
    prometheus = prometheus_for(server.url.removeprefix("http://"))
    stop = asyncio.Event()
    playing = asyncio.create_task(room.until(stop.is_set, WAIT * 2))
    try:

        async def figures_in() -> bool:
            hands = await prometheus.value('tuolaji_hands_total{job="tuolaji"}')
            quantile = await prometheus.value(
                "histogram_quantile(0.9, sum by (le) (rate(tuolaji_move_latency_seconds_bucket[10s])))"
            )
            return hands is not None and hands >= 1 and quantile is not None and math.isfinite(quantile)

        await eventually(figures_in, "a stored hand and a move latency quantile in Prometheus")
        assert await prometheus.value('up{job="tuolaji"}') == 1
        assert (await prometheus.value("tuolaji_moves_total") or 0) > 0
        count = await prometheus.value("tuolaji_move_latency_seconds_count")
        bucket_samples = await prometheus.query("tuolaji_move_latency_seconds_bucket")
        buckets = {labels["le"]: value for labels, value in bucket_samples}
        assert count is not None and count > 0 and buckets["+Inf"] == count
        assert any(value > 0 for le, value in buckets.items() if le != "+Inf")  # a finite bucket holds moves
        assert await prometheus.value("sum(tuolaji_tables)") == 3
        assert await prometheus.value("tuolaji_people_seated") == 9
        assert await prometheus.value("tuolaji_bots_seated") == 3
        assert await prometheus.value("tuolaji_spectators") == 1
        assert await prometheus.value("tuolaji_connections") == 10
        assert (await prometheus.value("sum(tuolaji_table_log_batch_steps_count)") or 0) > 0
        assert (await prometheus.value('tuolaji_table_log_commit_seconds_count{kind="moves"}') or 0) > 0
        assert await prometheus.value('tuolaji_node_info{bus="local"}') == 1
        assert (await prometheus.value("tuolaji_event_loop_lag_seconds_count") or 0) > 0
        # The start-up's full collection before its objects were frozen (tuolaji.server.heap), timed.
        assert (await prometheus.value('tuolaji_gc_pause_seconds_count{generation="2"}') or 0) >= 1

        async def rules_evaluated() -> bool:
            return all(rule["health"] == "ok" for rule in await prometheus.rules())

        await eventually(rules_evaluated, "every alert rule evaluated without error")
        names = {rule["name"] for rule in await prometheus.rules()}
        assert {"TuolajiNodeDown", "TuolajiTablesStalled", "TuolajiMoveLatencyHigh", "TuolajiRedisDown"} <= names
    finally:
        stop.set()
        await playing

    # Play stopped (the people's turns wait 60 s): the settlement counters match the stored hands.
    async def settlements_match() -> bool:
        return settled_by_metrics(await scraped(server.url)) == await settled_by_records(server.url, players)

    await eventually(settlements_match, "the settlement counters to match the stored hands")
    served = {family(name.partition("{")[0]) for name in await scraped(server.url)}
    named = set(re.findall(r"\btuolaji_\w+", ALERTS.read_text() + DASHBOARD.read_text()))
    assert {family(name) for name in named} <= served
    await spectator.close()
    assert server.errors() == []


async def test_metrics_are_refused_to_other_addresses_and_wrong_tokens(
    live_server_factory: LiveServerFactory, tmp_path: Path
) -> None:
    token = secrets.token_urlsafe(24)
    token_file = tmp_path / "metrics.token"
    token_file.write_text(token + "\n")
    behind_proxy = ("--forwarded-allow-ips", "127.0.0.1", "--metrics-allow-ips", "198.51.100.0/24")
    server = live_server_factory(args=(*FAST_ARGS, *behind_proxy, "--metrics-token-file", str(token_file)))
    outside = {"X-Forwarded-For": "203.0.113.9"}
    async with httpx.AsyncClient(base_url=server.url) as http:
        assert (await http.get("/metrics")).status_code == 200  # loopback
        refused = await http.get("/metrics", headers=outside)
        assert refused.status_code == 403
        assert refused.headers["x-content-type-options"] == "nosniff"
        message = refused.json()["error"]["message"]
        assert "203.0.113.9 is not allowed" in message and "bearer token" in message
        other = token[:-1] + ("y" if token.endswith("x") else "x")  # one character off, never the token itself
        wrong = await http.get("/metrics", headers={**outside, "Authorization": f"Bearer {other}"})
        assert wrong.status_code == 403
        assert (await http.get("/metrics", headers={**outside, "Authorization": "Basic " + token})).status_code == 403
        assert (await http.post("/metrics")).status_code == 405
    assert "tuolaji_moves_total" in await scraped(server.url, **outside, Authorization=f"Bearer {token}")
    assert "tuolaji_moves_total" in await scraped(server.url, **{"X-Forwarded-For": "198.51.100.7"})

    # A proxy the node does not trust: its requests could be anyone's, even from loopback.
    untrusting = live_server_factory(args=(*FAST_ARGS, "--metrics-allow-ips", "203.0.113.0/24"))
    async with httpx.AsyncClient(base_url=untrusting.url) as http:
        forwarded = await http.get("/metrics", headers=outside)
        assert forwarded.status_code == 403
        assert "proxy that is not in --forwarded-allow-ips" in forwarded.json()["error"]["message"]
        assert (await http.get("/metrics", headers={"Forwarded": "for=203.0.113.9"})).status_code == 403

    off = live_server_factory(args=(*FAST_ARGS, "--no-metrics"))
    async with httpx.AsyncClient(base_url=off.url) as http:
        answer = await http.get("/metrics")
        assert answer.status_code == 404 and "--no-metrics" in answer.json()["error"]["message"]
        assert (await http.get("/api/health")).status_code == 200
    assert server.errors() + untrusting.errors() + off.errors() == []


@pytest.mark.skipif(not PROMTOOL.exists(), reason=f"{PROMTOOL} is not installed (Debian's prometheus package)")
def test_the_sample_rules_and_scrape_config_pass_promtool() -> None:
    rules = subprocess.run([str(PROMTOOL), "check", "rules", str(ALERTS)], capture_output=True, text=True)
    assert rules.returncode == 0, rules.stdout + rules.stderr
    config = DEPLOY / "prometheus" / "prometheus.yml"
    checked = subprocess.run(
        [str(PROMTOOL), "check", "config", "--syntax-only", str(config)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    dashboard = json.loads(DASHBOARD.read_text())
    expressions = [target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])]
    assert expressions and all('instance=~"$instance"' in expression for expression in expressions)
