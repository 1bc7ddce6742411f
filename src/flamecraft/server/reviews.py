"""Finished games' reviews, made at most once per game and language and kept in the store
(``flamecraft_reviews``, schema 4).

Before (issue 24), a review was kept on the loaded game, which left memory with its last
WebSocket: opening and closing a spectator's socket and asking again queued the same 10 s
review fifteen times, and another table's planner waited 88 s to move. Now a review asked
for is looked up in the store; one being made is shared by every asker (whoever asked
first may go away: it is made to the end and stored); only a review neither stored nor
being made is started, within the advice lane's budget (``quotas.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .database import Database
from .gameerror import Unavailable
from .quotas import Place
from .tasks import Tasks

log = logging.getLogger("flamecraft.server")

Review = dict[str, Any]


class Reviews:
    """The reviews of one server process: the store's, and those being made now."""

    def __init__(self, database: Database, tasks: Tasks):
        self.database, self.tasks = database, tasks
        self.making: dict[tuple[str, str], asyncio.Task[Review]] = {}
        self.made = 0  # reviews made (not read from the store) by this process

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
