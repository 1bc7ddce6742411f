"""Win chances: the valuation turned into a probability of winning, fitted to bot games.

The valuation (``evaluate.value``) says what a position is worth in Reputation, not how
likely it is to win: a 5-point lead means little with twenty rounds to go and nearly
everything in the last one. So the chance that seat p wins a position s is a conditional
logit over the seats (it sums to 1 by construction and, at two players, is the logistic
model of the value difference):

    P(p wins | s) = exp(u_p) / sum_q exp(u_q)
    u_q = v_q * (a + b / sqrt(1 + R) + c / (1 + R)) + d * (t_q - mean t) + [q to act] * (e * g + f)

with v_q = ``value(s, q)`` without the turn in progress, R the rounds left (the mean of
``turns_left`` over the seats: an estimate before the end is triggered, exact after), t_q the
turns seat q has left (its tempo: after the end is triggered, who still plays matters), and,
for the seat to act only, g what the rest of its turn is likely to give (the valuation's
``pending`` term, kept apart: it is a turn the others have already played). The
coefficients (a … f), one set per player count, are fitted by maximum likelihood to the
positions at the start of every turn of recorded bot games (``scripts/winchance_fit.py``) and
shipped in ``data/winchance.json`` with the command, the data size and the held-out Brier
score.

``chances(s)`` reads the whole state: every seat's hidden cards. It is for a finished game's
review, or for a *sample* of the hidden cards (``Seat.sample``): a seat's own win chance is
the mean over samples (``hints.py``), never the chance on the true state.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ..core.engine import to_act, winners
from ..core.state import GameState
from .evaluate import turns_left, value, value_terms

MODEL_FILE = "winchance.json"


def rounds_left(s: GameState) -> float:
    """R of the model: the mean number of turns the seats have left."""
    return sum(turns_left(s, q) for q in range(s.n)) / s.n


NUM_FEATURES = 6


def features(s: GameState, rounds_max: float = math.inf) -> list[list[float]]:
    """Per seat, the model's inputs: v, v/sqrt(1+R), v/(1+R), the relative tempo, and for
    the seat to act its pending turn and 1 (0 and 0 for the others). R is capped at
    ``rounds_max`` (the most the fitted games saw: the model is not extrapolated)."""
    r = min(rounds_left(s), rounds_max)
    tl = [turns_left(s, q) for q in range(s.n)]
    mean_tl = sum(tl) / s.n
    a, b = 1.0 / math.sqrt(1.0 + r), 1.0 / (1.0 + r)
    acting = to_act(s)
    out = []
    for q in range(s.n):
        if q == acting:
            terms = value_terms(s, q)
            pending = terms["pending"]
            v = sum(terms.values()) - pending
            out.append([v, v * a, v * b, tl[q] - mean_tl, pending, 1.0])
        else:
            v = value(s, q)
            out.append([v, v * a, v * b, tl[q] - mean_tl, 0.0, 0.0])
    return out


def softmax(utilities: list[float]) -> list[float]:
    top = max(utilities)
    e = [math.exp(u - top) for u in utilities]
    total = sum(e)
    return [x / total for x in e]


@dataclass(frozen=True)
class WinModel:
    """Fitted coefficients by player count, and what the file says about them."""

    coefficients: dict[int, tuple[float, ...]]
    meta: dict[str, Any] = field(default_factory=dict)
    rounds_max: dict[int, float] = field(default_factory=dict)  # the largest R fitted

    def coefficients_for(self, n: int) -> tuple[float, ...]:
        """The set for n players, or for the nearest fitted player count (5 players use the
        4-player set when no 5-player games were fitted)."""
        if n in self.coefficients:
            return self.coefficients[n]
        nearest = min(self.coefficients, key=lambda k: (abs(k - n), -k))
        return self.coefficients[nearest]

    def chances(self, s: GameState) -> list[float] | None:
        """Each seat's chance to win from the full state ``s`` (None in a solo game, which
        has no winner to predict). A finished game gives its result (a shared win shared)."""
        n = s.n
        if n < 2:
            return None
        if s.over:
            won = winners(s)
            return [1.0 / len(won) if p in won else 0.0 for p in range(n)]
        coef = self.coefficients_for(n)
        cap = self.rounds_max.get(n, max(self.rounds_max.values(), default=math.inf))
        utilities = [sum(c * x for c, x in zip(coef, row, strict=True))
                     for row in features(s, cap)]
        return softmax(utilities)


def from_json(obj: Any) -> WinModel:
    """A model from the JSON of ``data/winchance.json`` (ValueError if malformed)."""
    try:
        players = obj["players"]
        coefficients = {int(n): tuple(float(c) for c in entry["coefficients"])
                        for n, entry in players.items()}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"not a win-chance model: {exc!r}") from None
    if not coefficients or any(len(c) != NUM_FEATURES or not all(map(math.isfinite, c))
                               for c in coefficients.values()):
        raise ValueError(f"a win-chance model needs {NUM_FEATURES} finite coefficients per "
                         "player count")
    rounds_max = {int(n): float(entry["rounds_max"]) for n, entry in players.items()
                  if isinstance(entry.get("rounds_max"), (int, float))}
    return WinModel(coefficients, {k: v for k, v in obj.items() if k != "players"}
                    | {"players": players}, rounds_max)


@cache
def default_model() -> WinModel:
    """The shipped model (``flamecraft/data/winchance.json``), loaded once."""
    text = resources.files("flamecraft").joinpath("data", MODEL_FILE).read_text("utf-8")
    return from_json(json.loads(text))
