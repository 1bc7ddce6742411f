"""The server's settings: where games are stored and the limits that keep it responsive.

One frozen value built once (from the command line and the environment) and handed to
``create_app``, so tests can build apps with any settings without touching the environment.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

DEFAULT_DATABASE = "sqlite:///flamecraft.sqlite3"
STATIC_DIR = Path(__file__).parent / "static"


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything ``create_app`` needs; see docs/server.md for each one's environment name."""

    database_url: str = DEFAULT_DATABASE
    # Seconds a bot waits before it moves, so that people can follow the table.
    bot_delay: float = 0.4
    # Extra seconds before a process plays a bot seat after another process moved last: the
    # process that moved normally plays the bot; this one takes over only if that one is gone.
    bot_takeover: float = 3.0
    # Where bots think (botpool.py): quick bots on ``bot_threads`` threads; the search bots
    # (``search_bots``) in ``bot_processes`` worker processes (0: on threads of their own),
    # so a search never holds up a quick bot, nor the event loop.
    bot_threads: int = 2
    bot_processes: int = max(1, min(4, (os.cpu_count() or 2) - 1))
    search_bots: frozenset[str] = frozenset({"ismcts", "planner"})
    # Per WebSocket connection: the largest message accepted, and a token bucket of
    # messages: a burst of up to ``message_burst`` at once, then this many a second.
    max_message_bytes: int = 8192
    max_messages_per_second: int = 20
    message_burst: int = 40
    # A message over the size limit costs its size in ``max_message_bytes`` from that bucket;
    # after ``max_bad_messages`` messages refused as too big or not the protocol (not JSON,
    # an unknown type) the connection is closed (1008).
    max_bad_messages: int = 5
    # States waiting to be sent to one slow connection before the oldest are dropped (each
    # state is a whole snapshot, so only the latest matters).
    send_queue: int = 32
    # New games per minute from one client address.
    games_per_minute: int = 30
    # The largest HTTP request body accepted (counted as it streams in).
    max_body_bytes: int = 16384
    # HTTP requests (httpd.py): the request line and headers together at most this many
    # bytes, and at most ``max_headers`` header lines; a request's head and body must have
    # arrived ``header_timeout`` seconds after the connection opened (or its previous answer
    # went); a kept-alive connection that sends nothing is closed after
    # ``keep_alive_timeout`` seconds; at most ``max_connections`` connections at once (HTTP
    # and WebSocket; 0: three quarters of the process's open-file limit).
    max_header_bytes: int = 16384
    max_headers: int = 100
    header_timeout: float = 10.0
    keep_alive_timeout: float = 5.0
    max_connections: int = 0
    # The proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (uvicorn's
    # forwarded_allow_ips: comma-separated addresses or networks, "*" for any).
    forwarded_allow_ips: str = "127.0.0.1,::1"
    # Live WebSocket connections one client address may hold open at once (every game).
    max_connections_per_address: int = 32
    # Spectators one game takes (its players always get in): each is sent every state.
    max_spectators: int = 50
    # A running game untouched this long (no move, no connection) leaves memory; it resumes
    # from the store when someone comes back. 14 days.
    idle_seconds: float = 14 * 86400.0
    # A person shows as away (presence.py) once no connection of theirs has been open this
    # long, or every one of their tabs hidden this long.
    away_grace: float = 3.0
    hidden_grace: float = 30.0
    # Over a shared PostgreSQL, each process tells the others what it sees of its games'
    # seats at each change and again this often (what is not told again for three times as
    # long, a process gone, stops counting).
    presence_heartbeat: float = 15.0
    # A seat out of time (clocks.py) is played by a bot this long after (the others are told
    # at once; the person may still move meanwhile). A person away (no clock) while it is
    # their turn: a bot plays for them after ``away_takeover`` (0: only when voted).
    timeout_grace: float = 10.0
    away_takeover: float = 90.0
    # The table chat (chat.py), per connection: a burst of ``chat_burst`` lines, then one
    # every ``chat_seconds`` seconds.
    chat_burst: int = 5
    chat_seconds: float = 2.0
    static_dir: Path = STATIC_DIR
    # How hard a hint and a review think: re-deals of the hidden cards per decision
    # (ai/hints.py HINT_BUDGET and ai/review.py REVIEW_BUDGET; tests make them small).
    hint_samples: int = 64
    review_samples: int = 4
    # Faults that heal (botseats.py): a bot move the store could not take (or the workers
    # could not think) is tried again after ``heal_seconds``, the wait doubling up to
    # ``heal_max_seconds``, ``heal_retries`` times (about 20 minutes in all); then the next
    # change or the minute's sweep schedules it again. ``/api/health`` gives its probe of the
    # store (a write read back) ``health_timeout`` seconds.
    heal_seconds: float = 0.5
    heal_max_seconds: float = 30.0
    heal_retries: int = 40
    health_timeout: float = 2.0
    # How long an SQLite call waits for another connection's lock (store.py): its calls are
    # made on the event loop, so this is how long a locked file can hold up every game.
    sqlite_busy_seconds: float = 0.25
    # Lanes with budgets (issue 24; quotas.py, botpool.py). The search bots of games without
    # a person think in ``bot_only_processes`` worker processes of their own, and hints and
    # reviews in ``advice_processes`` of theirs, both run at ``background_nice`` (a lower CPU
    # priority), so neither slows the bots of people's games. At most ``advice_queue`` hints
    # and reviews wait or run at once, ``advice_per_address`` of them from one address; past
    # either the answer is ``busy`` / ``rate_limited`` with a retry time. At most
    # ``load_queue`` games wait to be loaded (replayed from the store, on a thread).
    bot_only_processes: int = 1
    advice_processes: int = 1
    background_nice: int = 10
    advice_queue: int = 4
    advice_per_address: int = 2
    load_queue: int = 8
    # Caps on the games that run: overall and per client address (as it created them through
    # this process), and on the games without a person (bot-only), which also end (as
    # expired) ``bot_game_seconds`` after they were created.
    running_games: int = 2000
    running_games_per_address: int = 20
    bot_games: int = 6
    bot_games_per_address: int = 2
    bot_game_seconds: float = 3600.0
    # The replay of finished games (replays.py): a state kept every ``replay_every`` steps
    # (the others replayed from the one before), those of all games at most
    # ``replay_cache_bytes`` (the least recently used dropped first).
    replay_every: int = 16
    replay_cache_bytes: int = 32 * 1024 * 1024
    # Finished games' reviews as sent (reviews.py): their JSON and its gzip, made once from
    # the stored review and kept, all of them at most ``review_cache_bytes`` (the least
    # recently used dropped first), so a review asked again costs no encoding.
    review_cache_bytes: int = 16 * 1024 * 1024
    # Reads of a game over HTTP (its entry, record, review, replay steps, chat) from one
    # client address: a burst of three seconds' worth, then this many a second (a replay
    # stepped through quickly, a lobby of many games, fit well within it).
    reads_per_second: float = 20.0
    # Accounts (accounts.py): sign-in and sign-up attempts per minute from one client
    # address; the origin the pages are served from (``https://flamecraft.example``), which
    # a passkey is bound to (empty: each request's own scheme and Host).
    account_attempts_per_minute: int = 20
    public_origin: str = ""

    @staticmethod
    def from_env(environ: Mapping[str, str] | None = None,
                 database: str | None = None) -> Settings:
        """Settings from FLAMECRAFT_* variables; ``database`` (the --database flag) wins over
        FLAMECRAFT_DATABASE_URL."""
        env = os.environ if environ is None else environ
        s = Settings()
        url = database or env.get("FLAMECRAFT_DATABASE_URL") or s.database_url
        return replace(
            s,
            database_url=database_url(url),
            bot_delay=_number(env, "FLAMECRAFT_BOT_DELAY", s.bot_delay),
            bot_takeover=_number(env, "FLAMECRAFT_BOT_TAKEOVER", s.bot_takeover),
            bot_threads=int(_number(env, "FLAMECRAFT_BOT_THREADS", s.bot_threads)),
            bot_processes=int(_number(env, "FLAMECRAFT_BOT_PROCESSES", s.bot_processes)),
            games_per_minute=int(_number(env, "FLAMECRAFT_GAMES_PER_MINUTE",
                                         s.games_per_minute)),
            max_messages_per_second=int(_number(env, "FLAMECRAFT_MESSAGES_PER_SECOND",
                                                s.max_messages_per_second)),
            message_burst=int(_number(env, "FLAMECRAFT_MESSAGE_BURST", s.message_burst)),
            max_bad_messages=max(1, int(_number(env, "FLAMECRAFT_BAD_MESSAGES",
                                                s.max_bad_messages))),
            max_connections_per_address=int(_number(
                env, "FLAMECRAFT_CONNECTIONS_PER_ADDRESS", s.max_connections_per_address)),
            max_spectators=int(_number(env, "FLAMECRAFT_SPECTATORS_PER_GAME",
                                       s.max_spectators)),
            idle_seconds=_number(env, "FLAMECRAFT_IDLE_DAYS", s.idle_seconds / 86400) * 86400,
            away_grace=_number(env, "FLAMECRAFT_AWAY_GRACE", s.away_grace),
            hidden_grace=_number(env, "FLAMECRAFT_HIDDEN_GRACE", s.hidden_grace),
            presence_heartbeat=max(0.1, _number(env, "FLAMECRAFT_PRESENCE_HEARTBEAT",
                                                s.presence_heartbeat)),
            timeout_grace=_number(env, "FLAMECRAFT_TIMEOUT_GRACE", s.timeout_grace),
            away_takeover=_number(env, "FLAMECRAFT_AWAY_TAKEOVER", s.away_takeover),
            hint_samples=max(1, int(_number(env, "FLAMECRAFT_HINT_SAMPLES", s.hint_samples))),
            review_samples=max(1, int(_number(env, "FLAMECRAFT_REVIEW_SAMPLES",
                                              s.review_samples))),
            chat_burst=max(1, int(_number(env, "FLAMECRAFT_CHAT_BURST", s.chat_burst))),
            chat_seconds=_number(env, "FLAMECRAFT_CHAT_SECONDS", s.chat_seconds),
            heal_seconds=max(0.01, _number(env, "FLAMECRAFT_HEAL_SECONDS", s.heal_seconds)),
            heal_max_seconds=_number(env, "FLAMECRAFT_HEAL_MAX_SECONDS", s.heal_max_seconds),
            heal_retries=int(_number(env, "FLAMECRAFT_HEAL_RETRIES", s.heal_retries)),
            health_timeout=max(0.1, _number(env, "FLAMECRAFT_HEALTH_TIMEOUT",
                                            s.health_timeout)),
            sqlite_busy_seconds=_number(env, "FLAMECRAFT_SQLITE_BUSY_SECONDS",
                                        s.sqlite_busy_seconds),
            max_header_bytes=max(1024, int(_number(env, "FLAMECRAFT_MAX_HEADER_BYTES",
                                                   s.max_header_bytes))),
            max_headers=max(8, int(_number(env, "FLAMECRAFT_MAX_HEADERS", s.max_headers))),
            header_timeout=_number(env, "FLAMECRAFT_HEADER_TIMEOUT", s.header_timeout),
            keep_alive_timeout=_number(env, "FLAMECRAFT_KEEP_ALIVE_TIMEOUT",
                                       s.keep_alive_timeout),
            max_connections=int(_number(env, "FLAMECRAFT_MAX_CONNECTIONS", s.max_connections)),
            bot_only_processes=int(_number(env, "FLAMECRAFT_BOT_ONLY_PROCESSES",
                                           s.bot_only_processes)),
            advice_processes=int(_number(env, "FLAMECRAFT_ADVICE_PROCESSES",
                                         s.advice_processes)),
            background_nice=min(19, int(_number(env, "FLAMECRAFT_BACKGROUND_NICE",
                                                s.background_nice))),
            advice_queue=max(1, int(_number(env, "FLAMECRAFT_ADVICE_QUEUE", s.advice_queue))),
            advice_per_address=max(1, int(_number(env, "FLAMECRAFT_ADVICE_PER_ADDRESS",
                                                  s.advice_per_address))),
            load_queue=max(1, int(_number(env, "FLAMECRAFT_LOAD_QUEUE", s.load_queue))),
            running_games=max(1, int(_number(env, "FLAMECRAFT_RUNNING_GAMES",
                                             s.running_games))),
            running_games_per_address=max(1, int(_number(
                env, "FLAMECRAFT_RUNNING_GAMES_PER_ADDRESS", s.running_games_per_address))),
            bot_games=int(_number(env, "FLAMECRAFT_BOT_GAMES", s.bot_games)),
            bot_games_per_address=int(_number(env, "FLAMECRAFT_BOT_GAMES_PER_ADDRESS",
                                              s.bot_games_per_address)),
            bot_game_seconds=max(1.0, _number(env, "FLAMECRAFT_BOT_GAME_SECONDS",
                                              s.bot_game_seconds)),
            replay_every=max(1, int(_number(env, "FLAMECRAFT_REPLAY_EVERY", s.replay_every))),
            replay_cache_bytes=int(_number(env, "FLAMECRAFT_REPLAY_CACHE_BYTES",
                                           s.replay_cache_bytes)),
            review_cache_bytes=max(0, int(_number(env, "FLAMECRAFT_REVIEW_CACHE_BYTES",
                                                  s.review_cache_bytes))),
            reads_per_second=max(0.1, _number(env, "FLAMECRAFT_READS_PER_SECOND",
                                              s.reads_per_second)),
            account_attempts_per_minute=max(1, int(_number(
                env, "FLAMECRAFT_ACCOUNT_ATTEMPTS_PER_MINUTE", s.account_attempts_per_minute))),
            public_origin=public_origin(env.get("FLAMECRAFT_ORIGIN", s.public_origin)),
            forwarded_allow_ips=(env.get("FLAMECRAFT_FORWARDED_ALLOW_IPS")
                                 or env.get("FORWARDED_ALLOW_IPS") or s.forwarded_allow_ips),
        )


def _number(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, not {raw!r}") from None
    if value < 0:
        raise ValueError(f"{name} must not be negative")
    return value


def public_origin(value: str) -> str:
    """FLAMECRAFT_ORIGIN: empty, or a scheme and host (``https://flamecraft.example``, a
    port allowed) with no path."""
    v = value.strip().rstrip("/")
    if v and (not v.startswith(("http://", "https://")) or "/" in v.split("://", 1)[1]
              or not v.split("://", 1)[1]):
        raise ValueError(f"FLAMECRAFT_ORIGIN must be like https://flamecraft.example, "
                         f"not {value!r}")
    return v


def database_url(value: str) -> str:
    """A database URL from what a person may type: a PostgreSQL URL, an SQLite URL, or a plain
    file path (which means SQLite)."""
    v = value.strip()
    if v.startswith(("postgresql://", "postgres://", "sqlite://")):
        return v
    if "://" in v:
        raise ValueError(f"unsupported database {v!r}: use postgresql://… or an SQLite file")
    return "sqlite:///" + v


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def sqlite_path(url: str) -> str:
    """The file of an ``sqlite:///path`` URL (``sqlite:////abs`` for an absolute path)."""
    if not url.startswith("sqlite:///"):
        raise ValueError(f"not an SQLite URL: {url!r}")
    return url[len("sqlite:///"):] or ":memory:"
