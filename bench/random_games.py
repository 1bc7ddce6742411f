"""Benchmark: full games of random legal actions on one core.

Why: search bots and simulation live on the engine's speed, and the figure quoted in the README
must be one anyone can reproduce. Each game gets its own ``random.Random`` (seeded from the game
number), so two runs with the same options play the same games.

    python bench/random_games.py                      # 200 games of 4 players
    python bench/random_games.py --players 2 --seconds 30
    python bench/random_games.py --copy               # state.copy() and legal_actions() rates

Peak memory is the process's maximum resident set size (``resource.getrusage``), not
``tracemalloc``, which would slow the engine down several times.
"""

from __future__ import annotations

import argparse
import platform
import random
import resource
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from flamecraft import GameState, apply_in_place, legal_actions, start


@dataclass
class GameStats:
    """What one random game cost."""

    decisions: int
    turns: int


def play_random_game(players: int, seed: int, deck: str,
                     keep: list[GameState] | None = None, keep_every: int = 0) -> GameStats:
    """Plays one game choosing uniformly among the legal actions; optionally keeps a copy of
    every ``keep_every``-th decision state (samples for ``--copy``)."""
    chooser = random.Random(seed)
    s = start(players, seed, deck)
    decisions = 0
    while not s.over:
        actions = legal_actions(s)
        if keep is not None and keep_every and decisions % keep_every == 0:
            keep.append(s.copy())
        # A lone action (an `end turn`, a decline asked alone) needs no draw.
        apply_in_place(s, actions[0] if len(actions) == 1
                       else actions[chooser.randrange(len(actions))])
        decisions += 1
    return GameStats(decisions, s.turn)


def peak_memory_mib() -> float:
    """The process's peak resident memory in MiB (ru_maxrss is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def run_games(players: int, games: int, seconds: float | None, deck: str, seed: int) -> None:
    """Plays games until the count (or, with ``seconds``, the time) is reached; prints rates."""
    played = decisions = turns = 0
    began = time.perf_counter()
    while True:
        if seconds is None:
            if played >= games:
                break
        elif time.perf_counter() - began >= seconds:
            break
        stats = play_random_game(players, seed + played, deck)
        played += 1
        decisions += stats.decisions
        turns += stats.turns
    elapsed = time.perf_counter() - began
    print(f"players:            {players} ({deck} deck), seeds {seed}..{seed + played - 1}")
    print(f"games:              {played}")
    print(f"decisions:          {decisions} (actions applied)")
    print(f"elapsed:            {elapsed:.2f} s")
    print(f"decisions/s:        {decisions / elapsed:,.0f}")
    print(f"games/s:            {played / elapsed:.2f}")
    print(f"mean turns/game:    {turns / max(played, 1):.1f}")
    print(f"decisions/game:     {decisions / max(played, 1):.1f}")
    _footer()


def _rate(count: int, elapsed: float) -> str:
    return f"{count / elapsed:,.0f}/s"


def run_copy(players: int, games: int, seconds: float, deck: str, seed: int) -> None:
    """Samples decision states from random games, then times ``copy()`` and ``legal_actions``
    on them (cached: the list is already known; uncached: the list is generated again)."""
    samples: list[GameState] = []
    for g in range(games):
        play_random_game(players, seed + g, deck, samples, keep_every=7)
    share = seconds / 3

    def timed(work: str) -> tuple[int, float]:
        count = 0
        began = time.perf_counter()
        while time.perf_counter() - began < share:
            for s in samples:
                if work == "copy":
                    s.copy()
                elif work == "cached":
                    legal_actions(s)
                else:
                    s.cache = None
                    legal_actions(s)
            count += len(samples)
        return count, time.perf_counter() - began

    print(f"players:            {players} ({deck} deck), {len(samples)} sampled decision states "
          f"from {games} games")
    copies, t_copy = timed("copy")
    print(f"state.copy():       {_rate(copies, t_copy)} ({copies} copies)")
    cached, t_cached = timed("cached")
    print(f"legal_actions():    {_rate(cached, t_cached)} cached (list already known)")
    fresh, t_fresh = timed("fresh")
    print(f"legal_actions():    {_rate(fresh, t_fresh)} generated (cache cleared each call)")
    _footer()


def _footer() -> None:
    print(f"peak memory:        {peak_memory_mib():.1f} MiB (ru_maxrss)")
    print(f"python:             {platform.python_implementation()} {platform.python_version()}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Random-legal-action games on one core.")
    parser.add_argument("--players", type=int, default=4, help="players per game (2-5)")
    parser.add_argument("--games", type=int, default=200, help="games to play")
    parser.add_argument("--seconds", type=float, default=None,
                        help="play for this long instead of a number of games "
                             "(with --copy: total timing, default 6)")
    parser.add_argument("--deck", choices=("purple", "golden"), default="purple")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--copy", action="store_true",
                        help="measure state.copy() and legal_actions() per second instead")
    args = parser.parse_args(argv)
    if args.copy:
        run_copy(args.players, min(args.games, 20), args.seconds or 6.0, args.deck, args.seed)
    else:
        run_games(args.players, args.games, args.seconds, args.deck, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
