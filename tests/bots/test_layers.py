"""The bots' layers point one way: what a seat knows, then the heuristic's policy, then play-outs,
then the Monte-Carlo search, then the players, none of them the room, the server or the store; the
rules engine imports only the cards. Checked on the sources' import statements, so a backward import
fails here before it can make a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "tuolaji"

BOT_LAYERS = ("knowledge", "policy", "playouts", "montecarlo", "players")
"""The subpackages of ``tuolaji.bots``, lowest first: each may import only those before it."""


def imported(path: Path) -> set[str]:
    """The absolute names of the modules ``path`` imports (relative imports resolved)."""
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def imports_under(folder: Path) -> dict[str, set[str]]:
    """Per source file under ``folder`` (relative to the project), the modules it imports."""
    return {str(path.relative_to(PACKAGE.parent)): imported(path) for path in sorted(folder.rglob("*.py"))}


@pytest.mark.parametrize("layer", BOT_LAYERS)
def test_a_bots_layer_imports_no_layer_above_it(layer: str) -> None:
    above = BOT_LAYERS[BOT_LAYERS.index(layer) + 1 :]
    forbidden = tuple(f"tuolaji.bots.{name}" for name in (*above, "arena"))
    wrong = {
        source: sorted(name for name in names if name.startswith(forbidden))
        for source, names in imports_under(PACKAGE / "bots" / layer).items()
    }
    assert {source: names for source, names in wrong.items() if names} == {}


def test_the_bots_know_nothing_of_the_room_the_server_or_the_store() -> None:
    shells = tuple(f"tuolaji.{name}" for name in ("room", "server", "store", "wire", "web"))
    wrong = {
        source: sorted(name for name in names if name.startswith(shells))
        for source, names in imports_under(PACKAGE / "bots").items()
    }
    assert {source: names for source, names in wrong.items() if names} == {}


def test_the_rules_engine_imports_only_the_cards() -> None:
    wrong = {
        source: sorted(
            name
            for name in names
            if name.startswith("tuolaji.") and not name.startswith(("tuolaji.rules", "tuolaji.cards"))
        )
        for source, names in imports_under(PACKAGE / "rules").items()
    }
    assert {source: names for source, names in wrong.items() if names} == {}


def test_the_resolver_sees_relative_and_absolute_imports() -> None:
    names = imported(PACKAGE / "rules" / "follow.py")
    assert {"tuolaji.cards", "tuolaji.rules.trump", "tuolaji.rules.trump.Trump"} <= names
    names = imported(PACKAGE / "bots" / "players" / "heuristic.py")
    assert "tuolaji.bots.policy.card_play" in names
