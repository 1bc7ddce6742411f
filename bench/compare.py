"""Benchmark: flamecraft beside known games and beside itself, in one interleaved run.

Why: on a shared machine a rate means something only next to another measured in the same
minutes. Every contender runs in short turns, round after round (the order rotates each
round), and what is reported is the median over rounds, with the range of the rounds, and
each ratio taken round by round (so a busy moment of the machine falls on both sides).

Contenders: random 4-player playouts of the engine (``apply_in_place``, decisions/s);
OpenSpiel's ``python_tic_tac_toe`` and its C++ ``tic_tac_toe`` (random playouts); the
PettingZoo env ``flamecraft_v2`` (4 players) and ``connect_four_v3`` (steps/s, the loop of
bench/env_steps.py); OpenSpiel's ``python_flamecraft`` (4 players); the ismcts bot (search
iterations/s over the same positions as bench/ismcts_speed.py); and ``dump_state`` (states/s,
the default compact form and the pretty one).

Each form of flamecraft runs in its own worker process, since a process cannot switch once
the core is imported: ``compiled`` (the mypyc build of ``make``), ``pure``
(``FLAMECRAFT_PURE=1``), and with ``--baseline DIR`` the pure form of another checkout's
``src`` folder (say, the commit before a change: ``git archive 11c58e6 | tar -x -C /tmp/b``).
The other games run in the compiled worker.

    python bench/compare.py                          # 9 rounds of 1 s per contender and form
    python bench/compare.py --rounds 17 --only engine tic_tac_toe tic_tac_toe_cpp
    python bench/compare.py --baseline /tmp/b/src

``connect_four_v3`` needs PettingZoo's classic extra (``pip install -e '.[bench]'``); a
contender that does not import is reported and skipped.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PER_SEARCH = 0.25  # seconds of ismcts search per position

# name -> (unit, whether it is flamecraft, so measured in every form)
CONTENDERS: dict[str, tuple[str, bool]] = {
    "engine": ("decisions/s", True),
    "tic_tac_toe": ("decisions/s", False),
    "tic_tac_toe_cpp": ("decisions/s", False),
    "flamecraft_v2": ("steps/s", True),
    "connect_four_v3": ("steps/s", False),
    "python_flamecraft": ("decisions/s", True),
    "ismcts": ("iterations/s", True),
    "dump_state": ("states/s", True),
    "dump_state_pretty": ("states/s", True),
}
LABELS = {
    "engine": "engine random playouts (4p)",
    "tic_tac_toe": "OpenSpiel python_tic_tac_toe",
    "tic_tac_toe_cpp": "OpenSpiel tic_tac_toe (C++)",
    "flamecraft_v2": "PettingZoo flamecraft_v2 (4p)",
    "connect_four_v3": "PettingZoo connect_four_v3",
    "python_flamecraft": "OpenSpiel python_flamecraft (4p)",
    "ismcts": "ismcts search (2p positions)",
    "dump_state": "dump_state (default)",
    "dump_state_pretty": "dump_state(pretty=True)",
}
# The ratios the issue asks for: (numerator, its form, denominator, its form, goal).
RATIOS = (
    ("engine", "compiled", "tic_tac_toe", "compiled", 5.0),
    ("engine", "compiled", "tic_tac_toe_cpp", "compiled", 0.3),
    ("flamecraft_v2", "compiled", "connect_four_v3", "compiled", 2.0),
    ("python_flamecraft", "compiled", "tic_tac_toe", "compiled", 1.0),
    ("ismcts", "compiled", "ismcts", "baseline", 2.0),
    ("dump_state", "compiled", "dump_state", "baseline", 2.0),
    ("dump_state", "compiled", "dump_state_pretty", "compiled", 0.0),
)


# ---------------------------------------------------------------- the contenders (in a worker)

def _openspiel_playouts(name: str, params: dict[str, Any]) -> Callable[[float, int], int]:
    import pyspiel
    if name == "python_flamecraft":
        import flamecraft.research.openspiel_game  # noqa: F401  (registers the game)
    elif name.startswith("python_"):
        from open_spiel.python.games import tic_tac_toe  # noqa: F401
    game = pyspiel.load_game(name, params)

    def run(seconds: float, seed: int) -> int:
        rng = random.Random(seed)
        count = 0
        began = time.perf_counter()
        while time.perf_counter() - began < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                count += 1
        return count
    return run


def _engine(seconds: float, seed: int) -> int:
    from flamecraft import apply_in_place, legal_actions, start
    rng = random.Random(seed)
    count = game = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        s = start(4, seed + game)
        while not s.over:
            actions = legal_actions(s)
            apply_in_place(s, actions[rng.randrange(len(actions))])
            count += 1
        game += 1
    return count


def _env(name: str) -> Callable[[float, int], int]:
    sys.path.insert(0, str(HERE))
    from env_steps import play_for
    if name == "flamecraft_v2":
        from flamecraft.research import flamecraft_v2

        def make() -> Any:
            return flamecraft_v2.env(players=4)
    else:
        import importlib
        make = importlib.import_module(f"pettingzoo.classic.{name}").env
    return lambda seconds, seed: play_for(make, seconds, seed)[0]


def _ismcts() -> Callable[[float, int], int]:
    sys.path.insert(0, str(HERE))
    from ismcts_speed import positions

    from flamecraft import to_act
    from flamecraft.ai import ISMCTSBot, Seat
    found = positions(2, 60, 1)

    def run(seconds: float, seed: int) -> int:
        count = 0
        for i in range(max(1, round(seconds / PER_SEARCH))):
            k = (seed + i) % len(found)
            bot = ISMCTSBot(seconds=PER_SEARCH, reuse=False)
            bot.choose(Seat(found[k], to_act(found[k])), random.Random(k))
            count += bot.last_iterations
        return count
    return run


def _dump(pretty: bool) -> Callable[[float, int], int]:
    from flamecraft import apply_in_place, legal_actions, start
    from flamecraft.core.serialize import dump_state
    if pretty and "pretty" not in inspect.signature(dump_state).parameters:
        raise TypeError("this checkout's dump_state has no pretty form")
    states = []
    for seed in range(4):
        s, rng = start(4, seed), random.Random(seed)
        while not s.over:
            if rng.random() < 0.05:
                states.append(s.copy())
            actions = legal_actions(s)
            apply_in_place(s, actions[rng.randrange(len(actions))])

    def run(seconds: float, seed: int) -> int:
        count = 0
        began = time.perf_counter()
        while time.perf_counter() - began < seconds:
            for s in states:
                dump_state(s, pretty=True) if pretty else dump_state(s)
            count += len(states)
        return count
    return run


def make_contender(name: str) -> Callable[[float, int], int]:
    if name == "engine":
        return _engine
    if name == "tic_tac_toe":
        return _openspiel_playouts("python_tic_tac_toe", {})
    if name == "tic_tac_toe_cpp":
        return _openspiel_playouts("tic_tac_toe", {})
    if name == "python_flamecraft":
        return _openspiel_playouts("python_flamecraft", {"players": 4})
    if name in ("flamecraft_v2", "connect_four_v3"):
        return _env(name)
    if name == "ismcts":
        return _ismcts()
    return _dump(pretty=name == "dump_state_pretty")


def worker() -> int:
    """Answers one JSON request a line: run a contender for some seconds; prints the count."""
    import flamecraft
    import flamecraft.core
    form = getattr(flamecraft.core, "FORM", "pure Python (no switch: an older checkout)")
    made: dict[str, Callable[[float, int], int] | str] = {}
    for line in sys.stdin:
        ask = json.loads(line)
        name = ask["contender"]
        if name not in made:
            try:
                made[name] = make_contender(name)
            except (ImportError, TypeError) as exc:  # TypeError: no pretty= in an old checkout
                made[name] = f"{type(exc).__name__}: {exc}"
        run = made[name]
        if isinstance(run, str):
            answer: dict[str, Any] = {"error": run}
        else:
            began = time.perf_counter()
            count = run(float(ask["seconds"]), int(ask["seed"]))
            answer = {"count": count, "elapsed": time.perf_counter() - began}
        answer.update(form=form, where=str(Path(flamecraft.__file__).parent))
        print(json.dumps(answer), flush=True)
    return 0


# ---------------------------------------------------------------- the run (in the parent)

class Worker:
    """A worker process for one form of flamecraft."""

    def __init__(self, env: dict[str, str]):
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, env={**os.environ, **env})

    def ask(self, contender: str, seconds: float, seed: int) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(
            {"contender": contender, "seconds": seconds, "seed": seed}) + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def _uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return f"load average {os.getloadavg()}"


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):>12,.1f}  ({min(values):,.1f}–{max(values):,.1f})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="time of one turn of one contender in one form")
    parser.add_argument("--only", nargs="*", default=[], choices=sorted(CONTENDERS),
                        help="contenders to run (default: all)")
    parser.add_argument("--baseline", metavar="SRC",
                        help="also the pure form of this src folder (another checkout)")
    parser.add_argument("--baseline-compiled", action="store_true",
                        help="run the baseline compiled (its own make'd build) instead of pure")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker()

    forms: dict[str, dict[str, str]] = {"compiled": {"FLAMECRAFT_PURE": ""},
                                        "pure": {"FLAMECRAFT_PURE": "1"}}
    if args.baseline:
        forms["baseline"] = {"FLAMECRAFT_PURE": "" if args.baseline_compiled else "1",
                             "PYTHONPATH": str(Path(args.baseline).resolve())}
    workers = {form: Worker(env) for form, env in forms.items()}
    names = args.only or list(CONTENDERS)
    turns = [(name, form) for name in names for form in forms
             if form == "compiled" or CONTENDERS[name][1]]
    print(f"start: {_uptime()}")
    print(f"python {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} cores; {args.rounds} rounds of "
          f"{args.seconds:g} s per contender and form, interleaved")
    rates: dict[tuple[str, str], list[float]] = {}
    skipped: dict[tuple[str, str], str] = {}
    for r in range(args.rounds):
        shift = r % len(turns)
        for name, form in turns[shift:] + turns[:shift]:
            if (name, form) in skipped:
                continue
            answer = workers[form].ask(name, args.seconds, 1000 * r)
            if r == 0 and name == names[0]:
                print(f"  {form}: {answer['form']}, from {answer['where']}")
            if "error" in answer:
                skipped[name, form] = answer["error"]
                continue
            rates.setdefault((name, form), []).append(answer["count"] / answer["elapsed"])
    for w in workers.values():
        w.close()
    print(f"end:   {_uptime()}")
    for (name, form), why in skipped.items():
        print(f"skipped {name} ({form}): {why}")
    print()
    print(f"{'contender':<34} {'form':<9} {'unit':<13} {'median':>12}  (range of rounds)")
    for (name, form), values in rates.items():
        print(f"{LABELS[name]:<34} {form:<9} {CONTENDERS[name][0]:<13} {_spread(values)}")
    print()
    print("ratios, round by round: median (range)")
    pairs = [(n, f, d, g, goal) for n, f, d, g, goal in RATIOS]
    pairs += [(n, "compiled", n, "pure", 0.0) for n in names if CONTENDERS[n][1]]
    if args.baseline:
        pairs += [(n, form, n, "baseline", 0.0) for n in names if CONTENDERS[n][1]
                  for form in ("compiled", "pure")
                  if (n, form, n, "baseline") not in [p[:4] for p in RATIOS]]
    for num, nform, den, dform, goal in pairs:
        a, b = rates.get((num, nform)), rates.get((den, dform))
        if not a or not b:
            continue
        ratios = [x / y for x, y in zip(a, b, strict=True)]
        target = f"   goal ≥ {goal:g}" if goal else ""
        print(f"  {num} ({nform}) / {den} ({dform}): {statistics.median(ratios):.2f}× "
              f"({min(ratios):.2f}–{max(ratios):.2f}){target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
