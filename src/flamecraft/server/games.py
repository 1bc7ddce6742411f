"""The games this process serves, and the lobby's life cycle: creating a game, joining,
leaving, starting, a rematch; loading a game from the store, catching up with other
processes' changes, and letting idle games leave memory.

The store holds the truth (a game's row and its actions); each process keeps a ``Table`` per
game it serves, rebuilt by replaying the record, and changes it only after the store has
committed the change. Every change bumps the game's version and is written only if the version
is still the one the change was made against, so a race between two clicks, two tabs or two
processes has exactly one winner; the loser is told "stale" and gets the latest state.

``Games`` composes the other concerns, each in its module: ``connections`` (who is connected
and what each is sent), ``moves`` (acting and undo), ``bots`` (the bot seats, ``botseats.py``)
and ``advice`` (hints and reviews); they share ``database`` (the store) and ``tasks``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..core.engine import to_act
from ..core.errors import FlamecraftError
from ..core.serialize import CARD_NAMES, start_to_json
from ..core.setup_game import seeded_start
from ..core.state import Options
from ..core.tr import N_
from ..core.upgrade import DECISION_RULES
from ..session.seats import SetupError
from . import clocks, standins
from .advice import Advice
from .botpool import BotLanes
from .botseats import BotSeats
from .chat import Chat
from .connections import Connections, Session
from .cut_short import EXPIRED, end_row
from .database import Database
from .gameerror import GameError
from .gamespec import NewGame
from .loads import Loader
from .moves import Moves
from .names import check_seat_names, clean
from .presence import HIDDEN, Told
from .pubsub import PRESENCE_CHANNEL, Bus, make_bus
from .quotas import GameCaps, Place, Unfinished
from .replays import Replay, ReplayCache, build_replay
from .settings import Settings
from .store import BOT, FINISHED, HUMAN, OPEN, RUNNING, ActionRow, GameRow, SeatRow
from .table import Table, needs_upgrade, record_of, renamed_actions, upgraded_actions
from .tasks import Tasks
from .tokens import check_token, new_game_id, new_token, seat_digests, valid_game_id
from .wire import created_json, entry_json

log = logging.getLogger("flamecraft.server")

CLOCK_SWEEP = 60.0  # seconds between looks for clocks running out in games not loaded
MAX_IDLE = 1000  # loaded games before the idle ones (open or finished, unwatched) are dropped

# "the game is already …" (starting a game that is not open), per status
# What reading a bad row raises (store.UnreadableGame is a ValueError; the engine refusing its
# options a FlamecraftError); a store that is down raises none of these.
UNREADABLE = (ValueError, KeyError, TypeError, IndexError, AttributeError, FlamecraftError)

_STATUS_ALREADY = {RUNNING: N_("the game is already running"),
                   FINISHED: N_("the game is already finished")}


def _not_found(game_id: str) -> GameError:
    return GameError("not_found", N_("there is no game {game}"), 404, game=repr(game_id))


def _broken(game_id: str, exc: BaseException) -> GameError:
    """A row it cannot read: this game only is refused (the operator's log says why)."""
    log.error("game %s cannot be loaded: %s", game_id, exc)
    return GameError("broken", N_("game {game} cannot be read from the store: the server's "
                                  "operator has to repair it"), 500, game=game_id)


class Games:
    """Every game this process serves, and the operations of the HTTP and WebSocket API:
    the lobby's here, the others in the concerns it holds (``connections``, ``moves``,
    ``bots``, ``advice``)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.database = Database(settings.database_url, settings.sqlite_busy_seconds)
        self.bus: Bus = make_bus(settings.database_url)
        self.sessions: dict[str, Session] = {}
        self.lanes = BotLanes(settings)
        self.tasks = Tasks()
        self.process = secrets.token_hex(6)  # who this process is, to the others (presence)
        self.connections = Connections(settings, self._unwatched, self._arm_takeover,
                                       self._share)
        self.moves = Moves(self.database, self.tasks, self._sync_locked, self._changed)
        self.bots = BotSeats(self.lanes, self.tasks, self.moves.commit, settings,
                             self.connections.tell_stalled, self.connections.tell_healed)
        self.advice = Advice(settings, self.lanes, self.database, self.tasks)
        self.chat = Chat(settings, self.database, self.tasks, self.sessions)  # chat.py
        self.loader = Loader(settings)  # loads.py: replays of stored games, off the loop
        self.replays = ReplayCache(settings.replay_cache_bytes, settings.replay_every)
        self.caps = GameCaps(settings)  # quotas.py
        self._loading: dict[str, asyncio.Task[Session | None]] = {}
        # called after every change of a game, with its session (ratings: profiles.Rater)
        self.changed_hooks: list[Callable[[Session], None]] = []

    # --- life cycle

    async def open(self) -> None:
        """Opens the store, starts hearing other processes, resumes the running games."""
        await self.database.open()
        await self.bus.start(self._heard, self._reconnected, self.chat.heard,
                             self._heard_presence)
        since = time.time() - self.settings.idle_seconds
        await self.expire_bot_games()  # (before resuming them: an expired one is not)
        for game_id in await self.database.run(lambda st: st.running_game_ids(since)):
            try:
                await self.get(game_id, resume=True)
            except GameError as exc:  # one game that cannot be read is skipped, not fatal
                log.error("cannot resume: %s", exc.message)
        self.tasks.spawn(self._sweep())
        if self.bus.shared:
            self.tasks.spawn(self._heartbeat())

    async def _sweep(self) -> None:
        """Archives idle games now and then (a quarter of the idle time, at most hourly), and
        each minute loads the games whose clock runs out soon that no one has loaded (a
        turn-based game left for days, a game archived, or stored before a restart): loaded,
        their timer is set (``_arm_takeover``). It also schedules again the bot moves given
        up on after their last retry (``botseats.py``): a stall ends when the fault does."""
        every = min(3600.0, max(1.0, self.settings.idle_seconds / 4))
        archived = time.monotonic()
        while not self.tasks.closed:
            await asyncio.sleep(min(every, CLOCK_SWEEP))
            for session in list(self.sessions.values()):
                self.bots.schedule(session, 0.0)  # a bot move given up on (botseats.py)
            try:
                await self.load_due_clocks()
                await self.expire_bot_games()
            except GameError as exc:  # the store is down: next time
                log.warning("the clock sweep failed: %s", exc.message)
            if time.monotonic() - archived >= every:
                archived = time.monotonic()
                self.archive_idle()

    async def load_due_clocks(self, now: float | None = None) -> list[str]:
        """Loads the running games not loaded here whose clock runs out (grace included)
        within ``CLOCK_SWEEP`` seconds of ``now``; returns their ids."""
        now = time.time() if now is None else now
        horizon = now + CLOCK_SWEEP - self.settings.timeout_grace
        rows = await self.database.run(lambda st: st.clocked_games())
        due = [game_id for game_id, clock in rows if game_id not in self.sessions
               and (out := clocks.runs_out(clock)) is not None and out <= horizon]
        for game_id in due:
            try:
                await self.get(game_id, resume=True)
            except GameError as exc:
                log.error("cannot load a game whose clock runs out: %s", exc.message)
        return due

    async def expire_bot_games(self, now: float | None = None) -> list[str]:
        """Ends the games without a person that have run ``bot_game_seconds`` since they
        were created (``ending.py``: ``expired``, no winner), loaded or not; returns their
        ids. At start-up (before resuming them) and at each sweep."""
        now = time.time() if now is None else now
        cutoff = now - self.settings.bot_game_seconds
        rows = await self.database.run(lambda st: st.unfinished_games())
        old = [game_id for game_id, created, only in rows if only and created <= cutoff]
        ended = []
        for game_id in old:
            try:
                session = await self.get(game_id, resume=True)
                if session is None:
                    continue
                t = session.table
                row = await self.tasks.detached(self._change(
                    session, lambda row: end_row(row, t.state, EXPIRED, now)))  # noqa: B023
            except GameError as exc:
                log.error("game %s could not be ended as expired: %s", game_id, exc.message)
                continue
            if row.status == FINISHED:
                ended.append(game_id)
                log.info("game %s: a game without a person ended after %.0f s", game_id,
                         now - row.created)
            if not session.conns:
                self.sessions.pop(game_id, None)
        return ended

    def archive_idle(self, now: float | None = None) -> list[str]:
        """Drops from memory the running games nobody watches that were last touched
        ``idle_seconds`` before ``now``: their truth is in the store, and ``get`` loads them
        again (bots and all) when someone comes back. Returns their ids."""
        limit = (time.time() if now is None else now) - self.settings.idle_seconds
        gone = [game_id for game_id, session in self.sessions.items()
                if not session.conns and session.touched <= limit
                and session.table.row.status == RUNNING and not session.lock.locked()
                and session.bot_version != session.version]  # no bot move under way
        for game_id in gone:
            del self.sessions[game_id]
        if gone:
            log.info("archived %d idle games", len(gone))
        return gone

    async def close(self) -> None:
        self.tasks.closed = True
        await self.bus.stop()
        await self.tasks.cancel()
        self.lanes.close()
        self.loader.close()
        await self.database.close()

    # --- loading and hearing of other processes' changes

    async def get(self, game_id: str, resume: bool = False,
                  address: str | None = None) -> Session | None:
        """The game, loaded (and its bots resumed) if need be; None if there is none. A
        load replays the game's record on the load lane's thread (``loads.py``), once
        however many ask meanwhile; one a client asked for (``address``) counts against the
        lane's budget (``busy`` past it), the server's own (``resume``) does not."""
        session = self.sessions.get(game_id)
        if session is not None or not valid_game_id(game_id):
            return session
        job = self._loading.get(game_id)
        if job is None:
            place = None if resume else self.loader.place(address)
            job = self._loading[game_id] = self.tasks.spawn(self._load(game_id, resume, place))
        return await asyncio.shield(job)

    async def _load(self, game_id: str, resume: bool, place: Place | None) -> Session | None:
        try:
            with place or contextlib.nullcontext():
                row, actions = await self._stored(game_id)
                if row is None:
                    return None
                try:
                    table = await self.loader.run(Table, row, actions)
                except GameError:
                    raise
                except UNREADABLE as exc:
                    raise _broken(game_id, exc) from None
        finally:
            del self._loading[game_id]
        session = Session(table, self.settings.away_grace, self.settings.hidden_grace)
        session.presence.ttl = 3 * self.settings.presence_heartbeat
        self._evict()
        self.sessions[game_id] = session
        self._share(session, ask=True)  # the other processes say who is at the table
        self._arm_takeover(session)
        # Another process may be playing this game's bots: take over only if it is gone.
        store = self.database.store
        late = self.settings.bot_takeover if store is not None and store.notifies else 0.0
        self.bots.schedule(session, self.settings.bot_delay + (0.0 if resume else late))
        if store is not None and store.notifies:
            self.tasks.spawn(self.sync(session))  # a change heard while it was replayed
        return session

    async def _stored(self, game_id: str) -> tuple[GameRow | None, list[ActionRow]]:
        """A game's row and actions from the store (as today's engine asks them: stored
        again once if need be, ``_upgraded``); a row that cannot be read is "broken"."""
        try:
            row, actions = await self.database.run(lambda st: st.load_with_actions(game_id))
            if row is None:
                return None, []
            return await self._upgraded(row, actions)
        except GameError:
            raise
        except UNREADABLE as exc:  # a row it cannot read: this game only is refused
            raise _broken(game_id, exc) from None

    # --- finished games, without loading them (their record, review and replay)

    async def entry(self, game_id: str, address: str | None = None) -> dict[str, Any]:
        """A game's lobby entry with its step and who is to act. A game not loaded that is
        not running is answered from its row (no replay, nothing kept); a running one is
        loaded (its bots resume)."""
        session = self.sessions.get(game_id)
        if session is None and valid_game_id(game_id):
            try:
                row = await self.database.run(lambda st: st.load_game(game_id))
            except UNREADABLE as exc:
                raise _broken(game_id, exc) from None
            if row is None:
                raise _not_found(game_id)
            if row.status != RUNNING and not needs_upgrade(row):
                out = entry_json(row)
                out["step"] = await self.database.run(lambda st: st.action_count(game_id))
                out["to_act"] = None
                return out
        session = await self.need(game_id, address)
        t = session.table
        out = entry_json(t.row)
        out["step"] = len(t.actions)
        s = t.state  # who is to act is public (for "my games": your turn first)
        out["to_act"] = (to_act(s) if s is not None and t.row.status == RUNNING and not s.over
                         else None)
        return out

    async def finished(self, game_id: str) -> tuple[GameRow, list[ActionRow]]:
        """A finished game's row and actions: the loaded game's, else the store's (nothing
        loaded or kept); the error "not_finished" for a game still in play."""
        session = self.sessions.get(game_id)
        if session is not None:
            row, actions = session.table.row, session.table.actions
        else:
            found, actions = await self._stored(game_id) if valid_game_id(game_id) else (
                None, [])
            if found is None:
                raise _not_found(game_id)
            row = found
        if row.status != FINISHED:
            raise GameError("not_finished", N_("the record and the replay are available once "
                                               "the game is finished (they name every hidden "
                                               "card)"))
        return row, actions

    async def replay(self, row: GameRow, actions: list[ActionRow],
                     address: str | None = None) -> Replay:
        """A finished game's replay entry (``replays.py``): kept, or built on the load lane
        (within its budget, ``address`` charged)."""
        async def build(every: int) -> Replay:
            with self.loader.place(address):
                try:
                    return await self.loader.run(build_replay, row, actions,
                                                 record_of(row, actions), every)
                except GameError:
                    raise
                except UNREADABLE as exc:
                    raise _broken(row.id, exc) from None

        return await self.replays.get(row.id, row.version, build)

    def _evict(self) -> None:
        """Keeps memory bounded: past ``MAX_IDLE`` loaded games, forgets those nobody watches
        that are not running (they are loaded again when asked for)."""
        if len(self.sessions) < MAX_IDLE:
            return
        for game_id, session in list(self.sessions.items()):
            if not session.conns and session.table.row.status != RUNNING:
                del self.sessions[game_id]

    def _unwatched(self, session: Session) -> None:
        """The last client of a game that is not running left: it leaves memory too (it is
        loaded again when asked for)."""
        self.sessions.pop(session.id, None)

    async def need(self, game_id: str, address: str | None = None) -> Session:
        session = await self.get(game_id, address=address)
        if session is None:
            raise _not_found(game_id)
        return session

    def _heard(self, game_id: str, version: int) -> None:
        session = self.sessions.get(game_id)
        if session is not None and session.version != version and not self.tasks.closed:
            self.tasks.spawn(self.sync(session))

    # --- presence shared with the other processes (presence.py, pubsub.py)

    def _share(self, session: Session, ask: bool = False, again: bool = False) -> None:
        """Tells the other processes what this one sees of the game's seats, if that is news
        (``again``: the heartbeat; ``ask``: this process has just loaded the game, and the
        others answer with theirs)."""
        if not self.bus.shared or self.tasks.closed:
            return
        told = self.connections.facts(session, self.process, ask)
        if session.told is not None and session.told.same(told) and not (ask or again):
            return
        session.told = told
        self.tasks.spawn(self.bus.tell(PRESENCE_CHANNEL, f"{session.id} {told.to_json()}"))

    def _heard_presence(self, game_id: str, payload: str) -> None:
        """Another process told what it sees of a game's seats: if that changes what this
        one shows, its clients are told; if it asked, this process answers."""
        session = self.sessions.get(game_id)
        if session is None:
            return
        told = Told.from_json(payload, len(session.table.row.seats))  # ValueError: dropped
        if told.process == self.process:
            return  # (a process hears its own notifications too)
        if session.presence.heard(told):
            self.connections.tell_presence(session)
        if told.ask:
            self._share(session, again=True)

    async def _heartbeat(self) -> None:
        """Every ``presence_heartbeat`` seconds, each game this process has clients of is
        told again, so that what it told does not expire at the others (``Presence.ttl``)
        while it is still true."""
        while not self.tasks.closed:
            await asyncio.sleep(self.settings.presence_heartbeat)
            for session in list(self.sessions.values()):
                if session.conns:
                    self._share(session, again=True)

    def _reconnected(self) -> None:
        for session in list(self.sessions.values()):
            self.tasks.spawn(self.sync(session))
        self.chat.reconnected()

    async def _upgraded(self, row: GameRow,
                        actions: list[ActionRow]) -> tuple[GameRow, list[ActionRow]]:
        """A game stored before ruling 20's decision points, stored again as today's engine
        asks it (``table.upgraded_actions``), once: its setup then says ``rules``. If another
        process did it first, its rows are read back."""
        rows = upgraded_actions(row, actions, row.version + 1)
        if rows is None:
            return row, actions
        new = row.copy()
        new.version += 1
        new.setup = {**(row.setup or {"deal": start_to_json(seeded_start(row.options, row.seed)),
                                      "names": CARD_NAMES}), "rules": DECISION_RULES}
        if await self.database.run(lambda st: st.replace_actions(new, row.version, rows)):
            log.info("game %s: %d stored actions read as %d under ruling 20's decision points",
                     row.id, len(actions), len(rows))
            return new, rows
        again, actions = await self.database.run(lambda st: st.load_with_actions(row.id))
        if again is None or upgraded_actions(again, actions, again.version + 1) is not None:
            raise GameError("busy", N_("game {game} is being stored again: try once more"),
                            409, game=row.id)
        return again, actions

    async def sync(self, session: Session) -> None:
        async with session.lock:
            await self._sync_locked(session)

    async def _sync_locked(self, session: Session) -> None:
        """Catches up with the store: applies the actions stored since (by another process),
        or replays the whole game if some were taken back."""
        row, actions = await self.database.run(lambda st: st.load_with_actions(session.id))
        if row is None or row.version == session.version:
            return
        t = session.table
        mine = len(t.actions)
        if (t.state is not None and row.status != OPEN and len(actions) >= mine
                and actions[:mine] == t.actions
                and row.options == t.row.options):  # (names changed: read anew, below)
            t.extend(actions[mine:])  # a stored action that no longer replays changes nothing
            t.row = row
        else:
            session.table = Table(row, actions)
        self._changed(session, local=False)

    def _changed(self, session: Session, local: bool = True) -> None:
        """What every change does next: every client is sent the new state, and a bot to act
        is scheduled (later for a change heard from another process, which plays its bots)."""
        session.touched = time.time()
        self.connections.broadcast(session)  # (which sets the takeover timer: _arm_takeover)
        delay = self.settings.bot_delay
        self.bots.schedule(session, delay if local else delay + self.settings.bot_takeover)
        for hook in self.changed_hooks:
            hook(session)
        if session.table.row.status == FINISHED and local:  # the end screen's review, ahead
            self.tasks.spawn(self.advice.prepare(session))

    # --- the lobby

    async def create(self, new: NewGame, address: str | None = None) -> dict[str, Any]:
        """A new game; the answer holds every person's seat link (the only time the tokens
        are shown). A rematch (``new.rematch_of``): the old seats' tokens stay valid here, so
        each player's old link leads on; only the asker's seat gets a new token, and the
        answer holds that one alone. Within the caps on unfinished games (``quotas.py``;
        ``address``: the asker's), or ``Busy`` and nothing stored."""
        unfinished = [Unfinished(*g) for g in
                      await self.database.run(lambda st: st.unfinished_games())]
        self.caps.forget(unfinished)
        group = self.caps.check(unfinished, address, HUMAN not in new.kinds)
        tokens = [new_token() if new.fresh_key(i) else None for i in range(len(new.seats))]
        seat_rows = [SeatRow(name, seat.kind, bot, seat_digests(token, new.carried(i)),
                             joined=seat.kind == BOT)
                     for i, (seat, bot, name, token)
                     in enumerate(zip(new.seats, new.bots, new.names, tokens, strict=True))]
        row = GameRow(
            id=new_game_id(), name=new.game_name,
            options=Options(len(new.seats), new.deck, new.names, new.companions,
                            new.first_player),
            # The server's secret randomness unless one person chose a seed (practice,
            # reproducing a game): the row keeps it, so the record replays after the game.
            seed=new.seed if new.seed is not None else secrets.randbelow(1 << 62),
            seats=seat_rows,
            status=RUNNING if new.begin or HUMAN not in new.kinds else OPEN,
            hints=new.hints, clock=clocks.new_clock(new.clock, len(new.seats)),
            stand_in=new.stand_in, spectator_chat=new.spectator_chat)
        # The deal by card ids and the names the texts are written in, kept with the game: it
        # reads the same after a change to the order of the card files or to a card's name.
        row.setup = {"deal": start_to_json(seeded_start(row.options, row.seed)),
                     "names": CARD_NAMES, "rules": DECISION_RULES}
        table = Table(row)  # checks the options by starting the game (when running)
        if table.state is not None:
            clocks.start(row.clock, to_act(table.state), time.time())
        await self.database.run(lambda st: st.create_game(row))
        self.caps.created(row.id, group)
        session = Session(table, self.settings.away_grace, self.settings.hidden_grace)
        self.sessions[row.id] = session
        self.bots.schedule(session, self.settings.bot_delay)
        self._arm_takeover(session)
        return created_json(row, tokens)

    async def _change(self, session: Session,
                      change: Callable[[GameRow], GameRow | None],
                      renames: bool = False) -> GameRow:
        """Applies a lobby change (seats, status, rematch) made against the latest version;
        on a race with another process, catches up and tries again. ``renames``: the change
        renames seats once play began (a deleted account's), so the stored actions are
        written anew in the new names in the same transaction (``table.renamed_actions``: a
        text names seats), and the game's reviews go with the old texts."""
        for _ in range(3):
            async with session.lock:
                t = session.table
                new = change(t.row.copy())
                if new is None:
                    return t.row
                expected = session.version
                new.version = expected + 1
                if renames and t.state is not None:
                    rows = renamed_actions(t.row, new, t.actions, new.version)
                    done = await self.database.run(
                        lambda st: st.replace_actions(new, expected, rows))  # noqa: B023
                    if done:
                        session.table = Table(new, rows)
                        self.advice.reviews.forget(new.id)  # (the store's went with them)
                elif done := await self.database.run(
                        lambda st: st.update_game(new, expected)):  # noqa: B023
                    was_open = t.state is None
                    t.row = new
                    if was_open and new.status != OPEN:
                        t.begin()
                if done:
                    self._changed(session)
                    return new
                await self._sync_locked(session)
        raise GameError("busy", N_("the game is changing too fast; try again"), 409)

    async def rename(self, session: Session, change: Callable[[GameRow], GameRow]) -> GameRow:
        """A seat's name changed (a deleted account's seats): ``_change`` with its stored
        actions written anew."""
        return await self._change(session, change, renames=True)

    async def join(self, game_id: str, seat: int, token: str, name: str | None) -> GameRow:
        session = await self.need(game_id)

        def change(row: GameRow) -> GameRow | None:
            check_token(row, seat, token)
            try:
                wanted = clean(name or "")
            except SetupError as exc:
                raise GameError("malformed", str(exc), 400, error=exc) from None
            seat_row = row.seats[seat]
            if wanted and wanted != seat_row.name:
                if row.status != OPEN:
                    raise GameError("illegal", N_("names are fixed once the game has started"))
                names = [s.name for s in row.seats]
                names[seat] = wanted
                try:
                    tidy = check_seat_names(names)
                except SetupError as exc:
                    raise GameError("malformed", str(exc), 400, error=exc) from None
                seat_row.name = tidy[seat]
                row.options = replace(row.options, names=tidy)
            elif seat_row.joined:
                return None
            seat_row.joined = True
            return row

        return await self.tasks.detached(self._change(session, change))

    async def leave(self, game_id: str, seat: int, token: str) -> GameRow:
        session = await self.need(game_id)

        def change(row: GameRow) -> GameRow | None:
            check_token(row, seat, token)
            if not row.seats[seat].joined:
                return None
            row.seats[seat].joined = False
            return row

        return await self.tasks.detached(self._change(session, change))

    # --- a bot in a person's place (standins.py)

    async def vote(self, game_id: str, seat: int, token: str, target: int) -> GameRow:
        """``seat`` asks that a bot play ``target``'s seat now (all the others asking: it
        does)."""
        session = await self.need(game_id)
        t = session.table
        return await self.tasks.detached(self._change(session, lambda row: standins.vote(
            row, t.state, len(t.actions), seat, token, target)))

    async def concede(self, game_id: str, seat: int, token: str) -> GameRow:
        """``seat`` concedes on its turn: a bot plays it out."""
        session = await self.need(game_id)
        t = session.table
        return await self.tasks.detached(self._change(session, lambda row: standins.concede(
            row, t.state, len(t.actions), seat, token)))

    async def abandon(self, game_id: str, seat: int, token: str) -> GameRow:
        """The one person of a game against bots ends it where it stands."""
        session = await self.need(game_id)
        t = session.table
        return await self.tasks.detached(self._change(session, lambda row: standins.abandon(
            row, t.state, seat, token, time.time())))

    async def reclaim(self, game_id: str, seat: int, token: str) -> GameRow:
        """The person takes back the seat a bot was playing for them."""
        session = await self.need(game_id)
        t = session.table
        return await self.tasks.detached(self._change(session, lambda row: standins.reclaim(
            row, t.state, len(t.actions), seat, token, time.time())))

    # --- a bot in the place of a person out of time, or away (clocks.py, standins.py)

    def _arm_takeover(self, session: Session) -> None:
        """Sets the game's timer for the moment a bot takes the seat to act: its clock run
        out and the grace gone by, or (a game without a clock) its person away for
        ``away_takeover`` seconds of their turn. Called after every change and every
        presence change; the takeover itself is a row change checked anew (once, whichever
        process is first)."""
        if session.takeover_timer is not None:
            session.takeover_timer.cancel()
            session.takeover_timer = None
        due = self._takeover_due(session)
        if due is None or self.tasks.closed:
            return
        wait = max(0.0, due - time.time()) + 0.05
        with contextlib.suppress(RuntimeError):  # no event loop (a test's direct call)
            session.takeover_timer = asyncio.get_running_loop().call_later(
                wait, lambda: self.tasks.spawn(self._take_over(session)))

    def _takeover_due(self, session: Session) -> float | None:
        t = session.table
        s = t.state
        if s is None or s.over or t.row.status != RUNNING or not t.person_plays(to_act(s)):
            return None
        if t.row.clock is not None:
            out = clocks.runs_out(t.row.clock)
            return None if out is None else out + self.settings.timeout_grace
        return self._away_due(session)

    def _away_due(self, session: Session) -> float | None:
        """When the person to act, away, has been away that long during their turn; None
        while they are here, or when away takeovers are off. Over a shared PostgreSQL, what
        the other processes see counts too (``_heard_presence``)."""
        if self.settings.away_takeover <= 0:
            return None
        t = session.table
        assert t.state is not None
        seat = to_act(t.state)
        if not standins.voters(t.row, seat):
            return None  # nobody else waits: one person against bots is never taken over
        presence = session.presence
        _status, why, since = presence.seat_status(
            seat, [c for c in session.conns if c.seat == seat])
        if why is None:
            return None  # connected and shown (one going away is due once the grace is up)
        grace = presence.hidden_grace if why == HIDDEN else presence.gone_grace
        acting = presence.acting[1] if presence.acting is not None else since
        return max(since + grace, acting) + self.settings.away_takeover

    async def _take_over(self, session: Session) -> None:
        session.takeover_timer = None
        due = self._takeover_due(session)
        if due is None:
            return
        now = time.time()
        if now < due:
            self._arm_takeover(session)
            return
        t = session.table
        grace = self.settings.timeout_grace
        if t.row.clock is not None:
            def change(row: GameRow) -> GameRow | None:
                return standins.time_out(row, t.state, len(t.actions), grace, now)
        else:
            def change(row: GameRow) -> GameRow | None:
                return standins.walked_away(row, t.state, len(t.actions))
        try:
            await self.tasks.detached(self._change(session, change))
        except GameError as exc:
            log.warning("game %s: no bot took the seat: %s", session.id, exc.message)
        self._arm_takeover(session)

    async def begin(self, game_id: str, seat: int, token: str) -> GameRow:
        """Starts an open game: the host (the first person's seat, seat 0 unless it is a bot)
        may start it whether or not everyone has joined."""
        session = await self.need(game_id)

        def change(row: GameRow) -> GameRow | None:
            check_token(row, seat, token)
            host = next(i for i, s in enumerate(row.seats) if s.kind == HUMAN)
            if seat != host:
                raise GameError("bad_token", N_("only the host (seat {host}) may start the game"),
                                403, host=host)
            if row.status != OPEN:
                raise GameError("illegal", _STATUS_ALREADY[row.status])
            row.status = RUNNING
            clocks.start(row.clock, to_act(session.table.record().first_state()), time.time())
            return row

        return await self.tasks.detached(self._change(session, change))

    async def rematch(self, game_id: str, seat: int, token: str,
                      address: str | None = None) -> dict[str, Any]:
        """A new game like a finished one, same seats; asked again, the same new game. Each
        seat's old token also lets it into the new game, so the old game's page shows each
        player their own link; the asker receives a new key for their own seat and no one
        else's (another seat's key would show its hand)."""
        session = await self.need(game_id)
        row = session.table.row
        check_token(row, seat, token)
        if row.status != FINISHED:
            raise GameError("illegal", N_("a rematch can be asked for once the game is "
                                          "finished"))
        if row.rematch is not None:
            new = (await self.need(row.rematch["game_id"])).table.row
            return created_json(new, [token if i == seat else None
                                      for i in range(len(new.seats))])
        created = await self.create(NewGame.rematch(row, seat), address)

        def change(r: GameRow) -> GameRow | None:
            if r.rematch is not None:
                return None
            r.rematch = {"game_id": created["game_id"]}
            return r

        stored = await self.tasks.detached(self._change(session, change))
        if stored.rematch is not None and stored.rematch["game_id"] != created["game_id"]:
            return await self.rematch(game_id, seat, token, address)  # another was first
        return created
