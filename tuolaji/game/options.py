"""Table options (RULES.md §14 presets plus the table's own settings)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

from tuolaji.cards import RANKS, parse_rank

PRESET_NAMES: Final = ("nanning", "guigang", "fourdeck")
ILLEGAL_FOLLOW_MODES: Final = ("laogai", "reject")


class OptionError(ValueError):
    """A table option that is missing, of the wrong type or out of range."""


@dataclass(frozen=True)
class TableOptions:
    """Everything a table decides before its first hand.

    ``preset`` picks the rule variant (§14); ``start_level`` is the level both teams start at (R5);
    ``illegal_follow`` is ``laogai`` (wrong follows are played and judged, R30–R34) or ``reject``
    (the server refuses them). The timers are read only by the server (R44); the game never reads a clock.
    """

    preset: str = "nanning"
    start_level: str = "3"
    illegal_follow: str = "laogai"
    turn_seconds: float = 20.0
    bid_window_seconds: float = 10.0
    review_seconds: float = 2.0
    deal_interval_ms: int = 50

    def __post_init__(self) -> None:
        if self.preset not in PRESET_NAMES:
            raise OptionError(f"option preset={self.preset!r}: expected one of {', '.join(PRESET_NAMES)} (§14)")
        try:
            level = parse_rank(str(self.start_level))
        except ValueError:
            raise OptionError(f"option start_level={self.start_level!r}: expected 3…A (R5)") from None
        if level == 0:
            raise OptionError(f"option start_level={self.start_level!r}: 2 is never a level (R5)")
        object.__setattr__(self, "start_level", RANKS[level])
        if self.illegal_follow not in ILLEGAL_FOLLOW_MODES:
            raise OptionError(f"option illegal_follow={self.illegal_follow!r}: expected 'laogai' or 'reject' (§8)")
        for name, low, high in (
            ("turn_seconds", 1.0, 600.0),
            ("bid_window_seconds", 0.0, 600.0),
            ("review_seconds", 0.0, 60.0),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
                raise OptionError(f"option {name}={value!r}: expected a number of seconds {low:g}…{high:g} (R44)")
        pace = self.deal_interval_ms
        if isinstance(pace, bool) or not isinstance(pace, int) or not 0 <= pace <= 2000:
            raise OptionError(f"option deal_interval_ms={pace!r}: expected an integer 0…2000 (R15)")

    @property
    def start_level_index(self) -> int:
        return parse_rank(self.start_level)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> TableOptions:
        """Options from a JSON object; unknown keys and bad values raise :class:`OptionError`."""
        if not isinstance(data, dict):
            raise OptionError(f"table options must be a JSON object, got {type(data).__name__}")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionError(
                f"unknown table option(s) {', '.join(map(repr, unknown))}; known: {', '.join(sorted(known))}"
            )
        return cls(**data)
