"""Measure: how many decisions random games take, per player count, deck and Companions.

Why: the research environments cut a game that has not ended after ``max_decisions`` decisions
(PettingZoo, Gymnasium; OpenSpiel's maximum game length), and the default must sit far above
any game that ends by itself. Game ``g`` is dealt with seed ``1000 + g`` and played with
``random.Random(g)``, so a run is reproducible.

    python bench/game_lengths.py --games 500      # the figures in docs/rl.md
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from flamecraft import apply_in_place, legal_actions, start


def game_length(players: int, deck: str, companions: bool, game: int) -> int:
    """Decisions in one game of uniformly random legal actions."""
    s = start(players, 1000 + game, deck, companions=companions)
    rng = random.Random(game)
    decisions = 0
    while not s.over:
        actions = legal_actions(s)
        apply_in_place(s, actions[rng.randrange(len(actions))])
        decisions += 1
    return decisions


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per setting")
    args = parser.parse_args(argv)
    longest = 0
    print("players  companions  deck     median  max")
    for players in range(1, 6):
        for companions in (False, True):
            for deck in ("purple", "golden"):
                lengths = sorted(game_length(players, deck, companions, g)
                                 for g in range(args.games))
                longest = max(longest, lengths[-1])
                print(f"{players:7}  {companions!s:10}  {deck:7}  {lengths[len(lengths) // 2]:6}"
                      f"  {lengths[-1]:4}")
    print(f"longest: {longest} decisions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
