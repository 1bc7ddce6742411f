"""The table chat (issue 23): short lines to everyone at a game's table, kept with the game.

The seats write; spectators read, and write only where the host allowed it at creation
(``GameRow.spectator_chat``). A line is free text — NFKC-normalised and trimmed, at most
``MAX_CHARS`` characters, refused whole if it holds a control or invisible character (the
message names it) — or one of the ``CANNED`` phrases by its id, which every reader's page
shows in its own language. Each connection may write a burst of ``Settings.chat_burst``
lines, then one every ``Settings.chat_seconds``; a refused line is answered with an error and
nothing is stored or sent.

A line carries only what its writer typed, with the seat, the seat's name, the time and the
number of actions applied then (``step``: where the replay shows it) — never anything of the
game — so every connection is sent the same bytes. A connection is sent the chat once it
asks (``{"type": "chat", "history": true}``, or by writing a line): the last ``RECENT``
lines, then each new one. With several processes on PostgreSQL a stored line is told to the
others (``NOTIFY flamecraft_chat``, ``pubsub.py``), which read the lines they have not sent
yet and send them on. The protocol is docs/server.md's "Table chat".
"""

from __future__ import annotations

import json
import time
import unicodedata
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..core.tr import N_
from .connections import Connection, Session
from .database import Database
from .gameerror import GameError
from .guards import TokenBucket
from .settings import Settings
from .store import ChatRow
from .tasks import Tasks

MAX_CHARS = 200  # after NFKC and trimming
RECENT = 100  # lines a newly connected client is sent
CHAT_PAGE = 500  # lines at most in one answer of GET /api/games/{id}/chat
# The canned phrases by id, in English (the browser shows each in its reader's language,
# from its own catalogue: static/chat.js holds the same words).
CANNED = {"hello": "Hello", "gg": "Good game", "wp": "Well played",
          "thinking": "Thinking…", "moment": "Sorry, one moment"}
# Never in a line: controls (a newline, a bell), and every invisible character (format
# characters: zero-width spaces and joiners, bidirectional overrides and isolates, the
# byte-order mark…; surrogates, private use, unassigned; line and paragraph separators).
_CONTROL = frozenset({"Cc"})
_INVISIBLE = frozenset({"Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def chat_json(line: ChatRow) -> dict[str, Any]:
    """A line as it is sent: ``{"seq", "seat", "name", "text", "at", "step"}`` and, for a
    canned phrase, its id in ``"canned"`` (``text``: its English words)."""
    out: dict[str, Any] = {
        "seq": line.seq, "seat": line.seat, "name": line.name, "text": line.text,
        "at": datetime.fromtimestamp(line.created, UTC).isoformat(timespec="seconds"),
        "step": line.step}
    if line.canned is not None:
        out["canned"] = line.canned
    return out


def chat_message(lines: list[ChatRow], history: bool = False) -> str:
    """The "chat" message of these lines, as JSON text (``history``: the recent lines a
    connection is sent when it asks)."""
    msg: dict[str, Any] = {"type": "chat", "lines": [chat_json(x) for x in lines]}
    if history:
        msg["history"] = True
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


def clean_line(text: str) -> str:
    """A typed line as it is stored: NFKC-normalised and trimmed. Raises GameError
    ("malformed", naming the character) for a control or invisible character, "malformed" for
    an empty line and "too_long" past ``MAX_CHARS``."""
    for candidate in (text, unicodedata.normalize("NFKC", text)):
        for ch in candidate:
            category = unicodedata.category(ch)
            code = f"U+{ord(ch):04X}"
            if category in _CONTROL:
                raise GameError("malformed", N_("a chat line may not hold a control "
                                                "character ({char}): it was not sent"),
                                char=code)
            if category in _INVISIBLE or ch in "\u115f\u1160\u3164\uffa0":  # Hangul fillers
                raise GameError("malformed", N_("a chat line may not hold an invisible "
                                                "character ({char}): it was not sent"),
                                char=code)
    tidy = unicodedata.normalize("NFKC", text).strip()
    if not tidy:
        raise GameError("malformed", N_("a chat line needs some text"))
    if len(tidy) > MAX_CHARS:
        raise GameError("too_long", N_("a chat line has at most {most} characters; this one "
                                       "has {n}: it was not sent"), most=MAX_CHARS, n=len(tidy))
    return tidy


@dataclass
class Room:
    """What this process keeps of a loaded game's chat: its recent lines, the last seq it
    has sent, and the connections that asked for the chat."""

    lines: list[ChatRow]
    seq: int = -1
    listeners: weakref.WeakSet[Connection] = field(default_factory=weakref.WeakSet)


class Chat:
    """The table chat of this process's games: lines checked, stored and sent to every
    connection that listens, here and (through the store's NOTIFY) in other processes."""

    def __init__(self, settings: Settings, database: Database, tasks: Tasks,
                 sessions: dict[str, Session]):
        self.settings = settings
        self.database = database
        self.tasks = tasks
        self.sessions = sessions
        self.rooms: weakref.WeakKeyDictionary[Session, Room] = weakref.WeakKeyDictionary()

    def bucket(self, clock: Callable[[], float] = time.monotonic) -> TokenBucket:
        """A connection's chat rate limit: a burst, then one line every ``chat_seconds``."""
        seconds = self.settings.chat_seconds
        return TokenBucket(1.0 / seconds if seconds > 0 else 1e9, self.settings.chat_burst,
                           clock)

    async def room(self, session: Session) -> Room:
        """The game's chat, read from the store the first time it is asked for."""
        room = self.rooms.get(session)
        if room is not None:
            return room
        lines = await self.database.run(lambda st: st.load_chat(session.id, last=RECENT))
        room = self.rooms.get(session)  # another caller may have read it meanwhile
        if room is None:
            room = self.rooms[session] = Room(lines, lines[-1].seq if lines else -1)
        return room

    async def history(self, session: Session, conn: Connection) -> None:
        """A connection asks for the chat: the recent lines now, then each new one."""
        room = await self.room(session)
        room.listeners.add(conn)
        conn.push(chat_message(room.lines, history=True))

    async def say(self, session: Session, conn: Connection, msg: dict[str, Any],
                  limit: TokenBucket) -> None:
        """A "chat" message with ``text`` or ``canned``: checked (who may write, the words,
        the rate), stored, then sent to everyone who listens. A refusal is a GameError,
        raised before anything is stored."""
        row = session.table.row
        if conn.seat is None and not row.spectator_chat:
            raise GameError("chat_off", N_("spectators may read this game's chat but not "
                                           "write in it (the host did not allow it)"), 403)
        text, canned = msg.get("text"), msg.get("canned")
        if canned is not None:
            if text is not None or not isinstance(canned, str) or canned not in CANNED:
                raise GameError("malformed", N_("a chat message needs either a 'text' or a "
                                                "'canned' phrase, one of {ids}"),
                                ids=", ".join(CANNED))
            words = CANNED[canned]
        elif isinstance(text, str):  # (at most 8 KiB: the message's own limit)
            words = clean_line(text)
        else:
            raise GameError("malformed", N_("a chat message needs either a 'text' or a "
                                            "'canned' phrase, one of {ids}"),
                            ids=", ".join(CANNED))
        if not limit.allow():
            raise GameError("rate_limited", N_("chat lines are limited to {burst} at once, "
                                               "then one every {seconds} seconds: wait a "
                                               "moment (this one was not sent)"), 429,
                            burst=self.settings.chat_burst,
                            seconds=f"{self.settings.chat_seconds:g}")
        room = await self.room(session)
        room.listeners.add(conn)
        name = row.seats[conn.seat].name if conn.seat is not None else ""
        line = ChatRow(-1, conn.seat, name, words, canned, len(session.table.actions),
                       time.time())
        after = room.seq
        lines = await self.database.run(lambda st: st.add_chat(session.id, line, after))
        if lines is None:
            raise GameError("not_found", N_("there is no game {game}"), 404,
                            game=repr(session.id))
        self._deliver(session, room, lines)

    def _deliver(self, session: Session, room: Room, lines: list[ChatRow]) -> None:
        """Sends the lines this process has not sent yet to every connection listening."""
        new = [x for x in lines if x.seq > room.seq]
        if not new:
            return
        room.seq = new[-1].seq
        room.lines = (room.lines + new)[-RECENT:]
        text = chat_message(new)
        for conn in list(session.conns):
            if conn in room.listeners:
                conn.push(text)

    # --- other processes' lines (PostgreSQL NOTIFY, pubsub.py)

    def heard(self, game_id: str, seq: int) -> None:
        """Another process (or this one) stored line ``seq`` of a game: if this process
        has the game's chat and has not sent it, it reads what it missed and sends it."""
        session = self.sessions.get(game_id)
        room = None if session is None else self.rooms.get(session)
        if session is not None and room is not None and seq > room.seq \
                and not self.tasks.closed:
            self.tasks.spawn(self.catch_up(session))

    def reconnected(self) -> None:
        """The listener reconnected: notifications may have been missed."""
        for session in list(self.rooms.keys()):
            if not self.tasks.closed:
                self.tasks.spawn(self.catch_up(session))

    async def catch_up(self, session: Session) -> None:
        room = self.rooms.get(session)
        if room is None:
            return
        after = room.seq
        lines = await self.database.run(lambda st: st.load_chat(session.id, after))
        self._deliver(session, room, lines)

    async def page(self, game_id: str, after: int = -1,
                   limit: int = CHAT_PAGE) -> list[dict[str, Any]]:
        """A game's lines after seq ``after``, oldest first, at most ``limit`` of them (the
        replay reads them all, page by page, to show them with the moves)."""
        return [chat_json(x) for x in
                await self.database.run(lambda st: st.load_chat(game_id, after, first=limit))]

