"""A learned evaluation: what a position is worth to a seat, fitted to how self-play games
ended, instead of nine hand-set knobs.

``features(s, p)`` describes a position from p's side in a few dozen numbers: the terms of
the hand-written valuation for p (``evaluate.value_terms`` with the tuned weights), the
clock of the game, and what everybody sees of the others (their Reputation, Coins, Goods,
cards in hand). It reads p's own hidden cards and only the counts of everyone else's, so a
bot that uses it on its seat, or on a determinized sample of it, learns nothing it may not
know. ``ValueNet`` is a small multilayer perceptron over those numbers, evaluated with numpy
(players need nothing more), that predicts p's final margin — p's Reputation at the end minus
the best other seat's. It is trained by ``scripts/train_value.py`` on self-play positions
(``scikit-learn``, the ``learn`` extra) and kept as JSON with its provenance and the feature
layout it was trained on: a file whose layout does not match the code is refused by name.

The planner uses it as its leaf value (``planner:value=learned``): the same beam search over
its own turn, each end of turn valued by the net; ``ismcts`` takes the same options and
values its positions the same way. docs/bots.md, "The learned evaluation".
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.state import GameState
from .evaluate import TERMS, phase, public_value, turns_left, value_terms
from .weightsets import named

# The layout of ``features``; a model file names it and is refused when it differs.
FEATURE_VERSION = 1
PLAYER_COUNTS = (2, 3, 4, 5)
FEATURES: tuple[str, ...] = (
    *(f"own_{t}" for t in TERMS),
    "phase", "turns_left", "turn", "end_triggered", "final_turns", "my_turn",
    "margin", "own_public",
    "best_public", "mean_public", "best_rep", "mean_rep", "best_coins", "best_goods",
    "best_hand", "best_fancy",
    *(f"players_{n}" for n in PLAYER_COUNTS),
)
MODEL_FORMAT = "flamecraft-value-net"
DEFAULT_MODEL = "value_net.json"  # in flamecraft/data


@cache
def _tuned() -> Any:
    return named("tuned")


def features(s: GameState, p: int) -> list[float]:
    """p's position as ``FEATURES`` says, from what p may know (see the module docstring).
    (One pass over the other seats: the planner calls it at every end of turn it values.)"""
    terms = value_terms(s, p, _tuned())
    out = [terms[t] for t in TERMS]
    out += [phase(s, p), turns_left(s, p) / 10.0, s.turn / 50.0, float(s.end_triggered),
            max(0, s.final_turns) / 5.0, float(s.current == p and not s.over)]
    others = 0
    best_pub = sum_pub = best_rep = sum_rep = 0.0
    coins = goods = hand = fancy = 0
    for q in range(s.n):
        if q == p:
            continue
        pub, rep = public_value(s, q), float(s.rep[q])
        if others == 0:
            best_pub, best_rep = pub, rep
            coins, goods = s.coins[q], sum(s.goods[q])
            hand, fancy = len(s.hand[q]), len(s.fancy[q])
        else:
            best_pub, best_rep = max(best_pub, pub), max(best_rep, rep)
            coins, goods = max(coins, s.coins[q]), max(goods, sum(s.goods[q]))
            hand, fancy = max(hand, len(s.hand[q])), max(fancy, len(s.fancy[q]))
        sum_pub += pub
        sum_rep += rep
        others += 1
    mean_pub = sum_pub / others if others else 0.0
    mean_rep = sum_rep / others if others else 0.0
    out += [s.rep[p] - best_rep, public_value(s, p)]
    out += [best_pub, mean_pub, best_rep, mean_rep, float(coins), float(goods), float(hand),
            float(fancy)]
    out += [float(s.n == n) for n in PLAYER_COUNTS]
    return out


class ModelError(ValueError):
    """A model file that cannot be used: its one sentence says why."""


@dataclass
class ValueNet:
    """An MLP: inputs standardised (``mean``, ``scale``), ReLU hidden layers, one linear
    output (p's predicted final margin in Reputation)."""

    mean: Any  # numpy arrays
    scale: Any
    layers: list[tuple[Any, Any]]  # (weights [in, out], biases [out]) per layer
    about: dict[str, Any] = field(default_factory=dict)

    def value(self, s: GameState, p: int) -> float:
        """p's predicted final margin at ``s`` (the planner's leaf value)."""
        return float(self.predict([features(s, p)])[0])

    def predict(self, rows: Sequence[Sequence[float]]) -> Any:
        import numpy as np

        x = (np.asarray(rows, dtype=np.float64) - self.mean) / self.scale
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if k < last:
                np.maximum(x, 0.0, out=x)
        return x[:, 0]

    def to_json(self) -> dict[str, Any]:
        return {"format": MODEL_FORMAT, "feature_version": FEATURE_VERSION,
                "features": list(FEATURES), "about": self.about,
                "mean": self.mean.tolist(), "scale": self.scale.tolist(),
                "layers": [{"weights": w.tolist(), "biases": b.tolist()}
                           for w, b in self.layers]}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), separators=(",", ":")) + "\n")

    @staticmethod
    def from_json(obj: Any, where: str = "the model") -> ValueNet:
        """The model in ``obj``; ModelError naming what does not fit."""
        import numpy as np

        if not isinstance(obj, dict) or obj.get("format") != MODEL_FORMAT:
            raise ModelError(f"{where} is not a flamecraft value model (no "
                             f"\"format\": \"{MODEL_FORMAT}\")")
        if obj.get("feature_version") != FEATURE_VERSION or obj.get("features") != list(
                FEATURES):
            raise ModelError(
                f"{where} was trained on feature layout {obj.get('feature_version')!r}, and "
                f"this flamecraft computes layout {FEATURE_VERSION} ({len(FEATURES)} "
                "features): train it again with scripts/train_value.py")
        try:
            mean = np.asarray(obj["mean"], dtype=np.float64)
            scale = np.asarray(obj["scale"], dtype=np.float64)
            layers = [(np.asarray(layer["weights"], dtype=np.float64),
                       np.asarray(layer["biases"], dtype=np.float64))
                      for layer in obj["layers"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"{where} is damaged ({exc})") from None
        width = len(FEATURES)
        if mean.shape != (width,) or scale.shape != (width,) or not layers or (
                scale == 0).any():
            raise ModelError(f"{where} is damaged (its input is not {width} features)")
        for k, (w, b) in enumerate(layers):
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise ModelError(f"{where} is damaged (layer {k + 1} has the wrong shape)")
            width = w.shape[1]
        if width != 1:
            raise ModelError(f"{where} is damaged (its output is not one number)")
        about = obj.get("about", {})
        return ValueNet(mean, scale, layers, about if isinstance(about, dict) else {})

    @staticmethod
    def load(path: str | Path) -> ValueNet:
        try:
            text = Path(path).read_text()
        except OSError as exc:
            raise ModelError(f"cannot read the model {str(path)!r}: {exc.strerror}") from None
        try:
            obj = json.loads(text)
        except ValueError:
            raise ModelError(f"the model {str(path)!r} is not JSON (truncated?)") from None
        return ValueNet.from_json(obj, f"the model {str(path)!r}")


@cache
def shipped(name: str = DEFAULT_MODEL) -> ValueNet:
    """A model shipped in flamecraft/data (read once)."""
    source = resources.files("flamecraft.data").joinpath(name)
    try:
        text = source.read_text()
    except (FileNotFoundError, OSError):
        raise ModelError(f"no model {name!r} is shipped (flamecraft/data)") from None
    try:
        obj = json.loads(text)
    except ValueError:
        raise ModelError(f"the shipped model {name!r} is not JSON (truncated?)") from None
    return ValueNet.from_json(obj, f"the shipped model {name!r}")


def model_named(spec: str) -> ValueNet:
    """``learned`` (the shipped model) or a path to a model file."""
    if spec in ("learned", "default", DEFAULT_MODEL):
        return shipped()
    return ValueNet.load(spec)
