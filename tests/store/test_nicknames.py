"""Nickname skeletons (UTS #39, full confusables data): look-alikes are one name; invisible
characters and mixed scripts are refused; ``guest`` is reserved on the skeleton."""

from __future__ import annotations

import pytest

from tuolaji.store.nicknames import KEY_MAX, NicknameError, check_nickname, skeleton


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("alice", "аlice"),  # Cyrillic а
        ("alice", "ALICE"),
        ("alice", "ａｌｉｃｅ"),  # fullwidth
        ("alice", "𝐚𝐥𝐢𝐜𝐞"),  # mathematical bold
        ("Ian", "lan"),  # capital I and small l
        ("bob1", "bobl"),
        ("tom", "torn"),
        ("paypal", "раураl"),  # Cyrillic р, а, у
        ("Hello", "Нello"),  # Cyrillic Н
        ("alice", "ɑlice"),  # Latin alpha
        ("alice", "ᴀlice"),  # Latin small capital A
        ("alice", "Ꭺlice"),  # Cherokee GO
        ("alice", "ALICE"),
        ("guest", "ɡuest"),  # Latin script g
        ("a b", "a\u3000 b"),  # ideographic space, a run of spaces
        ("guest-1", "guest‐1"),  # U+2010 hyphen
        ("Straße", "STRASSE"),
    ],
)
def test_look_alikes_have_one_skeleton(one: str, other: str) -> None:
    assert skeleton(one) == skeleton(other)


@pytest.mark.parametrize(("one", "other"), [("alice", "alex"), ("南寧", "南宁"), ("bob", "bop"), ("ann", "anna")])
def test_different_names_stay_different(one: str, other: str) -> None:
    assert skeleton(one) != skeleton(other)


@pytest.mark.parametrize(
    "name", ["guest-abc", "GUEST-x", "ｇｕｅｓｔ-abc", "ɡuest-abc", "guest一abc", "guest‐abc", "guest—1", "Guest"]
)
def test_guest_prefix_is_reserved_on_the_skeleton(name: str) -> None:
    with pytest.raises(NicknameError, match="kept for guests") as refused:
        check_nickname(name)
    assert refused.value.reason == "guest"


@pytest.mark.parametrize(
    ("name", "scripts"),
    [
        ("gυest-abc", "Greek and Latin"),
        ("guеst-abc", "Cyrillic and Latin"),
        ("աlice", "Armenian and Latin"),  # its skeleton is wlice: refused for its scripts
        ("Ꭺlice", "Cherokee and Latin"),
        ("раураl", "Cyrillic and Latin"),
    ],
)
def test_letters_of_scripts_that_do_not_go_together_are_refused(name: str, scripts: str) -> None:
    with pytest.raises(NicknameError, match=scripts) as refused:
        check_nickname(name)
    assert refused.value.reason == "scripts"


@pytest.mark.parametrize("name", ["南寧tuolaji", "さくらSakura", "김민준kim", "Алиса", "Ελένη", "李小龍 Bruce"])
def test_single_scripts_and_the_highly_restrictive_mixes_are_allowed(name: str) -> None:
    assert check_nickname(name) == name


@pytest.mark.parametrize(
    "name",
    ["ali\u034fce", "alice\ufe0f", "alice\u3164", "alice\u2800", "guest\u3164-abc", "a\u00adb", "b\u200bob", "b\x00ob"],
)
def test_invisible_and_default_ignorable_code_points_are_refused(name: str) -> None:
    with pytest.raises(NicknameError, match="invisible, control or format") as refused:
        check_nickname(name)
    assert refused.value.reason == "invisible"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        (3, "must be a string"),
        ("", "1–20 characters"),
        ("x" * 21, "1–20 characters"),
        (" bob", "start or end with a space"),
        ("bob\u3000", "start or end with a space"),
        ("b\u200bob", "invisible, control or format"),
        ("\ud800bob", "invisible, control or format"),
        ("\ufdfa" * 3, "too long once normalised"),
    ],
)
def test_bad_nicknames_are_refused_saying_why(name: object, why: str) -> None:
    with pytest.raises(NicknameError, match=why):
        check_nickname(name)


def test_every_valid_nickname_key_fits_the_column() -> None:
    assert check_nickname("南寧拖拉機") == "南寧拖拉機"
    assert len(skeleton(check_nickname("m" * 20))) <= KEY_MAX
