"""Pinned goldens of the rules: perft-style counts of the legal decisions reachable from fixed
positions, and the digests of fixed seeded games (random and greedy-bot), at 1–5 players, both
decks, Companions on and off. ``tests/goldens.json`` holds them; ``test_goldens.py`` checks the
running form of the core against it, and the other form (compiled or pure) in a fresh
interpreter where both exist. A change of the rules (or of a card) that plays out the same in
both forms — which ``test_compiled.py``, comparing the forms with each other, cannot see —
changes a golden: if the change is meant, regenerate the file and say so in the commit.

    python tests/goldens.py            # prints what this checkout computes, and the form
    python tests/goldens.py --write    # rewrites tests/goldens.json with it

A perft count at depth d is the number of paths of d decisions from the root (a finished game
ends its path); decisions the engine takes by itself are not counted, as it never shows them.
A game's digests are the SHA-256 of its dumped record (the seed and every action's text),
of its dumped final state, and of every seat's observation vector and the catalogue's legal
indices at every decision (``encoding``: ``ENCODING_VERSION`` is stored beside them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import flamecraft.core
from flamecraft import (
    GameRecord,
    GameState,
    apply,
    apply_in_place,
    legal_actions,
    start,
    text,
    to_act,
)
from flamecraft.core.frames import D_VISIT
from flamecraft.core.serialize import dump_record, dump_state
from flamecraft.research.encoding import ENCODING_VERSION, catalogue, observation_buffer

FILE = Path(__file__).resolve().parent / "goldens.json"
FORMAT = "flamecraft-goldens"
VERSION = 1

# (players, deck, Companions): every player count with each Companion setting, the decks in
# turn.
CONFIGS = [(n, ("purple", "golden")[(n + c) % 2], bool(c)) for n in range(1, 6) for c in (0, 1)]
FIRST_VISIT_DEPTH = 6  # the first turn and the start of the next, from the first visit
MIDGAME_DEPTH = 5  # 4 until ruling 20 asked lone declines: some paths were then too narrow
MIDGAME_AFTER = {1: 20, 2: 80, 3: 120, 4: 150, 5: 180}  # random decisions before the root
BOT_GAMES = [(2, "purple", False), (4, "golden", True)]  # every seat the greedy bot


def perft(s: GameState, depth: int) -> list[int]:
    """The number of decision paths of length 1..depth from ``s``."""
    counts = [0] * depth

    def walk(state: GameState, d: int) -> None:
        actions = legal_actions(state)
        counts[d] += len(actions)
        if d + 1 < depth:
            for action in actions:
                walk(apply(state, action), d + 1)

    walk(s, 0)
    return counts


def first_visit(players: int, deck: str, companions: bool, seed: int) -> GameState:
    """The game of ``seed`` past setup (every setup choice the first one offered), at the
    first player's first visit."""
    s = start(players, seed, deck, companions=companions)
    while s.stack[-1][0] != D_VISIT:
        apply_in_place(s, legal_actions(s)[0])
    return s


def midgame(players: int, deck: str, companions: bool, seed: int) -> GameState:
    """The game of ``seed`` after ``MIDGAME_AFTER[players]`` seeded random decisions."""
    s = start(players, seed, deck, companions=companions)
    rng = random.Random(seed)
    for _ in range(MIDGAME_AFTER[players]):
        actions = legal_actions(s)
        apply_in_place(s, actions[rng.randrange(len(actions))])
    assert not s.over, "the mid-game root must be a live position"
    return s


def _sha(data: str | bytes) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def game(players: int, deck: str, companions: bool, seed: int, bot: str) -> dict[str, Any]:
    """One seeded game played to its end: uniformly random choices (``random.Random(seed)``)
    or every seat the greedy bot (each with the tournament's seat generator)."""
    from flamecraft.ai import GreedyBot, Seat
    from flamecraft.ai.tournament import seat_rng

    s = start(players, seed, deck, companions=companions)
    rng = random.Random(seed)
    greedy = GreedyBot()
    rngs = [seat_rng(seed, p) for p in range(players)]
    record = GameRecord(s.options, seed)
    cat = catalogue(players)
    seen = hashlib.sha256()
    legal_sum = 0
    while True:
        for seat in (None, *range(players)):
            seen.update(observation_buffer(s, seat))
        seen.update(repr(cat.legal_indices(s)).encode())
        if s.over:
            break
        actions = legal_actions(s)
        legal_sum += len(actions)
        if bot == "random":
            action = actions[rng.randrange(len(actions))]
        else:
            p = to_act(s)
            action = greedy.choose(Seat(s, p), rngs[p])
        record.actions.append(text(s, action))
        apply_in_place(s, action)
    return {"players": players, "deck": deck, "companions": companions, "seed": seed,
            "bot": bot, "decisions": len(record.actions), "legal_sum": legal_sum,
            "record_sha256": _sha(dump_record(record)), "state_sha256": _sha(dump_state(s)),
            "observation_sha256": seen.hexdigest()}


def compute() -> dict[str, Any]:
    """Every golden, as this checkout (in the form that runs) computes it."""
    roots: list[dict[str, Any]] = []
    for i, (players, deck, companions) in enumerate(CONFIGS):
        seed = 7_000 + i
        roots.append({"players": players, "deck": deck, "companions": companions,
                      "seed": seed, "root": "first visit",
                      "counts": perft(first_visit(players, deck, companions, seed),
                                      FIRST_VISIT_DEPTH)})
        roots.append({"players": players, "deck": deck, "companions": companions,
                      "seed": seed, "root": f"after {MIDGAME_AFTER[players]} random decisions",
                      "counts": perft(midgame(players, deck, companions, seed),
                                      MIDGAME_DEPTH)})
    games = [game(players, deck, companions, 8_000 + i, "random")
             for i, (players, deck, companions) in enumerate(CONFIGS)]
    games += [game(players, deck, companions, 9_000 + i, "greedy")
              for i, (players, deck, companions) in enumerate(BOT_GAMES)]
    return {"format": FORMAT, "version": VERSION, "encoding_version": ENCODING_VERSION,
            "perft": roots, "games": games}


def differences(want: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """What differs between two sets of goldens, one line per entry (empty: none)."""
    out = [f"{key}: {want.get(key)!r} pinned, {got.get(key)!r} now"
           for key in ("format", "version", "encoding_version") if want.get(key) != got.get(key)]
    for part in ("perft", "games"):
        pinned, now = want.get(part, []), got.get(part, [])
        if len(pinned) != len(now):
            out.append(f"{part}: {len(pinned)} entries pinned, {len(now)} now")
        for a, b in zip(pinned, now, strict=False):
            if a != b:
                changed = sorted(k for k in {*a, *b} if a.get(k) != b.get(k))
                where = {k: b.get(k) for k in ("players", "deck", "companions", "seed", "root",
                                                "bot") if k in b}
                out.append(f"{part} {where}: {', '.join(changed)} changed "
                           f"({ {k: a.get(k) for k in changed} } pinned, "
                           f"{ {k: b.get(k) for k in changed} } now)")
    return out


def dumps(goldens: dict[str, Any]) -> str:
    """The goldens as JSON with one entry a line (a regenerated file's diff shows which
    entries changed)."""
    head = ",\n".join(f" {json.dumps(k)}: {json.dumps(goldens[k])}"
                       for k in ("format", "version", "encoding_version"))
    parts = [",\n".join(f"  {json.dumps(entry)}" for entry in goldens[part])
             for part in ("perft", "games")]
    return (f"{{\n{head},\n \"perft\": [\n{parts[0]}\n ],\n"
            f" \"games\": [\n{parts[1]}\n ]\n}}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {FILE.name}")
    args = parser.parse_args()
    goldens = compute()
    if args.write:
        FILE.write_text(dumps(goldens), encoding="utf-8")
        print(f"wrote {FILE} ({flamecraft.core.FORM})", file=sys.stderr)
        return
    print(json.dumps({"form": flamecraft.core.FORM, "compiled": flamecraft.core.COMPILED,
                      "goldens": goldens}))


if __name__ == "__main__":
    main()
