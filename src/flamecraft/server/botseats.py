"""The bot seats of the loaded games, played on the server: after every change, if a bot is to
act, a task waits the bot delay, has the bot decide in its lane (``botpool.py``) on a copy of
the state, and plays the move like a person's (``moves.py``: stored, versioned, broadcast).
Nobody waits on a bot: the game's lock is not held while it thinks. A bot sees only its seat
(the ``ai.roster`` policies read only their seat's view)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable

from ..ai.roster import BOTS, DEFAULT_BOT, random_action
from ..core.engine import legal_actions, to_act
from ..session.history import Played
from .botpool import BotLanes
from .connections import Session
from .gameerror import GameError
from .store import RUNNING
from .tasks import Tasks

log = logging.getLogger("flamecraft.server")


class BotSeats:
    """Schedules and plays the bots' moves; ``commit`` stores and applies one (its lock held)."""

    def __init__(self, lanes: BotLanes, tasks: Tasks,
                 commit: Callable[[Session, Played], Awaitable[None]]):
        self.lanes, self.tasks, self.commit = lanes, tasks, commit

    def schedule(self, session: Session, delay: float) -> None:
        """A move in ``delay`` seconds if a bot is to act at this version (once per version)."""
        t = session.table
        s = t.state
        if (self.tasks.closed or s is None or t.row.status != RUNNING or s.over
                or t.person_plays(to_act(s)) or session.bot_version == session.version):
            return
        session.bot_version = session.version
        if len(legal_actions(s)) == 1:
            delay = 0.0  # a decision with one action (an `end turn`, a decline): nothing to watch
        self.tasks.spawn(self._move(session, session.version, delay))

    async def _move(self, session: Session, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        t = session.table
        s = t.state
        if session.version != version or self.tasks.closed or s is None or s.over:
            return
        p = to_act(s)
        seat_row = t.row.seats[p]
        if t.person_plays(p):
            return  # the person took the seat back meanwhile
        name = seat_row.stand_in or seat_row.bot or DEFAULT_BOT
        if name not in BOTS:
            name = DEFAULT_BOT
        rng = random.Random(f"{t.row.seed}:{p}:{len(t.actions)}")
        started = time.perf_counter()
        legal = legal_actions(s)
        try:  # in its lane (botpool.py): no one waits for a bot, nor a bot for a search
            action = legal[0] if len(legal) == 1 else await self.lanes.decide(
                t.row.id, name, s.copy(), rng)
        except Exception:
            log.exception("bot %r failed in game %s; playing a random move", name, t.row.id)
            action = random_action(s, rng)
        log.debug("bot %s thought %.3fs", name, time.perf_counter() - started)
        async with session.lock:
            if session.version != version or session.table is not t or self.tasks.closed:
                return
            if action not in legal_actions(s):
                log.error("bot %r chose an illegal action in game %s", name, t.row.id)
                action = random_action(s, rng)
            with contextlib.suppress(GameError):  # another process moved first: caught up
                await self.commit(session, t.prepare(action))
