"""The web server: the HTTP lobby API, the live table over WebSocket, and the browser client.

``create_app(settings)`` builds a FastAPI app (one per test, or one per server process);
``serve`` runs it on uvicorn for ``flamecraft serve``. The API is described in
docs/server.md; the games live in ``games.py`` (and the modules it composes), storage in
``store.py``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import cache
from typing import Any, Literal

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from ..ai.roster import DEFAULT_OPPONENT, bot_notes
from ..core.board import CATALOG
from ..core.events import log_for, log_text
from ..core.goods import GOOD_KEYS
from ..core.tr import N_
from ..text.i18n import LANGUAGES
from .actions_json import event_things
from .connections import Connection, Session
from .gameerror import GameError
from .games import Games
from .gamespec import NewGame, NewSeat
from .guards import STATUS_CODES, BodyLimit, SecurityHeaders, error_body
from .language import DEFAULT, client_language, game_tr, page_catalogue, say
from .settings import Settings
from .store import FINISHED, OPEN, RUNNING
from .tokens import token_ok
from .wire import entry_json, view_in

log = logging.getLogger("flamecraft.server")

SUBPROTOCOL = "flamecraft"  # accepted when offered (a browser offering protocols needs one)
SEAT_PROTOCOL = "flamecraft-seat."  # "flamecraft-seat.<seat>.<key>": the seat's key
WS_MAX_FRAME = 65536  # uvicorn drops larger frames outright; larger than 8 KiB gets "too_big"
FINISHED_LISTED = 20
LISTED = 100


# ---------------------------------------------------------------- request bodies


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="ignore")
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(default=None, max_length=40)
    name: str | None = Field(default=None, max_length=40)


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str | None = Field(default=None, max_length=60)
    seats: list[SeatSpec] = Field(min_length=1, max_length=5)
    deck: Literal["purple", "golden"] = "purple"
    companions: bool = False
    seed: int | None = Field(default=None, ge=0, le=(1 << 63) - 1)
    first_player: int | None = Field(default=None, ge=0, le=4)  # None: drawn from the seed
    start: bool = False  # start at once (a game without people always starts at once)
    hints: bool = True  # whether the seats may ask for hints (shown to every seat)

    def new_game(self) -> NewGame:
        """The game asked for, checked (``GameError``, naming the problem)."""
        return NewGame(tuple(NewSeat(s.kind, s.bot, s.name) for s in self.seats), self.name,
                       self.deck, self.companions, self.seed, self.first_player,
                       begin=self.start, hints=self.hints)


class SeatAuth(BaseModel):
    model_config = ConfigDict(extra="ignore")
    seat: int = Field(ge=0, le=4)
    token: str = Field(max_length=100)


class JoinBody(SeatAuth):
    name: str | None = Field(default=None, max_length=40)


# ---------------------------------------------------------------- the card catalog


def _reward(r: Any) -> dict[str, int]:
    return {k: v for k, v in (("rep", r.rep), ("coins", r.coins), ("artisan", r.artisan),
                              ("fancy", r.fancy), ("good_choice", r.good_choice)) if v}


@cache
def catalog_json(lang: str = DEFAULT) -> dict[str, Any]:
    """Every card the browser may draw, by id (GET /api/cards). In another language than
    English the card texts are ``cardtext.card_text``'s in it (names stay as printed), and
    each Artisan Dragon carries its fire-up text (English pages keep their own summary)."""
    if lang != DEFAULT:
        return _catalog_in(lang)
    from ..core.cards import ANY_SLOT, SHOP_ICONS

    c = CATALOG
    shops = [{
        "id": s.id, "name": s.name, "icon": SHOP_ICONS[s.icon], "icon_amount": s.icon_amount,
        "starter": s.starter,
        "slots": [{"accepts": ["ANY"] if slot.accepts[0] == ANY_SLOT
                   else [GOOD_KEYS[g] for g in slot.accepts], "reward": _reward(slot.reward)}
                  for slot in s.slots],
        "ability_name": s.ability_name, "ability_text": s.ability_text,
        "provenance": s.provenance.level,
    } for s in c.shops]
    enchantments = []
    for e in c.enchantments:
        cost = {GOOD_KEYS[g]: n for g, n in enumerate(e.cost) if n}
        if e.printed_coins:
            cost["COIN"] = e.printed_coins
        entry: dict[str, Any] = {"id": e.id, "name": e.name, "deck": ("purple", "golden")[e.deck],
                                 "icon": GOOD_KEYS[e.icon], "cost": cost, "no_coins": e.no_coins,
                                 "reward": _reward(e.reward), "provenance": e.provenance.level}
        if e.variable:
            entry["set_cost"] = True
            entry["rep_by_sets"] = list(e.rep_by_sets)
        enchantments.append(entry)
    return {
        "shops": shops,
        "artisans": [{"id": a.id, "name": a.name, "type": GOOD_KEYS[a.type],
                      "starter": a.starter} for a in c.artisans],
        "enchantments": enchantments,
        "fancies": [{"id": f.id, "name": f.name, "sun": f.sun, "text": f.text,
                     "end_only": f.end_only, "reward": _reward(f.reward)} for f in c.fancies],
        "companions": [{"id": x.id, "name": x.name, "text": x.text} for x in c.companions],
        "achievements": [{"id": x.id, "name": x.name, "text": x.text, "rep": x.rep}
                         for x in c.achievements],
        "goods": list(GOOD_KEYS),
    }


def _catalog_in(lang: str) -> dict[str, Any]:
    """The English catalog with every card text in ``lang``."""
    from ..text.localized import card_text

    out: dict[str, Any] = json.loads(json.dumps(catalog_json()))  # a copy: English is cached
    for shop in out["shops"]:
        shop["ability_text"] = card_text(shop["id"], lang) if shop["ability_text"] else ""
    for artisan in out["artisans"]:
        artisan["fire_up"] = card_text(artisan["id"], lang)
    for kind in ("fancies", "companions", "achievements"):
        for card in out[kind]:
            card["text"] = card_text(card["id"], lang)
    return out


# ---------------------------------------------------------------- limits


class TokenBucket:
    """A token bucket: up to ``burst`` events at once, then ``rate`` a second. A quick
    player clicking several choices in a row (or a reconnecting client) is not abuse; a
    flood is, and is held to the sustained rate."""

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, max(1.0, burst), clock
        self.tokens, self.at = self.burst, clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


def _error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse(error_body(code, message), status)


def _validation_message(exc: RequestValidationError, lang: str = DEFAULT) -> str:
    """The first problem of a request body. pydantic's own words are English: another
    language says what is wrong in its words, then quotes them."""
    errors = exc.errors()
    if not errors:
        return say(lang, N_("malformed request"))
    first = errors[0]
    where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
    english = f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg"))
    if lang == DEFAULT:
        return english
    return say(lang, N_("the request is malformed: {detail}"), {"detail": english})


# The texts of index.html, seen before the client's script has loaded its catalogue (and
# without script at all): the page is served with them in the request's language.
PAGE_TEXTS = (N_("Loading Flamecraft…"),
              N_("Flamecraft needs JavaScript to run in the browser."))


def page_in(html: str, lang: str) -> str:
    """index.html in ``lang``: its ``<html lang>`` and its texts (``PAGE_TEXTS``)."""
    html = html.replace('<html lang="en">', f'<html lang="{lang}">', 1)
    for text in PAGE_TEXTS:
        html = html.replace(f">{text}<", f">{say(lang, text)}<")
    return html


def request_language(request: Request | WebSocket) -> str:
    """The language a client reads (``language.py``: ``?lang=``, else Accept-Language)."""
    return client_language(request.query_params, request.headers)


# ---------------------------------------------------------------- the app


def create_app(settings: Settings | None = None) -> FastAPI:
    """A server app. Its games, store and listener open when the app starts (lifespan) and
    close when it stops, so one process may build and dispose of several (tests do)."""
    settings = settings or Settings.from_env()
    games = Games(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await games.open()
        try:
            yield
        finally:
            await games.close()

    # No interactive API page: FastAPI's loads its script from a CDN, with inline script,
    # which the Content-Security-Policy forbids; the description is /api/openapi.json.
    app = FastAPI(title="Flamecraft", lifespan=lifespan, docs_url=None,
                  openapi_url="/api/openapi.json", redoc_url=None)
    app.state.games = games
    app.state.settings = settings
    creations: dict[str, TokenBucket] = {}

    @app.exception_handler(GameError)
    async def game_error(request: Request, exc: GameError) -> JSONResponse:
        return _error(exc.code, exc.message_in(request_language(request)), exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error("malformed", _validation_message(exc, request_language(request)), 400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        lang = request_language(request)
        message = str(exc.detail) if exc.detail else say(lang, N_("the request failed"))
        path = {"path": request.url.path}
        if exc.status_code == 400 and "parsing the body" in message:
            message = say(lang, N_("the body is not JSON, or is nested too deeply"))
        elif exc.status_code == 404 and message == "Not Found":
            message = say(lang, N_("there is nothing at {path}"), path)
        elif exc.status_code == 405:
            message = say(lang, N_("{method} is not allowed on {path}"),
                          {**path, "method": request.method})
        return _error(STATUS_CODES.get(exc.status_code, "error"), message, exc.status_code)

    @app.exception_handler(Exception)
    async def server_fault(request: Request, exc: Exception) -> JSONResponse:
        log.error("error answering %s %s", request.method, request.url.path, exc_info=exc)
        return _error("internal", say(request_language(request), N_(
            "the server failed on this request; nothing was changed")), 500)

    # The last added runs first: the headers go on every answer, the limit's too.
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)

    # --- pages

    def page(request: Request) -> Response:
        index = settings.static_dir / "index.html"
        headers = {"Cache-Control": "no-cache", "Vary": "Accept-Language"}
        if not index.is_file():
            return HTMLResponse("<!doctype html><title>Flamecraft</title><p>The browser client "
                                "is not installed (src/flamecraft/server/static/index.html).</p>")
        lang = request_language(request)
        if lang == DEFAULT:
            return FileResponse(index, headers=headers)
        return HTMLResponse(page_in(index.read_text(encoding="utf-8"), lang), headers=headers)

    @app.get("/", include_in_schema=False)
    async def lobby_page(request: Request) -> Response:
        return page(request)

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play_page(request: Request, game_id: str) -> Response:
        return page(request)

    app.mount("/static", StaticFiles(directory=settings.static_dir, check_dir=False),
              name="static")

    # --- the lobby API

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        store = games.database.store
        return {"ok": True, "store": store.kind if store else None,
                "games_loaded": len(games.sessions)}

    @app.get("/api/cards")
    async def cards(request: Request) -> dict[str, Any]:
        return catalog_json(request_language(request))

    @app.get("/api/i18n/{lang}")
    async def page_language(lang: str) -> dict[str, Any]:
        """The browser client's texts in ``lang`` (the ``web`` catalogue as msgid → text;
        English: none, its texts are the msgids)."""
        if lang not in LANGUAGES:
            raise GameError("not_found", N_("there is no language {lang}: there are {langs}"),
                            404, lang=repr(lang), langs=", ".join(LANGUAGES))
        return page_catalogue(lang)

    @app.get("/api/bots")
    async def bots(request: Request) -> dict[str, Any]:
        """The bots offered, strongest first, each with a few words (``bots.bot_notes``,
        which the terminal lists too) in the client's language, and the default opponent."""
        ladder = bot_notes()
        words = game_tr(request_language(request))
        return {"bots": [name for name, _ in ladder], "default": DEFAULT_OPPONENT,
                "ladder": [{"name": name, "about": words(about) if about else ""}
                           for name, about in ladder]}

    @app.post("/api/games", status_code=201)
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        client = request.client.host if request.client else "?"
        per_minute = settings.games_per_minute
        limit = creations.setdefault(client, TokenBucket(per_minute / 60.0, per_minute))
        if not limit.allow():
            raise GameError("rate_limited", N_("too many new games: wait a minute"), 429)
        if len(creations) > 10000:
            creations.clear()
        return await games.create(body.new_game())

    @app.get("/api/games")
    async def list_games(status: str | None = None) -> dict[str, Any]:
        run = games.database.run
        if status in (OPEN, RUNNING, FINISHED):
            rows = await run(lambda st: st.list_games([status], LISTED))
        else:
            rows = await run(lambda st: st.list_games([OPEN, RUNNING], LISTED))
            rows += await run(lambda st: st.list_games([FINISHED], FINISHED_LISTED))
        return {"games": [entry_json(r) for r in rows]}

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str) -> dict[str, Any]:
        session = await games.need(game_id)
        out = entry_json(session.table.row)
        out["step"] = len(session.table.actions)
        return out

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, body: JoinBody) -> dict[str, Any]:
        return entry_json(await games.join(game_id, body.seat, body.token, body.name))

    @app.post("/api/games/{game_id}/leave")
    async def leave(game_id: str, body: SeatAuth) -> dict[str, Any]:
        return entry_json(await games.leave(game_id, body.seat, body.token))

    @app.post("/api/games/{game_id}/start")
    async def start_game(game_id: str, body: SeatAuth) -> dict[str, Any]:
        return entry_json(await games.begin(game_id, body.seat, body.token))

    @app.post("/api/games/{game_id}/rematch", status_code=201)
    async def rematch(game_id: str, body: SeatAuth) -> dict[str, Any]:
        return await games.rematch(game_id, body.seat, body.token)

    async def finished(game_id: str) -> Session:
        session = await games.need(game_id)
        if session.table.row.status != FINISHED:
            raise GameError("not_finished", N_("the record and the replay are available once "
                                               "the game is finished (they name every hidden "
                                               "card)"))
        return session

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> dict[str, Any]:
        session = await finished(game_id)
        return session.table.record().to_json()

    @app.post("/api/games/{game_id}/hint")
    async def hint(game_id: str, body: SeatAuth, request: Request) -> dict[str, Any]:
        """The three best choices for the seat to act, from its view only (its key in the
        body, as for acting); refused when the host turned hints off."""
        session = await games.need(game_id)
        return await games.advice.hint(session, body.seat, body.token,
                                       request_language(request))

    @app.get("/api/games/{game_id}/review")
    async def review(game_id: str, request: Request) -> dict[str, Any]:
        """A finished game's review: every decision valued, the biggest mistakes per seat,
        each seat's win chance over the game. Refused before the game is over."""
        session = await games.need(game_id)
        return await games.advice.review(session, request_language(request))

    @app.get("/api/games/{game_id}/replay/{step}")
    async def replay(game_id: str, step: int, request: Request) -> dict[str, Any]:
        session = await finished(game_id)
        lang = request_language(request)
        tr = game_tr(lang)
        table = session.table
        states = await asyncio.to_thread(table.replay_states)
        steps = len(states) - 1
        if not 0 <= step <= steps:
            raise GameError("malformed", N_("step must be 0–{last}, not {step}"), 400,
                            last=steps, step=step)
        shown = table.log[:table.log_ends[step - 1]] if step else []
        log_lines = [{"turn": e.turn, "player": e.seat, "text": log_text(e, None, tr),
                      **event_things(e)} for e, _line in log_for(shown, None)]
        # what happened at this step, as the table read it: its own lines of the public log
        # (none for a decline, which changes nothing on the table), and who acted
        began = table.log_ends[step - 2] if step > 1 else 0
        happened = len(log_for(table.log[began:table.log_ends[step - 1]], None)) if step else 0
        actor = table.actions[step - 1].seat if step else None
        return {"step": step, "steps": steps, "view": view_in(states[step], None, lang),
                "log": log_lines, "step_lines": happened, "actor": actor}

    # --- the live table

    @app.websocket("/ws/games/{game_id}")
    async def live(websocket: WebSocket, game_id: str) -> None:
        offered = websocket.scope.get("subprotocols") or []
        await websocket.accept(subprotocol=SUBPROTOCOL if SUBPROTOCOL in offered else None)
        await _live(websocket, game_id, games, settings)

    return app


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
                                          "message": message}))
    await websocket.close(close_code)


async def _live(websocket: WebSocket, game_id: str, games: Games, settings: Settings) -> None:
    """One WebSocket client: sends it every state, reads its moves (checked and bounded), in
    the language it asked for (``?lang=``)."""
    try:
        session = await games.get(game_id)
    except GameError as exc:
        await _refuse(websocket, exc, 4500)
        return
    if session is None:
        await _refuse(websocket, GameError("not_found", N_("there is no game {game}"),
                                           game=repr(game_id)), 4404)
        return
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
            return
    conn = Connection(seat, token, settings.send_queue, request_language(websocket))
    try:
        games.connections.subscribe(session, conn,
                                    websocket.client.host if websocket.client else "?")
    except GameError as exc:
        await _refuse(websocket, exc, 4429)
        return
    sender = asyncio.create_task(_send_all(websocket, conn))
    limit = TokenBucket(settings.max_messages_per_second, settings.message_burst)
    warned = 0.0
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
                conn.error("too_big", N_("messages are limited to {limit} bytes; this one has "
                                         "{size}"), limit=settings.max_message_bytes, size=size)
                continue
            if not limit.allow():
                if time.monotonic() - warned > 1.0:
                    warned = time.monotonic()
                    conn.error("rate_limited", N_("more than {burst} messages at once or {rate} "
                                                  "a second: slow down (this one was ignored)"),
                               burst=settings.message_burst,
                               rate=settings.max_messages_per_second)
                continue
            await _handle(data, session, conn, games)
    except WebSocketDisconnect:
        pass
    finally:
        games.connections.unsubscribe(session, conn)
        sender.cancel()


async def _send_all(websocket: WebSocket, conn: Connection) -> None:
    try:
        while True:
            await websocket.send_text(await conn.queue.get())
    except Exception:  # the client has gone: the receiving side ends the connection
        return


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


async def _handle(data: str | bytes, session: Session, conn: Connection, games: Games) -> None:
    """One client message: act, undo or ping. Anything else is "malformed"."""
    try:
        msg = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        conn.error("malformed", N_("messages must be JSON objects"))
        return
    except RecursionError:  # "[[[[…]]]]": a few KiB nested thousands deep
        conn.error("malformed", N_("messages must be JSON objects, nested at most a few "
                                   "levels"))
        return
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
            if not _whole(version):
                conn.error("malformed", N_("an act message needs the whole-number 'version' "
                                           "of the state it answers"))
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
        else:
            conn.error("malformed", N_("unknown message type: expected 'act', 'undo' or "
                                       "'ping'"))
    except GameError as exc:
        conn.failed(exc)
    except Exception:
        log.exception("error handling a message in game %s", session.id)
        conn.error("internal", N_("the server failed on this message; nothing was changed"))


def app_from_env() -> FastAPI:
    """The app as configured by the environment (``uvicorn --factory`` with workers)."""
    return create_app(Settings.from_env())


def serve(host: str, port: int, database: str | None) -> int:
    """``flamecraft serve``: runs the server until interrupted."""
    import uvicorn

    settings = Settings.from_env(database=database)
    where = "PostgreSQL" if settings.database_url.startswith("postgres") else (
        "SQLite " + settings.database_url[len("sqlite:///"):])
    print(f"Flamecraft on http://{host}:{port}/  (games stored in {where}; Ctrl+C stops)",
          flush=True)
    uvicorn.run(create_app(settings), host=host, port=port, ws_max_size=WS_MAX_FRAME,
                log_level="warning")
    return 0
