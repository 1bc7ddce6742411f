"""The command line in Japanese (issue 16): ``demo``, ``actions``, ``apply`` and ``replay``
print no English word but card and player names; ``--help`` and usage errors (argparse's own
words too) are Japanese; a malformed state or record file is reported in Japanese while the
English message stays exactly what it was."""

from __future__ import annotations

import argparse
import inspect
import io
import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract

from flamecraft.cli.common import ARGPARSE_MESSAGES, argparse_speaking
from flamecraft.cli.main import main
from flamecraft.core.errors import StateFormatError, error_text
from flamecraft.core.serialize import load_record, load_state
from flamecraft.display.i18n import display_width, translator
from test_play import _finish, _spawn
from test_play_ja import english_words

GAME_JA = translator("ja", "game").gettext


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_demo_actions_apply_and_replay_in_japanese(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Each play-facing command with ``--lang ja``: Japanese throughout (card names aside),
    the same game as in English (the record keeps the stable English action texts)."""
    record = tmp_path / "game.json"
    status, out, _ = _run(capsys, "demo", "--lang", "ja", "--players", "3", "--seed", "5",
                          "--companions", "--record", str(record))
    assert status == 0
    assert "フレイムクラフトのデモ: ランダムなボット3体" in out and "勝者" in out
    assert english_words(out) == [], english_words(out)
    status, english, _ = _run(capsys, "demo", "--lang", "en", "--players", "3", "--seed", "5",
                              "--companions")
    assert english.startswith("Flamecraft demo: 3 random bots, seed 5, purple Enchantments")
    assert len(english.splitlines()) == len(out.splitlines())
    status, out, _ = _run(capsys, "replay", str(record), "--verbose", "--lang", "ja")
    assert status == 0 and "手番  1" in out and "評判の内訳" in out
    assert english_words(out) == [], english_words(out)
    state = tmp_path / "s.json"
    assert main(["new", "--players", "2", "--seed", "4", "--out", str(state)]) == 0
    status, out, _ = _run(capsys, "actions", str(state), "--lang", "ja")
    assert status == 0 and re.match(r"# P\dの番です \(手番0\): .+を選択中\n0: ", out), out
    assert english_words(out) == [], english_words(out)
    status, plain, _ = _run(capsys, "actions", str(state), "--plain", "--lang", "ja")
    assert plain.split("\n")[0].startswith("keep ")  # --plain: the stable texts for scripts
    status, out, _ = _run(capsys, "apply", str(state), "0", "--out", str(state), "--lang", "ja")
    assert status == 0 and "1個の行動を適用して" in out
    assert english_words(out.replace(str(state), "")) == [], out
    status, _, err = _run(capsys, "apply", str(state), "no such move", "--lang", "ja")
    assert status == 1 and "1番目の行動 ('no such move'): " in err and "選択中" not in err


# What a help page may show in Latin letters: option names, {choices}, placeholders such as
# PLAYERS, typed values and names of tools and files.
HELP_ALLOWED = {"flamecraft", "en", "ja", "purple", "golden", "human", "bot", "planner",
                "ismcts", "greedy", "random", "expert", "strong", "casual", "beginner",
                "spectator", "stdin", "json", "save", "new",
                "apply", "autosave", "play", "actions", "show", "replay", "simulate", "demo",
                "tournament", "balance", "ladder", "hint", "review", "info", "serve", "docs",
                "server", "md", "Python", "mypyc", "Bradley", "Terry", "Elo", "SQLite",
                "postgresql", "sqlite", "txt", "win", "chance", "png", "account", "recover"}


def _help_words(page: str) -> list[str]:
    text = re.sub(r"--?[\w-]+|\{[^}]*\}|(?<![A-Za-z])[A-Z_]{2,}(?![A-Za-z])|\$\w+|\w+://",
                  " ", page)
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in HELP_ALLOWED]


@pytest.mark.parametrize("command", ["", "play", "new", "actions", "apply", "show", "replay",
                                     "demo", "hint", "review"])
def test_help_in_japanese(command: str, capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``--help`` in Japanese, argparse's own headings too, within 80 display columns; the
    environment chooses it as well as ``--lang``; English is argparse's as before."""
    argv = [command] if command else []
    status, out, _ = _run(capsys, "--lang", "ja", *argv, "--help")
    assert status == 0
    assert out.startswith("使い方: flamecraft") and "オプション:" in out
    assert "このヘルプを表示して終了する" in out
    assert _help_words(out) == [], _help_words(out)
    assert max(display_width(line) for line in out.splitlines()) <= 80, out
    monkeypatch.setenv("LC_ALL", "ja_JP.UTF-8")
    assert _run(capsys, *argv, "--help")[1] == out
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    status, english, _ = _run(capsys, *argv, "--help")
    assert english.startswith("usage: flamecraft") and "\noptions:\n" in english
    assert "show this help message and exit" in english


def test_usage_errors_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse's errors and the argument checks in Japanese; exit status 2 as before."""
    status, _, err = _run(capsys, "new", "--players", "9", "--seed", "1", "--lang", "ja")
    assert status == 2 and "引数 --players: " in err and "(--help を参照)" in err
    assert english_words(re.sub(r"flamecraft new|--\w+", "", err)) == [], err
    status, _, err = _run(capsys, "actions", "--lang", "ja")
    assert status == 2 and "次の引数が必要です: 状態ファイル" in err
    status, _, err = _run(capsys, "demo", "--players", "2", "--seed", "1", "--bogus",
                          "--lang", "ja")
    assert status == 2 and "認識できない引数です: --bogus" in err
    status, _, err = _run(capsys, "demo", "--players", "2", "--seed", "1", "--lang", "en",
                          "--enchantments", "red")
    assert status == 2 and "argument --enchantments: invalid choice: 'red'" in err


def test_argparse_is_left_as_it_was() -> None:
    """Outside ``argparse_speaking`` (and with English inside it) argparse's words are its
    own: the Japanese is never left behind for another parser."""
    with argparse_speaking(translator("ja", "terminal").gettext):
        assert argparse._("usage: ") == "使い方: "  # type: ignore[attr-defined]
    assert argparse._("usage: ") == "usage: "  # type: ignore[attr-defined]
    buffer = io.StringIO()
    argparse.ArgumentParser(prog="x").print_help(buffer)
    assert buffer.getvalue().startswith("usage: x")


def test_the_listed_argparse_messages_are_argparse_s() -> None:
    """Every msgid in ``ARGPARSE_MESSAGES`` is one this Python's argparse says (extracted
    from its source with its gettext keywords), so no translation is of a dead message."""
    source = inspect.getsource(argparse).encode()
    said: set[str] = set()
    for _, message, _, _ in extract("python", io.BytesIO(source),
                                    keywords={"_": None, "ngettext": (1, 2)}):
        said.update([message] if isinstance(message, str) else message)
    assert set(ARGPARSE_MESSAGES) <= said, set(ARGPARSE_MESSAGES) - said


BAD_FILES = [
    ('{"format": 1', "not valid JSON: Expecting ',' delimiter: line 1 column 13 (char 12)",
     "JSONとして読めません: 1行13列 (位置12): 「,」がありません"),
    ("[1]", "not a flamecraft-state file: expected a JSON object",
     "flamecraft-state のファイルではありません: JSONのオブジェクトが必要です"),
    ('{"format": "flamecraft-state", "version": 99}',
     "unsupported flamecraft-state version 99 (this program reads versions 2 and 3)",
     "flamecraft-state のバージョン99には対応していません (読めるのはバージョン2と3です)"),
]


@pytest.mark.parametrize(("text", "english", "japanese"), BAD_FILES)
def test_a_malformed_state_file_in_both_languages(text: str, english: str, japanese: str,
                                                  tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A malformed state file: the English message is exactly what it was; the Japanese is
    said from the same error's msgid and values, by the CLI and ``error_text``."""
    with pytest.raises(StateFormatError) as caught:
        load_state(text)
    assert str(caught.value) == english
    assert error_text(caught.value, GAME_JA) == japanese
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    for command in ("show", "actions"):
        status, _, err = _run(capsys, command, str(path), "--lang", "ja")
        assert (status, err) == (1, f"flamecraft: {path}: {japanese}\n")
        status, _, err = _run(capsys, command, str(path), "--lang", "en")
        assert (status, err) == (1, f"flamecraft: {path}: {english}\n")


def test_an_unknown_card_in_a_state_and_a_bad_record(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown card id names its kind in the reader's words; a record's errors too."""
    state = tmp_path / "s.json"
    assert main(["new", "--players", "2", "--seed", "4", "--out", str(state)]) == 0
    obj = json.loads(state.read_text(encoding="utf-8"))
    obj["park"] = ["no-such-dragon"]
    with pytest.raises(StateFormatError) as caught:
        load_state(json.dumps(obj))
    assert str(caught.value) == "unknown Artisan Dragon 'no-such-dragon'"
    assert error_text(caught.value, GAME_JA) == "不明な働きドラゴンです: 'no-such-dragon'"
    with pytest.raises(StateFormatError) as caught:
        load_record('{"format": "flamecraft-record", "version": 2, "seed": "x"}')
    assert str(caught.value) == "'seed' must be a whole number"
    record = tmp_path / "r.json"
    record.write_text('{"format": "flamecraft-record", "version": 2, "seed": 1, '
                      '"actions": "x"}', encoding="utf-8")
    status, _, err = _run(capsys, "replay", str(record), "--lang", "ja")
    assert status == 1 and err.endswith("'actions' は行動の文字列のリストでなければなりません\n")


def test_review_in_japanese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``flamecraft review --lang ja``: the end screen's review in Japanese (card and player
    names aside), written to review.txt as printed, every line within 80 columns."""
    record = tmp_path / "game.json"
    assert main(["demo", "--players", "2", "--seed", "7", "--record", str(record)]) == 0
    capsys.readouterr()
    out_dir = tmp_path / "rv"
    status, out, _ = _run(capsys, "review", str(record), "--lang", "ja", "--samples", "2",
                          "--top", "2", "--out", str(out_dir), "--quiet")
    assert status == 0
    assert "振り返り: " in out and "大きなミス" in out and "勝率の推移" in out
    report = (out_dir / "review.txt").read_text(encoding="utf-8")
    assert out.startswith(report) and "書き出しました: " in out
    shown = out.replace(str(out_dir), "").replace(str(record), "")
    shown = re.sub(r"review\.(txt|json)|win-chance\.png", "", shown)
    assert english_words(shown) == [], english_words(shown)
    assert max(display_width(line) for line in report.splitlines()[1:]) <= 80  # [0]: the path


def test_the_terminal_game_says_a_bad_file_in_japanese(tmp_path: Path) -> None:
    """``flamecraft play --load`` of a malformed file: the same message as the CLI's."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1', encoding="utf-8")
    child = _spawn(tmp_path, "--lang", "ja", "--load", str(bad))
    child.expect_exact(f"{bad}: JSONとして読めません: 1行13列 (位置12): 「,」がありません")
    _finish(child, 1)
