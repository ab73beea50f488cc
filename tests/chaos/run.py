"""One chaos run: the services, the nodes, the people, the faults, the checks, the report.

:func:`run_chaos` takes a :class:`ChaosConfig` and gives a :class:`Report` whose
:attr:`~Report.violations` are empty when every invariant held.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.chaos.checks import (
    STALL_MARGIN,
    Findings,
    Stall,
    check_audit,
    check_logs,
    check_store,
    failovers,
    faults_during,
    longest_stalls,
    spread,
    stalls,
)
from tests.chaos.faults import KINDS, Cluster, Fault, Faults
from tests.chaos.nodes import Node
from tests.chaos.people import TABLE_OPTIONS, Crowd, Habits, make_slots
from tests.chaos.proxy import Proxy, Route
from tests.chaos.services import Postgres, RedisProcess
from tests.chaos.watch import Watch
from tests.live_server import REPO, free_port

START_SILVER = 1000


@dataclass(frozen=True)
class ChaosConfig:
    """A chaos run: ``seconds`` of faults (``gap`` seconds apart) on ``nodes`` nodes of the source tree
    ``code`` with ``tables`` tables, seeded by ``seed``; ``order``: these kinds in this order instead
    of drawn ones."""

    seed: int = 1
    seconds: float = 1800.0
    nodes: int = 3
    tables: int = 12
    lease: float = 5.0
    gap: tuple[float, float] = (8.0, 25.0)
    order: tuple[str, ...] | None = None
    code: Path = REPO
    python: str = sys.executable
    habits: Habits = field(default_factory=Habits)
    bot_delay: float = 0.1
    next_hand_delay: float = 0.3
    review_seconds: float = 0.3
    """The tables' review window (R33; a person's 撤牌 spree needs one when it follows last)."""
    warmup: float = 10.0
    keep: Path | None = None
    """A folder for the nodes' and PostgreSQL's logs to stay in (else a temporary one, removed)."""


@dataclass
class Report:
    """What a run did and found."""

    config: ChaosConfig
    faults: list[Fault]
    findings: Findings
    watch_counts: Counter[str]
    stall_limit: float
    longest: dict[str, tuple[str, float]]
    away_limit: float
    away_waits: list[Stall]
    """Every stretch a table waited on a person away since a takeover or restart (R46)."""
    failover: dict[str, list[float]]
    error_kinds: Counter[str]
    seconds: float
    workdir: Path

    @property
    def violations(self) -> dict[str, list[str]]:
        """Every invariant broken, with its cases (empty: none)."""
        return {kind: cases for kind, cases in self.findings.violations.items() if cases}

    def lines(self) -> list[str]:
        """The summary, for people."""
        c, counts = self.config, self.findings.counts
        kinds = Counter(fault.kind for fault in self.faults)
        out = [
            f"chaos run: seed {c.seed}, {self.seconds:.0f} s, {c.nodes} nodes, {c.tables} tables, lease {c.lease:g} s, "
            f"code {c.code}",
            f"faults: {len(self.faults)} — " + ", ".join(f"{kind} {kinds[kind]}" for kind in KINDS),
            f"hands: {counts['hands stored']} stored; {self.watch_counts['hand ends seen']} hand ends seen by people "
            f"({counts['hand ends checked']} checked, {counts['tricks checked']} tricks, "
            f"{counts['dealt hands checked']} dealt hands); {self.watch_counts['states']} states "
            f"({self.watch_counts['observer states']} of them to the tables' observers), "
            f"{self.watch_counts['gaps']} gaps (sync), {self.watch_counts['stale states dropped']} stale states "
            f"dropped, {self.watch_counts['connections']} connections, "
            f"{self.watch_counts['people replaced']} people replaced (escape or 撤牌 over 400), "
            f"{self.watch_counts['welcomed without their seat']} welcomed without their seat (R46, or the bus down)",
            f"tuolaji admin audit runs: {counts['tuolaji admin audit runs']}",
            "invariants (violations):",
        ]
        for kind in INVARIANTS:
            cases = self.findings.violations.get(kind, [])
            out.append(f"  {kind:<44} {len(cases)}" + (f"   e.g. {cases[0]}" if cases else ""))
        out.append(f"failover (a node's tables, first move after the fault): kill {spread(self.failover['kill'])}")
        out.append(f"                                                          stop {spread(self.failover['stop'])}")
        out.append(f"longest stall by fault kind (limit {self.stall_limit:g} s):")
        for kind in (*KINDS, "none"):
            if kind in self.longest:
                table, seconds = self.longest[kind]
                out.append(f"  {kind:<13} {seconds:5.1f} s  ({table})")
        longest_wait = max(self.away_waits, key=lambda wait: wait.seconds, default=None)
        out.append(
            f"waits on a person away since a takeover, their turn's full clock (R46; limit {self.away_limit:g} s): "
            f"{len(self.away_waits)}"
            + (f", longest {longest_wait.seconds:.1f} s ({longest_wait.table})" if longest_wait is not None else "")
        )
        out.append(f"errors logged by kind ({counts['errors logged']}):")
        out += [f"  {count:5d}  {kind}" for kind, count in self.error_kinds.most_common()]
        out.append(f"logs: {self.workdir}")
        return out


INVARIANTS = (
    "hands seen ending but not stored",
    "hand ends without their record",
    "hands stored otherwise than seen",
    "tricks seen otherwise than stored",
    "hands stored twice",
    "hands settled twice",
    "balance mismatches",
    "two different hands under one number",
    "two different tricks under one number",
    "seq backwards without a full state",
    "states meant for another client",
    "first state of a new owner not full",
    "tuolaji admin audit",
    "stalls over the limit",
    "waits on an away person over the turn clock",
    "errors no fault explains",
)


def node_command(config: ChaosConfig, name: str, db_url: str, redis_url: str) -> tuple[str, ...]:
    """``tuolaji serve`` for node ``name`` of the run (every option but the port)."""
    return (
        config.python, "-m", "tuolaji.server", "--host", "127.0.0.1", "--db", db_url, "--redis", redis_url,
        "--node-name", name, "--lease-seconds", str(config.lease), "--bot-delay", str(config.bot_delay),
        "--next-hand-delay", str(config.next_hand_delay), "--start-silver", str(START_SILVER),
        "--account-rate", "0", "--guests-per-hour", "0", "--max-connections-per-address", "0",
        "--tables-per-address", "0", "--lobby-per-address", "0", "--log-level", "info",
    )  # fmt: skip


@contextlib.asynccontextmanager
async def cluster_of(config: ChaosConfig, workdir: Path, watch: Watch, rng: random.Random) -> AsyncIterator[Cluster]:
    """PostgreSQL, Redis, the proxy and the nodes, started; everything stopped afterwards."""
    postgres = await asyncio.to_thread(Postgres(workdir, free_port()).start)
    redis = await asyncio.to_thread(RedisProcess(workdir).start)
    names = [f"n{index + 1}" for index in range(config.nodes)]
    routes = [Route(name, free_port(), target) for name in names for target in (postgres.port, redis.port)]
    proxy = await Proxy(routes).start()
    nodes = [
        Node(
            name,
            free_port(),
            node_command(
                config,
                name,
                f"postgresql+asyncpg://postgres@127.0.0.1:{proxy.port(name, postgres.port)}/postgres",
                f"redis://127.0.0.1:{proxy.port(name, redis.port)}/0",
            ),
            config.code,
            workdir / f"{name}.log",
        )
        for name in names
    ]
    options = {**TABLE_OPTIONS, "review_seconds": config.review_seconds}
    crowd = Crowd(nodes, watch, config.habits, rng, workdir / "people.log", options)
    try:
        await asyncio.gather(*(node.start() for node in nodes))
        yield Cluster(postgres, redis, proxy, nodes, crowd, config.lease)
    finally:
        await crowd.stop()
        for node in nodes:
            await asyncio.to_thread(node.stop)
        await proxy.close()
        redis.kill()
        await asyncio.to_thread(postgres.stop)


async def run_chaos(config: ChaosConfig) -> Report:
    """One run; its report (the logs stay in ``config.keep`` if given)."""
    with contextlib.ExitStack() as stack:
        workdir = config.keep or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tuolaji-chaos-")))
        workdir.mkdir(parents=True, exist_ok=True)
        return await _run(config, workdir)


async def _run(config: ChaosConfig, workdir: Path) -> Report:
    rng = random.Random(config.seed)
    watch = Watch()
    began = time.time()
    async with cluster_of(config, workdir, watch, rng) as cluster:
        await cluster.crowd.fill(make_slots(config.tables, rng))
        await asyncio.sleep(config.warmup)
        faults = Faults(cluster, random.Random(rng.getrandbits(32)))
        await faults.run(config.seconds, config.gap, config.order)
        await asyncio.sleep(config.lease + STALL_MARGIN)  # the last fault's tables move again meanwhile
        ended = time.time()
        await cluster.crowd.stop()
        findings = Findings()
        still_open = await check_store(cluster.postgres.url, watch.ends, START_SILVER, findings)
        if findings.counts["balances checked against: ledger"]:
            await check_audit(config.python, config.code, cluster.postgres.url, findings)
        logs = {node.name: node.log_path for node in cluster.nodes}
    return _report(config, workdir, watch, faults.done, findings, logs, (began, ended), still_open)


def _write_record(workdir: Path, watch: Watch, faults: Sequence[Fault]) -> None:
    """The faults and every table's marks, as JSON in the run's folder (for finding out why)."""
    record = {
        "faults": [dataclasses.asdict(fault) for fault in faults],
        "marks": {table: [dataclasses.astuple(mark) for mark in marks] for table, marks in watch.marks.items()},
        "violations": [dataclasses.astuple(violation) for violation in watch.violations],
    }
    (workdir / "record.json").write_text(json.dumps(record))


def _report(
    config: ChaosConfig,
    workdir: Path,
    watch: Watch,
    faults: Sequence[Fault],
    findings: Findings,
    logs: dict[str, Path],
    span: tuple[float, float],
    still_open: set[str],
) -> Report:
    began, ended = span
    _write_record(workdir, watch, faults)
    for violation in watch.violations:
        findings.bad(violation.kind, violation.detail)
    limit = config.lease + STALL_MARGIN
    found = stalls(watch.marks, ended, still_open)
    for stall in found:
        if stall.seconds > limit:
            kinds = sorted({fault.kind for fault in faults_during(stall, faults, config.lease)}) or ["none"]
            findings.bad(
                "stalls over the limit",
                f"{stall.table} {stall.seconds:.1f} s from {stall.start:.1f} ({', '.join(kinds)}; {stall.note})",
            )
    longest = {
        kind: (stall.table, stall.seconds) for kind, stall in longest_stalls(found, faults, config.lease).items()
    }
    away_limit = TABLE_OPTIONS["turn_seconds"] + STALL_MARGIN
    waits = stalls(watch.marks, ended, still_open, away=True)
    for wait in waits:
        if wait.seconds > away_limit:
            findings.bad(
                "waits on an away person over the turn clock",
                f"{wait.table} {wait.seconds:.1f} s from {wait.start:.1f} ({wait.note})",
            )
    error_kinds = check_logs(logs, faults, findings)
    return Report(
        config,
        list(faults),
        findings,
        watch.counts,
        limit,
        longest,
        away_limit,
        waits,
        failovers(watch.marks, faults, ended),
        error_kinds,
        ended - began,
        workdir,
    )
