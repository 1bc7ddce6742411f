"""Benchmark: how long a hint takes (``flamecraft.ai.hints``), and a review per decision.

Why: a hint is asked by a person waiting at the table, so its budget (``HINT_BUDGET``) is set
to answer in about a second on the project's machine, and that claim must be one anyone can
check. Positions come from greedy games (seeded); every position with a real choice is kept
(``--every`` thins them), and the start of each turn, where a hint plans the most (every Shop
to visit, then the whole turn), is reported apart.

    python bench/hint_speed.py                    # 2–4 players, 20 positions each
    python bench/hint_speed.py --samples 4        # at most 4 re-deals
(``bench/advice_latency.py`` has the percentiles, the reviews and a reference budget.)
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from dataclasses import replace

from flamecraft import GameState, apply_in_place, start, to_act
from flamecraft.ai import GreedyBot, Seat
from flamecraft.ai.hints import HINT_BUDGET, hints
from flamecraft.core.frames import D_VISIT


def positions(players: int, count: int, seed: int, every: int) -> list[GameState]:
    """Decision points with a real choice, spread over greedy games."""
    out: list[GameState] = []
    game = 0
    greedy = GreedyBot()
    while len(out) < count:
        s = start(players, seed + game)
        rng = random.Random(seed + game)
        step = 0
        while not s.over and len(out) < count:
            seat = Seat(s, to_act(s))
            if step % every == 0 and len(seat.legal_actions()) > 1:
                out.append(s.copy())
            apply_in_place(s, greedy.choose(seat, rng))
            step += 1
        game += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--positions", type=int, default=20, help="per player count")
    parser.add_argument("--samples", type=int, default=HINT_BUDGET.samples)
    parser.add_argument("--every", type=int, default=5, help="keep every k-th decision")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    budget = replace(HINT_BUDGET, samples=args.samples)  # the UIs' budget, at most this many
    print(f"python:             {platform.python_implementation()} {platform.python_version()}")
    print(f"budget:             {budget}")
    began = time.perf_counter()
    for n in (int(x) for x in args.players.split(",")):
        times, starts = [], []
        for s in positions(n, args.positions, args.seed, args.every):
            t0 = time.perf_counter()
            hints(Seat(s, to_act(s)), random.Random(1), budget)
            dt = time.perf_counter() - t0
            times.append(dt)
            if s.stack[-1][0] == D_VISIT:
                starts.append(dt)
        line = (f"{n} players:          median {statistics.median(times):.2f} s, max "
                f"{max(times):.2f} s over {len(times)} positions")
        if starts:
            line += (f"; turn starts: median {statistics.median(starts):.2f} s, max "
                     f"{max(starts):.2f} s ({len(starts)})")
        print(line, flush=True)
    print(f"elapsed:            {time.perf_counter() - began:.1f} s")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
