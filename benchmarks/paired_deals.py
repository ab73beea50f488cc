"""The gain of one arena run over another, paired deal by deal over the deals both played.

Takes two ``--per-deal`` files (of ``tuolaji arena`` or ``benchmarks/search_variants.py``), for runs
made side by side that could not ``--compare`` each other; prints each run's levels per hand on the
common deals and the paired gain of the first over the second.

Run: ``.venv/bin/python benchmarks/paired_deals.py NEW.jsonl BASE.jsonl``.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from tuolaji.bots import arena


def levels_on(rows: Sequence[Mapping[str, Any]], indices: set[int]) -> str:
    mean, half = arena.interval([sum(row["levels"]) / 2 for row in rows if row["index"] in indices])
    return f"{mean:+.3f} ± {half:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("new", help="per-deal file of the run whose gain is reported")
    parser.add_argument("base", help="per-deal file of the run it is compared with")
    args = parser.parse_args()
    try:
        new, base = arena.read_log(args.new)[1], arena.read_log(args.base)[1]
    except (OSError, ValueError) as error:
        raise SystemExit(f"paired_deals: {error}") from None
    gain = arena.paired_gain(new, base)
    if gain is None:
        raise SystemExit(f"paired_deals: {args.new} and {args.base} share no deal")
    common = {row["index"] for row in new} & {row["index"] for row in base}
    print(f"{args.new}: {levels_on(new, common)} levels per hand on the {gain.deals} common deals")
    print(f"{args.base}: {levels_on(base, common)} levels per hand")
    print(f"paired gain: {gain.mean:+.3f} ± {gain.half:.3f} levels per hand ({gain.alike} deals alike)")


if __name__ == "__main__":
    main()
