"""The inner loop of ``vector.FlamecraftBatch``: N games stepped in compiled code.

Why a module of its own, compiled with the encoding: stepping many games is a loop of small
calls per game (the move, the cut's count, the legal actions, the observation row, the mask
row, the copy of both into the arrays returned), and run by the interpreter the loop itself
cost about as much as the engine's move. Here it runs as C, writing each game's rows through
memoryviews of the batch's arrays; the Python side (``vector.FlamecraftBatch``) keeps the
numpy arrays, the deals and the rewards.

Nothing here imports numpy: the rows are memoryviews, which numpy arrays give without a copy.
"""

from __future__ import annotations

from typing import Any

from ..core.actions import Action
from ..core.engine import apply_in_place, to_act
from ..core.state import GameState
from .cut import Cut
from .encoding import ActionCatalogue, catalogue
from .rows import RowEncoder


class BatchRows:
    """The memory a ``BatchCore`` writes, as memoryviews (made by ``vector.FlamecraftBatch``
    over its numpy arrays, again after a copy).

    Two kinds: the rows the encoders keep (``seat_rows[i][seat]``: every seat's observation
    of game ``i``), which only the core writes; and the rows returned to the caller
    (``observations[i]``, ``masks[i]``, ``current[i]``, and ``flags``: ``flags[i]`` 1 when
    game ``i`` ended, ``flags[N + i]`` when it was cut), written whole at every step (the
    kept row copied, the mask cleared then its 1s set), so that a caller may write into what
    it was given (normalize in place) without changing a later observation."""

    def __init__(self, seat_rows: list[list[memoryview[float]]],
                 observations: list[memoryview[float]], masks: list[memoryview[int]],
                 current: memoryview[int], flags: memoryview[int]):
        self.seat_rows = seat_rows
        self.observations = observations
        self.masks = masks
        self.current = current
        self.flags = flags


class BatchCore:
    """Every game's state, legal actions, seat to act, cut and rows' encoders (one per seat:
    a game's row is the acting seat's observation).

    ``games[i]`` is None until ``deal`` gives game ``i`` its state. The memory written is a
    ``BatchRows``, given by ``bind`` before the first deal (and again after a copy)."""

    players: int
    catalogue: ActionCatalogue
    games: list[GameState | None]
    legal: list[dict[int, Action]]
    current: list[int]  # the seat to act in each game (the last to act once it ended)
    cuts: list[Cut]
    encoders: list[list[RowEncoder]]
    rows: BatchRows | None

    def __init__(self, players: int, num_envs: int, max_cycles: int, max_decisions: int):
        self.players = players
        self.catalogue = catalogue(players)
        self.games = [None] * num_envs
        self.legal = [{} for _ in range(num_envs)]
        self.current = [0] * num_envs
        self.cuts = [Cut(players, max_cycles, max_decisions) for _ in range(num_envs)]
        self.encoders = [[RowEncoder(players, p) for p in range(players)]
                         for _ in range(num_envs)]
        self.rows = None
        self._no_mask = bytes(self.catalogue.size)  # a mask row's zeros, copied to clear it
        self._whole = slice(None)  # a row's every value (made once, not at every copy)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Compiled by mypyc, the class is rebuilt from its parts (``_restored``); the copy's
        # encoders start afresh, writing their rows whole at their next write, and the
        # copy's memory is bound again by its owner.
        return (_restored, (self.players, self.games, self.legal, self.current, self.cuts))

    def bind(self, rows: BatchRows) -> None:
        """The memory to write from now on."""
        self.rows = rows

    def _memory(self) -> BatchRows:
        rows = self.rows
        if rows is None:
            raise RuntimeError("a BatchCore writes nothing before bind() gives it its rows")
        return rows

    def deal(self, i: int, s: GameState) -> None:
        """Game ``i`` is ``s``, a new game: nothing counted, its rows written whole (and
        copied into the returned rows), its flags cleared."""
        rows = self._memory()
        self.games[i] = s
        self.cuts[i].reset()
        for encoder in self.encoders[i]:
            encoder.forget()
        rows.flags[i] = 0
        rows.flags[len(self.games) + i] = 0
        self._after(i, s, False, rows)

    def first_illegal(self, picks: list[int], skip: list[int]) -> int:
        """The first game (not in ``skip``) whose pick is not one of its legal indices, or
        -1."""
        for i in range(len(picks)):
            if picks[i] not in self.legal[i] and i not in skip:
                return i
        return -1

    def step(self, picks: list[int], skip: list[int]) -> list[int]:
        """Plays ``picks[i]`` (legal: ``first_illegal``) in every game but those in
        ``skip`` (just dealt), writing its rows and its flags. Returns the games that ended
        or were cut."""
        rows = self._memory()
        flags = rows.flags
        n = len(picks)
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
            self._after(i, s, cut_now, rows)
        return done

    def _after(self, i: int, s: GameState, cut: bool, rows: BatchRows) -> None:
        """Game ``i``'s legal actions, seat to act and rows after a move (or its deal),
        copied into the returned rows; a game that ended or was cut has no legal action,
        and its row is its last actor's."""
        seat = to_act(s)
        if seat >= 0 and not cut:
            legal = self.catalogue.legal(s)
            self.current[i] = seat
        else:
            legal = {}
        k = self.current[i]
        seat_row = rows.seat_rows[i][k]
        self.encoders[i][k].write(seat_row, s)
        self.legal[i] = legal
        whole = self._whole
        rows.observations[i][whole] = seat_row
        mask = rows.masks[i]
        mask[whole] = self._no_mask  # a copy from zeros: about what setting the last 1s to 0 costs
        for index in legal:
            mask[index] = 1
        rows.current[i] = k


def _restored(players: int, games: list[GameState | None], legal: list[dict[int, Action]],
              current: list[int], cuts: list[Cut]) -> BatchCore:
    """A ``BatchCore`` as pickled (``BatchCore.__reduce__``)."""
    core = BatchCore(players, len(games), 1, 1)
    core.games, core.legal, core.current, core.cuts = games, legal, current, cuts
    return core
