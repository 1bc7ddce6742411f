"""Game sessions: seats and tokens, versions, the lobby's changes, moves, undo, bots, broadcast.

The store holds the truth (a game's row and its actions); each process keeps a ``Table`` per
game it serves, rebuilt by replaying the record, and changes it only after the store has
committed the change. Every change bumps the game's version and is written only if the version
is still the one the change was made against, so a race between two clicks, two tabs or two
processes has exactly one winner; the loser is told "stale" and gets the latest state.

Bots play their seats on the server as asyncio tasks: a bot's move is computed in a worker
thread on a copy of the state, then applied like a person's, so nobody waits on a bot and a
bot never sees more than its seat (``bots.BOTS`` policies read only their seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, TypeVar

from ..bots import BOTS, DEFAULT_BOT, DEFAULT_OPPONENT, random_action
from ..cardtext import rating_title
from ..core.actions import Action
from ..core.describe import describe
from ..core.engine import (
    apply,
    describe_decision,
    legal_actions,
    parse_action,
    text,
    to_act,
    winners,
)
from ..core.errors import FlamecraftError, IllegalActionError, error_text
from ..core.events import Event, log_text
from ..core.serialize import (
    CARD_NAMES,
    GameRecord,
    action_error,
    names_from_json,
    start_from_json,
    start_to_json,
)
from ..core.setup_game import GameStart, seeded_start
from ..core.state import GameState, Options
from ..core.tr import N_, Translate
from ..core.view import view
from ..sessions import (
    BOT_NAMES,
    SetupError,
    Snapshot,
    reveals,
    table_notes,
)
from .actions_json import event_things, legal_json
from .botpool import BotLanes
from .language import DEFAULT as DEFAULT_LANGUAGE
from .language import error_tr, game_tr, say
from .names import check_seat_names, clean
from .pubsub import Bus, make_bus
from .settings import Settings
from .store import ActionRow, GameRow, SeatRow, Store, open_store

if TYPE_CHECKING:
    from ..ai.review import Decision

log = logging.getLogger("flamecraft.server")

HUMAN, BOT = "human", "bot"
OPEN, RUNNING, FINISHED = "open", "running", "finished"
MAX_SEATS = 5
KEPT_TOKENS = 8  # a seat's older tokens (from the games it rematched) that still let it in
MAX_IDLE = 1000  # loaded games before the idle ones (open or finished, unwatched) are dropped

T = TypeVar("T")

# "the game is already …" (starting a game that is not open), per status
_STATUS_ALREADY = {RUNNING: N_("the game is already running"),
                   FINISHED: N_("the game is already finished")}


class GameError(Exception):
    """A request that cannot be honoured; ``code`` is the protocol's error code (the same in
    every language). ``message`` is a msgid of the ``web`` catalogue (marked ``N_``) with its
    ``{placeholders}`` in ``params``: ``.message`` reads it in English, ``message_in(lang)``
    in the client's language. ``error``: the engine or setup error it reports, whose own
    words (the ``game`` catalogue) are the message."""

    def __init__(self, code: str, message: str, status: int = 409, *,
                 error: Exception | None = None, **params: Any):
        english = message.format(**params) if params else message
        super().__init__(english)
        self.code, self.message, self.status = code, english, status
        self.msgid, self.params, self.error = message, params, error

    def message_in(self, lang: str) -> str:
        """The message in ``lang`` (English: ``message``, byte for byte)."""
        if lang == DEFAULT_LANGUAGE:
            return self.message
        if self.error is not None:
            return error_text(self.error, error_tr(lang))
        return say(lang, self.msgid, self.params)


# ---------------------------------------------------------------- tokens


def new_token() -> str:
    """An unguessable seat token (192 random bits)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_game_id() -> str:
    return secrets.token_urlsafe(9)


def valid_game_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 32 and all(c.isalnum() or c in "-_" for c in game_id)


def seat_link(game_id: str, seat: int, token: str) -> str:
    """A seat's link: the key rides in the fragment, which browsers never send to a server,
    so it appears in no request line, log or Referer header."""
    return f"/play/{game_id}#seat={seat}&token={token}"


def token_ok(row: GameRow, seat: int, token: str | None) -> bool:
    """Whether ``token`` lets its bearer play ``seat`` (compared in constant time)."""
    if token is None or not 0 <= seat < len(row.seats) or len(token) > 100:
        return False
    digest = hash_token(token)
    return any(hmac.compare_digest(digest, h) for h in row.seats[seat].token_hashes)


# ---------------------------------------------------------------- one game's table


@dataclass
class Step:
    """An action worked out but not yet stored: applied to memory only once committed."""

    seat: int
    before: GameState
    after: GameState
    full: str
    events: list[Event]  # this action's, then the forced ones it led to


class Table:
    """A game's row and actions, and what follows from them: the state, the log, the undo
    stack. Built by replaying the actions, so it is the same in every process."""

    def __init__(self, row: GameRow, actions: Sequence[ActionRow] = ()):
        self.row = row
        self.state: GameState | None = None
        self.actions: list[ActionRow] = []
        self.log: list[Event] = []  # the public event stream (core/events.py)
        self.log_ends: list[int] = []  # len(self.log) after each action (for the replay)
        # Each event as JSON per reader: the actor, its gift's receiver, everyone else (None:
        # they see nothing). Built once: a state message carries the whole log, and is sent
        # after every move.
        self.log_json: list[LogLine] = []
        # the same in the other languages a client reads, made when first asked for
        self.log_lang: dict[str, list[LogLine]] = {}
        # per seat and language: lines, joined
        self._log_joined: dict[tuple[int | None, str], tuple[int, str]] = {}
        self.undo: list[Snapshot] = []
        self.undo_seat = -1
        self._start: GameStart | None = None
        self._reader: GameRecord | None = None  # reads the stored texts (``parse_stored``)
        if row.status != OPEN:
            self.begin()
            self.extend(actions)

    def begin(self) -> None:
        self.state = self.record().first_state()

    def extend(self, actions: Sequence[ActionRow]) -> None:
        """Replays stored actions after the ones already here. One that no longer replays
        (the card data changed) is named to the operator's log; a client is told only its
        number, since its text and the legal ones can name a seat's hidden cards."""
        for number, row in enumerate(actions, len(self.actions) + 1):
            assert self.state is not None
            try:
                step = self.prepare(self.parse_stored(row.text))
            except FlamecraftError as exc:
                log.error("game %s: %s", self.row.id, action_error(number, row.text, exc))
                raise GameError("broken", N_("game {game}: stored action {number} no longer "
                                             "replays with this server's card data"), 500,
                                game=self.row.id, number=number) from None
            self.commit(step, row)

    def human(self, seat: int) -> bool:
        return self.row.seats[seat].kind == HUMAN

    def prepare(self, action: Action) -> Step:
        s = self.state
        assert s is not None
        p = to_act(s)
        full = text(s, action)
        events: list[Event] = []
        after = apply(s, action, events)  # raises IllegalActionError, changing nothing
        return Step(p, s, after, full, events + table_notes(s, after))

    def commit(self, step: Step, row: ActionRow) -> None:
        """Applies a stored step; keeps the undo stack as the terminal game does: the acting
        person's run of choices within one turn, cut at anything hidden shown or chance."""
        p, before, after = step.seat, step.before, step.after
        if p != self.undo_seat or not self.human(p):
            self.undo.clear()
        self.undo_seat = p
        if self.human(p):
            self.undo.append(Snapshot(before, len(self.actions), len(self.log)))
        if reveals(before, after) or after.turn != before.turn:
            self.undo.clear()
        self.actions.append(row)
        for e in step.events:
            self.log.append(e)
            self.log_json.append(log_line(e, DEFAULT_LANGUAGE))
        self.log_ends.append(len(self.log))
        self.state = after

    def lines_in(self, lang: str) -> list[LogLine]:
        """The log's lines as JSON in ``lang`` (English made at each commit, the others
        brought up to date when asked for)."""
        if lang == DEFAULT_LANGUAGE:
            return self.log_json
        lines = self.log_lang.setdefault(lang, [])
        lines.extend(log_line(e, lang) for e in self.log[len(lines):])
        return lines

    def log_for(self, seat: int | None, lang: str = DEFAULT_LANGUAGE) -> str:
        """The log as ``seat`` may read it in ``lang``, as a JSON array (joined once per line:
        the lines only grow, except on undo, which starts the joining again)."""
        lines = self.lines_in(lang)
        done, joined = self._log_joined.get((seat, lang), (0, ""))
        new = [line for line in (full if seat is not None and seat in (p, also) else pub
                                 for full, pub, p, also in lines[done:])
               if line is not None]
        if new:
            joined = joined + "," + ",".join(new) if joined else ",".join(new)
        self._log_joined[(seat, lang)] = (len(lines), joined)
        return "[" + joined + "]"

    def can_undo(self, seat: int | None) -> bool:
        s = self.state
        return (seat is not None and s is not None and self.row.status == RUNNING
                and not s.over and bool(self.undo) and self.undo_seat == seat
                and to_act(s) == seat)

    def rewind(self) -> None:
        snap = self.undo.pop()
        self.state = snap.state
        del self.actions[snap.actions:]
        del self.log_ends[snap.actions:]
        del self.log[snap.log:]
        del self.log_json[snap.log:]
        for lines in self.log_lang.values():
            del lines[snap.log:]
        self._log_joined.clear()

    def record(self) -> GameRecord:
        """The game's record, dealt from the row's deal, its texts read in the row's names."""
        setup = self.row.setup
        return GameRecord(self.row.options, self.row.seed, [a.text for a in self.actions],
                          self.row.result, self.start, None if setup is None
                          else names_from_json(setup.get("names", {})))

    def parse_stored(self, typed: str) -> Action:
        """A stored action text at the current state, read in the names it was written with."""
        if self._reader is None:
            self._reader = self.record()
        assert self.state is not None
        return self._reader.parse(self.state, typed)

    @property
    def start(self) -> GameStart:
        """How the game was dealt (``stored_start``), read once."""
        if self._start is None:
            self._start = stored_start(self.row)
        return self._start


# One log line as JSON per reader: the actor's, everyone else's (None: they see nothing),
# the actor and the one other seat that reads the actor's line (the receiver of a gift).
LogLine = tuple[str, str | None, int, int]


def log_line(e: Event, lang: str) -> LogLine:
    """An event's log line as each reader reads it in ``lang`` (core/events.py decides who
    reads what; the translation only changes the words)."""
    line = {"turn": e.turn, "player": e.seat, **event_things(e)}
    if lang == DEFAULT_LANGUAGE:
        actor, other = e.seen_by(e.seat), e.seen_by(None)
    else:
        tr = game_tr(lang)
        actor, other = log_text(e, e.seat, tr), log_text(e, None, tr)
    return (_dumps({**line, "text": actor}),
            None if other is None else _dumps({**line, "text": other}), e.seat, e.also)


def view_in(s: GameState, seat: int | None, lang: str) -> dict[str, Any]:
    """``view(s, seat)`` as ``lang`` reads it: the same, but for the solo rating's title."""
    out = view(s, seat)
    if lang != DEFAULT_LANGUAGE and "rating" in out:
        out["rating"] = rating_title(out["rating"], lang)
    return out


def result_of(s: GameState) -> dict[str, Any]:
    return {"reputation": s.rep[:], "winners": winners(s), "turns": s.turn}


def seats_json(row: GameRow) -> list[dict[str, Any]]:
    return [{"seat": i, "name": s.name, "kind": s.kind, "bot": s.bot, "joined": s.joined}
            for i, s in enumerate(row.seats)]


@lru_cache(maxsize=4096)
def first_player_of(options: Options, seed: int) -> int:
    """The seat that plays first in the game of these options and seed (drawn at setup from
    the seed unless the options fix it), known before the game starts."""
    return seeded_start(options, seed).first_player


def stored_start(row: GameRow) -> GameStart:
    """How a stored game was dealt: its row's deal (by card ids, so the order of the card
    files does not matter), or for a row stored without one its seed's deal, as it always
    was. A deal that no longer fits the card data is named to the operator's log only (it
    names hidden cards)."""
    if row.setup is None:
        return seeded_start(row.options, row.seed)
    try:
        return start_from_json(row.setup.get("deal"), row.options)
    except FlamecraftError as exc:
        log.error("game %s: %s", row.id, exc)
        raise GameError("broken", N_("game {game}: its stored deal no longer fits this "
                                     "server's card data"), 500, game=row.id) from None


def first_player_in(row: GameRow) -> int:
    """The seat that plays first in a stored game (its deal's, or its seed's)."""
    deal = row.setup.get("deal") if row.setup is not None else None
    first = deal.get("first_player") if isinstance(deal, dict) else None
    return first if isinstance(first, int) else first_player_of(row.options, row.seed)


def entry_json(row: GameRow) -> dict[str, Any]:
    """A game as the lobby lists it."""
    out: dict[str, Any] = {
        "game_id": row.id, "name": row.name, "status": row.status,
        "players": row.options.players, "deck": row.options.deck,
        "companions": row.options.companions, "hints": row.hints, "seats": seats_json(row),
        "first_player": first_player_in(row),
        "created": datetime.fromtimestamp(row.created, UTC).isoformat(timespec="seconds"),
        "version": row.version,
    }
    if row.result is not None:
        out["result"] = row.result
    if row.rematch is not None:
        out["rematch"] = row.rematch["game_id"]
    return out


def hint_json(s: GameState, seat: int, seed: str, samples: int,
              lang: str = DEFAULT_LANGUAGE) -> list[dict[str, Any]]:
    """The top three hints as JSON, their reasons in ``lang`` (run in a worker thread or
    process). ``action`` stays the stable text: the client matches it with a legal action."""
    from ..ai.hints import HINT_BUDGET, hints
    from ..ai.interface import Seat

    budget = replace(HINT_BUDGET, samples=samples)
    tr = game_tr(lang)
    found = hints(Seat(s, seat), random.Random(seed), budget, tr=tr, game=tr)
    return [h.to_json() for h in found[:3]]


def review_json(record: GameRecord, samples: int,
                lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """A finished game's review as JSON, with each seat's biggest mistakes (worst first),
    its reasons and its choices in ``lang``."""
    from ..ai.review import REVIEW_BUDGET, review

    rv = review(record, None, replace(REVIEW_BUDGET, samples=samples), tr=game_tr(lang))
    if lang != DEFAULT_LANGUAGE:
        rv.decisions = said_decisions(record, rv.decisions, game_tr(lang))
    out = rv.to_json()
    bad = rv.mistakes(top=len(rv.decisions))
    out["mistakes"] = [[asdict(d) for d in bad if d.seat == p][:3] for p in range(len(rv.names))]
    out["seconds"] = round(rv.seconds, 2)
    return out


def said_decisions(record: GameRecord, decisions: list[Decision],
                   tr: Translate) -> list[Decision]:
    """Reviewed decisions with their chosen and best actions in ``tr``'s words (a review
    keeps the stable texts, which are English)."""
    by_number = {d.number: d for d in decisions}
    s = record.first_state()
    out = []
    for number, typed in enumerate(record.actions, 1):
        d = by_number.get(number)
        if d is not None:
            chosen, best = (describe(s, record.parse(s, x), tr).words or x
                            for x in (d.chosen, d.best))
            out.append(replace(d, chosen=chosen, best=best))
        s = apply(s, record.parse(s, typed))
    return out


def _dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------- connections and sessions


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
                              "message": exc.message_in(self.lang)}))


class Session:
    """A loaded game: its table, the lock its changes take, its connections."""

    def __init__(self, table: Table):
        self.table = table
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.bot_version = -1  # the version a bot move is scheduled for
        self.touched = time.time()  # the last change or connection (idle games leave)
        self.messages: dict[tuple[int | None, str], str] = {}  # per seat and language, now
        self.common: dict[str, Any] | None = None  # the part every seat shares, this version
        self.replay: list[GameState] | None = None
        self.hinting = asyncio.Lock()  # one hint computed at a time per game
        self.hinted: tuple[int, str, dict[str, Any]] | None = None  # version, language, answer
        self.review: dict[str, asyncio.Future[dict[str, Any]]] = {}  # per language, once asked

    @property
    def id(self) -> str:
        return self.table.row.id

    @property
    def version(self) -> int:
        return self.table.row.version


# ---------------------------------------------------------------- all games of this process


class Games:
    """Every game this process serves, and the operations of the HTTP and WebSocket API."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.store: Store | None = None
        self.bus: Bus = make_bus(settings.database_url)
        self.sessions: dict[str, Session] = {}
        self._db_pool = ThreadPoolExecutor(1, thread_name_prefix="flamecraft-db")
        self.lanes = BotLanes(settings)
        self._load_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        self.addresses: dict[str, int] = {}  # live connections per client address
        self.closed = False

    # --- life cycle

    async def open(self) -> None:
        """Opens the store, starts hearing other processes, resumes the running games."""
        self.store = await self._run(open_store, self.settings.database_url)
        await self.bus.start(self._heard, self._reconnected)
        since = time.time() - self.settings.idle_seconds
        for game_id in await self.db(lambda st: st.running_game_ids(since)):
            try:
                await self.get(game_id, resume=True)
            except GameError as exc:
                log.error("cannot resume: %s", exc.message)
        self._spawn(self._sweep())

    async def _sweep(self) -> None:
        """Archives idle games now and then (a quarter of the idle time, at most hourly)."""
        every = min(3600.0, max(1.0, self.settings.idle_seconds / 4))
        while not self.closed:
            await asyncio.sleep(every)
            self.archive_idle()

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
        self.closed = True
        await self.bus.stop()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.lanes.close()
        if self.store is not None:
            await self._run(self.store.close)
        self._db_pool.shutdown(wait=True)

    def _spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            if not isinstance(exc, GameError) or exc.status >= 500:
                log.error("a background task failed", exc_info=exc)

    async def _detached(self, coro: Coroutine[Any, Any, T]) -> T:
        """Runs a change to completion even if the caller goes away (a closed WebSocket): a
        change stored but not applied in memory would leave this process behind."""
        return await asyncio.shield(self._spawn(coro))

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._db_pool,
                                                                partial(fn, *args))

    async def db(self, fn: Callable[[Store], T]) -> T:
        """Runs ``fn(store)``: on the store's thread for PostgreSQL (a network round trip);
        inline for SQLite, whose local transactions take well under a millisecond, less than
        handing the work to a thread and back costs."""
        store = self.store
        assert store is not None
        if store.inline:
            return fn(store)
        return await self._run(fn, store)

    # --- loading and hearing of other processes' changes

    async def get(self, game_id: str, resume: bool = False) -> Session | None:
        """The game, loaded (and its bots resumed) if need be; None if there is none."""
        session = self.sessions.get(game_id)
        if session is not None or not valid_game_id(game_id):
            return session
        async with self._load_lock:
            session = self.sessions.get(game_id)
            if session is not None:
                return session
            row, actions = await self.db(lambda st: st.load_with_actions(game_id))
            if row is None:
                return None
            session = Session(Table(row, actions))
            self._evict()
            self.sessions[game_id] = session
            # Another process may be playing this game's bots: take over only if it is gone.
            store = self.store
            late = self.settings.bot_takeover if store is not None and store.notifies else 0.0
            self._schedule_bot(session, self.settings.bot_delay + (0.0 if resume else late))
            return session

    def _evict(self) -> None:
        """Keeps memory bounded: past ``MAX_IDLE`` loaded games, forgets those nobody watches
        that are not running (they are loaded again when asked for)."""
        if len(self.sessions) < MAX_IDLE:
            return
        for game_id, session in list(self.sessions.items()):
            if not session.conns and session.table.row.status != RUNNING:
                del self.sessions[game_id]

    async def need(self, game_id: str) -> Session:
        session = await self.get(game_id)
        if session is None:
            raise GameError("not_found", N_("there is no game {game}"), 404,
                            game=repr(game_id))
        return session

    def _heard(self, game_id: str, version: int) -> None:
        session = self.sessions.get(game_id)
        if session is not None and session.version != version and not self.closed:
            self._spawn(self.sync(session))

    def _reconnected(self) -> None:
        for session in list(self.sessions.values()):
            self._spawn(self.sync(session))

    async def sync(self, session: Session) -> None:
        async with session.lock:
            await self._sync_locked(session)

    async def _sync_locked(self, session: Session) -> None:
        """Catches up with the store: applies the actions stored since (by another process),
        or replays the whole game if some were taken back."""
        row, actions = await self.db(lambda st: st.load_with_actions(session.id))
        if row is None or row.version == session.version:
            return
        t = session.table
        mine = len(t.actions)
        if (t.state is not None and row.status != OPEN and len(actions) >= mine
                and actions[:mine] == t.actions):
            t.row = row
            t.extend(actions[mine:])
        else:
            session.table = Table(row, actions)
        self._changed(session, local=False)

    # --- what every change does next

    def _changed(self, session: Session, local: bool) -> None:
        session.touched = time.time()
        session.messages.clear()
        session.common = None
        session.replay = None
        for conn in list(session.conns):
            self._push(session, conn)
        delay = self.settings.bot_delay
        self._schedule_bot(session, delay if local else delay + self.settings.bot_takeover)

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
        self._push(session, conn)

    def unsubscribe(self, session: Session, conn: Connection) -> None:
        if conn in session.conns and conn.address is not None:
            left = self.addresses.get(conn.address, 1) - 1
            if left > 0:
                self.addresses[conn.address] = left
            else:
                self.addresses.pop(conn.address, None)
        session.touched = time.time()
        session.conns.discard(conn)
        if not session.conns and session.table.row.status != RUNNING:
            self.sessions.pop(session.id, None)  # loaded again when asked for

    # --- messages

    def _push(self, session: Session, conn: Connection) -> None:
        """Sends a connection the latest state, and then, once a rematch exists, a "rematch"
        message with the connection's own link to it."""
        seat = conn.seat
        text = session.messages.get((seat, conn.lang))
        if text is None:
            if session.common is None:
                session.common = self._common(session.table)
            text = session.messages[(seat, conn.lang)] = self._state_text(
                session.table, seat, session.common, conn.lang)
        rematch = session.table.row.rematch
        if rematch is None:
            conn.push(text)
            return
        new_id = rematch["game_id"]
        extra: dict[str, Any] = {"game_id": new_id, "spectate": f"/play/{new_id}"}
        if seat is not None and conn.token is not None:
            extra["link"] = seat_link(new_id, seat, conn.token)
        conn.push(text[:-1] + ',"rematch":' + _dumps(extra) + "}")
        conn.push(_dumps({"type": "rematch", **extra}))

    @staticmethod
    def _common(t: Table) -> dict[str, Any]:
        """What the state message of every seat holds alike."""
        s, row = t.state, t.row
        live = s is not None and row.status == RUNNING and not s.over
        return {
            "type": "state",
            "game_id": row.id,
            "name": row.name,
            "version": row.version,
            "step": len(t.actions),
            "status": row.status,
            "seats": seats_json(row),
            "live": live,
            "hints": row.hints,
            "result": row.result,
        }

    @staticmethod
    def _state_text(t: Table, seat: int | None, common: dict[str, Any],
                    lang: str = DEFAULT_LANGUAGE) -> str:
        """One seat's state message in ``lang``, as JSON text (the log spliced in already
        encoded). The language changes the words only, never what is shown."""
        s = t.state
        acting = (s is not None and common["live"] and seat is not None
                  and to_act(s) == seat)
        tr = game_tr(lang)
        head = _dumps({
            **{k: v for k, v in common.items() if k != "live"},
            "seat": seat,
            # What is being decided is told to the seat deciding only: whether another seat
            # has a decision at all can depend on its hidden cards (core/events.py).
            "choosing": describe_decision(s, tr) if acting and s is not None else "",
            "view": view_in(s, seat, lang) if s is not None else None,
            "legal": legal_json(s, tr) if acting and s is not None else [],
            "can_undo": t.can_undo(seat),
        })
        return head[:-1] + ',"log":' + t.log_for(seat, lang) + "}"

    # --- the lobby

    async def create(self, name: str | None, seats: Sequence[dict[str, Any]], deck: str,
                     companions: bool, seed: int | None, begin: bool = False,
                     tokens_from: GameRow | None = None,
                     first_player: int | None = None,
                     asker: int | None = None, hints: bool = True) -> dict[str, Any]:
        """A new game; the answer holds every person's seat link (the only time the tokens
        are shown). ``tokens_from``: the game this one is a rematch of (its seats' tokens
        stay valid here, so each player's old link leads on); then only ``asker``'s seat
        gets a new token, and the answer holds that one alone. ``first_player``: a seat, or
        None for one drawn from the seed."""
        if not 1 <= len(seats) <= MAX_SEATS:
            raise GameError("malformed", N_("a game has 1 to {most} seats, not {n}"), 400,
                            most=MAX_SEATS, n=len(seats))
        if first_player is not None and not 0 <= first_player < len(seats):
            raise GameError("malformed", N_("first_player must be a seat from 0 to {last}, "
                                            "not {first}"), 400,
                            last=len(seats) - 1, first=first_player)
        kinds, bots, names = [], [], []
        bot_names = iter(BOT_NAMES)
        for i, spec in enumerate(seats):
            kind = spec.get("kind", HUMAN)
            if kind not in (HUMAN, BOT):
                raise GameError("malformed", N_("seat {seat}: kind must be 'human' or 'bot'"),
                                400, seat=i)
            bot = (spec.get("bot") or DEFAULT_OPPONENT) if kind == BOT else None
            if bot is not None and bot not in BOTS:
                raise GameError("malformed", N_("seat {seat}: unknown bot {bot} (there are "
                                                "{bots})"), 400,
                                seat=i, bot=repr(bot), bots=", ".join(sorted(BOTS)))
            given = (spec.get("name") or "").strip()
            if not given:
                humans = sum(1 for s in seats if s.get("kind", HUMAN) == HUMAN)
                given = next(bot_names) if kind == BOT else (
                    "You" if humans == 1 else f"Player {i + 1}")
            kinds.append(kind)
            bots.append(bot)
            names.append(given)
        try:
            tidy = check_seat_names(names)
            game_name = clean(name or "", game_name=True)
        except SetupError as exc:
            raise GameError("malformed", str(exc), 400, error=exc) from None
        if deck not in ("purple", "golden"):
            raise GameError("malformed", N_("deck must be 'purple' or 'golden'"), 400)
        if seed is not None and kinds.count(HUMAN) > 1:
            raise GameError("malformed", N_("seed: a chosen seed is only for games with at "
                                            "most one person (with two or more, whoever "
                                            "knows it could work out everyone's cards); leave "
                                            "it out for a fair deal"), 400)
        tokens: list[str | None] = []
        seat_rows = []
        for i, (kind, bot, seat_name) in enumerate(zip(kinds, bots, tidy, strict=True)):
            fresh = kind == HUMAN and (tokens_from is None or i == asker)
            token = new_token() if fresh else None
            tokens.append(token)
            hashes = [hash_token(token)] if token else []
            if kind == HUMAN and tokens_from is not None and i < len(tokens_from.seats):
                hashes += tokens_from.seats[i].token_hashes[:KEPT_TOKENS - 1]
            seat_rows.append(SeatRow(seat_name, kind, bot, hashes, joined=kind == BOT))
        game_id = new_game_id()
        row = GameRow(
            id=game_id, name=game_name or f"{tidy[0]}'s game",
            options=Options(len(seats), deck, tidy, companions, first_player),
            # The server's secret randomness unless one person chose a seed (practice,
            # reproducing a game): the row keeps it, so the record replays after the game.
            seed=seed if seed is not None else secrets.randbelow(1 << 62),
            seats=seat_rows,
            status=RUNNING if begin or HUMAN not in kinds else OPEN,
            hints=hints)
        # The deal by card ids and the names the texts are written in, kept with the game: it
        # reads the same after a change to the order of the card files or to a card's name.
        row.setup = {"deal": start_to_json(seeded_start(row.options, row.seed)),
                     "names": CARD_NAMES}
        table = Table(row)  # checks the options by starting the game (when running)
        await self.db(lambda st: st.create_game(row))
        session = Session(table)
        self.sessions[game_id] = session
        self._schedule_bot(session, self.settings.bot_delay)
        out_seats = []
        for i, seat_row in enumerate(seat_rows):
            token = tokens[i]
            out_seats.append({"seat": i, "name": seat_row.name, "kind": seat_row.kind,
                              "bot": seat_row.bot, "token": token,
                              "link": seat_link(game_id, i, token) if token else None})
        return {"game_id": game_id, "seats": out_seats, "spectate": f"/play/{game_id}",
                "game": entry_json(row)}

    async def _change(self, session: Session,
                      change: Callable[[GameRow], GameRow | None]) -> GameRow:
        """Applies a lobby change (seats, status, rematch) made against the latest version;
        on a race with another process, catches up and tries again."""
        for _ in range(3):
            async with session.lock:
                row = session.table.row.copy()
                new = change(row)
                if new is None:
                    return session.table.row
                expected = session.version
                new.version = expected + 1
                if await self.db(lambda st: st.update_game(new, expected)):  # noqa: B023
                    t = session.table
                    was_open = t.state is None
                    t.row = new
                    if was_open and new.status != OPEN:
                        t.begin()
                    self._changed(session, local=True)
                    return new
                await self._sync_locked(session)
        raise GameError("busy", N_("the game is changing too fast; try again"), 409)

    def _check_token(self, row: GameRow, seat: int, token: str) -> None:
        if not token_ok(row, seat, token):
            raise GameError("bad_token", N_("this link does not let you play seat {seat}"), 403,
                            seat=seat)

    async def join(self, game_id: str, seat: int, token: str, name: str | None) -> GameRow:
        session = await self.need(game_id)

        def change(row: GameRow) -> GameRow | None:
            self._check_token(row, seat, token)
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

        return await self._detached(self._change(session, change))

    async def leave(self, game_id: str, seat: int, token: str) -> GameRow:
        session = await self.need(game_id)

        def change(row: GameRow) -> GameRow | None:
            self._check_token(row, seat, token)
            if not row.seats[seat].joined:
                return None
            row.seats[seat].joined = False
            return row

        return await self._detached(self._change(session, change))

    async def begin(self, game_id: str, seat: int, token: str) -> GameRow:
        """Starts an open game: the host (the first person's seat, seat 0 unless it is a bot)
        may start it whether or not everyone has joined."""
        session = await self.need(game_id)

        def change(row: GameRow) -> GameRow | None:
            self._check_token(row, seat, token)
            host = next(i for i, s in enumerate(row.seats) if s.kind == HUMAN)
            if seat != host:
                raise GameError("bad_token", N_("only the host (seat {host}) may start the game"),
                                403, host=host)
            if row.status != OPEN:
                raise GameError("illegal", _STATUS_ALREADY[row.status])
            row.status = RUNNING
            return row

        return await self._detached(self._change(session, change))

    async def rematch(self, game_id: str, seat: int, token: str) -> dict[str, Any]:
        """A new game like a finished one, same seats; asked again, the same new game. Each
        seat's old token also lets it into the new game, so the old game's page shows each
        player their own link; the asker receives a new key for their own seat and no one
        else's (another seat's key would show its hand)."""
        session = await self.need(game_id)
        row = session.table.row
        self._check_token(row, seat, token)
        if row.status != FINISHED:
            raise GameError("illegal", N_("a rematch can be asked for once the game is "
                                          "finished"))
        if row.rematch is not None:
            new_id = row.rematch["game_id"]
            new = await self.need(new_id)
            out_seats = [{"seat": i, "name": s.name, "kind": s.kind, "bot": s.bot,
                          "token": token if i == seat else None,
                          "link": seat_link(new_id, i, token) if i == seat else None}
                         for i, s in enumerate(new.table.row.seats)]
            return {"game_id": new_id, "seats": out_seats, "spectate": f"/play/{new_id}",
                    "game": entry_json(new.table.row)}
        specs = [{"kind": s.kind, "bot": s.bot, "name": s.name} for s in row.seats]
        o = row.options
        alone = sum(1 for s in row.seats if s.kind == HUMAN) == 1  # nobody to wait for
        created = await self.create(row.name, specs, o.deck, o.companions, None, begin=alone,
                                    tokens_from=row, first_player=o.first_player,
                                    asker=seat, hints=row.hints)

        def change(r: GameRow) -> GameRow | None:
            if r.rematch is not None:
                return None
            r.rematch = {"game_id": created["game_id"]}
            return r

        stored = await self._detached(self._change(session, change))
        if stored.rematch is not None and stored.rematch["game_id"] != created["game_id"]:
            return await self.rematch(game_id, seat, token)  # another process was first
        return created

    # --- moves

    async def act(self, session: Session, seat: int | None, version: int,
                  index: int | None = None, typed: str | None = None) -> None:
        await self._detached(self._act(session, seat, version, index, typed))

    @staticmethod
    def _live_state(t: Table, over: str = N_("the game is over")) -> GameState:
        """The state of a game in play, or the error that it has not started or is over
        (``over``: a msgid)."""
        s = t.state
        if t.row.status == OPEN or s is None:
            raise GameError("illegal", N_("the game has not started yet"))
        if t.row.status == FINISHED or s.over:
            raise GameError("illegal", over)
        return s

    def _check_turn(self, session: Session, seat: int | None, version: int) -> GameState:
        t = session.table
        s = self._live_state(t)
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
            await self._commit(session, session.table.prepare(action))

    async def _commit(self, session: Session, step: Step) -> None:
        """Stores a step (with the version bump, in one transaction), then applies it."""
        t = session.table
        expected = session.version
        row = t.row.copy()
        row.version = expected + 1
        if step.after.over:
            row.status, row.result = FINISHED, result_of(step.after)
        action = ActionRow(len(t.actions), step.seat, step.full, row.version)
        if not await self.db(lambda st: st.append_action(row, expected, action)):
            await self._sync_locked(session)
            raise GameError("stale", N_("another move was made first: look again and choose "
                                        "anew"))
        t.commit(step, action)
        t.row = row
        self._changed(session, local=True)

    async def undo(self, session: Session, seat: int | None, version: int) -> None:
        await self._detached(self._undo(session, seat, version))

    async def _undo(self, session: Session, seat: int | None, version: int) -> None:
        async with session.lock:
            self._check_turn(session, seat, version)
            t = session.table
            if not t.can_undo(seat):
                raise GameError("illegal", N_("nothing to undo: undo goes back only within "
                                              "your own turn, and not past a card drawn from a "
                                              "hidden deck, a Shop turned face up, a Fancy "
                                              "Dragon revealed or a shuffle"))
            keep = t.undo[-1].actions
            expected = session.version
            row = t.row.copy()
            row.version = expected + 1
            if not await self.db(lambda st: st.truncate_actions(row, expected, keep)):
                await self._sync_locked(session)
                raise GameError("stale", N_("another move was made first: look again"))
            t.rewind()
            t.row = row
            self._changed(session, local=True)

    # --- bots

    def _schedule_bot(self, session: Session, delay: float) -> None:
        t = session.table
        s = t.state
        if (self.closed or s is None or t.row.status != RUNNING or s.over
                or t.human(to_act(s)) or session.bot_version == session.version):
            return
        session.bot_version = session.version
        self._spawn(self._bot_move(session, session.version, delay))

    async def _bot_move(self, session: Session, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        t = session.table
        s = t.state
        if session.version != version or self.closed or s is None or s.over:
            return
        p = to_act(s)
        name = t.row.seats[p].bot or DEFAULT_BOT
        if name not in BOTS:
            name = DEFAULT_BOT
        rng = random.Random(f"{t.row.seed}:{p}:{len(t.actions)}")
        started = time.perf_counter()
        try:  # in its lane (botpool.py): no one waits for a bot, nor a bot for a search
            action = await self.lanes.decide(t.row.id, name, s.copy(), rng)
        except Exception:
            log.exception("bot %r failed in game %s; playing a random move", name, t.row.id)
            action = random_action(s, rng)
        log.debug("bot %s thought %.3fs", name, time.perf_counter() - started)
        async with session.lock:
            if session.version != version or session.table is not t or self.closed:
                return
            if action not in legal_actions(s):
                log.error("bot %r chose an illegal action in game %s", name, t.row.id)
                action = random_action(s, rng)
            with contextlib.suppress(GameError):  # another process moved first: caught up
                await self._commit(session, t.prepare(action))

    # --- hints and the review (ai/hints.py, ai/review.py)

    async def hint(self, game_id: str, seat: int, token: str,
                   lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The three best choices for ``seat``, which must be the one to act, from its own
        view only (the hidden cards re-dealt), if the game allows hints, with reasons in
        ``lang``. Seeded like the terminal's ``hint``; computed in the search lane
        (botpool.py), one at a time per game, and kept for the version and language it
        answers (asking again costs nothing)."""
        session = await self.need(game_id)
        t = session.table
        self._check_token(t.row, seat, token)
        if not t.row.hints:
            raise GameError("hints_off", N_("the host turned hints off for this game"), 403)
        async with session.hinting:
            t = session.table
            s = self._live_state(t, N_("the game is over: there is nothing to hint"))
            if to_act(s) != seat:
                raise GameError("out_of_turn", N_("hints are for the choice you are making "
                                                  "now, and it is not your turn to choose"))
            version = session.version
            if session.hinted is not None and session.hinted[:2] == (version, lang):
                return session.hinted[2]
            seed = f"{t.row.seed}:{len(t.actions)}:hint"
            found = await self.lanes.run(hint_json, s.copy(), seat, seed,
                                         self.settings.hint_samples, lang)
            answer = {"version": version, "step": len(t.actions), "seat": seat,
                      "hints": found}
            session.hinted = (version, lang, answer)
            return answer

    async def review(self, game_id: str, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """A finished game's review (every seat's decisions, from the whole record: it
        names every hidden card, so never before the game is over), in ``lang``. Computed
        once per loaded game and language, in the search lane; the asks while it is
        computed wait for it."""
        session = await self.need(game_id)
        if session.table.row.status != FINISHED:
            raise GameError("not_finished", N_("a review is available once the game is "
                                               "finished (it shows every seat's cards)"))
        asked = session.review.get(lang)
        if asked is None or (asked.done() and asked.exception() is not None):
            record = session.table.record()
            asked = session.review[lang] = asyncio.ensure_future(self.lanes.run(
                review_json, record, self.settings.review_samples, lang))
        return await asyncio.shield(asked)

    # --- finished games

    def replay_states(self, session: Session) -> list[GameState]:
        """Every state of a finished game, from the start (built once, kept while loaded)."""
        if session.replay is None:
            t = session.table
            record = t.record()
            s = record.first_state()
            states = [s]
            for row in t.actions:
                s = apply(s, record.parse(s, row.text))
                states.append(s)
            session.replay = states
        return session.replay

