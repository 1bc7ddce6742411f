"""Named sets of the valuation's weights: the hand-set default and the ones tuned by self-play.

``evaluate.Weights`` has a few knobs (the worth of a Good, of a dragon in hand, …). Their
default values were set by hand; ``scripts/tune_weights.py`` tunes them by self-play (SPSA on
planner-against-planner games) and writes them, with the command that made them, the number
of games and the date, to ``data/weights.json``. A bot picks a set by name
(``planner:weights=tuned``) and may override single knobs inline (``planner:good=0.4``): the
tuning script plays its perturbed bots that way, so every game it played can be replayed with
``flamecraft tournament``.
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from importlib import resources
from typing import Any

from .evaluate import DEFAULT, Weights

WEIGHTS_FILE = "weights.json"
KNOBS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Weights))


@cache
def weight_file() -> dict[str, Any]:
    """The shipped file: per name, the weights and how they were made."""
    text = resources.files("flamecraft.data").joinpath(WEIGHTS_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def names() -> list[str]:
    """Every weight set a bot may be given by name."""
    return ["default", *weight_file()["sets"]]


def named(name: str) -> Weights:
    """The weight set called ``name`` ("default": the hand-set ``evaluate.DEFAULT``)."""
    key = name.strip().lower()
    if key == "default":
        return DEFAULT
    sets = weight_file()["sets"]
    if key not in sets:
        raise ValueError(f"unknown weights {name!r} (known: {', '.join(names())})")
    return with_knobs(DEFAULT, sets[key]["weights"])


def with_knobs(base: Weights, knobs: dict[str, Any]) -> Weights:
    """``base`` with some knobs replaced; an unknown knob or a value that is not a number is
    an error naming it."""
    for key, val in knobs.items():
        if key not in KNOBS:
            raise ValueError(f"unknown weight {key!r} (known: {', '.join(KNOBS)})")
        if isinstance(val, bool) or not isinstance(val, (int, float)):
            raise ValueError(f"weight {key} must be a number, not {val!r}")
    return dataclasses.replace(base, **{k: float(v) for k, v in knobs.items()})


def resolve(options: dict[str, Any]) -> dict[str, Any]:
    """A bot's options with ``weights=NAME`` and any single knobs (``good=0.4``) folded into
    one ``Weights``; options without either are returned as they are."""
    knobs = {k: v for k, v in options.items() if k in KNOBS}
    base = options.get("weights")
    if not knobs and not isinstance(base, str):
        return options
    rest = {k: v for k, v in options.items() if k not in KNOBS and k != "weights"}
    if base is None:
        weights = DEFAULT
    elif isinstance(base, str):
        weights = named(base)
    elif isinstance(base, Weights):
        weights = base
    else:
        raise ValueError(f"weights must be a name ({', '.join(names())}), not {base!r}")
    return {**rest, "weights": with_knobs(weights, knobs)}
