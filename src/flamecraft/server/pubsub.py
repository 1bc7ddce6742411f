"""Live updates between server processes.

Every process keeps the games it serves in memory and pushes each change to its own WebSocket
clients. With several processes behind one address (PostgreSQL only), a change committed by
one process must reach the clients of the others: the store sends ``NOTIFY flamecraft_games,
'<game id> <version>'`` inside the committing transaction, and each process LISTENs here and
reloads that game (``games.Games.sync``). A notification carries no game data, so a lost one
costs only a delay: after a reconnection every loaded game is re-read.

A new table chat line (``chat.py``) is told the same way on its own channel,
``NOTIFY flamecraft_chat, '<game id> <seq>'``: the other processes read the lines they have
not sent yet from the store and send them to their clients.

Who is at a table (``presence.py``) is each process's own knowledge of its connections; a
process tells the others what it sees of a game's seats on ``flamecraft_presence``, payload
``'<game id> <facts as JSON>'`` (``presence.facts_json``), sent by the bus itself (``tell``:
it is not part of any change's transaction).

With SQLite (one process) there is nothing to listen to: ``LocalBus`` does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from .settings import is_postgres
from .store import CHANNEL, CHAT_CHANNEL, require_driver

log = logging.getLogger("flamecraft.server")

OnChange = Callable[[str, int], None]
OnReconnect = Callable[[], None]
OnChat = Callable[[str, int], None]  # a game's new chat line: its id and the line's seq
OnPresence = Callable[[str, str], None]  # a game's presence facts: its id and their JSON
PRESENCE_CHANNEL = "flamecraft_presence"


class Bus:
    """Hears of changes made by other processes. The base class hears nothing (one process)."""

    shared = False  # whether there are other processes to tell anything

    async def start(self, on_change: OnChange, on_reconnect: OnReconnect,
                    on_chat: OnChat | None = None,
                    on_presence: OnPresence | None = None) -> None:
        """Starts listening; returns once listening (so no change is missed after it)."""

    async def tell(self, channel: str, payload: str) -> None:
        """Tells the other processes something no transaction carries (presence)."""

    async def stop(self) -> None:
        """Stops listening."""


class LocalBus(Bus):
    """One process: every change is made here, so there is nothing to hear."""


class PostgresBus(Bus):
    """LISTEN on the store's NOTIFY channels, on its own connection, reconnecting on
    failure; ``tell`` sends on a second one (the listening one waits in ``notifies``)."""

    shared = True

    def __init__(self, url: str, retry_seconds: float = 1.0):
        require_driver(url)  # psycopg (the postgres extra), or a clear error now
        self.url = url
        self.retry_seconds = retry_seconds
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._sender: Any = None  # the connection ``tell`` sends on, made on first use
        self._sending = asyncio.Lock()
        self.connects = 0  # times it has begun listening (more than one: it reconnected)

    async def start(self, on_change: OnChange, on_reconnect: OnReconnect,
                    on_chat: OnChat | None = None,
                    on_presence: OnPresence | None = None) -> None:
        self._task = asyncio.create_task(
            self._run(on_change, on_reconnect, on_chat, on_presence))
        ready = asyncio.create_task(self._ready.wait())
        done, _ = await asyncio.wait({ready, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            self._task.result()  # raises what stopped the listener

    async def _run(self, on_change: OnChange, on_reconnect: OnReconnect,
                   on_chat: OnChat | None = None,
                   on_presence: OnPresence | None = None) -> None:
        import psycopg

        numbered: dict[str, Callable[[str, int], None]] = {CHANNEL: on_change}
        if on_chat is not None:
            numbered[CHAT_CHANNEL] = on_chat
        first = True
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                async with conn:
                    for channel in [*numbered, *([PRESENCE_CHANNEL] if on_presence else [])]:
                        await conn.execute(f"LISTEN {channel}")
                    if not first:
                        on_reconnect()  # notifications may have been missed meanwhile
                        log.warning("the PostgreSQL listener is back")
                    first = False
                    self.connects += 1
                    self._ready.set()
                    async for note in conn.notifies():
                        game_id, _, rest = note.payload.partition(" ")
                        try:
                            if note.channel == PRESENCE_CHANNEL and on_presence is not None:
                                on_presence(game_id, rest)
                            elif note.channel in numbered:
                                numbered[note.channel](game_id, int(rest))
                        except ValueError:
                            log.warning("ignored a malformed notification %r",
                                        note.payload[:200])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if first:
                    raise
                log.warning("lost the PostgreSQL listener (%s); reconnecting", exc)
                await asyncio.sleep(self.retry_seconds)

    async def tell(self, channel: str, payload: str) -> None:
        """NOTIFY on the sending connection, (re)connected as needed. A failure is logged
        and dropped: presence is told again within a heartbeat."""
        import psycopg

        async with self._sending:
            try:
                if self._sender is None or self._sender.closed:
                    self._sender = await psycopg.AsyncConnection.connect(self.url,
                                                                         autocommit=True)
                await self._sender.execute("SELECT pg_notify(%s, %s)", (channel, payload))
            except (psycopg.Error, OSError) as exc:
                log.warning("could not tell the other processes (%s)", exc)
                if self._sender is not None:
                    with contextlib.suppress(Exception):
                        await self._sender.close()
                self._sender = None

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        async with self._sending:
            if self._sender is not None:
                with contextlib.suppress(Exception):
                    await self._sender.close()
                self._sender = None


def make_bus(url: str) -> Bus:
    """The bus for a database URL: LISTEN/NOTIFY on PostgreSQL, nothing on SQLite."""
    return PostgresBus(url) if is_postgres(url) else LocalBus()
