"""The web server: the HTTP lobby and game API, and the app that gathers them with the live
table over WebSocket (``live.py``) and the browser client's pages (``pages.py``).

``create_app(settings)`` builds a FastAPI app (one per test, or one per server process);
``serve`` runs it on uvicorn for ``flamecraft serve``. The API is described in
docs/server.md; the games live in ``games.py`` (and the modules it composes), storage in
``store.py``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Literal

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..ai.roster import DEFAULT_OPPONENT, LEVELS, bot_notes
from ..core.summary import event_line
from ..core.tr import N_
from ..display.i18n import LANGUAGES
from .account_api import add_account_api
from .account_store import mark_rated, rated_mode
from .accounts import Accounts
from .actions_json import event_things
from .cards_json import catalog_json
from .chat import CHAT_PAGE
from .clocks import ClockSpec
from .gameerror import Busy, GameError
from .games import Games
from .gamespec import NewGame, NewSeat
from .guards import (
    STATUS_CODES,
    AddressBuckets,
    BodyLimit,
    HeaderLimit,
    SecurityHeaders,
    error_body,
)
from .httpd import uvicorn_options
from .language import DEFAULT, game_tr, page_catalogue, request_language, say
from .live import add_live_route
from .names import skeleton
from .pages import add_pages
from .profiles import Profiles, Rater
from .quotas import Reads
from .ratings import check_rated
from .sessions import CsrfGuard
from .settings import Settings
from .store import FINISHED, OPEN, RUNNING, require_driver
from .table import record_of
from .tokens import check_token
from .wire import entry_json, view_in

log = logging.getLogger("flamecraft.server")

WS_MAX_FRAME = 65536  # uvicorn drops larger frames outright; larger than 8 KiB gets "too_big"
FINISHED_LISTED = 20
LISTED = 100
CREATION_ADDRESSES = 10000  # client address groups whose rate of new games is remembered
# Smaller answers go as they are: gzip's header and framing cost more than it saves.
GZIP_MINIMUM = 500


# ---------------------------------------------------------------- request bodies


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="ignore")
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(default=None, max_length=40)
    name: str | None = Field(default=None, max_length=40)


class ClockBody(BaseModel):
    """A game's clock (server/clocks.py): "none", "realtime" (``bank`` seconds per seat and
    ``increment`` added per move) or "turn" (``per_move`` seconds to make each move)."""

    model_config = ConfigDict(extra="ignore")
    kind: Literal["none", "realtime", "turn"] = "none"
    bank: float = Field(default=600.0, ge=0, le=1e7)
    increment: float = Field(default=10.0, ge=0, le=1e7)
    per_move: float = Field(default=86400.0, ge=0, le=1e8)


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
    clock: ClockBody | None = None  # None: no clock
    stand_in: str | None = Field(default=None, max_length=40)  # the bot for a person who left
    spectator_chat: bool = False  # whether spectators may write in the table chat
    # a rated game (ratings.py): among people only, or people and bots; the creator signed in
    rated: Literal["people", "bots"] | None = None

    def new_game(self) -> NewGame:
        """The game asked for, checked (``GameError``, naming the problem)."""
        return NewGame(tuple(NewSeat(s.kind, s.bot, s.name) for s in self.seats), self.name,
                       self.deck, self.companions, self.seed, self.first_player,
                       begin=self.start, hints=self.hints,
                       clock=ClockSpec() if self.clock is None else ClockSpec(
                           self.clock.kind, self.clock.bank, self.clock.increment,
                           self.clock.per_move),
                       stand_in=self.stand_in, spectator_chat=self.spectator_chat)


class SeatAuth(BaseModel):
    model_config = ConfigDict(extra="ignore")
    seat: int = Field(ge=0, le=4)
    token: str = Field(max_length=100)


class VoteBody(SeatAuth):
    target: int = Field(ge=0, le=4)  # the seat a bot should play now


class JoinBody(SeatAuth):
    name: str | None = Field(default=None, max_length=40)


# ---------------------------------------------------------------- errors


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


def client_address(request: Request) -> str:
    """The client's address (behind a believed proxy, the one it forwarded)."""
    return request.client.host if request.client else "?"


def _add_error_handlers(app: FastAPI) -> None:
    """Every error, whatever answers it, in the one shape ``{code, message, detail}``, in the
    client's language."""

    @app.exception_handler(GameError)
    async def game_error(request: Request, exc: GameError) -> JSONResponse:
        message = exc.message_in(request_language(request))
        if isinstance(exc, Busy):  # a limit that frees by itself: when to try again
            return JSONResponse({**error_body(exc.code, message),
                                 "retry_after": exc.retry_after}, exc.status,
                                headers={"Retry-After": str(exc.retry_after)})
        return _error(exc.code, message, exc.status)

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


# ---------------------------------------------------------------- the lobby API


def _add_catalogue_api(app: FastAPI, games: Games) -> None:
    """What every page reads before any game: the server's health, the cards, the
    client's texts, the bots."""

    @app.get("/api/health", response_model=None)
    async def health(request: Request) -> dict[str, Any] | JSONResponse:
        """The truth of the server's health: the store takes a write and reads it back
        (within ``health_timeout``), and the bots' worker processes are alive (a pool found
        dead is started anew). 200 when both are well; else 503 ``unavailable``, saying what
        is down, with the same ``checks``."""
        store = games.database.store
        problem = await games.database.probe(games.settings.health_timeout)
        workers = games.lanes.health()
        stalled = sum(1 for session in games.sessions.values() if session.stalled is not None)
        body: dict[str, Any] = {
            "ok": problem is None and workers["ok"], "store": store.kind if store else None,
            "games_loaded": len(games.sessions), "stalled": stalled,
            "checks": {"store": {"ok": problem is None, "problem": problem},
                       "workers": workers}}
        if body["ok"]:
            return body
        lang = request_language(request)
        down = [say(lang, N_("the store: {problem}"), {"problem": problem})] if problem else []
        if not workers["ok"]:
            down.append(say(lang, N_("the bots' worker processes: one died (they are being "
                                     "started again)")))
        message = say(lang, N_("the server is not well: {down}"), {"down": "; ".join(down)})
        return JSONResponse({**error_body("unavailable", message), **body}, 503)

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
        """What a seat may be played by: the levels for people, strongest first (a plain
        name, a few words and the level's rating, in the client's language; ``ladder``),
        every seat kind by name (``bots``: the levels and the bots' own names, for
        scripts), and the default opponent (``roster``: the terminal lists the same)."""
        words = game_tr(request_language(request))
        return {"bots": [level.id for level in LEVELS] + [name for name, _ in bot_notes()],
                "default": DEFAULT_OPPONENT,
                "ladder": [{"name": level.id, "label": words(level.label),
                            "about": words(level.note), "elo": level.elo}
                           for level in LEVELS],
                "scripts": [{"name": name, "about": words(about) if about else ""}
                            for name, about in bot_notes()]}


def _add_lobby_api(app: FastAPI, games: Games, settings: Settings,
                   clock: Callable[[], float], accounts: Accounts) -> None:
    """The lobby's games: the list and each entry, and its changes (create, join, leave,
    start, rematch)."""
    per_minute = settings.games_per_minute
    creations = AddressBuckets(per_minute / 60.0, per_minute, CREATION_ADDRESSES, clock)

    @app.post("/api/games", status_code=201)
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        address = client_address(request)
        if not creations.allow(address):
            raise Busy("rate_limited", N_("too many new games from one address (at most "
                                          "{limit} a minute): try again in {retry_after} s"),
                       429, 60.0 / max(1, per_minute), limit=per_minute)
        new = body.new_game()
        if body.rated is None:
            return await games.create(new, address)
        mode: str = body.rated
        await accounts.require(request)  # a rated game is set up by a signed-in person
        check_rated(mode, new)
        created = await games.create(new, address)
        await games.database.run(lambda st: mark_rated(st, created["game_id"], mode))
        created["rated"] = mode
        return created

    @app.get("/api/games")
    async def list_games(status: str | None = None) -> dict[str, Any]:
        run = games.database.run
        if status in (OPEN, RUNNING, FINISHED):
            rows = await run(lambda st: st.list_games([status], LISTED))
        else:
            rows = await run(lambda st: st.list_games([OPEN, RUNNING], LISTED))
            rows += await run(lambda st: st.list_games([FINISHED], FINISHED_LISTED))
        return {"games": [entry_json(r) for r in rows]}

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, body: JoinBody) -> dict[str, Any]:
        return entry_json(await games.join(game_id, body.seat, body.token, body.name))

    @app.post("/api/games/{game_id}/leave")
    async def leave(game_id: str, body: SeatAuth) -> dict[str, Any]:
        return entry_json(await games.leave(game_id, body.seat, body.token))

    @app.post("/api/games/{game_id}/start")
    async def start_game(game_id: str, body: SeatAuth) -> dict[str, Any]:
        return entry_json(await games.begin(game_id, body.seat, body.token))

    # a bot in a person's place (standins.py)
    @app.post("/api/games/{game_id}/vote")
    async def vote(game_id: str, body: VoteBody) -> dict[str, Any]:
        return entry_json(await games.vote(game_id, body.seat, body.token, body.target))

    @app.post("/api/games/{game_id}/concede")
    async def concede(game_id: str, body: SeatAuth) -> dict[str, Any]:
        return entry_json(await games.concede(game_id, body.seat, body.token))

    @app.post("/api/games/{game_id}/abandon")
    async def abandon(game_id: str, body: SeatAuth) -> dict[str, Any]:
        return entry_json(await games.abandon(game_id, body.seat, body.token))

    @app.post("/api/games/{game_id}/reclaim")
    async def reclaim(game_id: str, body: SeatAuth) -> dict[str, Any]:
        return entry_json(await games.reclaim(game_id, body.seat, body.token))

    @app.post("/api/games/{game_id}/rematch", status_code=201)
    async def rematch(game_id: str, body: SeatAuth, request: Request) -> dict[str, Any]:
        return await games.rematch(game_id, body.seat, body.token, client_address(request))


# ---------------------------------------------------------------- the game API


def _add_game_api(app: FastAPI, games: Games, reads: Reads) -> None:
    """One game in play or over: a hint for the seat to act, and once it is finished its
    record, review and replay; each read within its address's budget (``quotas.Reads``)."""

    def charge(request: Request) -> str:
        return reads.charge(client_address(request))

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str, request: Request) -> dict[str, Any]:
        """A game's entry, its step, who is to act (a finished game is not loaded) and
        whether it is rated (ratings.py: people, bots)."""
        out = await games.entry(game_id, charge(request))
        rated = await games.database.run(lambda st: rated_mode(st, game_id))
        out["rated"] = rated[0] if rated is not None else None
        return out

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request) -> dict[str, Any]:
        charge(request)
        row, actions = await games.finished(game_id)
        return record_of(row, actions).to_json()

    @app.post("/api/games/{game_id}/hint")
    async def hint(game_id: str, body: SeatAuth, request: Request) -> dict[str, Any]:
        """The three best choices for the seat to act, from its view only (its key in the
        body, as for acting); refused when the host turned hints off."""
        address = client_address(request)
        session = await games.need(game_id, address)
        return await games.advice.hint(session, body.seat, body.token,
                                       request_language(request), address)

    @app.get("/api/games/{game_id}/review")
    async def review(game_id: str, request: Request) -> Response:
        """A finished game's review: every decision valued, the biggest mistakes per seat,
        each seat's win chance over the game. Refused before the game is over. Made once
        and kept in the store, and sent from its kept body, gzipped when the client takes
        it (reviews.py)."""
        address = charge(request)
        try:
            row, actions = await games.finished(game_id)
        except GameError as exc:
            if exc.code != "not_finished":
                raise
            raise GameError("not_finished", N_("a review is available once the game is "
                                               "finished (it shows every seat's cards)")
                            ) from None
        body = await games.advice.review(row, lambda: record_of(row, actions),
                                         request_language(request), address)
        if "gzip" in request.headers.get("accept-encoding", "").lower():
            return Response(body.gzipped, media_type="application/json",
                            headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
        return Response(body.plain, media_type="application/json",
                        headers={"Vary": "Accept-Encoding"})

    async def replayed(game_id: str, step: int, request: Request,
                       seat: int | None, token: str | None = None) -> dict[str, Any]:
        """The table after ``step`` actions, as ``seat`` saw it (None: as a spectator): its
        view, its log, the lines of this step, who acted, and the step at which each turn
        begins (``turn_steps``). From the replay's checkpoints (replays.py), not every
        state."""
        address = charge(request)
        row, actions = await games.finished(game_id)
        if seat is not None:
            check_token(row, seat, token or "")
        steps = len(actions)
        if not 0 <= step <= steps:
            raise GameError("malformed", N_("step must be 0–{last}, not {step}"), 400,
                            last=steps, step=step)
        replay = await games.replay(row, actions, address)
        lang = request_language(request)
        tr = game_tr(lang)
        ends = replay.log_ends
        shown = replay.log[:ends[step - 1]] if step else []
        # the log with each step's results (core/summary.event_line), as the seat read it in
        # the game (its own private lines too; a spectator's is the public log)
        log_lines = [{"turn": e.turn, "player": e.seat, "text": line, **event_things(e)}
                     for e in shown if (line := event_line(e, seat, tr)) is not None]
        # what happened at this step, as the table read it: its own lines of the log (none
        # for a decline that changed nothing on the table), and who acted
        began = ends[step - 2] if step > 1 else 0
        happened = sum(event_line(e, seat) is not None
                       for e in replay.log[began:ends[step - 1]]) if step else 0
        actor = replay.actors[step - 1] if step else None
        return {"step": step, "steps": steps,
                "view": view_in(replay.state_at(step), seat, lang),
                "log": log_lines, "step_lines": happened, "actor": actor, "seat": seat,
                "turn_steps": replay.turn_steps()}

    @app.get("/api/games/{game_id}/chat")
    async def chat(request: Request, game_id: str, after: int = Query(-1, ge=-1),
                   limit: int = Query(CHAT_PAGE, ge=1, le=CHAT_PAGE)) -> dict[str, Any]:
        """The game's table chat, oldest first, a page of at most ``limit`` lines after
        seq ``after``, each with the ``step`` at which it was written (the replay shows it
        there); ``next``: the ``after`` of the next page, or None on the last. What every
        spectator reads."""
        await games.need(game_id, charge(request))
        lines = await games.chat.page(game_id, after, limit)
        return {"lines": lines, "next": lines[-1]["seq"] if len(lines) == limit else None}

    @app.get("/api/games/{game_id}/replay/{step}")
    async def replay(game_id: str, step: int, request: Request) -> dict[str, Any]:
        """A finished game's table after ``step`` actions, as a spectator saw it."""
        return await replayed(game_id, step, request, None)

    @app.post("/api/games/{game_id}/replay/{step}")
    async def replay_as_seat(game_id: str, step: int, body: SeatAuth,
                             request: Request) -> dict[str, Any]:
        """The same, as the seat whose key is in the body saw it: its own hand and Fancy
        Dragons as they were, never another seat's."""
        return await replayed(game_id, step, request, body.seat, body.token)


# ---------------------------------------------------------------- the app


def create_app(settings: Settings | None = None, *,
               clock: Callable[[], float] = time.monotonic) -> FastAPI:
    """A server app. Its games, store and listener open when the app starts (lifespan) and
    close when it stops, so one process may build and dispose of several (tests do).
    ``clock`` (seconds, only ever compared) times the rate limits: the token buckets of new
    games and of each connection's messages, and the once-a-second "rate_limited" notice;
    a test passes a clock it moves by hand."""
    settings = settings or Settings.from_env()
    games = Games(settings)
    accounts = Accounts(games, settings, clock)
    profiles = Profiles(games, accounts)
    rater = Rater(games)
    games.changed_hooks.append(rater.changed)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(skeleton, "")  # names.py's table, read once, off the loop
        await games.open()
        await rater.sweep()  # rated games a stopped process left unrated
        try:
            yield
        finally:
            await games.close()

    # No interactive API page: FastAPI's loads its script from a CDN, with inline script,
    # which the Content-Security-Policy forbids; the description is /api/openapi.json.
    # No trailing-slash redirects: Starlette builds their Location from the Host header (a
    # "Host: evil.example" request was sent to evil.example) and the scheme the server sees
    # (http behind a TLS proxy); "/api/games/" is a 404 like any other unknown path.
    app = FastAPI(title="Flamecraft", lifespan=lifespan, docs_url=None,
                  openapi_url="/api/openapi.json", redoc_url=None, redirect_slashes=False)
    app.state.games = games
    app.state.settings = settings
    _add_error_handlers(app)
    # The last added runs first: the headers go on every answer, the limits' too; gzip
    # (Starlette's own) outermost, on every HTTP answer of GZIP_MINIMUM bytes or more whose
    # client accepts it: pages, static files, JSON. It passes WebSockets by untouched, and
    # compresses a streamed body chunk by chunk (docs/server.md, "Compression and caching").
    app.add_middleware(CsrfGuard)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(HeaderLimit, limit=settings.max_headers)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=6)
    add_pages(app, settings)
    _add_catalogue_api(app, games)
    _add_lobby_api(app, games, settings, clock, accounts)
    add_account_api(app, accounts, profiles)
    reads = Reads(settings.reads_per_second, clock, CREATION_ADDRESSES)  # quotas.py
    _add_game_api(app, games, reads)
    add_live_route(app, games, settings, clock, reads)
    return app


def app_from_env() -> FastAPI:
    """The app as configured by the environment (``uvicorn --factory`` with workers)."""
    return create_app(Settings.from_env())


def serve(host: str, port: int, database: str | None) -> int:
    """``flamecraft serve``: runs the server until interrupted."""
    import uvicorn

    settings = Settings.from_env(database=database)
    require_driver(settings.database_url)  # one clear line now, not a failed startup later
    where = "PostgreSQL" if settings.database_url.startswith("postgres") else (
        "SQLite " + settings.database_url[len("sqlite:///"):])
    print(f"Flamecraft on http://{host}:{port}/  (games stored in {where}; Ctrl+C stops)",
          flush=True)
    uvicorn.run(create_app(settings), host=host, port=port, ws_max_size=WS_MAX_FRAME,
                log_level="warning", **uvicorn_options(settings))
    return 0
