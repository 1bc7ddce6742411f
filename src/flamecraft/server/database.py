"""The store as the event loop calls it: inline for SQLite, whose local transactions take
well under a millisecond (less than handing the work to a thread and back), and on one
worker thread for PostgreSQL, where a call is a network round trip the loop must not wait
on. The store's own methods stay synchronous (``store.py``).

A fault of the store's (a locked, read-only or full SQLite file; a PostgreSQL restart or a
dropped connection: the backend's ``Store.faults``) is raised as ``Unavailable`` (503
``unavailable``), which the bots retry with backoff (``botseats.py``) and a person is told
to try again; ``probe`` is ``/api/health``'s real write and read, bounded in time."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from ..core.tr import N_
from .gameerror import Unavailable
from .store import SQLITE_BUSY_SECONDS, Store, open_store

T = TypeVar("T")

log = logging.getLogger("flamecraft.server")


def store_down(exc: BaseException) -> Unavailable:
    """The ``unavailable`` error a store fault is told as (its cause for the log)."""
    return Unavailable("store", N_("the game store cannot be reached or written just now "
                                   "({problem}); try again in a moment"),
                       problem=type(exc).__name__)


class Database:
    """The store of one server process, once ``open``; its one worker thread."""

    def __init__(self, url: str, sqlite_busy: float = SQLITE_BUSY_SECONDS):
        self.url, self.sqlite_busy = url, sqlite_busy
        self.store: Store | None = None
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="flamecraft-db")
        self._probes = ThreadPoolExecutor(1, thread_name_prefix="flamecraft-probe")
        self._probing: asyncio.Future[None] | None = None

    async def open(self) -> None:
        self.store = await self._thread(open_store, self.url, self.sqlite_busy)

    async def run(self, fn: Callable[[Store], T]) -> T:
        """Runs ``fn(store)``: inline for SQLite, on the store's thread for PostgreSQL. A
        fault of the store's is raised as ``Unavailable``."""
        store = self.store
        assert store is not None
        try:
            if store.inline:
                return fn(store)
            return await self._thread(fn, store)
        except store.faults as exc:
            log.warning("the store failed: %s: %s", type(exc).__name__, exc)
            raise store_down(exc) from exc

    async def probe(self, timeout: float) -> str | None:
        """Whether the store takes a write and reads it back within ``timeout`` seconds, on a
        connection of its own (``Store.probe``) and a thread of its own (a hung database
        holds up neither the event loop nor the store's thread): None when it does, else
        what went wrong. One probe at a time: a look while one hangs waits for that one."""
        store = self.store
        if store is None:
            return "the store is not open"
        if self._probing is None or self._probing.done():
            loop = asyncio.get_running_loop()
            self._probing = loop.run_in_executor(self._probes, store.probe, timeout)
        try:
            await asyncio.wait_for(asyncio.shield(self._probing), timeout)
        except TimeoutError:
            return f"no answer within {timeout:g} s"
        except Exception as exc:  # what the probe met is the answer
            return f"{type(exc).__name__}: {exc}"
        return None

    async def close(self) -> None:
        if self.store is not None:
            await self._thread(self.store.close)
        self._pool.shutdown(wait=True)
        self._probes.shutdown(wait=False, cancel_futures=True)

    async def _thread(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, partial(fn, *args))
