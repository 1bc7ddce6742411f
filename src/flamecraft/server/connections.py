"""The live side of the loaded games: each WebSocket client (``Connection``), each loaded
game with its clients and what is cached for them (``Session``), and ``Connections``, which
lets clients in within the caps and sends each the latest state.

A state message is built once per seat and language after each change and shared by every
client of that seat; a slow client drops its oldest unsent states, never the newest, so it
holds nobody up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

from ..core.engine import to_act
from ..core.tr import N_
from . import clocks
from .gameerror import GameError, retry_of
from .language import DEFAULT as DEFAULT_LANGUAGE
from .language import say
from .presence import Presence, Told
from .settings import Settings
from .store import HUMAN, RUNNING
from .table import Table
from .wire import rematch_messages, state_common, state_text, turns_json


class Connection:
    """One WebSocket client of a game: its seat (None: a spectator), the token it came with
    (to show its rematch link), the language it reads (``language.py``) and the messages
    waiting to be sent to it."""

    def __init__(self, seat: int | None, token: str | None, queue_size: int,
                 lang: str = DEFAULT_LANGUAGE):
        self.seat, self.token, self.lang = seat, token, lang
        self.address: str | None = None  # the client's address, once admitted
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.queue_size = max(1, queue_size)
        # whether it is sent "presence" messages: only once it has sent one itself (a script
        # reading the raw state messages is not sent what it did not ask for)
        self.listening = False

    def push(self, message: str) -> None:
        """Queues a message; a slow client loses its oldest states (each is a whole
        snapshot), never its newest."""
        while self.queue.qsize() >= self.queue_size:
            self.queue.get_nowait()
        self.queue.put_nowait(message)

    def error(self, code: str, message: str, **params: Any) -> None:
        """Sends an error: ``message`` is a msgid (marked ``N_``) read in this client's
        language, its ``{placeholders}`` filled from ``params``."""
        self.push(json.dumps({"type": "error", "code": code,
                              "message": say(self.lang, message, params)}))

    def failed(self, exc: GameError) -> None:
        """Sends a GameError, in this client's language (its code unchanged)."""
        self.push(json.dumps({"type": "error", "code": exc.code,
                              "message": exc.message_in(self.lang), **retry_of(exc)}))


class Session:
    """A loaded game: its table, the lock its changes take, its connections, and what each
    concern keeps for it while it is loaded (the messages of this version, the bot move
    under way, the hint)."""

    def __init__(self, table: Table, gone_grace: float = 3.0, hidden_grace: float = 30.0):
        self.table = table
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.bot_version = -1  # the version a bot move is scheduled for (botseats.py)
        self.touched = time.time()  # the last change or connection (idle games leave)
        self.messages: dict[tuple[int | None, str], str] = {}  # per seat and language, now
        self.common: dict[str, Any] | None = None  # the part every seat shares, this version
        self.hinting = asyncio.Lock()  # one hint computed at a time per game (advice.py)
        self.hinted: tuple[int, str, dict[str, Any]] | None = None  # version, language, answer
        self.presence = Presence(time.time, gone_grace, hidden_grace)  # who is at the table
        self.presence_timer: asyncio.TimerHandle | None = None  # the next change by the grace
        self.takeover_timer: asyncio.TimerHandle | None = None  # a bot taking a seat (games.py)
        self.told: Told | None = None  # what this process last told the others of its seats
        # A bot move that failed and waits to be tried again (botseats.py): why ("store",
        # "workers" or "bot") and when (Unix seconds); None while the game goes on.
        self.stalled: tuple[str, float] | None = None

    @property
    def id(self) -> str:
        return self.table.row.id

    @property
    def version(self) -> int:
        return self.table.row.version


# What the game's people read of a stalled bot move, per cause (``Session.stalled``).
STALLED_TEXT = {
    "store": N_("the game cannot be saved just now (its store does not answer): the bot's "
                "move waits and is tried again in {wait} s; nothing stored is lost"),
    "workers": N_("the bots' worker processes failed and are being started again: the bot's "
                  "move is tried again in {wait} s"),
    "bot": N_("a bot failed to choose its move: it tries again in {wait} s"),
}
HEALED_TEXT = N_("the game goes on: the bots' moves are made again")


def stalled_text(session: Session, lang: str) -> str | None:
    """The "stalled" message of a game whose bot move waits to be tried again, or None."""
    if session.stalled is None:
        return None
    why, retry = session.stalled
    wait = max(0, round(retry - time.time()))
    return json.dumps({"type": "stalled", "why": why, "retry": wait,
                       "message": say(lang, STALLED_TEXT[why], {"wait": wait})})


def common_of(t: Table) -> dict[str, Any]:
    """What the state message of every seat of ``t`` holds alike."""
    return state_common(t.row, t.state, len(t.actions))


def seat_message(t: Table, seat: int | None, common: dict[str, Any],
                 lang: str = DEFAULT_LANGUAGE) -> str:
    """The state message of ``seat`` (None: a spectator) at ``t`` in ``lang``, as JSON text."""
    return state_text(common, seat, t.state, lang, t.can_undo(seat), t.log_for(seat, lang),
                      turns_json(t.log, seat, lang))


class Connections:
    """Who is connected to this process's games: clients let in within the caps (per client
    address, and spectators per game), each sent every new state. ``unwatched`` hears of a
    game whose last client left."""

    def __init__(self, settings: Settings, unwatched: Callable[[Session], None],
                 retime: Callable[[Session], None] = lambda session: None,
                 share: Callable[[Session], None] = lambda session: None):
        self.settings = settings
        self.unwatched = unwatched
        # after every change and every presence change: when a bot may take a seat (an
        # out-of-time or away person's) may have changed (games.py)
        self.retime = retime
        # after every presence change here: the other processes are told (games.py)
        self.share = share
        self.addresses: dict[str, int] = {}  # live connections per client address

    def subscribe(self, session: Session, conn: Connection, address: str = "?") -> None:
        """Adds a live connection, within the caps: connections per client address, and
        spectators per game (a seat's own connection is never turned away by the latter)."""
        cap = self.settings.max_connections_per_address
        if self.addresses.get(address, 0) >= cap:
            raise GameError("too_many", N_("this address already has {cap} live connections "
                                           "open, the most allowed: close a tab or two"), 429,
                            cap=cap)
        if conn.seat is None:
            watching = sum(1 for c in session.conns if c.seat is None)
            if watching >= self.settings.max_spectators:
                raise GameError("too_many", N_("this game already has as many spectators as "
                                               "it takes ({watching}): try again later"), 429,
                                watching=watching)
        conn.address = address
        self.addresses[address] = self.addresses.get(address, 0) + 1
        session.touched = time.time()
        session.conns.add(conn)
        session.presence.opened(conn.seat)
        self.push(session, conn)
        stalled = stalled_text(session, conn.lang)
        if stalled is not None:  # a bot move failed and waits: say so from the start
            conn.push(stalled)
        self.tell_presence(session)

    def unsubscribe(self, session: Session, conn: Connection) -> None:
        if conn in session.conns and conn.address is not None:
            left = self.addresses.get(conn.address, 1) - 1
            if left > 0:
                self.addresses[conn.address] = left
            else:
                self.addresses.pop(conn.address, None)
        session.touched = time.time()
        was_in = conn in session.conns
        session.conns.discard(conn)
        if was_in:
            session.presence.closed(conn, conn.seat,
                                    any(c.seat == conn.seat for c in session.conns))
            self.tell_presence(session)
        if not session.conns and session.table.row.status != RUNNING:
            if session.presence_timer is not None:
                session.presence_timer.cancel()
            self.unwatched(session)

    def broadcast(self, session: Session) -> None:
        """After a change: this version's messages are built anew and sent to every client."""
        session.messages.clear()
        session.common = None
        for conn in list(session.conns):
            self.push(session, conn)
        acting = session.presence.acting
        session.presence.to_act(_seat_to_act(session.table))
        if session.presence.acting != acting or session.table.row.clock is not None:
            self.tell_presence(session)  # (a clock's banks change with the moves; it retimes)
        else:
            self.retime(session)

    def tell_stalled(self, session: Session) -> None:
        """Tells every client of the game that its bot move failed and when it is tried
        again (``Session.stalled``), each in its language."""
        for conn in list(session.conns):
            text = stalled_text(session, conn.lang)
            if text is not None:
                conn.push(text)

    def tell_healed(self, session: Session) -> None:
        """Tells every client of the game that it goes on after a stall."""
        for conn in list(session.conns):
            conn.push(json.dumps({"type": "healed", "message": say(conn.lang, HEALED_TEXT)}))

    # --- presence (presence.py)

    def said_presence(self, session: Session, conn: Connection, hidden: bool) -> None:
        """A client's "presence" message: its tab is hidden or shown. From then on it is
        sent every presence message (now, one at once)."""
        first = not conn.listening
        conn.listening = True
        if session.presence.said(conn, hidden):
            self.tell_presence(session)
        elif first:
            conn.push(self._presence_text(session))

    def tell_presence(self, session: Session) -> None:
        """Sends the presence message to every client that listens, and sets a timer for
        the next change the grace alone makes (a person counted away)."""
        session.presence.to_act(_seat_to_act(session.table))
        listening = [c for c in session.conns if c.listening]
        if listening:
            text = self._presence_text(session)
            for conn in listening:
                conn.push(text)
        if session.presence_timer is not None:
            session.presence_timer.cancel()
            session.presence_timer = None
        wait = session.presence.next_change(len(session.table.row.seats), _bots(session),
                                            lambda seat: _conns_of(session, seat))
        if wait is not None and session.conns:
            with contextlib.suppress(RuntimeError):  # no event loop: nobody to tell
                session.presence_timer = asyncio.get_running_loop().call_later(
                    wait + 0.05, self.tell_presence, session)
        self.share(session)
        self.retime(session)

    def facts(self, session: Session, process: str, ask: bool = False) -> Told:
        """What this process sees of ``session``'s seats, to tell the others."""
        t = session.table
        return Told(process, session.presence.facts(len(t.row.seats), _bots(session),
                                                     lambda seat: _conns_of(session, seat)),
                    sum(1 for c in session.conns if c.seat is None), ask)

    def _presence_text(self, session: Session) -> str:
        t = session.table
        counted = [t.person_plays(i) for i in range(len(t.row.seats))]
        return session.presence.message(
            len(t.row.seats), _bots(session), lambda seat: _conns_of(session, seat),
            sum(1 for c in session.conns if c.seat is None),
            clocks.public_json(t.row.clock, counted, session.presence.clock())
            if t.row.status == RUNNING else None)

    def push(self, session: Session, conn: Connection) -> None:
        """Sends a connection the latest state, and then, once a rematch exists, a "rematch"
        message with the connection's own link to it."""
        seat = conn.seat
        text = session.messages.get((seat, conn.lang))
        if text is None:
            if session.common is None:
                session.common = common_of(session.table)
            text = session.messages[(seat, conn.lang)] = seat_message(
                session.table, seat, session.common, conn.lang)
        rematch = session.table.row.rematch
        if rematch is None:
            conn.push(text)
            return
        for message in rematch_messages(text, rematch["game_id"], seat, conn.token):
            conn.push(message)


def _seat_to_act(t: Table) -> int | None:
    """The seat to act in a running game, or None."""
    s = t.state
    if s is None or s.over or t.row.status != RUNNING:
        return None
    return to_act(s)


def _bots(session: Session) -> set[int]:
    return {i for i, seat in enumerate(session.table.row.seats) if seat.kind != HUMAN}


def _conns_of(session: Session, seat: int) -> list[Connection]:
    return [c for c in session.conns if c.seat == seat]
