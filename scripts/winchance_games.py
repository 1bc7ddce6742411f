"""Plays the bot games behind the win-chance calibration and keeps their records.

Seeded tournaments of the planner and greedy bots (seats rotated, ``ai/tournament.py``) at each
player count; every game's record goes on one line of ``OUT/games-<n>p.jsonl``, so
``scripts/winchance_fit.py`` can replay the positions and fit ``data/winchance.json``. The
same command writes the same games.

    python scripts/winchance_games.py --games 2:100,3:70,4:60,5:40 --seed 15 --out winchance-games
"""

from __future__ import annotations

import argparse
import json
import os
import time

from flamecraft.ai.tournament import game_record, make_specs, run_specs


def parse_games(text: str) -> dict[int, int]:
    """``"2:120,3:90"`` → {2: 120, 3: 90}."""
    out = {}
    for part in text.split(","):
        n, _, k = part.partition(":")
        out[int(n)] = int(k)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="2:100,3:70,4:60,5:40",
                        help="PLAYERS:GAMES pairs (default 2:100,3:70,4:60,5:40)")
    parser.add_argument("--bots", default="planner,greedy")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default="winchance-games")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    bots = args.bots.split(",")
    for n, games in parse_games(args.games).items():
        began = time.perf_counter()
        specs = make_specs(bots, games, args.seed * 100 + n, n, record=True)
        results = run_specs(specs, args.workers, label=f"{n} players")
        path = os.path.join(args.out, f"games-{n}p.jsonl")
        with open(path, "w", encoding="utf-8") as fh:
            for r in results:
                fh.write(json.dumps(game_record(r).to_json()) + "\n")
        print(f"{n} players: {games} games in {time.perf_counter() - began:.0f} s -> {path}",
              flush=True)


if __name__ == "__main__":
    main()
