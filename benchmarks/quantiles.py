"""The percentile the benchmarks report (nearest rank, no interpolation), one definition for all."""

from __future__ import annotations


def percentile(values: list[float], share: float) -> float:
    """The value at ``share`` (0…1) of ``values`` in order; NaN if there are none."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")
