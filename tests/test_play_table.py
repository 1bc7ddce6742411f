"""Issue 13 in the terminal: the table experience (facts on every choice, strong default
opponents, nothing missed) and each terminal defect of its section 4, driven through the real
program in a pty where a person would meet it."""

from __future__ import annotations

import io
import json
import re
import signal
import time
from pathlib import Path

import pexpect
import pytest

from flamecraft import apply_in_place, legal_actions, parse_action, start, text, to_act
from flamecraft.core import actions as A
from flamecraft.core.board import CATALOG
from flamecraft.core.summary import turn_steps, turns
from flamecraft.terminal.console import Terminal
from flamecraft.terminal.ending import end_summary
from flamecraft.terminal.game_loop import Game
from flamecraft.terminal.local_table import LocalTable
from flamecraft.terminal.newgame import Setup, default_names
from flamecraft.terminal.screen import (
    HELP,
    Cards,
    Style,
    score_screen,
    strip_ansi,
    summary,
    town_compact,
    visible_len,
)
from flamecraft.terminal.typed_input import display_order
from helpers import answer_one
from test_play import _finish, _spawn


def _quit(child: pexpect.spawn) -> None:
    """Quits without saving: the answer waits for its question (keys typed ahead of a
    question are discarded, defect 1)."""
    child.sendline("quit")
    child.expect("Save the game before leaving")
    child.sendline("")


def _seats_of(record: dict[str, object]) -> list[int]:
    """Who acted for each action of a saved record."""
    options = record["options"]
    assert isinstance(options, dict)
    s = start(options["players"], int(str(record["seed"])), options["deck"],
              tuple(options["names"]), first_player=options.get("first_player"))
    seats = []
    actions = record["actions"]
    assert isinstance(actions, list)
    for typed in actions:
        seats.append(to_act(s))
        apply_in_place(s, parse_action(s, typed))
    return seats


def test_keys_typed_while_bots_think_are_not_taken_as_answers(tmp_path: Path) -> None:
    """Defect 1: "1⏎1⏎" typed during the bots' turns is discarded before the next question;
    the person's next answer is still theirs to give."""
    child = _spawn(tmp_path, "--seats", "human,random", "--seed", "3", "--bot-delay", "0.7",
                   "--no-color")
    while child.expect(["Player 1> ", r"· Ember: "]) == 0:
        child.sendline(answer_one(child.before))
    child.send("1\r1\r")  # typed ahead, while Ember is still playing
    child.expect("Player 1> ")
    child.sendline("save ahead.json")
    child.expect_exact("saved to ahead.json")
    child.expect("Player 1> ")
    _quit(child)
    _finish(child)
    record = json.loads((tmp_path / "ahead.json").read_text(encoding="utf-8"))
    assert _seats_of(record)[-1] == 1  # nobody answered for Player 1 since Ember's turn


def test_screens_keep_their_top_line_and_show_the_town_at_a_visit(tmp_path: Path) -> None:
    """Defect 2: at 80×24 every screen from its header to the prompt takes at most 23 rows
    (the prompt has the 24th), so the top line never scrolls away; the Town is on screen
    whenever a Shop is to be visited. The choices carry their facts (item 1)."""
    child = _spawn(tmp_path, "--seats", "human,random,random", "--seed", "5", "--bot-delay",
                   "0", "--no-color")
    visits = 0
    while child.expect(["Player 1> ", r"Game over\. Press Enter"]) == 0:
        if answer_one(child.before) != "1":  # the line saying 1 is gone: no new screen
            child.sendline(answer_one(child.before))
            continue
        screen = child.before.split("\r\n")
        top = max(i for i, line in enumerate(screen) if line.startswith("FLAMECRAFT"))
        assert len(screen) - top <= 24, "\n".join(screen[top:])
        if "choose which Shop to visit" in child.before:
            visits += 1
            assert "TOWN" in child.before and re.search(r"\d visit .+ → ", child.before)
        child.sendline(answer_one(child.before))
    child.sendline("")
    _finish(child)
    assert visits > 10


def test_board_numbers_choices_as_the_prompt_does(tmp_path: Path) -> None:
    """Defect 3: `board` lists the choices numbered from 1, in the prompt's order; typing 2
    takes the second of them."""
    child = _spawn(tmp_path, "--seats", "human,random", "--seed", "4", "--first-player", "1",
                   "--bot-delay", "0", "--no-color")
    child.expect_exact("Player 1 plays first (chosen at setup).")  # issue 21: a name, not "You"
    child.expect("Player 1> ")
    child.sendline("1")
    child.expect("choose which Shop to visit")
    child.expect("Player 1> ")
    child.sendline("board")
    child.expect("Player 1> ")
    listed = re.findall(r"(\d+) (visit [^→\r]+?) →", child.before)
    assert listed[0][0] == "1" and listed[1][0] == "2"
    child.sendline("2")
    child.expect("Player 1> ")
    child.sendline("save b.json")
    child.expect_exact("saved to b.json")
    _quit(child)
    _finish(child)
    record = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    assert listed[1][1].strip() in record["actions"]


def test_card_lookup_ignores_accents_and_prefers_exact_names(tmp_path: Path) -> None:
    """Defect 4: `card flambe` is Flambé (not Le Flamberge); `card Maitre D'rake` finds
    Maître D'rake. Defect 5: `help` fits 80 columns. Defect 11: a 3,000-character bad input
    is not echoed in full; `log 0` is refused with a hint."""
    child = _spawn(tmp_path, "--seats", "human,random", "--seed", "4", "--bot-delay", "0",
                   "--no-color")
    child.expect("Player 1> ")
    child.sendline("card flambe")
    child.expect("Player 1> ")
    assert "Flambé" in child.before and "Le Flamberge" not in child.before
    child.sendline("card Maitre D'rake")
    child.expect("Player 1> ")
    assert "Maître D'rake (Companion" in child.before
    child.sendline("help")
    child.expect("Player 1> ")
    assert "HOW TO PLAY" in child.before
    assert max(len(line) for line in child.before.split("\r\n")) <= 80
    child.sendline("x" * 3000)
    child.expect("Player 1> ", timeout=30)
    answer = child.before[child.before.index("no choice matches"):]  # after the echo
    assert "x" * 40 not in answer and "x" * 39 + "…" in answer
    child.sendline("log 0")
    child.expect("Player 1> ")
    assert "from 1" in child.before
    _quit(child)
    _finish(child)


def test_hint_shows_the_three_best_choices_from_the_players_view(tmp_path: Path) -> None:
    """Issue 15 §2 in the terminal: `hint` lists three choices of the decision at hand, each
    with why and (at 2+ players) a win chance, within 80 columns."""
    child = _spawn(tmp_path, "--seats", "human,random", "--seed", "4", "--bot-delay", "0",
                   "--no-color")
    child.expect("Player 1> ")
    choices = child.before
    child.sendline("hint")
    child.expect("Player 1> ", timeout=60)
    shown = child.before
    assert "HINTS (from your view only" in shown
    ranked = re.findall(r"^ ([123])\. (.+) \((best|[\d.]+ Rep behind), (\d+)% to win\)",
                        shown, re.M)
    assert [r[0] for r in ranked] == ["1", "2"] or [r[0] for r in ranked] == ["1", "2", "3"]
    assert all(r[1] in choices for r in ranked)  # each is a choice of this decision
    assert max(len(line) for line in shown.split("\r\n")) <= 80
    _quit(child)
    _finish(child)


def test_help_fits_80_columns() -> None:
    assert max(len(line) for line in HELP.splitlines()) <= 80


def test_a_hang_up_saves_the_game_to_its_own_autosave(tmp_path: Path) -> None:
    """Defect 7: closing the terminal (SIGHUP) saves the game; each game's autosave has a
    name of its own, so a second game's does not overwrite the first's."""
    names = set()
    for _ in range(2):
        child = _spawn(tmp_path, "--seats", "human,random", "--seed", "4", "--bot-delay",
                       "0", "--no-color")
        child.expect("Player 1> ")
        child.sendline(answer_one(child.before))
        child.expect("Player 1> ")
        child.kill(signal.SIGHUP)
        child.expect(pexpect.EOF)
        child.close()
        saved = sorted(tmp_path.glob("flamecraft-autosave-*.json"))
        names |= {p.name for p in saved}
        time.sleep(0.1)
    assert len(names) == 2
    for path in tmp_path.glob("flamecraft-autosave-*.json"):
        assert json.loads(path.read_text(encoding="utf-8"))["actions"]


def test_undo_reaches_back_across_a_load_in_the_same_turn(tmp_path: Path) -> None:
    """Defect 8: a save carries the turn's undo points, so after `--load` undo takes back
    the visit chosen before the save."""
    child = _spawn(tmp_path, "--seats", "human,random", "--seed", "4", "--first-player", "1",
                   "--bot-delay", "0", "--no-color")
    child.expect("Player 1> ")
    child.sendline("1")
    child.expect("choose which Shop to visit")
    child.expect("Player 1> ")
    child.sendline("visit sm")
    child.expect("Player 1> ")
    child.sendline("save mid.json")
    child.expect_exact("saved to mid.json")
    _quit(child)
    _finish(child)
    assert "undo" in json.loads((tmp_path / "mid.json").read_text(encoding="utf-8"))
    child = _spawn(tmp_path, "--load", "mid.json", "--bot-delay", "0", "--no-color")
    child.expect("Player 1> ")
    child.sendline("undo")
    child.expect_exact("undone: visit Smith Mart")
    child.expect("choose which Shop to visit")
    _quit(child)
    _finish(child)


def test_solo_achievements_command_and_town_bustle_in_the_log(tmp_path: Path) -> None:
    """Defect 12: in solo, `achievements` lists each with its progress, and the log says
    what Town Bustle did at the end of a turn."""
    child = _spawn(tmp_path, "--players", "1", "--seed", "5", "--bot-delay", "0",
                   "--no-color")
    child.expect_exact("Press Enter to start.")
    child.sendline("")
    child.expect("Player 1> ")
    child.sendline("achievements")
    child.expect("Player 1> ")
    assert "SOLO ACHIEVEMENTS" in child.before
    assert re.search(r"\(0/\d+, worth \d+ Rep\)", child.before)
    bustle = False
    child.sendline("1")
    while child.expect(["Player 1> ", r"Game over\. Press Enter"]) == 0:
        bustle = bustle or "Town Bustle:" in child.before
        child.sendline(answer_one(child.before))
    child.sendline("")
    _finish(child)
    assert bustle


def test_declines_are_never_the_first_choice() -> None:
    """Defect 10: "end turn" (and every "do not …") is listed after the other choices."""
    s = start(2, 1)
    order = display_order([(A.END_TURN, -1, -1, -1), (A.REVEAL, 3, -1, -1),
                           (A.SKIP, A.NO_FIRE, -1, -1), (A.FIRE, 2, -1, -1)])
    assert [a[0] for a in order] == [A.REVEAL, A.FIRE, A.END_TURN, A.SKIP]
    assert legal_actions(s)  # the engine's own order is unchanged (scripts use it)


def test_wide_terminals_do_not_pad_shop_names() -> None:
    """Defect 9: at 200 columns a Town cell is no wider than the longest name needs."""
    session = LocalTable.new(Setup(["human", "human"], default_names(["human", "human"]),
                                "purple", 3))
    v = session.screen_view(to_act(session.state))["view"]
    lines = town_compact(Style(False), v, Cards(CATALOG), 200)
    assert max(visible_len(line) for line in lines) < 130
    assert not any(" " * 30 in line for line in lines[1:])


def test_end_screen_says_a_moon_scored_during_the_game_and_wraps_at_spaces() -> None:
    """Defects 5 and 6: a Moon Dragon scored during the game (Hedges & Henges) is not called
    "not met"; the end screen breaks lines only at spaces."""
    s = start(2, 2)
    while not s.over:
        apply_in_place(s, legal_actions(s)[0])
    moon = next(f.index for f in CATALOG.fancies if not f.sun)
    prev = s.copy()
    for pile in (*prev.fancy, *prev.scored, *s.fancy, *s.scored):
        if moon in pile:
            pile.remove(moon)
    prev.scored[0].append(moon)
    s.scored[0].append(moon)
    end = end_summary(s, prev)
    lines = score_screen(Style(False), end, 40)
    screen = "\n".join(lines)
    name = CATALOG.fancies[moon].name
    assert f"{name} (scored during the game)" in screen.replace("\n    ", " ")
    assert f"{name} not met" not in screen
    assert max(len(line) for line in lines) <= 40


def test_the_log_announces_the_end_trigger_and_the_final_round() -> None:
    session = LocalTable.new(Setup(["human", "human"], default_names(["human", "human"]),
                                "purple", 2))
    while not session.state.over:
        session.play(legal_actions(session.state)[0])
    notes = [e.full for e in session.log if e.action[0] < 0]
    assert len([n for n in notes if "the end is triggered. Final round" in n]) == 1
    assert text(session.state, (A.END_TURN, -1, -1, -1)) == "end turn"


def test_every_other_seats_last_turn_shows_above_the_choices() -> None:
    """Issue 21 item 2: one line per other seat, its latest turn with what it earned (the
    summary, ``core/summary.py``, as this seat reads it), above the prompt."""
    kinds = ["human", "human", "human"]
    session = LocalTable.new(Setup(kinds, default_names(kinds), "purple", 4, first_player=0))
    while session.state.turn < 4 or to_act(session.state) != 0:
        session.play(legal_actions(session.state)[0])
    sv = session.screen_view(0)
    names = default_names(kinds)
    assert [who for who, _, _ in sv["turns"]] == [names[1], names[2]]
    own = [t for t in turns(session.log, 0) if t.seat == 1][-1]
    assert sv["turns"][0][2] == "; ".join(turn_steps(own, session.names()))
    assert own.turn == 2 and any(step.results for step in own.steps)
    screen = "\n".join(summary(Style(False), sv, CATALOG, 80, 24))
    assert f"{names[1]} — visit " in screen and f"{names[2]} — visit " in screen
    assert screen.index(f"{names[2]} — ") < screen.index("choose")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_quit_prompt_and_the_input_ended_lines_fit_80_columns(tmp_path: Path,
                                                                  lang: str) -> None:
    """Issue 21 item 7: the quit prompt (one line, not wrapped) and the lines said when the
    input ends (the autosave's name and how to resume) are at most 80 columns wide."""
    child = _spawn(tmp_path, "--seats", "human,random", "--seed", "4", "--bot-delay", "0",
                   "--no-color", "--lang", lang)
    child.expect("> ")
    child.sendline("quit")
    child.expect(": ")
    prompt = child.before.split("\r\n")[-1] + child.after
    assert visible_len(prompt) <= 80 and ("Save the game" in prompt or "保存" in prompt)
    child.sendline("")
    _finish(child)
    child = _spawn(tmp_path, "--seats", "human,random", "--seed", "4", "--bot-delay", "0",
                   "--no-color", "--lang", lang)
    child.expect("> ")
    child.sendeof()
    child.expect(pexpect.EOF)
    said = child.before.split("\r\n")
    ended = [i for i, line in enumerate(said) if "Input ended" in line or "入力" in line]
    assert ended
    assert any(tmp_path.glob("flamecraft-autosave-*.json"))
    assert max(visible_len(line) for line in said[ended[0]:]) <= 80, said[ended[0]:]


def test_a_resize_draws_the_screen_again_at_the_new_size(tmp_path: Path) -> None:
    """Issue 21 item 7: the terminal redraws on a resize (SIGWINCH): narrowed from 80 to 64
    columns at the prompt, the screen comes again, no line wider than 64."""
    # (80 columns at first: some line of the first screen is wider than 64)
    child = _spawn(tmp_path, "--seats", "human,random", "--seed", "4", "--bot-delay", "0",
                   "--no-color")
    child.expect("Player 1> ")
    assert max(visible_len(line) for line in child.before.split("\r\n")) > 64
    child.setwinsize(24, 64)  # the pty sends SIGWINCH to the program
    widths: list[int] = []
    for _ in range(2):  # (a screen already being drawn at 80 when it narrowed may come first)
        child.expect("Player 1> ")
        screen = child.before.split("\r\n")
        widths.append(max(visible_len(strip_ansi(line)) for line in screen))
        if widths[-1] <= 64:
            break
    assert any("choose" in line for line in screen)  # the whole screen, drawn again
    assert widths[-1] <= 64, widths
    child.sendline("1")  # and the game goes on
    child.expect("Player 1> ")
    _quit(child)
    _finish(child)


def test_log_shows_the_turns_first_and_every_step_one_command_away() -> None:
    """Issue 21 item 2: ``log`` lists the last turns, one line each with what they earned;
    ``log all N`` the last N steps, each with its results; a bad count is refused."""
    kinds = ["human", "random", "random"]
    session = LocalTable.new(Setup(kinds, default_names(kinds), "purple", 6, first_player=0))
    while session.state.turn < 8 or to_act(session.state) != 0:
        session.play(legal_actions(session.state)[0])
    out = io.StringIO()
    game = Game(session, Terminal(out, io.StringIO(), False, False))
    sv = session.screen_view(0)
    game._log(sv, "", 0)
    turns_shown = out.getvalue().splitlines()  # "  t7   Bot 1 — visit …", wrapped
    heads = [line for line in turns_shown if line.startswith("  t")]
    assert heads and all(" — " in line for line in heads) and "'log all'" in turns_shown[-1]
    assert sum(f" {session.seats[1].name} — visit " in line for line in heads) >= 2
    out.seek(0)
    out.truncate()
    game._log(sv, "all 5", 0)
    steps = out.getvalue()
    assert steps.count("\n  t") + steps.startswith("  t") == 5 and " — " not in steps
    assert all(said.split(": ")[0] in steps for _, _, said in sv["log"][-5:])
    assert any(": +" in said for _, _, said in sv["log"])  # the steps carry their results
    out.seek(0)
    out.truncate()
    game._log(sv, "all five", 0)
    assert "log takes a number" in out.getvalue()
