"""Balance reports: the aggregation of per-game facts, and a small report end to end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flamecraft.ai.balance import (
    aggregate,
    player_counts,
    plot_rows,
    rank_warnings,
    ranked,
    report,
)
from flamecraft.ai.tournament import GameResult, wilson
from flamecraft.cli.main import main


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
    text = report(b, [], _CONFIG)
    # Lift intervals: the Wilson interval of the win rate over the seats' mean rate (1/2).
    pan_low, pan_high = (2 * x for x in wilson(10, 10))
    cut_high = 2 * wilson(0, 10)[1]
    assert f"strongest: Pan 2.00 ({pan_low:.2f}–{pan_high:.2f}) ✓" in text
    assert f"weakest: Cutlet 0.00 (0.00–{cut_high:.2f}) ✓" in text
    assert f"| Pan | 10 | 10 | 100.0% | 2.00 ({pan_low:.2f}–{pan_high:.2f}) |" in text
    assert "Warning" not in text


_CONFIG = {"seed": 1, "enchantments": "purple", "companions": False,
           "command": "flamecraft balance"}


def _placements(rounds: int, extra: dict[int, str] | None = None) -> list[GameResult]:
    """2-player games whose winning seat alternates: "pan" is placed by every winner,
    "cutlet" by every loser, "twig" by both; ``extra`` adds a card placed by that game's
    winner."""
    games = []
    for i in range(rounds):
        win, lose = ["pan", "twig"], ["cutlet", "twig"]
        if extra and i in extra:
            win.append(extra[i])
        placed = [lose, win] if i % 2 else [win, lose]
        games.append(_game(i, ["b", "b"], [50, 40], [i % 2], placed,
                           [[], []], [[], []], [[], []]))
    return games


def test_lift_intervals_keep_zero_lifts_honest() -> None:
    """A card whose players never won has lift 0 with an interval from 0 up (not 0–0); every
    interval contains its lift; more games narrow it; no multiplayer games, no lift."""
    few, many = aggregate(_placements(6), ["b"]), aggregate(_placements(40), ["b"])
    for b in (few, many):
        for stat in b.cards["placed"].values():
            m = stat.measure()
            assert m.defined and m.low <= m.value <= m.high and m.count == stat.players
    cut = few.cards["placed"]["cutlet"].measure()
    assert (cut.value, cut.low) == (0.0, 0.0) and cut.high > 0.5
    twig_few = few.cards["placed"]["twig"].measure()
    twig_many = many.cards["placed"]["twig"].measure()
    assert twig_few.value == twig_many.value == pytest.approx(1.0)
    assert twig_many.high - twig_many.low < twig_few.high - twig_few.low
    solo = _game(0, ["b"], [30], [0], [["pan"]], [[]], [[]], [[]])
    assert not aggregate([solo], ["b"]).cards["placed"]["pan"].measure().defined


def test_plots_use_the_texts_minimum_and_keep_zero_lifts() -> None:
    """The card plot draws every card with at least MIN_EVENTS player-games, zeros included
    (the old plot dropped lift 0), and none with fewer: "flambe", placed once by a winner
    (lift 2), is in the table but neither ranked nor plotted."""
    b = aggregate(_placements(10, extra={0: "flambe"}), ["b"])
    rows = plot_rows(b, "placed")
    assert [(name, m.value) for name, m in rows] == [
        ("Cutlet", 0.0), ("Twig", pytest.approx(1.0)), ("Pan", pytest.approx(2.0))]
    assert b.cards["placed"]["flambe"].lift == pytest.approx(2.0)
    _, strong, _ = ranked(b.cards["placed"], 10)
    assert [s.card for s in strong] == ["pan"]
    assert "| Flambé | 1 | 1 | 100.0% | 2.00" in report(b, [], _CONFIG)


def test_the_plots_draw_those_rows_with_error_bars_and_whole_seats(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The figures themselves (not their pixels): the placed-card plot's bars are
    ``plot_rows``' cards in order, each with an error bar, and the seat plot's ticks are whole
    seats."""
    pytest.importorskip("matplotlib")
    from flamecraft.ai import balance

    figures: dict[str, Any] = {}
    monkeypatch.setattr(balance, "_save", lambda plt, fig, out, name, written:
                        figures.setdefault(name, fig))
    b = aggregate(_placements(10, extra={0: "flambe"})
                  + [_game(10 + i, ["b"] * 4, [9, 8, 7, 6], [i % 4], [[]] * 4, [[]] * 4,
                           [[]] * 4, [[]] * 4) for i in range(4)], ["b"])
    balance.plots(b, str(tmp_path))
    ax = figures["cards_placed.png"].axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Cutlet", "Twig", "Pan"]
    from matplotlib.container import BarContainer

    bars = next(c for c in ax.containers if isinstance(c, BarContainer))
    rows = plot_rows(b, "placed")
    assert [bar.get_x() + bar.get_width() for bar in bars] == [
        pytest.approx(m.value) for _, m in rows]
    assert bars.errorbar is not None
    segments = bars.errorbar.lines[2][0].get_segments()  # one error bar per card
    assert [(seg[0][0], seg[1][0]) for seg in segments] == [
        (pytest.approx(m.low), pytest.approx(m.high)) for _, m in rows]
    seats = figures["win_by_seat.png"].axes[0].get_xticks()
    assert list(seats) == [1, 2, 3, 4]


def test_a_sample_too_small_to_rank_is_warned_about(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    """When no card's interval is clear of the median, the report and the command say the
    ranking is noise; a sample that separates the cards is not warned about."""
    clear = aggregate(_placements(10), ["b"])
    assert not [w for w in rank_warnings(clear) if "Artisan" in w]
    games = _placements(4)
    for g in games:  # everybody places every card: nobody's lift can differ from 1
        g.placed = [["pan", "cutlet", "twig"], ["pan", "cutlet", "twig"]]
    noise = aggregate(games, ["b"])
    warnings = [w for w in rank_warnings(noise) if "Artisan" in w]
    assert len(warnings) == 1 and "none of the 3 cards" in warnings[0]
    assert f"> **Warning:** {warnings[0]}." in report(noise, [], _CONFIG)
    assert main(["balance", "--games", "2", "--players", "2", "--bots", "greedy",
                 "--workers", "1", "--out", str(tmp_path / "r"), "--quiet"]) == 0
    assert "warning: too few games to rank" in capsys.readouterr().out


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
