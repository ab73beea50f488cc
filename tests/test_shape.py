"""The code's shape, checked on every run: small parts with one job, no import cycles.

A class of more than :data:`CLASS_LINES` lines or :data:`CLASS_METHODS` methods, or a function of
more than :data:`FUNCTION_LINES` lines, is doing several jobs (docs/ARCHITECTURE.md); ``Round`` is
the one exception (a hand's rules, one concern, like python-chess's ``Board``). Imports between the
package's modules form no cycle (imports under ``if TYPE_CHECKING:`` do not count: they never run).
The browser client's classes and functions (``tuolaji/web/*.js``) keep the same limits, with no
exception; with no JS parser at hand they are found by the client's formatting (:func:`js_blocks`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

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


WEB = PACKAGE / "web"
JS_CLASS = re.compile(r"(?:export )?(?:default )?class ([A-Za-z_$][\w$]*)\b.*\{$")
JS_FUNCTION = re.compile(r"(?:export )?(?:default )?(?:async )?function\*? ?([A-Za-z_$][\w$]*) ?\(")
JS_ARROW = re.compile(r"(?:export )?(?:const|let) ([A-Za-z_$][\w$]*) = (?:async )?(?:\([^)]*\)|[\w$]+) => \{$")
JS_METHOD = re.compile(r"  (?:static |async |get |set |\*)*(#?[A-Za-z_$][\w$]*) ?\(")
JS_NOT_METHODS = {"if", "for", "while", "switch", "catch", "return", "function"}


def _closing(lines: list[str], start: int, indent: str, what: str) -> int:
    """The index of the line closing the block opened at ``lines[start]``: the next ``}`` at the same indent.

    A block on one line (``f() { return 1; }``) closes where it opens.
    """
    header = lines[start].rstrip()
    if "{" in header and not header.endswith("{"):
        return start
    for index in range(start + 1, len(lines)):
        if lines[index].rstrip() in (f"{indent}}}", f"{indent}}};", f"{indent}}});"):
            return index
        if lines[index].strip() and not lines[index].startswith(indent):
            break
    raise AssertionError(f"no closing '}}' at column {len(indent)} for {what}: is the file formatted as usual?")


def js_blocks(path: Path) -> Iterator[tuple[str, str, int, int, int]]:
    """The classes and functions of a web module: (kind, name, first line, lines, methods).

    There is no JS parser here, so this relies on the client's consistent formatting (2-space indent):
    a class or a function opens at column 0 (``class X {``, ``export function f(…) {``,
    ``const f = (…) => {``; the parameters may run over several lines) and closes at the next line
    that is ``}`` (or ``};``, ``});``) alone at column 0; a method opens at 2 spaces inside its class
    (``  name(…) {``, ``  #name(…) {``, ``  static …``, ``  get …``) and closes at the next such line at
    2 spaces. A block on one line is one line long. Nested functions and callbacks are not listed (the
    function or method around them bounds them), nor are class fields (``  #x = …;``). A block whose
    end cannot be found that way fails the test (AssertionError) rather than being skipped.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    name = path.name
    for start, line in enumerate(lines):
        if match := JS_CLASS.match(line):
            end = _closing(lines, start, "", f"class {match[1]} ({name}:{start + 1})")
            methods = 0
            index = start + 1
            while index < end:
                method = JS_METHOD.match(lines[index])
                if method and method[1] not in JS_NOT_METHODS:
                    close = _closing(lines, index, "  ", f"{match[1]}.{method[1]} ({name}:{index + 1})")
                    methods += 1
                    yield "method", f"{match[1]}.{method[1]}", index + 1, close - index + 1, 0
                    index = close
                index += 1
            yield "class", match[1], start + 1, end - start + 1, methods
        elif match := JS_FUNCTION.match(line) or JS_ARROW.match(line):
            end = _closing(lines, start, "", f"function {match[1]} ({name}:{start + 1})")
            yield "function", match[1], start + 1, end - start + 1, 0


def web_blocks() -> Iterator[tuple[str, str, str, int, int, int]]:
    for path in sorted(WEB.glob("*.js")):
        for kind, name, line, lines, methods in js_blocks(path):
            yield path.name, kind, name, line, lines, methods


def test_js_scan_reads_the_formatting(tmp_path: Path) -> None:
    source = tmp_path / "sample.js"
    source.write_text(
        "export class Box {\n  constructor(a) {\n    this.a = a;\n  }\n\n  #get() {\n"
        "    if (this.a) {\n      return 1;\n    }\n    return 0;\n  }\n}\n\n"
        "function one(a,\n  b) {\n  return a + b;\n}\nconst two = (x) => {\n  return x;\n};\n"
        "export function three() { return 3; }\n",
        encoding="utf-8",
    )
    assert list(js_blocks(source)) == [
        ("method", "Box.constructor", 2, 3, 0),
        ("method", "Box.#get", 6, 6, 0),
        ("class", "Box", 1, 12, 2),
        ("function", "one", 14, 4, 0),
        ("function", "two", 18, 3, 0),
        ("function", "three", 21, 1, 0),
    ]
    source.write_text("export function open() {\n  return 1;\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="no closing"):
        list(js_blocks(source))


def test_web_modules_are_scanned() -> None:
    kinds = {(module, kind) for module, kind, *_ in web_blocks()}
    assert ("hand.js", "class") in kinds
    assert ("hand.js", "method") in kinds
    assert ("app.js", "function") in kinds


def test_no_js_class_does_several_jobs() -> None:
    big = [
        f"{module} {name} (line {line}): {lines} lines, {methods} methods"
        for module, kind, name, line, lines, methods in web_blocks()
        if kind == "class" and (lines > CLASS_LINES or methods > CLASS_METHODS)
    ]
    assert big == [], f"JS classes over {CLASS_LINES} lines or {CLASS_METHODS} methods: {big}"


def test_no_long_js_function() -> None:
    long = [
        f"{module} {name} (line {line}): {lines} lines"
        for module, kind, name, line, lines, _ in web_blocks()
        if kind != "class" and lines > FUNCTION_LINES
    ]
    assert long == [], f"JS functions and methods over {FUNCTION_LINES} lines: {long}"
