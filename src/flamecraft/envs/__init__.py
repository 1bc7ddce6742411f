"""Research environments (the optional ``rl`` extra: numpy, PettingZoo, Gymnasium).

``flamecraft_v0`` is the PettingZoo AEC environment (``flamecraft_v0.env(players=3)``);
``gym_single`` wraps one seat of it as a Gymnasium environment against named bots. Nothing
here is imported by the core package, which installs without these libraries.
"""

from __future__ import annotations

import numpy as np

from ..core.state import GameState
from ..encoding import layout, observation_sparse


def observation_array(s: GameState, seat: int | None,
                      out: np.ndarray | None = None) -> np.ndarray:
    """``encoding.observation`` as a float32 array (filled from the sparse form: faster);
    written into ``out`` when given."""
    if out is None:
        out = np.zeros(layout(s.n).size, np.float32)
    else:
        out.fill(0.0)
    entries = observation_sparse(s, seat)
    out[list(entries)] = list(entries.values())
    return out
