"""Table options (RULES.md §14 presets plus the table's own settings)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

from tuolaji.cards import RANKS, parse_rank

PRESET_NAMES: Final = ("nanning", "guigang", "fourdeck")
ILLEGAL_FOLLOW_MODES: Final = ("laogai", "reject")


class OptionError(ValueError):
    """A table option that is missing, of the wrong type or out of range.

    ``params`` (docs/PROTOCOL.md §2.5, ``bad_options``) name the ``field`` and the ``rule`` or
    section it belongs to, and what would be accepted (``expected``, ``low``/``high``).
    """

    def __init__(self, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.params: dict[str, Any] = dict(params or {})


@dataclass(frozen=True)
class TableOptions:
    """Everything a table decides before its first hand.

    ``preset`` picks the rule variant (§14); ``start_level`` is the level both teams start at (R5);
    ``illegal_follow`` is ``laogai`` (wrong follows are played and judged, R30–R34) or ``reject``
    (the server refuses them). ``warn_wrong_follow`` (for beginners, ``laogai`` tables only): the
    server asks the player to confirm a wrong follow before playing it (``confirm_laogai``); off,
    a wrong follow is played without a word, as in the seeds (R33). The timers are read only by the
    server (R44); the game never reads a clock.
    """

    preset: str = "nanning"
    start_level: str = "3"
    illegal_follow: str = "laogai"
    turn_seconds: float = 20.0
    bid_window_seconds: float = 10.0
    review_seconds: float = 2.0
    deal_interval_ms: int = 50
    warn_wrong_follow: bool = False

    def __post_init__(self) -> None:
        if self.preset not in PRESET_NAMES:
            names = ", ".join(PRESET_NAMES)
            raise _bad("preset", "§14", f"expected one of {names}", self.preset, expected=PRESET_NAMES)
        try:
            level = parse_rank(str(self.start_level))
        except ValueError:
            level = -1
        if level <= 0:
            why = "2 is never a level" if level == 0 else "expected 3…A"
            raise _bad("start_level", "R5", why, self.start_level, low="3", high="A")
        object.__setattr__(self, "start_level", RANKS[level])
        if self.illegal_follow not in ILLEGAL_FOLLOW_MODES:
            modes = ILLEGAL_FOLLOW_MODES
            raise _bad("illegal_follow", "§8", "expected 'laogai' or 'reject'", self.illegal_follow, expected=modes)
        if not isinstance(self.warn_wrong_follow, bool):
            raise _bad("warn_wrong_follow", "R33", "expected true or false", self.warn_wrong_follow)
        for name, low, high in (
            ("turn_seconds", 1.0, 600.0),
            ("bid_window_seconds", 0.0, 600.0),
            ("review_seconds", 0.0, 60.0),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
                raise _bad(name, "R44", f"expected a number of seconds {low:g}…{high:g}", value, low=low, high=high)
        pace = self.deal_interval_ms
        if isinstance(pace, bool) or not isinstance(pace, int) or not 0 <= pace <= 2000:
            raise _bad("deal_interval_ms", "R15", "expected an integer 0…2000", pace, low=0, high=2000)

    @property
    def start_level_index(self) -> int:
        return parse_rank(self.start_level)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> TableOptions:
        """Options from a JSON object; unknown keys and bad values raise :class:`OptionError`."""
        if not isinstance(data, dict):
            message = f"table options must be a JSON object, got {type(data).__name__}"
            raise OptionError(message, {"reason": "not_object"})
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionError(
                f"unknown table option(s) {', '.join(map(repr, unknown))}; known: {', '.join(sorted(known))}",
                {"reason": "unknown", "fields": unknown},
            )
        return cls(**data)


def _bad(name: str, rule: str, why: str, value: object, **limits: Any) -> OptionError:
    """The error for option ``name``: its message names the value and the rule, its params the field."""
    params: dict[str, Any] = {"reason": "bad_value", "field": name, "rule": rule}
    params.update((key, list(limit) if isinstance(limit, tuple) else limit) for key, limit in limits.items())
    return OptionError(f"option {name}={value!r}: {why} ({rule})", params)
