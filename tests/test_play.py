"""``flamecraft play``: whole games through the real program in a pseudo-terminal (pexpect), and
the pieces it is built from (input matching, undo, saving, the end scores, the screens) called
directly. The screens must never show another seat's hidden cards."""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from flamecraft import (
    GameState,
    apply_in_place,
    dump_state,
    legal_actions,
    load_state,
    parse_action,
    start,
    text,
    to_act,
    winners,
)
from flamecraft.ai.roster import BOTS, DEFAULT_OPPONENT, LEVEL_OF, LEVELS, bot_notes, random_action
from flamecraft.core.board import CATALOG
from flamecraft.core.serialize import GameRecord
from flamecraft.core.setup_game import MAX_PLAYERS, MIN_PLAYERS
from flamecraft.core.state import Options
from flamecraft.core.summary import turns
from flamecraft.session.compose import automatic, choices
from flamecraft.session.seats import SetupError
from flamecraft.session.undo import reveals
from flamecraft.terminal.ending import end_summary, tie_break
from flamecraft.terminal.local_table import LocalTable
from flamecraft.terminal.newgame import PlayerSeat, Setup, default_names, seat_kind, setup_from_args
from flamecraft.terminal.saves import load_table, save_text
from flamecraft.terminal.screen import (
    Cards,
    Style,
    card_text,
    hand_detail,
    players_detail,
    strip_ansi,
    summary,
    town_detail,
    visible_len,
    wrap,
)
from flamecraft.terminal.typed_input import ChoiceError, find_card, match_text
from helpers import (
    add_shop,
    answer_one,
    do,
    fresh,
    gather,
    shop_turning_up_within_a_turn,
    to_ability,
)

EXE = str(Path(sys.executable).parent / "flamecraft")
COLOR = re.compile(r"\x1b\[[0-9;]*m")


# ---------------------------------------------------------------- typed input

VISITS = ["visit Critical Rolls", "visit Draco Bell", "visit Draconic Tonic", "visit Smith Mart",
          "gather"]


def test_match_by_number_is_one_based() -> None:
    """Choices are numbered from 1 on the screen; the number picks that choice."""
    assert match_text("1", VISITS) == 0
    assert match_text(" 5 ", VISITS) == 4


@pytest.mark.parametrize("typed", ["0", "6", "99", "-1"])
def test_number_out_of_range_names_the_range(typed: str) -> None:
    with pytest.raises(ChoiceError, match="from 1 to 5"):
        match_text(typed, VISITS)


def test_match_by_unique_prefix_exact_text_and_words() -> None:
    """A unique prefix picks its choice (case and spacing ignored); an exact text wins over
    longer texts it begins; failing a prefix, words that begin words of one choice pick it."""
    assert match_text("visit sm", VISITS) == 3
    assert match_text("VISIT   crit", VISITS) == 0
    assert match_text("ga", VISITS) == 4
    assert match_text("smith", VISITS) == 3
    assert match_text("dr bell", VISITS) == 1
    assert match_text("keep X", ["keep X", "keep X Y"]) == 0


@pytest.mark.parametrize("typed", ["visit", "visit dra", "draco", "v"])
def test_ambiguous_prefix_lists_the_candidates(typed: str) -> None:
    with pytest.raises(ChoiceError, match="fits") as err:
        match_text(typed, VISITS)
    assert "visit Draco Bell" in str(err.value)
    assert "gather" not in str(err.value)


@pytest.mark.parametrize("typed", ["zzz", "", "   ", "visit Nowhere", "1x"])
def test_garbage_is_refused_with_a_message(typed: str) -> None:
    with pytest.raises(ChoiceError):
        match_text(typed, VISITS)


def test_find_card_by_name_and_prefix() -> None:
    """`card NAME` finds any card by its name or a unique prefix; numbers are not names."""
    assert find_card("draco bell") is CATALOG.shops[CATALOG.shop_by_id["draco-bell"]]
    assert find_card("Three of a K") is CATALOG.fancies[CATALOG.fancy_by_id["three-of-a-kindle"]]
    with pytest.raises(ChoiceError, match="Draco Bell"):
        find_card("draco")
    with pytest.raises(ChoiceError):
        find_card("12")


def test_every_card_has_a_full_text_that_fits_the_screen() -> None:
    """`card NAME` works for every card (each name picks its own card) and its text, in
    colour, wraps to 80 columns: a Shop lists its 3 slots, an Artisan its fire-up, an
    Enchantment its cost, a Fancy Dragon its goal, a Companion or an achievement its kind."""
    style = Style(True)
    for name, card in Cards(CATALOG).all_named():
        assert find_card(name) is card
        lines = wrap(card_text(style, card), 80)
        assert max(visible_len(line) for line in lines) <= 80
        joined = strip_ansi(" ".join(line.strip() for line in lines))
        assert joined.startswith(name)
        assert any(key in joined for key in ("slot 3: takes", "Fire up:", "Cost", "Dragon (",
                                             "(Companion,", "(solo achievement,"))


# ---------------------------------------------------------------- setup


def _args(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = dict(players=None, seats=None, names=None, enchantments=None,
                                   seed=None, first_player=None, load=None)
    base.update(kw)
    return argparse.Namespace(**base)


def test_default_setup_is_one_person_against_three_bots() -> None:
    """Issue 13: the default opponents are the strongest bot that answers within about a
    second (issue 26: the level that plays it), never the random bot."""
    setup = setup_from_args(_args(seed=3))
    assert setup.kinds == ["human", DEFAULT_OPPONENT, DEFAULT_OPPONENT, DEFAULT_OPPONENT]
    assert LEVEL_OF[DEFAULT_OPPONENT].bot == "planner"
    assert setup.names == ("Player 1", "Ember", "Cinder", "Ash")
    assert (setup.deck, setup.seed) == ("purple", 3)


def test_setup_flags() -> None:
    setup = setup_from_args(_args(seats="human,bot,Human", names="Ann,Bo,Cy",
                                  enchantments="golden", seed=7))
    assert setup.kinds == ["human", DEFAULT_OPPONENT, "human"]
    assert setup.names == ("Ann", "Bo", "Cy") and setup.deck == "golden"
    assert default_names(["human", "random", "human"]) == ("Player 1", "Ember", "Player 3")


@pytest.mark.parametrize("kw, problem", [
    ({"players": 3, "seats": "human,bot"}, "2 seats for 3"),
    ({"players": 2, "names": "A,B,C"}, "3 names for 2"),
    ({"players": 6}, "–5 players, not 6"),
    ({"seats": "human,wizard"}, "unknown seat kind"),
    ({"names": "Ann,ann"}, "same name"),
])
def test_bad_setup_is_refused(kw: dict[str, object], problem: str) -> None:
    with pytest.raises(SetupError, match=problem):
        setup_from_args(_args(**kw))


def test_seat_kinds_come_from_the_bot_registry() -> None:
    """Seat kinds are pluggable by name: every bot in bots.BOTS is a seat kind."""
    assert BOTS["random"] is random_action
    for name in BOTS:
        assert seat_kind(name) == name and seat_kind(f"bot:{name}") == name
    assert seat_kind("bot") == DEFAULT_OPPONENT and seat_kind("Human") == "human"
    assert [level.id for level in LEVELS] == ["expert", "strong", "casual", "beginner"]
    assert [name for name, _ in bot_notes()][:4] == ["planner", "ismcts", "greedy", "random"]
    assert all(note for _, note in bot_notes())


# ---------------------------------------------------------------- undo, log, save


def _session(s: GameState, players: int = 2) -> LocalTable:
    seats = [PlayerSeat("human", n) for n in ("P1", "P2", "P3", "P4", "P5")[:players]]
    return LocalTable(s, 1, seats)


def _play(session: LocalTable, *typed: str) -> None:
    for t in typed:
        session.play(parse_action(session.state, t))


def test_undo_goes_back_within_the_turn_but_not_past_a_deck_draw() -> None:
    """Undo restores the state before each of this turn's choices, until a card is drawn from
    the hidden Artisan deck (a Bread Dragon's fire-up); after that there is nothing to undo."""
    s = fresh(2, seed=4)
    session = _session(s)
    before = session.state.copy()
    _play(session, "visit Critical Rolls")
    assert session.undo(0).startswith("undone: visit Critical Rolls")
    assert session.state == before and session.actions == [] and session.log == []
    _play(session, "visit Critical Rolls")
    while "fire up Pan" not in [text(session.state, a) for a in legal_actions(session.state)]:
        _play(session, "do not place")
    _play(session, "fire up Pan")
    assert session.history.undo_points  # still undoable: nothing hidden shown yet
    _play(session, "draw from the Artisan deck")
    assert session.undo(0).startswith("nothing to undo")
    assert session.actions[-1] == "draw from the Artisan deck"


def test_undo_is_only_for_the_seat_that_chose() -> None:
    session = _session(fresh(2, seed=4))
    _play(session, "visit Critical Rolls")
    assert session.undo(1).startswith("nothing to undo")
    assert session.actions == ["visit Critical Rolls"]


def test_looking_at_the_artisan_deck_cannot_be_undone() -> None:
    """Choosing among the top cards of the Artisan deck shows hidden cards: the action that
    led there is a barrier for undo even though no pile has shrunk yet."""
    s = fresh(2, seed=1)
    add_shop(s, "la-petite-dragonne")
    gather(s, "la-petite-dragonne")
    to_ability(s)
    before = s.copy()
    ability = next(t for t in (text(s, a) for a in legal_actions(s)) if t.startswith("use "))
    do(s, ability)
    assert reveals(before, s)
    assert not reveals(fresh(2, seed=1), do(fresh(2, seed=1), "visit Smith Mart"))


def test_a_face_down_shop_turning_up_is_an_undo_barrier() -> None:
    """Issue 12, defect 9: a Park draw followed by the end-of-turn flip and a discard down
    to 6 shows the new Shop face up while its player is still choosing (seed 472667526, 3
    seats, purple deck); undo must not turn it face down again (engine level)."""
    before, played = shop_turning_up_within_a_turn()
    after = do(before.copy(), played[-1])
    assert before.facedown and not after.facedown and to_act(after) == to_act(before)
    assert reveals(before, after)


def test_the_terminal_game_cannot_undo_a_shop_turned_face_up() -> None:
    """Issue 12, defect 9, in the terminal game: after the choice that turns a face-down
    Shop face up, there is nothing to undo."""
    before, played = shop_turning_up_within_a_turn()
    session = LocalTable(before.copy(), 1, [PlayerSeat("human", n) for n in ("P1", "P2", "P3")])
    p = to_act(before)
    _play(session, played[-1])
    assert to_act(session.state) == p and not session.state.facedown
    assert session.undo(p).startswith("nothing to undo")
    assert not session.state.facedown


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    """A save is a game record with a 'seats' key; loading replays it to the same state with
    the same seats."""
    setup = Setup(["human", "random", "human"], ("Ann", "Bo", "Cy"), "golden", 9)
    session = LocalTable.new(setup)
    rng = random.Random(1)
    for _ in range(40):
        session.play(random_action(session.state, rng))
    path = tmp_path / "g.json"
    path.write_text(save_text(session), encoding="utf-8")
    obj = json.loads(path.read_text(encoding="utf-8"))
    assert obj["format"] == "flamecraft-record" and len(obj["actions"]) == 40
    assert obj["seats"] == [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "random"},
                            {"name": "Cy", "kind": "human"}]
    loaded = load_table(str(path))
    assert loaded.state == session.state
    assert loaded.seats == session.seats and loaded.seed == 9


def test_load_a_state_written_by_new(tmp_path: Path) -> None:
    """`play --load` takes a state written by `flamecraft new` or `apply`: seat 1 a person,
    the others bots; it goes on from that state, and a save is that game's state with the
    seats, which loads again."""
    s = start(3, 12)
    path = tmp_path / "game.json"
    path.write_text(dump_state(s), encoding="utf-8")
    session = load_table(str(path))
    assert session.state == s and session.seed is None
    assert [seat.kind for seat in session.seats] == ["human", DEFAULT_OPPONENT,
                                                     DEFAULT_OPPONENT]
    rng = random.Random(2)
    for _ in range(30):
        session.play(random_action(session.state, rng))
    saved = json.loads(save_text(session))
    assert saved["format"] == "flamecraft-state" and load_state(save_text(session)) == session.state
    assert saved["seats"] == [{"name": "P1", "kind": "human"},
                              {"name": "P2", "kind": DEFAULT_OPPONENT},
                              {"name": "P3", "kind": DEFAULT_OPPONENT}]
    path.write_text(save_text(session), encoding="utf-8")
    again = load_table(str(path))
    assert again.state == session.state and again.seats == session.seats


def test_the_first_player_is_drawn_and_announced(tmp_path: Path) -> None:
    """Rules, Preparation 7: `play` draws the first player from the seed (as `start` does)
    and says who plays first; `--first-player` fixes it; a seat that does not exist is
    refused."""
    for seed in (4, 5, 6):
        first = start(2, seed).first_player
        done = subprocess.run([EXE, "play", "--seats", "human,human", "--names", "Ann,Bo",
                               "--seed", str(seed)], input="", capture_output=True, text=True,
                              cwd=tmp_path, timeout=20, check=False)
        assert done.returncode == 0, done.stderr
        assert f"{('Ann', 'Bo')[first]} plays first (drawn at random)." in done.stdout
        assert f"Pass the keyboard to {('Ann', 'Bo')[first]}" in done.stdout
    setup = setup_from_args(_args(players=3, first_player=2, seed=1))
    assert LocalTable.new(setup).state.first_player == 1
    with pytest.raises(SetupError, match="--first-player must be a seat from 1 to 3, not 4"):
        setup_from_args(_args(players=3, first_player=4))


def test_the_players_screen_marks_the_first_player() -> None:
    """`players` (and `show`) name the first player, who matters for the final round."""
    session = LocalTable.new(Setup(["human"] * 3, ("Ann", "Bo", "Cy"), "purple", 2))
    first = session.state.first_player
    lines = players_detail(Style(False), session.screen_view(0)["view"],
                           session.screen_view(0), Cards(CATALOG))
    marked = [line for line in lines if "first player" in line]
    assert len(marked) == 1 and marked[0].startswith(("Ann", "Bo", "Cy")[first])


def test_load_a_record_without_seats_and_bad_files(tmp_path: Path) -> None:
    """A plain record (say from `demo --record`) loads with seat 1 a person, the rest bots;
    a bad file is refused with a message naming it."""
    record = GameRecord(Options(3), 3).to_json()
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert [seat.kind for seat in load_table(str(path)).seats] == ["human", DEFAULT_OPPONENT,
                                                                  DEFAULT_OPPONENT]
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(SetupError, match=r"r\.json: not valid JSON"):
        load_table(str(path))
    record["actions"] = ["visit Nowhere"]
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(SetupError, match="action 1"):
        load_table(str(path))
    with pytest.raises(SetupError, match="no such file"):
        load_table(str(tmp_path / "missing.json"))


# ---------------------------------------------------------------- the end


def _finished(players: int, seed: int) -> tuple[GameState, GameState]:
    s = start(players, seed)
    rng = random.Random(seed)
    prev = s
    while not s.over:
        prev = s.copy()
        apply_in_place(s, random_action(s, rng))
    return s, prev


def test_end_summary_adds_up() -> None:
    """Rules, End of the game: Reputation by source sums to the total; Moon Dragons scored at
    the end are listed with what each paid, and they add up to the Moon column."""
    for seed in range(4):
        s, prev = _finished(3, seed)
        end = end_summary(s, prev)
        for p, row in enumerate(end["players"]):
            assert sum(row["sources"].values()) == row["reputation"] == s.rep[p]
            paid = sum(rep for name, rep in row["moons"] if "during the game" not in name)
            assert paid <= row["sources"]["moon_dragons"]
        assert end["winners"] == winners(s)


def test_tie_break_explains_the_rules_tiebreakers() -> None:
    """Rules, Tiebreakers: most Artisan Dragons in hand, then most Goods, else a shared win;
    the explanation agrees with engine.winners."""
    s, _ = _finished(3, 1)
    s.rep[:] = [20, 20, 5]
    s.hand[0], s.hand[1] = [1, 2], [3]
    line = tie_break(s)
    assert "P1 and P2 tied at 20" in line and "in hand breaks it (P1 2, P2 1)" in line
    assert line.endswith("P1 wins.") and winners(s) == [0]
    s.hand[1] = [3, 4]
    s.goods[0], s.goods[1] = [0, 1, 0, 0, 0, 0], [3, 0, 0, 0, 0, 0]
    line = tie_break(s)
    assert "Still tied on Artisan Dragons" in line and line.endswith("P2 wins.")
    assert winners(s) == [1]
    s.goods[1] = [1, 0, 0, 0, 0, 0]
    assert tie_break(s).endswith("They share the victory.")
    assert winners(s) == [0, 1]
    s.rep[:] = [20, 19, 5]
    assert tie_break(s) == ""


# ---------------------------------------------------------------- screens


def _hidden_names(s: GameState, seat: int) -> set[str]:
    """Names of the cards other seats hold hidden (hands and unscored Fancy Dragons)."""
    out: set[str] = set()
    for p in range(s.n):
        if p != seat:
            out.update(CATALOG.artisans[a].name for a in s.hand[p])
            out.update(CATALOG.fancies[f].name for f in s.fancy[p])
    return out


def _named(screen: str, names: set[str]) -> list[str]:
    return [n for n in names if re.search(rf"(?<![\w']){re.escape(n)}(?![\w'])", screen)]


def test_screens_never_show_another_seats_hidden_cards() -> None:
    """Every screen of the seat to act (summary, town, hand, players) in random 3- and
    4-player games names none of the cards the other seats hold hidden; its own hand does
    appear (so the check can fail)."""
    style, cards = Style(False), Cards(CATALOG)
    for players, seed in ((3, 5), (4, 6)):
        kinds = ["human"] * players
        session = LocalTable.new(Setup(kinds, default_names(kinds), "purple", seed))
        rng = random.Random(seed)
        checked = 0
        while not session.state.over:
            p = to_act(session.state)
            sv = session.screen_view(p)
            sv["log"] = []  # the log names publicly drawn cards; checked on its own
            sv["turns"] = []  # the summary of the same log: checked in test_summary.py
            v = sv["view"]
            screen = "\n".join([*summary(style, sv, CATALOG, 80, 24), *town_detail(style, v, cards),
                                *hand_detail(style, v, sv, cards),
                                *players_detail(style, v, sv, cards)])
            assert _named(screen, _hidden_names(session.state, p)) == []
            own = {CATALOG.artisans[a].name for a in session.state.hand[p]}
            assert set(_named(screen, own)) == own
            checked += 1
            session.play(random_action(session.state, rng))
        assert checked > 100


def test_summary_fits_80_by_24() -> None:
    """The summary screen is at most 80 columns wide and 23 lines (the 24th is the
    prompt's), long lists of choices included (issue 13, defect 2), solo and Companions too."""
    style = Style(True)
    for players, seed in ((2, 1), (5, 2), (1, 3), (3, 4)):
        kinds = ["human"] * players
        session = LocalTable.new(Setup(kinds, default_names(kinds), "purple", seed,
                                    companions=seed == 4))
        rng = random.Random(seed)
        while not session.state.over:
            lines = summary(style, session.screen_view(to_act(session.state)), CATALOG, 80, 24)
            assert max(visible_len(line) for line in lines) <= 80
            assert len(lines) <= 23, "\n".join(strip_ansi(line) for line in lines)
            session.play(random_action(session.state, rng))


# ---------------------------------------------------------------- the real program in a pty


def _spawn(tmp_path: Path, *args: str, **env: str) -> pexpect.spawn:
    environ = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    environ.update(TERM="xterm", **env)
    return pexpect.spawn(EXE, ["play", *args], cwd=str(tmp_path), env=environ,
                         encoding="utf-8", timeout=20, dimensions=(24, 80))


def _finish(child: pexpect.spawn, status: int = 0) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status


def _answer_1_to_the_end(child: pexpect.spawn) -> tuple[list[str], str]:
    """Answers "1" at every prompt to the end, saves the game to end.json and leaves: the
    screens before each prompt, and the score screen."""
    screens = []
    while child.expect(["Player 1> ", r"Game over\. Press Enter"]) == 0:
        if answer_one(child.before) != "1":  # 1 is gone: not a new screen
            child.sendline(answer_one(child.before))
            continue
        screens.append(child.before)
        child.sendline(answer_one(child.before))
    end = child.before
    child.sendline("save end.json")
    child.expect("saved to end.json")
    child.expect(r"Game over\. Press Enter")
    child.sendline("")
    _finish(child)
    return screens, end


def test_whole_game_against_a_bot_in_a_pty(tmp_path: Path) -> None:
    """A 2-player game, a person always answering "1" against the random bot, played to the
    end through the real program: every screen is at most 80 columns wide and never names the
    bot's unscored Fancy Dragons; the score screen matches a replay of the saved record."""
    child = _spawn(tmp_path, "--players", "2", "--seed", "11", "--bot-delay", "0", "--no-color")
    screens, scores = _answer_1_to_the_end(child)
    for screen in screens:
        assert max(len(line) for line in screen.split("\r\n")) <= 80
        assert "\x1b[3" not in screen  # --no-color
    assert "REPUTATION BY SOURCE" in scores and "MOON DRAGONS" in scores
    record = json.loads((tmp_path / "end.json").read_text(encoding="utf-8"))
    s = start(2, 11, "purple", ("Player 1", "Ember"))
    k, i, actions = 0, 0, record["actions"]
    while i < len(actions):
        if to_act(s) == 0 and automatic(s) is None:  # a screen and a choice: a composite
            bot_fancy = {CATALOG.fancies[f].name for f in s.fancy[1]}
            assert _named(screens[k], bot_fancy) == [], k
            k += 1
            made = max((c for c in choices(s) if actions[i:i + len(c.texts)] == list(c.texts)),
                       key=lambda c: len(c.texts))
            steps = len(made.texts)
        else:
            steps = 1  # a bot's action, or one the interface took by itself
        for typed in actions[i:i + steps]:
            apply_in_place(s, parse_action(s, typed))
        i += steps
    assert s.over and k == len(screens) > 20
    for p, name in enumerate(("Player 1", "Ember")):
        row = re.search(rf"^  {name} +(.*)$", scores, re.M)
        assert row is not None and int(row.group(1).split()[-1]) == s.rep[p]
    best = " and ".join(("Player 1", "Ember")[p] for p in winners(s))
    assert (f"Winner: {best} with {s.rep[winners(s)[0]]} Reputation" in scores
            if len(winners(s)) == 1 else "sharing the victory" in scores)


def test_a_seed_nobody_chose_stays_secret_until_the_end(tmp_path: Path) -> None:
    """Issue 11: whoever knows a game's seed can deal it again and read every hidden card,
    so a seed drawn for the players (63 bits, not guessable) is not shown while the game is
    played — only on the score screen, for replaying it."""
    child = _spawn(tmp_path, "--players", "2", "--bot-delay", "0", "--no-color")
    child.expect_exact("Flamecraft, a random deal")
    screens, end = _answer_1_to_the_end(child)
    seed = json.loads((tmp_path / "end.json").read_text(encoding="utf-8"))["seed"]
    assert seed >= 2**20  # drawn from 63 bits (a 1-in-a-million chance of a false failure)
    assert f"This game's seed: {seed}" in end
    assert not any(str(seed) in screen for screen in screens)


def test_bad_input_commands_undo_save_quit_then_load_and_eof(tmp_path: Path) -> None:
    """Bad input (garbage, out of range, ambiguous) is answered and asked again; help, card,
    town and log answer; undo takes back a visit; save writes a record with the seats; quit
    offers to save; --load resumes it; end of input saves to the autosave file."""
    child = _spawn(tmp_path, "--seats", "human,bot", "--names", "Ann,Bo", "--seed", "4",
                   "--first-player", "1", "--bot-delay", "0", "--no-color")
    child.expect_exact("Ann plays first (chosen at setup).")
    child.expect("Ann> ")
    for typed, answer in (("zzz", "no choice matches 'zzz'"), ("0", "there is no choice 0"),
                          ("17", "there is no choice 17"), ("keep", "fits 2 choices"),
                          ("help", "HOW TO PLAY"), ("card draco bell", "slot 3: takes"),
                          ("card", "which card"), ("log", "nothing has happened")):
        child.sendline(typed)
        child.expect_exact(answer)
        child.expect("Ann> ")
    child.sendline("1")
    child.expect("choose which Shop to visit")
    child.expect("Ann> ")
    visits = re.findall(r"\d+ (visit [A-Z][\w' ]+?)(?= →|\s{2,}|\r)", child.before)
    child.sendline("visit sm")
    child.expect("Ann> ")
    child.sendline("undo")
    child.expect_exact("undone: visit Smith Mart")
    child.expect("choose which Shop to visit")
    child.expect("Ann> ")
    child.sendline("town")
    child.expect_exact("Smith Mart [Ir]")
    child.expect("Ann> ")
    child.sendline("2")
    child.expect("Ann> ")
    child.sendline("save mid.json")
    child.expect_exact("saved to mid.json")
    child.expect("Ann> ")
    child.sendline("quit")
    child.expect("Save the game before leaving")
    child.sendline("")
    child.expect("Goodbye")
    _finish(child)
    saved = json.loads((tmp_path / "mid.json").read_text(encoding="utf-8"))
    assert saved["seats"] == [{"name": "Ann", "kind": "human"},
                              {"name": "Bo", "kind": DEFAULT_OPPONENT}]
    assert saved["actions"][2] == visits[1] and "visit Smith Mart" not in saved["actions"]

    child = _spawn(tmp_path, "--load", "mid.json", "--bot-delay", "0", "--no-color")
    child.expect("Ann> ")
    child.sendline("1")
    child.expect("Ann> ")
    child.sendeof()
    child.expect(r"the game is saved to (flamecraft-autosave-[\d-]+\.json)")
    autosave = child.match.group(1)
    _finish(child)
    auto = json.loads((tmp_path / autosave).read_text(encoding="utf-8"))
    assert auto["actions"][:len(saved["actions"])] == saved["actions"]
    assert len(auto["actions"]) > len(saved["actions"])


def test_two_people_hand_over_and_see_only_their_own_cards(tmp_path: Path) -> None:
    """Two people at one keyboard: a hand-over screen (after clearing the screen) comes
    before each one's turn, and each one's screen names their own hand and Fancy Dragons and
    never the other's. NO_COLOR turns colour off."""
    s = start(2, 8, "purple", ("Ann", "Bo"))
    hand = [{CATALOG.artisans[a].name for a in s.hand[p]} for p in range(2)]
    fancy = [{CATALOG.fancies[f].name for f in s.fancy[p]} for p in range(2)]
    child = _spawn(tmp_path, "--seats", "human,human", "--names", "Ann,Bo", "--seed", "8",
                   "--bot-delay", "0", NO_COLOR="1")
    seen: dict[str, list[str]] = {"Ann": [], "Bo": []}
    order = []
    child.expect(r"Pass the keyboard to (\w+)\.")
    for _ in range(5):
        who = child.match.group(1)
        order.append(who)
        child.sendline("")
        child.expect(f"{who}> ")
        seen[who].append(child.before)
        while True:
            child.sendline(answer_one(child.before))
            if child.expect([f"{who}> ", r"Pass the keyboard to (\w+)\."]) == 1:
                assert "\x1b[2J" in child.before  # the last person's screen is cleared
                break
            seen[who].append(child.before)
    assert order[:3] == ["Ann", "Bo", "Ann"]
    for p, who in enumerate(("Ann", "Bo")):
        first = seen[who][0]
        assert set(_named(first, hand[p] | fancy[p])) == hand[p] | fancy[p]
        assert _named(first, hand[1 - p] | fancy[1 - p]) == []
        assert all(COLOR.search(screen) is None for screen in seen[who])
    child.sendline("quit")
    child.sendline("")
    child.terminate(force=True)


def test_interactive_setup_defaults_and_colour(tmp_path: Path) -> None:
    """`flamecraft play` with no set-up flag on a terminal asks a short setup; Enter at each
    question gives one person against three bots; the screen is in colour."""
    child = _spawn(tmp_path, "--bot-delay", "0")
    question = f"Players ({MIN_PLAYERS}–{MAX_PLAYERS}) [4]:"
    child.expect_exact(question)
    child.sendline("9")
    child.expect_exact(f"give a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}")
    child.expect_exact(question)
    child.sendline("")
    # the levels' names in a column, their words wrapped beside them at 80 columns
    strength = ("Opponents, strongest first:\r\n  expert    Expert — plans its turn",
                "\r\n            self-play", "\r\n  strong    Strong —", "Opponents [expert]:")
    for question in ("People at this keyboard", *strength, "Names, comma-separated [Player 1, "
                     "Ember, Cinder, Ash]", "Enchantment deck", "Play with Companions", "Seed"):
        child.expect_exact(question)
        child.sendline("")
    child.expect_exact("Player 1 (human), Ember (Expert bot), Cinder (Expert bot), Ash (Expert")
    child.expect_exact("bot)")  # the seats line wraps at 80 columns
    child.expect("Player 1> ")
    assert re.search(r"\x1b\[3[1-7]m\[(Br|Me|Ir|Po|Cr|Pl)\]", child.before)
    child.sendline("quit")
    child.expect("Save the game before leaving")
    child.sendline("")
    _finish(child)


def test_plain_output_when_not_a_terminal(tmp_path: Path) -> None:
    """With stdout and stdin not terminals: no colour, no screen clearing, no setup questions
    (the default game starts), and the end of input saves the game."""
    done = subprocess.run([EXE, "play", "--seats", "human,human", "--seed", "2"],
                          input="\n1\n", capture_output=True, text=True, cwd=tmp_path,
                          timeout=20, check=False)
    assert done.returncode == 0, done.stderr
    assert "\x1b[" not in done.stdout
    assert "Pass the keyboard to Player 1" in done.stdout
    assert "Pass the keyboard to Player 2" in done.stdout
    assert len(list(tmp_path.glob("flamecraft-autosave-*.json"))) == 1
    bad = subprocess.run([EXE, "play", "--players", "3", "--seats", "human,bot"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=20, check=False)
    assert bad.returncode == 2 and "2 seats for 3 players" in bad.stderr


@pytest.mark.parametrize(("args", "expect"), [
    (("--players", "1", "--seed", "5"), ("ACHIEVEMENTS", "Rating:")),
    (("--players", "3", "--seats", "human,bot,bot", "--seed", "6", "--companions"),
     ("take ",)),
])
def test_solo_and_companion_games_play_to_the_end_in_a_pty(
        tmp_path: Path, args: tuple[str, ...], expect: tuple[str, ...]) -> None:
    """Issue 6 in the terminal: a solo game and a game with Companions (the draft included)
    play to the end by always answering "1"; the end screen shows the solo rating. A solo
    game starts by saying what solo adds, and waits for Enter (issue 21, item 7)."""
    child = _spawn(tmp_path, *args, "--bot-delay", "0", "--no-color")
    seen = []
    if "1" in args[:2]:
        child.expect_exact("Press Enter to start.")
        intro = " ".join(child.before.split())
        for words in ("Town Bustle, at the end of each of your turns", "at most 14 turns",
                      "11 achievements", "Apprentice (0+), Journeyman (18+)"):
            assert words in intro, words
        child.sendline("")
    while child.expect(["> ", r"Game over\. Press Enter"]) == 0:
        seen.append(child.before)
        child.sendline(answer_one(child.before))
    seen.append(child.before)
    child.sendline("")
    _finish(child)
    everything = "\n".join(seen)
    for word in expect:
        assert word in everything, word


def test_whole_games_at_80_by_24_keep_the_prompts_essentials() -> None:
    """Issue 21 item 2: at every prompt of whole 2- to 5-player games (one person against
    bots, and three people) in both languages, the screen fits 80×24 and shows the hand,
    every other seat's last turn in a line, the question, and the Enchantment row (costs)
    when enchanting."""
    tallest = 0
    for players, humans, seed, lang in ((5, 1, 7, "en"), (4, 1, 8, "ja"), (3, 3, 9, "en"),
                                        (2, 1, 10, "en")):
        kinds = ["human"] * humans + ["random"] * (players - humans)
        session = LocalTable.new(Setup(kinds, default_names(kinds), "purple", seed))
        style = Style(False, lang)
        rng = random.Random(seed)
        hand, fancy = style.tr("  Hand ({n}): ").split("{n}")[0], style.tr("ENCHANTMENT ROW")
        while not session.state.over:
            p = to_act(session.state)
            if session.seats[p].human:
                sv = session.screen_view(p, style)
                lines = [strip_ansi(line) for line in summary(style, sv, CATALOG, 80, 24)]
                tallest = max(tallest, len(lines))
                assert len(lines) <= 23 and max(visible_len(line) for line in lines) <= 80
                assert any(line.startswith(hand) for line in lines), "\n".join(lines)
                played = {t.seat for t in turns(session.log, p) if t.turn > 0}
                names = [who for who, _, _ in sv["turns"]]
                for q in sorted(played - {p}):
                    assert any(line.startswith(session.seats[q].name) for line in lines)
                    assert session.seats[q].name in names
                if any(t.startswith("cast ") for t in sv["view"]["legal_actions"]):
                    assert any(line.startswith(fancy) for line in lines), "\n".join(lines)
            session.play(random_action(session.state, rng))
    assert tallest == 23  # the screen is used to its last line (so the check can fail)
