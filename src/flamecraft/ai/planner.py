"""The planner bot: plans the rest of its own turn on determinized samples.

A turn is a chain of small decisions (visit → gather or enchant → which Good → place? → fire
up? → the ability's choices …), and a choice only shows its worth at the end of the chain: a
visit pays off in what is gathered there, a placement in the dragon it lets you fire up. So the
planner beam-searches whole action sequences of its current turn on a sample of the hidden
cards and values each sequence at the end of the turn (``evaluate.relative`` with the planner's
weights: Reputation, Goods toward the Enchantments and Fancy goals it aims for, dragons,
Coins, and the Shop it can gather from next). A first action is worth its best continuation;
the scores of a few samples are added, so a plan that needs a lucky draw is not trusted.

Choosing which Enchantment to aim for, which Fancy Dragons to chase, when to place and fire up
and when to pay to visit an occupied Shop all fall out of this: each is a decision in the
chain, and the end-of-turn valuation says which sequence leaves the best position.
"""

from __future__ import annotations

import random
from typing import Any, Final

from ..core.actions import Action
from ..core.engine import apply, legal_actions
from ..core.state import GameState
from .evaluate import Weights, relative, settle
from .interface import Seat, mine_this_turn, pick_best

PLANNER_WEIGHTS: Final = Weights()


class PlannerBot:
    """Beam search over the rest of its own turn (see the module docstring).

    ``beam`` paths survive each step (plus the best path of each first action, so every first
    choice is followed to the end of the turn); ``samples`` determinizations are searched;
    ``depth`` bounds the number of decisions looked ahead. ``value``: the learned evaluation
    to value each end of turn with (``learned``, the shipped model, or a model file's path:
    ``ai/learned.py``) instead of the valuation with ``weights``; with ``blend`` the two are
    added: the valuation plus ``blend`` times the model's prediction."""

    name = "planner"

    def __init__(self, beam: int = 5, samples: int = 2, depth: int = 12,
                 weights: Weights = PLANNER_WEIGHTS, value: str | None = None,
                 blend: float | None = None) -> None:
        self.beam = max(1, beam)
        self.samples = max(1, samples)
        self.depth = max(1, depth)
        self.weights = weights
        self.net: Any = None
        self.blend = None if blend is None else float(blend)
        if value is not None:
            from .learned import model_named

            self.net = model_named(str(value))

    def values(self, states: list[GameState], p: int) -> list[float]:
        """What each state is worth to p: the learned model's prediction, all at once, or
        the valuation's ``relative``."""
        if self.net is None:
            w = self.weights
            return [relative(u, p, w) for u in states]
        if not states:
            return []
        from .learned import features

        learned = self.net.predict([features(u, p) for u in states])
        if self.blend is None:
            return [float(v) for v in learned]
        w, b = self.weights, self.blend
        return [relative(u, p, w) + b * float(v) for u, v in zip(states, learned, strict=True)]

    def choose(self, seat: Seat, rng: random.Random) -> Action:
        actions = seat.legal_actions()
        if len(actions) == 1:
            return actions[0]
        scores = [0.0] * len(actions)
        for _ in range(self.samples):
            t = seat.sample(rng)
            for i, v in enumerate(self.plan(t, seat.seat, actions)):
                scores[i] += v
        return actions[pick_best(scores, rng)]

    def plan(self, t: GameState, p: int, actions: list[Action]) -> list[float]:
        """The best end-of-turn value reachable after each first action, on sample ``t``."""
        return [v for v, _end in self.plan_ends(t, p, actions)]

    def plan_ends(self, t: GameState, p: int, actions: list[Action]
                  ) -> list[tuple[float, GameState]]:
        """For each first action: the best end-of-turn value reachable after it on sample
        ``t``, and the state where that turn ends (or where the depth cut it off)."""
        return [(v, end) for v, end, _line in self.plan_lines(t, p, actions, False)]

    def plan_lines(self, t: GameState, p: int, actions: list[Action], lines: bool = True
                   ) -> list[tuple[float, GameState, tuple[Action, ...]]]:
        """As ``plan_ends``, with the line of each plan: the actions after the first one, in
        order (empty without ``lines``; hints show them)."""
        turn = t.turn
        none: tuple[Action, ...] = ()
        best: list[tuple[float, GameState, tuple[Action, ...]]] = [(-1e18, t, none)] * len(
            actions)
        frontier: list[tuple[float, int, GameState, tuple[Action, ...]]] = []
        firsts = [settle(apply(t, a), p) for a in actions]
        for i, (u, v) in enumerate(zip(firsts, self.values(firsts, p), strict=True)):
            if mine_this_turn(u, p, turn):
                frontier.append((v, i, u, none))
            else:
                best[i] = (v, u, none)
        for _ in range(self.depth):
            if not frontier:
                break
            frontier = self._prune(frontier)
            children: list[tuple[int, GameState, tuple[Action, ...]]] = []
            for _v, i, st, line in frontier:
                for a in legal_actions(st):
                    children.append((i, settle(apply(st, a), p),
                                     (*line, a) if lines else none))
            grown: list[tuple[float, int, GameState, tuple[Action, ...]]] = []
            values = self.values([u for _i, u, _l in children], p)
            for (i, u, longer), v in zip(children, values, strict=True):
                if mine_this_turn(u, p, turn):
                    grown.append((v, i, u, longer))
                elif v > best[i][0]:
                    best[i] = (v, u, longer)
            frontier = grown
        for v, i, st, line in frontier:  # cut off by the depth: value the position reached
            if v > best[i][0]:
                best[i] = (v, st, line)
        return best

    def _prune(self, frontier: list[tuple[float, int, GameState, tuple[Action, ...]]]
               ) -> list[tuple[float, int, GameState, tuple[Action, ...]]]:
        """The ``beam`` best paths, plus the best path of every first action."""
        frontier.sort(key=lambda x: -x[0])
        kept = frontier[:self.beam]
        seen = {i for _v, i, _s, _l in kept}
        for item in frontier[self.beam:]:
            if item[1] not in seen:
                seen.add(item[1])
                kept.append(item)
        return kept
