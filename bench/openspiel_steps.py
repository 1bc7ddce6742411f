"""Benchmark: OpenSpiel steps per second of python_flamecraft, beside OpenSpiel's own Python
tic-tac-toe, in interleaved rounds of one run (the ratio is what to read on a busy machine).

A step is one ``apply_action`` of a uniformly random legal action, chance outcomes included
(a Flamecraft game starts with about 110 chance nodes, the deal), through whole games; the
figure with ``--players-only`` counts the players' decisions alone (the deal's time still
spent). Also: ``resample_from_infostate`` calls per second for the seat to act, at random
points of random games (what IS-MCTS calls once a simulation).

    python bench/openspiel_steps.py                # 3 rounds of 3 s each
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import pyspiel
from open_spiel.python import games as _python_games  # noqa: F401  (python_tic_tac_toe)

import flamecraft.research.openspiel_game  # noqa: F401  (registers python_flamecraft)


def steps_per_second(game: pyspiel.Game, seconds: float, rng: random.Random) -> tuple[float,
                                                                                      float]:
    """(all steps/s, player decisions/s) over whole random games for about ``seconds``."""
    steps = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                decisions += 1
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, decisions / elapsed


def resamples_per_second(game: pyspiel.Game, count: int, rng: random.Random) -> float:
    total = 0.0
    for _ in range(count):
        state = game.new_initial_state()
        stop = rng.randrange(150, 400)
        while not state.is_terminal() and len(state.history()) < stop:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        player = state.current_player()
        begin = time.perf_counter()
        state.resample_from_infostate(player, rng.random)
        total += time.perf_counter() - begin
    return count / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    ours = pyspiel.load_game("python_flamecraft", {"players": args.players})
    ttt = pyspiel.load_game("python_tic_tac_toe")
    rng = random.Random(1)
    rows: dict[str, list[float]] = {"python_flamecraft steps": [],
                                    "python_flamecraft decisions": [],
                                    "python_tic_tac_toe steps": []}
    for _ in range(args.rounds):
        steps, decisions = steps_per_second(ours, args.seconds, rng)
        rows["python_flamecraft steps"].append(steps)
        rows["python_flamecraft decisions"].append(decisions)
        rows["python_tic_tac_toe steps"].append(steps_per_second(ttt, args.seconds, rng)[0])
    print(f"load average {os.getloadavg()[0]:.2f}; {args.players} players; medians of "
          f"{args.rounds} interleaved rounds of {args.seconds:g} s")
    for name, values in rows.items():
        print(f"{name:32} {statistics.median(values):>10,.0f}/s")
    ratio = (statistics.median(rows["python_flamecraft steps"])
             / statistics.median(rows["python_tic_tac_toe steps"]))
    print(f"python_flamecraft / python_tic_tac_toe (steps): {ratio:.2f}x")
    print(f"resample_from_infostate (seat to act): {resamples_per_second(ours, 20, rng):,.0f}/s")


if __name__ == "__main__":
    main()
