"""Saved games written under the decision points before ruling 20's, played on (issue 21).

Until then the engine took every decision with a single legal action by itself — a lone
`end turn`, a lone discard —, skipped a placement when nothing in the hand fitted, and
offered a met Sun Dragon's reveal beside any lone action, which made that action a choice.
A game saved then (records of versions 1–3, web games stored without ``rules``) lists the
choices made under those rules. ``upgrade`` replays such a list and writes it as today's
engine asks it (docs/state-format.md, "Saved before ruling 20"):

- a decision now asked alone (`end turn`, `do not place` …) is answered with its one action:
  the old engine took it, or skipped a decision whose one way through changes nothing;
- a recorded action that today's engine takes by itself (the lone action that stood beside a
  reveal) is dropped once the engine has taken it in that turn;
- a reveal made at such a point is made at the next decision of the same turn that offers
  it (every turn ends at `end turn`, which does), before the next recorded action.

A game whose turn no longer plays out the same (a goal broken before its reveal) is refused
by the first action that does not replay, in one sentence (``errors.action_error``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from . import actions as A
from .actions import Action, normalize
from .board import COMPANIONS
from .engine import apply_in_place, legal_actions, text
from .errors import (
    FlamecraftError,
    GameOverError,
    IllegalActionError,
    StateFormatError,
    action_error,
)
from .events import Event
from .frames import asked_alone
from .kinds import ACTION_KINDS
from .state import GameState
from .tr import N_

# The decision points a saved game was written under: 1 before ruling 20's, 2 since.
DECISION_RULES: Final = 2

_REVEAL: Final = normalize(ACTION_KINDS[A.REVEAL].text.split("{", 1)[0])


def _beside(action: Action) -> bool:
    """A reveal or a free Companion action: offered beside a decision, not its own."""
    return action[0] == A.REVEAL or (action[0] == A.USE_COMPANION
                                     and COMPANIONS[action[1]].hook == "free_action")


class _Replay:
    """The game being upgraded: its state, today's action texts so far, what the engine took
    by itself since the last recorded action, and reveals waiting for a decision."""

    def __init__(self, s: GameState) -> None:
        self.s = s.copy()
        self.out: list[str] = []
        self.taken: list[str] = []
        self.pending: list[tuple[int, str]] = []

    def take(self, action: Action, typed: str | None = None) -> None:
        """Applies ``action``: its recorded text ``typed`` is kept as it was written (in the
        record's card names); an action the record lacks is written in today's."""
        s = self.s
        turn = s.turn
        trace: list[Event] = []
        self.out.append(text(s, action) if typed is None else typed)
        apply_in_place(s, action, trace)
        if s.turn != turn:
            self.taken.clear()
        else:
            self.taken.extend(normalize(e.full) for e in trace if e.forced)

    def lone(self) -> Action | None:
        """The one action of a decision asked alone (beside the owner's reveals and free
        Companion action, which the old engine offered there too): a point it stood past."""
        s = self.s
        if s.over or not asked_alone(s, s.stack[-1]):
            return None
        own = [a for a in legal_actions(s) if not _beside(a)]
        return own[0] if len(own) == 1 else None

    def reveal_waiting(self, parse: Callable[[GameState, str], Action]) -> None:
        """Makes the waiting reveals that the decision at hand offers."""
        for item in list(self.pending):
            try:
                action = parse(self.s, item[1])
            except FlamecraftError:
                continue
            self.pending.remove(item)
            self.take(action, item[1])

    def turn_over_with_reveals(self, turn: int) -> StateFormatError | None:
        if self.pending and (self.s.turn != turn or self.s.over):
            number, typed = self.pending[0]
            return action_error(number, typed, IllegalActionError(
                N_("its Sun Dragon can no longer be revealed in that turn")))
        return None


def upgrade(s: GameState, texts: Sequence[str],
            parse: Callable[[GameState, str], Action]) -> list[str]:
    """Today's action texts for the game that ``texts`` played from ``s`` under the decision
    points before ruling 20 (``parse`` reads them: a record's reads its own card names).
    Raises StateFormatError naming the first action that does not replay."""
    game = _Replay(s)
    for number, typed in enumerate(texts, 1):
        turn = game.s.turn
        while True:
            game.reveal_waiting(parse)
            try:
                action = parse(game.s, typed)
            except GameOverError as over:  # (its own name: compiled, one name has one type)
                raise action_error(number, typed, over) from None
            except IllegalActionError as exc:
                lone = game.lone()
                if lone is not None:
                    game.take(lone)
                    failed = game.turn_over_with_reveals(turn)
                    if failed is not None:
                        raise failed from None
                    continue
                key = normalize(typed)
                if key in game.taken:  # the engine took it by itself today
                    game.taken.remove(key)
                    break
                if key.startswith(_REVEAL):  # offered then at a point no longer asked
                    game.pending.append((number, typed))
                    break
                raise action_error(number, typed, exc) from None
            game.take(action, typed)
            break
    # The old engine stood past the decisions now asked alone: so does the game.
    turn = game.s.turn
    game.reveal_waiting(parse)
    while (lone := game.lone()) is not None and len(legal_actions(game.s)) == 1:
        game.take(lone)
        failed = game.turn_over_with_reveals(turn)
        if failed is not None:
            raise failed
        game.reveal_waiting(parse)
    failed = game.turn_over_with_reveals(-1)  # a reveal still waiting is a reveal lost
    if failed is not None:
        raise failed
    return game.out
