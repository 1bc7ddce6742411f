"""Where games live: one small interface over SQLite (standard library) and PostgreSQL (psycopg).

A game is a row (options, seed, its deal by card ids, seats, status, version) and one row per
applied action. Every
change is one transaction that also bumps the game's version, and a change applies only if the
version is still the one the caller read (optimistic concurrency): two processes, or two
clicks, can never both apply a move to the same state. On PostgreSQL the same transaction sends
a NOTIFY, so other server processes hear of the change the moment it commits (``pubsub.py``).

The methods are synchronous and are called from one worker thread per store (``database.py``),
so each store holds a single connection and the event loop never waits on the database.

psycopg is the optional ``postgres`` extra, imported only when a PostgreSQL URL is used
(``require_driver``): a server on SQLite runs without it.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..core.serialize import options_from_json, options_to_json
from ..core.state import Options
from .account_schema import ACCOUNT_TABLES, ACCOUNTS_SCHEMA
from .settings import is_postgres, sqlite_path

log = logging.getLogger("flamecraft.server")

SCHEMA_VERSION = 5
# Schema 2 adds the games' ``setup`` column: a record's ``deal`` and ``names``
# (docs/state-format.md), so a stored game is dealt the same cards, and its action texts read,
# whatever the card files say of the order and names of the cards since. A row of schema 1 has
# none (NULL): its seed deals it, as it always did, and its texts read in the names of now.
# Schema 3 adds the table chat (``flamecraft_chat``, chat.py); the games are unchanged.
# Schema 5 adds people's accounts, passkeys, sessions, bound seats and ratings
# (``account_schema.py``); the games are unchanged.
CHAT_TABLE = """CREATE TABLE IF NOT EXISTS flamecraft_chat (
        game_id TEXT NOT NULL REFERENCES flamecraft_games (id),
        seq INTEGER NOT NULL,
        seat INTEGER,
        name TEXT NOT NULL,
        text TEXT NOT NULL,
        canned TEXT,
        step INTEGER NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq))"""
# Schema 4 adds the finished games' reviews (``flamecraft_reviews``, reviews.py): a review is
# made once per game and language and kept, never made again (issue 24).
REVIEWS_TABLE = """CREATE TABLE IF NOT EXISTS flamecraft_reviews (
        game_id TEXT NOT NULL REFERENCES flamecraft_games (id),
        lang TEXT NOT NULL,
        review TEXT NOT NULL,
        samples INTEGER NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, lang))"""
MIGRATIONS = {1: ("ALTER TABLE flamecraft_games ADD COLUMN setup TEXT",),
              2: (CHAT_TABLE,),
              3: (REVIEWS_TABLE,),
              ACCOUNTS_SCHEMA - 1: ACCOUNT_TABLES}
CHANNEL = "flamecraft_games"  # the PostgreSQL NOTIFY channel; payload "<game id> <version>"
CHAT_CHANNEL = "flamecraft_chat"  # a new chat line; payload "<game id> <seq>"
PROBE_KEY = "health_probe"  # the flamecraft_meta row /api/health writes and reads back
# How long an SQLite call waits for a lock another connection holds before it fails as
# "database is locked" (then ``unavailable``, which the bots retry): the calls are made on
# the event loop, so a long wait there would freeze every game (it was 10 s).
SQLITE_BUSY_SECONDS = 0.25

# The words a game's row is written in: its status, and the kind of each of its seats.
OPEN, RUNNING, FINISHED = "open", "running", "finished"
HUMAN, BOT = "human", "bot"

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS flamecraft_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS flamecraft_games (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        options TEXT NOT NULL,
        seed BIGINT NOT NULL,
        seats TEXT NOT NULL,
        status TEXT NOT NULL,
        version BIGINT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL,
        result TEXT,
        rematch TEXT,
        setup TEXT)""",
    """CREATE INDEX IF NOT EXISTS flamecraft_games_by_status
        ON flamecraft_games (status, created)""",
    """CREATE TABLE IF NOT EXISTS flamecraft_actions (
        game_id TEXT NOT NULL REFERENCES flamecraft_games (id),
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        text TEXT NOT NULL,
        version BIGINT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq))""",
    CHAT_TABLE,
    REVIEWS_TABLE,
    *ACCOUNT_TABLES,
)

_GAME_COLUMNS = ("id, name, options, seed, seats, status, version, created, result, rematch, "
                 "setup")


@dataclass
class SeatRow:
    """Who plays a seat. Only SHA-256 digests of a person's seat tokens are stored: the
    seat's own, then those of the same seat in the games this one is a rematch of."""

    name: str
    kind: str  # HUMAN or BOT
    bot: str | None = None
    token_hashes: list[str] = field(default_factory=list)
    joined: bool = False
    # A person's seat a bot plays for now (standins.py): the bot's name, or None.
    stand_in: str | None = None
    # Every stretch a bot played for the person: {"why": "voted" | "conceded" | "timeout" | "away",
    # "from": the actions before it, "turn": its first turn, "to" and "until": the same at
    # its end, or None while it goes on}. Shown with the final scores.
    spans: list[dict[str, Any]] = field(default_factory=list)
    conceded: bool = False  # the person gave the seat up for good: a bot plays it out
    votes: list[int] = field(default_factory=list)  # the seats asking a bot to play it now

    @property
    def person_plays(self) -> bool:
        """Whether a person plays the seat now (not a bot, nor a bot in their place)."""
        return self.kind == HUMAN and self.stand_in is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "bot": self.bot,
                               "token_hashes": self.token_hashes, "joined": self.joined}
        # (only when set: a row without them reads as before, and older rows read the same)
        if self.stand_in is not None:
            out["stand_in"] = self.stand_in
        if self.spans:
            out["spans"] = self.spans
        if self.conceded:
            out["conceded"] = True
        if self.votes:
            out["votes"] = self.votes
        return out

    @staticmethod
    def from_json(obj: dict[str, Any]) -> SeatRow:
        return SeatRow(str(obj["name"]), str(obj["kind"]), obj.get("bot"),
                       [str(h) for h in obj.get("token_hashes", [])],
                       bool(obj.get("joined", False)), obj.get("stand_in"),
                       [dict(span) for span in obj.get("spans", [])],
                       bool(obj.get("conceded", False)),
                       [int(v) for v in obj.get("votes", [])])

    def copy(self) -> SeatRow:
        return SeatRow(self.name, self.kind, self.bot, self.token_hashes[:], self.joined,
                       self.stand_in, [dict(span) for span in self.spans], self.conceded,
                       self.votes[:])


@dataclass
class GameRow:
    """One game's row: everything but its actions."""

    id: str
    name: str
    options: Options
    seed: int
    seats: list[SeatRow]
    status: str = OPEN  # OPEN | RUNNING | FINISHED
    version: int = 0
    created: float = field(default_factory=time.time)
    result: dict[str, Any] | None = None
    # Set once a rematch exists: {"game_id": the new game's id}.
    rematch: dict[str, Any] | None = None
    # Whether the seats may ask for hints (the host's choice at creation). Kept in the
    # options column's JSON as ``"hints": false`` when off, so no schema change.
    hints: bool = True
    # ``{"deal": …, "names": …}``: the game's deal and the card names its texts are written
    # with, as a record writes them; written once, at creation. None for a row stored before
    # schema 2 (its seed deals it).
    setup: dict[str, Any] | None = None
    # The game's clock (``clocks.py``): its kind and settings, each seat's bank, the seat on
    # it and since when; None for a game without one. The bot that plays a person's seat
    # for them (``standins.py``): the host's choice. Both kept in the options column's JSON
    # (``"clock"``, ``"stand_in"``) when set, so no schema change.
    clock: dict[str, Any] | None = None
    stand_in: str | None = None
    # Whether spectators may write in the table chat (the host's choice at creation; the
    # seats always may). Kept in the options column's JSON as ``"spectator_chat": true``
    # when on, as ``hints`` is.
    spectator_chat: bool = False

    def copy(self) -> GameRow:
        """A copy to change and write (the stored one changes only once written)."""
        seats = [s.copy() for s in self.seats]
        clock = None if self.clock is None else json.loads(json.dumps(self.clock))
        return GameRow(self.id, self.name, self.options, self.seed, seats, self.status,
                       self.version, self.created, self.result, self.rematch, self.hints,
                       self.setup, clock, self.stand_in, self.spectator_chat)


@dataclass(frozen=True, slots=True)
class ChatRow:
    """One line of a game's table chat (chat.py): its place, who wrote it (``seat`` None: a
    spectator; ``name`` as the seat was named then, "" for a spectator), what was typed (or
    a canned phrase's id in ``canned``, ``text`` its English words), the actions applied when
    it was written (``step``: where the replay shows it) and when (Unix seconds)."""

    seq: int
    seat: int | None
    name: str
    text: str
    canned: str | None
    step: int
    created: float


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One applied action: its place in the game, who chose it, its text, and the game's
    version once it was applied (which tells a reader whether its copy is still current)."""

    seq: int
    seat: int
    text: str
    version: int


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _options_text(game: GameRow) -> str:
    """The options column: the game's options, and ``"hints": false`` when hints are off, its
    clock and its stand-in bot when it has them."""
    obj = options_to_json(game.options)
    if not game.hints:
        obj = {**obj, "hints": False}
    if game.clock is not None:
        obj = {**obj, "clock": game.clock}
    if game.stand_in is not None:
        obj = {**obj, "stand_in": game.stand_in}
    if game.spectator_chat:
        obj = {**obj, "spectator_chat": True}
    return _dumps(obj)


class UnreadableGame(ValueError):
    """A stored game row that cannot be read (JSON that does not parse, options the engine
    refuses): the lobby leaves it out and start-up skips it, each saying so in the log, and
    its own URL answers "broken"; the row itself is left for an operator."""

    def __init__(self, game_id: str, reason: str):
        super().__init__(f"game {game_id}: its stored row cannot be read ({reason})")
        self.game_id, self.reason = game_id, reason


def _game_from(row: Sequence[Any]) -> GameRow:
    try:
        return _read_game(row)
    except Exception as exc:
        raise UnreadableGame(str(row[0]), f"{type(exc).__name__}: {exc}"[:200]) from exc


def _readable(rows: Sequence[Sequence[Any]]) -> list[GameRow]:
    """The games of ``rows`` that can be read; each that cannot is logged and left out."""
    out = []
    for r in rows:
        try:
            out.append(_game_from(r))
        except UnreadableGame as exc:
            log.error("%s; left out", exc)
    return out


def _read_game(row: Sequence[Any]) -> GameRow:
    options = json.loads(row[2])
    return GameRow(
        id=row[0], name=row[1], options=options_from_json(options), seed=int(row[3]),
        seats=[SeatRow.from_json(s) for s in json.loads(row[4])], status=row[5],
        version=int(row[6]), created=float(row[7]),
        result=json.loads(row[8]) if row[8] else None,
        rematch=json.loads(row[9]) if row[9] else None,
        hints=not (isinstance(options, dict) and options.get("hints") is False),
        setup=json.loads(row[10]) if row[10] else None,
        clock=options.get("clock") if isinstance(options, dict) else None,
        stand_in=options.get("stand_in") if isinstance(options, dict) else None,
        spectator_chat=isinstance(options, dict) and options.get("spectator_chat") is True)


def _bot_only(seats: str) -> bool:
    """Whether a row's seats (JSON) hold no person; seats that cannot be read count as
    holding one (such a game is never taken for bot-only, nor ended as one)."""
    try:
        return all(seat["kind"] != HUMAN for seat in json.loads(seats))
    except (ValueError, TypeError, KeyError):
        return False


_CHAT_COLUMNS = "seq, seat, name, text, canned, step, created"


def _chat_from(row: Sequence[Any]) -> ChatRow:
    return ChatRow(int(row[0]), None if row[1] is None else int(row[1]), row[2], row[3],
                   row[4], int(row[5]), float(row[6]))


class Store(ABC):
    """The storage interface; ``SqliteStore`` and ``PostgresStore`` implement it with the same
    SQL (their parameter styles differ, which ``_sql`` hides)."""

    kind = "?"
    notifies = False  # whether other processes hear of changes (PostgreSQL NOTIFY)
    inline = False  # whether calls are quick enough to make on the event loop's thread
    # The backend's errors that say the store cannot be reached or written now (a fault that
    # heals: database.py reads them as ``unavailable``), not that a request is wrong.
    faults: tuple[type[BaseException], ...] = (OSError,)

    # --- what each backend provides

    @abstractmethod
    def _transaction(self) -> Any:
        """A context manager around one transaction, yielding a cursor."""

    @abstractmethod
    def _notify(self, cur: Any, game_id: str, version: int) -> None:
        """Tells other processes (after commit) that a game changed."""

    def _notify_chat(self, cur: Any, game_id: str, seq: int) -> None:  # noqa: B027
        """Tells other processes (after commit) that a game has a new chat line."""

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def probe(self, timeout: float) -> None:
        """Writes a row and reads it back on a connection of its own, within about
        ``timeout`` seconds (``/api/health``); raises one of ``faults`` if it cannot."""

    def _sql(self, query: str) -> str:
        return query

    # --- the interface

    def init_schema(self) -> None:
        with self._transaction() as cur:
            self._lock_schema(cur)
            for statement in SCHEMA:
                cur.execute(statement)
            cur.execute(self._sql("SELECT value FROM flamecraft_meta WHERE key = ?"),
                        ("schema_version",))
            row = cur.fetchone()
            if row is None:
                cur.execute(self._sql("INSERT INTO flamecraft_meta (key, value) VALUES (?, ?)"),
                            ("schema_version", str(SCHEMA_VERSION)))
            elif int(row[0]) in MIGRATIONS:  # an older schema, brought up to date
                for version in range(int(row[0]), SCHEMA_VERSION):
                    for statement in MIGRATIONS[version]:
                        cur.execute(statement)
                cur.execute(self._sql("UPDATE flamecraft_meta SET value = ? WHERE key = ?"),
                            (str(SCHEMA_VERSION), "schema_version"))
            elif int(row[0]) != SCHEMA_VERSION:
                raise RuntimeError(f"the database holds schema version {row[0]}; this server "
                                   f"reads version {SCHEMA_VERSION}")

    def _lock_schema(self, cur: Any) -> None:  # noqa: B027  (only PostgreSQL needs it)
        """Keeps two processes from creating the tables at once."""

    def _probe_with(self, cur: Any) -> None:
        """The health probe's write and read (``probe``), in a transaction of ``cur``."""
        written = f"{time.time():.6f}"
        cur.execute(self._sql(
            "INSERT INTO flamecraft_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO "
            "UPDATE SET value = excluded.value"), (PROBE_KEY, written))
        cur.execute(self._sql("SELECT value FROM flamecraft_meta WHERE key = ?"), (PROBE_KEY,))
        row = cur.fetchone()
        if row is None or row[0] != written:
            raise OSError("the health probe did not read back what it wrote")

    def create_game(self, game: GameRow) -> None:
        now = time.time()
        with self._transaction() as cur:
            cur.execute(self._sql(
                "INSERT INTO flamecraft_games (id, name, options, seed, seats, status, version, "
                "created, updated, result, rematch, setup) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                (game.id, game.name, _options_text(game), game.seed,
                 _dumps([s.to_json() for s in game.seats]), game.status, game.version,
                 game.created, now, None, None,
                 None if game.setup is None else _dumps(game.setup)))
            self._notify(cur, game.id, game.version)

    def load_game(self, game_id: str) -> GameRow | None:
        with self._transaction() as cur:
            cur.execute(self._sql(f"SELECT {_GAME_COLUMNS} FROM flamecraft_games WHERE id = ?"),
                        (game_id,))
            row = cur.fetchone()
        return None if row is None else _game_from(row)

    def load_with_actions(self, game_id: str) -> tuple[GameRow | None, list[ActionRow]]:
        """A game's row and its actions, read in one transaction (a consistent pair)."""
        with self._transaction() as cur:
            cur.execute(self._sql(f"SELECT {_GAME_COLUMNS} FROM flamecraft_games WHERE id = ?"),
                        (game_id,))
            row = cur.fetchone()
            if row is None:
                return None, []
            cur.execute(self._sql("SELECT seq, seat, text, version FROM flamecraft_actions "
                                  "WHERE game_id = ? ORDER BY seq"), (game_id,))
            rows = cur.fetchall()
        return _game_from(row), [ActionRow(int(r[0]), int(r[1]), r[2], int(r[3])) for r in rows]

    def list_games(self, statuses: Sequence[str], limit: int) -> list[GameRow]:
        marks = ", ".join("?" for _ in statuses)
        with self._transaction() as cur:
            cur.execute(self._sql(f"SELECT {_GAME_COLUMNS} FROM flamecraft_games WHERE status IN "
                                  f"({marks}) ORDER BY created DESC LIMIT ?"),
                        (*statuses, limit))
            rows = cur.fetchall()
        return _readable(rows)

    def running_game_ids(self, since: float = 0.0) -> list[str]:
        """The running games changed at or after ``since`` (Unix seconds): older ones are
        idle, left in the store until someone asks for them."""
        with self._transaction() as cur:
            cur.execute(self._sql("SELECT id FROM flamecraft_games WHERE status = ? AND "
                                  "updated >= ?"), ("running", since))
            return [r[0] for r in cur.fetchall()]

    def clocked_games(self) -> list[tuple[str, dict[str, Any]]]:
        """Every running game with a clock: its id and its clock (``clocks.py``), for the
        sweep that loads the games whose clock runs out."""
        with self._transaction() as cur:
            cur.execute(self._sql("SELECT id, options FROM flamecraft_games WHERE status = ? "
                                  "AND options LIKE ?"), (RUNNING, '%"clock":%'))
            rows = cur.fetchall()
        out = []
        for game_id, options in rows:
            try:
                clock = json.loads(options).get("clock")
            except (ValueError, AttributeError):
                log.error("game %s: its stored options cannot be read; left out", game_id)
                continue
            if isinstance(clock, dict):
                out.append((game_id, clock))
        return out

    def update_game(self, game: GameRow, expected_version: int) -> bool:
        """Writes the row's options, seats, status, version, result and rematch if the stored
        version is still ``expected_version``; False (nothing written) otherwise."""
        with self._transaction() as cur:
            if not self._bump(cur, game, expected_version):
                return False
            self._notify(cur, game.id, game.version)
        return True

    def append_action(self, game: GameRow, expected_version: int, action: ActionRow) -> bool:
        """Stores one applied action with the game's new version (and status, result) in one
        transaction, if no one else changed the game since ``expected_version``."""
        return self.append_actions(game, expected_version, [action])

    def append_actions(self, game: GameRow, expected_version: int,
                       actions: list[ActionRow]) -> bool:
        """``append_action`` for the actions of one composite choice: all or none."""
        with self._transaction() as cur:
            if not self._bump(cur, game, expected_version):
                return False
            for action in actions:
                cur.execute(self._sql(
                    "INSERT INTO flamecraft_actions (game_id, seq, seat, text, version, "
                    "created) VALUES (?, ?, ?, ?, ?, ?)"),
                    (game.id, action.seq, action.seat, action.text, action.version,
                     time.time()))
            self._notify(cur, game.id, game.version)
        return True

    def replace_actions(self, game: GameRow, expected_version: int,
                        actions: Sequence[ActionRow]) -> bool:
        """Stores a game's actions anew, with its row, setup and new version, in one
        transaction (a game stored before ruling 20's decision points, read as today's engine
        asks it; a seat renamed), if no one else changed the game since ``expected_version``;
        its stored reviews are dropped with them."""
        with self._transaction() as cur:
            if not self._bump(cur, game, expected_version):
                return False
            cur.execute(self._sql("UPDATE flamecraft_games SET setup = ? WHERE id = ?"),
                        (None if game.setup is None else _dumps(game.setup), game.id))
            cur.execute(self._sql("DELETE FROM flamecraft_actions WHERE game_id = ?"),
                        (game.id,))
            # a review quotes the texts and names the seats: made again when next asked
            cur.execute(self._sql("DELETE FROM flamecraft_reviews WHERE game_id = ?"),
                        (game.id,))
            now = time.time()
            for action in actions:
                cur.execute(self._sql(
                    "INSERT INTO flamecraft_actions (game_id, seq, seat, text, version, "
                    "created) VALUES (?, ?, ?, ?, ?, ?)"),
                    (game.id, action.seq, action.seat, action.text, action.version, now))
            self._notify(cur, game.id, game.version)
        return True

    def truncate_actions(self, game: GameRow, expected_version: int, keep: int) -> bool:
        """Undo: deletes the actions from number ``keep`` on and bumps the version."""
        with self._transaction() as cur:
            if not self._bump(cur, game, expected_version):
                return False
            cur.execute(self._sql("DELETE FROM flamecraft_actions WHERE game_id = ? AND seq >= ?"),
                        (game.id, keep))
            self._notify(cur, game.id, game.version)
        return True

    # --- the table chat (chat.py)

    def add_chat(self, game_id: str, line: ChatRow, after: int) -> list[ChatRow] | None:
        """Stores a chat line as the game's next (``line.seq`` is ignored: the next free
        one), and returns every line after seq ``after`` up to it (those this process has
        not sent yet, its own included); None (nothing stored) if there is no such game.
        Lines of one game are numbered one at a time: the transaction first locks the
        game's row (a change of nothing), so two processes never take the same seq."""
        with self._transaction() as cur:
            cur.execute(self._sql("UPDATE flamecraft_games SET updated = updated WHERE id = ?"),
                        (game_id,))
            if cur.rowcount != 1:
                return None
            cur.execute(self._sql("SELECT COALESCE(MAX(seq), -1) + 1 FROM flamecraft_chat "
                                  "WHERE game_id = ?"), (game_id,))
            seq = int(cur.fetchone()[0])
            cur.execute(self._sql(
                "INSERT INTO flamecraft_chat (game_id, seq, seat, name, text, canned, step, "
                "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
                (game_id, seq, line.seat, line.name, line.text, line.canned, line.step,
                 line.created))
            self._notify_chat(cur, game_id, seq)
            cur.execute(self._sql(f"SELECT {_CHAT_COLUMNS} FROM flamecraft_chat WHERE "
                                  "game_id = ? AND seq > ? ORDER BY seq"), (game_id, after))
            return [_chat_from(r) for r in cur.fetchall()]

    def load_chat(self, game_id: str, after: int = -1, last: int | None = None,
                  first: int | None = None) -> list[ChatRow]:
        """A game's chat lines after seq ``after``, oldest first; only the ``last`` ones, or
        the ``first`` ones, if given."""
        with self._transaction() as cur:
            if last is None:
                cur.execute(self._sql(f"SELECT {_CHAT_COLUMNS} FROM flamecraft_chat WHERE "
                                      "game_id = ? AND seq > ? ORDER BY seq"
                                      + (" LIMIT ?" if first is not None else "")),
                            (game_id, after) + ((first,) if first is not None else ()))
                return [_chat_from(r) for r in cur.fetchall()]
            cur.execute(self._sql(f"SELECT {_CHAT_COLUMNS} FROM flamecraft_chat WHERE "
                                  "game_id = ? AND seq > ? ORDER BY seq DESC LIMIT ?"),
                        (game_id, after, last))
            return [_chat_from(r) for r in reversed(cur.fetchall())]

    # --- the reviews of finished games (reviews.py)

    def load_review(self, game_id: str, lang: str) -> dict[str, Any] | None:
        """A finished game's stored review in ``lang``, or None if none was made yet."""
        with self._transaction() as cur:
            cur.execute(self._sql("SELECT review FROM flamecraft_reviews WHERE game_id = ? "
                                  "AND lang = ?"), (game_id, lang))
            row = cur.fetchone()
        if row is None:
            return None
        try:
            review = json.loads(row[0])
        except ValueError:
            log.error("game %s: its stored %s review cannot be read; made again", game_id,
                      lang)
            return None
        return review if isinstance(review, dict) else None

    def save_review(self, game_id: str, lang: str, review: dict[str, Any],
                    samples: int) -> None:
        """Keeps a review once made (a second one for the same game and language, made by
        another process meanwhile, changes nothing: the first stays)."""
        with self._transaction() as cur:
            cur.execute(self._sql(
                "INSERT INTO flamecraft_reviews (game_id, lang, review, samples, created) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, lang) DO NOTHING"),
                (game_id, lang, _dumps(review), samples, time.time()))

    # --- the caps (quotas.py) and the operator (admin.py)

    def unfinished_games(self) -> list[tuple[str, float, bool]]:
        """Every game open or running: its id, when it was created, and whether it has no
        person's seat (bot-only)."""
        with self._transaction() as cur:
            cur.execute(self._sql("SELECT id, created, seats FROM flamecraft_games WHERE "
                                  "status IN (?, ?)"), (OPEN, RUNNING))
            rows = cur.fetchall()
        return [(r[0], float(r[1]), _bot_only(r[2])) for r in rows]

    def action_count(self, game_id: str) -> int:
        """How many actions a game has stored."""
        with self._transaction() as cur:
            cur.execute(self._sql("SELECT COUNT(*) FROM flamecraft_actions WHERE game_id = ?"),
                        (game_id,))
            return int(cur.fetchone()[0])

    def delete_game(self, game_id: str, expected_version: int) -> bool:
        """Removes a game with its actions, chat and reviews (``flamecraft admin delete``),
        if it is still at ``expected_version``; False (nothing removed) otherwise."""
        with self._transaction() as cur:
            cur.execute(self._sql("SELECT version FROM flamecraft_games WHERE id = ?"),
                        (game_id,))
            row = cur.fetchone()
            if row is None or int(row[0]) != expected_version:
                return False
            for table in ("flamecraft_reviews", "flamecraft_chat", "flamecraft_actions"):
                cur.execute(self._sql(f"DELETE FROM {table} WHERE game_id = ?"), (game_id,))
            cur.execute(self._sql("DELETE FROM flamecraft_games WHERE id = ?"), (game_id,))
            self._notify(cur, game_id, expected_version + 1)
        return True

    def _bump(self, cur: Any, game: GameRow, expected_version: int) -> bool:
        cur.execute(self._sql(
            "UPDATE flamecraft_games SET options = ?, seats = ?, status = ?, version = ?, "
            "updated = ?, result = ?, rematch = ? WHERE id = ? AND version = ?"),
            (_options_text(game), _dumps([s.to_json() for s in game.seats]),
             game.status, game.version, time.time(),
             None if game.result is None else _dumps(game.result),
             None if game.rematch is None else _dumps(game.rematch), game.id, expected_version))
        return bool(cur.rowcount == 1)


class SqliteStore(Store):
    """SQLite in one file (WAL mode): the default, for one server process."""

    kind = "sqlite"
    inline = True
    faults = (sqlite3.OperationalError, OSError)  # locked, read-only, full, I/O error…

    def __init__(self, path: str, busy_seconds: float = SQLITE_BUSY_SECONDS):
        self.path = path
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                    timeout=busy_seconds)
        self.conn.execute("PRAGMA journal_mode=WAL")
        # FULL: a move is on disk (the WAL synced) before it is acknowledged; NORMAL could lose
        # the last ones on a power loss. It costs about 0.2 ms a commit here (docs/server.md).
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute("PRAGMA foreign_keys=ON")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Cursor]:
        cur = self.conn.cursor()
        cur.execute("BEGIN IMMEDIATE")
        try:
            yield cur
        except BaseException:
            cur.execute("ROLLBACK")
            raise
        else:
            cur.execute("COMMIT")
        finally:
            cur.close()

    def _notify(self, cur: Any, game_id: str, version: int) -> None:
        pass  # one process: the game manager tells its own connections

    def probe(self, timeout: float) -> None:
        if self.path == ":memory:":  # (tests) no other connection sees it: its own, inline
            with self._transaction() as cur:
                self._probe_with(cur)
            return
        # (a lock held elsewhere is waited for half the time: the answer is then "locked")
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=timeout / 2)
        try:
            cur = conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                self._probe_with(cur)
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")
        finally:
            conn.close()

    def close(self) -> None:
        self.conn.close()


def require_driver(url: str) -> None:
    """Raises ValueError, naming the extra to install, when ``url`` needs a database driver
    that is not installed (psycopg, the ``postgres`` extra, for PostgreSQL)."""
    if not is_postgres(url):
        return
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise ValueError(
            "a PostgreSQL database needs the 'postgres' extra (psycopg cannot be imported: "
            f"{exc}): pip install 'flamecraft[postgres]'") from None


class PostgresStore(Store):
    """PostgreSQL through psycopg: shared by every server process behind one address."""

    kind = "postgresql"
    notifies = True

    def __init__(self, url: str):
        require_driver(url)
        import psycopg

        self.url = url
        self.faults = (psycopg.OperationalError, psycopg.InterfaceError, OSError)
        self.conn = psycopg.connect(url, autocommit=True)

    def _connect(self) -> None:
        import psycopg

        if not self.conn.closed:
            self.conn.close()
        self.conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10)

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        import psycopg

        if self.conn.closed or self.conn.broken:  # a restarted database: connect again
            self._connect()
        with ExitStack() as stack:
            try:
                stack.enter_context(self.conn.transaction())
            except psycopg.OperationalError:
                # The connection died while idle (a PostgreSQL restart, a terminated backend):
                # found at BEGIN, before anything of this transaction was sent, so connecting
                # again and beginning anew is safe. (A fault after BEGIN is the caller's to
                # retry: every change is checked against the version, so it applies once.)
                if not self.conn.broken and not self.conn.closed:
                    raise
                self._connect()
                stack.enter_context(self.conn.transaction())
            yield stack.enter_context(self.conn.cursor())

    def _sql(self, query: str) -> str:
        return query.replace("?", "%s")

    def _lock_schema(self, cur: Any) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(7000417)")

    def _notify(self, cur: Any, game_id: str, version: int) -> None:
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id} {version}"))

    def _notify_chat(self, cur: Any, game_id: str, seq: int) -> None:
        cur.execute("SELECT pg_notify(%s, %s)", (CHAT_CHANNEL, f"{game_id} {seq}"))

    def probe(self, timeout: float) -> None:
        import psycopg

        wait = max(1, round(timeout))
        with psycopg.connect(self.url, autocommit=True, connect_timeout=wait) as conn:
            conn.execute(f"SET statement_timeout = {int(timeout * 1000)}")
            with conn.transaction(), conn.cursor() as cur:
                self._probe_with(cur)

    def close(self) -> None:
        self.conn.close()


def open_store(url: str, sqlite_busy: float = SQLITE_BUSY_SECONDS) -> Store:
    """The store a database URL names, with its tables created if need be (an SQLite file's
    calls waiting at most ``sqlite_busy`` seconds for another connection's lock)."""
    store: Store = (PostgresStore(url) if is_postgres(url)
                    else SqliteStore(sqlite_path(url), sqlite_busy))
    store.init_schema()
    return store
