"""Balance reports: what many bot games say about the seats, the cards and the scoring.

``flamecraft balance`` plays games at each player count asked for (the same bots at every
seat by default) and writes a Markdown report with PNG plots: win rate by seat and player
count, game length, how often each card is placed (Artisan Dragons), cast (Enchantments) or
scored (Fancy Dragons, with how often it was scored when held) and the win rate of the players
who did, the strongest and weakest cards against the median, the share of the score from each
source (``state.rep_sources``), solo score distributions per bot, and Companion win rates with
``--companions``. The per-game facts come from the final state and the light event log that
``tournament.play_game`` keeps (state differences around each action).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core.board import CATALOG
from ..core.goods import GOOD_NAMES, NUM_GOODS
from ..core.solo import rating
from ..core.state import SOURCE_NAMES
from .tournament import (
    GameResult,
    add_run_arguments,
    check_bots,
    command_line,
    horizontal_boxplot,
    make_specs,
    run_specs,
    wilson,
    win_share,
    write_json,
)

MIN_EVENTS = 5  # a card needs this many players doing it to be ranked strongest or weakest

_NAMES: dict[str, dict[str, str]] = {
    "placed": {c.id: c.name for c in CATALOG.artisans},
    "placed_type": {GOOD_NAMES[g]: f"{GOOD_NAMES[g]} Dragons" for g in range(NUM_GOODS)},
    "cast": {c.id: c.name for c in CATALOG.enchantments},
    "scored": {c.id: c.name for c in CATALOG.fancies},
    "companion": {c.id: c.name for c in CATALOG.companions},
    "visited": {c.id: c.name for c in CATALOG.shops},
}
_TYPE_OF = {c.id: GOOD_NAMES[c.type] for c in CATALOG.artisans}
_KIND_WORDS = {"placed": ("Artisan Dragons", "placed"),
               "placed_type": ("Artisan Dragons by type", "placed"),
               "cast": ("Enchantments", "cast"),
               "scored": ("Fancy Dragons", "scored"),
               "visited": ("Shops", "visited")}


@dataclass(frozen=True)
class Lift:
    """A card's lift with its 95% interval: the Wilson interval of its players' win rate,
    divided by the mean win rate of their seats (which comes from every game at those player
    counts, far more than the card's own, and is taken as known). Wilson rather than a
    bootstrap over games: a card whose players never won (lift 0) gets an honest upper bound
    instead of the bootstrap's 0–0, and treating a card's players as independent games only
    widens the interval (players of one game share at most one win, so their outcomes are
    negatively correlated; shared wins and mixed seats vary less than a coin flip does)."""

    value: float
    low: float
    high: float
    count: int  # the player-games behind it
    defined: bool  # False without multiplayer games (no seat rates to compare against)

    def text(self) -> str:
        return f"{self.value:.2f} ({self.low:.2f}–{self.high:.2f})" if self.defined else "–"


@dataclass
class CardStat:
    """How often players did something with one card, and how those players fared."""

    card: str
    name: str
    times: int = 0  # events (a card may be placed more than once a game)
    players: int = 0  # player-games in which it happened
    wins: float = 0.0  # their win shares
    held: int = 0  # Fancy Dragons: player-games holding it at the end (scored or not)
    held_wins: float = 0.0  # their win shares
    expected: float = 0.0  # the wins their seats alone would give (seat win rates)
    held_expected: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.players if self.players else 0.0

    @property
    def held_win_rate(self) -> float:
        return self.held_wins / self.held if self.held else 0.0

    @property
    def lift(self) -> float:
        """Wins over the wins expected from the seats (1 = as the seats predict): comparable
        across player counts, unlike the raw win rate."""
        return self.wins / self.expected if self.expected else 0.0

    @property
    def held_lift(self) -> float:
        return self.held_wins / self.held_expected if self.held_expected else 0.0

    def measure(self, key: str = "lift") -> Lift:
        """``key`` ("lift" or "held_lift") with its 95% interval and the player-games behind
        it (see ``Lift``)."""
        held = key.startswith("held")
        count, wins, expected = ((self.held, self.held_wins, self.held_expected) if held
                                 else (self.players, self.wins, self.expected))
        if not expected:
            return Lift(0.0, 0.0, 0.0, count, False)
        low, high = wilson(wins, count)
        scale = count / expected  # 1 / the mean seat win rate of these player-games
        return Lift(wins / expected, low * scale, high * scale, count, True)


@dataclass
class CompanionStat(CardStat):
    """A Companion at one player count. Its holders' seats matter (the draft runs in reverse
    seat order, so the last seat picks first), so ``expected`` adds up the win rate of each
    seat it sat in, taken from all games at that player count."""

    seats: list[int] = field(default_factory=list)  # player-games at each seat

    def adjusted(self, n: int) -> float:
        """The seat-adjusted win rate: the win rate above (or below) what its seats alone
        would give, plus an even share, 1/n."""
        if not self.players:
            return 0.0
        return (self.wins - self.expected) / self.players + 1.0 / n


@dataclass
class Balance:
    """The aggregated report data."""

    bots: list[str]
    games_by_players: dict[int, int] = field(default_factory=dict)
    seat_wins: dict[int, list[float]] = field(default_factory=dict)
    seat_scores: dict[int, list[list[int]]] = field(default_factory=dict)
    turns: dict[int, list[int]] = field(default_factory=dict)
    cards: dict[str, dict[str, CardStat]] = field(default_factory=dict)
    sources: dict[int, list[float]] = field(default_factory=dict)
    solo: dict[str, list[int]] = field(default_factory=dict)
    companions: dict[int, dict[str, CompanionStat]] = field(default_factory=dict)


def _card(table: dict[str, CardStat], kind: str, card: str) -> CardStat:
    stat = table.get(card)
    if stat is None:
        stat = table[card] = CardStat(card, _NAMES[kind].get(card, card))
    return stat


def aggregate(results: Sequence[GameResult], bots: Sequence[str]) -> Balance:
    """Adds up the per-game facts of multiplayer and solo games. Each card's player-games
    also add up the wins their seats would give (``expected``), so a card's ``lift`` compares
    it fairly across player counts and seats."""
    b = Balance(list(bots))
    b.cards = {"placed": {}, "placed_type": {}, "cast": {}, "scored": {}, "visited": {}}
    # First the games and seat wins at each player count: the seat win rates are what a
    # card's players are measured against in the pass below.
    for r in results:
        n = len(r.lineup)
        b.games_by_players[n] = b.games_by_players.get(n, 0) + 1
        wins = b.seat_wins.setdefault(n, [0.0] * n)
        if n > 1:
            for p in range(n):
                wins[p] += win_share(r, p)
    base = {n: [w / b.games_by_players[n] for w in row] for n, row in b.seat_wins.items()}

    def did(stat: CardStat, share: float, expect: float) -> None:
        stat.players += 1
        stat.wins += share
        stat.expected += expect

    for r in results:
        n = len(r.lineup)
        if n == 1:
            b.solo.setdefault(r.lineup[0], []).append(r.scores[0])
        b.turns.setdefault(n, []).append(r.turns)
        scores = b.seat_scores.setdefault(n, [[] for _ in range(n)])
        totals = b.sources.setdefault(n, [0.0] * len(SOURCE_NAMES))
        for p in range(n):
            share = win_share(r, p) if n > 1 else 0.0
            expect = base[n][p]
            scores[p].append(r.scores[p])
            for k, amount in enumerate(r.sources[p]):
                totals[k] += amount
            for kind in ("placed", "cast", "scored", "visited"):
                cards = getattr(r, kind)[p] if getattr(r, kind) else []
                for card in cards:
                    _card(b.cards[kind], kind, card).times += 1
                for card in set(cards):
                    did(_card(b.cards[kind], kind, card), share, expect)
            types = [_TYPE_OF[d] for d in (r.placed[p] if r.placed else [])]
            for t in types:
                _card(b.cards["placed_type"], "placed_type", t).times += 1
            for t in set(types):
                did(_card(b.cards["placed_type"], "placed_type", t), share, expect)
            for card in set(r.held[p] if r.held else []):
                stat = _card(b.cards["scored"], "scored", card)
                stat.held += 1
                stat.held_wins += share
                stat.held_expected += expect
            companion = r.companions[p] if r.companions else None
            if companion and n > 1:
                table = b.companions.setdefault(n, {})
                held = table.get(companion)
                if held is None:
                    held = table[companion] = CompanionStat(
                        companion, _NAMES["companion"].get(companion, companion),
                        seats=[0] * n)
                did(held, share, expect)
                held.times += r.scores[p]
                held.seats[p] += 1
    return b


def ranked(stats: dict[str, CardStat], multiplayer_games: int, key: str = "lift"
           ) -> tuple[float, list[CardStat], list[CardStat]]:
    """The median of ``key`` over the cards with enough events, and the cards above and below
    it, farthest first (the strongest and weakest cards against the median). ``key`` is
    ``lift`` (wins over the seats' expected wins, of those who did it), ``held_lift`` (Fancy
    Dragons held) or a raw ``win_rate``."""
    count = "held" if key.startswith("held") else "players"
    pool = [s for s in stats.values() if getattr(s, count) >= MIN_EVENTS]
    if not pool or not multiplayer_games:
        return 0.0, [], []

    def rate(s: CardStat) -> float:
        return float(getattr(s, key))

    median = statistics.median(rate(s) for s in pool)
    strong = sorted((s for s in pool if rate(s) > median), key=lambda s: -rate(s))
    weak = sorted((s for s in pool if rate(s) < median), key=rate)
    return median, strong, weak


def plot_rows(b: Balance, kind: str) -> list[tuple[str, Lift]]:
    """What a card plot draws: every card of ``kind`` with at least ``MIN_EVENTS``
    player-games (the same minimum as the text's ranking; a lift of 0 is kept), lowest lift
    first, each with its interval. Fancy Dragons are measured by those who held them."""
    key = "held_lift" if kind == "scored" else "lift"
    rows = [(s.name, s.measure(key)) for s in b.cards.get(kind, {}).values()]
    rows = [(name, m) for name, m in rows if m.defined and m.count >= MIN_EVENTS]
    return sorted(rows, key=lambda row: (row[1].value, row[0]))


_RANKINGS = (("placed", "lift"), ("cast", "lift"), ("scored", "lift"),
             ("scored", "held_lift"), ("visited", "lift"))


def rank_warnings(b: Balance) -> list[str]:
    """One line per kind of card whose ranking is noise: no card with enough player-games has
    a 95% interval clear of the median lift (or too few cards have enough to rank at all)."""
    multi_games = sum(g for n, g in b.games_by_players.items() if n > 1)
    if not multi_games:
        return []
    out = []
    for kind, key in _RANKINGS:
        stats = b.cards.get(kind, {})
        if not stats:
            continue
        what = _KIND_WORDS[kind][0] + (" (held)" if key == "held_lift" else "")
        count = "held" if key == "held_lift" else "players"
        enough = [s for s in stats.values() if getattr(s, count) >= MIN_EVENTS]
        if len(enough) < 3:
            out.append(f"too few games to rank {what}: {len(enough)} of {len(stats)} cards "
                       f"have at least {MIN_EVENTS} player-games; play more games (--games)")
            continue
        median, _, _ = ranked(stats, multi_games, key)
        clear = [s for s in enough
                 if not s.measure(key).low <= median <= s.measure(key).high]
        if not clear:
            out.append(f"too few games to rank {what}: none of the {len(enough)} cards with at "
                       f"least {MIN_EVENTS} player-games has a 95% interval clear of the "
                       f"median lift ({median:.2f}); the strongest and weakest are noise — "
                       "play more games (--games)")
    return out


# --- plots --------------------------------------------------------------------------------

def _plt() -> Any:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def _save(plt: Any, fig: Any, out: str, name: str, written: list[str]) -> None:
    fig.tight_layout()
    fig.savefig(os.path.join(out, name), dpi=100)
    plt.close(fig)
    written.append(name)


def plots(b: Balance, out: str) -> list[str]:
    """Writes the report's PNG plots; returns their file names (none without matplotlib)."""
    plt = _plt()
    if plt is None:
        return []
    from matplotlib.ticker import MaxNLocator

    written: list[str] = []
    multi = sorted(n for n in b.games_by_players if n > 1)
    if multi:
        fig, ax = plt.subplots(figsize=(7, 3.6))
        width = 0.8 / len(multi)
        for k, n in enumerate(multi):
            games = b.games_by_players[n]
            rates = [100 * w / games for w in b.seat_wins[n]]
            bounds = [wilson(w, games) for w in b.seat_wins[n]]
            errors = [[r - 100 * lo for r, (lo, _) in zip(rates, bounds, strict=True)],
                      [100 * hi - r for r, (_, hi) in zip(rates, bounds, strict=True)]]
            ax.bar([p + 1 + (k - (len(multi) - 1) / 2) * width for p in range(n)], rates,
                   width=width, yerr=errors, capsize=2, error_kw={"linewidth": 0.8},
                   label=f"{n} players ({games} games)")
            ax.axhline(100 / n, linestyle=":", linewidth=0.8, color=f"C{k}")
        ax.set_xticks(range(1, max(multi) + 1))
        ax.set_xlabel("seat")
        ax.set_ylabel("win rate (%)")
        ax.set_title("win rate by seat (bars: 95% Wilson intervals; dotted: an even share)",
                     fontsize=10)
        ax.legend(fontsize=8)
        _save(plt, fig, out, "win_by_seat.png", written)
    counts = sorted(b.turns)
    if counts:
        fig, ax = plt.subplots(figsize=(7, 3.6))
        horizontal_boxplot(ax, [[t / n for t in b.turns[n]] for n in counts])
        ax.set_yticks(range(1, len(counts) + 1), [f"{n} player{'s' * (n > 1)}" for n in counts])
        ax.set_xlabel("rounds (turns ÷ players)")
        ax.set_title("game length")
        _save(plt, fig, out, "game_length.png", written)
    if b.sources:
        fig, ax = plt.subplots(figsize=(7, 3.6))
        lefts = [0.0] * len(counts)
        for k, name in enumerate(SOURCE_NAMES):
            shares = []
            for n in counts:
                total = sum(b.sources[n]) or 1.0
                shares.append(100 * b.sources[n][k] / total)
            ax.barh([str(n) for n in counts], shares, left=lefts, label=name)
            lefts = [x + y for x, y in zip(lefts, shares, strict=True)]
        ax.set_xlabel("share of all Reputation (%)")
        ax.set_ylabel("players")
        ax.set_title("where the score comes from")
        ax.legend(fontsize=7, ncol=3, loc="lower right")
        _save(plt, fig, out, "score_sources.png", written)
    multi_games = sum(b.games_by_players[n] for n in multi)
    for kind in ("placed", "cast", "scored", "visited"):
        key, what = ("held_lift", "held it") if kind == "scored" else (
            "lift", _KIND_WORDS[kind][1] + " it")
        rows = plot_rows(b, kind)
        if not rows or not multi:
            continue
        left_out = len(b.cards[kind]) - len(rows)
        lifts = [m.value for _, m in rows]
        fig, ax = plt.subplots(figsize=(7, max(3.0, 0.22 * len(rows) + 1.4)))
        ax.barh([name for name, _ in rows], [x - 1.0 for x in lifts], left=1.0,
                xerr=[[m.value - m.low for _, m in rows], [m.high - m.value for _, m in rows]],
                error_kw={"linewidth": 0.8, "capsize": 2})
        ax.axvline(1.0, linewidth=0.8, color="black")
        median, _, _ = ranked(b.cards[kind], multi_games, key)
        ax.axvline(median, linewidth=0.8, linestyle=":", color="C3",
                   label=f"median {median:.2f}")
        ax.set_xlabel(f"lift of players who {what} (wins ÷ wins their seats predict)")
        ax.tick_params(axis="y", labelsize=7)
        ax.set_title(f"{_KIND_WORDS[kind][0]}: lift of players who {what}", fontsize=10)
        ax.legend(fontsize=7, loc="lower right")
        fig.text(0.01, 0.005, f"cards with ≥ {MIN_EVENTS} player-games ({left_out} with fewer "
                 "left out); bars: 95% Wilson intervals", fontsize=7)
        _save(plt, fig, out, f"cards_{kind}.png", written)
    if b.solo:
        fig, ax = plt.subplots(figsize=(7, 3.6))
        everything = [x for scores in b.solo.values() for x in scores]
        step = max(1, (max(everything) - min(everything)) // 15 + 1)
        bins = list(range(min(everything), max(everything) + step + 1, step))
        for bot, scores in sorted(b.solo.items()):  # the same bins for every bot
            ax.hist(scores, bins=bins, alpha=0.5, label=bot)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("final Reputation")
        ax.set_ylabel("games")
        ax.set_title("solo scores")
        ax.legend(fontsize=8)
        _save(plt, fig, out, "solo_scores.png", written)
    return written


# --- the report ---------------------------------------------------------------------------

def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def report(b: Balance, images: list[str], config: dict[str, Any]) -> str:
    """The Markdown report."""
    lines = ["# Flamecraft balance report", ""]
    lines.append(f"Bots: {', '.join(b.bots)}. Games: "
                 + ", ".join(f"{g} at {n} player{'s' * (n > 1)}"
                             for n, g in sorted(b.games_by_players.items()))
                 + f". Seed {config['seed']}, {config['enchantments']} Enchantments"
                 + (", with Companions" if config["companions"] else "") + ".")
    lines += ["", f"Command: `{config['command']}`", ""]
    if config.get("rebuilt"):
        lines += [f"Report rebuilt from those games by: `{config['rebuilt']}`", ""]
    multi = sorted(n for n in b.games_by_players if n > 1)
    multi_games = sum(b.games_by_players[n] for n in multi)

    def image(name: str) -> None:
        if name in images:
            lines.extend([f"![{name}]({name})", ""])

    if multi:
        lines += ["## Win rate by seat", "",
                  "| players | games | " + " | ".join(f"seat {p + 1}" for p in range(max(multi)))
                  + " |", "|---|---|" + "---|" * max(multi)]
        for n in multi:
            games = b.games_by_players[n]
            cells = []
            for p in range(max(multi)):
                if p < n:
                    low, high = wilson(b.seat_wins[n][p], games)
                    cells.append(f"{_pct(b.seat_wins[n][p] / games)} "
                                 f"({100 * low:.0f}–{100 * high:.0f})")
                else:
                    cells.append("")
            lines.append(f"| {n} | {games} | " + " | ".join(cells) + " |")
        lines += ["", "(95% Wilson intervals in brackets; an even share is 1/players.)", ""]
        image("win_by_seat.png")
        lines += ["## Mean score by seat", "", "| players | " + " | ".join(
            f"seat {p + 1}" for p in range(max(multi))) + " |", "|---|" + "---|" * max(multi)]
        for n in multi:
            cells = [f"{statistics.fmean(b.seat_scores[n][p]):.1f}" if p < n else ""
                     for p in range(max(multi))]
            lines.append(f"| {n} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += ["## Game length", "", "| players | games | turns mean | rounds mean | min | max |",
              "|---|---|---|---|---|---|"]
    for n in sorted(b.turns):
        t = b.turns[n]
        lines.append(f"| {n} | {len(t)} | {statistics.fmean(t):.1f} | "
                     f"{statistics.fmean(t) / n:.1f} | {min(t)} | {max(t)} |")
    lines.append("")
    image("game_length.png")
    lines += ["## Where the score comes from", "",
              "| players | mean score | " + " | ".join(SOURCE_NAMES) + " |",
              "|---|---|" + "---|" * len(SOURCE_NAMES)]
    for n in sorted(b.sources):
        total = sum(b.sources[n]) or 1.0
        seats = b.games_by_players[n] * n
        lines.append(f"| {n} | {total / seats:.1f} | "
                     + " | ".join(_pct(x / total) for x in b.sources[n]) + " |")
    lines.append("")
    image("score_sources.png")
    lines += ["In the card tables below, *lift* is the wins of the players who did it "
              "divided by the wins their seats would give at their player counts (the seat "
              "win rates above): 1.00 is as expected, 1.10 is 10% more wins than expected. "
              "Unlike the raw win rate it compares cards fairly across player counts. In "
              "brackets: its 95% interval (the Wilson interval of those players' win rate "
              "over the mean win rate of their seats). Cards with fewer than "
              f"{MIN_EVENTS} player-games are listed but neither ranked nor plotted.", ""]
    warnings = rank_warnings(b)
    for w in warnings:  # one blockquote each (adjacent lines would merge into one)
        lines += [f"> **Warning:** {w}.", ""]
    for kind in ("placed_type", "placed", "cast", "scored", "visited"):
        title, verb = _KIND_WORDS[kind]
        stats = sorted(b.cards[kind].values(), key=lambda s: (-s.players, s.name))
        lines += [f"## {title}: how often {verb}, and the win rate of those who did", ""]
        if kind == "scored":
            lines += ["A Fancy Dragon's own strength shows best in how those who *held* it "
                      "at the end (scored or not) fared: scoring one is also a sign of a game "
                      "going well.", ""]
        if not stats:
            lines += ["(none)", ""]
            continue
        extra = (" | held | scored when held | win rate when held | lift when held (95%)"
                 if kind == "scored" else "")
        lines += [f"| card | times {verb} | player-games | win rate | lift (95%){extra} |",
                  "|---|---|---|---|---|" + ("---|---|---|---|" if extra else "")]
        for s in stats:
            rate = _pct(s.win_rate) if multi_games else "–"
            tail = ""
            if kind == "scored":
                tail = (f" | {s.held} | {_pct(s.players / s.held) if s.held else '–'} | "
                        f"{_pct(s.held_win_rate) if multi_games and s.held else '–'} | "
                        f"{s.measure('held_lift').text()}")
            lines.append(f"| {s.name} | {s.times} | {s.players} | {rate} | "
                         f"{s.measure().text()}{tail} |")
        lines.append("")
        rankings = [(verb, "lift")] if kind != "placed_type" else []
        if kind == "scored":
            rankings.append(("held", "held_lift"))
        for did, key in rankings:
            median, strong, weak = ranked(b.cards[kind], multi_games, key)
            if not (strong or weak):
                continue
            lines.append(f"Against the median lift of players who {did} a card "
                         f"({median:.2f}, cards with at least {MIN_EVENTS} player-games; "
                         "✓: its 95% interval is clear of the median):")
            lines.append("")

            def named(c: CardStat, key: str = key, median: float = median) -> str:
                m = c.measure(key)
                return f"{c.name} {m.text()}" + (" ✓" if not m.low <= median <= m.high
                                                   else "")
            lines.append("- strongest: " + ", ".join(named(c) for c in strong[:5]))
            lines.append("- weakest: " + ", ".join(named(c) for c in weak[:5]))
            lines.append("")
        image(f"cards_{kind}.png")
    if b.companions:
        lines += ["## Companions", "",
                  "Each Companion's win rate at each player count, and the same adjusted for "
                  "the seats its holders sat in (the draft runs in reverse seat order): "
                  "adjusted = win rate − the mean win rate of those seats + 1/players, so an "
                  "even Companion sits at 1/players. 95% Wilson interval of the win rate, "
                  "shifted by the same adjustment.", ""]
        for n in sorted(b.companions):
            lines += [f"### {n} players (even share {_pct(1 / n)})", "",
                      "| Companion | player-games | win rate | seat-expected | adjusted | "
                      "95% CI | mean score |", "|---|---|---|---|---|---|---|"]
            for s in sorted(b.companions[n].values(), key=lambda s: -s.adjusted(n)):
                low, high = wilson(s.wins, s.players)
                shift = s.adjusted(n) - s.win_rate
                lines.append(f"| {s.name} | {s.players} | {_pct(s.win_rate)} | "
                             f"{_pct(s.expected / s.players)} | {_pct(s.adjusted(n))} | "
                             f"{100 * (low + shift):.0f}–{100 * (high + shift):.0f}% | "
                             f"{s.times / s.players:.1f} |")
            lines.append("")
    if b.solo:
        lines += ["## Solo scores", "", "| bot | games | mean | sd | min | median | max | "
                  "most common rating |", "|---|---|---|---|---|---|---|---|"]
        for bot, scores in sorted(b.solo.items()):
            titles = [rating(x) for x in scores]
            common = max(set(titles), key=titles.count)
            sd = statistics.pstdev(scores) if len(scores) > 1 else 0.0
            lines.append(f"| {bot} | {len(scores)} | {statistics.fmean(scores):.1f} | "
                         f"{sd:.1f} | {min(scores)} | {statistics.median(scores):.0f} | "
                         f"{max(scores)} | {common} |")
        lines.append("")
        image("solo_scores.png")
    return "\n".join(lines)


# --- the command --------------------------------------------------------------------------

def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``flamecraft balance`` options."""
    p.add_argument("--games", type=int, default=100,
                   help="games at each player count (default 100)")
    p.add_argument("--players", default="2,3,4",
                   help="player counts, comma-separated, 1 for solo (default 2,3,4)")
    p.add_argument("--bots", default="planner",
                   help="bot specs, comma-separated (default planner): multiplayer tables are "
                        "filled with them in rotation; solo games are played by each")
    p.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    add_run_arguments(p, "balance-report", "report.md, balance.json, games.jsonl and the plots")
    p.add_argument("--from", dest="from", metavar="GAMES_JSONL", default=None,
                   help="rebuild the report from a games.jsonl an earlier run wrote, without "
                        "playing (the other game options are then ignored)")


def player_counts(text: str) -> list[int]:
    try:
        counts = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise ValueError(f"--players: not a list of whole numbers: {text!r}") from None
    if not counts or any(not 1 <= n <= 5 for n in counts):
        raise ValueError(f"--players: give counts from 1 to 5, not {text!r}")
    return counts


def run_balance(bots: Sequence[str], counts: Sequence[int], games: int, seed: int,
                workers: int | None = None, backend: str = "local", deck: str = "purple",
                companions: bool = False, progress: bool = False) -> list[GameResult]:
    """Plays the games of a report: ``games`` at each player count (solo: per bot)."""
    specs = []
    index = 0
    for n in counts:
        if n == 1:
            for bot in bots:
                specs += make_specs([bot], games, seed, 1, deck, companions, True, index)
                index += games
        else:
            specs += make_specs(bots, games, seed, n, deck, companions, True, index)
            index += games
    return run_specs(specs, workers, backend, progress, label="balance")


def load_results(path: str) -> list[GameResult]:
    """The games a ``games.jsonl`` holds (one ``GameResult`` as JSON a line)."""
    results = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                results.append(GameResult(**json.loads(line)))
            except (ValueError, TypeError) as err:
                raise ValueError(f"{path}: line {number} is not a game result ({err})") from None
    if not results:
        raise ValueError(f"{path}: no games")
    return results


def _played_config(games_path: str) -> dict[str, Any] | None:
    """The configuration of the run that played the games (its balance.json), if at hand."""
    path = os.path.join(os.path.dirname(games_path) or ".", "balance.json")
    try:
        with open(path, encoding="utf-8") as fh:
            config = json.load(fh)["config"]
    except (OSError, ValueError, KeyError):
        return None
    return config if isinstance(config, dict) else None


def _bounds(m: Lift) -> list[float] | None:
    return [m.low, m.high] if m.defined else None


def cmd_balance(args: argparse.Namespace) -> int:
    """``flamecraft balance``: plays the games and writes the report."""
    bots = check_bots(args.bots)
    counts = player_counts(args.players)
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    source: str | None = getattr(args, "from")
    began = time.perf_counter()
    if source:
        results = load_results(source)
        bots = sorted({bot for r in results for bot in r.lineup})
        counts = sorted({len(r.lineup) for r in results})
    else:
        results = run_balance(bots, counts, args.games, args.seed, args.workers, args.backend,
                              args.enchantments, args.companions, progress=not args.quiet)
    b = aggregate(results, bots)
    os.makedirs(args.out, exist_ok=True)
    images = plots(b, args.out)
    config = {"bots": bots, "players": counts, "games": args.games, "seed": args.seed,
              "enchantments": args.enchantments, "companions": args.companions,
              "seconds": time.perf_counter() - began,
              "command": command_line("balance", args)}
    if source:
        config = _played_config(source) or config
        config["rebuilt"] = command_line("balance", args)
    path = os.path.join(args.out, "report.md")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(report(b, images, config) + "\n")
    write_json(os.path.join(args.out, "balance.json"), {
        "config": config,
        "games_by_players": b.games_by_players,
        "seat_wins": b.seat_wins,
        "turns": b.turns,
        "sources": {n: dict(zip(SOURCE_NAMES, v, strict=True)) for n, v in b.sources.items()},
        "cards": {kind: {c: {**vars(s), "lift_ci95": _bounds(s.measure()),
                             "held_lift_ci95": _bounds(s.measure("held_lift"))}
                         for c, s in stats.items()}
                  for kind, stats in b.cards.items()},
        "companions": {n: {c: {**vars(s), "adjusted": s.adjusted(n)} for c, s in t.items()}
                       for n, t in b.companions.items()},
        "solo": b.solo,
    })
    games_path = os.path.join(args.out, "games.jsonl")
    if not (source and os.path.abspath(source) == os.path.abspath(games_path)):
        with open(games_path, "w", encoding="utf-8") as fh:
            for r in results:  # every game's facts, to rebuild or extend the report
                fh.write(json.dumps(asdict(r)) + "\n")
    for warning in rank_warnings(b):
        print(f"warning: {warning}")
    print(f"wrote {path} ({len(results)} games, {len(images)} plots) in "
          f"{time.perf_counter() - began:.1f} s")
    return 0
