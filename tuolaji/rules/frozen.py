"""Pickling the rules engine's frozen dataclasses."""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def reduce_by_fields(value: Any) -> tuple[type[Any], tuple[Any, ...]]:
    """``__reduce__`` for a frozen dataclass: rebuilt by calling its class with its fields in order.

    Compiled by mypyc (tuolaji/native.py), a frozen dataclass cannot be unpickled field by field,
    which is pickle's default.
    """
    return (type(value), tuple(getattr(value, field.name) for field in fields(value)))
