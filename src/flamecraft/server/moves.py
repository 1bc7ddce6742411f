"""Acting and undoing at a table. A move, a person's or a bot's, is checked (the game in play,
the seat to act, the version it answers), worked out on a copy, stored with the version bump
in one transaction, and only then applied in memory; an undo goes back by the one policy of
``session/history.py``. A refused move changes nothing; a move that lost a race to another
process is "stale", and the table catches up first."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from ..core.engine import legal_actions, parse_action, to_act
from ..core.errors import IllegalActionError
from ..core.state import GameState
from ..core.tr import N_
from ..session import compose
from ..session.history import Played
from . import clocks
from .connections import Session
from .database import Database
from .gameerror import GameError
from .store import FINISHED, ActionRow, GameRow
from .tasks import Tasks
from .wire import result_of


class Moves:
    """The moves of this process's games. ``catch_up`` re-reads a game from the store (its
    lock held); ``changed`` tells everyone of a change made here."""

    def __init__(self, database: Database, tasks: Tasks,
                 catch_up: Callable[[Session], Awaitable[None]],
                 changed: Callable[[Session], None]):
        self.database, self.tasks = database, tasks
        self.catch_up, self.changed = catch_up, changed

    async def act(self, session: Session, seat: int | None, version: int,
                  index: int | None = None, typed: str | None = None) -> None:
        """Plays legal action number ``index``, or the one ``typed`` names, for ``seat``."""
        await self.tasks.detached(self._act(session, seat, version, index, typed))

    async def choose(self, session: Session, seat: int | None, version: int,
                     choice: str) -> None:
        """Plays the person's composite choice whose stable text is ``choice``
        (``session/compose.py``): its engine actions, stored together in one transaction
        with one version bump. One no longer among the choices (another tab, a stale page)
        is refused with the current choices, and nothing changes."""
        await self.tasks.detached(self._choose(session, seat, version, choice))

    async def undo(self, session: Session, seat: int | None, version: int) -> None:
        """Takes back ``seat``'s last choice of its run (``History.can_undo``)."""
        await self.tasks.detached(self._undo(session, seat, version))

    @staticmethod
    def _check_turn(session: Session, seat: int | None, version: int) -> GameState:
        t = session.table
        s = t.live_state()
        if seat is None:
            raise GameError("out_of_turn", N_("you are watching: spectators cannot act"))
        if version != session.version:
            raise GameError("stale", N_("the table changed (you saw version {seen}, it is now "
                                        "{now}): look again and choose anew"),
                            seen=version, now=session.version)
        p = to_act(s)
        if p != seat:
            raise GameError("out_of_turn", N_("it is {name}'s turn to choose, not yours"),
                            name=t.row.seats[p].name)
        if not t.person_plays(seat):
            raise GameError("out_of_turn", N_("a bot is playing your seat now: take your "
                                              "seat back first"))
        return s

    async def _act(self, session: Session, seat: int | None, version: int,
                   index: int | None, typed: str | None) -> None:
        async with session.lock:
            s = self._check_turn(session, seat, version)
            actions = legal_actions(s)
            if index is not None:
                if not 0 <= index < len(actions):
                    raise GameError("illegal", N_("there is no choice number {index}: there "
                                                  "are {n} (0–{last})"),
                                    index=index, n=len(actions), last=len(actions) - 1)
                action = actions[index]
            else:
                try:
                    action = parse_action(s, typed or "")
                except IllegalActionError as exc:
                    raise GameError("illegal", str(exc), error=exc) from None
            await self.commit(session, session.table.prepare(action))

    async def _choose(self, session: Session, seat: int | None, version: int,
                      choice: str) -> None:
        async with session.lock:
            s = self._check_turn(session, seat, version)
            try:
                made = compose.find(s, choice)
            except compose.StaleChoiceError as exc:
                raise GameError("illegal", N_("that choice is not open now (the game has "
                                              "moved on, or another page chose first); the "
                                              "choices now: {choices}"),
                                choices="; ".join(exc.choices)) from None
            history = session.table.history
            assert history is not None
            # a choice the page takes by itself is no undo point (undo would only come back
            # to it, and the page take it again)
            await self.commit_all(session, compose.prepare(history, made),
                                  asked=compose.automatic(s) is None)

    async def commit_all(self, session: Session, played: list[Played],
                         asked: bool = True) -> None:
        """``commit`` for the actions of one composite choice: stored in one transaction,
        all or none, and one undo point (before the first; none when not ``asked``)."""
        t = session.table
        expected = session.version
        row = self._next_row(session, played[-1])
        rows = [ActionRow(len(t.actions) + i, one.seat, one.text, row.version)
                for i, one in enumerate(played)]
        if not await self.database.run(lambda st: st.append_actions(row, expected, rows)):
            await self.catch_up(session)
            raise GameError("stale", N_("another move was made first: look again and choose "
                                        "anew"))
        for i, (one, stored) in enumerate(zip(played, rows, strict=True)):
            t.commit(one, stored, undo_point=asked and i == 0)
        t.row = row
        self.changed(session)

    @staticmethod
    def _next_row(session: Session, last: Played) -> GameRow:
        """The game's row once ``last`` (the last of the actions to store) is played: the
        next version, the result if the game is over, and the clock moved on (the mover's
        time charged if a person played it, the next seat put on it)."""
        t = session.table
        row = t.row.copy()
        row.version = session.version + 1
        after = last.after
        if after.over:
            row.status, row.result = FINISHED, result_of(after)
        clocks.moved(row.clock, t.person_plays(last.seat),
                     None if after.over else to_act(after), time.time())
        return row

    async def commit(self, session: Session, played: Played) -> None:
        """Stores a prepared action (with the version bump, in one transaction), then applies
        it. The caller holds the game's lock."""
        t = session.table
        expected = session.version
        row = self._next_row(session, played)
        action = ActionRow(len(t.actions), played.seat, played.text, row.version)
        if not await self.database.run(lambda st: st.append_action(row, expected, action)):
            await self.catch_up(session)
            raise GameError("stale", N_("another move was made first: look again and choose "
                                        "anew"))
        t.commit(played, action)
        t.row = row
        self.changed(session)

    async def _undo(self, session: Session, seat: int | None, version: int) -> None:
        async with session.lock:
            self._check_turn(session, seat, version)
            t = session.table
            if not t.can_undo(seat):
                raise GameError("illegal", N_("nothing to undo: undo goes back only within "
                                              "your own turn, and not past a card drawn from a "
                                              "hidden deck, a Shop turned face up, a Fancy "
                                              "Dragon revealed or a shuffle"))
            keep = t.undo_keeps()
            expected = session.version
            row = t.row.copy()
            row.version = expected + 1
            clocks.charge(row.clock, True, time.time())  # (undo gives no time back)
            if not await self.database.run(lambda st: st.truncate_actions(row, expected, keep)):
                await self.catch_up(session)
                raise GameError("stale", N_("another move was made first: look again"))
            t.rewind()
            t.row = row
            self.changed(session)
