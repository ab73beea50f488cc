"""``tuolaji arena A B``: duplicate matches between two bots.

Every deal is played twice from the same cards, level and dealer: once with A in seats 0 and 2 and
B in seats 1 and 3, once with the teams swapped, so the luck of the cards cancels out. In both
duplicates the bidding is done by the heuristic bidding policy for all four seats, so the trump
suit is the same and only the card play differs (the arena measures play strength, not bidding).
Deal ``i`` is dealt by seat ``i % 4`` at a level drawn from the arena seed (not a first hand, R19);
a deal nobody bids on is skipped and replaced by the next seed.

Reported for A: hands won, mean level change per hand (+levels when A's team wins the hand,
−levels when it loses, R36), mean score difference per deal (the attackers' score when A attacks
minus the attackers' score when B attacks, same cards), each with a 95% confidence interval over
deals (normal approximation), and the time per move of each bot.

``--per-deal PATH`` writes each deal's outcome to PATH as soon as it is done (JSON lines after a
first line naming the arena) and reports each deal on stderr, so a long run can be followed;
``--resume`` reads PATH back and plays on after its last deal, so a stopped run loses nothing and
gives the same deals and report as one that was never stopped.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tuolaji.bots import ALIASES, BOT_NAMES, canonical_name, make_bot
from tuolaji.bots.base import Bot
from tuolaji.bots.policy.bidding import HEURISTIC_BIDDERS
from tuolaji.game.actions import Play
from tuolaji.game.driver import deal_and_bid, play_to_end
from tuolaji.game.options import PRESET_NAMES, TableOptions
from tuolaji.game.round import Round, RoundSetup
from tuolaji.game.view import RoundResult
from tuolaji.native import build

Z95 = 1.959964


@dataclass(frozen=True)
class Entrant:
    """A bot in the arena: its name and its :func:`~tuolaji.bots.make_bot` options."""

    name: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def named(cls, name: str, budget_ms: float) -> Entrant:
        """The bot called ``name``, with the budget per move if it is the search."""
        key = canonical_name(name)
        return cls(key, {"budget_ms": budget_ms} if key == "search" else {})

    def make(self, seed: int) -> Bot:
        return make_bot(self.name, seed, **self.options)


@dataclass
class HandRecord:
    """One played hand: the result and each seat's move times (seconds)."""

    result: RoundResult
    move_times: list[list[float]] = field(default_factory=lambda: [[], [], [], []])


def play_round(round_: Round, bots: Sequence[Bot]) -> HandRecord:
    """Play a round whose bidding is closed to its end; ``bots[seat]`` moves for ``seat``."""
    times: list[list[float]] = [[], [], [], []]

    def move(seat: int) -> Play:
        view = round_.view(seat)
        start = time.perf_counter()
        action = bots[seat].choose(view)
        times[seat].append(time.perf_counter() - start)
        if not isinstance(action, Play):
            raise RuntimeError(f"bot {bots[seat].name} in seat {seat} returned {action!r} on its turn")
        return action

    play_to_end(round_, move)
    assert round_.result is not None
    return HandRecord(round_.result, times)


def deal_setup(seed: int, index: int, preset: str) -> RoundSetup:
    """The setup of deal ``index`` of an arena: its own shuffle, dealer ``index % 4``, a drawn level."""
    rng = random.Random(f"arena:{seed}:{index}")
    return RoundSetup(
        seed=rng.getrandbits(63),
        options=TableOptions(preset=preset, illegal_follow="reject", deal_interval_ms=0),
        dealer=index % 4,
        level=rng.randint(1, 12),
    )


@dataclass
class DealOutcome:
    """Both duplicates of one deal, from A's side."""

    index: int
    won: list[bool]
    levels: list[int]
    score_diff: int
    times_a: list[float]
    times_b: list[float]


def play_deal(a: Entrant, b: Entrant, seed: int, index: int, preset: str) -> DealOutcome | None:
    """Play deal ``index`` twice (A in seats 0/2, then in 1/3); None if nobody bid (redeal)."""
    setup = deal_setup(seed, index, preset)
    won: list[bool] = []
    levels: list[int] = []
    scores: dict[bool, int] = {}
    times_a: list[float] = []
    times_b: list[float] = []
    for a_team in (0, 1):
        bots = [(a if seat % 2 == a_team else b).make(seed * 1000 + index * 4 + seat) for seat in range(4)]
        round_ = Round(setup)
        if not deal_and_bid(round_, HEURISTIC_BIDDERS):
            return None
        record = play_round(round_, bots)
        result = record.result
        a_won = result.winning_team == a_team
        won.append(a_won)
        levels.append(result.levels if a_won else -result.levels)
        assert round_.dealer is not None
        scores[round_.dealer % 2 != a_team] = result.score
        for seat in range(4):
            (times_a if seat % 2 == a_team else times_b).extend(record.move_times[seat])
    return DealOutcome(index, won, levels, scores[True] - scores[False], times_a, times_b)


DealArgs = tuple[Entrant, Entrant, int, int, str]


def _play_deal_args(args: DealArgs) -> DealOutcome | None:
    return play_deal(*args)


def interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and 95% half-width (normal approximation) of ``values``."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(variance / n)


def summarize(a: str, b: str, outcomes: Sequence[DealOutcome], seconds: float) -> str:
    """The arena report for A (see the module docstring)."""
    hands = 2 * len(outcomes)
    won = sum(sum(o.won) for o in outcomes)
    win_mean, win_half = interval([sum(o.won) / 2 for o in outcomes])
    lvl_mean, lvl_half = interval([sum(o.levels) / 2 for o in outcomes])
    diff_mean, diff_half = interval([o.score_diff for o in outcomes])
    times_a = [t for o in outcomes for t in o.times_a]
    times_b = [t for o in outcomes for t in o.times_b]
    lines = [
        f"arena {a} (A) vs {b} (B): {len(outcomes)} duplicate deals = {hands} hands in {seconds:.1f} s",
        f"A hands won: {won}/{hands} = {100 * win_mean:.1f}% ± {100 * win_half:.1f}%",
        f"A level change per hand: {lvl_mean:+.3f} ± {lvl_half:.3f}",
        f"A score difference per deal (A attacking − B attacking): {diff_mean:+.1f} ± {diff_half:.1f}",
        _timing("A", a, times_a),
        _timing("B", b, times_b),
    ]
    return "\n".join(lines)


def _timing(side: str, name: str, times: Sequence[float]) -> str:
    if not times:
        return f"{side} ({name}): no moves"
    ordered = sorted(times)
    mean = 1000 * sum(ordered) / len(ordered)
    p99 = 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    worst = 1000 * ordered[-1]
    return f"{side} ({name}) time per move: mean {mean:.2f} ms, p99 {p99:.2f} ms, max {worst:.2f} ms"


def run_arena(
    a: str | Entrant,
    b: str | Entrant,
    deals: int,
    seed: int,
    preset: str = "nanning",
    budget_ms: int = 300,
    jobs: int = 1,
    on_outcome: Callable[[DealOutcome], None] | None = None,
    first: int = 0,
) -> tuple[list[DealOutcome], float]:
    """Play ``deals`` duplicate deals (skipping redeals) from deal ``first`` on; the outcomes and the
    wall time. A bot given by name gets ``budget_ms`` per move if it is the search; an
    :class:`Entrant` brings its own options. ``on_outcome`` is called with each outcome as soon as it
    and every earlier deal are done (in deal order), so a long run can be followed and what it has
    done kept if it is stopped (and resumed from the deal after the last one kept)."""
    a = a if isinstance(a, Entrant) else Entrant.named(a, budget_ms)
    b = b if isinstance(b, Entrant) else Entrant.named(b, budget_ms)
    start = time.perf_counter()
    outcomes: list[DealOutcome] = []
    index = first
    with ProcessPoolExecutor(jobs) if jobs > 1 else _Inline() as pool:
        while len(outcomes) < deals:
            batch: list[DealArgs] = [(a, b, seed, i, preset) for i in range(index, index + deals - len(outcomes))]
            index += len(batch)
            for outcome in pool.map(_play_deal_args, batch):
                if outcome is not None:
                    outcomes.append(outcome)
                    if on_outcome is not None:
                        on_outcome(outcome)
    return outcomes, time.perf_counter() - start


class _Inline:
    """A stand-in for a process pool that maps in this process."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn: object, items: Sequence[DealArgs]) -> Iterator[DealOutcome | None]:
        return (_play_deal_args(item) for item in items)


def log_header(a: Entrant, b: Entrant, seed: int, preset: str) -> dict[str, Any]:
    """The first line of a per-deal file: what decides its deals and moves (as JSON reads it back)."""
    arena = {"a": a.name, "a_options": dict(a.options), "b": b.name, "b_options": dict(b.options)}
    return {"arena": json.loads(json.dumps({**arena, "seed": seed, "preset": preset}))}


class DealLog:
    """A per-deal file being written: its header line first, then one JSON line per outcome, each
    flushed as it is written (:func:`read_log` reads it back)."""

    def __init__(self, path: str, header: Mapping[str, Any], append: bool = False) -> None:
        self.path = path
        self._file = open(path, "a" if append else "w", encoding="utf-8")  # noqa: SIM115 (DealLog.close closes it)
        if not append:
            self._write(header)

    def _write(self, row: Mapping[str, Any]) -> None:
        self._file.write(json.dumps(row) + "\n")
        self._file.flush()

    def record(self, outcome: DealOutcome) -> None:
        self._write(dataclasses.asdict(outcome))
        print(f"deal {outcome.index}: {sum(outcome.levels) / 2:+.1f} levels per hand", file=sys.stderr, flush=True)

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> DealLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_log(path: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """A per-deal file's header (None if it has none) and its deals in order, each with at least an
    ``index`` and both duplicates' ``levels``; ``ValueError`` naming the file and line otherwise."""
    header: dict[str, Any] | None = None
    rows: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{path} line {number}: not JSON ({error.msg})") from None
            if number == 1 and isinstance(row, dict) and "arena" in row:
                header = row
                continue
            levels = row.get("levels") if isinstance(row, dict) else None
            if not (
                isinstance(row, dict)
                and isinstance(row.get("index"), int)
                and isinstance(levels, list)
                and len(levels) == 2
                and all(isinstance(level, int) for level in levels)
            ):
                raise ValueError(f"{path} line {number}: not a deal's outcome (an index and two levels)")
            if rows and row["index"] <= rows[-1]["index"]:
                raise ValueError(f"{path} line {number}: deal {row['index']} is not after deal {rows[-1]['index']}")
            rows.append(row)
    return header, rows


@dataclass(frozen=True)
class PairedGain:
    """One run's gain in levels per hand over another's on the deals both played (from their
    per-deal files): the mean of the deal-by-deal differences and its 95% half-width."""

    deals: int
    mean: float
    half: float
    alike: int
    """Deals on which both runs' level changes were the same."""

    @property
    def error(self) -> float:
        """The standard error of :attr:`mean`."""
        return self.half / Z95


def paired_gain(rows: Sequence[Mapping[str, Any]], base: Sequence[Mapping[str, Any]]) -> PairedGain | None:
    """The gain of the run with per-deal ``rows`` over the one with ``base`` (see :func:`read_log`);
    None if they share no deal. Far narrower than the difference of two separate intervals when the
    two runs play most moves alike."""
    return pooled_gain([(rows, base)])


def pooled_gain(
    pairs: Sequence[tuple[Sequence[Mapping[str, Any]], Sequence[Mapping[str, Any]]]],
) -> PairedGain | None:
    """The gain over every pair ``(rows, base)`` of runs of the same deals (a pair per seed: deals
    are paired within a pair only), each deal both runs of its pair played counting once; None if
    no pair shares a deal."""
    diffs: list[float] = []
    for rows, base in pairs:
        levels = {row["index"]: sum(row["levels"]) / 2 for row in base}
        diffs += [sum(row["levels"]) / 2 - levels[row["index"]] for row in rows if row["index"] in levels]
    if not diffs:
        return None
    mean, half = interval(diffs)
    return PairedGain(len(diffs), mean, half, sum(diff == 0 for diff in diffs))


def check_paired(
    new: str, new_header: Mapping[str, Any] | None, base: str, base_header: Mapping[str, Any] | None
) -> None:
    """``ValueError`` unless the per-deal files ``new`` and ``base`` (with the headers
    :func:`read_log` gave) deal the same cards against the same opponent: the same seed, preset and
    bot B. A file without a header (an older run) is taken on trust."""
    if new_header is None or base_header is None:
        return
    ours, theirs = new_header["arena"], base_header["arena"]
    for key in ("seed", "preset", "b", "b_options"):
        if ours.get(key) != theirs.get(key):
            raise ValueError(
                f"{new} and {base} are not runs of the same deals: {key} {ours.get(key)!r} against {theirs.get(key)!r}"
            )


def resumed_outcomes(path: str, header: Mapping[str, Any]) -> list[DealOutcome]:
    """The outcomes a per-deal file written by the arena ``header`` names holds, to play on from;
    ``ValueError`` if it was written by another arena or is not a whole per-deal file."""
    found, rows = read_log(path)
    if found != header:
        raise ValueError(f"--resume {path}: written by another arena ({found}), not {header}")
    try:
        return [DealOutcome(**row) for row in rows]
    except TypeError:
        raise ValueError(f"--resume {path}: a deal lacks the fields `tuolaji arena --per-deal` writes") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    names = [*BOT_NAMES, *ALIASES]
    parser.add_argument("a", choices=names, help="bot A (the one reported on)")
    parser.add_argument("b", choices=names, help="bot B")
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals (each played twice; default 100)")
    parser.add_argument("--seed", type=int, default=0, help="arena seed (default 0)")
    parser.add_argument("--preset", choices=PRESET_NAMES, default="nanning", help="rule preset (§14)")
    parser.add_argument("--budget-ms", type=int, default=300, help="search bot budget per move (default 300)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--per-deal", metavar="PATH", help="write each deal's outcome to PATH as it is done")
    parser.add_argument("--resume", action="store_true", help="play on after the last deal of --per-deal PATH")


def run(args: argparse.Namespace) -> int:
    if args.deals < 1 or args.jobs < 1 or args.budget_ms < 1:
        raise SystemExit("arena: --deals, --jobs and --budget-ms must be at least 1")
    if args.resume and not args.per_deal:
        raise SystemExit("arena: --resume needs --per-deal PATH, the file to play on from")
    a, b = Entrant.named(args.a, args.budget_ms), Entrant.named(args.b, args.budget_ms)
    outcomes, seconds = run_logged(a, b, args.deals, args.seed, args.preset, args.jobs, args.per_deal, args.resume)
    print(summarize(args.a, args.b, outcomes, seconds))
    print(f"rules and bots: {build()} build (tuolaji/native.py)")
    return 0


def run_logged(
    a: Entrant,
    b: Entrant,
    deals: int,
    seed: int,
    preset: str,
    jobs: int,
    path: str | None,
    resume: bool = False,
) -> tuple[list[DealOutcome], float]:
    """:func:`run_arena`, each outcome written to the per-deal file ``path`` (if any) as it is done;
    with ``resume``, the deals already in ``path`` are kept and the run plays on after the last of
    them (the time is this run's). ``SystemExit`` naming the file if it cannot be resumed."""
    if path is None:
        return run_arena(a, b, deals, seed, preset, jobs=jobs)
    header = log_header(a, b, seed, preset)
    kept: list[DealOutcome] = []
    if resume:
        try:
            kept = resumed_outcomes(path, header)
        except (OSError, ValueError) as error:
            raise SystemExit(f"arena: {error}") from None
    first = kept[-1].index + 1 if kept else 0
    with DealLog(path, header, append=resume) as log:
        played, seconds = run_arena(
            a, b, deals - len(kept), seed, preset, jobs=jobs, on_outcome=log.record, first=first
        )
    return kept + played, seconds
