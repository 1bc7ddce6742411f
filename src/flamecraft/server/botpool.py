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

Lanes with budgets (issue 24): twelve games of five ``ismcts`` bots from one visitor slowed
every other game's planner from 0.41 s to 12 s a move, and fifteen reviews queued in the
search lane made one wait 88 s. So the search bots of games without a person think in a
lane of their own (``bot_only``), and hints and reviews in another (``advice``), each in
worker processes of its own at a lower CPU priority (``background_nice``): the bots of
people's games go first on the cores, whatever waits in the background. How much may wait
there is capped (``quotas.py``; the bot-only games themselves in ``games.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
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


def _warm(parent: int | None = None, nice: int = 0) -> None:
    """A new worker process: imports the bots before its first decision is asked for, lowers
    its CPU priority by ``nice`` (the background lanes: the bots of people's games go first),
    and watches its server process (``parent``), ending itself once that one is gone."""
    import flamecraft.ai.roster  # noqa: F401

    if nice > 0:
        with contextlib.suppress(OSError):
            os.nice(nice)
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


class Pool:
    """One lane's executor, made on first use: ``processes`` worker processes at ``nice``
    (0 processes: ``threads`` threads instead). A pool broken by a dead worker is made anew
    and the call asked again, once (``unavailable`` if it breaks again)."""

    def __init__(self, name: str, processes: int, threads: int, nice: int = 0):
        self.name, self.processes, self.threads, self.nice = name, processes, threads, nice
        self.executor: Executor | None = None
        self.rebuilt = 0  # times it was made anew after a worker died

    def get(self) -> Executor:
        if self.executor is None:
            if self.processes > 0:
                self.executor = ProcessPoolExecutor(
                    self.processes, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_warm, initargs=(os.getpid(), self.nice))
            else:
                self.executor = ThreadPoolExecutor(max(1, self.threads),
                                                   thread_name_prefix=f"flamecraft-{self.name}")
        return self.executor

    def rebuild(self, broken: Executor) -> None:
        """Forgets a pool whose worker died (the next use makes a new one); once only, however
        many of its jobs failed with it."""
        if self.executor is broken:
            log.warning("a %s worker process died; starting the pool anew", self.name)
            self.executor = None
            self.rebuilt += 1
            broken.shutdown(wait=False, cancel_futures=True)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        for _ in range(2):
            pool = self.get()
            try:
                return await loop.run_in_executor(pool, fn, *args)
            except BrokenProcessPool:
                self.rebuild(pool)
        raise _lanes_down()

    def pids(self) -> list[int]:
        pool = self.executor
        if not isinstance(pool, ProcessPoolExecutor):
            return []
        processes = getattr(pool, "_processes", None) or {}
        return [p.pid for p in list(processes.values()) if p.pid is not None]

    def health(self) -> dict[str, Any]:
        pool = self.executor
        if pool is None:
            return {"ok": True, "state": "idle", "processes": 0}
        if not isinstance(pool, ProcessPoolExecutor):
            return {"ok": True, "state": "threads", "processes": 0}
        processes = list((getattr(pool, "_processes", None) or {}).values())
        alive = sum(1 for p in processes if p.is_alive())
        if getattr(pool, "_broken", False) or alive < len(processes):
            self.rebuild(pool)
            return {"ok": False, "state": "down", "processes": alive}
        return {"ok": True, "state": "ok", "processes": alive}

    def close(self) -> None:
        """Stops the pool: waiting jobs cancelled; worker processes ended at once (a review
        under way would otherwise hold up the server's stop by as long as it thinks)."""
        pool, self.executor = self.executor, None
        if pool is None:
            return
        if not isinstance(pool, ProcessPoolExecutor):
            pool.shutdown(wait=True, cancel_futures=True)
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        for process in processes:
            with contextlib.suppress(Exception):
                process.join(2.0)


class BotLanes:
    """The lanes of one server process (see the module docstring): ``search`` for the search
    bots of people's games, ``bot_only`` for those of games without a person, ``advice`` for
    hints and reviews; the last two at a lower CPU priority (``background_nice``). With
    ``bot_processes`` 0 every lane runs on threads."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.quick = ThreadPoolExecutor(max(1, settings.bot_threads),
                                        thread_name_prefix="flamecraft-bot")
        procs = settings.bot_processes
        self.search = Pool("search", procs, settings.bot_threads)
        self.bot_only = Pool("bot-only", settings.bot_only_processes if procs > 0 else 0, 1,
                             settings.background_nice)
        self.advice = Pool("advice", settings.advice_processes if procs > 0 else 0, 1,
                           settings.background_nice)
        self.pools = (self.search, self.bot_only, self.advice)
        self._in_lane: dict[str, asyncio.Future[Action]] = {}

    @property
    def _search(self) -> Executor | None:
        """The search lane's executor (None before its first use)."""
        return self.search.executor

    @property
    def rebuilt(self) -> int:
        """Times a pool was made anew after a worker died (every lane)."""
        return sum(pool.rebuilt for pool in self.pools)

    def lane_of(self, name: str) -> str:
        """"inline", "quick" or "search" (a level goes where its bot goes)."""
        bot = base_bot(name)
        if bot in QUICK_BOTS:
            return "inline"
        return "search" if bot in self.settings.search_bots else "quick"

    def pids(self) -> list[int]:
        """Every lane's worker processes now (none before a lane's first use)."""
        return [pid for pool in self.pools for pid in pool.pids()]

    def health(self) -> dict[str, Any]:
        """Whether the lanes can think: ``{"ok", "state": "idle" | "threads" | "ok" |
        "down", "processes": alive, "lanes": each lane's}`` (``state``: the worst lane's).
        A pool found broken (a worker died) is made anew, so the next look (and the next
        decision) finds it well."""
        lanes = {pool.name: pool.health() for pool in self.pools}
        order = ["down", "ok", "threads", "idle"]
        state = min((lane["state"] for lane in lanes.values()), key=order.index)
        return {"ok": all(lane["ok"] for lane in lanes.values()), "state": state,
                "processes": sum(lane["processes"] for lane in lanes.values()),
                "lanes": lanes}

    async def decide(self, game_id: str, name: str, s: GameState,
                     rng: random.Random, bot_only: bool = False) -> Action:
        """Bot ``name``'s decision in state ``s`` (a copy it may change); a search bot of a
        game without a person (``bot_only``) thinks in the background lane."""
        lane = self.lane_of(name)
        if lane == "inline":
            return BOTS[name](s, rng)
        loop = asyncio.get_running_loop()
        if lane == "quick":
            return await loop.run_in_executor(self.quick, think, name, s, rng)
        earlier = self._in_lane.get(game_id)
        if earlier is not None:  # one decision per game in the lane: the others go first
            await asyncio.wait([earlier])
        pool = self.bot_only if bot_only else self.search
        job = asyncio.ensure_future(pool.call(think, name, s, rng))
        self._in_lane[game_id] = job
        try:
            return await job
        finally:
            if self._in_lane.get(game_id) is job:
                del self._in_lane[game_id]

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the advice lane: a hint or a review thinks as long as a search
        bot, so it runs off the event loop, in worker processes of its own at a lower
        priority (``fn`` a module-level function, its arguments picklable). A dead worker:
        as for a bot's decision, the pool is made anew and ``fn`` asked again once, then
        ``unavailable``. Its budget (how many wait) is ``quotas.py``'s."""
        return await self.advice.call(fn, *args)

    def close(self) -> None:
        self.quick.shutdown(wait=True, cancel_futures=True)
        for pool in self.pools:
            pool.close()
