"""The code's shape, checked on every run: small parts with one job, no import cycles.

A class of more than :data:`CLASS_LINES` lines or :data:`CLASS_METHODS` methods, or a function of
more than :data:`FUNCTION_LINES` lines, is doing several jobs (docs/ARCHITECTURE.md); ``Round`` is
the one exception (a hand's rules, one concern, like python-chess's ``Board``). Imports between the
package's modules form no cycle (imports under ``if TYPE_CHECKING:`` do not count: they never run).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tuolaji"
CLASS_LINES = 300
CLASS_METHODS = 25
FUNCTION_LINES = 60
BIG_CLASSES_ALLOWED = {"tuolaji.game.round.Round"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> Iterator[tuple[str, Path, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield module_name(path), path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def test_no_class_does_several_jobs() -> None:
    big = []
    for module, _, tree in sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                methods = sum(isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) for item in node.body)
                name = f"{module}.{node.name}"
                if (lines > CLASS_LINES or methods > CLASS_METHODS) and name not in BIG_CLASSES_ALLOWED:
                    big.append(f"{name}: {lines} lines, {methods} methods")
    assert big == [], f"classes over {CLASS_LINES} lines or {CLASS_METHODS} methods: {big}"


def test_no_long_function() -> None:
    long = []
    for module, _, tree in sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > FUNCTION_LINES:
                    long.append(f"{module}.{node.name} (line {node.lineno}): {lines} lines")
    assert long == [], f"functions over {FUNCTION_LINES} lines: {long}"


def _runtime_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Import statements that run (those under ``if TYPE_CHECKING:`` left out)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                stack.extend(child.orelse)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child
            stack.append(child)


def import_graph() -> dict[str, set[str]]:
    """Module → the package's modules it imports."""
    modules = {module: path for module, path, _ in sources()}
    graph: dict[str, set[str]] = {module: set() for module in modules}
    for module, path, tree in sources():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in _runtime_imports(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names
                ]
            graph[module].update(target for target in targets if target in modules and target != module)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_cycles_are_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []
