"""Faults that heal by themselves (issue 24, item 5): a store that cannot be written for a
while (a read-only or locked SQLite file, a PostgreSQL restart, a dropped connection), a
search worker killed as the OOM killer would, a server killed with its workers — each
reproduced here, then healed: the bot move made once when the store is back (the game's
people told it stalled, then that it goes on), the dead pool started anew and the bot's own
decision made (never a random move in its place), hints answered or refused clearly,
``/api/health`` telling the truth, and no worker process outliving its server."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):  # in CI the web extra is installed: a missing one fails
    pytest.importorskip("fastapi", reason="the web extra is not installed")

import httpx

from flamecraft.ai.roster import BOTS
from flamecraft.core.engine import apply, legal_actions, to_act
from flamecraft.core.serialize import GameRecord
from flamecraft.server import Settings
from flamecraft.server.store import SqliteStore
from test_server_api import (
    client_for,
    finished_game,
    new_game,
    postgres_schema,
    settings,
    ws_url,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TIMEOUT = 30.0


def quick(tmp_path: Path, **changes: Any) -> Settings:
    """Test settings that heal at once: retries after 0.05 s, doubling to 0.2 s."""
    base: dict[str, Any] = {"heal_seconds": 0.05, "heal_max_seconds": 0.2, "bot_delay": 0.01,
                            "health_timeout": 0.5}
    base.update(changes)
    return settings(tmp_path, **base)


class Reader:
    """Reads a test WebSocket on a thread of its own, so a frozen game fails the test on a
    timeout instead of hanging it."""

    def __init__(self, ws: Any):
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.thread = threading.Thread(target=self._read, args=(ws,), daemon=True)
        self.thread.start()

    def _read(self, ws: Any) -> None:
        with contextlib.suppress(Exception):
            while True:
                self.messages.put(ws.receive_json())

    def until(self, done: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The first message (read from now on) for which ``done(msg)`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                steps = [m["step"] for m in self.seen if m.get("type") == "state"]
                kinds = [m.get("type") for m in self.seen[-5:]]
                raise AssertionError(f"not within {timeout} s (the last messages: {kinds}; "
                                     f"the last step seen: {steps[-1:]})")
            try:
                msg = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            self.seen.append(msg)
            if done(msg):
                return msg


@contextlib.contextmanager
def unwritable(monkeypatch: pytest.MonkeyPatch, seconds: float) -> Iterator[list[float]]:
    """Every change of a game fails for ``seconds`` as on a read-only SQLite file (the
    server runs as root here, where ``chmod`` does not stop a write): the store's versioned
    write raises what sqlite3 raises then. Yields the times of the refused writes."""
    refused: list[float] = []
    until = time.monotonic() + seconds
    real = SqliteStore._bump

    def bump(self: SqliteStore, cur: Any, game: Any, expected: int) -> bool:
        if time.monotonic() < until:
            refused.append(time.monotonic())
            raise sqlite3.OperationalError("attempt to write a readonly database")
        return real(self, cur, game, expected)

    monkeypatch.setattr(SqliteStore, "_bump", bump)
    yield refused


def stored(db: Path, game_id: str) -> tuple[int, list[str]]:
    with sqlite3.connect(db) as conn:
        version = conn.execute("SELECT version FROM flamecraft_games WHERE id = ?",
                               (game_id,)).fetchone()[0]
        texts = [r[0] for r in conn.execute(
            "SELECT text FROM flamecraft_actions WHERE game_id = ? ORDER BY seq", (game_id,))]
    return int(version), texts


# ---------------------------------------------------------------- the store


def test_a_bot_move_waits_out_an_unwritable_store_and_is_made_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store refuses every write for a second while bots play (before: the bot's task
    failed, and ``bot_version`` kept any retry from being scheduled, so the game froze until
    a restart). Now the move is tried again with backoff, the table is told the game is
    stalled and then that it goes on, and the game plays to its end with each move stored
    once (one action row per version)."""
    with client_for(quick(tmp_path)) as c:
        game = new_game(c, "random,random,random", seed=5)
        with c.websocket_connect(ws_url(game)) as ws:
            reader = Reader(ws)
            reader.until(lambda m: m.get("type") == "state" and m["step"] >= 10)
            with unwritable(monkeypatch, 1.0) as refused:
                stalled = reader.until(lambda m: m.get("type") == "stalled")
                assert stalled["why"] == "store" and "store" in stalled["message"]
                healed = reader.until(lambda m: m.get("type") == "healed")
            assert len(refused) >= 3  # tried again and again while it lasted
            assert "goes on" in healed["message"]
            end = reader.until(lambda m: m.get("type") == "state"
                               and m["status"] == "finished")
            health = c.get("/api/health").json()
            assert health["ok"] and health["stalled"] == 0
    version, texts = stored(tmp_path / "games.sqlite3", game["game_id"])
    assert version == len(texts) == end["step"]  # nothing twice, nothing lost


def test_a_locked_sqlite_file_stalls_the_bots_not_the_server(tmp_path: Path) -> None:
    """Another connection holds the SQLite file's write lock for two seconds (before: each
    write waited for it up to 10 s on the event loop, so every game and request froze
    meanwhile). Now a write waits at most ``sqlite_busy_seconds`` and fails as
    ``unavailable``: the bots wait and retry, the server answers meanwhile, and the game
    goes on once the lock is let go, each move stored once."""
    db = tmp_path / "games.sqlite3"
    with client_for(quick(tmp_path)) as c:
        game = new_game(c, "random,random,random", seed=5)
        with c.websocket_connect(ws_url(game)) as ws:
            reader = Reader(ws)
            reader.until(lambda m: m.get("type") == "state" and m["step"] >= 6)
            holder = sqlite3.connect(db, isolation_level=None)
            holder.execute("BEGIN EXCLUSIVE")
            try:
                held = time.monotonic()
                reader.until(lambda m: m.get("type") == "stalled", timeout=1.5)
                slowest = 0.0
                while time.monotonic() - held < 2.0:
                    sent = time.monotonic()
                    ws.send_json({"type": "ping", "id": 7})
                    reader.until(lambda m: m.get("type") == "pong")
                    slowest = max(slowest, time.monotonic() - sent)
                assert slowest < 1.0, slowest  # (a write waits 0.25 s at most)
            finally:
                holder.execute("ROLLBACK")
                holder.close()
            reader.until(lambda m: m.get("type") == "healed")
            end = reader.until(lambda m: m.get("type") == "state"
                               and m["status"] == "finished")
    version, texts = stored(db, game["game_id"])
    assert version == len(texts) == end["step"]


def test_a_stalled_game_tells_a_newcomer_in_its_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Someone who opens the table while its bot move waits reads why at once, in their
    language."""
    with client_for(quick(tmp_path, heal_seconds=0.3, heal_max_seconds=0.3)) as c:
        game = new_game(c, "random,random", seed=3)
        with c.websocket_connect(ws_url(game)) as ws:
            reader = Reader(ws)
            reader.until(lambda m: m.get("type") == "state" and m["step"] >= 4)
            with unwritable(monkeypatch, 1.5):
                reader.until(lambda m: m.get("type") == "stalled")
                with c.websocket_connect(ws_url(game) + "?lang=ja") as late:
                    first = [late.receive_json(), late.receive_json()]
                    assert first[0]["type"] == "state"
                    assert first[1]["type"] == "stalled" and first[1]["why"] == "store"
                    assert "ストア" in first[1]["message"]
                reader.until(lambda m: m.get("type") == "healed")


def test_a_persons_move_on_an_unwritable_store_is_unavailable_not_internal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A person's move the store cannot take is answered ``unavailable`` (the server's
    fault, healing), not ``internal``; tried again once the store is back, it is made."""
    with client_for(quick(tmp_path)) as c:
        game = new_game(c, "human,random", start=True, seed=4)
        with c.websocket_connect(ws_url(game, 0)) as ws:
            reader = Reader(ws)
            state = reader.until(lambda m: m.get("type") == "state" and m["legal"])
            with unwritable(monkeypatch, 30.0):
                ws.send_json({"type": "act", "version": state["version"], "index": 0})
                error = reader.until(lambda m: m.get("type") == "error")
                assert error["code"] == "unavailable", error
                answer = c.post(f"/api/games/{game['game_id']}/join",
                                json={"seat": 0, "token": game["seats"][0]["token"]})
                assert answer.status_code == 503
                assert answer.json()["code"] == "unavailable"
                assert set(answer.json()) == {"code", "message", "detail"}
            monkeypatch.undo()
            ws.send_json({"type": "act", "version": state["version"], "index": 0})
            moved = reader.until(lambda m: m.get("type") == "state")
            assert moved["version"] > state["version"]


def test_a_bot_move_given_up_on_is_scheduled_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its last retry a bot move lets its version go (``bot_version``): scheduling it
    again — what every change and the sweep do — makes it once the store is back."""
    s = quick(tmp_path, heal_retries=2, heal_max_seconds=0.05)
    with client_for(s) as c:
        game = new_game(c, "random,random", seed=6)
        games = c.app.state.games  # type: ignore[attr-defined]
        session = games.sessions[game["game_id"]]
        with c.websocket_connect(ws_url(game)) as ws:
            reader = Reader(ws)
            reader.until(lambda m: m.get("type") == "state" and m["step"] >= 4)
            with unwritable(monkeypatch, 60.0) as refused:
                reader.until(lambda m: m.get("type") == "stalled")
                deadline = time.monotonic() + TIMEOUT
                while session.bot_version != -1:  # the three tries made, the version let go
                    assert time.monotonic() < deadline
                    time.sleep(0.02)
                assert len(refused) == 3
            monkeypatch.undo()
            step = session.table.row.version
            assert c.portal is not None
            c.portal.call(games.bots.schedule, session, 0.0)  # (as the sweep does)
            reader.until(lambda m: m.get("type") == "healed")
            reader.until(lambda m: m.get("type") == "state" and m["version"] > step)


# ---------------------------------------------------------------- PostgreSQL


def terminate_backends(url: str, connect: Any = None) -> int:
    """Ends every other connection to the test database, as a PostgreSQL restart does."""
    import psycopg

    with (connect or psycopg.connect)(url, autocommit=True) as conn:
        rows = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                            "datname = current_database() AND pid <> pg_backend_pid()"
                            ).fetchall()
    return len(rows)


@contextlib.contextmanager
def postgres_down(monkeypatch: pytest.MonkeyPatch, url: str, seconds: float) -> Iterator[None]:
    """A PostgreSQL restart of ``seconds``: every connection of the server ended, and new
    ones refused meanwhile (the cluster is shared with other work, so it is not really
    restarted: connecting fails as it would)."""
    import psycopg

    real, real_async = psycopg.connect, psycopg.AsyncConnection.connect
    until = time.monotonic() + seconds

    def refused() -> None:
        if time.monotonic() < until:
            raise psycopg.OperationalError("connection refused (the test's restart)")

    def connect(*args: Any, **kwargs: Any) -> Any:
        refused()
        return real(*args, **kwargs)

    async def connect_async(*args: Any, **kwargs: Any) -> Any:
        refused()
        return await real_async(*args, **kwargs)

    monkeypatch.setattr(psycopg, "connect", connect)
    monkeypatch.setattr(psycopg.AsyncConnection, "connect", connect_async)
    # the store's connection and the listener's (none of the server's made again meanwhile)
    assert terminate_backends(url, real) >= 2
    yield
    monkeypatch.undo()


def test_bots_and_the_listener_heal_after_a_postgresql_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every connection ended and none taken for 1.5 s while bots play, on PostgreSQL
    (before: the first use of the dead connection failed the bot's task and the game froze).
    The moves wait, the game goes on, each move stored once; the listener is back too."""
    import psycopg

    with postgres_schema() as url:
        s = quick(tmp_path, database_url=url)
        with client_for(s) as c:
            games = c.app.state.games  # type: ignore[attr-defined]
            game = new_game(c, "random,random,random", seed=8)
            with c.websocket_connect(ws_url(game)) as ws:
                reader = Reader(ws)
                reader.until(lambda m: m.get("type") == "state" and m["step"] >= 10)
                listened = games.bus.connects
                with postgres_down(monkeypatch, url, 1.5):
                    reader.until(lambda m: m.get("type") == "stalled")
                    assert c.get("/api/health").status_code == 503
                reader.until(lambda m: m.get("type") == "healed")
                end = reader.until(lambda m: m.get("type") == "state"
                                   and m["status"] == "finished")
                deadline = time.monotonic() + TIMEOUT
                while games.bus.connects == listened:  # the listener reconnected
                    assert time.monotonic() < deadline
                    time.sleep(0.05)
                assert c.get("/api/health").status_code == 200
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute(
                "SELECT g.version, (SELECT count(*) FROM flamecraft_actions a WHERE "
                "a.game_id = g.id) FROM flamecraft_games g WHERE g.id = %s",
                (game["game_id"],)).fetchone()
        assert row is not None
        version, count = row
    assert version == count == end["step"]


def test_a_dropped_postgresql_connection_is_taken_again_unseen(tmp_path: Path) -> None:
    """A connection ended while idle (``pg_terminate_backend``) is found dead at the next
    transaction's BEGIN and made again there: a person's move goes through, no error."""
    with postgres_schema() as url, client_for(quick(tmp_path, database_url=url)) as c:
        game = new_game(c, "human,random", start=True, seed=4)
        with c.websocket_connect(ws_url(game, 0)) as ws:
            reader = Reader(ws)
            state = reader.until(lambda m: m.get("type") == "state" and m["legal"])
            time.sleep(0.2)
            terminate_backends(url)
            time.sleep(0.2)
            ws.send_json({"type": "act", "version": state["version"], "index": 0})
            moved = reader.until(lambda m: m.get("type") in ("state", "error"))
            assert moved["type"] == "state" and moved["version"] > state["version"]


# ---------------------------------------------------------------- the search workers


def kill_workers(lanes: Any, timeout: float = TIMEOUT) -> list[int]:
    """Kills the search lane's worker processes (SIGKILL, as the OOM killer does), once
    they exist."""
    deadline = time.monotonic() + timeout
    while not lanes.pids():
        assert time.monotonic() < deadline, "no worker process started"
        time.sleep(0.01)
    pids: list[int] = lanes.pids()
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    return pids


def bots_own_moves(record: GameRecord, name: str) -> None:
    """Every action of a bot-only game is its bot's own decision: the seat's bot, asked with
    the server's seed for that decision, chooses it (no random move in its place)."""
    s = record.first_state()
    for k, typed in enumerate(record.actions):
        action = record.parse(s, typed)
        legal = legal_actions(s)
        if len(legal) > 1:
            p = to_act(s)
            rng = random.Random(f"{record.seed}:{p}:{k}")
            assert BOTS[name](s.copy(), rng) == action, f"action {k} is not the bot's"
        s = apply(s, action)


def test_a_killed_search_worker_is_replaced_and_the_bot_still_decides(tmp_path: Path) -> None:
    """The search lane's worker is killed (twice) while greedy bots play in it (before: the
    pool stayed broken, and every bot from then on played a random move). Now the pool is
    started anew, the decision asked again, and every move is the bot's own."""
    s = quick(tmp_path, bot_processes=1, search_bots=frozenset({"greedy"}))
    with client_for(s) as c:
        lanes = c.app.state.games.lanes  # type: ignore[attr-defined]
        game = new_game(c, "greedy,greedy", seed=12)
        with c.websocket_connect(ws_url(game)) as ws:
            reader = Reader(ws)
            first = kill_workers(lanes)
            reader.until(lambda m: m.get("type") == "state" and m["step"] >= 20)
            second = kill_workers(lanes)
            assert not set(first) & set(second)
            reader.until(lambda m: m.get("type") == "state" and m["status"] == "finished",
                         timeout=120)
        assert lanes.rebuilt >= 2
        record = GameRecord.from_json(c.get(f"/api/games/{game['game_id']}/record").json())
    bots_own_moves(record, "greedy")


def my_turn(c: Any, game: dict[str, Any]) -> None:
    """Waits until seat 0 (the person) is to act."""
    deadline = time.monotonic() + TIMEOUT
    while c.get(f"/api/games/{game['game_id']}").json()["to_act"] != 0:
        assert time.monotonic() < deadline
        time.sleep(0.02)


def die(*args: Any) -> None:
    """A search job whose worker process dies under it (run in the worker)."""
    os.kill(os.getpid(), signal.SIGKILL)


def test_hints_survive_a_dead_worker_and_refuse_clearly_when_it_dies_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint after the worker was killed is answered (the pool started anew); a hint whose
    worker dies under it twice is 503 ``unavailable`` in the error shape, not a 500."""
    s = quick(tmp_path, bot_processes=1, hint_samples=2)
    with client_for(s) as c:
        lanes = c.app.state.games.lanes  # type: ignore[attr-defined]
        game = new_game(c, "human,random", start=True, seed=9)
        auth = {"seat": 0, "token": game["seats"][0]["token"]}
        url = f"/api/games/{game['game_id']}/hint"
        my_turn(c, game)
        assert c.post(url, json=auth).status_code == 200  # (the pool starts)
        kill_workers(lanes)
        session = c.app.state.games.sessions[game["game_id"]]  # type: ignore[attr-defined]
        session.hinted = None  # (asked anew, not the one kept)
        again = c.post(url, json=auth)
        assert again.status_code == 200, again.text
        assert again.json()["hints"]
        session.hinted = None
        monkeypatch.setattr("flamecraft.server.advice.hint_json", die)
        refused = c.post(url, json=auth)
        assert refused.status_code == 503, refused.text
        body = refused.json()
        assert body["code"] == "unavailable" and body["message"] == body["detail"]
        assert "worker" in body["message"]


def reviewed(*args: Any) -> dict[str, Any]:
    """A stand-in for a review (run in the worker): quick, and says it ran."""
    return {"reviewed": True}


def test_a_review_whose_worker_dies_is_refused_clearly_then_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A review whose worker dies under it twice is 503 ``unavailable`` (not 500), and is
    not kept as failed: asked again, it is made."""
    with client_for(quick(tmp_path, bot_processes=1)) as c:
        game = finished_game(c, "random,random")
        url = f"/api/games/{game['game_id']}/review"
        monkeypatch.setattr("flamecraft.server.advice.review_json", die)
        refused = c.get(url)
        assert refused.status_code == 503, refused.text
        assert refused.json()["code"] == "unavailable"
        monkeypatch.setattr("flamecraft.server.advice.review_json", reviewed)
        made = c.get(url)
        assert made.status_code == 200 and made.json() == {"reviewed": True}


def test_a_bot_whose_workers_keep_dying_waits_and_never_plays_at_random(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every decision kills its worker for a while: the bot's move is ``unavailable``
    (``why: "workers"``), tried again with backoff, and made — by the bot itself — once the
    workers live again."""
    s = quick(tmp_path, bot_processes=1, search_bots=frozenset({"greedy"}),
              heal_seconds=0.2, heal_max_seconds=0.5)
    with client_for(s) as c:
        game = new_game(c, "human,greedy", start=True, seed=11)
        monkeypatch.setattr("flamecraft.server.botpool.think", die)
        with c.websocket_connect(ws_url(game, 0)) as ws:
            reader = Reader(ws)
            while True:  # the person plays until it is the bot's turn
                state = reader.until(lambda m: m.get("type") in ("state", "stalled"))
                if state["type"] == "stalled":
                    break
                if state["legal"]:
                    ws.send_json({"type": "act", "version": state["version"], "index": 0})
            assert state["why"] == "workers" and "worker" in state["message"]
            monkeypatch.undo()
            reader.until(lambda m: m.get("type") == "healed")
        t = c.app.state.games.sessions[game["game_id"]].table  # type: ignore[attr-defined]
        record = t.record()
        at = record.first_state()
        bots = 0
        for k, row in enumerate(t.actions):  # the bot's moves are its own
            action = record.parse(at, row.text)
            if row.seat == 1 and len(legal_actions(at)) > 1:
                rng = random.Random(f"{t.row.seed}:1:{k}")
                assert BOTS["greedy"](at.copy(), rng) == action, k
                bots += 1
            at = apply(at, action)
        assert bots >= 1


# ---------------------------------------------------------------- /api/health


def test_health_tells_the_truth_about_the_store_and_the_workers(tmp_path: Path) -> None:
    """``/api/health`` writes and reads back (before: ``ok`` whatever the store's state):
    503 with what is down while another connection holds the SQLite file locked, or once a
    worker was killed; 200 again when it heals."""
    s = quick(tmp_path, bot_processes=1, health_timeout=0.3)
    with client_for(s) as c:
        well = c.get("/api/health")
        assert well.status_code == 200
        body = well.json()
        assert body["ok"] and body["store"] == "sqlite" and body["checks"]["store"]["ok"]
        assert body["checks"]["workers"]["state"] == "idle"
        holder = sqlite3.connect(tmp_path / "games.sqlite3", isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            started = time.monotonic()
            locked = c.get("/api/health")
            assert time.monotonic() - started < 2.0  # bounded by the probe's timeout
            assert locked.status_code == 503
            down = locked.json()
            assert down["code"] == "unavailable" and down["message"] == down["detail"]
            assert "store" in down["message"] and not down["checks"]["store"]["ok"]
            assert "locked" in down["checks"]["store"]["problem"]
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert c.get("/api/health").status_code == 200
        game = new_game(c, "human,random", start=True, seed=9)
        auth = {"seat": 0, "token": game["seats"][0]["token"]}
        my_turn(c, game)
        assert c.post(f"/api/games/{game['game_id']}/hint", json=auth).status_code == 200
        assert c.get("/api/health").json()["checks"]["workers"]["state"] == "ok"
        lanes = c.app.state.games.lanes  # type: ignore[attr-defined]
        kill_workers(lanes)
        deadline = time.monotonic() + TIMEOUT
        while True:
            dead = c.get("/api/health")
            if dead.status_code == 503 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert dead.status_code == 503
        assert dead.json()["checks"]["workers"]["state"] == "down"
        assert "worker" in dead.json()["message"]
        assert c.get("/api/health").status_code == 200  # the pool started anew


def test_a_hung_store_probe_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A probe that does not come back answers 503 after the timeout, not never."""
    real = SqliteStore.probe

    def hang(self: SqliteStore, timeout: float) -> None:
        time.sleep(1.5)
        real(self, timeout)

    monkeypatch.setattr(SqliteStore, "probe", hang)
    with client_for(quick(tmp_path, health_timeout=0.2)) as c:
        started = time.monotonic()
        answer = c.get("/api/health")
        assert time.monotonic() - started < 1.0
        assert answer.status_code == 503
        assert "0.2" in answer.json()["checks"]["store"]["problem"]


# ---------------------------------------------------------------- a killed server


def children_of(pid: int) -> list[int]:
    """The live processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_search_workers_end_with_a_killed_server(tmp_path: Path) -> None:
    """``kill -9`` of a ``flamecraft serve`` process: its search workers end by themselves
    within a few seconds (before: they lived on, about 60 MB each)."""
    with socket_port() as port:
        env = {**os.environ, "FLAMECRAFT_BOT_PROCESSES": "2", "FLAMECRAFT_BOT_DELAY": "0"}
        workers: list[int] = []
        log = tmp_path / "server.log"
        with open(log, "w") as out:
            server = subprocess.Popen(
                [sys.executable, "-c", "import sys; from flamecraft.cli.main import main; "
                 "sys.exit(main(sys.argv[1:]))", "serve", "--port", str(port),
                 "--database", str(tmp_path / "games.sqlite3")],
                env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + TIMEOUT
            while True:
                assert server.poll() is None, log.read_text()
                try:
                    httpx.get(base + "/api/health", timeout=1)
                    break
                except httpx.HTTPError:
                    assert time.monotonic() < deadline, log.read_text()
                    time.sleep(0.1)
            made = httpx.post(base + "/api/games", json={"seats": [
                {"kind": "bot", "bot": "planner"}, {"kind": "bot", "bot": "planner"}]})
            assert made.status_code == 201, made.text
            while len(workers) < 2:  # (the resource tracker is a child too)
                assert time.monotonic() < deadline, "no worker processes"
                workers = children_of(server.pid)
                time.sleep(0.1)
            time.sleep(0.5)
            workers = children_of(server.pid)
            os.kill(server.pid, signal.SIGKILL)
            server.wait()
            deadline = time.monotonic() + 10
            while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not [pid for pid in workers if alive(pid)], "workers outlived the server"
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
            for pid in workers:  # (what outlived it, so as not to leave it running)
                if alive(pid):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)


@contextlib.contextmanager
def socket_port() -> Iterator[int]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    yield port


def test_heal_settings_from_the_environment() -> None:
    s = Settings.from_env({"FLAMECRAFT_HEAL_SECONDS": "0.25", "FLAMECRAFT_HEAL_MAX_SECONDS": "8",
                           "FLAMECRAFT_HEAL_RETRIES": "5", "FLAMECRAFT_HEALTH_TIMEOUT": "1.5"})
    assert (s.heal_seconds, s.heal_max_seconds, s.heal_retries, s.health_timeout) == (
        0.25, 8.0, 5, 1.5)
    assert Settings.from_env({"FLAMECRAFT_SQLITE_BUSY_SECONDS": "1"}).sqlite_busy_seconds == 1
    assert json.dumps(Settings().heal_retries) == "40"
