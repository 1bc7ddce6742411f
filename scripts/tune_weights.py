"""Tunes the valuation's weights (``evaluate.Weights``) by self-play with SPSA.

SPSA (simultaneous perturbation stochastic approximation, Spall 1992) estimates the gradient
of a noisy objective from two measurements, whatever the number of knobs: each iteration draws
a random sign per knob (Δ), and plays a planner with the weights θ + cΔ against one with
θ − cΔ. Each game deal is played twice with the seats swapped (common random numbers: both
sides meet the same cards from both seats), and the result y is the mean Reputation margin of
θ + cΔ over θ − cΔ, plus a bonus per game won. Then θ moves by a·y/(2cΔ) per knob. The knobs
are tuned as multiples of their hand-set defaults (θ = 1 is the default), clipped to
[0.2, 3]. The weights written are the mean of θ over the second half of the iterations (an
average of the iterates is much less noisy than the last one).

Every game is a ``flamecraft tournament`` game: a bot spec with the knobs inline
(``planner:good=0.35:dragon=1.1``), seeded from (``--seed``, game index), so the run is
reproducible game for game. It prints every iteration and writes the weights, the command,
the number of games and the date to ``--out`` (``src/flamecraft/data/weights.json``, under
``sets.tuned``) and the trajectory to ``--log``; ``--plot PNG`` draws the trajectory from the
log (with ``--iterations 0`` it only re-draws an existing log, playing nothing).

    python scripts/tune_weights.py --iterations 120 --pairs 4 --seed 15 --workers 2
    python scripts/tune_weights.py --iterations 0 --plot docs/figures/spsa.png
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from flamecraft.ai.evaluate import DEFAULT
from flamecraft.ai.tournament import GameResult, GameSpec, game_seed, play_game
from flamecraft.ai.weightsets import KNOBS

LOW, HIGH = 0.2, 3.0
WIN_BONUS = 5.0  # Reputation-equivalent of a win in the result y


def spec(base: str, theta: list[float]) -> str:
    """The bot spec of a planner whose knobs are ``theta`` times the defaults."""
    defaults = dataclasses.asdict(DEFAULT)
    knobs = ":".join(f"{k}={defaults[k] * t:.4f}" for k, t in zip(KNOBS, theta, strict=True))
    return f"{base}:{knobs}"


def margin(result: GameResult, seat: int) -> float:
    """Seat's margin over the other seat, with the bonus for a win (half each on a tie)."""
    other = 1 - seat
    m = float(result.scores[seat] - result.scores[other])
    if seat in result.winners:
        m += WIN_BONUS / len(result.winners)
    if other in result.winners:
        m -= WIN_BONUS / len(result.winners)
    return m


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=120)
    ap.add_argument("--pairs", type=int, default=4, help="deals per iteration (2 games each)")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--bot", default="planner", help="the bot whose weights are tuned")
    ap.add_argument("--c", type=float, default=0.2, help="perturbation (share of the default)")
    ap.add_argument("--a", type=float, default=0.003, help="step size (per Reputation of y)")
    ap.add_argument("--out", default="src/flamecraft/data/weights.json")
    ap.add_argument("--log", default="docs/tuning/spsa.jsonl")
    ap.add_argument("--name", default="tuned")
    ap.add_argument("--plot", help="draw the trajectory of the knobs to this PNG")
    args = ap.parse_args(argv)
    if args.iterations > 0:
        tune(args, argv)
    if args.plot:
        plot(args.log, args.plot)
    return 0


def plot(log: str, png: str) -> None:
    """Each knob (as a multiple of its default) over the iterations, from the log."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [json.loads(line) for line in Path(log).read_text("utf-8").splitlines() if line]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs = [r["iteration"] for r in rows]
    for i, name in enumerate(KNOBS):
        ax.plot(xs, [r["theta"][i] for r in rows], label=name)
    ax.axhline(1.0, color="grey", lw=0.8, ls="--")
    ax.axvspan(len(rows) // 2 + 0.5, len(rows), color="grey", alpha=0.1)
    ax.set_xlabel(f"SPSA iteration ({rows[-1]['games']} games in all)")
    ax.set_ylabel("multiple of the hand-set default")
    ax.set_title("Tuning the valuation by self-play (shaded: the iterations averaged)")
    ax.legend(fontsize=8, ncol=3)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"wrote {png}")


def tune(args: argparse.Namespace, argv: list[str] | None) -> None:
    """The SPSA run: plays, logs and writes the weights."""
    rng = random.Random(args.seed)
    theta = [1.0] * len(KNOBS)
    big_a = args.iterations / 10  # SPSA's stability constant
    history: list[list[float]] = []
    Path(args.log).parent.mkdir(parents=True, exist_ok=True)
    games = 0
    began = time.time()
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=args.workers, mp_context=context) as pool, \
            open(args.log, "w", encoding="utf-8") as log:
        for k in range(args.iterations):
            ck = args.c / (k + 1) ** 0.101
            ak = args.a / (k + 1 + big_a) ** 0.602 * (1 + big_a) ** 0.602
            delta = [rng.choice((-1.0, 1.0)) for _ in KNOBS]
            plus = spec(args.bot, [min(HIGH, max(LOW, t + ck * d))
                                   for t, d in zip(theta, delta, strict=True)])
            minus = spec(args.bot, [min(HIGH, max(LOW, t - ck * d))
                                    for t, d in zip(theta, delta, strict=True)])
            specs = []
            for j in range(args.pairs):
                index = k * args.pairs + j
                seed = game_seed(args.seed, index)
                specs.append(GameSpec(2 * index, seed, (plus, minus)))
                specs.append(GameSpec(2 * index + 1, seed, (minus, plus)))
            results = list(pool.map(play_game, specs))
            games += len(results)
            y = sum(margin(r, 0 if r.lineup[0] == plus else 1) for r in results) / len(results)
            theta = [min(HIGH, max(LOW, t + ak * y / (2 * ck * d)))
                     for t, d in zip(theta, delta, strict=True)]
            history.append(theta)
            row = {"iteration": k + 1, "y": y, "c": ck, "a": ak,
                   "theta": [round(t, 4) for t in theta], "games": games,
                   "seconds": round(time.time() - began, 1)}
            log.write(json.dumps(row) + "\n")
            log.flush()
            print(f"{k + 1:4d}  y {y:+6.1f}  " + " ".join(
                f"{name}={t:.2f}" for name, t in zip(KNOBS, theta, strict=True)),
                f" [{games} games, {time.time() - began:.0f} s]", flush=True)

    tail = history[len(history) // 2:]
    mean = [sum(h[i] for h in tail) / len(tail) for i in range(len(KNOBS))]
    defaults = dataclasses.asdict(DEFAULT)
    weights = {k: round(defaults[k] * t, 4) for k, t in zip(KNOBS, mean, strict=True)}
    out = Path(args.out)
    data = json.loads(out.read_text("utf-8")) if out.exists() else {}
    data.setdefault("about", "Named weight sets of the valuation (flamecraft.ai.weightsets); "
                    "'default' is evaluate.DEFAULT")
    data.setdefault("sets", {})
    data["sets"][args.name] = {
        "weights": weights,
        "multiple_of_default": {k: round(t, 3) for k, t in zip(KNOBS, mean, strict=True)},
        "method": (f"SPSA on {args.bot}-against-{args.bot} 2-player games, each deal played "
                   "twice with the seats swapped; y = mean margin + "
                   f"{WIN_BONUS:g} a win; weights = mean iterate of the second half"),
        "command": "python scripts/tune_weights.py " + " ".join(
            argv if argv is not None else sys.argv[1:]),
        "iterations": args.iterations,
        "games": games,
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "minutes": round((time.time() - began) / 60, 1),
    }
    out.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    print("weights:", json.dumps(weights))
    print(f"written to {out} ({games} games, {(time.time() - began) / 60:.1f} min)")


if __name__ == "__main__":
    raise SystemExit(main())
