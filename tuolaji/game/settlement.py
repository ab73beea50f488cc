"""Settlement arithmetic (RULES.md R39–R43) and the title tables of §13, as pure functions.

Balances are applied by the server; this module only says by how much each seat's 積分 (rank
points) and 銀子 (silver) change.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from tuolaji.game.options import TableOptions
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


Seat = Balance | None
"""A seat's balance before a settlement; ``None`` for a bot's seat, which neither pays nor receives."""


def _loss(balance: Balance, points: int, silver: int) -> Change:
    # R40: balances are floored at 0, so a loser never pays more than they hold.
    return Change(-min(points, balance.points), -min(silver, balance.silver))


def settle(result: RoundResult, balances: Sequence[Seat], *, ranked: bool = False) -> list[Change]:
    """The change to each seat's balance after ``result`` (R39–R43); ``balances`` in seat order,
    ``None`` for a bot's seat.

    Silver is always a transfer between people (docs/RULES-NOTES.md, Economy): no seat gains more
    than other seats actually paid. 積分 is a transfer too, except in a ``ranked`` hand
    (:func:`is_ranked`), the one 積分 faucet, where R40 applies as written: winners gain their own
    基礎分 × levels, losers lose theirs (floored at 0).
    """
    if result.escaped is not None:
        return _settle_escape(result.escaped, balances)
    if result.winning_team is None or result.levels == 0:
        return [Change() for _ in balances]
    winners = [seat % 2 == result.winning_team for seat in range(len(balances))]
    cheated = bool(result.cheaters)
    if ranked:
        points = _ranked_points(balances, winners, result.levels, cheated)
    else:
        points = _transfer(_claims(balances, winners, result.levels, silver=False), winners, cheated)
    silver = _transfer(_claims(balances, winners, result.levels, silver=True), winners, cheated)
    return [Change(p, s) for p, s in zip(points, silver, strict=True)]


def is_ranked(result: RoundResult, options: TableOptions, people: Sequence[bool]) -> bool:
    """Whether a hand is *ranked*, the 積分 faucet (docs/RULES-NOTES.md, Economy; R40): played to its
    last card (not a 勞改, escape or dissolved hand), all four seats registered people (``people``
    says, seat by seat, whether it is a registered account — not a guest, not a bot), at a table no
    faster than the standard pace (:func:`at_ranked_pace`)."""
    return result.kind == "played" and len(people) == 4 and all(people) and at_ranked_pace(options)


RANKED_PACE: Final = TableOptions()
"""The fastest timers a ranked table may have: the defaults (R15 deal, R44 bid window and review)."""


def at_ranked_pace(options: TableOptions) -> bool:
    """Whether ``options`` keep the standard pace (no timer shorter than :data:`RANKED_PACE`'s), so a
    ranked hand cannot be played faster than an honest one."""
    return (
        options.deal_interval_ms >= RANKED_PACE.deal_interval_ms
        and options.bid_window_seconds >= RANKED_PACE.bid_window_seconds
        and options.review_seconds >= RANKED_PACE.review_seconds
    )


def _ranked_points(balances: Sequence[Seat], winners: Sequence[bool], levels: int, cheated: bool) -> list[int]:
    """R40–R41 for 積分 in a ranked hand: each winner gains own 基礎分 × levels (nothing when flagged
    for cheating), each loser loses own 基礎分 × levels, floored at 0 (R39)."""
    changes = []
    for balance, won in zip(balances, winners, strict=True):
        if balance is None:
            changes.append(0)
        elif won:
            changes.append(0 if cheated else balance.point_base * levels)
        else:
            changes.append(-min(balance.point_base * levels, balance.points))
    return changes


def _claims(balances: Sequence[Seat], winners: Sequence[bool], levels: int, *, silver: bool) -> list[int]:
    """R40 in one currency: a winner claims own base × levels; a loser owes the same, capped at
    what it holds (R39). A bot's seat claims and owes nothing."""
    claims = []
    for balance, won in zip(balances, winners, strict=True):
        if balance is None:
            claims.append(0)
            continue
        base, held = (balance.silver_base, balance.silver) if silver else (balance.point_base, balance.points)
        claims.append(base * levels if won else min(base * levels, held))
    return claims


def _transfer(claims: Sequence[int], winners: Sequence[bool], cheated: bool) -> list[int]:
    """R40–R41 in one currency: what the losers pay is what the winners share.

    The amount moved is the smaller of the losers' dues (each already capped at what it holds) and
    the winners' claims. Each loser pays its part of it in proportion to its due, each winner
    receives its part of what was actually paid in proportion to its claim; both round down, so an
    odd unit is lost, never created. A cheating flag (R32, R41) cancels the winners' gains while the
    losers still pay their dues in full.
    """
    dues = sum(claim for claim, won in zip(claims, winners, strict=True) if not won)
    wanted = sum(claim for claim, won in zip(claims, winners, strict=True) if won)
    moved = dues if cheated else min(dues, wanted)
    paid = [0 if won or not dues else claim * moved // dues for claim, won in zip(claims, winners, strict=True)]
    total = sum(paid)
    if cheated or not wanted:
        return [-amount for amount in paid]
    return [
        claim * total // wanted if won else -amount for claim, won, amount in zip(claims, winners, paid, strict=True)
    ]


def escape_loss(escaper: Balance) -> Change:
    """What escaping from a hand costs an account of balance ``escaper`` (R43): 6× its own bases,
    floored at what it holds (R40); both figures are 0 or negative. The client asks before it leaves
    with these figures (docs/PROTOCOL.md, ``escape_cost``)."""
    return _loss(escaper, ESCAPE_LOSS_FACTOR * escaper.point_base, ESCAPE_LOSS_FACTOR * escaper.silver_base)


def _settle_escape(escaped: int, balances: Sequence[Seat]) -> list[Change]:
    """R43 as a transfer (docs/RULES-NOTES.md, Economy): the escaper loses 6× own bases (floored at
    0, R40), and each opponent who is a person gains half of what the escaper actually lost,
    rounded down: 3× the escaper's bases when the escaper could pay in full, less when not, nothing
    from a broke escaper. A bot opponent's half is kept by nobody. The opponents together never
    gain more than the escaper lost; the partner is unchanged."""
    escaper = balances[escaped]
    if escaper is None:
        return [Change() for _ in balances]
    lost = escape_loss(escaper)
    share = Change(-lost.points // ESCAPE_SHARES, -lost.silver // ESCAPE_SHARES)
    changes = []
    for seat, balance in enumerate(balances):
        if seat == escaped:
            changes.append(lost)
        elif seat % 2 != escaped % 2 and balance is not None:
            changes.append(share)
        else:
            changes.append(Change())
    return changes


def apply_change(balance: Balance, change: Change) -> Balance:
    """The balance after ``change``, never below 0 (R39)."""
    return Balance(max(0, balance.points + change.points), max(0, balance.silver + change.silver))
