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

Faults heal (issue 24): a worker process that dies (``kill -9``, the OOM killer) breaks its
pool (``BrokenProcessPool``); the pool is then made anew and the decision asked again, once,
and a second failure is the error ``unavailable`` (503) — never a random move in the bot's
place. Each worker watches the server process that started it and ends itself when that one
is gone (a ``ProcessPoolExecutor``'s workers are not killed with their parent).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..ai.roster import BOTS, base_bot
from ..core.actions import Action
from ..core.state import GameState
from ..core.tr import N_
from .gameerror import Unavailable
from .settings import Settings

log = logging.getLogger("flamecraft.server")

T = TypeVar("T")

QUICK_BOTS = frozenset({"random"})  # bots that answer at once: run without a thread hop
WATCHDOG_SECONDS = 1.0  # how often a worker process looks whether its server is still there

_locks: dict[str, threading.Lock] = {}


def think(name: str, s: GameState, rng: random.Random) -> Action:
    """One decision of bot ``name`` (in a worker thread or process). One move at a time per
    bot name in a process: a bot object may keep state between moves."""
    lock = _locks.setdefault(name, threading.Lock())
    with lock:
        return BOTS[name](s, rng)


def _warm(parent: int | None = None) -> None:
    """A new worker process: imports the bots before its first decision is asked for, and
    watches its server process (``parent``), ending itself once that one is gone."""
    import flamecraft.ai.roster  # noqa: F401

    if parent is not None:
        threading.Thread(target=_watch, args=(parent,), name="flamecraft-watchdog",
                         daemon=True).start()


def _watch(parent: int) -> None:
    """Ends this worker process once its server process is gone (a ``kill -9`` of the server
    leaves its workers running otherwise, each holding its memory): the server's death
    makes this process another's child, so ``getppid`` changes."""
    while True:
        time.sleep(WATCHDOG_SECONDS)
        if os.getppid() != parent:
            os._exit(0)


def _lanes_down() -> Unavailable:
    return Unavailable("workers", N_("the bots' worker processes failed twice in a row; "
                                     "try again in a moment"))


class BotLanes:
    """The lanes of one server process (see the module docstring)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.quick = ThreadPoolExecutor(max(1, settings.bot_threads),
                                        thread_name_prefix="flamecraft-bot")
        self._search: Executor | None = None  # made on first use (a process takes a second)
        self._in_lane: dict[str, asyncio.Future[Action]] = {}
        self.rebuilt = 0  # times the search pool was made anew after a worker died

    def lane_of(self, name: str) -> str:
        """"inline", "quick" or "search" (a level goes where its bot goes)."""
        bot = base_bot(name)
        if bot in QUICK_BOTS:
            return "inline"
        return "search" if bot in self.settings.search_bots else "quick"

    def _search_pool(self) -> Executor:
        if self._search is None:
            workers = self.settings.bot_processes
            if workers > 0:
                self._search = ProcessPoolExecutor(
                    workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_warm, initargs=(os.getpid(),))
            else:
                self._search = ThreadPoolExecutor(max(1, self.settings.bot_threads),
                                                  thread_name_prefix="flamecraft-search")
        return self._search

    def _rebuild(self, broken: Executor) -> None:
        """Forgets a pool whose worker died (the next use makes a new one); once only, however
        many of its jobs failed with it."""
        if self._search is broken:
            log.warning("a search worker process died; starting the pool anew")
            self._search = None
            self.rebuilt += 1
            broken.shutdown(wait=False, cancel_futures=True)

    async def _in_search(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the search pool; a pool broken by a dead worker is made anew and
        the call made again, once (``unavailable`` if it breaks again)."""
        loop = asyncio.get_running_loop()
        for _ in range(2):
            pool = self._search_pool()
            try:
                return await loop.run_in_executor(pool, fn, *args)
            except BrokenProcessPool:
                self._rebuild(pool)
        raise _lanes_down()

    def pids(self) -> list[int]:
        """The search lane's worker processes now (none before its first use)."""
        pool = self._search
        if not isinstance(pool, ProcessPoolExecutor):
            return []
        processes = getattr(pool, "_processes", None) or {}
        return [p.pid for p in list(processes.values()) if p.pid is not None]

    def health(self) -> dict[str, Any]:
        """Whether the search lane can think: ``{"ok", "state": "idle" | "threads" | "ok" |
        "down", "processes": alive}``. A pool found broken (a worker died) is made anew, so
        the next look (and the next decision) finds it well."""
        pool = self._search
        if pool is None:
            return {"ok": True, "state": "idle", "processes": 0}
        if not isinstance(pool, ProcessPoolExecutor):
            return {"ok": True, "state": "threads", "processes": 0}
        processes = list((getattr(pool, "_processes", None) or {}).values())
        alive = sum(1 for p in processes if p.is_alive())
        if getattr(pool, "_broken", False) or alive < len(processes):
            self._rebuild(pool)
            return {"ok": False, "state": "down", "processes": alive}
        return {"ok": True, "state": "ok", "processes": alive}

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
        job = asyncio.ensure_future(self._in_search(think, name, s, rng))
        self._in_lane[game_id] = job
        try:
            return await job
        finally:
            if self._in_lane.get(game_id) is job:
                del self._in_lane[game_id]

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the search lane: a hint or a review thinks as long as a search
        bot, so it goes where they do, off the event loop (``fn`` a module-level function,
        its arguments picklable, for worker processes). A dead worker: as for a bot's
        decision, the pool is made anew and ``fn`` asked again once, then ``unavailable``."""
        return await self._in_search(fn, *args)

    def close(self) -> None:
        self.quick.shutdown(wait=True, cancel_futures=True)
        if self._search is not None:
            self._search.shutdown(wait=True, cancel_futures=True)
