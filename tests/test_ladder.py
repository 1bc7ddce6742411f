"""`flamecraft ladder`: Bradley–Terry ratings from tournament results, with intervals."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from pathlib import Path

import pytest

pytest.importorskip("scipy", reason="the reports extra is not installed")

import numpy as np

from flamecraft.ai.ladder import fit, load_games, pair_matrices, rate, win_chance
from flamecraft.ai.tournament import GameResult, summarize
from flamecraft.cli.main import main


def _game(index: int, lineup: list[str], scores: list[int], won: list[int]) -> GameResult:
    n = len(lineup)
    return GameResult(index, index, lineup, scores, won, 30, [10] * n, [0.5] * n, [0] * n,
                      [[s, 0, 0, 0, 0, 0, 0, 0, 0] for s in scores])


def _two(index: int, first: str, second: str, first_wins: bool) -> GameResult:
    return _game(index, [first, second], [60, 40] if first_wins else [40, 60],
                 [0] if first_wins else [1])


def _write(path: Path, games: list[GameResult]) -> str:
    path.write_text(json.dumps({"config": {}, "summary": {},
                                "games": [asdict(g) for g in games]}))
    return str(path)


def _constructed() -> list[GameResult]:
    """"ace" beats everybody; "mid" beats "low" 3 games in 4; seats alternate."""
    games: list[GameResult] = []
    for i in range(12):
        games.append(_two(len(games), *(("ace", "mid") if i % 2 else ("mid", "ace")),
                          first_wins=bool(i % 2)))
        games.append(_two(len(games), *(("ace", "low") if i % 2 else ("low", "ace")),
                          first_wins=bool(i % 2)))
        mid_wins = i % 4 != 3
        games.append(_two(len(games), *(("mid", "low") if i % 2 else ("low", "mid")),
                          first_wins=mid_wins if i % 2 else not mid_wins))
    return games


def test_a_constructed_file_rates_the_bot_that_always_wins_first(tmp_path: Path) -> None:
    """The command on a small result file: the bot that always won is rated first, in every
    resample, with an interval around its rating; the files are written."""
    path = _write(tmp_path / "results.json", _constructed())
    out = tmp_path / "ladder"
    assert main(["ladder", path, "--bootstrap", "200", "--out", str(out)]) == 0
    data = json.loads((out / "ladder.json").read_text())
    ratings = data["ratings"]
    assert [r["bot"] for r in ratings] == ["ace", "mid", "low"]
    assert ratings[0]["top"] == 1.0 and ratings[0]["score"] == 1.0
    for r in ratings:
        assert r["low"] <= r["elo"] <= r["high"] and r["high"] - r["low"] > 0
    assert sum(r["elo"] for r in ratings) == pytest.approx(0.0, abs=1e-6)
    assert [r["ms"] for r in ratings] == [pytest.approx(50.0)] * 3  # 0.5 s for 10 decisions
    assert data["pairwise_wins"]["mid"]["low"] == 9 and data["pairwise_wins"]["low"]["mid"] == 3
    text = (out / "ladder.md").read_text()
    assert "| 1 | `ace` |" in text and "set by the prior" in text and "further\"): `ace`." in text
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert (out / "ladder.png").stat().st_size > 1000


def test_ratings_and_intervals_do_not_depend_on_the_order_of_games(tmp_path: Path) -> None:
    games = _constructed()
    one = rate(games, resamples=100, seed=3)
    shuffled = games[:]
    random.Random(1).shuffle(shuffled)
    files = [_write(tmp_path / "b.json", shuffled[20:]), _write(tmp_path / "a.json",
                                                                 shuffled[:20])]
    two = rate(load_games(files), resamples=100, seed=3)
    assert one.ratings == two.ratings
    anchored = rate(games, resamples=100, seed=3, anchor="low")
    low = {r.bot: r for r in one.ratings}["low"].elo
    assert [r.bot for r in anchored.ratings] == [r.bot for r in one.ratings]
    assert [r.elo for r in anchored.ratings] == pytest.approx([r.elo - low for r in one.ratings])


def test_the_fit_is_the_maximum_likelihood_on_the_elo_scale() -> None:
    """At the fitted strengths each bot's expected pairwise wins equal its actual wins (the
    likelihood's score equations); and games drawn from known Elo ratings give them back."""
    wins = pair_matrices(_constructed(), ["ace", "low", "mid"]).sum(axis=0) + 0.5
    theta = fit(wins)
    games = wins + wins.T
    expected = (games / (1 + np.exp(theta[None, :] - theta[:, None]))).sum(axis=1)
    assert expected == pytest.approx(wins.sum(axis=1))
    truth = {"a": 0.0, "b": 150.0, "c": 400.0}
    rng = random.Random(7)
    drawn: list[GameResult] = []
    for x, y in (("a", "b"), ("b", "c"), ("a", "c")):
        for _ in range(1500):
            drawn.append(_two(len(drawn), x, y, rng.random() < win_chance(truth[x], truth[y])))
    fitted = {r.bot: r.elo for r in rate(drawn, resamples=0, anchor="a").ratings}
    assert fitted["b"] == pytest.approx(150, abs=30) and fitted["c"] == pytest.approx(400, abs=30)


def test_a_game_of_several_players_is_read_as_its_pairs() -> None:
    """Three seats give three pairs; a shared win is half a win each; between equal scores the
    tie-breakers' winner is ahead; two seats of one bot are not compared."""
    shared = _game(0, ["a", "b", "c"], [50, 50, 40], [0, 1])
    broken = _game(1, ["a", "b", "c"], [50, 50, 40], [1])
    twice = _game(2, ["a", "a", "b"], [30, 20, 10], [0])
    m = pair_matrices([shared, broken, twice], ["a", "b", "c"])
    assert m[0].tolist() == [[0, 0.5, 1], [0.5, 0, 1], [0, 0, 0]]
    assert m[1].tolist() == [[0, 0, 1], [1, 0, 1], [0, 0, 0]]
    assert m[2].tolist() == [[0, 2, 0], [0, 0, 0], [0, 0, 0]]
    head = summarize([broken])["head_to_head"]  # the same reading in the tournament summary
    assert (head["a"]["b"]["beat"], head["b"]["a"]["beat"]) == (0.0, 1.0)


def test_bad_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    apart = [_two(0, "a", "b", True), _two(1, "c", "d", True)]
    with pytest.raises(ValueError, match="never met"):
        rate(apart, resamples=0)
    with pytest.raises(ValueError, match="no games between two different bots"):
        rate([_game(0, ["a"], [30], [0])], resamples=0)
    with pytest.raises(ValueError, match="--anchor"):
        rate(_constructed(), resamples=0, anchor="nobody")
    bad = tmp_path / "bad.json"
    bad.write_text('{"games": [{"index": 0}]}')
    assert main(["ladder", str(bad), "--out", str(tmp_path / "x")]) == 1
    assert "not tournament results" in capsys.readouterr().err
    assert main(["ladder", str(tmp_path / "missing.json")]) == 1
    good = _write(tmp_path / "good.json", _constructed())
    assert main(["ladder", good, "--bootstrap", "20", "--out", str(tmp_path / "y")]) == 1
    assert "at least 100" in capsys.readouterr().err
