"""The arena command: duplicate deals, the report's lines, its argument checks."""

from __future__ import annotations

import argparse

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
