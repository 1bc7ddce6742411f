"""Measure: how many decisions a person makes per turn, in each interface's choice model.

Why: issue 21 asks for half the decisions a turn (median 7 in the browser before). Whole
games are played with seat 0 a person who takes the hint's first choice (``ai/hints.py``,
from its own view only; a small budget, so a run takes minutes, not hours) against bots;
every decision that person is asked is counted, per turn:

- ``before``: the engine's raw decisions (every one asked, as the interfaces did);
- ``terminal`` / ``web``: the choices each interface lists (``session/compose.py``, through
  ``LocalTable.choices_now`` and ``wire.choices_json``): the composite that starts with the
  hint's action is taken (the first listed: its default where there are several, as the
  web's hint button plays and the terminal's hint shows it; a visit to an occupied Shop is
  so the visit with the default gifts, the plain visit being listed after it), and what
  the interface answers by itself is not counted; the end of turn's confirm is
  (``confirm`` column: how many of the counted decisions it is).

    PYTHONPATH=src python bench/decisions_per_turn.py --games 6 --players 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from flamecraft.ai.hints import Budget, hints
from flamecraft.ai.interface import Seat
from flamecraft.ai.roster import BOTS
from flamecraft.core.engine import apply_in_place, legal_actions, start, text, to_act
from flamecraft.core.state import GameState
from flamecraft.session.compose import Composite, choices

BUDGET = Budget(samples=4, beam=2, depth=6)
PERSON = 0

# One interface's list: the texts of its choices at a state, in its order (each a composite's
# stable text, or an engine action's).
Lister = Callable[[GameState], list[str]]


def _raw(s: GameState) -> list[str]:
    return [text(s, a) for a in legal_actions(s)]


def _terminal(s: GameState) -> list[str]:
    from flamecraft.terminal.local_table import listed_choices
    return [c.text for c in listed_choices(s)]


def _web(s: GameState) -> list[str]:
    from flamecraft.server.wire import choices_json
    return [c["text"] for c in choices_json(s)]


def play_game(game: int, players: int, lister: Lister | None, opponent: str
              ) -> list[tuple[int, int]]:
    """One game; per turn of the person: (decisions asked, of which confirms)."""
    s = start(players, 7000 + game)
    rng = random.Random(game)
    turns: dict[int, list[int]] = {}
    while not s.over:
        p = to_act(s)
        if p != PERSON:
            apply_in_place(s, BOTS[opponent](s, rng))
            continue
        turn = s.turn
        counted = turns.setdefault(turn, [0, 0])
        if lister is None:  # the raw engine: every decision asked
            legal = legal_actions(s)
            best = legal[0] if len(legal) == 1 else hints(Seat(s, p), rng, BUDGET)[0].action
            counted[0] += 1
            apply_in_place(s, best)
            continue
        listed = choices(s)
        shown = lister(s)
        assert shown == [c.text for c in listed], "an interface lists other choices"
        if len(listed) == 1 and not listed[0].confirm:  # answered by the interface
            _apply(s, listed[0])
            continue
        counted[0] += 1
        counted[1] += listed[0].confirm and len(listed) == 1
        best = hints(Seat(s, p), rng, BUDGET)[0].action
        pick = next(c for c in listed if c.first == best)
        counted[1] += pick.confirm and len(listed) > 1
        _apply(s, pick)
    return [(n, confirms) for n, confirms in turns.values()]


def _apply(s: GameState, c: Composite) -> None:
    for a in c.actions:
        apply_in_place(s, a)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--opponent", default="planner", choices=sorted(BOTS))
    args = parser.parse_args(argv)
    print(f"{args.games} games, {args.players} players, seat 1 takes the hint's first choice "
          f"against {args.opponent}")
    print("model     turns  median  range   mean  confirm")
    models: list[tuple[str, Lister | None]] = [("before", None), ("terminal", _terminal),
                                               ("web", _web)]
    for name, lister in models:
        t0 = time.perf_counter()
        per_turn = [one for g in range(args.games)
                    for one in play_game(g, args.players, lister, args.opponent)]
        counts = sorted(n for n, _ in per_turn)
        confirms = sum(c for _, c in per_turn)
        print(f"{name:8}  {len(counts):5}  {statistics.median(counts):6}  "
              f"{counts[0]}–{counts[-1]:<4}  {statistics.mean(counts):4.1f}  {confirms:7}"
              f"   ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
