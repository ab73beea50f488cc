"""Rule presets (RULES.md §14): the few points where the three seed texts differ."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from .frozen import reduce_by_fields


@dataclass(frozen=True, slots=True)
class Preset:
    """One column of the §14 table.

    ``merged_exact``: R25, ``exact`` and ``same_count`` form one component of the follow key.
    ``last_trick_min_lead``: R35, the last trick is multiplied (摳底) when its lead has at least this
    many cards. ``low_2233_tractor``: R14, at level 3 the trump tractor of 2s and 3s ranks just below
    the joker tractor. ``timeouts_before_autoplay``: R45. ``redeal_limit_dissolves``: R20, the table
    is dissolved (instead of stopped) after 3 redeals in a row. ``score_cap``: R35 封頂 and R36, the
    attackers' score is clamped to 0 … 400, so a hand moves at most 3 levels (seeds 000 and 002);
    without it (``guigang``, seed 001: 負分照計) the score is counted as it comes, below 0 too, and
    every 80 points beyond either end of the R36 table is one more level.
    """

    name: str
    merged_exact: bool
    last_trick_min_lead: int
    low_2233_tractor: bool
    timeouts_before_autoplay: int
    redeal_limit_dissolves: bool
    score_cap: bool = True

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_by_fields(self)


PRESETS: Final[dict[str, Preset]] = {
    preset.name: preset
    for preset in (
        Preset("nanning", False, 2, False, 3, False, score_cap=True),
        Preset("guigang", True, 1, True, 3, False, score_cap=False),
        Preset("fourdeck", False, 2, False, 2, True, score_cap=True),
    )
}
"""The presets of RULES.md §14 by name; ``nanning`` is the default."""

PresetLike: TypeAlias = "str | Preset"
"""Every API function takes a preset by name or as a :class:`Preset`."""


def get_preset(preset: PresetLike) -> Preset:
    """The :class:`Preset` for a name (or the preset itself); an unknown name raises ``ValueError``."""
    if isinstance(preset, Preset):
        return preset
    found = PRESETS.get(preset)
    if found is None:
        raise ValueError(f"unknown rules preset {preset!r}: expected one of {', '.join(PRESETS)} (§14)")
    return found
