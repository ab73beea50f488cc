"""The modules compiled to C with mypyc at install time, and whether they run compiled.

The rules engine, the round (``Round`` and the driver that moves it) and the bots' inner loops (the
heuristic's policy, card knowledge, the search's deal chain, play-outs) are plain, fully typed
Python; ``pip install`` compiles the modules listed here with mypyc (``setup.py``), which makes the
search bot's play-outs 2.5 to 3 times faster and a server's move and a restore cheaper.
Compiled or not, every function gives the same results, so a bot makes the same moves either way;
only the time differs. The search bot's cost model
(:class:`tuolaji.bots.montecarlo.config.SearchConfig`) is fitted to the compiled build, so the plain
build spends 2.5 to 3 times its budget per move.

This module imports nothing from the package: ``setup.py`` reads :data:`NATIVE_SOURCES` from it
before the package is built. ``python -m tuolaji.native`` says which build is running, and with
``--stale ROOT`` lists the modules under ``ROOT`` (an in-place, editable build) whose source is newer
than the compiled file or that were listed after the build, exiting 1 if any: those run old or plain
code until the project is rebuilt.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.machinery
import sys
from pathlib import Path

NATIVE_SOURCES = (
    "tuolaji/cards.py",
    "tuolaji/game/driver.py",
    "tuolaji/game/round.py",
    "tuolaji/rules/__init__.py",
    "tuolaji/rules/follow.py",
    "tuolaji/rules/follow_choice.py",
    "tuolaji/rules/frozen.py",
    "tuolaji/rules/lead.py",
    "tuolaji/rules/lead_choice.py",
    "tuolaji/rules/pattern.py",
    "tuolaji/rules/presets.py",
    "tuolaji/rules/refusal.py",
    "tuolaji/rules/scoring.py",
    "tuolaji/rules/structure.py",
    "tuolaji/rules/tractors.py",
    "tuolaji/rules/trick.py",
    "tuolaji/rules/trump.py",
    "tuolaji/bots/knowledge/__init__.py",
    "tuolaji/bots/knowledge/cardinfo.py",
    "tuolaji/bots/knowledge/legal_follows.py",
    "tuolaji/bots/knowledge/sampling.py",
    "tuolaji/bots/knowledge/shapes.py",
    "tuolaji/bots/knowledge/situation.py",
    "tuolaji/bots/knowledge/tracking.py",
    "tuolaji/bots/montecarlo/deal_chain.py",
    "tuolaji/bots/policy/__init__.py",
    "tuolaji/bots/policy/candidates.py",
    "tuolaji/bots/policy/card_play.py",
    "tuolaji/bots/policy/risk.py",
    "tuolaji/bots/policy/values.py",
    "tuolaji/bots/players/heuristic.py",
    "tuolaji/bots/playouts/__init__.py",
    "tuolaji/bots/playouts/rollout.py",
)
"""Source files compiled by mypyc, relative to the project root. Classes defined in them cannot be
subclassed by plain Python code (mypyc's rule)."""


def module_name(source: str) -> str:
    """``tuolaji/rules/__init__.py`` → ``tuolaji.rules``; ``tuolaji/cards.py`` → ``tuolaji.cards``."""
    parts = source.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_compiled(module: str) -> bool:
    """Whether ``module`` (dotted name) was imported from a compiled extension."""
    origin = getattr(importlib.import_module(module), "__file__", None) or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def build() -> str:
    """``"compiled"`` if every module of :data:`NATIVE_SOURCES` runs compiled, ``"plain"`` if none
    does, else ``"mixed"``."""
    flags = {is_compiled(module_name(source)) for source in NATIVE_SOURCES}
    return "compiled" if flags == {True} else "plain" if flags == {False} else "mixed"


def _compiled_file(source: Path) -> Path | None:
    """The compiled extension beside ``source``, if there is one."""
    stem = source.with_suffix("")
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        compiled = stem.with_name(stem.name + suffix)
        if compiled.exists():
            return compiled
    return None


def stale(root: Path) -> list[str]:
    """Sources under ``root`` that an in-place compiled build runs out of date: those whose compiled
    file beside them is older than they are, and, once any listed source has a compiled file, those
    that have none (listed since the build). A plain build (no compiled file at all) has none."""
    compiled = {source: _compiled_file(root / source) for source in NATIVE_SOURCES if (root / source).exists()}
    if not any(compiled.values()):
        return []
    return [
        source
        for source, path in compiled.items()
        if path is None or path.stat().st_mtime < (root / source).stat().st_mtime
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tuolaji.native", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--stale",
        type=Path,
        metavar="ROOT",
        help="list sources newer than their compiled files, or listed since the build",
    )
    args = parser.parse_args(argv)
    if args.stale is not None:
        old = stale(args.stale)
        for source in old:
            print(f"{source}: changed or listed since it was compiled", file=sys.stderr)
        return 1 if old else 0
    print(build())
    return 0


if __name__ == "__main__":
    sys.exit(main())
