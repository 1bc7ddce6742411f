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
    """Cards are ranked by lift: wins over the wins their seats predict. Seats alternate, so
    each seat wins half its games and a card's lift is its win rate over one half."""
    games = []
    for i in range(10):
        # "pan" placers always win, "cutlet" placers never; "twig" is even.
        pan, cut = ["pan", "twig"], ["cutlet", "twig"]
        placed = [cut, pan] if i % 2 else [pan, cut]
        games.append(_game(i, ["b", "b"], [50, 40], [i % 2], placed,
                           [[], []], [[], []], [[], []]))
    b = aggregate(games, ["b"])
    assert b.cards["placed"]["pan"].lift == pytest.approx(2.0)
    assert b.cards["placed"]["twig"].lift == pytest.approx(1.0)
    median, strong, weak = ranked(b.cards["placed"], 10)
    assert median == 1.0
    assert [s.card for s in strong] == ["pan"] and [s.card for s in weak] == ["cutlet"]
    text = report(b, [], {"seed": 1, "enchantments": "purple", "companions": False,
                          "command": "flamecraft balance"})
    assert "strongest: Pan 2.00" in text and "weakest: Cutlet 0.00" in text
    assert "| Pan | 10 | 10 | 100.0% | 2.00 |" in text


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


def test_a_report_is_rebuilt_from_saved_games(tmp_path: Path) -> None:
    """`--from games.jsonl` rebuilds the same report without playing, naming the command
    that played the games; a broken file is refused with its line number."""
    out = tmp_path / "played"
    assert main(["balance", "--games", "2", "--players", "2", "--bots", "greedy",
                 "--workers", "1", "--seed", "5", "--out", str(out), "--quiet"]) == 0
    again = tmp_path / "rebuilt"
    assert main(["balance", "--from", str(out / "games.jsonl"), "--out", str(again),
                 "--quiet"]) == 0
    first = (out / "report.md").read_text()
    second = (again / "report.md").read_text()
    assert "Report rebuilt from those games by: `flamecraft balance" in second
    def tables(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith("|")]
    assert tables(second) == tables(first) and len(tables(first)) > 50
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"index": 0}\n')
    assert main(["balance", "--from", str(bad), "--out", str(tmp_path / "x")]) != 0
