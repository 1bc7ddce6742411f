"""The background work of one server (bot moves, catching up with other processes, the idle
sweep, changes a closed WebSocket must not cut short), kept in one place so that closing
the server cancels all of it and a task's unexpected failure is logged, never lost."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

from .gameerror import GameError

log = logging.getLogger("flamecraft.server")

T = TypeVar("T")


class Tasks:
    """The running tasks; ``closed`` once the server is stopping (nothing new should start)."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closed = False

    def spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            if not isinstance(exc, GameError) or exc.status >= 500:
                log.error("a background task failed", exc_info=exc)

    async def detached(self, coro: Coroutine[Any, Any, T]) -> T:
        """Runs a change to completion even if the caller goes away (a closed WebSocket): a
        change stored but not applied in memory would leave this process behind."""
        return await asyncio.shield(self.spawn(coro))

    async def cancel(self) -> None:
        """Cancels every task and waits for them to end."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
