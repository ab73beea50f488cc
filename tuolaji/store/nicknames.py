"""Nicknames: what is allowed, and the key under which two nicknames count as the same.

Two nicknames are the same account name when their *skeletons* are equal: NFKC (fullwidth
``ｇｕｅｓｔ`` → ``guest``, mathematical letters, ligatures), then case folding, then every
character that looks like a Latin letter, digit or dash replaced by it (Cyrillic ``а`` → ``a``,
Greek ``ο`` → ``o``; ``1``, ``i`` and capital ``I`` → ``l``; ``0`` → ``o``; ``rn`` → ``m``), and
runs of spaces made one. Case folding comes first, so a key never depends on case (``ALICE`` logs
in as ``alice``). This follows the idea of UTS #39's skeleton, with a table of the look-alikes of
Latin letters, digits and the hyphen in the Cyrillic, Greek and Armenian scripts, the dash family
and a few symbols; other scripts (CJK nicknames) are compared after NFKC and case folding only.
The ``guest-`` prefix is reserved on the skeleton, so no look-alike of it can be registered.
"""

from __future__ import annotations

import unicodedata
from typing import Final

GUEST_PREFIX: Final = "guest-"
NICKNAME_MAX: Final = 20
KEY_MAX: Final = 40
"""Length of the stored key (``accounts.nickname_key``); a valid nickname's skeleton always fits."""


def _table(*groups: tuple[str, str]) -> dict[int, str]:
    table: dict[int, str] = {}
    for looks, latin in groups:
        for char in looks:
            table[ord(char)] = latin
    return table


_LOOK_ALIKES: Final = _table(
    # Applied after case folding, so only small letters appear; a letter whose capital and small
    # forms look like different Latin letters (Greek Η/η: H/n) maps to its small form's look-alike,
    # as names are mostly spoofed in small letters.
    # Cyrillic.
    ("аӑ", "a"),
    ("вь", "b"),
    ("сϲ", "c"),
    ("ԁ", "d"),
    ("еёє", "e"),
    ("һн", "h"),
    ("іїӏ", "l"),
    ("ј", "j"),
    ("к", "k"),
    ("м", "m"),
    ("о", "o"),
    ("р", "p"),
    ("ԛ", "q"),
    ("ѕ", "s"),
    ("т", "t"),
    ("уү", "y"),
    ("ѵ", "v"),
    ("х", "x"),
    ("ԝ", "w"),
    ("з", "3"),
    ("б", "6"),
    # Greek.
    ("α", "a"),
    ("β", "b"),
    ("ε", "e"),
    ("ζ", "z"),
    ("η", "n"),
    ("ι", "l"),
    ("κ", "k"),
    ("μ", "m"),
    ("ν", "v"),
    ("ο", "o"),
    ("ρ", "p"),
    ("τ", "t"),
    ("υ", "u"),
    ("χ", "x"),
    ("ϳ", "j"),
    # Armenian.
    ("օ", "o"),
    ("ս", "u"),
    ("հ", "h"),
    ("ց", "g"),
    ("զ", "q"),
    # Latin letters and digits that look alike once folded: capital I is small l's twin, so i and l
    # are one letter here; 1, | and 0 too.
    ("iıl1|ǀ∣", "l"),
    ("0", "o"),
    ("ȷ", "j"),
    # Dashes and dash-like marks (一 is the CJK digit one, ー the katakana long vowel mark).
    ("‐‑‒–—―−⁃˗۔ー一ㅡ╴─", "-"),
    # Dots that look alike.
    ("·•‧∙⋅ꞏ", "."),
)

_SEQUENCES: Final = (("rn", "m"), ("vv", "w"))


class NicknameError(ValueError):
    """A nickname that breaks the rules of docs/PROTOCOL.md §1 (the message says which)."""


def skeleton(name: str) -> str:
    """The form under which two nicknames are the same (see the module docstring)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).translate(_LOOK_ALIKES)
    for pair, single in _SEQUENCES:
        folded = folded.replace(pair, single)
    return " ".join(unicodedata.normalize("NFKC", folded).split())


def check_nickname(nickname: object) -> str:
    """The nickname, NFC-normalised; :class:`NicknameError` saying what is wrong otherwise."""
    if not isinstance(nickname, str):
        raise NicknameError("nickname must be a string")
    name = unicodedata.normalize("NFC", nickname)
    if not 1 <= len(name) <= NICKNAME_MAX:
        raise NicknameError(f"nickname must be 1–{NICKNAME_MAX} characters")
    if name != name.strip() or unicodedata.normalize("NFKC", name) != unicodedata.normalize("NFKC", name).strip():
        raise NicknameError("nickname must not start or end with a space")
    if any(unicodedata.category(char).startswith("C") for char in name):
        raise NicknameError("nickname must not contain control or invisible format characters")
    key = skeleton(name)
    if len(key) > KEY_MAX:
        raise NicknameError(f"nickname {name!r} is too long once normalised (NFKC; at most {KEY_MAX} characters)")
    if key.startswith(skeleton(GUEST_PREFIX)):
        raise NicknameError(f"nicknames starting with {GUEST_PREFIX!r} (or a look-alike of it) are kept for guests")
    return name
