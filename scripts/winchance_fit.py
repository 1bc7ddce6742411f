"""Fits the win-chance model (``flamecraft/ai/winchance.py``) to recorded bot games.

Reads the records of ``scripts/winchance_games.py`` (``DIR/games-<n>p.jsonl``), replays each
game and keeps the position at the start of every turn with every seat's model inputs
(``winchance.features``) and who won. Games are split by index: every fourth game is held
out; the coefficients are fitted on the others by maximum likelihood (conditional logit over
the seats, scipy's L-BFGS) and checked on the held-out games: the Brier score (each seat of
each position a forecast), against the uninformed 1/n, with a 95% bootstrap interval over
held-out games; the log loss; the same from the view of the seat to act (its chance
averaged over ``--samples`` re-deals of what it cannot see, as hints compute it); and a
reliability plot. Writes the model (``--model``), the plot (``--plot``) and a Markdown summary
on stdout.

    python scripts/winchance_fit.py --games winchance-games \\
        --model src/flamecraft/data/winchance.json --plot docs/figures/winchance.png
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shlex
import sys
import time
from typing import Any

import numpy as np
from scipy.optimize import minimize

from flamecraft.ai.winchance import WinModel, features, rounds_left
from flamecraft.core.engine import apply_in_place, parse_action, start, winners
from flamecraft.core.hidden import determinize
from flamecraft.core.serialize import GameRecord
from flamecraft.core.state import GameState

HELD_OUT_EVERY = 4  # game i is held out when i % 4 == 3


class Positions:
    """The turn-start positions of one player count: inputs X (positions × seats × features),
    outcomes Y (a shared win shared), the game of each, its rounds left, and the states
    (kept for the held-out games only: the view check re-deals them)."""

    def __init__(self) -> None:
        self.x: list[list[list[float]]] = []
        self.y: list[list[float]] = []
        self.game: list[int] = []
        self.rounds: list[float] = []
        self.states: list[GameState | None] = []


def turn_starts(record: GameRecord) -> tuple[list[GameState], list[float]]:
    """The states at the start of each turn of a replayed game, and its outcome."""
    o = record.options
    s = start(o.players, record.seed, o.deck, o.names, o.companions, o.first_player)
    out = []
    turn = -1
    for typed in record.actions:
        if s.turn != turn and s.turn >= 1:
            out.append(s.copy())
            turn = s.turn
        apply_in_place(s, parse_action(s, typed))
    assert s.over, "a record of an unfinished game"
    won = winners(s)
    return out, [1.0 / len(won) if p in won else 0.0 for p in range(s.n)]


def load(folder: str) -> dict[int, Positions]:
    data: dict[int, Positions] = {}
    for path in sorted(glob.glob(os.path.join(folder, "games-*p.jsonl"))):
        n = int(re.findall(r"games-(\d+)p", path)[0])
        pos = data.setdefault(n, Positions())
        with open(path, encoding="utf-8") as fh:
            for i, line in enumerate(fh):
                record = GameRecord.from_json(json.loads(line))
                states, outcome = turn_starts(record)
                held = i % HELD_OUT_EVERY == HELD_OUT_EVERY - 1
                for s in states:
                    pos.x.append(features(s))
                    pos.y.append(outcome)
                    pos.game.append(i)
                    pos.rounds.append(rounds_left(s))
                    pos.states.append(s if held else None)
    return data


def probabilities(theta: np.ndarray, x: np.ndarray) -> np.ndarray:
    u = x @ theta
    u = u - u.max(axis=1, keepdims=True)
    e = np.exp(u)
    return e / e.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Maximum likelihood of the conditional logit (convex)."""
    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        p = probabilities(theta, x)
        nll = -float(np.sum(y * np.log(np.clip(p, 1e-300, None)))) / len(x)
        grad = np.einsum("pq,pqk->k", p - y, x) / len(x)
        return nll, grad
    result = minimize(loss, np.zeros(x.shape[2]), jac=True, method="L-BFGS-B")
    return result.x  # type: ignore[no-any-return]


def brier(p: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((p - y) ** 2))


def bootstrap(games: np.ndarray, values: np.ndarray, rng: np.random.Generator,
              k: int = 1000) -> tuple[float, float]:
    """95% percentile interval of the mean of ``values`` (one per position) over games
    resampled with replacement (positions of one game are not independent)."""
    ids = np.unique(games)
    rows = [np.flatnonzero(games == g) for g in ids]
    sums = np.array([values[r].sum() for r in rows])
    counts = np.array([len(r) for r in rows])
    means = []
    for _ in range(k):
        pick = rng.integers(0, len(ids), len(ids))
        means.append(sums[pick].sum() / counts[pick].sum())
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(lo), float(hi)


def view_check(model: WinModel, states: list[GameState], y: np.ndarray, samples: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each held-out position, the chance of the seat to act from its own view (the
    mean over ``samples`` re-deals) and from the full state, and its outcome."""
    from flamecraft.core.engine import to_act

    seen, full, out = [], [], []
    for i, s in enumerate(states):
        p = to_act(s)
        chances = model.chances(s)
        assert chances is not None
        full.append(chances[p])
        total = 0.0
        for k in range(samples):
            c = model.chances(determinize(s, p, 7919 * i + k))
            assert c is not None
            total += c[p]
        seen.append(total / samples)
        out.append(y[i, p])
    return np.array(seen), np.array(full), np.array(out)


def plot(path: str, panels: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = min(2, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, grid = plt.subplots(rows, cols, figsize=(4.6 * cols, 4.2 * rows), squeeze=False)
    axes = grid.ravel()
    edges = np.linspace(0, 1, 11)
    rng = np.random.default_rng(1)
    for ax, (n, (p, y, games)) in zip(axes, sorted(panels.items()), strict=False):
        ax.plot([0, 1], [0, 1], color="0.6", lw=1, ls="--", label="perfect calibration")
        xs, ys, lo, hi, counts = [], [], [], [], []
        which = np.clip(np.digitize(p, edges) - 1, 0, 9)
        for b in range(10):
            sel = which == b
            if sel.sum() < 10:
                continue
            xs.append(p[sel].mean())
            ys.append(y[sel].mean())
            a, c = bootstrap(games[sel], y[sel], rng, 300)
            lo.append(ys[-1] - a)
            hi.append(c - ys[-1])
            counts.append(int(sel.sum()))
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label="held-out positions")
        for xv, yv, c in zip(xs, ys, counts, strict=True):
            ax.annotate(str(c), (xv, yv), textcoords="offset points", xytext=(5, -12),
                        fontsize=7, color="0.35")
        ax.set_title(f"{n} players ({len(np.unique(games))} held-out games)")
        ax.set_xlabel("predicted win chance (bin mean)")
        ax.set_xlim(0, 1)
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
    for row in grid:
        row[0].set_ylabel("observed win rate\n(95% bootstrap over games)")
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    axes[0].legend(loc="upper left", fontsize=8)
    fig.suptitle("Win chance at turn starts, held-out games (numbers: seat-positions a bin)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="winchance-games", help="folder of games-<n>p.jsonl")
    parser.add_argument("--model", default="src/flamecraft/data/winchance.json")
    parser.add_argument("--plot", default="docs/figures/winchance.png")
    parser.add_argument("--samples", type=int, default=4,
                        help="re-deals per position for the from-the-view check (default 4)")
    parser.add_argument("--command", default="", help="the command that made the games")
    args = parser.parse_args()
    began = time.perf_counter()
    data = load(args.games)
    rng = np.random.default_rng(15)
    players: dict[str, Any] = {}
    panels = {}
    lines = ["| players | games (fit / held out) | positions (fit / held out) | Brier held out "
             "(95% CI) | uninformed 1/n | log loss | from the view of the seat to act |",
             "|---|---|---|---|---|---|---|"]
    for n, pos in sorted(data.items()):
        x, y = np.array(pos.x), np.array(pos.y)
        game = np.array(pos.game)
        held = game % HELD_OUT_EVERY == HELD_OUT_EVERY - 1
        theta = fit(x[~held], y[~held])
        p = probabilities(theta, x[held])
        score = brier(p, y[held])
        per_position = np.mean((p - y[held]) ** 2, axis=1)
        lo, hi = bootstrap(game[held], per_position, rng)
        base = brier(np.full_like(p, 1.0 / n), y[held])
        logloss = -float(np.sum(y[held] * np.log(np.clip(p, 1e-12, None)))) / held.sum()
        model = WinModel({n: tuple(float(t) for t in theta)})
        states = [s for s, h in zip(pos.states, held, strict=True) if h and s is not None]
        seen, full, out = view_check(model, states, y[held], args.samples)
        games_fit, games_held = len(np.unique(game[~held])), len(np.unique(game[held]))
        players[str(n)] = {
            "coefficients": [round(float(t), 6) for t in theta],
            "rounds_max": round(max(pos.rounds), 3),
            "games_fit": games_fit, "games_held_out": games_held,
            "positions_fit": int((~held).sum()), "positions_held_out": int(held.sum()),
            "brier_held_out": round(score, 4), "brier_95ci": [round(lo, 4), round(hi, 4)],
            "brier_uninformed": round(base, 4), "log_loss_held_out": round(logloss, 4),
            "brier_seat_to_act_view": round(brier(seen, out), 4),
            "brier_seat_to_act_full": round(brier(full, out), 4),
        }
        panels[n] = (p.ravel(), y[held].ravel(), np.repeat(game[held], n))
        lines.append(f"| {n} | {games_fit} / {games_held} | {int((~held).sum())} / "
                     f"{int(held.sum())} | {score:.3f} ({lo:.3f}–{hi:.3f}) | {base:.3f} | "
                     f"{logloss:.3f} | {brier(seen, out):.3f} (full state "
                     f"{brier(full, out):.3f}) |")
    out_obj = {
        "format": "flamecraft-winchance", "version": 1,
        "model": "P(p wins) = softmax_q(u_q), u_q = v_q*(a + b/sqrt(1+R) + c/(1+R)) "
                 "+ d*(t_q - mean t) + [q to act]*(e*pending + f); v_q without the turn in "
                 "progress; coefficients [a, b, c, d, e, f] (flamecraft/ai/winchance.py)",
        "games_command": args.command,
        "fit_command": "python " + shlex.join(sys.argv),
        "held_out": f"every {HELD_OUT_EVERY}th game (index % {HELD_OUT_EVERY} == "
                    f"{HELD_OUT_EVERY - 1}); the coefficients are fitted on the others",
        "players": players,
    }
    with open(args.model, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(out_obj, indent=1) + "\n")
    plot(args.plot, panels)
    print("\n".join(lines))
    print(f"\nwrote {args.model}, {args.plot} ({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
