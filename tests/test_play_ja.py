"""``flamecraft play`` in Japanese (issue 16), through the real program in a pty: a whole game
whose every screen fits 80 display columns and shows no English word but card and player
names; ``--lang`` and the locale variables choose the language; Japanese command words work;
the end screen offers the game's review in both languages (issue 15 §3)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pexpect
import pytest

from flamecraft import apply_in_place, legal_actions, parse_action, start, to_act
from flamecraft.ai.evaluate import TERM_NAMES
from flamecraft.ai.hints import Budget, hints
from flamecraft.ai.interface import Seat as BotSeat
from flamecraft.ai.roster import bot_notes
from flamecraft.cli.main import main
from flamecraft.core.board import CATALOG
from flamecraft.core.tr import same
from flamecraft.display.i18n import catalogue, display_width, translator
from flamecraft.display.wrap import wrap_line
from flamecraft.terminal.ending import end_summary
from flamecraft.terminal.local_table import LocalTable
from flamecraft.terminal.newgame import PlayerSeat
from flamecraft.terminal.screen import HELP, Style, score_screen, strip_ansi, summary
from helpers import answer_one
from test_play import _finish, _spawn

PROMPT = "プレイヤー1> "
GAME_OVER = "ゲーム終了。Enter"
# What may stay in Latin letters on a Japanese screen besides card names: player and bot
# names, the keys and commands a person types, and file names.
ALLOWED = {"Ember", "planner", "Enter", "flamecraft", "play", "load", "review", "json"}
CARD_NAMES = sorted({card.name for table in (CATALOG.shops, CATALOG.artisans,
                                             CATALOG.enchantments, CATALOG.fancies,
                                             CATALOG.companions, CATALOG.achievements)
                     for card in table}
                    | {shop.ability_name for shop in CATALOG.shops if shop.ability_name},
                    key=len, reverse=True)


def english_words(screen: str) -> list[str]:
    """The Latin-letter words of a screen that are not card names (a Shop name the Town
    cuts short, "Potable Potio…", counts as its name) nor in ``ALLOWED``."""
    text = " ".join(strip_ansi(screen).split())  # a name the screen wraps is one again
    for name in CARD_NAMES:
        text = text.replace(name, " ")
    text = re.sub(r"[A-Za-z' ]+…", lambda m: " " if any(
        name.startswith(m.group()[:-1].strip()) for name in CARD_NAMES) else m.group(), text)
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in ALLOWED]


def _lines(screen: str) -> list[str]:
    return strip_ansi(screen).replace("\r", "").split("\n")


def test_a_whole_game_in_japanese_fits_80_columns_with_no_english_left(tmp_path: Path) -> None:
    """Issue 16: a 2-player game in Japanese, a person answering "1" to the end: every line
    of every screen is at most 80 display columns (a Japanese character takes two), a screen
    before a choice has at most 24 lines, and no English UI word is left."""
    child = _spawn(tmp_path, "--lang", "ja", "--players", "2", "--seed", "11", "--bot-delay",
                   "0")
    child.expect_exact("フレイムクラフト、シード 11")
    screens = []
    while child.expect([PROMPT, GAME_OVER]) == 0:
        if answer_one(child.before) == "1":  # (not the line saying 1 is gone)
            screens.append(child.before)
        child.sendline(answer_one(child.before))
    end = child.before
    child.sendline("保存 end.json")
    child.expect_exact("end.jsonに保存しました")
    child.expect_exact(GAME_OVER)
    child.sendline("")
    _finish(child)
    assert len(screens) > 20
    for k, screen in enumerate(screens):
        lines = _lines(screen)
        assert max(display_width(line) for line in lines) <= 80, (k, screen)
        summary_screen = lines[lines.index(next(x for x in lines if x.startswith(
            "フレイムクラフト 手番") or x.startswith("フレイムクラフト 準備"))):]
        assert len(summary_screen) <= 24, (k, screen)
        assert english_words(screen) == [], (k, english_words(screen), screen)
    assert max(display_width(line) for line in _lines(end)) <= 80
    assert "評判の内訳" in end and "月ドラゴン" in end and "勝者" in end
    assert english_words(end) == [], english_words(end)
    record = json.loads((tmp_path / "end.json").read_text(encoding="utf-8"))
    assert record["options"]["names"] == ["プレイヤー1", "Ember"]  # the default name, in Japanese
    s = start(2, 11, "purple", ("プレイヤー1", "Ember"))
    for typed in record["actions"]:  # the record keeps the stable English action texts
        apply_in_place(s, parse_action(s, typed))
    assert s.over


def test_a_solo_game_with_companions_in_japanese(tmp_path: Path) -> None:
    """Solo with Companions (achievements, Town Bustle, a rating title) in Japanese: every
    screen within 80 display columns, no English left, the score table unbroken."""
    child = _spawn(tmp_path, "--lang", "ja", "--players", "1", "--companions", "--seed", "5",
                   "--bot-delay", "0")
    child.expect_exact("Enterで始めます。")
    intro = "".join(child.before.split())
    assert "町のにぎわい" in intro and "14手番" in intro and "見習い" in intro, intro
    child.sendline("")
    screens = []
    while child.expect([PROMPT, GAME_OVER]) == 0:
        screens.append(child.before)
        child.sendline(answer_one(child.before))
    end = child.before
    child.sendline("")
    _finish(child)
    for k, screen in enumerate([*screens, end]):
        assert max(display_width(line) for line in _lines(screen)) <= 80, (k, screen)
        assert english_words(screen) == [], (k, english_words(screen), screen)
    assert "実績" in end and "仲間" in end and "称号:" in end
    table = _lines(end)[_lines(end).index("評判の内訳") + 1]
    assert table.split() == ["名前", "配置", "魔法", "太陽", "月", "贈り物", "能力", "コイン",
                             "実績", "合計"], table


def test_the_locale_variables_choose_japanese_and_lang_overrides_them(tmp_path: Path) -> None:
    """LC_ALL, then LC_MESSAGES, then LANG: ja_* is Japanese; --lang wins over them."""
    child = _spawn(tmp_path, "--players", "2", "--seed", "3", "--bot-delay", "0",
                   LANG="ja_JP.UTF-8", LC_ALL="", LC_MESSAGES="")
    child.expect_exact("フレイムクラフト、シード 3、魔法は紫のデッキ")
    child.expect_exact(PROMPT)
    child.sendline("終了")
    child.expect_exact("終わる前にゲームを保存しますか?")
    child.sendline("")
    child.expect_exact("さようなら。")
    _finish(child)
    child = _spawn(tmp_path, "--lang", "en", "--players", "2", "--seed", "3", "--bot-delay",
                   "0", LANG="ja_JP.UTF-8", LC_ALL="", LC_MESSAGES="")
    child.expect_exact("Flamecraft, seed 3, purple Enchantments.")
    child.expect_exact("Player 1> ")
    child.sendline("quit")
    child.sendline("")
    _finish(child)
    child = _spawn(tmp_path, "--players", "2", "--seed", "3", "--bot-delay", "0",
                   LANG="ja_JP.UTF-8", LC_ALL="C.UTF-8", LC_MESSAGES="")
    child.expect_exact("Flamecraft, seed 3")  # LC_ALL comes first
    child.expect_exact("Player 1> ")
    child.sendline("quit")
    child.sendline("")
    _finish(child)


def test_japanese_commands_numbers_and_errors(tmp_path: Path) -> None:
    """Japanese command words (手札, 町, ヘルプ) and the English ones both work in Japanese;
    full-width digits from an input method pick a choice; a bad answer is told in Japanese
    and the question asked again."""
    child = _spawn(tmp_path, "--lang", "ja", "--players", "2", "--seed", "11", "--bot-delay",
                   "0", "--no-color")
    child.expect_exact(PROMPT)
    child.sendline("ヘルプ")
    child.expect_exact("ターミナルでの遊び方")
    child.expect_exact(PROMPT)
    help_text = child.before
    assert max(display_width(line) for line in _lines(help_text)) <= 80
    child.sendline("hand")
    child.expect_exact("あなたの働きドラゴン")
    child.expect_exact(PROMPT)
    child.sendline("町")
    child.expect_exact("スロット1:")
    child.expect_exact(PROMPT)
    child.sendline("99")
    child.expect_exact("選択肢 99 は今はありません: 表示中の番号を入力してください")
    child.expect_exact(PROMPT)
    child.sendline("xyzzy")
    child.expect_exact("'xyzzy'に合う選択肢がありません")
    child.expect_exact(PROMPT)
    child.sendline("カード draco bell")
    child.expect_exact("Draco Bell — お店、アイコン:")
    child.expect_exact(PROMPT)
    child.sendline("1")  # keep a Fancy Dragon (it cannot be undone: a card was drawn)
    child.expect_exact(PROMPT)
    child.sendline("１")  # a full-width 1: visit a Shop
    child.expect_exact(PROMPT)
    child.sendline("戻す")
    child.expect_exact("戻しました:")
    child.expect_exact(PROMPT)
    child.sendline("終了")
    child.sendline("")
    _finish(child)


def _play_to_the_end(child: pexpect.spawn, prompt: str, over: str) -> str:
    while child.expect([prompt, over]) == 0:
        child.sendline(answer_one(child.before))
    return str(child.before)


def test_the_end_screen_offers_a_review_in_both_languages(tmp_path: Path) -> None:
    """Issue 15 §3: the end screen says how to see the game's review; ``review`` (or
    振り返り) shows the person's biggest mistakes and the win chance over the game, within
    80 columns, and the end prompt comes back."""
    for lang, prompt, over, word, marks in (
            ("en", "Player 1> ", r"Game over\. Press Enter", "review",
             ("REVIEW", "BIGGEST MISTAKES", "WIN CHANCE OVER THE GAME", "best choice")),
            ("ja", PROMPT, GAME_OVER, "振り返り",
             ("振り返り", "大きなミス", "勝率の推移", "最善手"))):
        child = _spawn(tmp_path, "--lang", lang, "--players", "2", "--seed", "11",
                       "--bot-delay", "0", "--no-color")
        end = _play_to_the_end(child, prompt, over)
        assert ("Type 'review'" if lang == "en" else "「振り返り」(review) と入力") in end
        child.sendline(word)
        child.expect(over)
        shown = child.before
        for mark in marks:
            assert mark in shown, (mark, shown)
        assert [x for x in _lines(shown) if display_width(x) > 80] == []
        child.sendline("")
        _finish(child)


def test_wrapping_breaks_japanese_between_characters_but_not_before_closing_marks() -> None:
    """Japanese has no spaces: a long line breaks between characters, never putting 。 or 、
    at the start of a line; English still breaks only at spaces."""
    line = "  " + "あいうえお、かきくけこ。" * 8
    lines = wrap_line(line, 30)
    assert all(display_width(x) <= 30 for x in lines)
    assert not any(x.strip()[0] in "、。" for x in lines)
    assert "".join(x.strip() for x in lines) == line.strip()
    english = "  the quick brown fox jumps over the lazy dog " * 3
    assert all(w.isalpha() for x in wrap_line(english.rstrip(), 30) for w in x.split())
    assert wrap_line("\x1b[1m太字\x1b[0mの文" * 10, 20)[0].startswith("\x1b[1m")


def test_japanese_help_and_summaries_fit_the_screen() -> None:
    """The help and the first screens of a game fit 80×24 in Japanese (display width)."""
    tr = translator("ja", "terminal").gettext
    assert max(display_width(line) for line in tr(HELP).splitlines()) <= 80
    s = start(4, 2)
    session = LocalTable(s, 2, [PlayerSeat("human", "あなた")] + [PlayerSeat("planner", n) for n in
                                                         ("Ember", "Cinder", "Ash")])
    style = Style(False, "ja")
    for _ in range(40):
        if session.state.over:
            break
        p = to_act(session.state)
        lines = summary(style, session.screen_view(p, style), CATALOG, 80, 24)
        assert max(display_width(line) for line in lines) <= 80
        assert len(lines) <= 23
        session.play(legal_actions(session.state)[0])


def test_every_bot_note_is_in_the_catalogue() -> None:
    """The set-up question lists the bots with a few words each: every note is a msgid of
    the game catalogue (which the web lobby shares), so it reads in Japanese too."""
    notes = [note for _, note in bot_notes() if note]
    assert notes and all(note in catalogue("ja", "game") for note in notes)
    style = Style(False, "ja")
    assert all(english_words(style.cards.bot_note(note)) == [] for note in notes)


def test_the_hints_reasons_read_in_japanese() -> None:
    """The hint's reasons are worded by the player's ``tr`` (the game catalogue, which the
    web shares): every valuation term is a msgid there, the Japanese reasons have no English
    but card names, and English is unchanged (the same reasons as without ``tr``)."""
    assert set(TERM_NAMES.values()) <= set(catalogue("ja", "game"))
    s = start(3, 4)
    budget = Budget(samples=2, beam=2, depth=4)
    tr = translator("ja", "game").gettext
    for _ in range(30):
        if s.over:
            break
        p = to_act(s)
        english = hints(BotSeat(s, p), random.Random(1), budget)
        plain = hints(BotSeat(s, p), random.Random(1), budget, tr=same)
        japanese = hints(BotSeat(s, p), random.Random(1), budget, tr=tr)
        assert [h.reason for h in english] == [h.reason for h in plain]
        for h in japanese:
            assert english_words(h.reason) == [], h.reason
        s = s.copy()
        apply_in_place(s, legal_actions(s)[-1])


def test_show_and_command_line_errors_in_japanese(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``flamecraft show --lang ja`` draws the board in Japanese; a file error is told in the
    language of --lang (even before the rest of the line is parsed) or of the environment,
    and in English otherwise."""
    state = tmp_path / "s.json"
    assert main(["new", "--players", "3", "--seed", "4", "--out", str(state)]) == 0
    assert main(["show", str(state), "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "町" in out and "魔法列" in out and "を選択中" in out and "あなたの選択肢" in out
    assert max(display_width(line) for line in out.splitlines()) <= 100
    assert english_words(out) == [], english_words(out)
    missing = str(tmp_path / "missing.json")
    assert main(["show", missing, "--lang", "ja"]) == 1
    assert f"{missing}: そのファイルはありません" in capsys.readouterr().err
    monkeypatch.setenv("LC_ALL", "")
    monkeypatch.setenv("LC_MESSAGES", "")
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert main(["show", missing]) == 1
    assert "そのファイルはありません" in capsys.readouterr().err
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert main(["show", missing]) == 1
    assert f"{missing}: no such file" in capsys.readouterr().err


def test_the_setup_questions_in_japanese_take_japanese_answers(tmp_path: Path) -> None:
    """The set-up questions speak Japanese and take Japanese answers: full-width digits, 、 as
    the names' separator, 金 for the golden deck, はい for Companions; a bad answer is told
    in Japanese and asked again."""
    child = _spawn(tmp_path, "--lang", "ja", "--bot-delay", "0")
    child.expect_exact("プレイヤー人数 (1～5) [4]:")
    child.sendline("9")
    child.expect_exact("プレイヤー: 1から5の整数を入力してください")
    child.sendline("２")
    child.expect_exact("このキーボードで遊ぶ人数 (1～2。残りの席はボット) [1]:")
    child.sendline("")
    child.expect_exact("対戦相手 (強い順):")
    child.expect_exact("expert    エキスパート — 手番全体を計画し、学習したモデルで局面を評価"
                       "します。")  # one line in 80 columns
    child.expect_exact("対戦相手 [expert]:")
    child.sendline("")
    child.expect_exact("名前 (カンマ区切り) [プレイヤー1、Ember]:")
    child.sendline("はなこ、Ember")
    child.expect_exact("魔法デッキ (紫 か 金) [紫]:")
    child.sendline("金")
    child.expect_exact("仲間カードを使う (はい か いいえ) [いいえ]:")
    child.sendline("たぶん")
    child.expect_exact("「はい」か「いいえ」で答えてください")
    child.sendline("はい")
    child.expect_exact("シード (数字。Enterで秘密のランダムな配り) [ランダム]:")
    child.sendline("")
    child.expect_exact("魔法は金のデッキ")
    child.expect_exact("席: はなこ (人間)、Ember (エキスパートボット)")
    child.expect_exact("はなこ> ")
    child.sendline("終了")
    child.sendline("")
    _finish(child)


def test_flamecraft_hint_in_japanese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``flamecraft hint --lang ja``: the header, the choices, the reasons and the planned
    turn in Japanese (card names aside)."""
    state = tmp_path / "s.json"
    assert main(["new", "--players", "3", "--seed", "4", "--out", str(state)]) == 0
    assert main(["apply", str(state), "1", "1", "1", "--out", str(state)]) == 0
    capsys.readouterr()
    assert main(["hint", str(state), "--lang", "ja", "--samples", "4", "--top", "6"]) == 0
    out = capsys.readouterr().out
    assert "へのヒント (訪れるお店)" in out and "その後:" in out
    assert english_words(out) == [], english_words(out)


def test_a_long_japanese_name_never_breaks_the_score_table() -> None:
    """A 20-character Japanese name takes 40 columns: the score table cuts it short in its
    name column (it is whole on the other lines) so that no row wraps, in both languages."""
    long_name = "とても長い名前のプレイヤーです二十文字"
    s = start(2, 3, "purple", (long_name, "Ember"))
    prev = s
    rng = random.Random(1)
    while not s.over:
        prev = s.copy()
        apply_in_place(s, rng.choice(legal_actions(s)))
    for lang in ("ja", "en"):
        style = Style(False, lang)
        lines = score_screen(style, end_summary(s, prev, style), 80)
        assert max(display_width(line) for line in lines) <= 80
        head = 3
        table = lines[head:head + 3]
        assert [len(row.split()) for row in table] == [9, 9, 9], table
        assert any(long_name in line for line in lines)
