"""The bot seats of the loaded games, played on the server: after every change, if a bot is to
act, a task waits the bot delay, has the bot decide in its lane (``botpool.py``) on a copy of
the state, and plays the move like a person's (``moves.py``: stored, versioned, broadcast).
Nobody waits on a bot: the game's lock is not held while it thinks. A bot sees only its seat
(the ``ai.roster`` policies read only their seat's view).

Faults heal (issue 24): a bot move that meets ``Unavailable`` (the store cannot be written, or
the workers died twice) or a bot that fails is tried again with backoff
(``heal_seconds`` doubling up to ``heal_max_seconds``, ``heal_retries`` times), the game's
people told it is stalled and, once the move is made, that it goes on. The move is made once:
the decision is kept across the retries of its store write, and the write is checked against
the version it was made for (one that landed unseen makes the retry "stale", which catches
up). After the last retry the version is let go (``bot_version``), so the next change, or the
sweep (``games.py``), schedules the move again: a failure never freezes a game."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable

from ..ai.roster import BOTS, DEFAULT_BOT, random_action
from ..core.actions import Action
from ..core.engine import legal_actions, to_act
from ..session.history import Played
from .botpool import BotLanes
from .connections import Session
from .gameerror import GameError, Unavailable
from .settings import Settings
from .store import HUMAN, RUNNING, GameRow
from .tasks import Tasks

log = logging.getLogger("flamecraft.server")

# Tells a game's people of its bot move's failure (``Session.stalled``: why — "store" or
# "workers", ``Unavailable.what``, or "bot": the bot itself failed — and when it is tried
# again), and of the game going on again.
Told = Callable[[Session], None]


def bot_only(row: GameRow) -> bool:
    """Whether a game has no person's seat (its bots think in the background lane, and it is
    capped and expires: quotas.py)."""
    return all(seat.kind != HUMAN for seat in row.seats)


class BotSeats:
    """Schedules and plays the bots' moves; ``commit`` stores and applies one (its lock held);
    ``stalled`` and ``healed`` tell a game's people of a bot move that failed (why, and when
    it is tried again: ``Session.stalled``) and of the game going on."""

    def __init__(self, lanes: BotLanes, tasks: Tasks,
                 commit: Callable[[Session, Played], Awaitable[None]],
                 settings: Settings | None = None,
                 stalled: Told = lambda session: None,
                 healed: Told = lambda session: None):
        self.lanes, self.tasks, self.commit = lanes, tasks, commit
        self.settings = settings or lanes.settings
        self.stalled, self.healed = stalled, healed

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
        """The bot move of ``version``, tried again with backoff while it fails."""
        await asyncio.sleep(delay)
        settings = self.settings
        action: Action | None = None  # decided once, kept across the retries of its write
        for attempt in range(settings.heal_retries + 1):
            try:
                if action is None:
                    action = await self._decide(session, version)
                if action is not None:
                    await self._play(session, version, action)
            except Unavailable as exc:
                why, problem = exc.what, exc.message
            except Exception as exc:  # the bot itself failed: never a random move instead
                if attempt == 0:
                    log.exception("bot failed in game %s", session.id)
                why, problem = "bot", f"{type(exc).__name__}: {exc}"
            else:
                break  # made, or the game moved on meanwhile
            if session.version != version or self.tasks.closed:
                break  # the game moved on (a write that landed unseen, caught up since)
            if attempt == settings.heal_retries:
                log.error("game %s: the bot move failed %d times; it is tried again at the "
                          "next change or sweep", session.id, attempt + 1)
                if session.bot_version == version:
                    session.bot_version = -1  # let go: the next schedule tries it anew
                return
            wait = min(settings.heal_max_seconds, settings.heal_seconds * 2 ** attempt)
            log.warning("game %s: the bot move failed (%s); trying again in %.1fs",
                        session.id, problem, wait)
            session.stalled = (why, time.time() + wait)
            self.stalled(session)
            await asyncio.sleep(wait)
        if session.stalled is not None and not self.tasks.closed:
            session.stalled = None
            log.warning("game %s: the bot moves go on", session.id)
            self.healed(session)

    def _bot_of(self, session: Session) -> tuple[str, random.Random]:
        """The bot that plays the seat to act, and its randomness for this decision."""
        t = session.table
        s = t.state
        assert s is not None
        p = to_act(s)
        seat_row = t.row.seats[p]
        name = seat_row.stand_in or seat_row.bot or DEFAULT_BOT
        if name not in BOTS:
            name = DEFAULT_BOT
        return name, random.Random(f"{t.row.seed}:{p}:{len(t.actions)}")

    async def _decide(self, session: Session, version: int) -> Action | None:
        """The bot's decision at ``version``; None if there is nothing to decide (the game
        moved on, or the person took the seat back)."""
        t = session.table
        s = t.state
        if session.version != version or self.tasks.closed or s is None or s.over:
            return None
        if t.person_plays(to_act(s)):
            return None  # the person took the seat back meanwhile
        name, rng = self._bot_of(session)
        started = time.perf_counter()
        legal = legal_actions(s)
        # in its lane (botpool.py): no one waits for a bot, nor a bot for a search
        action = legal[0] if len(legal) == 1 else await self.lanes.decide(
            t.row.id, name, s.copy(), rng, bot_only=bot_only(t.row))
        log.debug("bot %s thought %.3fs", name, time.perf_counter() - started)
        return action

    async def _play(self, session: Session, version: int, action: Action) -> None:
        """Stores and applies the decision made at ``version`` (unless the game moved on);
        raises ``Unavailable`` if the store cannot take it."""
        async with session.lock:
            t = session.table
            s = t.state
            if (session.version != version or self.tasks.closed or s is None or s.over
                    or t.person_plays(to_act(s))):
                return
            if action not in legal_actions(s):
                name, rng = self._bot_of(session)
                log.error("bot %r chose an illegal action in game %s", name, t.row.id)
                action = random_action(s, rng)
            try:
                await self.commit(session, t.prepare(action))
            except Unavailable:
                raise
            except GameError:  # another process moved first: caught up
                pass
