"""Japanese wording fixes of issue 21, item 7: a hint's Goods read 商品+2枚 (not 商品+商品2枚),
a Goods choice can be typed ``パン 肉 植`` with spaces, and a wrapped Japanese line is never cut
inside a Latin word, a number and its word, a kanji or katakana word (with its ending) or a
card's name where a line can hold it whole."""

from __future__ import annotations

import pytest

from flamecraft import start
from flamecraft.ai.hints import _facts as hint_facts
from flamecraft.core.board import CATALOG
from flamecraft.display.i18n import display_width, translator
from flamecraft.display.wrap import strip_ansi, wrap_line
from flamecraft.terminal.typed_input import match_text

JA = translator("ja", "game").gettext


def test_a_hint_says_the_goods_gained_once() -> None:
    s = start(2, 1)
    end = s.copy()
    end.goods[0][0] += 2
    assert "商品+2枚" in hint_facts(s, end, 0, JA)[0]
    assert not any("商品+商品" in fact for fact in hint_facts(s, end, 0, JA)[0])
    assert "+2 Goods" in hint_facts(s, end, 0)[0]
    end.goods[0][0] -= 1
    assert "+1 Good" in hint_facts(s, end, 0)[0]


GAIN_SET = ["パン、肉、鉄を獲得する [パ][肉][鉄]", "パン、肉、植物を獲得する [パ][肉][植]",
            "肉、鉄、植物を獲得する [肉][鉄][植]", "パン、鉄、植物を獲得する [パ][鉄][植]"]


@pytest.mark.parametrize("typed", ["パン 肉 植", "パン　肉　植", "パン、肉、植", "パン肉植物"])
def test_three_goods_typed_with_spaces_pick_their_choice(typed: str) -> None:
    if typed == "パン肉植物":  # no boundary typed at all: too little to go on, still refused
        with pytest.raises(ValueError):
            match_text(typed, GAIN_SET)
        return
    assert match_text(typed, GAIN_SET) == 1


def test_english_typing_is_unchanged() -> None:
    assert match_text("dra bell", ["visit draco bell", "visit smith mart"]) == 0
    assert match_text("bread meat pl", ["gain bread, meat, iron", "gain bread, meat, plant"]) == 1


def _cut_inside(lines: list[str], whole: str) -> bool:
    """Whether ``whole`` was split across two of the lines."""
    return whole not in "".join(strip_ansi(x).strip() for x in lines) or not any(
        whole in strip_ansi(x) for x in lines)


@pytest.mark.parametrize("width", [16, 20, 24, 30])
def test_japanese_lines_break_between_words_never_inside_names_or_numbers(width: int) -> None:
    names = [f.name for f in CATALOG.fancies
             if " " in f.name and display_width(f.name) < width - 2]
    assert names
    for before in range(0, 14):
        for name in names[:6]:
            line = "あ" * before + (f"{name}を獲得する。評判12、商品+2枚、ポーションの"
                                    "ドラゴン [パ][肉]")
            lines = wrap_line(line, width)
            assert all(display_width(x) <= width for x in lines), lines
            assert "".join(lines).replace(" ", "") == line.replace(" ", "")  # all of it
            for whole in (name, "評判12", "+2枚", "ポーションの", "ドラゴン", "[パ]", "[肉]",
                          "獲得する。"):
                assert not _cut_inside(lines, whole), (whole, lines)


def test_a_name_longer_than_a_line_still_breaks_at_its_spaces() -> None:
    lines = wrap_line("魔法の Le Flamberge of the Very Long Name を唱える", 12)
    assert all(display_width(x) <= 12 for x in lines), lines
    assert all(w.isalpha() or not w.isascii() for x in lines for w in x.split()), lines


def test_english_lines_still_break_at_every_space() -> None:
    lines = wrap_line("visit Fogo de Char and then gather two Iron there", 20)
    assert lines == ["visit Fogo de Char", "  and then gather", "  two Iron there"]
