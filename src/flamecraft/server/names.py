"""Names typed by strangers: seat and game names as every other player will read them.

A name must not be able to pass for another one or to rearrange the page around it: control
characters (a newline, a bell) and invisible ones (zero-width spaces and joiners, the
bidirectional overrides and isolates, a byte-order mark) are refused, and names are NFKC
normalised (a fullwidth "Ａnn" is "Ann") and compared case-folded ("STRASSE" is "Straße").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

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
    return " ".join(text.split())


def check_seat_names(names: Sequence[str]) -> tuple[str, ...]:
    """Seat names as ``sessions.check_names`` wants them, each cleaned and no two equal when
    case-folded."""
    tidy = [clean(n) for n in names]
    folded = [n.casefold() for n in tidy]
    if len(set(folded)) != len(folded):
        raise SetupError(N_("two players have the same name (names are compared without "
                            "regard to case or to the width of letters)"))
    return check_names(tidy)
