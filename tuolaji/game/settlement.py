"""Settlement arithmetic (RULES.md R39–R43) and the title tables of §13, as pure functions.

Balances are applied by the server; this module only says by how much each seat's 積分 (rank
points) and 銀子 (silver) change.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from tuolaji.game.view import RoundResult

RANK_TABLE: Final = (
    ("布衣", 1, 0),
    ("秀才", 2, 100),
    ("舉人", 3, 300),
    ("進士", 4, 600),
    ("縣令", 5, 1000),
    ("通判", 10, 2000),
    ("知府", 12, 4000),
    ("道台", 14, 6400),
    ("太守", 16, 9200),
    ("都督", 18, 12400),
    ("御史", 50, 21400),
    ("提督", 55, 46400),
    ("巡按", 60, 73900),
    ("天官", 65, 103900),
    ("總督", 70, 136400),
    ("尚書", 150, 206400),
    ("太師", 160, 356400),
    ("大將軍", 170, 516400),
    ("宰相", 180, 686400),
    ("皇上", 190, 866400),
)
"""玩家級別: (title, 基礎分, 積分 needed), §13."""

WEALTH_TABLE: Final = (
    ("待業", 0, 1),
    ("臨時工", 100, 1),
    ("契約工", 200, 2),
    ("正式工", 400, 4),
    ("助理主管", 800, 8),
    ("副主管", 1600, 16),
    ("主管", 3200, 32),
    ("助理經理", 6400, 64),
    ("副經理", 12800, 128),
    ("經理", 25600, 256),
    ("助理總裁", 51200, 512),
    ("副總裁", 102400, 1024),
    ("總裁", 204800, 2048),
    ("董事", 409600, 4096),
    ("副董事長", 819200, 8192),
    ("董事長", 1638400, 16384),
    ("賭王", 3276800, 32768),
    ("賭聖", 6553600, 65536),
    ("賭神", 13107200, 131072),
    ("玉帝", 26214400, 262144),
)
"""財富等級: (title, silver from, 基本銀子), §13."""

_RANK_THRESHOLDS: Final = [needed for _, _, needed in RANK_TABLE]
_WEALTH_THRESHOLDS: Final = [start for _, start, _ in WEALTH_TABLE]

ESCAPE_LOSS_FACTOR: Final = 6
"""R43: the escaper loses this many times their own bases."""
ESCAPE_SHARES: Final = 2
"""R43: the escaper's actual loss is split between the two opponents (3 = 6 / 2 bases each when paid in full)."""


def rank_title(points: int) -> tuple[str, int]:
    """(title, 基礎分) for an account's 積分 (R42, §13)."""
    title, base, _ = RANK_TABLE[rank_level(points)]
    return title, base


def rank_level(points: int) -> int:
    """The place of an account's rank title in §13's 玩家級別 table: 0 for 布衣 … 19 for 皇上 (R42)."""
    return max(0, bisect_right(_RANK_THRESHOLDS, points) - 1)


def wealth_title(silver: int) -> tuple[str, int]:
    """(title, 基本銀子) for an account's silver (R42, §13)."""
    title, _, base = WEALTH_TABLE[max(0, bisect_right(_WEALTH_THRESHOLDS, silver) - 1)]
    return title, base


@dataclass(frozen=True)
class Balance:
    """One account's persistent numbers: 積分 and silver, both never below 0."""

    points: int
    silver: int

    @property
    def point_base(self) -> int:
        return rank_title(self.points)[1]

    @property
    def silver_base(self) -> int:
        return wealth_title(self.silver)[1]


@dataclass(frozen=True)
class Change:
    """How much one seat's 積分 and silver change after a round."""

    points: int = 0
    silver: int = 0


def _loss(balance: Balance, points: int, silver: int) -> Change:
    # R40: balances are floored at 0, so a loser never pays more than they hold.
    return Change(-min(points, balance.points), -min(silver, balance.silver))


def settle(result: RoundResult, balances: Sequence[Balance]) -> list[Change]:
    """The change to each seat's balance after ``result`` (R39–R43); ``balances`` in seat order."""
    if result.escaped is not None:
        return _settle_escape(result.escaped, balances)
    if result.winning_team is None or result.levels == 0:
        return [Change() for _ in balances]
    changes = []
    for seat, balance in enumerate(balances):
        if seat % 2 == result.winning_team:
            # R41: a cheating flag (R32) cancels the winners' gains; the losers still pay.
            factor = 0 if result.cheaters else result.levels
            changes.append(Change(balance.point_base * factor, balance.silver_base * factor))
        else:
            changes.append(_loss(balance, balance.point_base * result.levels, balance.silver_base * result.levels))
    return changes


def _settle_escape(escaped: int, balances: Sequence[Balance]) -> list[Change]:
    """R43 as a transfer (docs/RULES-NOTES.md, Economy): the escaper loses 6× own bases (floored at
    0, R40), and each opponent gains half of what the escaper actually lost, rounded down: 3× the
    escaper's bases when the escaper could pay in full, less when not, nothing from a broke escaper.
    The opponents together never gain more than the escaper lost; the partner is unchanged."""
    escaper = balances[escaped]
    lost = _loss(escaper, ESCAPE_LOSS_FACTOR * escaper.point_base, ESCAPE_LOSS_FACTOR * escaper.silver_base)
    share = Change(-lost.points // ESCAPE_SHARES, -lost.silver // ESCAPE_SHARES)
    changes = []
    for seat in range(len(balances)):
        if seat == escaped:
            changes.append(lost)
        elif seat % 2 != escaped % 2:
            changes.append(share)
        else:
            changes.append(Change())
    return changes


def apply_change(balance: Balance, change: Change) -> Balance:
    """The balance after ``change``, never below 0 (R39)."""
    return Balance(max(0, balance.points + change.points), max(0, balance.silver + change.silver))
