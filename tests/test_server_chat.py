"""The table chat (issue 23 item 4): seats write and everyone at the table reads, live and
from the store; spectators write only where the host allowed it; every refusal (the length,
the rate, control and invisible characters, unknown canned phrases, a spectator) is answered
and stores nothing; the chat survives a restart, reaches the clients of another process on
PostgreSQL, and a schema-2 database gains it (docs/server.md, "Table chat")."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from flamecraft.server.chat import CANNED, MAX_CHARS, RECENT, clean_line
from flamecraft.server.gameerror import GameError
from flamecraft.server.settings import Settings
from flamecraft.server.store import SCHEMA_VERSION, open_store
from test_server_api import client_for, new_game, postgres_schema, settings, ws_url

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (states, presence and others on the way skipped;
    an error when waiting for something else fails)."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
        assert msg["type"] != "error", msg


def listen(ws: Any) -> list[dict[str, Any]]:
    """Asks for the chat; the recent lines it answers."""
    ws.send_json({"type": "chat", "history": True})
    msg = next_of(ws, "chat")
    assert msg.get("history") is True
    return list(msg["lines"])


def stored_lines(c: Any, game: dict[str, Any]) -> list[dict[str, Any]]:
    r = c.get(f"/api/games/{game['game_id']}/chat")
    assert r.status_code == 200, r.text
    return list(r.json()["lines"])


def test_seats_write_and_everyone_reads(tmp_path: Path) -> None:
    """A seat's line reaches the other seat and a spectator, live, with who wrote it, when
    and at which step; a canned phrase travels as its id (with its English words); the
    chat is kept (GET /chat)."""
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game, 0)) as ann, \
                c.websocket_connect(ws_url(game, 1)) as bo, \
                c.websocket_connect(ws_url(game)) as spy:
            for ws in (ann, bo, spy):
                assert listen(ws) == []
            ann.send_json({"type": "chat", "text": "  hello   there  "})
            got = [next_of(ws, "chat") for ws in (ann, bo, spy)]
            assert got[0] == got[1] == got[2]
            (line,) = got[0]["lines"]
            assert "history" not in got[0]
            assert line["seq"] == 0 and line["seat"] == 0 and line["name"] == "Player 1"
            assert line["text"] == "hello   there"  # trimmed, spaces inside kept
            assert line["step"] == 0 and line["at"].endswith("+00:00")
            assert set(line) == {"seq", "seat", "name", "text", "at", "step"}
            bo.send_json({"type": "chat", "canned": "gg"})
            (canned,) = next_of(spy, "chat")["lines"]
            assert canned["canned"] == "gg" and canned["text"] == "Good game"
            assert canned["seat"] == 1 and canned["seq"] == 1
        assert [x["seq"] for x in stored_lines(c, game)] == [0, 1]
        assert c.get("/api/games/nosuchgame1/chat").status_code == 404


def test_only_those_who_asked_are_sent_the_chat(tmp_path: Path) -> None:
    """A script that never asked for the chat (nor wrote) is sent no chat message: the
    next thing it reads after another seat's line is the state of its own move."""
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game, 0)) as ann, \
                c.websocket_connect(ws_url(game, 1)) as bo:
            first = ann.receive_json()
            bo.send_json({"type": "chat", "text": "hi"})
            next_of(bo, "chat")
            ann.send_json({"type": "ping", "id": 1})
            assert ann.receive_json() == {"type": "pong", "id": 1}
            assert first["type"] == "state"


def test_a_spectator_writes_only_if_the_host_allowed_it(tmp_path: Path) -> None:
    """By default a spectator reads and is refused ("chat_off", nothing stored); with
    ``spectator_chat`` at creation it writes (seat null, no name); the option is in the entry
    and a rematch keeps it."""
    with client_for(settings(tmp_path)) as c:
        closed = new_game(c, "human,human", start=True)
        assert closed["game"]["spectator_chat"] is False
        with c.websocket_connect(ws_url(closed)) as spy:
            spy.send_json({"type": "chat", "text": "may I?"})
            err = next_of(spy, "error")
            assert err["code"] == "chat_off" and err["chat"] is True
            assert "spectators" in err["message"]
            assert listen(spy) == []
        assert stored_lines(c, closed) == []
        open_ = new_game(c, "human,human", start=True, spectator_chat=True)
        assert open_["game"]["spectator_chat"] is True
        assert c.get(f"/api/games/{open_['game_id']}").json()["spectator_chat"] is True
        with c.websocket_connect(ws_url(open_)) as spy:
            spy.send_json({"type": "chat", "canned": "hello"})
            (line,) = next_of(spy, "chat")["lines"]
            assert line["seat"] is None and line["name"] == ""
    with client_for(settings(tmp_path)) as c:  # stored in the options column's JSON
        assert c.get(f"/api/games/{open_['game_id']}").json()["spectator_chat"] is True
        assert c.get(f"/api/games/{closed['game_id']}").json()["spectator_chat"] is False


def test_a_rematch_keeps_spectator_chat(tmp_path: Path) -> None:
    from test_server_api import finish_two

    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True, spectator_chat=True)
        with c.websocket_connect(ws_url(game, 0)) as wa, c.websocket_connect(ws_url(game, 1)) as wb:
            finish_two(wa, wb)
        seat = game["seats"][0]
        r = c.post(f"/api/games/{game['game_id']}/rematch",
                   json={"seat": 0, "token": seat["token"]})
        assert r.status_code == 201, r.text
        assert r.json()["game"]["spectator_chat"] is True


@pytest.mark.parametrize("bad, code, words", [
    ("x" * (MAX_CHARS + 1), "too_long", "at most 200"),
    ("ｘ" * (MAX_CHARS + 1), "too_long", "at most 200"),  # fullwidth: counted after NFKC
    ("two\nlines", "malformed", "U+000A"),
    ("bell\x07", "malformed", "U+0007"),
    ("zero\u200bwidth", "malformed", "U+200B"),
    ("\u202eright to left", "malformed", "U+202E"),
    ("   ", "malformed", "needs some text"),
    ("", "malformed", "needs some text"),
])
def test_bad_lines_are_refused_and_stored_nowhere(tmp_path: Path, bad: str, code: str,
                                                  words: str) -> None:
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game, 0)) as ann, \
                c.websocket_connect(ws_url(game, 1)) as bo:
            listen(bo)
            ann.send_json({"type": "chat", "text": bad})
            err = next_of(ann, "error")
            assert err["code"] == code and words in err["message"], err
            assert err["chat"] is True
            ann.send_json({"type": "chat", "text": "ok"})  # the next line is the first
            assert [x["text"] for x in next_of(bo, "chat")["lines"]] == ["ok"]
        assert [x["text"] for x in stored_lines(c, game)] == ["ok"]


@pytest.mark.parametrize("msg", [
    {"type": "chat", "canned": "insult"}, {"type": "chat", "canned": 3},
    {"type": "chat", "canned": "gg", "text": "gg"}, {"type": "chat"},
    {"type": "chat", "text": 5}, {"type": "chat", "history": "yes"},
])
def test_unknown_canned_phrases_and_bad_messages(tmp_path: Path, msg: dict[str, Any]) -> None:
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game, 0)) as ann:
            ann.send_json(msg)
            err = next_of(ann, "error")
            assert err["code"] == "malformed" and "canned" in err["message"], err
        assert stored_lines(c, game) == []


def test_the_length_limit_is_after_normalising_and_trimming() -> None:
    assert clean_line("  " + "a" * MAX_CHARS + "  ") == "a" * MAX_CHARS
    assert clean_line("Ａｎｎ ｓａｙｓ ｈｉ") == "Ann says hi"
    assert clean_line("<img src=x onerror=alert(1)>") == "<img src=x onerror=alert(1)>"
    assert clean_line("よろしくお願いします") == "よろしくお願いします"
    with pytest.raises(GameError) as e:
        clean_line("a" * (MAX_CHARS + 1))
    assert e.value.code == "too_long"


def test_the_rate_limit(tmp_path: Path) -> None:
    """A burst of lines, then one every chat_seconds: past it a line is refused
    ("rate_limited") and not stored; the time passing lets one more through."""
    now = [1000.0]
    s = settings(tmp_path, chat_burst=3, chat_seconds=2.0)
    with client_for(s, clock=lambda: now[0]) as c:
        game = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game, 0)) as ann:
            listen(ann)
            for i in range(3):
                ann.send_json({"type": "chat", "text": f"line {i}"})
                next_of(ann, "chat")
            ann.send_json({"type": "chat", "canned": "gg"})
            err = next_of(ann, "error")
            assert err["code"] == "rate_limited" and "2 seconds" in err["message"], err
            now[0] += 1.0
            ann.send_json({"type": "chat", "text": "too soon"})
            assert next_of(ann, "error")["code"] == "rate_limited"
            now[0] += 1.1
            ann.send_json({"type": "chat", "text": "now"})
            assert next_of(ann, "chat")["lines"][0]["text"] == "now"
            ann.send_json({"type": "chat", "history": True})  # asking is not writing
            assert next_of(ann, "chat")["history"] is True
        with c.websocket_connect(ws_url(game, 1)) as bo:  # the limit is per connection
            bo.send_json({"type": "chat", "text": "mine"})
            assert next_of(bo, "chat")["lines"][0]["text"] == "mine"
        assert [x["text"] for x in stored_lines(c, game)] == [
            "line 0", "line 1", "line 2", "now", "mine"]


def test_history_on_reconnect_and_after_a_restart(tmp_path: Path) -> None:
    """A client connecting later is sent the recent lines (the last RECENT); they survive a
    restart of the server (the store), with the step each was written at."""
    s = settings(tmp_path, chat_burst=1000, chat_seconds=0.0)
    with client_for(s) as c:
        game = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game, 0)) as ann:
            listen(ann)
            for i in range(RECENT + 5):
                ann.send_json({"type": "chat", "text": f"line {i}"})
                next_of(ann, "chat")
        with c.websocket_connect(ws_url(game, 1)) as bo:
            lines = listen(bo)
            assert len(lines) == RECENT
            assert lines[0]["text"] == "line 5" and lines[-1]["text"] == f"line {RECENT + 4}"
    with client_for(s) as c:  # a new server on the same file
        with c.websocket_connect(ws_url(game)) as spy:
            again = listen(spy)
            assert [x["text"] for x in again] == [x["text"] for x in lines]
        assert len(stored_lines(c, game)) == RECENT + 5
        # GET /chat pages: ``limit`` lines after ``after``, ``next`` until the last page
        url = f"/api/games/{game['game_id']}/chat"
        page = c.get(url, params={"after": -1, "limit": 40}).json()
        assert [x["seq"] for x in page["lines"]] == list(range(40)) and page["next"] == 39
        page = c.get(url, params={"after": 99, "limit": 40}).json()
        assert [x["seq"] for x in page["lines"]] == list(range(100, 105))
        assert page["next"] is None
        for bad in ({"limit": 0}, {"limit": 501}, {"after": -2}, {"after": "x"}):
            r = c.get(url, params=bad)
            assert r.status_code == 400 and r.json()["code"] == "malformed", (bad, r.text)


def test_a_line_remembers_the_step_it_was_written_at(tmp_path: Path) -> None:
    from test_server_api import next_state

    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True, first_player=0)
        with c.websocket_connect(ws_url(game, 0)) as ann:
            state = next_state(ann)
            ann.send_json({"type": "act", "version": state["version"], "index": 0})
            moved = next_of(ann, "state")
            ann.send_json({"type": "chat", "canned": "thinking"})
            assert next_of(ann, "chat")["lines"][0]["step"] == moved["step"] > 0


def test_a_schema_2_store_gains_the_chat(tmp_path: Path) -> None:
    """Migration: a database of schema 2 (no chat table) opened by this server is today's
    schema (3 added the chat), its games intact, and takes chat lines."""
    path = tmp_path / "games.sqlite3"
    s = settings(tmp_path)
    with client_for(s) as c:
        game = new_game(c, "human,random", start=True)
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE flamecraft_chat")
        db.execute("DROP TABLE flamecraft_reviews")  # (schema 4's)
        db.execute("UPDATE flamecraft_meta SET value = '2' WHERE key = 'schema_version'")
    store = open_store(s.database_url)
    try:
        assert SCHEMA_VERSION >= 3
        row = store.load_game(game["game_id"])
        assert row is not None and row.name == game["game"]["name"]
        assert store.load_chat(game["game_id"]) == []
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM flamecraft_meta").fetchone()[0] == str(
            SCHEMA_VERSION)
    with client_for(s) as c:
        assert c.get(f"/api/games/{game['game_id']}").json()["status"] == "running"
        with c.websocket_connect(ws_url(game, 0)) as ann:
            listen(ann)
            ann.send_json({"type": "chat", "text": "still here"})
            next_of(ann, "chat")
        assert [x["text"] for x in stored_lines(c, game)] == ["still here"]


def test_a_schema_2_postgres_store_gains_the_chat() -> None:
    with postgres_schema() as url:
        store = open_store(url)
        try:
            with store._transaction() as cur:
                cur.execute("DROP TABLE flamecraft_chat")
                cur.execute("DROP TABLE flamecraft_reviews")  # (schema 4's)
                cur.execute("UPDATE flamecraft_meta SET value = '2'")
        finally:
            store.close()
        store = open_store(url)
        try:
            with store._transaction() as cur:
                cur.execute("SELECT value FROM flamecraft_meta")
                assert cur.fetchone()[0] == str(SCHEMA_VERSION)
            assert store.load_chat("nosuchgame1") == []
        finally:
            store.close()


def test_chat_reaches_the_clients_of_another_process_on_postgres(tmp_path: Path) -> None:
    """Two servers on one PostgreSQL: a line written through one reaches a listening client
    of the other (NOTIFY flamecraft_chat), once, and the game-version NOTIFY still works (a
    move made on one reaches the other)."""
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(postgres_schema())
        s = Settings(database_url=url, bot_delay=0.0, max_messages_per_second=100000)
        one = stack.enter_context(client_for(s))
        two = stack.enter_context(client_for(s))
        game = new_game(one, "human,human", start=True, first_player=0)
        ann = stack.enter_context(one.websocket_connect(ws_url(game, 0)))
        bo = stack.enter_context(two.websocket_connect(ws_url(game, 1)))
        state = next_of(ann, "state")
        next_of(bo, "state")
        listen(ann)
        listen(bo)
        ann.send_json({"type": "chat", "text": "from one"})
        assert next_of(ann, "chat")["lines"][0]["text"] == "from one"
        assert [x["text"] for x in next_of(bo, "chat")["lines"]] == ["from one"]
        bo.send_json({"type": "chat", "canned": "wp"})
        assert next_of(ann, "chat")["lines"][0]["canned"] == "wp"
        assert next_of(bo, "chat")["lines"][0]["seq"] == 1
        ann.send_json({"type": "act", "version": state["version"], "index": 0})
        deadline = time.monotonic() + 10
        while True:  # the other process hears of the move
            msg = next_of(bo, "state")
            if msg["version"] > state["version"] or time.monotonic() > deadline:
                break
        assert msg["version"] > state["version"]
        assert [x["seq"] for x in stored_lines(two, game)] == [0, 1]


def test_canned_ids_are_the_client_s() -> None:
    """The page offers the same canned phrases, in the same English words (chat.js)."""
    js = (Path(__file__).parent.parent / "src/flamecraft/server/static/chat.js").read_text()
    for key, words in CANNED.items():
        assert f'["{key}", N_("{words}")]' in js, key


def test_chat_settings_from_the_environment() -> None:
    s = Settings.from_env({"FLAMECRAFT_CHAT_BURST": "7", "FLAMECRAFT_CHAT_SECONDS": "0.5"})
    assert (s.chat_burst, s.chat_seconds) == (7, 0.5)
    assert (Settings().chat_burst, Settings().chat_seconds) == (5, 2.0)
