"""Balance reports: the aggregation of per-game facts, and a small report end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flamecraft.ai.balance import aggregate, player_counts, ranked, report
from flamecraft.ai.tournament import GameResult
from flamecraft.cli import main


def _game(index: int, lineup: list[str], scores: list[int], won: list[int],
          placed: list[list[str]], cast: list[list[str]], scored: list[list[str]],
          held: list[list[str]], companions: list[str | None] | None = None) -> GameResult:
    n = len(lineup)
    return GameResult(index, index, lineup, scores, won, 10 * n, [5] * n, [0.1] * n, [0] * n,
                      [[2, s - 2, 0, 0, 0, 0, 0, 0, 0] for s in scores],
                      companions or [None] * n, placed, cast, scored, held, [[] for _ in lineup])


def test_card_stats_count_players_and_their_wins() -> None:
    """A card placed twice in one game counts two times but one player-game; the win rate is
    over the players who did it; a shared win (ruling 20) counts as a share."""
    games = [
        _game(0, ["b", "b"], [50, 40], [0], [["pan", "pan"], ["cutlet"]],
              [["smelting-pot"], []], [["sir-loin"], []], [["sir-loin"], ["brewdini"]]),
        _game(1, ["b", "b"], [45, 45], [0, 1], [["cutlet"], ["pan"]],
              [[], ["smelting-pot"]], [[], []], [["brewdini"], ["sir-loin"]]),
    ]
    b = aggregate(games, ["b"])
    pan = b.cards["placed"]["pan"]
    assert (pan.times, pan.players, pan.wins) == (3, 2, 1.5)
    assert b.cards["placed"]["cutlet"].win_rate == pytest.approx(0.25)
    assert b.cards["placed_type"]["Bread"].players == 2
    assert b.cards["cast"]["smelting-pot"].wins == 1.5
    loin = b.cards["scored"]["sir-loin"]
    assert (loin.players, loin.held) == (1, 2)
    assert loin.held_win_rate == pytest.approx((1 + 0.5) / 2)  # held by 2 winners (game 1 shared)
    assert b.seat_wins[2] == [1.5, 0.5]
    assert b.turns[2] == [20, 20]
    assert b.sources[2][0] == 8 and b.sources[2][1] == 180 - 8


def test_strongest_and_weakest_cards_are_measured_against_the_median() -> None:
    games = []
    for i in range(10):
        # "pan" placers always win, "cutlet" placers never; "twig" is even.
        games.append(_game(i, ["b", "b"], [50, 40], [0], [["pan", "twig"], ["cutlet", "twig"]],
                           [[], []], [[], []], [[], []]))
    b = aggregate(games, ["b"])
    median, strong, weak = ranked(b.cards["placed"], 10)
    assert median == 0.5
    assert [s.card for s in strong] == ["pan"] and [s.card for s in weak] == ["cutlet"]
    text = report(b, [], {"seed": 1, "enchantments": "purple", "companions": False,
                          "command": "flamecraft balance"})
    assert "strongest: Pan 100.0% (+50.0)" in text and "weakest: Cutlet 0.0% (-50.0)" in text


def test_companion_win_rates_are_per_player_count_and_seat_adjusted() -> None:
    """Issue 6 point 5: a Companion that wins only because it always sits in the strong seat
    is even once adjusted; one that wins more than its seats explain is above the even share."""
    games = []
    for i in range(8):
        # Seat 1 wins 3 games in 4. Old Bellows always sits there: it wins as often as that
        # seat, so its adjusted rate is the even share.
        games.append(_game(i, ["b", "b"], [50, 40], [0 if i % 4 else 1], [[], []], [[], []],
                           [[], []], [[], []], ["old-bellows", "santa-claws"]))
    games.append(_game(8, ["b", "b", "b"], [50, 40, 30], [1], [[], [], []], [[], [], []],
                       [[], [], []], [[], [], []], [None, "old-bellows", None]))
    b = aggregate(games, ["b"])
    bellows = b.companions[2]["old-bellows"]
    assert bellows.players == 8 and bellows.win_rate == 0.75
    assert bellows.expected == pytest.approx(6.0)
    assert bellows.adjusted(2) == pytest.approx(0.5)
    assert b.companions[2]["santa-claws"].adjusted(2) == pytest.approx(0.5)
    three = b.companions[3]["old-bellows"]  # one game at 3 players, won from seat 2
    assert (three.players, three.seats) == (1, [0, 1, 0])
    assert three.adjusted(3) == pytest.approx(1 / 3)
    text = report(b, [], {"seed": 1, "enchantments": "purple", "companions": True,
                          "command": "flamecraft balance"})
    assert "### 2 players" in text and "### 3 players" in text
    assert "| Old Bellows | 8 | 75.0% | 75.0% | 50.0% |" in text


def test_player_counts_are_checked() -> None:
    assert player_counts("4,2,2") == [2, 4]
    for bad in ("0", "6", "two", ""):
        with pytest.raises(ValueError):
            player_counts(bad)


def test_balance_command_writes_a_report(tmp_path: Path) -> None:
    """A small report end to end: solo and 2-player games with Companions."""
    out = tmp_path / "report"
    status = main(["balance", "--games", "2", "--players", "1,2", "--bots", "greedy",
                   "--workers", "1", "--companions", "--seed", "3", "--out", str(out),
                   "--quiet"])
    assert status == 0
    text = (out / "report.md").read_text()
    for heading in ("## Win rate by seat", "## Game length", "## Where the score comes from",
                    "## Artisan Dragons: how often placed", "## Enchantments: how often cast",
                    "## Fancy Dragons: how often scored", "## Shops: how often visited",
                    "## Companions", "## Solo scores"):
        assert heading in text
    data = json.loads((out / "balance.json").read_text())
    assert data["games_by_players"] == {"1": 2, "2": 2}
    assert len(data["solo"]["greedy"]) == 2
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(games) == 4 and all(g["visited"] for g in games)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert (out / "win_by_seat.png").stat().st_size > 1000
    assert "![win_by_seat.png](win_by_seat.png)" in text
