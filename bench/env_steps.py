"""Benchmark: PettingZoo environment steps per second, ours beside PettingZoo's classics.

Why: a learning run is bounded by environment steps, and a figure means something only next
to a known one. Every environment runs the same loop in the same process, in interleaved
rounds: the usual ``agent_iter`` / ``last()`` (which builds the observation and mask) /
masked uniform random action / ``step``, through each environment's ``env()`` (PettingZoo's
standard wrappers). A step is one action of a live agent.

    python bench/env_steps.py                  # 5 s per environment, in 5 rounds
    python bench/env_steps.py --seconds 2 --only flamecraft_v2 connect_four_v3
    python bench/env_steps.py --wrappers --only flamecraft_v2 connect_four_v3  # wrapper costs

PettingZoo's classic games need its ``classic`` extra (pygame; rlcard for the poker games):
``pip install "pettingzoo[classic]"``. Those that do not import are reported and skipped.
"""

from __future__ import annotations

import argparse
import importlib
import platform
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from flamecraft.research import flamecraft_v2

CLASSICS = ("connect_four_v3", "tictactoe_v3", "leduc_holdem_v4", "texas_holdem_v4")


def _flamecraft(players: int) -> Callable[[], Any]:
    return lambda: flamecraft_v2.env(players=players)


def _wrapped(how: str) -> Callable[[], Any]:
    """4-player flamecraft_v2 wrapped another way, to measure what wrappers cost: unwrapped
    (``raw_env``), in PettingZoo's own OrderEnforcingWrapper, or in PettingZoo's three
    classic wrappers (with the environment's built-in equivalents of the first two off)."""
    from pettingzoo.utils import wrappers

    def make() -> Any:
        if how == "three wrappers":
            env = flamecraft_v2.raw_env(players=4)
            env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
            env = wrappers.AssertOutOfBoundsWrapper(env)
            return wrappers.OrderEnforcingWrapper(env)
        env = flamecraft_v2.raw_env(players=4, illegal_reward=-1.0)
        return env if how == "unwrapped" else wrappers.OrderEnforcingWrapper(env)
    return make


def environments(only: Sequence[str],
                 wrappings: bool = False) -> list[tuple[str, Callable[[], Any] | str]]:
    """(name, constructor) for each environment, or (name, why it is missing)."""
    out: list[tuple[str, Callable[[], Any] | str]] = [
        (f"flamecraft_v2 ({n} players)", _flamecraft(n)) for n in (2, 4)]
    if wrappings:
        out += [(f"flamecraft_v2 (4p, {how})", _wrapped(how))
                for how in ("unwrapped", "OrderEnforcingWrapper", "three wrappers")]
    for name in CLASSICS:
        try:
            module = importlib.import_module(f"pettingzoo.classic.{name}")
        except ImportError as exc:
            out.append((name, f"not installed ({exc})"))
            continue
        out.append((name, module.env))
    if only:
        out = [(name, make) for name, make in out if name.split(" ")[0] in only]
    return out


def play_for(make: Callable[[], Any], seconds: float, seed: int) -> tuple[int, float, int]:
    """Plays whole games until ``seconds`` have passed (the game under way is finished);
    returns (steps, elapsed seconds, games)."""
    env = make()
    env.reset(seed=seed)
    for offset, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed + offset)
    steps = games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        env.reset(seed=seed + games)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"] if isinstance(observation, dict) else (
                info["action_mask"])
            if mask.dtype != np.int8:
                mask = mask.astype(np.int8)
            env.step(env.action_space(agent).sample(mask))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - began
    env.close()
    return steps, elapsed, games


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="PettingZoo env steps/s, ours and classics.")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per environment")
    parser.add_argument("--rounds", type=int, default=5,
                        help="interleave the environments in this many rounds, so that a "
                             "busy moment of the machine does not fall on one of them")
    parser.add_argument("--only", nargs="*", default=[], help="environment names to run")
    parser.add_argument("--wrappers", action="store_true",
                        help="also 4-player flamecraft_v2 unwrapped, in PettingZoo's "
                             "OrderEnforcingWrapper and in its three classic wrappers")
    args = parser.parse_args(argv)
    envs = environments(args.only, args.wrappers)
    totals = {name: [0.0, 0.0, 0.0] for name, make in envs if not isinstance(make, str)}
    for name, make in envs:
        if isinstance(make, str):
            print(f"skipped {name}: {make}")
    for round_number in range(args.rounds):
        for name, make in envs:
            if not isinstance(make, str):
                steps, elapsed, games = play_for(make, args.seconds / args.rounds,
                                                 seed=1000 * round_number)
                totals[name][0] += steps
                totals[name][1] += elapsed
                totals[name][2] += games
    rates = {name: steps / elapsed for name, (steps, elapsed, _) in totals.items()}
    print(f"{'environment':<44} {'steps/s':>10} {'games':>7}")
    for name, (_, _, played) in totals.items():
        print(f"{name:<44} {rates[name]:>10,.0f} {played:>7.0f}")
    ours = [name for name in rates if name.startswith("flamecraft")]
    theirs = [name for name in rates if not name.startswith("flamecraft")]
    if ours and theirs:
        print()
        for mine in ours:
            ratios = ", ".join(f"{rates[mine] / rates[other]:.2f}x {other}" for other in theirs)
            print(f"{mine}: {ratios}")
    from flamecraft.core import FORM

    print(f"python {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()}; flamecraft core: {FORM}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
