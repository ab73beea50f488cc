"""The arena command: duplicate deals, the report's lines, its argument checks."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from tuolaji.bots import arena


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    arena.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.run(parse("normal", "easy", "--deals", "2", "--seed", "3", "--preset", "guigang")) == 0
    out = capsys.readouterr().out
    assert "2 duplicate deals = 4 hands" in out
    for line in ("A hands won:", "A level change per hand:", "A score difference per deal", "time per move"):
        assert line in out


def test_duplicates_share_cards_and_dealer() -> None:
    outcome = arena.play_deal(arena.Entrant("random"), arena.Entrant("random"), 1, 0, "nanning")
    assert outcome is not None
    assert len(outcome.won) == len(outcome.levels) == 2
    setup = arena.deal_setup(1, 5, "fourdeck")
    assert setup == arena.deal_setup(1, 5, "fourdeck") and setup.dealer == 1


def test_bad_arguments() -> None:
    with pytest.raises(SystemExit):
        arena.run(parse("random", "random", "--deals", "0"))


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_outcome_is_reported_in_deal_order_as_it_is_done(jobs: int) -> None:
    seen: list[arena.DealOutcome] = []
    outcomes, _ = arena.run_arena("random", "random", 4, 11, jobs=jobs, on_outcome=seen.append)
    assert seen == outcomes and len(seen) == 4
    assert [o.index for o in seen] == sorted(o.index for o in seen)


def results(outcomes: list[arena.DealOutcome]) -> list[tuple[int, list[bool], list[int], int]]:
    """What decides a report besides the move times."""
    return [(o.index, o.won, o.levels, o.score_diff) for o in outcomes]


def test_per_deal_file_is_written_as_deals_are_done(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deals.jsonl"
    assert arena.run(parse("random", "heuristic", "--deals", "3", "--seed", "5", "--per-deal", str(path))) == 0
    header, rows = arena.read_log(str(path))
    assert header == arena.log_header(arena.Entrant("random"), arena.Entrant("heuristic"), 5, "nanning")
    assert [row["index"] for row in rows] == sorted(row["index"] for row in rows) and len(rows) == 3
    err = capsys.readouterr().err
    assert all(f"deal {row['index']}: " in err for row in rows)


def test_a_stopped_run_resumed_plays_the_same_deals(tmp_path: Path) -> None:
    a, b = arena.Entrant("random"), arena.Entrant("heuristic")
    whole, _ = arena.run_logged(a, b, 5, 9, "nanning", 1, str(tmp_path / "whole.jsonl"))
    path = str(tmp_path / "stopped.jsonl")
    stopped, _ = arena.run_logged(a, b, 2, 9, "nanning", 1, path)
    resumed, _ = arena.run_logged(a, b, 5, 9, "nanning", 2, path, resume=True)
    assert results(resumed) == results(whole) and results(resumed[:2]) == results(stopped)
    assert [row["index"] for row in arena.read_log(path)[1]] == [o.index for o in whole]
    again, _ = arena.run_logged(a, b, 5, 9, "nanning", 1, path, resume=True)
    assert results(again) == results(whole)


def test_resume_refuses_another_arenas_file_and_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "deals.jsonl"
    arena.run_logged(arena.Entrant("random"), arena.Entrant("random"), 1, 3, "nanning", 1, str(path))
    with pytest.raises(SystemExit, match="written by another arena"):
        arena.run(parse("random", "random", "--deals", "2", "--seed", "4", "--per-deal", str(path), "--resume"))
    with pytest.raises(SystemExit, match="--resume needs --per-deal"):
        arena.run(parse("random", "random", "--resume"))
    with pytest.raises(SystemExit, match="No such file"):
        arena.run(parse("random", "random", "--per-deal", str(tmp_path / "none.jsonl"), "--resume"))
    path.write_text(path.read_text() + '{"index": 0, "levels": [1]}\n')
    with pytest.raises(ValueError, match=r"deals.jsonl line 3: not a deal's outcome"):
        arena.read_log(str(path))
    path.write_text("{not json\n")
    with pytest.raises(ValueError, match="line 1: not JSON"):
        arena.read_log(str(path))


def test_paired_gain_is_over_the_deals_both_runs_played() -> None:
    base = [{"index": 0, "levels": [1, -1]}, {"index": 1, "levels": [2, 0]}, {"index": 3, "levels": [0, 0]}]
    rows = [{"index": 0, "levels": [1, 1]}, {"index": 1, "levels": [2, 0]}, {"index": 2, "levels": [3, 3]}]
    gain = arena.paired_gain(rows, base)
    assert gain is not None and (gain.deals, gain.mean, gain.alike) == (2, 0.5, 1)
    assert gain.half == pytest.approx(arena.Z95 * 0.5)
    assert arena.paired_gain(rows[2:], base) is None


def test_pooled_gain_pairs_deals_within_each_pair_only() -> None:
    base7 = [{"index": 0, "levels": [1, -1]}, {"index": 1, "levels": [2, 0]}]
    new7 = [{"index": 0, "levels": [1, 1]}, {"index": 1, "levels": [2, 0]}]
    base8 = [{"index": 0, "levels": [3, 3]}]
    new8 = [{"index": 0, "levels": [1, 1]}]
    gain = arena.pooled_gain([(new7, base7), (new8, base8)])
    assert gain is not None and (gain.deals, gain.alike) == (3, 1)
    assert gain.mean == pytest.approx((1.0 + 0.0 - 2.0) / 3)
    assert gain.error == pytest.approx(gain.half / arena.Z95)
    assert arena.pooled_gain([(new8[1:], base8)]) is None


def test_runs_of_other_deals_are_not_paired() -> None:
    header = {"arena": {"a": "search", "b": "heuristic", "b_options": {}, "seed": 7, "preset": "nanning"}}
    other = {"arena": {**header["arena"], "seed": 8}}
    arena.check_paired("a.jsonl", header, "b.jsonl", {"arena": {**header["arena"], "a_options": {"gap": 25}}})
    arena.check_paired("a.jsonl", None, "b.jsonl", other)
    with pytest.raises(ValueError, match=r"a\.jsonl and b\.jsonl are not runs of the same deals: seed 7 against 8"):
        arena.check_paired("a.jsonl", header, "b.jsonl", other)
