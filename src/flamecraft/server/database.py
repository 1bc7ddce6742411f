"""The store as the event loop calls it: inline for SQLite, whose local transactions take
well under a millisecond (less than handing the work to a thread and back), and on one
worker thread for PostgreSQL, where a call is a network round trip the loop must not wait
on. The store's own methods stay synchronous (``store.py``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from .store import Store, open_store

T = TypeVar("T")


class Database:
    """The store of one server process, once ``open``; its one worker thread."""

    def __init__(self, url: str):
        self.url = url
        self.store: Store | None = None
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="flamecraft-db")

    async def open(self) -> None:
        self.store = await self._thread(open_store, self.url)

    async def run(self, fn: Callable[[Store], T]) -> T:
        """Runs ``fn(store)``: inline for SQLite, on the store's thread for PostgreSQL."""
        store = self.store
        assert store is not None
        if store.inline:
            return fn(store)
        return await self._thread(fn, store)

    async def close(self) -> None:
        if self.store is not None:
            await self._thread(self.store.close)
        self._pool.shutdown(wait=True)

    async def _thread(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, partial(fn, *args))
