"""The greedy bot: one step of look-ahead with the position valuation.

For each legal action it applies the action to a determinized sample and values the result
for its own seat (``evaluate.relative``: its value minus the others'). Decisions later in the
turn are not searched; the valuation credits what they are likely to give instead.
"""

from __future__ import annotations

import random

from ..core.actions import Action
from ..core.engine import apply
from .evaluate import DEFAULT, Weights, relative, settle
from .interface import Seat, pick_best


class GreedyBot:
    """Picks the action whose immediate result values best (averaged over ``samples``)."""

    name = "greedy"

    def __init__(self, samples: int = 1, weights: Weights = DEFAULT) -> None:
        self.samples = max(1, samples)
        self.weights = weights

    def choose(self, seat: Seat, rng: random.Random) -> Action:
        actions = seat.legal_actions()
        if len(actions) == 1:
            return actions[0]
        p = seat.seat
        scores = [0.0] * len(actions)
        for _ in range(self.samples):
            t = seat.sample(rng)
            for i, a in enumerate(actions):
                scores[i] += relative(settle(apply(t, a), p), p, self.weights)
        return actions[pick_best(scores, rng)]
