"""The server hardened for public hosting (issue 12): bounded request bodies and messages,
every error in the one documented shape, names that cannot impersonate, security headers,
seeds nobody can use to predict a deal, and caps on connections, spectators and idle games.

The body-limit test runs a real ``flamecraft serve`` in a subprocess, sends it a chunked body
far over the limit over a raw socket, and reads the server's peak memory from /proc.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):  # in CI the web extra is installed: a missing one fails
    pytest.importorskip("fastapi", reason="the web extra is not installed")

import httpx

from test_server_api import client_for, new_game, next_state, settings, ws_url
from test_server_multiprocess import Server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def error_shape(body: Any) -> bool:
    """The documented error: exactly code, message and detail, all non-empty strings."""
    return (isinstance(body, dict) and set(body) == {"code", "message", "detail"}
            and all(isinstance(body[k], str) and body[k] for k in body))


# ---------------------------------------------------------------- a real server process


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """``flamecraft serve`` on a free port with its own SQLite file; yields its base URL and
    its process id."""
    folder = tmp_path_factory.mktemp("served")
    server = Server(f"sqlite:///{folder / 'games.sqlite3'}", folder / "server.log", 3.0)
    try:
        server.wait_ready()
        yield server.base, server.proc.pid
    finally:
        server.stop()


def peak_memory_kib(pid: int) -> int:
    """The process's peak resident memory (VmHWM), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM in /proc/<pid>/status")


def test_a_chunked_body_is_cut_off_at_the_limit(served: tuple[str, int]) -> None:
    """Issue 12, defect 3: a 200 MB chunked ``POST /api/games`` (no Content-Length) is
    refused with the documented 413 once 16 KiB have arrived; the server does not read the
    rest, and its peak memory grows by far less than the body."""
    base, pid = served
    port = int(base.rsplit(":", 1)[1])
    before = peak_memory_kib(pid)
    chunk = b"[" + b"0," * (1 << 19) + b"0]"  # 1 MiB of JSON-ish data per chunk
    sent, answer = 0, b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                     b"\r\nTransfer-Encoding: chunked\r\n\r\n")
        sock.settimeout(0.0)
        try:
            while sent < 200 << 20:
                frame = b"%x\r\n%s\r\n" % (len(chunk), chunk)
                view = memoryview(frame)
                while view:
                    try:
                        view = view[sock.send(view):]
                    except BlockingIOError:
                        try:
                            answer += sock.recv(65536)
                        except BlockingIOError:
                            time.sleep(0.01)
                        if answer:
                            raise StopIteration from None
                sent += len(chunk)
        except (StopIteration, BrokenPipeError, ConnectionResetError):
            pass
        sock.settimeout(10)
        try:
            while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                more = sock.recv(65536)
                if not more:
                    break
                answer += more
        except (ConnectionResetError, TimeoutError):
            pass
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b'"code":"too_big"' in body.replace(b" ", b"")
    assert sent < 100 << 20, f"the server read {sent >> 20} MiB before refusing"
    assert peak_memory_kib(pid) - before < 32 * 1024
    assert httpx.get(base + "/api/health", timeout=5).status_code == 200


def test_a_huge_websocket_message_is_cut_off_too(served: tuple[str, int]) -> None:
    """Issue 12, defect 3, WebSockets: a message over 8 KiB is answered ``too_big`` and the
    connection goes on; one over 64 KiB (``--ws-max-size``) closes the connection (1009)
    without being held whole, and the server's memory stays bounded."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    base, pid = served
    game = httpx.post(base + "/api/games", json={"seats": [{"kind": "human"}]}).json()
    url = "ws" + base[len("http"):] + f"/ws/games/{game['game_id']}"
    before = peak_memory_kib(pid)
    with connect(url, max_size=2**22) as ws:
        assert '"state"' in str(ws.recv(timeout=10))
        ws.send("x" * 20000)
        assert '"too_big"' in str(ws.recv(timeout=10))
        ws.send('{"type": "ping", "id": 5}')
        assert '"pong"' in str(ws.recv(timeout=10))
        with pytest.raises(ConnectionClosed) as closed:
            ws.send("x" * (4 << 20))
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert peak_memory_kib(pid) - before < 16 * 1024


# ---------------------------------------------------------------- errors in one shape


def test_deep_nesting_is_malformed_not_a_dropped_connection(tmp_path: Path) -> None:
    """Issue 12, defect 6: a WebSocket message nested 4,000 deep (under 8 KiB) is answered
    "malformed" and the connection stays open; the same body over HTTP gets the documented
    error shape."""
    deep = "[" * 4000 + "]" * 4000
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,bot")
        with c.websocket_connect(ws_url(game)) as ws:
            next_state(ws)
            ws.send_text(deep)
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["code"] == "malformed"
            ws.send_json({"type": "ping", "id": 1})
            assert ws.receive_json() == {"type": "pong", "id": 1}
        r = c.post("/api/games", content=deep, headers={"content-type": "application/json"})
        assert r.status_code == 400 and error_shape(r.json()) and r.json()["code"] == "malformed"
        obj = '{"a":' * 2500 + "1" + "}" * 2500
        r = c.post("/api/games", content=obj, headers={"content-type": "application/json"})
        assert r.status_code == 400 and error_shape(r.json())


@pytest.mark.parametrize("method, path, body, status, code", [
    ("GET", "/api/no-such-thing", None, 404, "not_found"),
    ("DELETE", "/api/games", None, 405, "not_allowed"),
    ("POST", "/api/games", "not json", 400, "malformed"),
    ("POST", "/api/games", "[]", 400, "malformed"),
    ("GET", "/api/games/nope", None, 404, "not_found"),
    ("GET", "/api/games/x/replay/notanumber", None, 400, "malformed"),
    ("GET", "/static/no-such-file.js", None, 404, "not_found"),
])
def test_every_http_error_has_the_documented_shape(tmp_path: Path, method: str, path: str,
                                                    body: str | None, status: int,
                                                    code: str) -> None:
    """Issue 12, defect 6: every HTTP error is ``{code, message, detail}``."""
    with client_for(settings(tmp_path)) as c:
        r = c.request(method, path, content=body,
                      headers={"content-type": "application/json"} if body else {})
    assert r.status_code == status and error_shape(r.json()) and r.json()["code"] == code


# ---------------------------------------------------------------- names


@pytest.mark.parametrize("names, fragment", [
    (["A\u200bnn", "Ann"], "invisible"),
    (["Ann\u0007", "Bo"], "control"),
    (["\u202eAnn", "Bo"], "invisible"),
    (["Ann\u2066", "Bo"], "invisible"),
    (["Ann\ufeff", "Bo"], "invisible"),
    (["Ann", "Bo\nCy"], "control"),
    (["\uff21nn", "ann"], "same name"),  # a fullwidth A: NFKC makes it "Ann"
    (["Straße", "STRASSE"], "same name"),  # compared case-folded
])
def test_names_that_impersonate_are_refused(tmp_path: Path, names: list[str],
                                            fragment: str) -> None:
    """Issue 12, defect 7: control and invisible characters are refused, names are NFKC
    normalised and compared case-insensitively for duplicates."""
    with client_for(settings(tmp_path)) as c:
        r = c.post("/api/games", json={"seats": [{"kind": "human", "name": n} for n in names]})
        assert r.status_code == 400 and error_shape(r.json()), r.text
        assert r.json()["code"] == "malformed" and fragment in r.json()["message"]
        assert c.get("/api/games").json()["games"] == []


def test_names_are_normalised_and_checked_on_join_and_for_games(tmp_path: Path) -> None:
    """Issue 12, defect 7: a name is stored NFKC-normalised; a new name given on joining and
    a game's name are checked like the seats' names."""
    with client_for(settings(tmp_path)) as c:
        r = c.post("/api/games", json={"seats": [{"name": "Zoe\u0301"}, {"name": "\uff22o"}]})
        assert r.status_code == 201
        game = r.json()
        assert [s["name"] for s in game["seats"]] == ["Zo\u00e9", "Bo"]
        gid, t1 = game["game_id"], game["seats"][1]["token"]
        for bad in ("ZO\u00c9", "Zo\u00e9\u200d", "x\u0000"):
            r = c.post(f"/api/games/{gid}/join", json={"seat": 1, "token": t1, "name": bad})
            assert r.status_code == 400 and error_shape(r.json()), bad
        assert c.get(f"/api/games/{gid}").json()["seats"][1]["name"] == "Bo"
        r = c.post("/api/games", json={"name": "Friday\u202e", "seats": [{"name": "Ann"}]})
        assert r.status_code == 400 and "game name" in r.json()["message"]


# ---------------------------------------------------------------- headers and seat keys


@pytest.mark.parametrize("path", ["/", "/play/abc", "/api/games", "/static/app.js",
                                  "/api/no-such-thing"])
def test_every_answer_carries_the_security_headers(tmp_path: Path, path: str) -> None:
    """Issue 12, defect 8: a Content-Security-Policy without inline script that forbids
    framing, no Referer (seat keys are in links), no MIME sniffing."""
    with client_for(settings(tmp_path)) as c:
        r = c.get(path)
    csp = r.headers["content-security-policy"]
    rules = dict([*part.strip().split(" ", 1), ""][:2] for part in csp.split(";"))
    assert rules["script-src"] == "'self'" and "unsafe" not in csp
    assert rules["frame-ancestors"] == "'none'" and rules["object-src"] == "'none'"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-content-type-options"] == "nosniff"


def test_no_page_loads_script_from_elsewhere(tmp_path: Path) -> None:
    """Issue 12, defect 8: the API is described at /api/openapi.json; there is no
    interactive page (FastAPI's loads script from a CDN, which the policy forbids)."""
    with client_for(settings(tmp_path)) as c:
        assert c.get("/api/openapi.json").json()["info"]["title"] == "Flamecraft"
        r = c.get("/api/docs")
        assert r.status_code == 404 and error_shape(r.json())


def test_the_page_has_no_inline_script_or_style() -> None:
    """Issue 12, defect 8: the policy can forbid inline script and style because the page
    has none (every script is a module file, every style in style.css)."""
    from flamecraft.server.settings import STATIC_DIR

    page = (STATIC_DIR / "index.html").read_text()
    assert "<style" not in page and " style=" not in page and " on" not in page.lower()
    for tag in page.split("<script")[1:]:
        assert ' src="/static/' in tag.split(">", 1)[0] and tag.split(">", 1)[1].startswith(
            "</script>")


def test_seat_keys_travel_in_the_fragment_and_a_subprotocol(tmp_path: Path) -> None:
    """Issue 12, defect 8: a seat link keeps its key in the URL fragment (never sent to the
    server, so never in its logs nor in a Referer); the browser hands the key to the live
    table in the WebSocket subprotocol, not in the URL."""
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True)
        gid, t0 = game["game_id"], game["seats"][0]["token"]
        assert game["seats"][0]["link"] == f"/play/{gid}#seat=0&token={t0}"
        with c.websocket_connect(f"/ws/games/{gid}",
                                 subprotocols=["flamecraft", f"flamecraft-seat.0.{t0}"]) as ws:
            assert ws.accepted_subprotocol == "flamecraft"
            msg = next_state(ws)
            assert msg["seat"] == 0 and "hand" in msg["view"]["players"][0]
        t1 = game["seats"][1]["token"]
        with c.websocket_connect(f"/ws/games/{gid}",
                                 subprotocols=["flamecraft", f"flamecraft-seat.0.{t1}"]) as ws:
            assert ws.receive_json()["code"] == "bad_token"


# ---------------------------------------------------------------- seeds


def test_a_chosen_seed_is_refused_when_two_people_play(tmp_path: Path) -> None:
    """Issue 12, defect 2: with two or more people a chosen seed would let whoever chose it
    work out everyone's cards offline, so it is refused (and nothing is stored)."""
    with client_for(settings(tmp_path)) as c:
        for kinds in ("human,human", "human,random,human"):
            seats = [{"kind": "human"} if k == "human" else {"kind": "bot"}
                     for k in kinds.split(",")]
            r = c.post("/api/games", json={"seats": seats, "seed": 999})
            assert r.status_code == 400 and error_shape(r.json())
            assert r.json()["code"] == "malformed" and "seed" in r.json()["message"]
        assert c.get("/api/games").json()["games"] == []


def test_a_chosen_seed_deals_as_offline_for_one_person(tmp_path: Path) -> None:
    """Issue 12, defect 2: alone against bots (or bots alone) a chosen seed deals exactly
    as ``start(players, seed)`` offline (practice, reproducing a game); the record keeps it."""
    from flamecraft import start
    from flamecraft.core.view import view

    with client_for(settings(tmp_path, bot_delay=30.0)) as c:
        game = new_game(c, "human,random", seed=999, start=True)
        with c.websocket_connect(ws_url(game, 0)) as ws:
            msg = next_state(ws)
    offline = start(2, 999, "purple", ("Player 1", "Ember"))
    mine = msg["view"]["players"][0]
    assert mine.pop("fancy_goals")  # the web adds the owner's Fancy goals to the core's view
    assert msg["view"] == view(offline, 0)


def test_without_a_chosen_seed_every_game_is_dealt_from_fresh_secret_randomness(
        tmp_path: Path) -> None:
    """Issue 12, defect 2: games of people get their seeds from the server's secret
    randomness (``secrets``), so no two games, and no rematch, share a deal."""
    from flamecraft.server.games import Games

    with client_for(settings(tmp_path)) as c:
        games: Games = c.app.state.games  # type: ignore[attr-defined]
        ids = [new_game(c, "human,human", start=True)["game_id"] for _ in range(8)]
        seeds = {games.sessions[i].table.row.seed for i in ids}
    assert len(seeds) == 8 and all(0 <= s < 1 << 62 for s in seeds)


# ---------------------------------------------------------------- caps


def refused(ws: Any, code: str) -> bool:
    from starlette.websockets import WebSocketDisconnect

    msg = ws.receive_json()
    if msg.get("type") != "error" or msg.get("code") != code:
        return False
    try:
        ws.receive_json()
    except WebSocketDisconnect:
        return True
    return False


def test_open_connections_per_address_are_capped(tmp_path: Path) -> None:
    """Issue 12, defect 5: one address may hold only so many live connections; a closed one
    makes room again."""
    with client_for(settings(tmp_path, max_connections_per_address=3)) as c:
        game = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game, 0)) as a, c.websocket_connect(ws_url(game, 1)), \
                c.websocket_connect(ws_url(game)):
            next_state(a)
            with c.websocket_connect(ws_url(game)) as extra:
                assert refused(extra, "too_many")
        with c.websocket_connect(ws_url(game)) as again:
            assert next_state(again)["type"] == "state"


def test_spectators_per_game_are_capped_but_seats_always_get_in(tmp_path: Path) -> None:
    """Issue 12, defect 5: a game takes only so many spectators (200 of them slowed every
    move); its players are never turned away."""
    with client_for(settings(tmp_path, max_spectators=2)) as c:
        game = new_game(c, "human,human", start=True)
        other = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game)) as s1, c.websocket_connect(ws_url(game)):
            next_state(s1)
            with c.websocket_connect(ws_url(game)) as s3:
                assert refused(s3, "too_many")
            with c.websocket_connect(ws_url(game, 0)) as seat, \
                    c.websocket_connect(ws_url(other)) as elsewhere:
                assert next_state(seat)["seat"] == 0
                assert next_state(elsewhere)["type"] == "state"


def test_idle_running_games_are_archived_and_resume_from_the_store(tmp_path: Path) -> None:
    """Issue 12, defect 5: a running game nobody has touched for ``idle_seconds`` (14 days
    by default) leaves memory, is not loaded at start-up, and resumes from the store, where
    it was, when someone comes back; a watched game stays."""
    from flamecraft.server.games import Games

    s = settings(tmp_path, idle_seconds=3600.0)
    with client_for(s) as c:
        games: Games = c.app.state.games  # type: ignore[attr-defined]
        idle = new_game(c, "human,human", start=True)
        watched = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(idle, 0)) as w0, c.websocket_connect(ws_url(idle, 1)):
            first = next_state(w0)
            mover = first["view"]["to_act"]
        with c.websocket_connect(ws_url(idle, mover)) as ws:
            msg = next_state(ws)
            ws.send_json({"type": "act", "version": msg["version"], "index": 0})
            moved = next_state(ws)
        with c.websocket_connect(ws_url(watched)) as spectator:
            next_state(spectator)
            assert games.archive_idle(now=time.time() + 1800) == []
            assert games.archive_idle(now=time.time() + 7200) == [idle["game_id"]]
            assert idle["game_id"] not in games.sessions and watched["game_id"] in games.sessions
        back = c.get(f"/api/games/{idle['game_id']}").json()
        assert back["status"] == "running" and back["step"] == moved["step"]
        with c.websocket_connect(ws_url(idle, 0)) as ws:
            assert next_state(ws)["version"] == moved["version"]
    with client_for(settings(tmp_path, idle_seconds=0.0)) as c:  # a restart, all idle
        games = c.app.state.games  # type: ignore[attr-defined]
        assert games.sessions == {}
        assert c.get(f"/api/games/{watched['game_id']}").json()["status"] == "running"


def test_the_caps_are_read_from_the_environment() -> None:
    """Issue 12: every cap of "Hosting in public" has its FLAMECRAFT_* variable, defaults as
    documented (docs/server.md), and a bad value is refused naming the variable."""
    from flamecraft.server import Settings

    default = Settings.from_env({})
    assert (default.max_messages_per_second, default.message_burst) == (20, 40)
    assert (default.max_connections_per_address, default.max_spectators) == (32, 50)
    assert default.idle_seconds == 14 * 86400 and default.max_body_bytes == 16384
    assert 1 <= default.bot_processes <= 4
    s = Settings.from_env({"FLAMECRAFT_MESSAGE_BURST": "10",
                           "FLAMECRAFT_CONNECTIONS_PER_ADDRESS": "5",
                           "FLAMECRAFT_SPECTATORS_PER_GAME": "7", "FLAMECRAFT_IDLE_DAYS": "0.5",
                           "FLAMECRAFT_BOT_PROCESSES": "0"})
    assert (s.message_burst, s.max_connections_per_address, s.max_spectators) == (10, 5, 7)
    assert s.idle_seconds == 43200 and s.bot_processes == 0
    with pytest.raises(ValueError, match="FLAMECRAFT_SPECTATORS_PER_GAME"):
        Settings.from_env({"FLAMECRAFT_SPECTATORS_PER_GAME": "many"})
