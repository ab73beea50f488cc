"""Nickname skeletons: look-alikes are one name; ``guest-`` is reserved on the skeleton."""

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
        ("nico", "ηico"),  # Greek η
        ("a b", "a\u3000 b"),  # ideographic space, a run of spaces
        ("guest-1", "guest—1"),  # em dash
        ("Straße", "STRASSE"),
    ],
)
def test_look_alikes_have_one_skeleton(one: str, other: str) -> None:
    assert skeleton(one) == skeleton(other)


@pytest.mark.parametrize(("one", "other"), [("alice", "alex"), ("南寧", "南宁"), ("bob", "bop"), ("ann", "anna")])
def test_different_names_stay_different(one: str, other: str) -> None:
    assert skeleton(one) != skeleton(other)


@pytest.mark.parametrize(
    "name", ["guest-abc", "GUEST-x", "ｇｕｅｓｔ-abc", "gυest-abc", "guеst-abc", "guest一abc", "guest‐abc"]
)
def test_guest_prefix_is_reserved_on_the_skeleton(name: str) -> None:
    with pytest.raises(NicknameError, match="kept for guests"):
        check_nickname(name)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        (3, "must be a string"),
        ("", "1–20 characters"),
        ("x" * 21, "1–20 characters"),
        (" bob", "start or end with a space"),
        ("bob\u3000", "start or end with a space"),
        ("b\u200bob", "control or invisible"),
        ("b\x00ob", "control or invisible"),
        ("\ud800bob", "control or invisible"),
        ("\ufdfa" * 3, "too long once normalised"),
    ],
)
def test_bad_nicknames_are_refused_saying_why(name: object, why: str) -> None:
    with pytest.raises(NicknameError, match=why):
        check_nickname(name)


def test_every_valid_nickname_key_fits_the_column() -> None:
    assert check_nickname("南寧拖拉機") == "南寧拖拉機"
    assert len(skeleton(check_nickname("m" * 20))) <= KEY_MAX
