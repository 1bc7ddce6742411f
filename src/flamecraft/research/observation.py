"""Research environments (the optional ``rl`` extra: numpy, PettingZoo, Gymnasium).

``flamecraft_v2`` is the PettingZoo AEC environment (``flamecraft_v2.env(players=3)``);
``gym_single`` wraps one seat of it as a Gymnasium environment against named bots. Nothing
here is imported by the core package, which installs without these libraries.
"""

from __future__ import annotations

import numpy as np

from ..core.state import GameState
from .cut import Cut
from .encoding import observation_buffer


class CutGame:
    """What an environment playing one game at a time, cut by ``Cut``, says of it — the
    same for PettingZoo's env and Gymnasium's (each sets ``cut`` and ``state_``)."""

    cut: Cut
    state_: GameState | None

    @property
    def decisions(self) -> int:
        """Decisions taken in this game, by every seat together (the learner's and the
        bots' in Gymnasium's env)."""
        return self.cut.decisions

    @property
    def cycles(self) -> int:
        """Cycles completed in this game (every seat acted once; ``Cut``)."""
        return self.cut.cycles

    @property
    def game(self) -> GameState:
        """The engine state (for tests, bots and debugging: it holds every hidden card)."""
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_


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
