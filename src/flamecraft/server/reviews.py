"""Finished games' reviews, made at most once per game and language and kept in the store
(``flamecraft_reviews``, schema 4).

Before (issue 24), a review was kept on the loaded game, which left memory with its last
WebSocket: opening and closing a spectator's socket and asking again queued the same 10 s
review fifteen times, and another table's planner waited 88 s to move. Now a review asked
for is looked up in the store; one being made is shared by every asker (whoever asked
first may go away: it is made to the end and stored); only a review neither stored nor
being made is started, within the advice lane's budget (``quotas.py``).

A review as sent is kept too (``ReviewBody``: its JSON bytes and their gzip, in a cache bounded
in bytes and keyed by the game's version): a 3-player review is about 220 KB of JSON, and
reading it from the store, encoding it and compressing it cost about 30 ms of the event loop
per ask, which a flood of asks turned into every other table's latency.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .database import Database
from .gameerror import Unavailable
from .quotas import Place
from .tasks import Tasks

log = logging.getLogger("flamecraft.server")

Review = dict[str, Any]


@dataclass(frozen=True)
class ReviewBody:
    """A review as an HTTP answer sends it: its JSON (as FastAPI's ``JSONResponse`` writes
    it) and that JSON gzipped, each made once."""

    plain: bytes
    gzipped: bytes

    @staticmethod
    def of(review: Review) -> ReviewBody:
        text = json.dumps(review, ensure_ascii=False, allow_nan=False,
                          separators=(",", ":")).encode()
        return ReviewBody(text, gzip.compress(text, 6))

    @property
    def size(self) -> int:
        return len(self.plain) + len(self.gzipped)


class Reviews:
    """The reviews of one server process: the store's, those being made now, and the bodies
    of those sent lately (at most ``cache_bytes`` of them)."""

    def __init__(self, database: Database, tasks: Tasks, cache_bytes: int = 16 * 1024 * 1024):
        self.database, self.tasks = database, tasks
        self.making: dict[tuple[str, str], asyncio.Task[Review]] = {}
        self.made = 0  # reviews made (not read from the store) by this process
        self.cache_bytes = cache_bytes
        self.bodies: OrderedDict[tuple[str, int, str], ReviewBody] = OrderedDict()
        self.body_bytes = 0

    async def body(self, game_id: str, version: int, lang: str, place: Callable[[], Place],
                   make: Callable[[], Awaitable[Review]], samples: int) -> ReviewBody:
        """The review of ``game_id`` at ``version`` in ``lang`` as sent: kept, or from
        ``get`` (the store's, or made) encoded once and kept."""
        key = (game_id, version, lang)
        found = self.bodies.get(key)
        if found is not None:
            self.bodies.move_to_end(key)
            return found
        body = ReviewBody.of(await self.get(game_id, lang, place, make, samples))
        if key not in self.bodies and body.size <= self.cache_bytes:
            self.bodies[key] = body
            self.body_bytes += body.size
            while self.body_bytes > self.cache_bytes:
                _, dropped = self.bodies.popitem(last=False)
                self.body_bytes -= dropped.size
        return body

    def forget(self, game_id: str) -> None:
        """Drops the bodies kept of ``game_id`` (its seats were renamed)."""
        for key in [k for k in self.bodies if k[0] == game_id]:
            self.body_bytes -= self.bodies.pop(key).size

    async def stored(self, game_id: str, lang: str) -> Review | None:
        return await self.database.run(lambda st: st.load_review(game_id, lang))

    async def get(self, game_id: str, lang: str, place: Callable[[], Place],
                  make: Callable[[], Awaitable[Review]], samples: int) -> Review:
        """The review of ``game_id`` in ``lang``: stored, being made (shared), or made now
        (``make``, holding the lane's ``place()``, which raises ``Busy`` when the lane is
        full) and stored."""
        key = (game_id, lang)
        job = self.making.get(key)
        if job is None:
            review = await self.stored(game_id, lang)
            if review is not None:
                return review
            job = self.making.get(key)  # (one may have started while the store answered)
            if job is None:
                held = place()
                job = self.making[key] = self.tasks.spawn(self._make(key, held, make, samples))
        return await asyncio.shield(job)

    async def _make(self, key: tuple[str, str], held: Place,
                    make: Callable[[], Awaitable[Review]], samples: int) -> Review:
        """Makes and stores a review; read from the store instead if one landed since the
        asker looked (made by the job before this one, or by another process)."""
        game_id, lang = key
        try:
            with held:
                review = await self.stored(game_id, lang)
                if review is not None:
                    return review
                review = await make()
                self.made += 1
            try:
                await self.database.run(
                    lambda st: st.save_review(game_id, lang, review, samples))
            except Unavailable:  # answered all the same; the next ask makes it again
                log.warning("game %s: its review could not be stored", game_id)
            return review
        finally:
            if self.making.get(key) is asyncio.current_task():
                del self.making[key]
