"""Text laid out on a terminal by display width: padding, wrapping, flowing and columns.

A terminal gives a Japanese character two columns and an ANSI colour code none, so every
width here is measured on screen (``i18n.display_width``, East Asian Width via wcwidth), never
with ``len``. Japanese has no spaces between words, so a line may also break between two wide
characters where a word most likely ends (after punctuation, or after hiragana before a kanji
or katakana word; never before closing punctuation such as 。 or 」, the usual line-breaking
rule, nor inside a run of kanji or katakana, nor between a number and its word: 評判5,
商品+2枚), while English still breaks only at spaces; a Latin word is never cut, and in a
Japanese line a card's name of several words (``Roamin' Candle``) stays on one line whenever a
line can hold it. The terminal screens (``tui_screen``) and the plain board (``render``) both
lay their text out here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from .i18n import display_width, pad, truncate

__all__ = ["columns", "flow", "pad", "pad_left", "per_row", "strip_ansi", "truncate",
           "visible_len", "wrap", "wrap_line"]

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# Line-breaking rules (kinsoku): never at the start of a line / never at the end of one.
_NO_LINE_START = frozenset("、。，．・：；？！ーぁぃぅぇぉっゃゅょァィゥェォッャュョ）」』】〕〉》"
                           "…‥!),.:;?%]")
_NO_LINE_END = frozenset("（「『【〔〈《([")
# Narrow characters that stay with the wide ones beside them: a number and its sign keep to
# their word (評判5, 商品+2枚, 14手番), never left alone at a line's end or start.
_GLUE = frozenset("0123456789+-$%/")


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


def visible_len(text: str) -> int:
    """The width of ``text`` on screen: wide characters take two columns, ANSI colour codes
    none."""
    return display_width(text)


def pad_left(text: str, width: int) -> str:
    """``text`` with spaces before it to fill ``width`` columns (right-aligned)."""
    return pad(text, width, ">")


def _wide(char: str) -> bool:
    return display_width(char) > 1


def _tokens(word: str) -> Iterator[str]:
    """The characters of ``word``, each ANSI code kept whole (and taking no room)."""
    pos = 0
    for m in _ANSI.finditer(word):
        yield from word[pos:m.start()]
        yield m.group()
        pos = m.end()
    yield from word[pos:]


def _script(char: str) -> str:
    """A wide character's kind for line breaking: hiragana ("h"), katakana with its long-vowel
    mark ("t"), kanji ("k"), or anything else ("p": punctuation, brackets, symbols)."""
    if "\u3041" <= char <= "\u309f":
        return "h"
    if "\u30a1" <= char <= "\u30fa" or char == "ー":
        return "t"
    if "\u4e00" <= char <= "\u9fff" or char in "々〆":
        return "k"
    return "p"


def _may_break(before: str, token: str) -> bool:
    """Whether a line may break between two characters of a run without spaces. Japanese
    words are not spaced, so the break goes where a word most likely ends: after a
    punctuation mark or symbol, after hiragana (a particle or an ending) before a kanji or a
    katakana word, between kanji and katakana, and where Japanese meets a Latin word; never
    inside a run of kanji (評判), of katakana (ポーション) or a kanji word and its ending
    (獲得する), nor against the line-breaking rules, nor between a number and its word."""
    if not (_wide(before) or _wide(token)):
        return False  # a Latin word or a number: never cut
    if token in _NO_LINE_START or before in _NO_LINE_END or token in _GLUE or before in _GLUE:
        return False
    if not (_wide(before) and _wide(token)):
        return True  # Japanese meets Latin
    a, b = _script(before), _script(token)
    if "p" in (a, b):
        return True
    if a == "h":
        return b != "h"
    return b != "h" and a != b


def _pieces(word: str) -> list[str]:
    """``word`` (no spaces in it, or a card name's) cut where a line may break
    (``_may_break``)."""
    pieces = [""]
    before = ""
    for token in _tokens(word):
        if token.startswith("\x1b"):
            pieces[-1] += token
            continue
        if before and _may_break(before, token):
            pieces.append("")
        pieces[-1] += token
        before = token
    return pieces


def _latin(char: str, end: bool) -> bool:
    """Whether a word ending (``end``) or starting with ``char`` is a Latin word a name may
    go on with: "Roamin'" + "Candle", "Fogo" + "de" + "Char"."""
    return not _wide(char) and (char.isalnum() or (end and char in "'’-&!"))


def _groups(words: list[str], japanese: bool) -> list[str]:
    """The words of a line, where in a Japanese line a run of Latin words (a card's or a
    player's name written in the middle of Japanese: ``Roamin' Candleを``) is kept as one,
    its spaces inside it: English lines break at every space as before."""
    groups: list[str] = []
    for word in words:
        plain = strip_ansi(word)
        if (japanese and groups and plain and _latin(strip_ansi(groups[-1])[-1:] or " ", True)
                and _latin(plain[0], False)):
            groups[-1] += " " + word
        else:
            groups.append(word)
    return groups


def _split_to_fit(piece: str, width: int) -> list[str]:
    """A piece too wide for any line, cut into parts of at most ``width`` columns."""
    parts = [""]
    for token in _tokens(piece):
        if visible_len(parts[-1] + token) > width and visible_len(parts[-1]) > 0:
            parts.append("")
        parts[-1] += token
    return parts


def wrap_line(line: str, width: int, indent: int | None = None) -> list[str]:
    """One line wrapped to ``width`` columns at spaces (and between wide characters), the
    first line keeping its own indent, the others indented by ``indent`` (default: its own
    indent plus two). A Latin word, a number with its word and, in a Japanese line, a name
    of several Latin words are never cut where a line can hold them whole."""
    if visible_len(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    more = " " * (lead + 2 if indent is None else indent)
    japanese = any(_wide(c) for c in strip_ansi(line))
    # (piece, whether a space comes before it), in order
    stream = [(piece, k == 0 and g > 0)
              for g, group in enumerate(_groups(line.split(), japanese))
              for k, piece in enumerate(_pieces(group))]
    out = [" " * lead]
    fresh = True  # nothing but the indent on the line yet
    while stream:
        piece, spaced = stream.pop(0)
        joint = " " if spaced and not fresh else ""
        if visible_len(out[-1] + joint + piece) <= width:
            out[-1] += joint + piece
            fresh = False
            continue
        if " " in piece and visible_len((out[-1] if fresh else more) + piece) > width:
            # a name too long for any line: it breaks at its own spaces after all
            stream[:0] = [(word, k > 0 or spaced) for k, word in enumerate(piece.split(" "))]
            continue
        if not fresh:
            out.append(more)
            fresh = True
        if visible_len(out[-1] + piece) > width:
            parts = _split_to_fit(piece, max(1, width - visible_len(out[-1])))
            out[-1] += parts[0]
            out.extend(more + part for part in parts[1:])
        else:
            out[-1] += piece
        fresh = False
    return [part.rstrip() for part in out]


def wrap(lines: Sequence[str], width: int) -> list[str]:
    """Wraps lines longer than ``width`` columns (measured without colour codes) at spaces,
    or between wide characters, continuing under their own indent plus two."""
    out: list[str] = []
    for line in lines:
        out.extend(wrap_line(line, width))
    return out


def flow(head: str, items: Sequence[str], width: int, sep: str = " ",
         indent: int = 2) -> list[str]:
    """``head`` then the items, packed into lines of at most ``width`` visible columns (an
    item never splits; continuation lines are indented)."""
    lines = [head]
    for item in items:
        line = lines[-1]
        joint = "" if line == head or not line.strip() else sep
        if visible_len(line + joint + item) <= width or not line.strip():
            lines[-1] = line + joint + item
        else:
            lines.append(" " * indent + item)
    return lines


def columns(cells: Sequence[str], width: int, min_gap: int = 2) -> list[str]:
    """Lays cells out in as many equal columns as fit in ``width`` (column by row)."""
    if not cells:
        return []
    per_line = per_row(cells, width, min_gap)
    cell = max(visible_len(c) for c in cells) + min_gap
    return ["".join(pad(c, cell) for c in cells[i:i + per_line]).rstrip()
            for i in range(0, len(cells), per_line)]


def per_row(cells: Sequence[str], width: int, min_gap: int = 2) -> int:
    """How many cells ``columns`` puts on one line."""
    cell = max(visible_len(c) for c in cells) + min_gap
    return max(1, min(len(cells), (width + min_gap) // cell))
