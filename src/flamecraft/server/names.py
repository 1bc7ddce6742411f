"""Names typed by strangers: seat and game names as every other player will read them.

A name must not be able to pass for another one or to rearrange the page around it: control
characters (a newline, a bell) and invisible ones (zero-width spaces and joiners, the
bidirectional overrides and isolates, a byte-order mark) are refused, and names are NFKC
normalised (a fullwidth "Ａnn" is "Ann") and compared case-folded ("STRASSE" is "Straße").

Letters of other scripts that look the same are caught too: two seats of a game whose names
have the same confusable *skeleton* (Unicode's UTS #39: each character replaced by the
prototype it is confusable with, "Воb" with a Cyrillic В and о is "Bob", "Αnn" with a Greek
Α is "Ann") cannot both sit. The table is Unicode's confusables.txt as the
``confusable_homoglyphs`` package ships it. A name may not stack more than
``MAX_MARKS`` combining marks on one letter, nor be wider than ``MAX_WIDTH`` columns (a
U+FDFD ligature is a dozen letters wide).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from functools import cache
from importlib.resources import files

from wcwidth import wcwidth

from ..core.tr import N_
from ..session.seats import SetupError, check_names

# Unicode categories never allowed: controls, format characters (every zero-width and
# bidirectional mark), surrogates, private use, unassigned, line and paragraph separators.
_CONTROL = frozenset({"Cc"})
_INVISIBLE = frozenset({"Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


# What is wrong, for a seat's name and for the game's (msgids: the player reads them).
_CONTROL_IN = {False: N_("the name {name} holds a control character ({code}): use visible "
                         "letters, digits and spaces"),
               True: N_("the game name holds a control character ({code}): use visible "
                        "letters, digits and spaces")}
_INVISIBLE_IN = {False: N_("the name {name} holds an invisible character ({code}): use "
                           "visible letters, digits and spaces"),
                 True: N_("the game name holds an invisible character ({code}): use visible "
                          "letters, digits and spaces")}


# Combining marks on one base character (after NFD: Vietnamese "ệ" has two, Thai at most
# three); more is "Zalgo" text that spills over the lines above and below.
MAX_MARKS = 3
# The widest name, in terminal columns (a wide CJK letter is 2): a seat's and the game's.
MAX_WIDTH = {False: 40, True: 120}
# Glyphs far wider than a letter, by the columns they take in common fonts.
_VERY_WIDE = {0xFDFD: 12, 0xFDFA: 8, 0xFDFB: 8, 0x2E3B: 3, 0x2E3A: 2, 0xA9C1: 2, 0xA9C2: 2,
              0x102A: 2, 0x0BF5: 2, 0x0BF8: 2, 0x0BFA: 2, 0x2031: 2, 0x2E3F: 2}

_MARKS_IN = {False: N_("the name {name} stacks more than {limit} marks on one letter"),
             True: N_("the game name stacks more than {limit} marks on one letter")}
_WIDE_IN = {False: N_("the name {name} is too wide: at most {limit} columns, a wide letter "
                      "counting two"),
            True: N_("the game name is too wide: at most {limit} columns, a wide letter "
                     "counting two")}


def _columns(ch: str) -> int:
    code = ord(ch)
    if code in _VERY_WIDE:
        return _VERY_WIDE[code]
    if 0x12000 <= code <= 0x1254F:  # cuneiform signs: each about three letters wide
        return 3
    return max(0, wcwidth(ch))


def width(text: str) -> int:
    """The columns a name takes on screen (a wide letter 2, a mark 0, a ligature its own)."""
    return sum(_columns(ch) for ch in text)


def most_marks(text: str) -> int:
    """The most combining marks on any one base character of ``text`` (decomposed)."""
    most = run = 0
    for ch in unicodedata.normalize("NFD", text):
        run = run + 1 if unicodedata.combining(ch) or unicodedata.category(ch) == "Me" else 0
        most = max(most, run)
    return most


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character → its prototype (UTS #39), from confusables.txt as the
    ``confusable_homoglyphs`` package ships it: its table lists each line of the file both
    ways (character ↔ prototype), so a character with a single look-alike is a source (a
    prototype never is one: skeletons are idempotent); of a pair that only know each
    other, the lower code point stands for both."""
    raw = json.loads(files("confusable_homoglyphs").joinpath("confusables.json")
                     .read_text(encoding="utf-8"))
    marks = str.maketrans("", "", "\u200e\u200f")  # the file's display marks, not data
    near: dict[str, set[str]] = {}
    for key, entries in raw.items():
        k = key.translate(marks)
        near.setdefault(k, set()).update(e["c"].translate(marks) for e in entries)
    out: dict[str, str] = {}
    for k, others in near.items():
        if len(k) != 1 or len(others) != 1:
            continue  # a sequence, or the prototype of several
        (t,) = others
        if not t or t == k or (len(t) == 1 and len(near.get(t, ())) == 1 and t > k):
            continue
        out[k] = t
    return out


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: decomposed, each character replaced by its
    prototype, decomposed again. Two names with one skeleton look alike."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in decomposed))


def _bad_character(text: str) -> tuple[bool, str] | None:
    """The first character a name may not hold — (whether it is a control character, its
    code point) — or None."""
    for ch in text:
        category = unicodedata.category(ch)
        if category in _CONTROL:
            return True, f"U+{ord(ch):04X}"
        if category in _INVISIBLE or ch in "\u115f\u1160\u3164\uffa0":  # Hangul fillers
            return False, f"U+{ord(ch):04X}"
    return None


def clean(text: str, game_name: bool = False) -> str:
    """``text`` NFKC-normalised with its spaces tidied; raises SetupError naming the name
    (or the game name) if it holds a control or invisible character."""
    given = text
    bad = _bad_character(text)
    if bad is None:
        text = unicodedata.normalize("NFKC", text)
        bad = _bad_character(text)  # NFKC never makes one, but a name must not rely on it
    if bad is not None:
        control, code = bad
        message = (_CONTROL_IN if control else _INVISIBLE_IN)[game_name]
        raise SetupError(message, {"code": code} if game_name
                         else {"name": repr(given), "code": code})
    text = " ".join(text.split())
    named = {} if game_name else {"name": repr(given)}
    if most_marks(text) > MAX_MARKS:
        raise SetupError(_MARKS_IN[game_name], {**named, "limit": str(MAX_MARKS)})
    if width(text) > MAX_WIDTH[game_name]:
        raise SetupError(_WIDE_IN[game_name], {**named, "limit": str(MAX_WIDTH[game_name])})
    return text


def check_seat_names(names: Sequence[str]) -> tuple[str, ...]:
    """Seat names as ``sessions.check_names`` wants them, each cleaned, no two equal when
    case-folded, and no two that look alike (the same confusable skeleton, as they are or
    case-folded): the later one is refused by name."""
    tidy = [clean(n) for n in names]
    folded = [n.casefold() for n in tidy]
    if len(set(folded)) != len(folded):
        raise SetupError(N_("two players have the same name (names are compared without "
                            "regard to case or to the width of letters)"))
    seen: dict[str, str] = {}
    for name, fold in zip(tidy, folded, strict=True):
        for key in {skeleton(name), skeleton(fold)}:
            other = seen.get(key)
            if other is not None and other != name:
                raise SetupError(N_("the name {name} looks like the name {other} (letters "
                                    "of another script that look the same): choose another"),
                                 {"name": repr(name), "other": repr(other)})
            seen[key] = name
    return check_names(tidy)
