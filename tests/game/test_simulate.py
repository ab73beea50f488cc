"""Whole simulated hands keep every card and point (R4, R35); `tuolaji simulate` prints a summary."""

from __future__ import annotations

import random

import pytest

from tuolaji.cli import main
from tuolaji.game import Match, TableOptions
from tuolaji.game.simulate import play_random_round, simulate
from tuolaji.rules import get_preset


@pytest.mark.parametrize("preset", ["nanning", "guigang", "fourdeck"])
def test_a_thousand_hands_per_preset_hold_all_cards_and_points(preset: str) -> None:
    """Issue 2: every hand's tricks hold all 216 cards and all 400 card points (checked per hand)."""
    summary = simulate(1000, seed=2026, preset=preset)
    assert summary.hands == 1000
    assert sum(summary.results.values()) == 1000
    assert all(0 <= score <= 400 for score in summary.scores)
    assert summary.last_trick_multiplied > 0


def test_simulate_command_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", "3", "--seed", "1", "--preset", "guigang"]) == 0
    out = capsys.readouterr().out
    assert "hands: 3" in out and "hands/s" in out and "摳底" in out


def test_simulate_rejects_a_bad_hand_count(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--hands", "0"])
    assert "--hands '0'" in capsys.readouterr().err


@pytest.mark.parametrize("preset", ["nanning", "guigang", "fourdeck"])
def test_scores_add_up_from_tricks_and_the_last_trick(preset: str) -> None:
    """R35: face points of the attackers' tricks, the last trick × lead size (摳底 / 反摳), clamped."""
    minimum = get_preset(preset).last_trick_min_lead
    match = Match(TableOptions(preset=preset), seed=8)
    rng = random.Random(8)
    checked = 0
    while checked < 40:
        round_ = match.start_round()
        play_random_round(round_, rng)
        if match.finish_round().state == "stopped":
            match.resume()
        result = round_.result
        if result is None or result.kind != "played":
            continue
        checked += 1
        attackers = 1 - round_.dealer % 2  # type: ignore[operator]
        *body, last = round_.tricks
        lead_size = len(last.plays[0].cards)
        kou_di = lead_size >= minimum
        multiplier = lead_size if kou_di else 1
        assert last.multiplier == multiplier
        face = sum(trick.points for trick in body if trick.winner % 2 == attackers)
        if not kou_di:
            face += last.points if last.winner % 2 == attackers else 0
            assert result.last_trick == 0
        else:
            sign = 1 if last.winner % 2 == attackers else -1
            assert result.last_trick == sign * last.points * multiplier
        assert result.card_points == face
        assert result.score == max(0, min(400, face + result.last_trick))


@pytest.mark.parametrize(
    ("preset", "sign_when_defenders_win"),
    [("nanning", 0), ("guigang", -1), ("fourdeck", 0)],
)
def test_a_one_card_last_lead_is_kou_di_only_in_guigang(preset: str, sign_when_defenders_win: int) -> None:
    """R35 (issue 16): a last trick led by a single, with points in it, won by either side. In
    ``guigang`` it is 摳底 ×1, so the defenders' win is subtracted (反摳); elsewhere it counts like any
    trick. The whole score is checked: face points of the attackers' other tricks plus the last trick."""
    match = Match(TableOptions(preset=preset), seed=16)
    rng = random.Random(16)
    seen: set[bool] = set()
    while len(seen) < 2:
        round_ = match.start_round()
        play_random_round(round_, rng)
        if match.finish_round().state == "stopped":
            match.resume()
        result = round_.result
        assert result is not None
        if result.kind != "played" or result.dealer is None:
            continue
        attackers = 1 - result.dealer % 2
        *body, last = round_.tricks
        if len(last.plays[0].cards) != 1 or last.points == 0:
            continue
        attackers_won = last.winner % 2 == attackers
        seen.add(attackers_won)
        face = sum(trick.points for trick in body if trick.winner % 2 == attackers)
        if preset == "guigang":
            assert result.card_points == face
            assert result.last_trick == (last.points if attackers_won else -last.points)
        else:
            assert result.card_points == face + (last.points if attackers_won else 0)
            assert result.last_trick == 0
        last_value = last.points if attackers_won else sign_when_defenders_win * last.points
        assert result.score == max(0, min(400, face + last_value))


def test_unchecked_random_rounds_are_legal_when_checked() -> None:
    """The simulator's moves skip the check (``checked=False``); replaying them checked accepts every one."""
    for seed in range(20):
        match = Match(TableOptions(preset=("nanning", "guigang", "fourdeck")[seed % 3]), seed)
        round_ = match.start_round()
        play_random_round(round_, random.Random(seed))
        checked = Match(TableOptions(preset=match.options.preset), seed).start_round()
        play_random_round(checked, random.Random(seed), checked=True)
        assert checked.tricks == round_.tricks and checked.result == round_.result
