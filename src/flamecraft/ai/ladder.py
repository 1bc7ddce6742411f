"""Ratings of bots from tournament results: a Bradley–Terry model on the Elo scale.

``flamecraft ladder results.json [more.json …]`` reads the games that ``flamecraft
tournament`` wrote (or a balance run's ``games.jsonl``) and rates every bot spec it finds —
``ismcts:seconds=0.25`` and ``ismcts:seconds=1`` are two entries, so budgets are rated too.

Why pairwise Bradley–Terry: a game of k players is read as its k(k−1)/2 pairs of seats, each
won by the seat that finished ahead (a winner is ahead of a non-winner, else the higher score;
level seats share it as half a win each), and the strengths are fitted by maximum likelihood
(scipy's L-BFGS on the weighted log-likelihood). Halves are what shared wins need, which rules
out a plain Plackett–Luce fit over rankings; the pairs of one game are not independent, and the
bootstrap below (over whole games) is what accounts for that in the intervals. A bot that won
(or lost) every game has no finite maximum-likelihood rating, so each pair of bots that met
also counts ``prior`` virtual drawn games (one by default, BayesElo's idea): it pulls the
ratings toward each other by what one game would, and keeps every fit finite.

Intervals: the percentile interval of 1,000 bootstrap refits (by default), each on the games
resampled with replacement, seeded; the games are put in a canonical order first, so the
ratings and the intervals do not depend on the order of the games or of the files. Ratings are
Elo points (400 per factor of 10 in the odds), centred on the mean, or on ``--anchor BOT``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit

from .tournament import GameResult, beats, write_json

ELO = 400 / math.log(10)  # Elo points per unit of log-strength


@dataclass(frozen=True)
class Rating:
    """One bot's place on the ladder."""

    bot: str
    elo: float
    low: float  # the 95% bootstrap interval
    high: float
    games: int  # games it played in
    pairs: float  # pairwise comparisons with other bots
    score: float  # its share of them (half a point for a draw)
    top: float  # share of the bootstrap refits that rate it first
    ms: float  # its mean thinking time a decision, in milliseconds (the budget it used)


@dataclass
class Ladder:
    """The fitted ladder, best first, and how it was made."""

    ratings: list[Rating]
    games: int
    resamples: int
    seed: int
    prior: float
    anchor: str | None
    wins: list[list[float]]  # wins[i][j]: pairwise wins of bots[i] over bots[j]

    @property
    def bots(self) -> list[str]:
        return sorted(r.bot for r in self.ratings)


def load_games(paths: Sequence[str]) -> list[GameResult]:
    """The games of ``results.json`` files (``flamecraft tournament``) and ``games.jsonl``
    files (``flamecraft balance``), in a canonical order (``canonical``)."""
    games: list[GameResult] = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as err:
            raise ValueError(f"{path}: cannot read ({err.strerror})") from None
        try:
            if path.endswith(".jsonl"):
                rows = [json.loads(line) for line in text.splitlines() if line.strip()]
            else:
                data = json.loads(text)
                if not isinstance(data, dict) or not isinstance(data.get("games"), list):
                    raise ValueError("no list of games")
                rows = data["games"]
            games += [GameResult(**row) for row in rows]
        except (ValueError, TypeError, KeyError) as err:
            raise ValueError(f"{path}: not tournament results ({err})") from None
    return canonical(games)


def canonical(games: Sequence[GameResult]) -> list[GameResult]:
    """The games in an order that depends on their content only (the bootstrap resamples by
    position, so this makes the intervals independent of the order games were given in)."""
    return sorted(games, key=lambda g: json.dumps(g.deterministic(), sort_keys=True))


def pair_matrices(games: Sequence[GameResult], bots: Sequence[str]) -> np.ndarray[Any, Any]:
    """For each game, the pairwise wins between bots (``[g, i, j]``: seats of ``bots[i]``
    finishing ahead of seats of ``bots[j]``). Seats of the same bot are not compared."""
    index = {b: i for i, b in enumerate(bots)}
    out = np.zeros((len(games), len(bots), len(bots)))
    for g, r in enumerate(games):
        for p, a in enumerate(r.lineup):
            for q, b in enumerate(r.lineup):
                if p != q and a != b:
                    out[g, index[a], index[b]] += beats(r, p, q)
    return out


def fit(wins: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Maximum-likelihood Bradley–Terry log-strengths (mean 0) from a matrix of pairwise
    wins, which must connect every bot (the prior's virtual draws do). The first strength is
    held at 0 (only differences count); scipy's Newton-CG with the exact Hessian converges in
    a few steps (the log-likelihood is concave)."""
    k = len(wins)
    games = wins + wins.T

    def probabilities(free: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], ...]:
        theta = np.concatenate(([0.0], free))
        diff = theta[:, None] - theta[None, :]
        return diff, expit(diff)  # P(i ahead of j)

    def loss(free: np.ndarray[Any, Any]) -> tuple[float, np.ndarray[Any, Any]]:
        diff, p = probabilities(free)
        # wins[i, j] · −log σ(θi − θj), with −log σ(x) = log(1 + e^−x), computed stably
        nll = float(np.sum(wins * np.logaddexp(0.0, -diff)))
        grad = (games * p).sum(axis=1) - wins.sum(axis=1)
        return nll, grad[1:]

    def hessian(free: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        _, p = probabilities(free)
        c = games * p * (1 - p)
        h = -c
        np.fill_diagonal(h, c.sum(axis=1) - np.diag(c))
        return np.asarray(h[1:, 1:])

    result = minimize(loss, np.zeros(k - 1), jac=True, hess=hessian, method="Newton-CG",
                      options={"xtol": 1e-10, "maxiter": 200})
    _, grad = loss(result.x)
    if np.abs(grad).max() > 1e-6 * max(1.0, float(wins.sum())):
        raise RuntimeError(f"the Bradley–Terry fit did not converge: {result.message}")
    theta = np.concatenate(([0.0], result.x))
    return np.asarray(theta - theta.mean())


def _components(met: np.ndarray[Any, Any]) -> list[list[int]]:
    """The groups of bots connected by games between them."""
    k, seen, groups = len(met), set[int](), []
    for start in range(k):
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            group.append(i)
            for j in range(k):
                if met[i, j] and j not in seen:
                    seen.add(j)
                    todo.append(j)
        groups.append(sorted(group))
    return groups


def rate(games: Sequence[GameResult], resamples: int = 1000, seed: int = 1,
         prior: float = 1.0, anchor: str | None = None) -> Ladder:
    """Fits the ladder and its bootstrap intervals."""
    games = canonical(games)
    bots = sorted({b for r in games for b in r.lineup})
    per_game = pair_matrices(games, bots)
    total = per_game.sum(axis=0)
    met = (total + total.T) > 0
    if len(bots) < 2 or not met.any():
        raise ValueError("no games between two different bots to rate")
    groups = _components(met)
    if len(groups) > 1:
        names = [" + ".join(bots[i] for i in g) for g in groups]
        raise ValueError("these groups of bots never met, so their ratings cannot be compared: "
                         + "; ".join(names) + " (add games between them)")
    if anchor is not None and anchor not in bots:
        raise ValueError(f"--anchor {anchor!r} is not one of the bots: {', '.join(bots)}")
    if prior <= 0:
        raise ValueError("--prior must be above 0 (a bot that always won has no finite "
                         "rating without it)")
    virtual = prior / 2 * met  # prior drawn games between each pair that met

    def elo(theta: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        shift = theta[bots.index(anchor)] if anchor is not None else 0.0
        return np.asarray(ELO * (theta - shift))

    estimate = elo(fit(total + virtual))
    rng = np.random.default_rng(seed)
    n = len(games)
    samples = np.empty((resamples, len(bots)))
    for b in range(resamples):
        counts = np.bincount(rng.integers(0, n, n), minlength=n).astype(float)
        samples[b] = elo(fit(np.tensordot(counts, per_game, axes=1) + virtual))
    low, high = (np.percentile(samples, [2.5, 97.5], axis=0) if resamples
                 else (estimate, estimate))
    tops = (np.bincount(samples.argmax(axis=1), minlength=len(bots)) / resamples
            if resamples else np.zeros(len(bots)))
    played = [sum(1 for r in games if bot in r.lineup) for bot in bots]
    think, decisions = np.zeros(len(bots)), np.zeros(len(bots))
    for r in games:
        for p, bot in enumerate(r.lineup):
            think[bots.index(bot)] += r.think[p]
            decisions[bots.index(bot)] += r.decisions[p]
    ms = 1000 * think / np.maximum(decisions, 1)
    pairs = total + total.T
    ratings = [Rating(bot, float(estimate[i]), float(low[i]), float(high[i]), played[i],
                      float(pairs[i].sum()), float(total[i].sum() / max(pairs[i].sum(), 1)),
                      float(tops[i]), float(ms[i]))
               for i, bot in enumerate(bots)]
    ratings.sort(key=lambda r: (-r.elo, r.bot))
    return Ladder(ratings, n, resamples, seed, prior, anchor, total.tolist())


def win_chance(a: float, b: float) -> float:
    """The model's chance that a bot rated ``a`` finishes ahead of one rated ``b``."""
    return 1.0 / (1.0 + 10 ** ((b - a) / 400))


def table(ladder: Ladder) -> str:
    """The ladder as a Markdown table, with the notes a reader needs."""
    zero = f"`{ladder.anchor}` = 0" if ladder.anchor else "the mean = 0"
    lines = ["| rank | bot | Elo | 95% CI | games | pairwise score | P(top) | ms/decision |",
             "|---|---|---|---|---|---|---|---|"]
    for k, r in enumerate(ladder.ratings, 1):
        ci = f"{r.low:+.0f} to {r.high:+.0f}" if ladder.resamples else "–"
        lines.append(f"| {k} | `{r.bot}` | {r.elo:+.0f} | {ci} | "
                     f"{r.games} | {100 * r.score:.1f}% of {r.pairs:.0f} | "
                     f"{f'{100 * r.top:.0f}%' if ladder.resamples else '–'} | "
                     f"{r.ms:.1f} |")
    lines += ["", f"Bradley–Terry on pairwise results, Elo scale ({zero}); {ladder.games} "
              f"games; 95% percentile intervals from {ladder.resamples} bootstrap resamples "
              f"of the games (seed {ladder.seed}); {ladder.prior:g} virtual drawn game per "
              "pair of bots that met. P(top): share of the resamples that rate it first; "
              "ms/decision: its mean thinking time (the budget it used, on the machine that "
              "played)."]
    ends = [r.bot for r in ladder.ratings if r.pairs and r.score in (0.0, 1.0)]
    if ends:
        lines += ["", "Won or lost every comparison, so how far they sit from the others is "
                  "set by the prior's virtual draws, not measured (the data say only "
                  "\"further\"): " + ", ".join(f"`{b}`" for b in ends) + "."]
    return "\n".join(lines) + "\n"


def plot(ladder: Ladder, path: str) -> bool:
    """The ratings with their intervals (PNG); False without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = ladder.ratings[::-1]  # best at the top
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.45 * len(rows)))
    y = range(len(rows))
    ax.errorbar([r.elo for r in rows], y,
                xerr=[[r.elo - r.low for r in rows], [r.high - r.elo for r in rows]],
                fmt="o", capsize=4, color="C0")
    for k, r in enumerate(rows):
        ax.annotate(f"{r.elo:+.0f}", (r.elo, k), textcoords="offset points", xytext=(0, 7),
                    ha="center", fontsize=8)
    ax.set_yticks(list(y), [r.bot for r in rows])
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.axvline(0.0, linewidth=0.6, color="grey", linestyle=":")
    zero = ladder.anchor or "the mean"
    ax.set_xlabel(f"Elo (0 = {zero}); bars: 95% bootstrap intervals")
    ax.set_title(f"ladder: Bradley–Terry from {ladder.games} games", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def cmd_ladder(args: argparse.Namespace) -> int:
    """``flamecraft ladder``: rates the bots, prints the table, writes the files."""
    if args.bootstrap != 0 and args.bootstrap < 100:
        raise ValueError("--bootstrap: give 0 (no intervals) or at least 100 resamples (the "
                         "95% interval's ends are the 2.5% and 97.5% of them)")
    began = time.perf_counter()
    games = load_games(args.results)
    ladder = rate(games, args.bootstrap, args.seed, args.prior, args.anchor)
    text = table(ladder)
    command = "flamecraft ladder " + " ".join(args.results) + "".join(
        f" --{k} {v}" for k, v in (("bootstrap", args.bootstrap), ("seed", args.seed),
                                   ("prior", args.prior), ("anchor", args.anchor))
        if v is not None)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "ladder.md"), "w", encoding="utf-8") as fh:
        fh.write(f"# Bot ladder\n\nCommand: `{command}`\n\n{text}")
    write_json(os.path.join(args.out, "ladder.json"), {
        "command": command, "games": ladder.games, "resamples": ladder.resamples,
        "seed": ladder.seed, "prior": ladder.prior, "anchor": ladder.anchor,
        "ratings": [vars(r) for r in ladder.ratings],
        "pairwise_wins": {a: dict(zip(ladder.bots, row, strict=True))
                          for a, row in zip(ladder.bots, ladder.wins, strict=True)}})
    written = ["ladder.md", "ladder.json"]
    if plot(ladder, os.path.join(args.out, "ladder.png")):
        written.append("ladder.png")
    print(text, end="")
    print(f"wrote {', '.join(os.path.join(args.out, w) for w in written)} in "
          f"{time.perf_counter() - began:.1f} s")
    return 0
