"""The checks of a chaos run after its faults: the database against what the people saw, the
balances against their lines, the tables' stalls and failovers, the nodes' logs.

- Every hand a person saw end is stored, once, at its table, with the result and settlement the
  person was shown, every trick the person saw and the cards it was dealt (the record replayed).
- No hand is stored or settled twice (one record per table and number; one ledger line per hand
  and account).
- Every balance equals its lines: the sum of the account's ``ledger`` lines, which must hold its
  hands' lines (``hand_players``); on a database without a ledger, the start silver plus the hand
  lines (:class:`Balances` has one implementation of each).
- A table that should move by itself (a hand on, or the next one due) moves again within the lease
  plus 5 s of any fault: the stalls, each laid at the door of the faults it overlapped.
- ``tuolaji admin audit``, the operator's own check of every balance against its ledger, finds
  nothing wrong (issue 43; run by the code under test, when it has a ledger).
- No error or traceback in a node's log that a fault does not explain (classified by kind).
"""

from __future__ import annotations

import asyncio
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import func, inspect, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession, create_async_engine

from tests.chaos.faults import Fault
from tests.chaos.watch import HandSeen, Mark
from tuolaji.server.hand_history import record_details
from tuolaji.store.models import Account, Hand, HandPlayer, LedgerLine, LiveTable
from tuolaji.store.records import hand_to_json

STALL_MARGIN = 5.0
"""A table may stand still for the lease plus this long after a fault (issue 48's target)."""
LOG_GRACE = 15.0
"""Seconds after a fault's cause is gone within which errors it explains may still be logged."""

# ---------------------------------------------------------------------------------------------- the store


@dataclass
class Findings:
    """What the checks found: counts by name, and the violations (kind → details)."""

    counts: Counter[str] = field(default_factory=Counter)
    violations: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def bad(self, kind: str, detail: str) -> None:
        self.violations[kind].append(detail)


class Balances(Protocol):
    """Where an account's expected balances come from."""

    name: str

    async def expected(self, connection: AsyncConnection, findings: Findings) -> dict[int, tuple[int, int]]:
        """Account → the (積分, silver) its lines add up to."""


class LedgerBalances:
    """The ``ledger`` table's lines (every change of a balance, with its cause); its hand and escape
    lines must be the hands' lines (``hand_players``), one per hand and account."""

    name = "ledger"

    async def expected(self, connection: AsyncConnection, findings: Findings) -> dict[int, tuple[int, int]]:
        sums = select(LedgerLine.account_id, func.sum(LedgerLine.points_delta), func.sum(LedgerLine.silver_delta))
        expected = {
            account: (int(p), int(s)) for account, p, s in await connection.execute(sums.group_by("account_id"))
        }
        hand_causes = LedgerLine.cause.in_(("hand", "escape"))
        doubled = (
            select(LedgerLine.hand_id, LedgerLine.account_id, func.count())
            .where(hand_causes)
            .group_by(LedgerLine.hand_id, LedgerLine.account_id)
            .having(func.count() > 1)
        )
        for hand_id, account_id, count in await connection.execute(doubled):
            findings.bad("hands settled twice", f"hand {hand_id}: {count} ledger lines for account {account_id}")
        ledger = select(LedgerLine.account_id, func.sum(LedgerLine.points_delta), func.sum(LedgerLine.silver_delta))
        from_ledger = {
            a: (int(p), int(s))
            for a, p, s in await connection.execute(ledger.where(hand_causes).group_by("account_id"))
        }
        for account_id, lines in (await _hand_line_sums(connection)).items():
            if from_ledger.get(account_id, (0, 0)) != lines:
                findings.bad(
                    "balance mismatches",
                    f"account {account_id}: hand lines {lines}, ledger's {from_ledger.get(account_id)}",
                )
        return expected


class HandLineBalances:
    """The start silver plus the hands' lines (``hand_players``): a database without a ledger."""

    name = "hand lines"

    def __init__(self, start_silver: int) -> None:
        self.start_silver = start_silver

    async def expected(self, connection: AsyncConnection, findings: Findings) -> dict[int, tuple[int, int]]:
        lines = await _hand_line_sums(connection)
        accounts = (await connection.execute(select(Account.id))).scalars()
        return {
            account: (lines.get(account, (0, 0))[0], self.start_silver + lines.get(account, (0, 0))[1])
            for account in accounts
        }


async def _hand_line_sums(connection: AsyncConnection) -> dict[int, tuple[int, int]]:
    sums = select(HandPlayer.account_id, func.sum(HandPlayer.points_delta), func.sum(HandPlayer.silver_delta))
    return {account: (int(p), int(s)) for account, p, s in await connection.execute(sums.group_by("account_id"))}


async def check_store(db_url: str, ends: Sequence[HandSeen], start_silver: int, findings: Findings) -> set[str]:
    """Every hand end seen against its record; records and balances against their lines. The
    tables still open."""
    engine = create_async_engine(db_url)
    try:
        async with engine.connect() as connection:
            still_open = set((await connection.execute(select(LiveTable.id).where(LiveTable.open))).scalars())
            tables = await connection.run_sync(lambda sync: set(inspect(sync).get_table_names()))
            balances: Balances = LedgerBalances() if "ledger" in tables else HandLineBalances(start_silver)
            findings.counts[f"balances checked against: {balances.name}"] = 1
            twice = select(Hand.table_id, Hand.number, func.count()).group_by(Hand.table_id, Hand.number)
            for table_id, number, count in await connection.execute(twice.having(func.count() > 1)):
                findings.bad("hands stored twice", f"table {table_id} hand {number}: {count} records")
            findings.counts["hands stored"] = (await connection.execute(select(func.count(Hand.id)))).scalar_one()
            expected = await balances.expected(connection, findings)
            accounts = await connection.execute(select(Account.id, Account.points, Account.silver))
            for account_id, points, silver in accounts:
                findings.counts["accounts checked"] += 1
                if expected.get(account_id, (0, 0)) != (points, silver):
                    have, lines = (points, silver), expected.get(account_id)
                    findings.bad("balance mismatches", f"account {account_id}: {have}, its lines say {lines}")
            await _check_ends(connection, ends, findings)
    finally:
        await engine.dispose()
    return still_open


async def _check_ends(connection: AsyncConnection, ends: Sequence[HandSeen], findings: Findings) -> None:
    ids = sorted({seen.hand_id for seen in ends if seen.hand_id is not None})
    records: dict[int, dict[str, Any]] = {}
    async with AsyncSession(bind=connection) as session:
        for start in range(0, len(ids), 500):
            rows = await session.execute(select(Hand).where(Hand.id.in_(ids[start : start + 500])))
            records.update({row.id: hand_to_json(row) for row in rows.scalars()})
    details: dict[int, dict[str, Any]] = {}
    for seen in ends:
        assert seen.hand_id is not None
        findings.counts["hand ends checked"] += 1
        record = records.get(seen.hand_id)
        if record is None or record["table_id"] != seen.table:
            findings.bad("hands seen ending but not stored", f"{seen.table} hand {seen.hand}: record {seen.hand_id}")
            continue
        if (record["result"], record["settlement"]) != (seen.result, seen.settlement):
            findings.bad("hands stored otherwise than seen", f"record {seen.hand_id}: result or settlement")
        if seen.hand_id not in details:
            details[seen.hand_id] = record_details(record)
        replay = details[seen.hand_id]
        for index, trick in seen.tricks.items():
            findings.counts["tricks checked"] += 1
            if index >= len(replay["tricks"]) or replay["tricks"][index] != trick:
                findings.bad("tricks seen otherwise than stored", f"record {seen.hand_id} trick {index}")
        if seen.dealt is not None and seen.seat is not None:
            findings.counts["dealt hands checked"] += 1
            if Counter(replay["hands"][seen.seat]) != seen.dealt:
                findings.bad("tricks seen otherwise than stored", f"record {seen.hand_id}: seat {seen.seat}'s cards")


# ---------------------------------------------------------------------------------------------- stalls


@dataclass(frozen=True)
class Stall:
    """A table standing still from ``start`` to ``end`` while it should have moved."""

    table: str
    start: float
    end: float
    note: str = ""

    @property
    def seconds(self) -> float:
        return self.end - self.start


def stalls(marks: dict[str, list[Mark]], until: float, still_open: set[str], away: bool = False) -> list[Stall]:
    """Every stretch a table should have moved (its mark busy) before its next mark, or before
    ``until`` after its last mark if it is still open then (a table that closed while nobody of it
    was there to see, its people removed or gone, stopped with its last mark). With ``away``: every
    stretch it waited instead for a person away since a takeover or restart (R46: a full turn clock)."""
    found = []
    for table, seen in marks.items():
        ordered = sorted(seen, key=lambda mark: mark.at)
        for mark, after in zip(ordered, [*ordered[1:], None], strict=True):
            counted = mark.away if away else mark.busy
            if not counted or mark.at >= until or (after is None and table not in still_open):
                continue
            found.append(Stall(table, mark.at, min(after.at if after is not None else until, until), mark.note))
    return found


def faults_during(stall: Stall, faults: Sequence[Fault], lease: float) -> list[Fault]:
    """The faults a stall overlaps, each counted until the lease plus :data:`STALL_MARGIN` after its end."""
    return [fault for fault in faults if fault.start <= stall.end and stall.start <= fault.end + lease + STALL_MARGIN]


def longest_stalls(found: Iterable[Stall], faults: Sequence[Fault], lease: float) -> dict[str, Stall]:
    """The longest stall laid at each fault kind's door (``none``: during no fault)."""
    longest: dict[str, Stall] = {}
    for stall in found:
        for kind in {fault.kind for fault in faults_during(stall, faults, lease)} or {"none"}:
            if kind not in longest or stall.seconds > longest[kind].seconds:
                longest[kind] = stall
    return longest


def failovers(marks: dict[str, list[Mark]], faults: Sequence[Fault], until: float) -> dict[str, list[float]]:
    """For ``kill`` and ``stop``: seconds from the fault to the first move of each table the node ran."""
    found: dict[str, list[float]] = defaultdict(list)
    for fault in faults:
        if fault.kind not in ("kill", "stop"):
            continue
        for table in fault.tables:
            after = [mark.at for mark in marks.get(table, []) if mark.at > fault.start]
            found[fault.kind].append((min(after) if after else until) - fault.start)
    return found


def spread(values: Sequence[float]) -> str:
    """``median … max`` of ``values`` in seconds (or a dash)."""
    if not values:
        return "–"
    return f"median {statistics.median(values):.1f} s, max {max(values):.1f} s (n = {len(values)})"


# ---------------------------------------------------------------------------------------------- logs

_RECORD = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) ([A-Z]+) ([\w.]+): (.*)$")
_UVICORN = re.compile(r"^(ERROR|CRITICAL|WARNING|INFO):\s+(.*)$")
_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(: |$)")
_MARK = re.compile(r"^=== chaos: node started at ([\d.]+)$")
_DATABASE = re.compile(r"sqlalchemy|asyncpg|database|table log|its log|ConnectionRefused|ConnectionReset|Timeout", re.I)
_REDIS = re.compile(r"redis", re.I)
_EXPLAINS = {
    "database": {"pg_fast", "pg_immediate", "drop", "delay", "stop"},
    "redis": {"redis", "drop", "delay", "stop"},
}
_ON_THE_NODE = frozenset({"drop", "delay", "stop", "kill"})


@dataclass
class LogRecord:
    """An error (or a record with a traceback) in a node's log."""

    node: str
    at: float
    level: str
    logger: str
    message: str
    exception: str = ""

    @property
    def kind(self) -> str:
        """The record without what varies (ids, numbers), and its exception's class."""
        text = re.sub(r"\bt[0-9a-f]{6,}\b", "T", self.message)
        text = re.sub(r"redis://\S+|postgresql\S*", "URL", text)
        text = re.sub(r"\d+(\.\d+)?", "N", text)[:120]
        exception = self.exception.split(":", 1)[0]
        return f"{self.logger}: {text}" + (f" [{exception}]" if exception else "")


def read_log(node: str, path: Path) -> list[LogRecord]:
    """The errors of one node's log, and every record with a traceback."""
    records: list[LogRecord] = []
    current: LogRecord | None = None
    last_at = 0.0
    traceback = False
    for line in path.read_text(errors="replace").splitlines():
        mark, match, plain = _MARK.match(line), _RECORD.match(line), _UVICORN.match(line)
        if match or plain or mark:
            if current is not None and (current.level in ("ERROR", "CRITICAL") or traceback):
                records.append(current)
            current, traceback = None, False
            if match:
                last_at = datetime.strptime(match[1], "%Y-%m-%d %H:%M:%S,%f").timestamp()
                current = LogRecord(node, last_at, match[2], match[3], match[4])
            elif plain:
                current = LogRecord(node, last_at, plain[1], "uvicorn", plain[2])
            continue
        if current is not None and line.startswith("Traceback"):
            traceback = True
        elif current is not None and traceback and _EXCEPTION.match(line):
            current.exception = line
    if current is not None and (current.level in ("ERROR", "CRITICAL") or traceback):
        records.append(current)
    return records


def explained(record: LogRecord, faults: Sequence[Fault]) -> bool:
    """Whether a fault explains ``record``: one of a kind that causes such errors (database, Redis), on
    that node for a node's fault, from its start until :data:`LOG_GRACE` after its end."""
    text = f"{record.logger} {record.message} {record.exception}"
    causes = set()
    if _REDIS.search(text):
        causes |= _EXPLAINS["redis"]
    if _DATABASE.search(text):
        causes |= _EXPLAINS["database"]
    return any(
        fault.kind in causes
        and fault.start - 1 <= record.at <= fault.end + LOG_GRACE
        and (fault.kind not in _ON_THE_NODE or fault.node == record.node)
        for fault in faults
    )


def check_logs(logs: dict[str, Path], faults: Sequence[Fault], findings: Findings) -> Counter[str]:
    """Every error of the nodes' logs by kind; the ones no fault explains are violations."""
    kinds: Counter[str] = Counter()
    for node, path in logs.items():
        for record in read_log(node, path):
            kinds[record.kind] += 1
            findings.counts["errors logged"] += 1
            if not explained(record, faults):
                findings.bad("errors no fault explains", f"{node} at {record.at:.1f}: {record.kind}")
    return kinds


async def check_audit(python: str, code: Path, db_url: str, findings: Findings) -> None:
    """Run the code under test's ``tuolaji admin audit`` on ``db_url`` (a database with a ledger):
    a mismatch it reports, or its failing, is a violation."""
    process = await asyncio.create_subprocess_exec(
        python, "-m", "tuolaji.cli", "admin", "audit", "--db", db_url,
        cwd=code, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    output, _ = await process.communicate()
    findings.counts["tuolaji admin audit runs"] += 1
    if process.returncode != 0:
        findings.bad("tuolaji admin audit", output.decode(errors="replace").strip()[-2000:])
