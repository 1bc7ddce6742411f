"""The inner loop of ``vector.FlamecraftBatch``: N games stepped in compiled code.

Why a module of its own, compiled with the encoding: stepping many games is a loop of small
calls per game (the move, the cut's count, the legal actions, the observation row, the mask
row), and run by the interpreter the loop itself cost about as much as the engine's move.
Here it runs as C, writing each game's rows through memoryviews of the batch's arrays; the
Python side (``vector.FlamecraftBatch``) keeps the numpy arrays, the deals and the rewards.

Nothing here imports numpy: the rows are memoryviews and the mask rows one ``bytearray``,
which numpy sees without a copy.
"""

from __future__ import annotations

from typing import Any

from ..core.actions import Action
from ..core.engine import apply_in_place, to_act
from ..core.state import GameState
from .cut import Cut
from .encoding import ActionCatalogue, catalogue
from .rows import RowEncoder


class BatchCore:
    """Every game's state, legal actions, seat to act, cut and rows' encoders (one per seat:
    a game's row is the acting seat's observation).

    ``games[i]`` is None until ``deal`` gives game ``i`` its state. Rows: ``views[i][seat]``
    is seat ``seat``'s float32 row of game ``i``; ``masks`` holds every game's mask row, game
    ``i``'s at ``i * catalogue.size``, with 1s at the indices of ``legal[i]``."""

    players: int
    catalogue: ActionCatalogue
    games: list[GameState | None]
    legal: list[dict[int, Action]]
    current: list[int]  # the seat to act in each game (the last to act once it ended)
    cuts: list[Cut]
    encoders: list[list[RowEncoder]]

    def __init__(self, players: int, num_envs: int, max_cycles: int, max_decisions: int):
        self.players = players
        self.catalogue = catalogue(players)
        self.games = [None] * num_envs
        self.legal = [{} for _ in range(num_envs)]
        self.current = [0] * num_envs
        self.cuts = [Cut(players, max_cycles, max_decisions) for _ in range(num_envs)]
        self.encoders = [[RowEncoder(players, p) for p in range(players)]
                         for _ in range(num_envs)]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Compiled by mypyc, the class is rebuilt from its parts (``_restored``); the copy's
        # encoders start afresh, writing their rows whole at their next write.
        return (_restored, (self.players, self.games, self.legal, self.current, self.cuts))

    def deal(self, i: int, s: GameState, views: list[memoryview[float]],
             masks: bytearray) -> None:
        """Game ``i`` is ``s``, a new game: nothing counted, its rows written whole."""
        self.games[i] = s
        self.cuts[i].reset()
        for encoder in self.encoders[i]:
            encoder.forget()
        self._after(i, s, False, views, masks)

    def first_illegal(self, picks: list[int], skip: list[int]) -> int:
        """The first game (not in ``skip``) whose pick is not one of its legal indices, or
        -1."""
        for i in range(len(picks)):
            if picks[i] not in self.legal[i] and i not in skip:
                return i
        return -1

    def step(self, picks: list[int], skip: list[int], views: list[list[memoryview[float]]],
             masks: bytearray, flags: bytearray) -> list[int]:
        """Plays ``picks[i]`` (legal: ``first_illegal``) in every game but those in
        ``skip`` (just dealt), writing its rows, and its flags: ``flags[i]`` 1 when it ended,
        ``flags[N + i]`` 1 when it was cut (the skipped games' flags are cleared). Returns
        the games that ended or were cut."""
        n = len(picks)
        for i in skip:
            flags[i] = 0
            flags[n + i] = 0
        done: list[int] = []
        for i in range(n):
            if skip and i in skip:
                continue
            s = self.games[i]
            assert s is not None
            apply_in_place(s, self.legal[i][picks[i]])
            cut = self.cuts[i]
            cut.count(self.current[i])
            cut_now = False
            if s.over:
                flags[i] = 1
                done.append(i)
            elif cut.reached:  # a cut game has no reward
                flags[n + i] = 1
                done.append(i)
                cut_now = True
            self._after(i, s, cut_now, views[i], masks)
        return done

    def _after(self, i: int, s: GameState, cut: bool, views: list[memoryview[float]],
               masks: bytearray) -> None:
        """Game ``i``'s legal actions, seat to act and rows after a move (or its deal); a
        game that ended or was cut has no legal action, and its row is its last actor's."""
        seat = to_act(s)
        if seat >= 0 and not cut:
            legal = self.catalogue.legal(s)
            self.current[i] = seat
        else:
            legal = {}
        k = self.current[i]
        self.encoders[i][k].write(views[k], s)
        base = i * self.catalogue.size
        for index in self.legal[i]:  # the mask row holds the last legal actions' 1s
            masks[base + index] = 0
        for index in legal:
            masks[base + index] = 1
        self.legal[i] = legal


def _restored(players: int, games: list[GameState | None], legal: list[dict[int, Action]],
              current: list[int], cuts: list[Cut]) -> BatchCore:
    """A ``BatchCore`` as pickled (``BatchCore.__reduce__``)."""
    core = BatchCore(players, len(games), 1, 1)
    core.games, core.legal, core.current, core.cuts = games, legal, current, cuts
    return core
