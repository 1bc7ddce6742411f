"""Fancy Dragon goals in bot games: how often each is met, what it pays, and its lift.

Why: the balance report ranks Fancy Dragons by the lift of those who held them, but a
designer changing a goal also needs to know *why* a card stands out: is its goal never met,
or met every time, and how much Reputation does it pay when held? This script plays games
with one bot at every seat and reads each held Fancy Dragon from the final state: whether it
scored, the Reputation it paid (a Sun's printed reward when revealed, a Moon's value at the
end), and its holder's win share against the share their seat predicts. It also prints the
end-of-game measures the hard goals depend on (gifts given, Goods held, full Shops…).

    python scripts/fancy_goals.py --bot greedy --games 300     # per player count, 2-5 players
    python scripts/fancy_goals.py --bot planner --games 40 --json out.json

docs/balance.md quotes its figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from flamecraft.ai.tournament import GameSpec, game_seed, play_game, win_share
from flamecraft.core.board import CATALOG
from flamecraft.core.goals import MEASURE_FUNCTIONS, fancy_value

FANCIES = CATALOG.fancies
COUNTS = (2, 3, 4, 5)
# End-of-game measures behind the goals that are hardest to read (measure, argument).
MEASURES = (("gifts_given", 0), ("hand_size", 0), ("shops_visited", 0), ("full_shops", 0),
            ("total_goods", 0), ("shops_completed", 0), ("enchantments_cast", 0),
            ("showpiece_shops", 0), ("shops_with_enchantments_at_least", 3),
            ("good_types_with_at_least", 3), ("good_types_with_at_least", 4))

Seat = tuple[float, list[tuple[str, int]], dict[str, int]]  # win share, (card, rep), measures


def play(job: tuple[str, int, int, int]) -> tuple[int, list[Seat]]:
    """One game: each seat's win share, held Fancy Dragons with what they paid, measures."""
    bot, n, index, seed = job
    spec = GameSpec(index, game_seed(seed, n * 1_000_000 + index), (bot,) * n, "purple",
                    False, False)
    final: list[Any] = []
    result = play_game(spec, final)
    s = final[0]
    seats: list[Seat] = []
    for p in range(n):
        share = win_share(result, p)
        held = [(FANCIES[f].id, FANCIES[f].reward.rep if FANCIES[f].sun
                 else fancy_value(s, p, FANCIES[f])) for f in s.scored[p]]
        held += [(FANCIES[f].id, 0) for f in s.fancy[p]]
        measures = {f"{m}({a})" if a else m: MEASURE_FUNCTIONS[m](s, p, a) for m, a in MEASURES}
        seats.append((share, held, measures))
    return n, seats


def report(games: list[tuple[int, list[Seat]]]) -> str:
    """The table: per card and player count, holds, % met, mean Reputation, lift."""
    wins: dict[int, list[float]] = defaultdict(lambda: [0.0] * 5)
    played: dict[int, int] = defaultdict(int)
    for n, seats in games:
        played[n] += 1
        for p, (share, _, _) in enumerate(seats):
            wins[n][p] += share
    # card -> n -> [holds, met, rep, wins, expected wins]
    cards: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0] * 5))
    measures: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for n, seats in games:
        for p, (share, held, values) in enumerate(seats):
            for card, rep in held:
                row = cards[card][n]
                row[0] += 1
                row[1] += rep > 0
                row[2] += rep
                row[3] += share
                row[4] += wins[n][p] / played[n]
            for name, value in values.items():
                measures[name][n].append(value)
    counts = sorted(played)
    lines = [f"games: {', '.join(f'{played[n]} at {n} players' for n in counts)}", "",
             "| card | " + " | ".join(f"{n}p holds · met · Rep · lift" for n in counts)
             + " | all: lift |", "|---|" + "---|" * (len(counts) + 1)]

    def lift(rows: list[list[float]]) -> float:
        expected = sum(r[4] for r in rows)
        return sum(r[3] for r in rows) / expected if expected else 0.0

    order = sorted(cards, key=lambda c: -lift(list(cards[c].values())))
    for card in order:
        cells = []
        for n in counts:
            stat = cards[card].get(n)
            if not stat or not stat[0]:
                cells.append("–")
                continue
            cells.append(f"{stat[0]:.0f} · {100 * stat[1] / stat[0]:.0f}% · "
                         f"{stat[2] / stat[0]:.1f} · {lift([stat]):.2f}")
        name = FANCIES[CATALOG.fancy_by_id[card]].name
        lines.append(f"| {name} | " + " | ".join(cells)
                     + f" | {lift(list(cards[card].values())):.2f} |")
    lines += ["", "End-of-game measures per player (mean / median):", "",
              "| measure | " + " | ".join(f"{n}p" for n in counts) + " |",
              "|---|" + "---|" * len(counts)]
    for name, by in measures.items():
        lines.append(f"| {name} | " + " | ".join(
            f"{statistics.fmean(by[n]):.1f} / {statistics.median(by[n]):g}" for n in counts)
            + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="greedy", help="bot spec at every seat")
    parser.add_argument("--games", type=int, default=300, help="games per player count")
    parser.add_argument("--players", default="2,3,4,5")
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", help="also write the per-game facts here")
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.players.split(",")]
    jobs = [(args.bot, n, i, args.seed) for n in counts for i in range(args.games)]
    with Pool(args.workers) as pool:
        games = pool.map(play, jobs, chunksize=4)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(games, fh)
    print(f"bot: {args.bot}, seed {args.seed}")
    print(report(games))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
