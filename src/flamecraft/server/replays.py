"""The replay of finished games without every state kept: a state every ``replay_every``
steps (checkpoints), the steps between replayed from the one before when asked for, and
the checkpoints of all games in a cache bounded in bytes (``replay_cache_bytes``, the least
recently used dropped first).

Before (issue 24), the first ``/replay/k`` of a game kept all its states (1.6-2.0 MB for a
game of 3), on the loaded game, until 1,000 games were loaded: 599 requests took the server
from 140 MB to 1.45 GB. A replay's entry here is built once on the load lane's thread
(``loads.py``), shared by every asker meanwhile, and weighs its checkpoints, its log and the
rest, measured (``deep_size``) when it is built.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.engine import apply
from ..core.errors import FlamecraftError
from ..core.events import Event
from ..core.serialize import GameRecord, action_error
from ..core.state import GameState
from ..core.tr import N_
from ..session.history import History
from .gameerror import GameError
from .store import ActionRow, GameRow

log = logging.getLogger("flamecraft.server")


def deep_size(obj: Any, shared: set[int] | None = None) -> int:
    """The bytes of ``obj`` and everything it holds (``sys.getsizeof`` over the objects the
    garbage collector sees it refer to, each once), leaving out classes, modules, functions
    and the ids in ``shared`` (what every entry shares: the card catalogue's objects)."""
    seen: set[int] = set() if shared is None else set(shared)
    stack = [obj]
    total = 0
    while stack:
        o = stack.pop()
        if id(o) in seen or isinstance(o, (type, type(sys), type(deep_size))):
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        stack.extend(gc.get_referents(o))
    return total


@dataclass
class Replay:
    """What the replay of one finished game needs: the state every ``every`` steps, each
    step's turn, the event log and where each step ends in it, who acted at each step, and
    the record that reads the steps between two checkpoints. ``size``: its bytes."""

    game_id: str
    version: int
    every: int
    checkpoints: list[GameState]
    turns: list[int]
    log: list[Event]
    log_ends: list[int]
    actors: list[int]
    texts: list[str]
    record: GameRecord
    size: int = 0

    @property
    def steps(self) -> int:
        return len(self.texts)

    def state_at(self, step: int) -> GameState:
        """The state after ``step`` actions: the checkpoint before it, then the steps
        between replayed (fewer than ``every``)."""
        k = step // self.every
        s = self.checkpoints[k]
        for typed in self.texts[k * self.every:step]:
            s = apply(s, self.record.parse(s, typed))
        return s

    def turn_steps(self) -> list[int]:
        """The steps at which a turn begins (nothing of it done yet): to jump by turn."""
        return [k for k in range(len(self.turns))
                if k == 0 or self.turns[k] != self.turns[k - 1]]


def build_replay(row: GameRow, actions: Sequence[ActionRow], record: GameRecord,
                 every: int) -> Replay:
    """A finished game's replay entry, by one pass over its record (on the load thread)."""
    history = History(record.first_state())
    checkpoints, turns = [history.state], [history.state.turn]
    for number, action in enumerate(actions, 1):
        try:
            history.play(record.parse(history.state, action.text))
        except FlamecraftError as exc:
            log.error("game %s: %s", row.id, action_error(number, action.text, exc))
            raise GameError("broken", N_("game {game}: stored action {number} no longer "
                                         "replays with this server's card data"), 500,
                            game=row.id, number=number) from None
        if number % every == 0:
            checkpoints.append(history.state)
        turns.append(history.state.turn)
    replay = Replay(row.id, row.version, every, checkpoints, turns, history.log,
                    history.log_ends, [a.seat for a in actions], [a.text for a in actions],
                    record)
    replay.size = deep_size((checkpoints, turns, history.log, history.log_ends,
                             replay.actors, replay.texts), _shared())
    return replay


_SHARED: set[int] | None = None


def _shared() -> set[int]:
    """The ids of the objects every game's states and events refer to (the cards, the
    board's catalogue): not counted in each entry's size."""
    global _SHARED
    if _SHARED is None:
        from ..core import board

        seen: set[int] = set()
        stack: list[Any] = [vars(board)]
        while stack:
            o = stack.pop()
            if id(o) in seen or isinstance(o, (type, type(sys), type(deep_size))):
                continue
            seen.add(id(o))
            stack.extend(gc.get_referents(o))
        _SHARED = seen
    return _SHARED


class ReplayCache:
    """The replay entries of finished games, at most ``limit`` bytes of them (LRU); an entry
    larger than that alone is used once and not kept."""

    def __init__(self, limit: int, every: int):
        self.limit, self.every = limit, max(1, every)
        self.entries: OrderedDict[str, Replay] = OrderedDict()
        self.bytes = 0
        self.building: dict[str, asyncio.Future[Replay]] = {}
        self.built = 0  # entries built by this process (each a replay of a whole game)

    async def get(self, game_id: str, version: int,
                  build: Callable[[int], Awaitable[Replay]]) -> Replay:
        """The entry of ``game_id`` at ``version``: kept, being built (shared), or built now
        by ``build(every)``."""
        entry = self.entries.get(game_id)
        if entry is not None and entry.version == version:
            self.entries.move_to_end(game_id)
            return entry
        job = self.building.get(game_id)
        if job is None:
            job = self.building[game_id] = asyncio.ensure_future(self._build(game_id, build))
        return await asyncio.shield(job)

    async def _build(self, game_id: str, build: Callable[[int], Awaitable[Replay]]) -> Replay:
        try:
            entry = await build(self.every)
            self.built += 1
            self._keep(entry)
            return entry
        finally:
            del self.building[game_id]

    def _keep(self, entry: Replay) -> None:
        old = self.entries.pop(entry.game_id, None)
        if old is not None:
            self.bytes -= old.size
        if entry.size > self.limit:
            return
        self.entries[entry.game_id] = entry
        self.bytes += entry.size
        while self.bytes > self.limit:
            _, dropped = self.entries.popitem(last=False)
            self.bytes -= dropped.size
