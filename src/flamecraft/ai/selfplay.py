"""The self-play games the learned evaluation is trained on (``scripts/train_value.py``).

In the package rather than the script so that the processes that play them can import them:
local worker processes and Ray's workers alike (a Ray worker cannot import a script). One
game is a job ``(seed, generation, index, model)``; its seats, players and deal come from
those alone, so a generation replays game for game wherever it is played.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from ..core.engine import apply_in_place, start, to_act
from . import make_play_bot, parse_bot_spec
from .interface import Seat
from .learned import features
from .roster import LEVEL_OF

PLAYER_MIX = ((2, 0.7), (3, 0.1), (4, 0.2))  # players per game, and how often
EXPERT_BLEND = LEVEL_OF["expert"].options["blend"]  # generations k > 0 play the Expert's form


def bots_for(generation: int, model: str | None, players: int,
             rng: random.Random) -> list[str]:
    """The seats' bot specs of one game (see the module docstring)."""
    out = []
    for _ in range(players):
        r = rng.random()
        if generation > 0 and model is not None and r < 0.6:
            out.append(f"planner:weights=tuned:value={model}:blend={EXPERT_BLEND}")
        elif r < 0.85:
            out.append("planner:weights=tuned")
        elif r < 0.95:
            out.append("planner")
        else:
            out.append("greedy")
    return out


def played_by(model: str | None) -> str:
    """Who plays a generation's games, in words (the trained model's provenance)."""
    others = "(some seats the hand-set planner, greedy)"
    if model is None:
        return f"tuned planner {others}"
    return (f"planner:weights=tuned:value={Path(model).stem}:blend={EXPERT_BLEND} with the "
            f"tuned planner {others}")


def play(job: tuple[int, int, int, str | None]) -> dict[str, Any]:
    """One self-play game: its positions (every seat's features at the end of every turn)
    and every seat's final margin."""
    seed, generation, index, model = job
    rng = random.Random(f"{seed}/{generation}/{index}")
    r, players = rng.random(), 2
    for n, share in PLAYER_MIX:
        if r < share:
            players = n
            break
        r -= share
    specs = bots_for(generation, model, players, rng)
    bots = []
    for spec in specs:
        name, options = parse_bot_spec(spec)
        bots.append(make_play_bot(name, **options))
    game_seed = rng.getrandbits(63)
    s = start(players, game_seed)
    rows: list[tuple[int, list[float]]] = []  # (seat, features)
    current = s.current
    while not s.over:
        p = to_act(s)
        apply_in_place(s, bots[p].choose(Seat(s, p), rng))
        if s.current != current or s.over:
            current = s.current
            rows.extend((q, features(s, q)) for q in range(players))
    margin = [s.rep[q] - max(s.rep[o] for o in range(players) if o != q)
              for q in range(players)]
    return {"seed": game_seed, "generation": generation, "index": index, "bots": specs,
            "players": players, "rep": list(s.rep),
            "x": [f for _q, f in rows], "y": [margin[q] for q, _f in rows]}
