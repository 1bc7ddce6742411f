"""When a game that has not ended by itself is cut (PettingZoo's and Gymnasium's truncation,
OpenSpiel's maximum game length), for every environment alike. Compiled with the encoding:
the vector environments count every decision of every game with it.
"""

from __future__ import annotations

from typing import Any, Final

# The cut of a game that has not ended by itself (PettingZoo's and Gymnasium's truncation,
# OpenSpiel's maximum game length). The longest of 20,000 random games took 639 decisions
# (bench/game_lengths.py --games 500: 1–5 players, both decks, Companions on and off); the
# cut in decisions is about 5 times that. A cycle takes at least one decision of every seat,
# so 3,000 cycles never come before 3,000 decisions: by default the decisions decide.
DEFAULT_MAX_CYCLES: Final = 3000
DEFAULT_MAX_DECISIONS: Final = 3000


def check_limit(name: str, value: object) -> int:
    """``value`` if it is a positive whole number, else a ValueError that names ``name``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive whole number, not {value!r}")
    return value


def check_max_cycles(max_cycles: object) -> int:
    """``max_cycles`` if it is a positive whole number, else a ValueError that says so."""
    return check_limit("max_cycles", max_cycles)


class Cut:
    """When a game that has not ended by itself is cut: after ``max_cycles`` cycles or
    ``max_decisions`` decisions, whichever comes first.

    A cycle is PettingZoo's: every live agent acts once (in a game of regular turns, one step
    of each agent). Flamecraft's seats take several decisions in a row and may answer in
    another's turn, so a cycle here ends at the decision by which every seat has acted since
    the last cycle ended. ``max_decisions`` counts the decisions of all seats together (what
    ``max_cycles`` counted before; OpenSpiel's maximum game length): a backstop for a game
    in which one seat would decide forever."""

    def __init__(self, players: int, max_cycles: object, max_decisions: object):
        # The limits are checked here (``object``: compiled, an annotation of ``int`` would
        # refuse a float with a TypeError before the check could name the limit).
        self.players = players
        self.max_cycles = check_limit("max_cycles", max_cycles)
        self.max_decisions = check_limit("max_decisions", max_decisions)
        self.reset()

    def __reduce__(self) -> tuple[Any, tuple[int, int, int, int, int, int]]:
        # Compiled by mypyc, the class is rebuilt from its constructor's arguments and counts.
        return (_restored, (self.players, self.max_cycles, self.max_decisions, self.cycles,
                            self.decisions, self._waiting))

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


def _restored(players: int, max_cycles: int, max_decisions: int, cycles: int, decisions: int,
              waiting: int) -> Cut:
    """A ``Cut`` as pickled (``Cut.__reduce__``)."""
    cut = Cut(players, max_cycles, max_decisions)
    cut.cycles, cut.decisions, cut._waiting = cycles, decisions, waiting
    return cut
