"""Issue 13 in the terminal: the table experience (facts on every choice, strong default
opponents, nothing missed) and each terminal defect of its section 4, driven through the real
program in a pty where a person would meet it."""

from __future__ import annotations

import json
import re
import signal
import time
from pathlib import Path

import pexpect

from flamecraft import apply_in_place, legal_actions, parse_action, start, text, to_act
from flamecraft.core import actions as A
from flamecraft.core.board import CATALOG
from flamecraft.core.events import log_for
from flamecraft.terminal.ending import end_summary
from flamecraft.terminal.local_table import LocalTable
from flamecraft.terminal.newgame import Setup, default_names
from flamecraft.terminal.screen import (
    HELP,
    Cards,
    Style,
    score_screen,
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
    while child.expect(["You> ", r"· Ember: "]) == 0:
        child.sendline(answer_one(child.before))
    child.send("1\r1\r")  # typed ahead, while Ember is still playing
    child.expect("You> ")
    child.sendline("save ahead.json")
    child.expect_exact("saved to ahead.json")
    child.expect("You> ")
    _quit(child)
    _finish(child)
    record = json.loads((tmp_path / "ahead.json").read_text(encoding="utf-8"))
    assert _seats_of(record)[-1] == 1  # nobody answered for You since Ember's turn


def test_screens_keep_their_top_line_and_show_the_town_at_a_visit(tmp_path: Path) -> None:
    """Defect 2: at 80×24 every screen from its header to the prompt takes at most 23 rows
    (the prompt has the 24th), so the top line never scrolls away; the Town is on screen
    whenever a Shop is to be visited. The choices carry their facts (item 1)."""
    child = _spawn(tmp_path, "--seats", "human,random,random", "--seed", "5", "--bot-delay",
                   "0", "--no-color")
    visits = 0
    while child.expect(["You> ", r"Game over\. Press Enter"]) == 0:
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
    child.expect_exact("You play first (chosen at setup).")  # defect 11: not "You plays"
    child.expect("You> ")
    child.sendline("1")
    child.expect("choose which Shop to visit")
    child.expect("You> ")
    child.sendline("board")
    child.expect("You> ")
    listed = re.findall(r"(\d+) (visit [^→\r]+?) →", child.before)
    assert listed[0][0] == "1" and listed[1][0] == "2"
    child.sendline("2")
    child.expect("You> ")
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
    child.expect("You> ")
    child.sendline("card flambe")
    child.expect("You> ")
    assert "Flambé" in child.before and "Le Flamberge" not in child.before
    child.sendline("card Maitre D'rake")
    child.expect("You> ")
    assert "Maître D'rake (Companion" in child.before
    child.sendline("help")
    child.expect("You> ")
    assert "HOW TO PLAY" in child.before
    assert max(len(line) for line in child.before.split("\r\n")) <= 80
    child.sendline("x" * 3000)
    child.expect("You> ", timeout=30)
    answer = child.before[child.before.index("no choice matches"):]  # after the echo
    assert "x" * 40 not in answer and "x" * 39 + "…" in answer
    child.sendline("log 0")
    child.expect("You> ")
    assert "from 1" in child.before
    _quit(child)
    _finish(child)


def test_hint_shows_the_three_best_choices_from_the_players_view(tmp_path: Path) -> None:
    """Issue 15 §2 in the terminal: `hint` lists three choices of the decision at hand, each
    with why and (at 2+ players) a win chance, within 80 columns."""
    child = _spawn(tmp_path, "--seats", "human,random", "--seed", "4", "--bot-delay", "0",
                   "--no-color")
    child.expect("You> ")
    choices = child.before
    child.sendline("hint")
    child.expect("You> ", timeout=60)
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
        child.expect("You> ")
        child.sendline(answer_one(child.before))
        child.expect("You> ")
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
    child.expect("You> ")
    child.sendline("1")
    child.expect("choose which Shop to visit")
    child.expect("You> ")
    child.sendline("visit sm")
    child.expect("You> ")
    child.sendline("save mid.json")
    child.expect_exact("saved to mid.json")
    _quit(child)
    _finish(child)
    assert "undo" in json.loads((tmp_path / "mid.json").read_text(encoding="utf-8"))
    child = _spawn(tmp_path, "--load", "mid.json", "--bot-delay", "0", "--no-color")
    child.expect("You> ")
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
    child.expect("You> ")
    child.sendline("achievements")
    child.expect("You> ")
    assert "SOLO ACHIEVEMENTS" in child.before
    assert re.search(r"\(0/\d+, worth \d+ Rep\)", child.before)
    bustle = False
    child.sendline("1")
    while child.expect(["You> ", r"Game over\. Press Enter"]) == 0:
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


def test_since_your_last_turn_shows_the_others_moves_above_the_choices() -> None:
    """Item 3: the summary of what the others did since the seat's own last choice, read from
    that seat's own log lines (``log_for``), sits above the prompt."""
    kinds = ["human", "human", "human"]
    session = LocalTable.new(Setup(kinds, default_names(kinds), "purple", 4, first_player=0))
    while session.state.turn < 4 or to_act(session.state) != 0:
        session.play(legal_actions(session.state)[0])
    sv = session.screen_view(0)
    names = default_names(kinds)
    assert {who for who, _ in sv["since"]} == {names[1], names[2]}
    own = [line for e, line in log_for(session.log, 0) if e.seat == 1 and e.turn == 2]
    assert [said for who, said in sv["since"] if who == names[1]] == own
    screen = "\n".join(summary(Style(False), sv, CATALOG, 80, 24))
    assert "SINCE YOUR LAST TURN" in screen
    assert screen.index("SINCE YOUR LAST TURN") < screen.index("choose")
