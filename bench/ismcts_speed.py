"""Benchmark: how many search iterations the ismcts bot runs per second.

Why: the search bot's strength at a fixed time per decision is its iteration rate, and the
figure quoted in the README must be one anyone can reproduce. Positions come from greedy games
(seeded), so two runs with the same options search the same positions; each search runs for
``--seconds`` and the iterations it completed are counted.

    python bench/ismcts_speed.py                        # 2 players, 30 positions, 1 s each
    python bench/ismcts_speed.py --players 4 --seconds 0.5
    python bench/ismcts_speed.py --option complete=fast  # another search setting
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence

from flamecraft import GameState, apply_in_place, start, to_act
from flamecraft.ai import GreedyBot, ISMCTSBot, Seat, parse_bot_spec


def positions(players: int, count: int, seed: int) -> list[GameState]:
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
            if step % 7 == 3 and len(seat.legal_actions()) > 2:
                out.append(s.copy())
            apply_in_place(s, greedy.choose(seat, rng))
            step += 1
        game += 1
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=1.0, help="search time per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[],
                        help="an ismcts option key=value (repeatable)")
    args = parser.parse_args(argv)
    _, options = parse_bot_spec(":".join(["ismcts", *args.option]))
    options["seconds"] = args.seconds
    options["reuse"] = False
    rates = []
    began = time.perf_counter()
    for i, s in enumerate(positions(args.players, args.positions, args.seed)):
        bot = ISMCTSBot(**options)
        t = time.perf_counter()
        bot.choose(Seat(s, to_act(s)), random.Random(i))
        rates.append(bot.last_iterations / (time.perf_counter() - t))
    print(f"python:             {platform.python_implementation()} {platform.python_version()}")
    print(f"players:            {args.players}")
    print(f"positions:          {len(rates)} ({args.seconds:g} s each)")
    print(f"options:            {', '.join(f'{k}={v}' for k, v in sorted(options.items()))}")
    print(f"iterations/s:       mean {statistics.fmean(rates):,.0f}, median "
          f"{statistics.median(rates):,.0f}, min {min(rates):,.0f}, max {max(rates):,.0f}")
    print(f"elapsed:            {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
