"""Trains the learned evaluation (``flamecraft.ai.learned``) from scratch by self-play.

Each generation plays ``--games`` games in ``--workers`` processes and records, at the end of
every turn, each seat's ``features`` and how the game ended for it (its final margin: its
Reputation minus the best other seat's). Generation 0 is played by the tuned planner (with
some seats given to the hand-set planner and to greedy, so the positions are not all of one
style); generation k > 0 by the Expert's form with model k - 1
(``planner:weights=tuned:value=<model k-1>:blend=0.5``: the tuned valuation plus half the
model's prediction) against the tuned planner and itself, with the same few seats of the
hand-set planner and greedy. (Generation 0 does not depend on this: a run of one generation,
like the shipped model's, plays and fits exactly as before.) After each generation a
multilayer perceptron (scikit-learn's ``MLPRegressor``: the ``learn`` extra) is fitted to
every position so far; the last one is written to ``--out`` with its provenance: the
command, the seed, the games and positions per generation, the fit's held-out error, the
time and the machine.

Games are seeded from (``--seed``, generation, game index) and written in game order
(``--data``: one JSON line per game; on local processes as they finish, so a run can be read
while it goes), and a run replays game for game from its seed. ``--backend ray`` plays them
as Ray tasks instead, on a private local instance or the cluster ``RAY_ADDRESS`` names (as
``flamecraft tournament --backend ray`` does): the same games, the same files.

    python scripts/train_value.py --generations 2 --games 1500 --workers 2 --seed 26
    python scripts/train_value.py --generations 0 --data runs/value --out /tmp/m.json  # refit
    python scripts/train_value.py --generations 3 --resume ...   # play on from generation 2

``--resume`` keeps the generations a run already finished in ``--data`` (a generation is
finished when its games, its model and its record ``gen<k>.json`` are there) and plays on from
the first unfinished one: the same games and models as a run that was never stopped.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import zlib
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from flamecraft.ai.learned import FEATURE_VERSION, FEATURES, ValueNet
from flamecraft.ai.selfplay import play, played_by
from flamecraft.ai.tournament import ray_map

ROOT = Path(__file__).resolve().parent.parent
def generate(args: argparse.Namespace, generation: int, model: str | None,
             data: Path) -> dict[str, Any]:
    """Plays one generation's games into ``data`` (appending): on local processes as they
    finish, in game order; on Ray (``--backend ray``) all at once, put in game order (the
    held-out split of ``fit`` follows the order, so both backends give the same model)."""
    jobs = [(args.seed, generation, i, model) for i in range(args.games)]
    began = time.perf_counter()
    count = {"games": 0, "positions": 0}

    def played(game: dict[str, Any]) -> None:
        count["games"] += 1
        count["positions"] += len(game["y"])
        if count["games"] % 50 == 0:
            print(f"  generation {generation}: {count['games']}/{args.games} games, "
                  f"{count['positions']} positions, {time.perf_counter() - began:.0f} s",
                  flush=True)

    def write(out: IO[str], game: dict[str, Any]) -> None:
        out.write(json.dumps(game, separators=(",", ":")) + "\n")
        out.flush()

    if args.backend == "ray":
        games = sorted(ray_map(play, jobs, args.workers, played), key=lambda g: g["index"])
        with open(data, "a") as out:
            for game in games:
                write(out, game)
    else:
        with open(data, "a") as out, ProcessPoolExecutor(args.workers) as pool:
            for game in pool.map(play, jobs, chunksize=4):
                write(out, game)
                played(game)
    return {"generation": generation, "games": args.games, "positions": count["positions"],
            "model": model, "bots": played_by(model),
            "seconds": round(time.perf_counter() - began, 1)}


def read_data(paths: list[Path]) -> tuple[Any, Any, Any]:
    """Every position in these files: features, margins, and each position's game (for a
    held-out split by game)."""
    import numpy as np

    xs: list[list[float]] = []
    ys: list[float] = []
    games: list[int] = []
    for path in paths:
        with open(path) as f:
            for k, line in enumerate(f):
                game = json.loads(line)
                xs.extend(game["x"])
                ys.extend(game["y"])
                games.extend([zlib.crc32(f"{path.name}/{k}".encode())] * len(game["y"]))
    return np.asarray(xs), np.asarray(ys, dtype=np.float64), np.asarray(games)


def fit(paths: list[Path], seed: int, hidden: tuple[int, ...]) -> tuple[ValueNet, dict[str, Any]]:
    """An MLP fitted to the positions (margins clipped to ±30), 10% of the games held out."""
    import numpy as np
    from sklearn.neural_network import MLPRegressor

    x, y, games = read_data(paths)
    y = np.clip(y, -30, 30)
    held = (games % 10) == 0
    if not held.any() or held.all():  # (a handful of games: hold out the last one)
        held = games == games[-1]
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    began = time.perf_counter()
    net = MLPRegressor(hidden_layer_sizes=hidden, activation="relu", alpha=1e-4,
                       batch_size=512, learning_rate_init=1e-3, max_iter=60,
                       early_stopping=True, n_iter_no_change=6, random_state=seed)
    net.fit((x[~held] - mean) / scale, y[~held])
    layers = [(w, b) for w, b in zip(net.coefs_, net.intercepts_, strict=True)]
    model = ValueNet(mean, scale, layers)
    pred = model.predict(x[held])
    mae = float(np.mean(np.abs(pred - y[held])))
    base = float(np.mean(np.abs(y[held] - y[~held].mean())))
    report = {"positions": len(y), "held_out": int(held.sum()),
              "held_out_mae": round(mae, 3), "mae_of_the_mean": round(base, 3),
              "hidden": list(hidden), "epochs": int(net.n_iter_),
              "fit_seconds": round(time.perf_counter() - began, 1)}
    return model, report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--generations", type=int, default=2,
                   help="self-play generations to play (0: only refit --data's games)")
    p.add_argument("--games", type=int, default=1500, help="games per generation")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local processes (default) or Ray: a private local instance on "
                        "--workers CPUs, or the cluster RAY_ADDRESS names (as tournaments)")
    p.add_argument("--seed", type=int, default=26)
    p.add_argument("--hidden", default="64,32", help="hidden layer widths")
    p.add_argument("--data", type=Path, default=ROOT / "runs" / "value",
                   help="folder of the games (gen<k>.jsonl)")
    p.add_argument("--out", type=Path, default=ROOT / "src/flamecraft/data/value_net.json")
    p.add_argument("--resume", action="store_true",
                   help="keep the generations already finished in --data and play on")
    args = p.parse_args(argv)
    hidden = tuple(int(w) for w in args.hidden.split(","))
    args.data.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    played: list[dict[str, Any]] = []
    model_path: str | None = None
    kept = 0  # generations kept by --resume (played by an earlier run)
    for generation in range(args.generations):
        data = args.data / f"gen{generation}.jsonl"
        record = args.data / f"gen{generation}.json"
        model_file = args.data / f"model{generation}.json"
        if args.resume and data.exists() and record.exists() and model_file.exists():
            played.append(json.loads(record.read_text()))
            model_path = str(model_file)
            print(f"generation {generation}: kept ({data})", flush=True)
            kept += 1
            continue
        args.resume = False  # (a generation played anew makes every later one stale)
        for stale in args.data.glob("gen*.json*"):  # this generation's and later ones'
            number = stale.name[3:].split(".")[0]
            if number.isdigit() and int(number) >= generation:
                stale.unlink()
        print(f"generation {generation}: {args.games} games "
              f"({'tuned planner' if model_path is None else model_path})", flush=True)
        played.append(generate(args, generation, model_path, data))
        model, report = fit(sorted(args.data.glob("gen*.jsonl")), args.seed, hidden)
        print(f"  fit: {report}", flush=True)
        model_path = str(model_file)
        model.save(model_path)
        played[-1]["fit"] = report
        record.write_text(json.dumps(played[-1], indent=1) + "\n")
    files = sorted(args.data.glob("gen*.jsonl"))
    if not files:
        p.error(f"no games in {args.data}")
    model, report = fit(files, args.seed, hidden)
    model.about = {
        "what": "the planner's leaf value: a seat's predicted final margin (its Reputation "
                "minus the best other seat's) from its own view",
        "feature_version": FEATURE_VERSION, "features": len(FEATURES),
        "command": "python scripts/train_value.py " + " ".join(
            argv if argv is not None else sys.argv[1:]),
        "seed": args.seed, "generations": played, "fit": report,
        "minutes": round((time.perf_counter() - began) / 60, 1),
        **({"resumed": f"generations 0-{kept - 1} played by an earlier run of the same "
                       "command (their records above); minutes: this run's"}
           if kept else {}),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
                   f"{platform.python_version()}",
        "date": datetime.now(UTC).date().isoformat(),
        "trainer": "scikit-learn MLPRegressor",
    }
    model.save(args.out)
    print(f"wrote {args.out}: {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
