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
    assert "tuolaji/cards.py: changed since it was compiled" in capsys.readouterr().err
