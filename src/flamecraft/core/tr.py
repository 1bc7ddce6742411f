"""How the rules core speaks a player's language without knowing any: a translate function.

A core function that builds a sentence a player reads takes ``tr: Translate = same`` and
formats ``tr("place {dragon} on {shop} slot {slot}").format(dragon=…, shop=…, slot=…)``.
``same`` (the default) is the identity, so English is the msgid itself, byte for byte; an
adapter passes ``flamecraft.display.i18n.translator(lang, "game").gettext``. The core never reads a
catalogue, a file or the environment.

Babel extracts every literal passed to ``tr(...)`` or ``N_(...)`` (``make catalogue``).
``N_`` marks a msgid where it is defined (a table of words) without translating it; the code
that shows it later calls ``tr(word)``. Placeholders are named (``{shop}``), never
positional, so that a translation may put them in another order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

Translate: TypeAlias = Callable[[str], str]


def same(msgid: str) -> str:
    """The identity translation: the English text, which is the msgid."""
    return msgid


def N_(msgid: str) -> str:
    """Marks ``msgid`` for extraction; returns it untranslated (translate it where shown)."""
    return msgid
