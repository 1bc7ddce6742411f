"""The live table over WebSocket (``/ws/games/{id}``): letting a client in (its seat's key,
the caps), sending it every state, and reading its messages (act, undo, presence, chat, ping),
each checked and bounded in size and rate; a refused message is answered, never a dropped
connection.
The protocol is docs/server.md's "WebSocket" section."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, WebSocket
from starlette.websockets import WebSocketDisconnect

from ..core.tr import N_
from .connections import Connection, Session
from .gameerror import Busy, GameError, retry_of
from .games import Games
from .guards import TokenBucket, address_group
from .language import request_language
from .quotas import Reads
from .settings import Settings
from .tokens import token_ok

log = logging.getLogger("flamecraft.server")

SUBPROTOCOL = "flamecraft"  # accepted when offered (a browser offering protocols needs one)
SEAT_PROTOCOL = "flamecraft-seat."  # "flamecraft-seat.<seat>.<key>": the seat's key
_LAST = "\x00last"  # put in a connection's queue: its sender stops there (never a message)
CLOSE_FLUSH = 2.0  # seconds a closing connection is given to take the messages before it


def add_live_route(app: FastAPI, games: Games, settings: Settings,
                   clock: Callable[[], float], reads: Reads | None = None) -> None:
    """The WebSocket route; each connection a read of its game (``reads``: the address's
    budget, which a connection that must load its game would otherwise skip)."""

    @app.websocket("/ws/games/{game_id}")
    async def live(websocket: WebSocket, game_id: str) -> None:
        offered = websocket.scope.get("subprotocols") or []
        await websocket.accept(subprotocol=SUBPROTOCOL if SUBPROTOCOL in offered else None)
        if reads is not None:
            try:
                reads.charge(websocket.client.host if websocket.client else "?")
            except GameError as exc:
                await _refuse(websocket, exc, 1013)
                return
        await _live(websocket, game_id, games, settings, clock)


def seat_key(websocket: WebSocket) -> tuple[str | None, str | None]:
    """The seat and key a connection asks for: from a ``flamecraft-seat.<seat>.<key>``
    subprotocol (what the browser sends: a header, so the key stays out of URLs and logs),
    else from ``?seat=&token=`` (scripts and older clients)."""
    for offered in websocket.scope.get("subprotocols") or []:
        if isinstance(offered, str) and offered.startswith(SEAT_PROTOCOL):
            seat, _, token = offered[len(SEAT_PROTOCOL):].partition(".")
            return seat, token or None
    return websocket.query_params.get("seat"), websocket.query_params.get("token") or None


async def _refuse(websocket: WebSocket, exc: GameError, close_code: int) -> None:
    message = exc.message_in(request_language(websocket))
    await websocket.send_text(json.dumps({"type": "error", "code": exc.code,
                                          "message": message, **retry_of(exc)}))
    await websocket.close(close_code)


async def _admit(websocket: WebSocket, game_id: str, games: Games,
                 settings: Settings) -> tuple[Session, Connection] | None:
    """The game and the new client's connection, subscribed; or None, the client refused
    (no such game, a wrong key, past a cap) and its socket closed."""
    try:
        session = await games.get(game_id, address=websocket.client.host
                                  if websocket.client else "?")
    except GameError as exc:  # (a full load lane: 1013, "try again later")
        await _refuse(websocket, exc, 1013 if isinstance(exc, Busy) else 4500)
        return None
    if session is None:
        await _refuse(websocket, GameError("not_found", N_("there is no game {game}"),
                                           game=repr(game_id)), 4404)
        return None
    seat_text, token = seat_key(websocket)
    seat: int | None = None
    if seat_text not in (None, "") or token is not None:
        try:
            seat = int(seat_text or "")
        except ValueError:
            seat = -1
        if not token_ok(session.table.row, seat, token):
            await _refuse(websocket, GameError("bad_token", N_(
                "this link does not open a seat of this game (check that it was copied "
                "whole)")), 4403)
            return None
    conn = Connection(seat, token, settings.send_queue, request_language(websocket))
    try:
        games.connections.subscribe(session, conn, address_group(  # an IPv6 /64 as one
            websocket.client.host if websocket.client else "?"))
    except GameError as exc:
        await _refuse(websocket, exc, 4429)
        return None
    return session, conn


async def _live(websocket: WebSocket, game_id: str, games: Games, settings: Settings,
                clock: Callable[[], float]) -> None:
    """One WebSocket client: sends it every state, reads its moves (checked and bounded), in
    the language it asked for (``?lang=``); ``clock`` times the message rate limit."""
    admitted = await _admit(websocket, game_id, games, settings)
    if admitted is None:
        return
    session, conn = admitted
    sender = asyncio.create_task(_send_all(websocket, conn))
    limit = TokenBucket(settings.max_messages_per_second, settings.message_burst, clock)
    chat_limit = games.chat.bucket(clock)  # the table chat's own (chat.py)
    warned: float | None = None  # when "rate_limited" was last said
    strikes = 0  # messages refused as too big or not the protocol
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            data: str | bytes | None = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            size = len(data.encode() if isinstance(data, str) else data)
            if size > settings.max_message_bytes:
                # Answered (so a client learns the limit) and charged to the bucket by its
                # size: 60 KB messages at the rate of small ones slowed every other game
                # 100-fold; a few of them close the connection.
                limit.spend(size // settings.max_message_bytes)
                strikes += 1
                conn.error("too_big", N_("messages are limited to {limit} bytes; this one has "
                                         "{size}"), limit=settings.max_message_bytes, size=size)
            elif not limit.allow():
                now = clock()
                if warned is None or now - warned > 1.0:
                    warned = now
                    conn.error("rate_limited", N_("more than {burst} messages at once or {rate} "
                                                  "a second: slow down (this one was ignored)"),
                               burst=settings.message_burst,
                               rate=settings.max_messages_per_second)
            elif not await _handle(data, session, conn, games, chat_limit):
                strikes += 1
            if strikes >= settings.max_bad_messages:
                await _close_bad(websocket, conn, sender, strikes)
                break
    except WebSocketDisconnect:
        pass
    finally:
        games.connections.unsubscribe(session, conn)
        sender.cancel()


async def _close_bad(websocket: WebSocket, conn: Connection, sender: asyncio.Task[None],
                     strikes: int) -> None:
    """Closes a connection that sent ``strikes`` messages too big or not of the protocol
    (1008, policy violation), once what it was told so far, and why it is closed, are sent."""
    conn.error("closed", N_("the connection was closed after {count} messages that were too "
                            "big or not of the protocol; reconnect and send protocol "
                            "messages"), count=strikes)
    conn.queue.put_nowait(_LAST)
    with contextlib.suppress(TimeoutError):  # a client that does not read is closed anyway
        await asyncio.wait_for(sender, CLOSE_FLUSH)
    with contextlib.suppress(Exception):  # it went away meanwhile
        await websocket.close(1008, "too many bad messages")


async def _send_all(websocket: WebSocket, conn: Connection) -> None:
    """Sends the connection's messages in order, until ``_LAST``."""
    try:
        while (text := await conn.queue.get()) is not _LAST:
            await websocket.send_text(text)
    except Exception:  # the client has gone: the receiving side ends the connection
        return


async def _chat(msg: dict[str, Any], session: Session, conn: Connection, games: Games,
                chat_limit: TokenBucket | None) -> None:
    """A "chat" message: ``history`` asks for the chat, else a line to write (chat.py). A
    refused line is answered with ``"chat": true`` in its error, so the page shows it in the
    chat panel."""
    if msg.get("history") is True and "text" not in msg and "canned" not in msg:
        await games.chat.history(session, conn)
        return
    try:
        await games.chat.say(session, conn, msg, chat_limit or games.chat.bucket())
    except GameError as exc:
        conn.push(json.dumps({"type": "error", "code": exc.code,
                              "message": exc.message_in(conn.lang), "chat": True}))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


async def _handle(data: str | bytes, session: Session, conn: Connection, games: Games,
                  chat_limit: TokenBucket | None = None) -> bool:
    """One client message: act, undo, presence, chat or ping. Anything else is
    "malformed". False if it was not of the protocol at all (not a JSON object, or of no
    known type): the connection's strikes (``max_bad_messages``)."""
    try:
        msg = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        conn.error("malformed", N_("messages must be JSON objects"))
        return False
    except RecursionError:  # "[[[[…]]]]": a few KiB nested thousands deep
        conn.error("malformed", N_("messages must be JSON objects, nested at most a few "
                                   "levels"))
        return False
    kind = msg.get("type") if isinstance(msg, dict) else None
    try:
        if kind == "ping":
            tag = msg.get("id")
            pong: dict[str, Any] = {"type": "pong"}
            if _whole(tag) or (isinstance(tag, str) and len(tag) <= 64):
                pong["id"] = tag  # echoed, so a client can match answers (and time them)
            conn.push(json.dumps(pong))
        elif kind == "act":
            version, index, typed = msg.get("version"), msg.get("index"), msg.get("text")
            choice = msg.get("choice")
            if not _whole(version):
                conn.error("malformed", N_("an act message needs the whole-number 'version' "
                                           "of the state it answers"))
            elif isinstance(choice, str) and len(choice) <= 4000 and index is None:
                await games.moves.choose(session, conn.seat, version, choice)
            elif _whole(index):
                await games.moves.act(session, conn.seat, version, index=index)
            elif isinstance(typed, str) and index is None:
                await games.moves.act(session, conn.seat, version, typed=typed)
            else:
                conn.error("malformed", N_("an act message needs a whole-number 'index' (or "
                                           "a 'text') of one of the legal actions"))
        elif kind == "undo":
            version = msg.get("version")
            if not _whole(version):
                conn.error("malformed", N_("an undo message needs the whole-number "
                                           "'version' of the state it answers"))
            else:
                await games.moves.undo(session, conn.seat, version)
        elif kind == "presence":
            hidden = msg.get("hidden")
            if not isinstance(hidden, bool):
                conn.error("malformed", N_("a presence message needs 'hidden': true or false "
                                           "(whether the tab is hidden)"))
            else:
                games.connections.said_presence(session, conn, hidden)
        elif kind == "chat":
            await _chat(msg, session, conn, games, chat_limit)
        else:
            conn.error("malformed", N_("unknown message type: expected 'act', 'undo', "
                                       "'presence', 'chat' or 'ping'"))
            return False
    except GameError as exc:
        conn.failed(exc)
    except Exception:
        log.exception("error handling a message in game %s", session.id)
        conn.error("internal", N_("the server failed on this message; nothing was changed"))
    return True
