"""A head-to-head match in which every deal is played twice, the seats swapped.

Why: with each deal played from both seats (common random numbers), the luck of the deal and
of the first seat cancels out of the comparison; a plain tournament rotates the seats over
different deals. Each game is a ``flamecraft tournament`` game (``tournament.play_game``),
seeded from (``--seed``, deal), so a match replays game for game. It prints the first bot's
win rate (ties half) with its 95% Wilson interval, the mean margin, each bot's ms per
decision, and writes ``--out`` as a tournament ``results.json`` (``flamecraft ladder`` reads
it).

    python scripts/match_swapped.py --deals 200 --seed 7 \
        --bots planner:value=learned:weights=tuned:blend=0.5,planner:weights=tuned
    python scripts/match_swapped.py --bots A,B,C,D --deals 50 --seed 5   # 4 seats: rotated
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path

from flamecraft.ai.tournament import GameResult, GameSpec, game_seed, play_game, wilson


def specs(bots: list[str], deals: int, seed: int) -> list[GameSpec]:
    """Every deal once per rotation of the seats (2 bots: both orders)."""
    out: list[GameSpec] = []
    n = len(bots)
    for deal in range(deals):
        for shift in range(n):
            lineup = tuple(bots[(k + shift) % n] for k in range(n))
            out.append(GameSpec(len(out), game_seed(seed, deal), lineup))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bots", required=True, help="comma-separated bot specs (2 to 5)")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", type=Path, default=None, help="results.json to write")
    args = p.parse_args(argv)
    bots = args.bots.split(",")
    if not 2 <= len(bots) <= 5 or len(set(bots)) != len(bots):
        p.error("give 2 to 5 different bot specs")
    began = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        results: list[GameResult] = list(pool.map(play_game, specs(bots, args.deals,
                                                                    args.seed), chunksize=2))
    score = {b: 0.0 for b in bots}
    margin = {b: 0.0 for b in bots}
    think = {b: [0.0, 0] for b in bots}
    for r in results:
        for seat, bot in enumerate(r.lineup):
            if seat in r.winners:
                score[bot] += 1.0 / len(r.winners)
            others = [s for q, s in enumerate(r.scores) if q != seat]
            margin[bot] += r.scores[seat] - max(others)
            think[bot][0] += r.think[seat]
            think[bot][1] += r.decisions[seat]
    games = len(results)
    print(f"{games} games ({args.deals} deals × {len(bots)} seatings), seed {args.seed}, "
          f"{time.perf_counter() - began:.0f} s")
    for bot in bots:
        low, high = wilson(score[bot], games)
        ms = 1000 * think[bot][0] / max(1, think[bot][1])
        print(f"  {bot}: wins {score[bot]:.1f}/{games} = {score[bot] / games:.1%} "
              f"(95% {low:.1%}–{high:.1%}), mean margin {margin[bot] / games:+.2f}, "
              f"{ms:.1f} ms/decision")
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"games": [asdict(r) for r in results]}))
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
