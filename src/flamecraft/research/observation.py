"""Research environments (the optional ``rl`` extra: numpy, PettingZoo, Gymnasium).

``flamecraft_v2`` is the PettingZoo AEC environment (``flamecraft_v2.env(players=3)``);
``gym_single`` wraps one seat of it as a Gymnasium environment against named bots. Nothing
here is imported by the core package, which installs without these libraries.
"""

from __future__ import annotations

import numpy as np

from ..core.state import GameState
from .encoding import observation_buffer

# The cut of a game that has not ended by itself (PettingZoo's and Gymnasium's truncation,
# OpenSpiel's maximum game length). The longest of 20,000 random games took 639 decisions
# (bench/game_lengths.py --games 500: 1–5 players, both decks, Companions on and off); the
# cut in decisions is about 5 times that. A cycle takes at least one decision of every seat,
# so 3,000 cycles never come before 3,000 decisions: by default the decisions decide.
DEFAULT_MAX_CYCLES = 3000
DEFAULT_MAX_DECISIONS = 3000


def check_limit(name: str, value: object) -> int:
    """``value`` if it is a positive whole number, else a ValueError that names ``name``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive whole number, not {value!r}")
    return value


def check_max_cycles(max_cycles: object) -> int:
    """``max_cycles`` if it is a positive whole number, else a ValueError that says so."""
    return check_limit("max_cycles", max_cycles)


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


class Cut:
    """When a game that has not ended by itself is cut: after ``max_cycles`` cycles or
    ``max_decisions`` decisions, whichever comes first.

    A cycle is PettingZoo's: every live agent acts once (in a game of regular turns, one step
    of each agent). Flamecraft's seats take several decisions in a row and may answer in
    another's turn, so a cycle here ends at the decision by which every seat has acted since
    the last cycle ended. ``max_decisions`` counts the decisions of all seats together (what
    ``max_cycles`` counted before; OpenSpiel's maximum game length): a backstop for a game
    in which one seat would decide forever."""

    def __init__(self, players: int, max_cycles: int, max_decisions: int):
        self.players = players
        self.max_cycles = check_limit("max_cycles", max_cycles)
        self.max_decisions = check_limit("max_decisions", max_decisions)
        self.reset()

    def reset(self) -> None:
        """A new game: nothing counted."""
        self.cycles = 0
        self.decisions = 0
        self._waiting = (1 << self.players) - 1  # the seats yet to act in this cycle

    def count(self, seat: int) -> None:
        """One decision taken by ``seat``."""
        self.decisions += 1
        self._waiting &= ~(1 << seat)
        if not self._waiting:
            self.cycles += 1
            self._waiting = (1 << self.players) - 1

    @property
    def reached(self) -> bool:
        return self.cycles >= self.max_cycles or self.decisions >= self.max_decisions

    def why(self) -> str:
        """Why the game was cut, in a few words (the Gymnasium ResetNeeded message)."""
        if self.cycles >= self.max_cycles:
            return f"the game was cut after {self.cycles} cycles (max_cycles)"
        return f"the game was cut after {self.decisions} decisions (max_decisions)"


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
