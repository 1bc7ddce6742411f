"""The ``flamecraft`` command line, run in-process through ``main`` (plus one run of the installed
console script): each subcommand's output, hidden cards kept hidden by ``show``, and bad input
answered by one line on stderr with input files left untouched."""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flamecraft import (
    GameState,
    apply_in_place,
    dump_state,
    legal_actions,
    load_record,
    load_state,
    parse_action,
    replay,
    start,
    text,
    winners,
)
from flamecraft.ai.roster import random_action
from flamecraft.cli.main import main
from flamecraft.core.board import CATALOG
from flamecraft.core.view import view
from flamecraft.display.render import WIDTH, render


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def new_state(tmp_path: Path, players: int = 3, seed: int = 2, name: str = "s.json") -> Path:
    path = tmp_path / name
    path.write_text(dump_state(start(players, seed)), encoding="utf-8")
    return path


def one_error_line(err: str) -> str:
    """Bad input gives exactly one line on stderr, prefixed by the program's name, and never a
    traceback."""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("flamecraft"), err
    assert "Traceback" not in err
    return lines[0]


# ---------------------------------------------------------------- new


def test_new_writes_the_state_of_start(capsys: pytest.CaptureFixture[str]) -> None:
    """`new` prints the canonical state of `start(players, seed, deck, names)`."""
    status, out, err = run(capsys, "new", "--players", "3", "--seed", "5",
                           "--enchantments", "golden", "--names", "Ann, Bob,Cy")
    assert (status, err) == (0, "")
    assert load_state(out) == start(3, 5, "golden", ("Ann", "Bob", "Cy"))
    assert out == dump_state(start(3, 5, "golden", ("Ann", "Bob", "Cy")))


def test_new_out_file_and_seed_matters(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """`new --out FILE` writes the file (no temporary left over); the seed decides the deal."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run(capsys, "new", "--players", "4", "--seed", "1", "--out", str(a)) == (0, "", "")
    assert run(capsys, "new", "--players", "4", "--seed", "2", "--out", str(b))[0] == 0
    assert load_state(a.read_text(encoding="utf-8")) == start(4, 1)
    assert a.read_bytes() != b.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json"]


# ---------------------------------------------------------------- actions


def test_actions_lists_numbered_legal_actions(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """`actions` prints who acts and what they choose, then 'i: text' per legal action."""
    path = new_state(tmp_path)
    s = start(3, 2)
    status, out, _ = run(capsys, "actions", str(path))
    lines = out.splitlines()
    assert status == 0
    first = f"P{s.first_player + 1}"  # the first player keeps a Fancy Dragon first
    assert lines[0].startswith(f"# {first} to act") and "which Fancy Dragon to keep" in lines[0]
    expected = [f"{i}: {text(s, a)}" for i, a in enumerate(legal_actions(s))]
    assert lines[1:] == expected and len(expected) == 2


def test_actions_plain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`actions --plain` prints the texts alone, which `apply` accepts back."""
    path = new_state(tmp_path)
    s = start(3, 2)
    status, out, _ = run(capsys, "actions", "--plain", str(path))
    assert status == 0
    assert out.splitlines() == [text(s, a) for a in legal_actions(s)]


# ---------------------------------------------------------------- apply


def test_apply_by_index_and_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`apply` takes several actions, by index or by text (any case), in order, and prints the
    same state the engine reaches; STATE itself is not changed."""
    path = new_state(tmp_path)
    before = path.read_bytes()
    s = start(3, 2)
    apply_in_place(s, legal_actions(s)[1])
    second_player_keeps = text(s, legal_actions(s)[0])
    apply_in_place(s, legal_actions(s)[0])
    apply_in_place(s, legal_actions(s)[1])
    status, out, err = run(capsys, "apply", str(path), "1", second_player_keeps.upper(), "1")
    assert (status, err) == (0, "")
    assert load_state(out) == s
    assert path.read_bytes() == before


def test_apply_out_file_and_overwrite_in_place(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """`apply --out` writes the next state there; --out equal to STATE replaces STATE."""
    path = new_state(tmp_path)
    before = path.read_bytes()
    nxt = tmp_path / "next.json"
    status, out, _ = run(capsys, "apply", str(path), "0", "--out", str(nxt))
    assert status == 0 and "applied 1 action" in out
    assert path.read_bytes() == before
    expected = start(3, 2)
    apply_in_place(expected, legal_actions(expected)[0])
    assert load_state(nxt.read_text(encoding="utf-8")) == expected
    status, _, _ = run(capsys, "apply", str(nxt), "0", "--out", str(nxt))
    assert status == 0
    apply_in_place(expected, legal_actions(expected)[0])
    assert load_state(nxt.read_text(encoding="utf-8")) == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == ["next.json", "s.json"]


def test_apply_illegal_action_changes_nothing(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """An illegal second action: exit 1, one line naming action 2, STATE and an existing --out
    file untouched byte for byte (nothing is written unless every action applies)."""
    path = new_state(tmp_path)
    out_file = tmp_path / "out.json"
    out_file.write_text("keep me", encoding="utf-8")
    before = path.read_bytes()
    status, out, err = run(capsys, "apply", str(path), "0", "visit Nowhere", "0",
                           "--out", str(out_file))
    assert (status, out) == (1, "")
    line = one_error_line(err)
    assert line.startswith("flamecraft: action 2 ('visit Nowhere'): ")
    assert "not a legal action" in line
    assert path.read_bytes() == before
    assert out_file.read_text(encoding="utf-8") == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json", "s.json"]


def test_apply_index_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An index past the list is an illegal action (exit 1), the file is unchanged."""
    path = new_state(tmp_path)
    before = path.read_bytes()
    status, _, err = run(capsys, "apply", str(path), "7")
    assert status == 1
    assert "action 1 ('7')" in one_error_line(err)
    assert path.read_bytes() == before


def test_apply_after_game_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No action applies to a finished game: exit 1 saying the game is over."""
    s = start(2, 3)
    rng = random.Random(3)
    while not s.over:
        apply_in_place(s, random_action(s, rng))
    path = tmp_path / "over.json"
    path.write_text(dump_state(s), encoding="utf-8")
    status, _, err = run(capsys, "apply", str(path), "0")
    assert status == 1 and "over" in one_error_line(err)
    status, out, _ = run(capsys, "actions", str(path))
    assert status == 0 and out.splitlines() == ["# the game is over: no actions"]


def test_state_from_stdin(monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    """'-' reads the state from stdin, so commands chain with pipes."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(dump_state(start(2, 4))))
    status, out, _ = run(capsys, "actions", "--plain", "-")
    s = start(2, 4)
    assert status == 0 and out.splitlines() == [text(s, a) for a in legal_actions(s)]


# ---------------------------------------------------------------- show


def _midgame(players: int = 3, seed: int = 2, steps: int = 12) -> GameState:
    s = start(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        apply_in_place(s, random_action(s, rng))
    return s


def _word(name: str, out: str) -> bool:
    return re.search(rf"(?<![\w']){re.escape(name)}(?![\w'])", out) is not None


def test_show_hides_other_players_cards(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """`show --as 1` shows P1's hand and Fancy Dragons and none of the other players' (their
    card names appear nowhere); `--as 2` shows P2's, which proves the check can fail."""
    s = _midgame()
    assert not s.over
    path = tmp_path / "mid.json"
    path.write_text(dump_state(s), encoding="utf-8")
    hidden = {2: [CATALOG.artisans[a].name for a in s.hand[1]]
              + [CATALOG.fancies[f].name for f in s.fancy[1]]}
    mine = [CATALOG.artisans[a].name for a in s.hand[0]] + [
        CATALOG.fancies[f].name for f in s.fancy[0]]
    others = hidden[2] + [CATALOG.artisans[a].name for a in s.hand[2]] + [
        CATALOG.fancies[f].name for f in s.fancy[2]]
    assert mine and len(hidden[2]) >= 2
    status, out, _ = run(capsys, "show", str(path), "--as", "1")
    assert status == 0 and "(seen by P1)" in out
    assert all(_word(n, out) for n in mine)
    assert not any(_word(n, out) for n in others), [n for n in others if _word(n, out)]
    status, out2, _ = run(capsys, "show", str(path), "--as", "P2")
    assert status == 0 and all(_word(n, out2) for n in hidden[2])
    assert not any(_word(n, out2) for n in mine)


def test_show_spectator_sees_no_hidden_card(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """`--as spectator` shows no hand and no unscored Fancy Dragon of anyone."""
    s = _midgame()
    path = tmp_path / "mid.json"
    path.write_text(dump_state(s), encoding="utf-8")
    status, out, _ = run(capsys, "show", str(path), "--as", "spectator")
    secret = [CATALOG.artisans[a].name for p in range(s.n) for a in s.hand[p]] + [
        CATALOG.fancies[f].name for p in range(s.n) for f in s.fancy[p]]
    assert status == 0 and "seen by a spectator" in out and "Your hand" not in out
    assert secret and not any(_word(n, out) for n in secret)


def test_show_board_contents(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The default observer is the player to act; the board lists the Town's Shops with slots
    and rewards, the Park, the Enchantment row with costs, each player and the decks."""
    path = new_state(tmp_path, players=3, seed=2)
    status, out, _ = run(capsys, "show", str(path))
    s = start(3, 2)
    first = f"P{s.first_player + 1}"
    assert status == 0
    assert f"{first} to act" in out and f"(seen by {first})" in out
    assert f"{first} (you, first player, their turn, to act)" in out
    for shop in s.town_shops():
        assert CATALOG.shops[shop].name in out
    assert "slot 3: empty, takes Meat → a Fancy Dragon" in out  # Critical Rolls
    for a in s.park:
        assert CATALOG.artisans[a].name in out
    for e in s.ench_row:
        assert CATALOG.enchantments[e].name in out
    assert "Reputation 0" in out and "Goods: Bread 0" in out
    assert f"DECKS: Artisan {len(s.artisan_deck)}, Fancy {len(s.fancy_deck)}" in out
    assert "YOUR CHOICES" in out
    assert all(len(line) <= WIDTH for line in out.splitlines())


def test_show_unknown_player(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown --as is reported on one line (exit 1)."""
    path = new_state(tmp_path)
    status, out, err = run(capsys, "show", str(path), "--as", "4")
    assert (status, out) == (1, "")
    assert "--as '4': no such player" in one_error_line(err)


def test_render_finished_game_fits_and_scores() -> None:
    """At game end the board shows the score table (sources sum to the total) and the winners,
    every line within 100 columns."""
    s = start(4, 9, "golden")
    rng = random.Random(9)
    while not s.over:
        apply_in_place(s, random_action(s, rng))
    out = render(view(s, None), CATALOG)
    assert all(len(line) <= WIDTH for line in out.splitlines())
    assert "FINAL SCORES" in out
    rows = [line.split() for line in out.splitlines() if re.match(r"  P\d ", line)]
    assert len(rows) == 4
    for p, row in enumerate(rows):
        assert int(row[1]) == s.rep[p] == sum(int(x) for x in row[2:])
    best = winners(s)
    label = "Winner: " if len(best) == 1 else "Winners (shared): "
    assert out.splitlines()[-1] == label + ", ".join(f"P{p + 1}" for p in best)


# ---------------------------------------------------------------- demo, replay, simulate


def test_demo_record_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`demo --record` logs one line per choice and writes a record that `replay` (and the
    engine's replay) reproduce, with the same scores and winners."""
    record = tmp_path / "game.json"
    status, out, _ = run(capsys, "demo", "--players", "3", "--seed", "4", "--record", str(record))
    assert status == 0
    rec = load_record(record.read_text(encoding="utf-8"))
    log = [line for line in out.splitlines() if line.startswith("turn ")]
    assert len(log) == len(rec.actions) > 50
    assert [line.split(None, 3)[3] for line in log] == rec.actions
    final = replay(rec)
    assert final.over and rec.result is not None and rec.result["reputation"] == final.rep
    tail = out[out.index("FINAL SCORES"):]
    status, replayed, _ = run(capsys, "replay", str(record))
    assert status == 0 and replayed == tail
    status, verbose, _ = run(capsys, "replay", "--verbose", str(record))
    assert status == 0
    steps = verbose.splitlines()[:len(rec.actions)]
    assert [re.sub(r"^turn +\d+  (P\d): ", r"\1 ", x) for x in steps] == [
        f"{w} {a}" for w, a in (line.split(None, 3)[2:] for line in log)]


def test_replay_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record whose action is not legal, or whose stored result was altered, fails (exit 1)
    naming the problem; the record file stays as it was. (A version 1 record has no
    `first_player`: seat 1 played first, as every game did before version 2.)"""
    s = start(2, 6, first_player=0)
    rng = random.Random(6)
    actions = []
    while not s.over:
        a = random_action(s, rng)
        actions.append(text(s, a))
        apply_in_place(s, a)
    good = {"format": "flamecraft-record", "version": 1, "options": {"players": 2},
            "seed": 6, "actions": actions, "result": {"reputation": s.rep}}
    bad = dict(good, actions=[*actions[:3], "visit Nowhere"])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    before = path.read_bytes()
    status, _, err = run(capsys, "replay", str(path))
    assert status == 1 and "action 4 ('visit Nowhere')" in one_error_line(err)
    assert path.read_bytes() == before
    altered = dict(good, result={"reputation": [r + 1 for r in s.rep]})
    path.write_text(json.dumps(altered), encoding="utf-8")
    status, _, err = run(capsys, "replay", str(path))
    assert status == 1 and "differs" in one_error_line(err)
    path.write_text(json.dumps(good), encoding="utf-8")
    assert run(capsys, "replay", str(path))[0] == 0
    if start(2, 6).first_player != 0:  # the same actions do not replay from another first player
        drawn = dict(good, version=2, options={"players": 2, "first_player": None})
        path.write_text(json.dumps(drawn), encoding="utf-8")
        assert run(capsys, "replay", str(path))[0] == 1


def test_simulate_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """`simulate` plays G games seeded S, S+1, … (replayable by the engine) and prints games,
    elapsed time, turns and decisions per game, and a row per seat whose win shares sum to
    100%."""
    status, out, _ = run(capsys, "simulate", "--players", "3", "--games", "4", "--seed", "10")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("simulate: 3 players, 4 games, seeds 10–13")
    assert "games: 4" in lines
    assert any(line.startswith("elapsed: ") for line in lines)
    reps = []
    turns = []
    for i in range(4):
        s = start(3, 10 + i)
        rng = random.Random(10 + i)
        while not s.over:
            apply_in_place(s, random_action(s, rng))
        reps.append(s.rep)
        turns.append(s.turn)
    turn_line = next(line for line in lines if line.startswith("turns per game"))
    assert turn_line == (f"turns per game: mean {sum(turns) / 4:.1f}, min {min(turns)}, "
                         f"max {max(turns)}")
    assert any(line.startswith("decisions per game: mean ") for line in lines)
    rows = [line.split() for line in lines if re.match(r"P\d  ", line)]
    assert [r[0] for r in rows] == ["P1", "P2", "P3"]
    for p, row in enumerate(rows):
        seat = [r[p] for r in reps]
        assert float(row[1]) == pytest.approx(sum(seat) / 4, abs=0.05)
        assert (int(row[2]), int(row[3])) == (min(seat), max(seat))
    assert sum(float(r[4].rstrip("%")) for r in rows) == pytest.approx(100, abs=0.2)


# ---------------------------------------------------------------- bad input


def test_malformed_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that is not JSON: exit 1, one line naming the file, the file untouched."""
    path = tmp_path / "state.json"
    path.write_text('{"format": "flamecraft-state", ', encoding="utf-8")
    before = path.read_bytes()
    for argv in (["actions", str(path)], ["show", str(path)],
                 ["apply", str(path), "0", "--out", str(path)]):
        status, out, err = run(capsys, *argv)
        assert (status, out) == (1, "")
        assert one_error_line(err).startswith(f"flamecraft: {path}: not valid JSON: ")
        assert path.read_bytes() == before


def test_wrong_version(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A state of another version, or a record given where a state is expected: exit 1."""
    obj = json.loads(dump_state(start(2, 1)))
    obj["version"] = 99
    path = tmp_path / "v99.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    before = path.read_bytes()
    status, _, err = run(capsys, "apply", str(path), "0", "--out", str(path))
    assert status == 1 and "unsupported flamecraft-state version 99" in one_error_line(err)
    assert path.read_bytes() == before
    status, _, err = run(capsys, "replay", str(new_state(tmp_path)))
    assert status == 1 and "not a flamecraft-record file" in one_error_line(err)


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing STATE or RECORD: exit 1, one line saying so; nothing is created."""
    missing = tmp_path / "nope.json"
    for argv in (["actions", str(missing)], ["replay", str(missing)],
                 ["apply", str(missing), "0", "--out", str(tmp_path / "o.json")]):
        status, _, err = run(capsys, *argv)
        assert status == 1
        assert one_error_line(err) == f"flamecraft: {missing}: no such file"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [
    ["new", "--players", "7", "--seed", "1"],
    ["new", "--players", "two", "--seed", "1"],
    ["new", "--players", "3"],
    ["simulate", "--players", "0", "--games", "2", "--seed", "1"],
    ["simulate", "--players", "3", "--games", "0", "--seed", "1"],
    ["demo", "--players", "3", "--seed", "1", "--enchantments", "green"],
    ["new", "--players", "2", "--seed", "1", "--names", "Ann,ann"],
    ["new", "--players", "3", "--seed", "1", "--first-player", "4"],
    ["demo", "--players", "3", "--seed", "1", "--first-player", "0"],
    ["frobnicate"],
    [],
])
def test_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Bad arguments (rules, Preparation: 2–5 players): exit 2 with one line, no output."""
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    one_error_line(err)


def test_first_player_drawn_from_the_seed_or_fixed(capsys: pytest.CaptureFixture[str]) -> None:
    """Rules, Preparation 7: `new` draws the first player from the seed, like `start`;
    `--first-player SEAT` (1-based) fixes it; a seat that does not exist is named."""
    status, out, _ = run(capsys, "new", "--players", "4", "--seed", "3")
    assert status == 0 and load_state(out) == start(4, 3)
    for seat in (1, 3):
        status, out, _ = run(capsys, "new", "--players", "4", "--seed", "3",
                             "--first-player", str(seat))
        s = load_state(out)
        assert status == 0 and s.first_player == seat - 1
        assert s == start(4, 3, first_player=seat - 1)
    _, _, err = run(capsys, "new", "--players", "3", "--seed", "1", "--first-player", "4")
    assert "--first-player 4: there are only 3 players" in one_error_line(err)
    status, out, _ = run(capsys, "demo", "--players", "3", "--seed", "5")
    assert status == 0 and f"P{start(3, 5).first_player + 1} plays first" in out.splitlines()[0]
    status, out, _ = run(capsys, "demo", "--players", "3", "--seed", "5", "--first-player", "2")
    assert status == 0 and "P2 plays first" in out.splitlines()[0]
    status, out, _ = run(capsys, "simulate", "--players", "2", "--games", "1", "--first-player",
                         "2")
    assert status == 0 and "P2 plays first" in out.splitlines()[0]


def test_simulate_seed_defaults_to_one(capsys: pytest.CaptureFixture[str]) -> None:
    """`simulate` without --seed plays seeds 1, 2, … (its --help says so)."""
    status, out, _ = run(capsys, "simulate", "--players", "2", "--games", "2")
    assert status == 0 and out.splitlines()[0].startswith("simulate: 2 players, 2 games, seeds 1–2")
    _, usage, _ = run(capsys, "simulate", "--help")
    assert "(default: 1)" in usage


def test_players_seven_message(capsys: pytest.CaptureFixture[str]) -> None:
    """--players 7 names the argument and the allowed range."""
    _, _, err = run(capsys, "new", "--players", "7", "--seed", "1")
    assert "--players" in err and "1–5 players, not 7" in err


def test_names_count_mismatch(capsys: pytest.CaptureFixture[str]) -> None:
    """Three names for two players is reported by the engine's check (exit 1)."""
    status, _, err = run(capsys, "new", "--players", "2", "--seed", "1", "--names", "A,B,C")
    assert status == 1 and "3 names given for 2 players" in one_error_line(err)


def test_help_returns_zero(capsys: pytest.CaptureFixture[str]) -> None:
    """--help prints usage and returns 0 instead of raising SystemExit."""
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "simulate" in out and "replay" in out


# ---------------------------------------------------------------- the installed script


def test_console_script(tmp_path: Path) -> None:
    """The installed `flamecraft` entry point runs: new | apply | actions through real
    processes, with exit statuses passed through."""
    exe = shutil.which("flamecraft") or str(Path(sys.executable).parent / "flamecraft")
    assert os.access(exe, os.X_OK), exe
    state = tmp_path / "s.json"
    done = subprocess.run([exe, "new", "--players", "2", "--seed", "3", "--out", str(state)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    s = start(2, 3)
    first = text(s, legal_actions(s)[0])
    done = subprocess.run([exe, "apply", str(state), first], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    apply_in_place(s, parse_action(s, first))
    assert load_state(done.stdout) == s
    done = subprocess.run([exe, "new", "--players", "7", "--seed", "1"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1


def test_solo_game_with_companions_from_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 6 on the command line: `new --players 1 --companions` starts with the draft of
    2 Companions; `show` names the chosen Companion; a demo ends with the solo rating."""
    path = tmp_path / "solo.json"
    assert run(capsys, "new", "--players", "1", "--seed", "3", "--companions",
               "--out", str(path))[0] == 0
    status, out, _ = run(capsys, "actions", str(path), "--plain")
    offered = out.splitlines()
    assert status == 0 and len(offered) == 2 and all(t.startswith("take ") for t in offered)
    assert run(capsys, "apply", str(path), "0", "--out", str(path))[0] == 0
    status, out, _ = run(capsys, "show", str(path))
    assert status == 0 and "Companion: " + offered[0][len("take "):] in out
    status, out, _ = run(capsys, "demo", "--players", "1", "--seed", "4")
    assert status == 0 and "Solo rating: " in out and "achieve" in out


def test_json_is_compact_for_machines_and_pretty_when_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Files and pipes get one compact line; ``--pretty`` indents; both load to the same
    state, and the record of ``demo --record`` follows the same rule."""
    s = start(3, 2)
    compact, pretty = dump_state(s), dump_state(s, pretty=True)
    assert compact.count("\n") == 1 and ": " not in compact and ", " not in compact
    assert pretty.startswith('{\n "format"') and len(pretty) > len(compact)
    assert load_state(compact) == load_state(pretty) == s
    status, out, _ = run(capsys, "new", "--players", "3", "--seed", "2")
    assert status == 0 and out == compact
    status, out, _ = run(capsys, "new", "--players", "3", "--seed", "2", "--pretty")
    assert status == 0 and out == pretty
    path = new_state(tmp_path)
    status, _, _ = run(capsys, "apply", str(path), "0", "--pretty", "--out", str(path))
    assert status == 0 and path.read_text(encoding="utf-8").startswith('{\n "format"')
    for flags, lines in (([], 1), (["--pretty"], 20)):
        record = tmp_path / "r.json"
        assert run(capsys, "demo", "--players", "2", "--seed", "3", "--record", str(record),
                   *flags)[0] == 0
        assert (record.read_text(encoding="utf-8").count("\n") > lines) == bool(flags)
