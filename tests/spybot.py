"""A bot that looks for the true state by any means (for tests/test_bots.py).

It is a module of its own so that a bot process (a fresh interpreter) can import it by name.
On every decision it walks every object its process holds (``gc``), and writes what it
found of every game state there to ``path``: each state's Artisan deck, in order, and the
hands. Then it plays the first legal action.
"""

from __future__ import annotations

import gc
import json
import random
from typing import Any

from flamecraft import GameState
from flamecraft.core.actions import Action


class GcSpy:
    """Reports every GameState its process holds; plays the first legal action."""

    name = "gc-spy"

    def __init__(self, path: str) -> None:
        self.path = path

    def choose(self, seat: Any, rng: random.Random) -> Action:
        found = [{"deck": list(o.artisan_deck), "hands": [list(h) for h in o.hand]}
                 for o in gc.get_objects() if isinstance(o, GameState)]
        with open(self.path, "w", encoding="utf-8") as out:
            json.dump(found, out)
        actions: list[Action] = seat.legal_actions()
        return actions[0]
