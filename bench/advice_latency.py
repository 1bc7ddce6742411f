"""Benchmark: how long a person waits for a hint and for a finished game's review.

Why: a hint is asked by a person at the table (the terminal's ``hint``, the web's Hint button:
both call ``ai.hints.hints`` with ``HINT_BUDGET``), and a review while the end screen shows
(``ai.review.review`` with ``REVIEW_BUDGET``). Issue 26 asks for a hint within 1 s at the 90th
percentile and a 4-player review within 3 s, so this prints those figures on fixed games.

Positions and records come from games of the Strong, Casual and Beginner levels' bots around
the table (players who make mistakes, as people do), dealt from ``--seed``: every decision
with a real choice is a candidate, spread evenly to ``--positions`` per player count; the turn
starts (every Shop to visit, the slowest kind) are also reported apart. Each review is of a
whole game, every seat (the web reviews every seat; the terminal, the people's), timed on the
clock and in CPU seconds (the machine is shared: the load average is printed beside).

``--reference`` also runs a reference budget at each position and game, interleaved with the
default (the same moment of the machine falls on both), and prints the ratios: give it the
budget as it was before a change: ``leaf=valuation,first=0,stop=0,prune=0,seconds=0,widest=0,
fine=0`` with ``--review-reference`` adding ``samples=8,beam=5`` is the hint and the review
before issue 26; without ``leaf=valuation``, the same valuation without the shortcuts, which says
what the shortcuts cost in advice (the reference's loss of the default's best action; how
many decisions each review labels, and how far their losses differ).

    python bench/advice_latency.py                           # 2 and 4 players
    python bench/advice_latency.py --reference first=0,stop=0,prune=0,seconds=0,widest=0,fine=0
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import fields, replace
from typing import Any

from flamecraft import GameState, apply_in_place, start, to_act
from flamecraft.ai import GreedyBot, PlannerBot, Seat, weightsets
from flamecraft.ai.hints import HINT_BUDGET, Budget, hints
from flamecraft.ai.review import REVIEW_BUDGET, Review, review
from flamecraft.core import COMPILED
from flamecraft.core.engine import text
from flamecraft.core.frames import D_VISIT
from flamecraft.core.serialize import GameRecord


def play(players: int, seed: int) -> tuple[GameRecord, list[GameState]]:
    """A game of the Strong, Casual and Beginner levels' bots in turn around the table (the
    tuned planner, the hand-set one, greedy: players who make mistakes, as people do): its
    record and every decision with a real choice."""
    s = start(players, seed)
    record = GameRecord(s.options, seed)
    bots: list[PlannerBot | GreedyBot] = [PlannerBot(weights=weightsets.named("tuned")),
                                          PlannerBot(), GreedyBot()]
    rng = random.Random(seed)
    out = []
    while not s.over:
        seat = Seat(s, to_act(s))
        if len(seat.legal_actions()) > 1:
            out.append(s.copy())
        a = bots[seat.seat % len(bots)].choose(seat, rng)
        record.actions.append(text(s, a))
        apply_in_place(s, a)
    return record, out


def pct(xs: list[float], q: float) -> float:
    """The q-th quantile (0–1) of xs, linearly interpolated (statistics.quantiles)."""
    if len(xs) == 1:
        return xs[0]
    return statistics.quantiles(xs, n=100, method="inclusive")[round(q * 100) - 1]


def line(name: str, xs: list[float]) -> str:
    return (f"{name}: p50 {pct(xs, 0.5):.3f} s, p90 {pct(xs, 0.9):.3f} s, max {max(xs):.3f} s "
            f"over {len(xs)}")


def agreement(new: Review, ref: Review) -> str:
    """How the default review's labels and losses compare with the reference's."""
    both = only_new = only_ref = 0
    gaps = []
    for a, b in zip(new.decisions, ref.decisions, strict=True):
        both += bool(a.label) and bool(b.label)
        only_new += bool(a.label) and not b.label
        only_ref += bool(b.label) and not a.label
        gaps.append(abs(a.loss - b.loss))
    return (f"labelled by both {both}, by the default only {only_new}, by the reference only "
            f"{only_ref}; mean |loss difference| {statistics.mean(gaps):.2f}")


def parse_budget(spec: str, base: Budget) -> Budget:
    """``samples=64,seconds=0`` over ``base``."""
    names = {f.name: f.type for f in fields(Budget)}
    changes: dict[str, Any] = {}
    for part in filter(None, spec.split(",")):
        key, _, raw = part.partition("=")
        if key not in names:
            raise SystemExit(f"no budget field {key!r} (fields: {', '.join(names)})")
        changes[key] = raw if key == "leaf" else (float(raw) if "." in raw else int(raw))
    return replace(base, **changes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--positions", type=int, default=30, help="hints per player count")
    parser.add_argument("--reviews", type=int, default=2, help="games reviewed per count")
    parser.add_argument("--seed", type=int, default=2600)
    parser.add_argument("--reference", default="",
                        help="a reference budget for both, as changes to the default one")
    parser.add_argument("--review-reference", default=None,
                        help="the review's reference, if not --reference")
    parser.add_argument("--no-review", action="store_true")
    parser.add_argument("--no-hint", action="store_true")
    args = parser.parse_args()
    print(f"python:    {platform.python_implementation()} {platform.python_version()}, "
          f"{'compiled' if COMPILED else 'pure'} core, load {os.getloadavg()[0]:.1f}")
    hint_ref = parse_budget(args.reference, HINT_BUDGET) if args.reference else None
    review_spec = args.reference if args.review_reference is None else args.review_reference
    review_ref = parse_budget(review_spec, REVIEW_BUDGET) if review_spec else None
    print(f"hint:      {HINT_BUDGET}" + (f"; reference {hint_ref}" if hint_ref else ""))
    print(f"review:    {REVIEW_BUDGET}" + (f"; reference {review_ref}" if review_ref else ""))
    began = time.perf_counter()
    for n in (int(x) for x in args.players.split(",")):
        games = [play(n, args.seed + n * 100 + g) for g in range(max(1, args.reviews))]
        pool = [s for _r, states in games for s in states]
        step = max(1, len(pool) // args.positions)
        picked = pool[::step][:args.positions]
        times: dict[str, list[float]] = {"new": [], "ref": [], "new_start": [], "ref_start": []}
        ratios: list[float] = []
        agree = 0
        regret: list[float] = []  # the reference's loss of the default's best action
        for k, s in enumerate([] if args.no_hint else picked):
            seat = Seat(s, to_act(s))
            runs = [("new", HINT_BUDGET), ("ref", hint_ref)] if hint_ref else [
                ("new", HINT_BUDGET)]
            if k % 2:
                runs.reverse()
            best, loss_of = {}, {}
            for key, budget in runs:
                assert budget is not None
                t0 = time.perf_counter()
                found = hints(seat, random.Random(k), budget)
                dt = time.perf_counter() - t0
                best[key] = found[0].action
                if key == "ref":
                    loss_of = {h.action: h.loss for h in found}
                times[key].append(dt)
                if s.stack[-1][0] == D_VISIT:
                    times[f"{key}_start"].append(dt)
            if hint_ref:
                ratios.append(times["new"][-1] / times["ref"][-1])
                agree += best["new"] == best["ref"]
                regret.append(loss_of[best["new"]])
        if times["new"]:
            print(line(f"{n}p hint", times["new"]), flush=True)
        if times["new_start"]:
            print(line(f"{n}p hint, turn starts", times["new_start"]))
        if hint_ref and ratios:
            print(line(f"{n}p hint reference", times["ref"]))
            if times["ref_start"]:
                print(line(f"{n}p hint reference, turn starts", times["ref_start"]))
            print(f"{n}p hint: time ratio new/reference median {statistics.median(ratios):.3f}"
                  f"; the same best action at {agree} of {len(picked)} positions; the "
                  f"reference's loss of the default's best: mean {statistics.mean(regret):.2f}, "
                  f"max {max(regret):.2f}", flush=True)
        if args.no_review:
            continue
        for g, (record, _states) in enumerate(games):
            decisions = len(record.actions)
            runs2 = [("new", REVIEW_BUDGET), ("ref", review_ref)] if review_ref else [
                ("new", REVIEW_BUDGET)]
            reviewed = {}
            for key, budget in runs2:
                assert budget is not None
                t0, c0 = time.perf_counter(), time.process_time()
                rv = review(record, None, budget)
                dt, cpu = time.perf_counter() - t0, time.process_time() - c0
                reviewed[key] = rv
                print(f"{n}p review {key} (game {g + 1}, {decisions} actions): {dt:.2f} s "
                      f"({cpu:.2f} s of CPU, load {os.getloadavg()[0]:.1f}); "
                      f"{len(rv.mistakes(top=999))} decisions labelled", flush=True)
            if review_ref:
                print(f"{n}p review agreement (game {g + 1}): "
                      + agreement(reviewed["new"], reviewed["ref"]), flush=True)
    print(f"elapsed:   {time.perf_counter() - began:.1f} s")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
