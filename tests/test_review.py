"""Post-game review (issue 15 §3): reproducible from the record, refused before the end,
sensitive to bad play, and the ``flamecraft review`` command on a small record.

The games are short bot games recorded by the tournament runner (``GameSpec.record``); the
review budget is tiny (1–2 samples, a small beam): these tests check what the review does, not
how deep it looks.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from flamecraft.ai.hints import Budget
from flamecraft.ai.review import (
    REVIEW_BUDGET,
    UnfinishedGameError,
    format_review,
    plot_review,
    review,
)
from flamecraft.ai.tournament import GameSpec, game_record, game_seed, play_game
from flamecraft.cli.main import main
from flamecraft.core.serialize import GameRecord, dump_record, load_record, replay

TINY = Budget(samples=1, beam=2, depth=4)


@cache
def _record(lineup: tuple[str, ...], index: int = 0) -> GameRecord:
    result = play_game(GameSpec(index, game_seed(15, index), lineup, record=True))
    return game_record(result)


def test_a_tournament_record_replays_to_its_result() -> None:
    """``GameSpec.record`` keeps the chosen actions; the record replays to the same scores."""
    rec = _record(("greedy", "random"))
    final = replay(rec)
    assert final.over and rec.result is not None
    assert final.rep == rec.result["reputation"]
    assert rec.result["bots"] == ["greedy", "random"]


def test_the_review_is_reproducible_from_the_record() -> None:
    """The same record reviewed twice (and from a copy through its JSON) gives the same
    review: each decision's samples come from the record's seed and the decision's number."""
    rec = _record(("greedy", "random"))
    first = review(rec, [0], TINY).to_json()
    again = review(GameRecord.from_json(json.loads(dump_record(rec))), [0], TINY).to_json()
    for out in (first, again):
        del out["seconds"]
    assert first == again
    assert first["decisions"] and all(d["seat"] == 0 for d in first["decisions"])


def test_the_review_finds_the_random_player_worse() -> None:
    """A random player's decisions lose more against the best than the greedy bot's, and it
    has more labelled mistakes: the review tells bad play from good."""
    rv = review(_record(("greedy", "random")), None, TINY)
    loss = {p: [d.loss for d in rv.decisions if d.seat == p] for p in (0, 1)}
    assert loss[0] and loss[1]
    assert sum(loss[1]) / len(loss[1]) > sum(loss[0]) / len(loss[0]) + 0.5
    labelled = {p: sum(1 for d in rv.decisions if d.seat == p and d.label) for p in (0, 1)}
    assert labelled[1] > labelled[0]
    worst = rv.mistakes(3)
    assert worst and worst[0].seat == 1 and worst[0].loss >= worst[-1].loss
    assert all(d.best != d.chosen for d in worst)
    # The win-chance path: every seat at every turn start, then the result.
    assert all(abs(sum(c) - 1) < 1e-9 for c in rv.chances)
    assert rv.chances[-1] == [1.0 if p in rv.winners else 0.0 for p in range(2)]
    text = format_review(rv, "a test game")
    assert "may use everything" in text and worst[0].best in text


def test_a_screened_review_still_judges_every_move_played() -> None:
    """With ``widest`` a decision plans only the actions that look best one step ahead, and
    always the move played: every decision is still judged, with the number of legal actions
    it had, the move's rank among those planned; the review's own budget is adaptive."""
    rec = _record(("greedy", "random"))
    screened = review(rec, None, Budget(samples=1, beam=2, depth=4, widest=2))
    full = review(rec, None, TINY)
    assert [d.number for d in screened.decisions] == [d.number for d in full.decisions]
    assert [d.options for d in screened.decisions] == [d.options for d in full.decisions]
    assert any(d.options > 3 for d in screened.decisions)
    assert all(1 <= d.rank <= min(d.options, 3) for d in screened.decisions)
    assert REVIEW_BUDGET.widest > 0 and REVIEW_BUDGET.first > 0 and REVIEW_BUDGET.fine > 0


def test_an_unfinished_game_is_refused() -> None:
    """A review shows every seat's cards: during the game that would leak, so it is refused."""
    rec = _record(("greedy", "random"))
    cut = GameRecord(rec.options, rec.seed, rec.actions[:40])
    with pytest.raises(UnfinishedGameError, match="not over"):
        review(cut, None, TINY)


def test_the_review_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``flamecraft review RECORD --seat 1 --out DIR``: the report on stdout, the note on
    hidden information in it, and review.txt, review.json and win-chance.png in DIR."""
    path = tmp_path / "game.json"
    path.write_text(dump_record(_record(("greedy", "random"))))
    out = tmp_path / "rv"
    status = main(["review", str(path), "--seat", "2", "--out", str(out), "--samples", "1",
                   "--quiet"])
    printed = capsys.readouterr().out
    assert status == 0
    assert "may use everything" in printed and "decisions of P2" in printed
    assert (out / "review.txt").read_text() in printed
    data = json.loads((out / "review.json").read_text())
    assert data["seats"] == [1] and data["budget"]["samples"] == 1
    assert (out / "win-chance.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_review_command_refuses_an_unfinished_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One clear sentence, exit status 1, nothing written."""
    rec = _record(("greedy", "random"))
    path = tmp_path / "game.json"
    path.write_text(dump_record(GameRecord(rec.options, rec.seed, rec.actions[:40])))
    out = tmp_path / "rv"
    assert main(["review", str(path), "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "the game is not over" in err and "only a finished game can be reviewed" in err
    assert not out.exists()
    path.write_text(dump_record(rec))
    assert main(["review", str(path), "--seat", "7", "--out", str(out)]) == 1
    assert "--seat '7': no such player" in capsys.readouterr().err


def test_tournament_records_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``flamecraft tournament --records`` writes one record per game, which replays to the
    scores of results.json (and results.json does not repeat the actions)."""
    out = tmp_path / "t"
    assert main(["tournament", "--bots", "greedy,random", "--games", "2", "--players", "2",
                 "--workers", "1", "--records", "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    games = json.loads((out / "results.json").read_text())["games"]
    assert all("actions" not in g for g in games)
    for g in games:
        rec = load_record((out / "records" / f"game-{g['index'] + 1:04d}.json").read_text())
        assert replay(rec).rep == g["scores"]


def test_a_solo_game_is_reviewed_without_a_win_chance(tmp_path: Path) -> None:
    """Solo has nobody to beat: the decisions are reviewed, the curve is left out."""
    rv = review(_record(("greedy",)), None, TINY)
    assert rv.decisions and not rv.chances
    assert "nobody to beat" in format_review(rv, "a solo game")
    assert not plot_review(rv, str(tmp_path / "none.png"), "solo")


def test_a_mistakes_win_chances_are_said_once_when_they_read_the_same() -> None:
    """A lost game's mistake read "win chance 0% instead of 0%": the two chances, rounded
    as shown, are said once when equal (the Markdown review; the terminal and the web say the
    same with their own words)."""
    from flamecraft.ai.review import _chances

    assert _chances(0.001, 0.004) == "0% either way"
    assert _chances(0.40, 0.55) == "40% instead of 55%"
    assert _chances(None, 0.5) == "– instead of 50%"
