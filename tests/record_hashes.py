"""Plays a slice of seeded random games with the fuzz checks on, and prints the form of the
rules core that ran and a hash of each game's record and final state, one JSON object.

Run by ``test_compiled.py`` once with ``FLAMECRAFT_PURE=1`` and once without, in fresh
interpreters (a process cannot switch forms once the core is imported), to prove that the
compiled and the pure core play identical games.

    python tests/record_hashes.py --chunk 0 --chunks 4 --games 300
"""

from __future__ import annotations

import argparse
import hashlib
import json

import flamecraft.core
from flamecraft.core.serialize import dump_record, dump_state, replay
from fuzz import play_checked

COUNTS = (1, 2, 3, 4, 5)
DECKS = ("purple", "golden")


def game(i: int) -> tuple[int, str, bool, int]:
    """The i-th game: every player count, deck and Companion option in turn, then new seeds."""
    return COUNTS[i % 5], DECKS[(i // 5) % 2], (i // 10) % 2 == 1, 50_000 + i


def bot_game(seed: int) -> str:
    """A 2-player game of the planner against the search (a fixed number of iterations, so no
    clock in it), recorded: the bots' valuations and choices, compiled or not, must agree."""
    from flamecraft import GameRecord, apply_in_place, start, text, to_act
    from flamecraft.ai import Bot, ISMCTSBot, PlannerBot, Seat
    from flamecraft.ai.tournament import seat_rng

    s = start(2, seed, "golden" if seed % 2 else "purple", companions=seed % 3 == 0)
    bots: list[Bot] = [PlannerBot(), ISMCTSBot(iterations=4, seconds=None)]
    rngs = [seat_rng(seed, p) for p in range(2)]
    record = GameRecord(s.options, seed)
    while not s.over:
        p = to_act(s)
        action = bots[p].choose(Seat(s, p), rngs[p])
        record.actions.append(text(s, action))
        apply_in_place(s, action)
    return dump_record(record)


def valuation_game(seed: int) -> str:
    """A random game with every seat's valuation (the bots' ``value``, ``relative`` and Good
    values) written down at every decision: floats, which must agree to the last bit."""
    import random

    from flamecraft import apply_in_place, legal_actions, start
    from flamecraft.ai.evaluate import good_values, relative, value

    s = start(2 + seed % 4, seed, companions=seed % 2 == 1)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    while not s.over:
        for p in range(s.n):
            digest.update(repr((value(s, p), relative(s, p), good_values(s, p))).encode())
        actions = legal_actions(s)
        apply_in_place(s, actions[rng.randrange(len(actions))])
    return digest.hexdigest()


def observation_game(seed: int) -> str:
    """A random game with the RL encoding written down at every decision: every seat's
    observation and the public one (the bytes of their doubles) and the catalogue's legal
    index of every legal action. ``encoding`` is compiled with the core: it must agree to the
    last bit, at every player count, both decks, Companions on and off."""
    import random

    from flamecraft import apply_in_place, legal_actions, start
    from flamecraft.research.encoding import catalogue, observation_buffer

    players = 1 + seed % 5
    s = start(players, seed, DECKS[seed // 5 % 2], companions=seed // 10 % 2 == 1)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    while True:
        for seat in (None, *range(players)):
            digest.update(observation_buffer(s, seat))
        digest.update(repr(sorted(catalogue(players).legal(s).items())).encode())
        if s.over:
            return digest.hexdigest()
        actions = legal_actions(s)
        apply_in_place(s, actions[rng.randrange(len(actions))])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunk", type=int, default=0)
    parser.add_argument("--chunks", type=int, default=1)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--bot-games", type=int, default=0,
                        help="also this many games of the planner against the search")
    parser.add_argument("--value-games", type=int, default=0,
                        help="also this many random games with every valuation recorded")
    parser.add_argument("--observation-games", type=int, default=0,
                        help="also this many random games with every RL observation recorded")
    args = parser.parse_args()
    hashes = []
    for i in range(args.chunk, args.observation_games, args.chunks):
        hashes.append(observation_game(80_000 + i))
    for i in range(args.chunk, args.value_games, args.chunks):
        hashes.append(valuation_game(70_000 + i))
    for i in range(args.chunk, args.bot_games, args.chunks):
        hashes.append(hashlib.sha256(bot_game(60_000 + i).encode()).hexdigest())
    for i in range(args.chunk, args.games, args.chunks):
        players, deck, companions, seed = game(i)
        record = play_checked(players, seed, deck, round_trip_every=20, companions=companions)
        final = dump_state(replay(record))
        hashes.append(hashlib.sha256((dump_record(record) + final).encode()).hexdigest())
    print(json.dumps({"form": getattr(flamecraft.core, "FORM", "pure Python (older checkout)"),
                      "compiled": getattr(flamecraft.core, "COMPILED", False),
                      "hashes": hashes}))


if __name__ == "__main__":
    main()
