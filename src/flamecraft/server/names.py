"""Names typed by strangers: seat and game names as every other player will read them.

A name must not be able to pass for another one or to rearrange the page around it: control
characters (a newline, a bell) and invisible ones (zero-width spaces and joiners, the
bidirectional overrides and isolates, a byte-order mark) are refused, and names are NFKC
normalised (a fullwidth "Ａnn" is "Ann") and compared case-folded ("STRASSE" is "Straße").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from ..sessions import SetupError, check_names

# Unicode categories never allowed: controls, format characters (every zero-width and
# bidirectional mark), surrogates, private use, unassigned, line and paragraph separators.
_CONTROL = frozenset({"Cc"})
_INVISIBLE = frozenset({"Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _bad_character(text: str) -> str | None:
    """What is wrong with the first character a name may not hold, or None."""
    for ch in text:
        category = unicodedata.category(ch)
        if category in _CONTROL:
            return f"a control character (U+{ord(ch):04X})"
        if category in _INVISIBLE or ch in "\u115f\u1160\u3164\uffa0":  # Hangul fillers
            return f"an invisible character (U+{ord(ch):04X})"
    return None


def clean(text: str, what: str) -> str:
    """``text`` NFKC-normalised with its spaces tidied; raises SetupError naming ``what`` if
    it holds a control or invisible character."""
    bad = _bad_character(text)
    if bad is None:
        text = unicodedata.normalize("NFKC", text)
        bad = _bad_character(text)  # NFKC never makes one, but a name must not rely on it
    if bad is not None:
        raise SetupError(f"{what} holds {bad}: use visible letters, digits and spaces")
    return " ".join(text.split())


def check_seat_names(names: Sequence[str]) -> tuple[str, ...]:
    """Seat names as ``sessions.check_names`` wants them, each cleaned and no two equal when
    case-folded."""
    tidy = [clean(n, f"the name {n!r}") for n in names]
    folded = [n.casefold() for n in tidy]
    if len(set(folded)) != len(folded):
        raise SetupError("two players have the same name (names are compared without regard "
                         "to case or to the width of letters)")
    return check_names(tidy)
