"""Research environments (the optional ``rl`` extra: numpy, PettingZoo, Gymnasium).

``flamecraft_v1`` is the PettingZoo AEC environment (``flamecraft_v1.env(players=3)``);
``gym_single`` wraps one seat of it as a Gymnasium environment against named bots. Nothing
here is imported by the core package, which installs without these libraries.
"""

from __future__ import annotations

import numpy as np

from ..core.state import GameState
from .encoding import observation_buffer

# The cut of a game that has not ended by itself (PettingZoo's and Gymnasium's
# ``max_cycles``, in decisions of all seats). The longest of 20,000 random games took 639
# decisions (bench/game_lengths.py --games 500: 1–5 players, both decks, Companions on and
# off); the cut is about 5 times that, and the same as OpenSpiel's maximum game length.
DEFAULT_MAX_CYCLES = 3000


def check_max_cycles(max_cycles: object) -> int:
    """``max_cycles`` if it is a positive whole number, else a ValueError that says so."""
    if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1:
        raise ValueError(f"max_cycles must be a positive whole number, not {max_cycles!r}")
    return max_cycles


def observation_array(s: GameState, seat: int | None,
                      out: np.ndarray | None = None) -> np.ndarray:
    """``encoding.observation`` as a float32 array (cast from the buffer of doubles that
    ``observation_buffer`` fills, without an intermediate list); written into ``out`` when
    given."""
    doubles = np.frombuffer(observation_buffer(s, seat), np.float64)
    if out is None:
        return doubles.astype(np.float32)
    out[...] = doubles
    return out
