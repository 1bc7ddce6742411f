"""The load lane: replaying a stored game's record (building its ``Table``, or a finished
game's replay checkpoints) takes tens of milliseconds of CPU, so it happens on a thread of
its own, never on the event loop, one at a time, within a budget (``quotas.py``): at most
``load_queue`` loads wait, half of them from one address; past that the answer is ``busy``
with a retry time. The server's own loads (resuming its games at start-up, the clock sweep)
are not charged."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..core.tr import N_
from .quotas import Budget, Place
from .settings import Settings

T = TypeVar("T")


class Loader:
    """The load lane of one server process: one thread, and its budget."""

    def __init__(self, settings: Settings):
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="flamecraft-load")
        self.budget = Budget(N_("the server is busy: {count} games are waiting to be loaded (at "
                                "most {size}); try again in {retry_after} s"),
                             N_("games to load: at most {limit} at once from one address, and "
                                "yours are still loading; try again in {retry_after} s"),
                             settings.load_queue,
                             max(1, settings.load_queue // 2), workers=1, mean=0.05)

    def place(self, address: str | None) -> Place:
        """A place in the lane for a load a client asked for (``Busy`` past the budget)."""
        return self.budget.hold(address)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the load thread."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
