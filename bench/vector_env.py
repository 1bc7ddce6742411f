"""Benchmark: agent steps per second of the vectorized environments beside N separate ones.

Why: the vector env exists to be faster than N environments stepped one by one, so it is
measured against them in the same process, in interleaved rounds (medians, and each form's
ratio to "N separate envs"). Every form plays random masked moves against random bots at 2
players; only the environments' step calls are timed (choosing the actions is not), and an
agent step is one learner decision (the bots' moves inside it included). The step calls are
timed by the process's CPU time (``--wall``: the wall clock), so that other processes on
shared cores disturb the figures less. The forms:

- ``separate``: N ``FlamecraftSingleEnv``, each stepped, its dict of observation and mask
  stacked into a batch (np.stack), reset by hand when it ends;
- ``SyncVectorEnv``: Gymnasium's own vector env over the same N envs;
- ``FlamecraftVectorEnv``: ours (research/vector.py), the same games into preallocated rows;
- ``engine only``: the same N games against random bots with no environment at all (the
  learner's move, the bots' moves, the catalogue's legal actions; no observation, no mask):
  the ceiling of any single-agent form on this engine, measured in the same run (and
  ``engine only, every seat``: one decision per game and step, the batch's ceiling);
- ``separate AEC``: N PettingZoo ``flamecraft_v2`` envs through their ``env()``, every seat an
  agent, each stepped with ``last()`` (observation and mask) and ``step``: the like-for-like
  baseline of the multi-agent form;
- ``FlamecraftBatch``: the multi-agent form (every seat an agent, so no bot moves: a step is
  one decision of whichever seat acts).

Each vector form is compared with the separate envs of its own kind: the single-agent forms
with ``separate``, the multi-agent batch with ``separate AEC``.

``--planner`` also times one ``FlamecraftSingleEnv`` whose opponent is the compiled greedy bot
or planner (learner steps per second when training against a strong bot).

    python bench/vector_env.py                       # N=16, 5 rounds of 2 s per form
    python bench/vector_env.py --envs 64 --seconds 3 --planner
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import gymnasium as gym

from flamecraft.core import FORM
from flamecraft.research.gym_single import OPPONENTS, FlamecraftSingleEnv
from flamecraft.research.vector import (
    FlamecraftBatch,
    FlamecraftVectorEnv,
    random_masked_actions,
)

Runner = Callable[[float], tuple[int, float]]  # seconds -> (agent steps, seconds stepping)

# The time a step call takes is the process's CPU time (``--wall``: the wall clock): on cores
# shared with other work, a wall clock also counts the time the process waited for a core,
# which varies from one form's turn to the next; CPU time does not (caches and the clock
# rate are still shared).
clock = time.process_time


def separate(n: int) -> Runner:
    envs = [FlamecraftSingleEnv(players=2) for _ in range(n)]
    obs = [env.reset(seed=i)[0] for i, env in enumerate(envs)]
    masks = np.stack([o["action_mask"] for o in obs])
    rng = random.Random(0)

    def run(seconds: float) -> tuple[int, float]:
        nonlocal masks
        steps, busy, end = 0, 0.0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            actions = random_masked_actions(masks, rng)
            t = clock()
            out = []
            for i, env in enumerate(envs):
                o, _, term, trunc, _ = env.step(int(actions[i]))
                if term or trunc:
                    o, _ = env.reset()
                out.append(o)
            batch = {"observation": np.stack([o["observation"] for o in out]),
                     "action_mask": np.stack([o["action_mask"] for o in out])}
            busy += clock() - t
            masks = batch["action_mask"]
            steps += n
        return steps, busy
    return run


def engine_only(n: int) -> Runner:
    """The single-agent forms' engine work alone: per agent step the learner's move, the
    random bots' moves up to its next decision, and the catalogue's legal actions (what an
    env needs to decode the next action); no observation, no mask."""
    from flamecraft.core.engine import apply_in_place, start, to_act
    from flamecraft.research.encoding import catalogue

    cat = catalogue(2)
    rng = random.Random(0)
    bot = OPPONENTS["random"]
    games = [start(2, i) for i in range(n)]
    legal = [cat.legal(s) for s in games]

    def run(seconds: float) -> tuple[int, float]:
        steps, busy, end = 0, 0.0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            picks = [rng.choice(list(moves)) for moves in legal]
            t = clock()
            for i, s in enumerate(games):
                apply_in_place(s, legal[i][picks[i]])
                while not s.over and to_act(s) != 0:
                    apply_in_place(s, bot(s, rng))
                if s.over:
                    s = games[i] = start(2, rng.getrandbits(63))
                    while to_act(s) != 0:
                        apply_in_place(s, bot(s, rng))
                legal[i] = cat.legal(s)
            busy += clock() - t
            steps += n
        return steps, busy
    return run


def engine_every_seat(n: int) -> Runner:
    """The multi-agent form's engine work alone: per step one decision of the seat to act in
    each game and the catalogue's legal actions after it; no observation, no mask."""
    from flamecraft.core.engine import apply_in_place, start
    from flamecraft.research.encoding import catalogue

    cat = catalogue(2)
    rng = random.Random(0)
    games = [start(2, i) for i in range(n)]
    legal = [cat.legal(s) for s in games]

    def run(seconds: float) -> tuple[int, float]:
        steps, busy, end = 0, 0.0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            picks = [rng.choice(list(moves)) for moves in legal]
            t = clock()
            for i, s in enumerate(games):
                apply_in_place(s, legal[i][picks[i]])
                if s.over:
                    s = games[i] = start(2, rng.getrandbits(63))
                legal[i] = cat.legal(s)
            busy += clock() - t
            steps += n
        return steps, busy
    return run


def separate_aec(n: int) -> Runner:
    """N PettingZoo envs, every seat an agent: ``last()`` (the acting agent's observation
    and mask), then ``step``; an ended game is reset by hand."""
    from flamecraft.research import flamecraft_v2

    envs = [flamecraft_v2.env(players=2) for _ in range(n)]
    for i, env in enumerate(envs):
        env.reset(seed=i)
    masks = np.stack([env.last()[0]["action_mask"] for env in envs])
    rng = random.Random(0)

    def run(seconds: float) -> tuple[int, float]:
        nonlocal masks
        steps, busy, end = 0, 0.0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            actions = random_masked_actions(masks, rng)
            t = clock()
            out = []
            for i, env in enumerate(envs):
                env.step(int(actions[i]))
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.reset()
                    obs = env.last()[0]
                out.append(obs)
            batch = {"observation": np.stack([o["observation"] for o in out]),
                     "action_mask": np.stack([o["action_mask"] for o in out])}
            busy += clock() - t
            masks = batch["action_mask"]
            steps += n
        return steps, busy
    return run


def sync_vector(n: int) -> Runner:
    env = gym.vector.SyncVectorEnv([lambda: FlamecraftSingleEnv(players=2)
                                    for _ in range(n)])
    obs, _ = env.reset(seed=0)
    rng = random.Random(0)
    return _vector_runner(env, obs, rng, n)


def ours(n: int) -> Runner:
    env = FlamecraftVectorEnv(n, players=2)
    obs, _ = env.reset(seed=0)
    return _vector_runner(env, obs, random.Random(0), n)


def _vector_runner(env: Any, obs: dict[str, np.ndarray], rng: random.Random,
                   n: int) -> Runner:
    state = {"obs": obs}

    def run(seconds: float) -> tuple[int, float]:
        steps, busy, end = 0, 0.0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            actions = random_masked_actions(state["obs"]["action_mask"], rng)
            t = clock()
            state["obs"], _, _, _, _ = env.step(actions)
            busy += clock() - t
            steps += n
        return steps, busy
    return run


def batch(n: int) -> Runner:
    env = FlamecraftBatch(n, players=2)
    env.reset(seed=0)
    rng = random.Random(0)

    def run(seconds: float) -> tuple[int, float]:
        steps, busy, end = 0, 0.0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            actions = random_masked_actions(env.action_masks, rng)
            t = clock()
            env.step(actions)
            busy += clock() - t
            steps += n
        return steps, busy
    return run


BOT_TIME: dict[str, list[float]] = {}  # bot -> [seconds in its calls, calls]


def bot_opponent(bot: str) -> Runner:
    """One env against ``bot``, whose calls are timed (what bounds the learner's steps)."""
    inner = OPPONENTS[bot]
    spent = BOT_TIME.setdefault(bot, [0.0, 0.0])

    def timed(s: Any, rng: random.Random) -> Any:
        began = clock()
        action = inner(s, rng)
        spent[0] += clock() - began
        spent[1] += 1
        return action
    OPPONENTS[f"timed-{bot}"] = timed
    env = FlamecraftSingleEnv(players=2, opponents=f"timed-{bot}")
    obs, _ = env.reset(seed=0)
    rng = random.Random(0)
    state = {"obs": obs}

    def run(seconds: float) -> tuple[int, float]:
        steps, busy, end = 0, 0.0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            action = int(random_masked_actions(state["obs"]["action_mask"][None], rng)[0])
            t = clock()
            o, _, term, trunc, _ = env.step(action)
            if term or trunc:
                o, _ = env.reset()
            busy += clock() - t
            state["obs"] = o
            steps += 1
        return steps, busy
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=16, help="games per batch (N)")
    parser.add_argument("--seconds", type=float, default=2.0, help="per form per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--wall", action="store_true",
                        help="time the step calls by the wall clock, not CPU time")
    parser.add_argument("--planner", action="store_true",
                        help="also time a single env against the planner")
    args = parser.parse_args(argv)
    global clock
    if args.wall:
        clock = time.perf_counter
    single = f"separate ({args.envs} FlamecraftSingleEnv)"
    aec = f"separate AEC ({args.envs} flamecraft_v2, every seat an agent)"
    forms: dict[str, Runner] = {
        single: separate(args.envs),
        f"gymnasium SyncVectorEnv ({args.envs})": sync_vector(args.envs),
        f"FlamecraftVectorEnv ({args.envs})": ours(args.envs),
        f"engine only ({args.envs} games, no observation)": engine_only(args.envs),
        aec: separate_aec(args.envs),
        f"FlamecraftBatch ({args.envs}, every seat an agent)": batch(args.envs),
        f"engine only, every seat ({args.envs} games)": engine_every_seat(args.envs),
    }
    baseline = {name: aec if name.startswith(("FlamecraftBatch", "separate AEC",
                                              "engine only, every")) else single
                for name in forms}
    if args.planner:
        for bot in ("greedy", "planner"):
            name = f"FlamecraftSingleEnv, {bot} opponent"
            forms[name] = bot_opponent(bot)
            baseline[name] = single
    rates: dict[str, list[float]] = {name: [] for name in forms}
    for run in forms.values():  # warm up
        run(0.2)
    for _ in range(args.rounds):
        for name, run in forms.items():
            steps, busy = run(args.seconds)
            rates[name].append(steps / busy)
    print(f"agent steps/s ({'wall clock' if args.wall else 'CPU time'} in the step calls), "
          f"median of {args.rounds} interleaved rounds of {args.seconds:g} s (min-max), "
          f"2 players, random masked moves, random bots; {FORM}; Python "
          f"{platform.python_version()}")
    for name, values in rates.items():
        median = statistics.median(values)
        base = rates[baseline[name]]
        # the ratio's median over rounds: each round's forms ran back to back
        ratios = [v / b for v, b in zip(values, base, strict=True)]
        short = "separate AEC" if baseline[name] == aec else "separate"
        print(f"  {name:50} {median:9,.0f} ({min(values):,.0f}-{max(values):,.0f})   "
              f"{statistics.median(ratios):5.2f}x {short} ({min(ratios):.2f}-{max(ratios):.2f})")
    for bot, (seconds, calls) in BOT_TIME.items():
        if calls:
            print(f"  {bot} opponent: {seconds / calls * 1e3:.2f} ms a decision, "
                  f"{seconds:.1f} s in its calls in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
