"""The :class:`Pattern` value (R10–R11, tops R14)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .frozen import reduce_by_fields

UNIT_NAMES: Final = ("", "single", "pair", "triple", "bomb")
"""Unit names by arity (R10)."""


@dataclass(frozen=True, slots=True)
class Pattern:
    """A unit (``length`` 1) or a tractor (``length`` ≥ 2 units of one ``arity``), R10–R11.

    ``top`` ranks patterns of the same shape: the R9 power of a unit, or the R14 tractor top
    (natural rank of the highest kind; A high = 14, A low = 1; ``guigang`` 2233 at level 3 = 15;
    the joker tractor = 16).
    """

    arity: int
    length: int
    suit_class: int
    top: int

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_by_fields(self)

    @property
    def size(self) -> int:
        """Number of cards, ``arity * length``."""
        return self.arity * self.length

    @property
    def is_tractor(self) -> bool:
        return self.length >= 2

    def describe(self) -> str:
        """E.g. ``"pair"`` or ``"tractor of 2 pairs"``."""
        return describe_shape(self.arity, self.length)


def describe_shape(arity: int, length: int) -> str:
    """Name of a unit or tractor shape: ``"bomb"``, ``"tractor of 3 triples"``."""
    if length == 1:
        return UNIT_NAMES[arity]
    return f"tractor of {length} {UNIT_NAMES[arity]}s"
