"""The mypyc build: which modules it compiles, whether they run compiled, stale in-place builds."""

from __future__ import annotations

import importlib.machinery
import os
from pathlib import Path

import pytest

from tuolaji.native import NATIVE_SOURCES, build, main, module_name, stale

ROOT = Path(__file__).resolve().parent.parent


def test_every_listed_source_exists_and_names_its_module() -> None:
    assert all((ROOT / source).is_file() for source in NATIVE_SOURCES)
    assert module_name("tuolaji/rules/__init__.py") == "tuolaji.rules"
    assert module_name("tuolaji/bots/players/heuristic.py") == "tuolaji.bots.players.heuristic"


def test_the_installed_build_is_compiled_unless_asked_plain() -> None:
    expected = "plain" if os.environ.get("TUOLAJI_PLAIN") == "1" else "compiled"
    assert build() == expected


def test_a_source_newer_than_its_compiled_file_is_stale(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "tuolaji" / "cards.py"
    source.parent.mkdir()
    source.write_text("")
    compiled = source.with_name("cards" + importlib.machinery.EXTENSION_SUFFIXES[0])
    compiled.write_bytes(b"")
    os.utime(source, (1_000, 1_000))
    os.utime(compiled, (2_000, 2_000))
    assert stale(tmp_path) == []
    assert main(["--stale", str(tmp_path)]) == 0
    os.utime(source, (3_000, 3_000))
    assert stale(tmp_path) == ["tuolaji/cards.py"]
    assert main(["--stale", str(tmp_path)]) == 1
    assert "tuolaji/cards.py: changed or listed since it was compiled" in capsys.readouterr().err


def test_a_listed_source_without_a_compiled_file_is_stale_once_others_are_compiled(tmp_path: Path) -> None:
    first, second = (tmp_path / source for source in NATIVE_SOURCES[:2])
    for source in (first, second):
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text("")
    assert stale(tmp_path) == []  # a plain build
    compiled = first.with_name(first.stem + importlib.machinery.EXTENSION_SUFFIXES[0])
    compiled.write_bytes(b"")
    os.utime(first, (1_000, 1_000))
    assert stale(tmp_path) == [NATIVE_SOURCES[1]]
