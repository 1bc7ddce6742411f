"""Full-tree CFR on a small research variant of Flamecraft, with its exploitability curve
beside the project's bots' (docs/rl.md, "Small variants").

OpenSpiel's ``cfr.CFRSolver`` and ``exploitability.exploitability`` walk every history, so
they run only on a variant whose tree is small ("tiny": about 7,600 decisions and 113 chance
nodes at 2 players with the first player fixed). Exploitability needs a zero-sum game:
``reward="margin"`` at 2 players is (one seat's lead is the other's deficit). The bots are
measured as policies (``openspiel_game.BotPolicy``: a bot's choice per information state).

    python scripts/cfr_variant.py --iterations 64 --plot docs/figures/cfr-tiny.png
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability

from flamecraft.core import FORM
from flamecraft.research import openspiel_game as og

BOTS = ("random", "greedy", "planner")


def checkpoints(iterations: int) -> list[int]:
    """1, 2, 4, … and the last iteration: where the exploitability is measured."""
    out, k = [], 1
    while k < iterations:
        out.append(k)
        k *= 2
    return [*out, iterations]


def tree_size(game: Any) -> dict[str, int]:
    """Histories by kind, and information states, of the whole tree."""
    counts = {"chance": 0, "decision": 0, "terminal": 0}
    infos: set[str] = set()
    stack = [game.new_initial_state()]
    while stack:
        s = stack.pop()
        if s.is_terminal():
            counts["terminal"] += 1
        elif s.is_chance_node():
            counts["chance"] += 1
            stack.extend(s.child(a) for a, _ in s.chance_outcomes())
        else:
            counts["decision"] += 1
            infos.add(s.information_state_string())
            stack.extend(s.child(a) for a in s.legal_actions())
    return {**counts, "information_states": len(infos)}


def run(variant: str, iterations: int) -> dict[str, Any]:
    game = pyspiel.load_game("python_flamecraft", {"players": 2, "variant": variant,
                                                   "first_player": 0, "reward": "margin"})
    started = time.monotonic()
    size = tree_size(game)
    print(f"variant {variant!r}: {size} ({time.monotonic() - started:.1f} s to walk)",
          flush=True)
    solver = cfr.CFRSolver(game)
    curve: list[tuple[int, float]] = []
    marks = set(checkpoints(iterations))
    cfr_seconds = 0.0
    for it in range(1, iterations + 1):
        t = time.monotonic()
        solver.evaluate_and_update_policy()
        cfr_seconds += time.monotonic() - t
        if it in marks:
            value = exploitability.exploitability(game, solver.average_policy())
            curve.append((it, value))
            print(f"CFR iteration {it}: exploitability {value:.4f}", flush=True)
    bots: dict[str, float] = {}
    value = exploitability.exploitability(game, policy_lib.UniformRandomPolicy(game))
    bots["uniform random (OpenSpiel)"] = value
    print(f"uniform random policy: exploitability {value:.4f}", flush=True)
    for name in BOTS:
        value = exploitability.exploitability(game, og.BotPolicy(game, name, seed=0))
        bots[name] = value
        print(f"bot {name}: exploitability {value:.4f}", flush=True)
    return {"variant": variant, "form": FORM, "tree": size, "curve": curve, "bots": bots,
            "cfr_seconds_per_iteration": cfr_seconds / iterations,
            "total_seconds": time.monotonic() - started}


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    its = [i for i, _ in result["curve"]]
    ax.plot(its, [v for _, v in result["curve"]], "o-", label="CFR average policy")
    styles = [("--", "gray"), (":", "tab:red"), ("-.", "tab:green"), ((0, (5, 1)), "tab:purple")]
    for (name, value), (style, colour) in zip(result["bots"].items(), styles, strict=False):
        label = name if "uniform" in name else f"bot {name}"
        ax.axhline(value, linestyle=style, color=colour, label=f"{label} ({value:.3f})")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("CFR iterations")
    ax.set_ylabel("exploitability (Reputation margin)")
    ax.set_title(f"python_flamecraft, variant {result['variant']!r}, 2 players, "
                 "reward margin")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="tiny")
    parser.add_argument("--iterations", type=int, default=64)
    parser.add_argument("--plot", type=Path, help="write the curve as a PNG")
    parser.add_argument("--json", type=Path, help="write the numbers as JSON")
    parser.add_argument("--replot", type=Path, help="only redraw --plot from this JSON")
    args = parser.parse_args(argv)
    if args.replot:
        plot(json.loads(args.replot.read_text(encoding="utf-8")), args.plot)
        return 0
    result = run(args.variant, args.iterations)
    print(f"{result['cfr_seconds_per_iteration']:.2f} s per CFR iteration, "
          f"{result['total_seconds']:.0f} s in all ({result['form']})")
    if args.plot:
        plot(result, args.plot)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
