"""What a person types, read as a choice or a card: a number, a choice's text or the start of
it, or words that each begin a word of one choice; the order in which the choices are listed
(declines last)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from ..core.actions import Action, normalize
from ..core.board import CATALOG
from ..core.goods import GOOD_NAMES
from ..core.kinds import ACTION_KINDS
from ..core.tr import same
from .screen import (
    Cards,
)

ECHO = 40  # the most of a bad input an error message repeats
def display_order(actions: Sequence[Action]) -> list[Action]:
    """The legal actions as the numbered list shows them: declines (skip, end the turn: the
    kinds declared ``decline``) last, so that a quick "1" never skips something (a Sun
    Dragon's reveal before "end turn"); otherwise in the engine's order."""
    return sorted(actions, key=lambda a: ACTION_KINDS[a[0]].decline)


def _echo(typed: str) -> str:
    """A bad input as a message repeats it: at most ``ECHO`` characters."""
    typed = typed.strip()
    return repr(typed if len(typed) <= ECHO else typed[:ECHO - 1] + "…")


def fold(name: str) -> str:
    """A name for matching: no accents, plain apostrophes, lower case (``Maître D’rake``
    → ``maitre d'rake``)."""
    plain = unicodedata.normalize("NFKD", name.replace("’", "'").replace("‘", "'"))
    return normalize("".join(c for c in plain if not unicodedata.combining(c)))


class ChoiceError(ValueError):
    """Typed input that picks no single choice; its message is shown to the player."""




# Where a choice's text has word boundaries besides spaces: Japanese writes none between
# words, but lists them with 、 or ・ and shows icons in brackets (パン、肉、植物を獲得する
# [パ][肉][植]), so "パン 肉 植" can find its choice as "bread meat pl" does in English.
_BOUNDARY = re.compile(r"[\s、。・，,：:（）()\[\]「」/]+")


def _words(text: str) -> list[str]:
    """The words of a text (or of what was typed), split at spaces and list punctuation."""
    return [w for w in _BOUNDARY.split(text) if w]


def _words_match(typed: list[str], words: list[str]) -> bool:
    """Whether each typed word begins some word of the text, in order ("dra bell" fits
    "visit draco bell")."""
    k = 0
    for word in words:
        if k < len(typed) and word.startswith(typed[k]):
            k += 1
    return k == len(typed)


def match_text(typed: str, texts: Sequence[str], what: str = "choice",
               numbered: bool = True, tr: Callable[[str], str] = same) -> int:
    """The index of the one text that ``typed`` picks: its 1-based number (when
    ``numbered``), the text itself, a unique prefix of it, or (failing that) words that each
    begin a word of exactly one text. Raises ChoiceError with a short message (in the
    language of ``tr``; ``what`` is "choice" or "card") otherwise."""
    key = normalize(typed)
    if what == "card":
        thing, things = tr("card"), tr("cards")
    else:
        thing, things = tr("choice"), tr("choices")
    if not key:
        raise ChoiceError(tr("type a number or the start of a {what}").format(what=thing))
    if numbered and (key.isdigit() or (key[0] in "+-" and key[1:].isdigit())):
        n = int(key)
        if 1 <= n <= len(texts):
            return n - 1
        raise ChoiceError(tr("there is no {what} {n}: type a number from 1 to {last}").format(
            what=thing, n=n, last=len(texts)))
    norm = [normalize(t) for t in texts]
    if key in norm:
        return norm.index(key)
    hits = [i for i, t in enumerate(norm) if t.startswith(key)]
    if not hits:
        hits = [i for i, t in enumerate(norm) if _words_match(_words(key), _words(t))]
    if len(hits) == 1:
        return hits[0]
    if hits:
        shown = "; ".join(f"{i + 1} {texts[i]}" if numbered else texts[i] for i in hits[:4])
        more = "; …" if len(hits) > 4 else ""
        hint = tr("type more of it, or its number") if numbered else tr("type more of it")
        raise ChoiceError(tr("{typed} fits {n} {what} ({shown}): {hint}").format(
            typed=_echo(typed), n=len(hits), what=things, shown=shown + more, hint=hint))
    if not numbered:
        raise ChoiceError(tr("no {what} is called {typed}").format(what=thing,
                                                                   typed=_echo(typed)))
    raise ChoiceError(tr("no {what} matches {typed}: type a number from 1 to {last}, the start "
                         "of a {what}, or 'help'").format(what=thing, typed=_echo(typed),
                                                          last=len(texts)))


def find_card(typed: str, tr: Callable[[str], str] = same) -> object:
    """The card whose name ``typed`` picks (exactly, by a unique prefix or by its words)."""
    cards = Cards(CATALOG).all_named()
    names = [fold(name) for name, _ in cards]
    if not normalize(typed):
        raise ChoiceError(tr("which card? type 'card' and a name, e.g. 'card Draco Bell'"))
    key = fold(typed)
    if key in names:  # an exact name first: "card flambe" is Flambé, not Le Flamberge
        return cards[names.index(key)][1]
    try:
        return cards[match_text(key, names, "card", numbered=False, tr=tr)][1]
    except ChoiceError:  # say it with the cards' real names
        return cards[match_text(typed, [name for name, _ in cards], "card", numbered=False,
                                tr=tr)][1]


def goods_typed(typed: str, game: Callable[[str], str] = same) -> int | None:
    """The set of different Goods that ``typed`` names, as a mask (bit g for Good g), or
    None: two or more words, each the start of one Good's name in English or in the game's
    language (``br me pl``; ``パン 肉 植``), none named twice."""
    words = normalize(typed).split()
    if len(words) < 2:
        return None
    names = [(g, fold(name)) for g, msgid in enumerate(GOOD_NAMES)
             for name in {msgid, game(msgid)}]
    mask = 0
    for word in words:
        hits = {g for g, name in names if name.startswith(fold(word))}
        if len(hits) != 1 or mask >> min(hits) & 1:
            return None
        mask |= 1 << min(hits)
    return mask
