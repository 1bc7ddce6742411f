"""Where the server's bots think: lanes, so that no game's bots can starve another's.

A search bot (``ismcts``, ``planner``) thinks for up to a second or more per decision; a
``greedy`` bot for a millisecond or two. When all bots shared two threads, four games of
search bots kept a greedy bot in an unrelated game waiting 3 s for its turn to think. So:

* ``random`` answers inline (no hop at all);
* other quick bots think on a thread pool of their own (``bot_threads``), never queued
  behind a search;
* search bots think in worker processes (``bot_processes``; 0 runs them on a thread pool
  of their own instead), so they neither hold the server's interpreter lock nor wait behind
  each other unfairly: a game has at most one decision in the lane at a time, and the lane
  is first come first served, which makes it round-robin across games. A search bot's own
  budget (``ismcts``: one second a decision) is its CPU budget per move.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from ..ai.roster import BOTS
from ..core.actions import Action
from ..core.state import GameState
from .settings import Settings

T = TypeVar("T")

QUICK_BOTS = frozenset({"random"})  # bots that answer at once: run without a thread hop

_locks: dict[str, threading.Lock] = {}


def think(name: str, s: GameState, rng: random.Random) -> Action:
    """One decision of bot ``name`` (in a worker thread or process). One move at a time per
    bot name in a process: a bot object may keep state between moves."""
    lock = _locks.setdefault(name, threading.Lock())
    with lock:
        return BOTS[name](s, rng)


def _warm() -> None:
    """A new worker process: imports the bots before its first decision is asked for."""
    import flamecraft.ai.roster  # noqa: F401


class BotLanes:
    """The lanes of one server process (see the module docstring)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.quick = ThreadPoolExecutor(max(1, settings.bot_threads),
                                        thread_name_prefix="flamecraft-bot")
        self._search: Executor | None = None  # made on first use (a process takes a second)
        self._in_lane: dict[str, asyncio.Future[Action]] = {}

    def lane_of(self, name: str) -> str:
        """"inline", "quick" or "search"."""
        if name in QUICK_BOTS:
            return "inline"
        return "search" if name in self.settings.search_bots else "quick"

    def _search_pool(self) -> Executor:
        if self._search is None:
            workers = self.settings.bot_processes
            if workers > 0:
                self._search = ProcessPoolExecutor(
                    workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_warm)
            else:
                self._search = ThreadPoolExecutor(max(1, self.settings.bot_threads),
                                                  thread_name_prefix="flamecraft-search")
        return self._search

    async def decide(self, game_id: str, name: str, s: GameState,
                     rng: random.Random) -> Action:
        """Bot ``name``'s decision in state ``s`` (a copy it may change)."""
        lane = self.lane_of(name)
        if lane == "inline":
            return BOTS[name](s, rng)
        loop = asyncio.get_running_loop()
        if lane == "quick":
            return await loop.run_in_executor(self.quick, think, name, s, rng)
        earlier = self._in_lane.get(game_id)
        if earlier is not None:  # one decision per game in the lane: the others go first
            await asyncio.wait([earlier])
        job = loop.run_in_executor(self._search_pool(), think, name, s, rng)
        self._in_lane[game_id] = job
        try:
            return await job
        finally:
            if self._in_lane.get(game_id) is job:
                del self._in_lane[game_id]

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the search lane: a hint or a review thinks as long as a search
        bot, so it goes where they do, off the event loop (``fn`` a module-level function,
        its arguments picklable, for worker processes)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._search_pool(), fn, *args)

    def close(self) -> None:
        self.quick.shutdown(wait=True, cancel_futures=True)
        if self._search is not None:
            self._search.shutdown(wait=True, cancel_futures=True)
