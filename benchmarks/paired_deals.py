"""The gain of one arena run over another, paired deal by deal over the deals both played.

Takes pairs of ``--per-deal`` files (of ``tuolaji arena`` or ``benchmarks/search_variants.py``),
each a new run and the base it is compared with, for runs made side by side that could not
``--compare`` each other; prints each run's levels per hand on the common deals and the paired gain
of the new run over the base. With several pairs (one per seed), the gain pooled over all their
deals is printed too, with its standard error. The two files of a pair must be runs of the same
deals (same seed, preset and bot B).

Run: ``.venv/bin/python benchmarks/paired_deals.py NEW.jsonl BASE.jsonl [NEW2.jsonl BASE2.jsonl …]``.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from tuolaji.bots import arena

Rows = list[dict[str, Any]]


def levels_on(rows: Sequence[Mapping[str, Any]], indices: set[int]) -> str:
    mean, half = arena.interval([sum(row["levels"]) / 2 for row in rows if row["index"] in indices])
    return f"{mean:+.3f} ± {half:.3f}"


def gain_text(gain: arena.PairedGain) -> str:
    return (
        f"{gain.mean:+.3f} ± {gain.half:.3f} levels per hand (standard error {gain.error:.3f}; "
        f"{gain.alike} of {gain.deals} deals alike)"
    )


def read_pair(new: str, base: str) -> tuple[Rows, Rows]:
    """Both files' deals; ``SystemExit`` naming the file if one cannot be read or they are not runs
    of the same deals."""
    try:
        new_header, new_rows = arena.read_log(new)
        base_header, base_rows = arena.read_log(base)
        arena.check_paired(new, new_header, base, base_header)
    except (OSError, ValueError) as error:
        raise SystemExit(f"paired_deals: {error}") from None
    return new_rows, base_rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", metavar="NEW BASE", help="per-deal files, a new run then its base")
    args = parser.parse_args()
    if len(args.files) % 2:
        parser.error(f"files come in pairs, NEW BASE: {len(args.files)} given")
    pairs: list[tuple[Rows, Rows]] = []
    for new, base in zip(args.files[::2], args.files[1::2], strict=True):
        new_rows, base_rows = read_pair(new, base)
        gain = arena.paired_gain(new_rows, base_rows)
        if gain is None:
            raise SystemExit(f"paired_deals: {new} and {base} share no deal")
        common = {row["index"] for row in new_rows} & {row["index"] for row in base_rows}
        print(f"{new}: {levels_on(new_rows, common)} levels per hand on the {gain.deals} common deals")
        print(f"{base}: {levels_on(base_rows, common)} levels per hand")
        print(f"paired gain: {gain_text(gain)}")
        pairs.append((new_rows, base_rows))
    if len(pairs) > 1:
        pooled = arena.pooled_gain(pairs)
        assert pooled is not None
        print(f"pooled over {len(pairs)} pairs: {gain_text(pooled)}")


if __name__ == "__main__":
    main()
