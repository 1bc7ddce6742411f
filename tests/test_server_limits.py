"""What one visitor can do to everyone else, bounded (issue 24, items 4, 6, 7 and 8): HTTP
heads bounded in size, count and time, no redirect that trusts the Host header, a bounded
Accept-Language; WebSocket messages too big or not of the protocol charged and, past a few,
the connection closed; a stored row that cannot be read skipped, never fatal; names that look
alike across scripts refused; the creation limiter in bounded memory and per IPv6 /64; SQLite
durable for every acknowledged move.

The HTTP limits are the listener's (``flamecraft serve``, httpd.py), so those tests run a real
server in a subprocess, with short limits, over raw sockets.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):  # in CI the web extra is installed: a missing one fails
    pytest.importorskip("fastapi", reason="the web extra is not installed")

import httpx
from starlette.websockets import WebSocketDisconnect

from flamecraft.server import Settings
from test_server_api import client_for, new_game, next_state, postgres_schema, settings, ws_url
from test_server_hosting import error_shape, peak_memory_kib
from test_server_multiprocess import Server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LIMITS = {"FLAMECRAFT_MAX_HEADER_BYTES": "4096", "FLAMECRAFT_MAX_HEADERS": "20",
          "FLAMECRAFT_HEADER_TIMEOUT": "1", "FLAMECRAFT_KEEP_ALIVE_TIMEOUT": "1",
          "FLAMECRAFT_GAMES_PER_MINUTE": "2", "FLAMECRAFT_CONNECTIONS_PER_ADDRESS": "2"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """``flamecraft serve`` with short HTTP limits (LIMITS); yields its base URL and pid."""
    folder = tmp_path_factory.mktemp("limits")
    with pytest.MonkeyPatch.context() as env:
        for name, value in LIMITS.items():
            env.setenv(name, value)
        server = Server(f"sqlite:///{folder / 'games.sqlite3'}", folder / "server.log", 3.0)
    try:
        server.wait_ready()
        yield server.base, server.proc.pid
    finally:
        server.stop()


def _port(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def _closed_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> float | None:
    """Seconds until the server closes ``sock`` (None: still open after ``seconds``), sending
    ``trickle`` every 0.2 s meanwhile (a slowloris client)."""
    start = time.monotonic()
    sock.settimeout(0.2)
    while time.monotonic() - start < seconds:
        try:
            if trickle:
                sock.sendall(trickle)
            if sock.recv(65536) == b"":
                return time.monotonic() - start
        except TimeoutError:
            continue
        except OSError:  # reset or broken pipe: closed
            return time.monotonic() - start
    return None


def _answer(sock: socket.socket) -> bytes:
    sock.settimeout(5)
    out = b""
    try:
        while chunk := sock.recv(65536):
            out += chunk
    except (TimeoutError, OSError):
        pass
    return out


def test_an_endless_header_is_refused_at_the_limit(served: tuple[str, int]) -> None:
    """Item 4: 8 connections each sending an unterminated header of 4 MB (40 MB each took the
    server from 70 to 462 MB) are answered 431 ``too_big`` in the documented shape once
    ``max_header_bytes`` have arrived, and closed; the server's peak memory barely moves."""
    base, pid = served
    before = peak_memory_kib(pid)
    socks = [socket.create_connection(("127.0.0.1", _port(base)), timeout=5) for _ in range(8)]
    sent = [0] * len(socks)
    for i, sock in enumerate(socks):
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Junk: ")
        sock.settimeout(0.0)
        try:
            while sent[i] < 4 << 20:
                try:
                    sent[i] += sock.send(b"a" * 65536)
                except BlockingIOError:
                    time.sleep(0.01)
        except OSError:
            pass  # the server closed it
    answers = [_answer(sock) for sock in socks]
    for sock in socks:
        sock.close()
    for answer in answers:
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 431"), answer[:200]
        assert error_shape(httpx.Response(431, content=body).json())
        assert b"4096 bytes" in body
    assert max(sent) < 4 << 20, "the server kept reading a head past its limit"
    assert peak_memory_kib(pid) - before < 16 * 1024
    assert httpx.get(base + "/api/health", timeout=5).status_code == 200


def test_too_many_headers_are_refused(served: tuple[str, int]) -> None:
    """Item 4: more than ``max_headers`` header lines: 431 ``too_big``, saying the limit."""
    base, _ = served
    headers = {f"x-h{i}": "1" for i in range(25)}
    r = httpx.get(base + "/api/health", headers=headers, timeout=5)
    assert r.status_code == 431 and error_shape(r.json()) and r.json()["code"] == "too_big"
    assert "20 headers" in r.json()["message"]
    assert httpx.get(base + "/api/health", headers=dict(list(headers.items())[:10]),
                     timeout=5).status_code == 200


def test_slow_and_silent_connections_are_closed(served: tuple[str, int]) -> None:
    """Item 4: a connection that sends nothing, one that trickles its head a byte at a time
    (slowloris: each byte once held it open another while), and a kept-alive one left idle
    are each closed after their timeout (1 s here), not held for minutes."""
    base, _ = served
    addr = ("127.0.0.1", _port(base))
    with socket.create_connection(addr, timeout=5) as silent:
        took = _closed_within(silent, 6.0)
        assert took is not None and took < 4.0, took
    with socket.create_connection(addr, timeout=5) as slow:
        slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        took = _closed_within(slow, 6.0, trickle=b"X")
        assert took is not None and took < 4.0, took
    with socket.create_connection(addr, timeout=5) as slow_body:  # its body, a byte a time
        slow_body.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                          b"application/json\r\nContent-Length: 5000\r\n\r\n{")
        took = _closed_within(slow_body, 6.0, trickle=b" ")
        assert took is not None and took < 4.0, took
    with socket.create_connection(addr, timeout=5) as idle:
        idle.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        idle.settimeout(5)
        assert idle.recv(65536).startswith(b"HTTP/1.1 200")
        took = _closed_within(idle, 6.0)
        assert took is not None and took < 4.0, took


def test_the_http_limits_are_read_from_the_environment() -> None:
    """Item 4: each HTTP limit has its FLAMECRAFT_* variable and the default docs/server.md
    gives; the connection cap defaults to three quarters of the open-file limit, and all of
    them reach uvicorn."""
    import resource

    from flamecraft.server import Settings
    from flamecraft.server.httpd import connection_cap, uvicorn_options

    default = Settings.from_env({})
    assert (default.max_header_bytes, default.max_headers) == (16384, 100)
    assert (default.header_timeout, default.keep_alive_timeout) == (10.0, 5.0)
    assert default.max_bad_messages == 5 and default.max_connections == 0
    assert default.forwarded_allow_ips == "127.0.0.1,::1"
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft != resource.RLIM_INFINITY:
        assert connection_cap(default) == max(16, soft * 3 // 4)
    s = Settings.from_env({**LIMITS, "FLAMECRAFT_MAX_CONNECTIONS": "300",
                           "FLAMECRAFT_BAD_MESSAGES": "2",
                           "FLAMECRAFT_FORWARDED_ALLOW_IPS": "10.0.0.2"})
    options = uvicorn_options(s)
    assert options["h11_max_incomplete_event_size"] == 4096
    assert options["limit_concurrency"] == 300 and options["timeout_keep_alive"] == 1
    assert options["forwarded_allow_ips"] == "10.0.0.2" and s.max_bad_messages == 2
    assert (s.max_headers, s.header_timeout) == (20, 1.0)
    with pytest.raises(ValueError, match="FLAMECRAFT_HEADER_TIMEOUT"):
        Settings.from_env({"FLAMECRAFT_HEADER_TIMEOUT": "soon"})


def test_the_proxy_headers_are_believed_from_the_proxy_only(served: tuple[str, int]) -> None:
    """Item 8: behind the documented nginx (on 127.0.0.1) the client's address is the one
    in X-Forwarded-For: the creation cap (2 a minute here) counts each client apart."""
    base, _ = served
    body = {"seats": [{"kind": "human"}]}

    def create(client: str) -> int:
        return httpx.post(base + "/api/games", json=body, timeout=5,
                          headers={"X-Forwarded-For": client,
                                   "X-Forwarded-Proto": "https"}).status_code

    assert [create("203.0.113.5") for _ in range(3)] == [201, 201, 429]
    assert create("203.0.113.6") == 201


def test_an_ipv6_64_is_one_address_for_the_connection_cap(served: tuple[str, int]) -> None:
    """Item 8: the per-address cap on live connections (2 here) counts an IPv6 /64 as one
    address: a host picks any of its 2^64 addresses at will."""
    from websockets.sync.client import connect

    base, _ = served
    game = httpx.post(base + "/api/games", json={"seats": [{"kind": "human"}]},
                      headers={"X-Forwarded-For": "192.0.2.77"}).json()
    url = "ws" + base[len("http"):] + f"/ws/games/{game['game_id']}"

    def first_message(client: str) -> str:
        ws = connect(url, additional_headers={"X-Forwarded-For": client})
        opened.append(ws)
        return str(ws.recv(timeout=10))

    opened: list[Any] = []
    try:
        assert '"state"' in first_message("2001:db8:5:6::1")
        assert '"state"' in first_message("2001:db8:5:6::2")
        assert '"too_many"' in first_message("2001:db8:5:6:abcd::3")
        assert '"state"' in first_message("2001:db8:5:7::1")  # another /64
    finally:
        for ws in opened:
            ws.close()


def test_x_forwarded_proto_is_honoured_from_trusted_proxies() -> None:
    """Item 8: the listener's options (httpd.py) make uvicorn read X-Forwarded-Proto (and
    -For) from ``forwarded_allow_ips`` only: behind nginx on 127.0.0.1 a request that came
    in over TLS is https to the app; the same header from anyone else is ignored."""
    import asyncio

    import uvicorn

    from flamecraft.server import Settings
    from flamecraft.server.httpd import uvicorn_options

    seen: list[tuple[str, Any]] = []

    async def echo(scope: Any, receive: Any, send: Any) -> None:
        seen.append((scope["scheme"], scope["client"]))

    options = uvicorn_options(Settings(forwarded_allow_ips="127.0.0.1"))
    config = uvicorn.Config(echo, **options)
    config.load()

    def call(client: str) -> tuple[str, Any]:
        scope = {"type": "http", "scheme": "http", "client": (client, 5000), "path": "/",
                 "headers": [(b"x-forwarded-proto", b"https"),
                             (b"x-forwarded-for", b"203.0.113.9")]}
        asyncio.run(config.loaded_app(scope, None, None))
        return seen[-1]

    assert call("127.0.0.1") == ("https", ("203.0.113.9", 0))
    assert call("198.51.100.1") == ("http", ("198.51.100.1", 5000))


def test_the_nginx_snippet_sets_x_forwarded_proto() -> None:
    """Item 8: docs/server.md's nginx configuration passes the scheme on (without it, the
    server behind TLS believes every request came over plain http)."""
    docs = (Path(__file__).parents[1] / "docs" / "server.md").read_text(encoding="utf-8")
    blocks = docs.split("```nginx")[1:]
    assert blocks
    for block in blocks:
        text = block.split("```")[0]
        assert "proxy_set_header X-Forwarded-Proto $scheme;" in text
        assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in text
        assert "client_header_timeout" in text
        # nginx's own syntax, as far as it can be read without nginx: balanced braces, and
        # every directive ends with ";" or opens a block
        code = [line.split("#")[0].strip() for line in text.splitlines()]
        assert text.count("{") == text.count("}")
        for line in filter(None, code):
            assert line.endswith((";", "{", "}")), line


def test_no_redirect_trusts_the_host_header(tmp_path: Path) -> None:
    """Item 8: a trailing slash was redirected (307) to whatever the Host header named
    (``Host: evil.example``), over http behind a TLS proxy; now there is no such redirect."""
    with client_for(settings(tmp_path)) as c:
        r = c.get("/api/games/", headers={"Host": "evil.example"}, follow_redirects=False)
        assert r.status_code == 404 and "location" not in r.headers
        assert error_shape(r.json())
        assert c.get("/api/games").status_code == 200


def test_a_huge_accept_language_is_read_from_its_start_only() -> None:
    """Item 4: a 10 MB Accept-Language blocked the event loop 1.5 s on every request; only
    its first few hundred characters are read now, and each header's answer is cached."""
    from flamecraft.server import language

    huge = "ja," + "x-foo;q=0.5," * 1_000_000
    start = time.perf_counter()
    assert language.accept_language(huge) == "ja"
    assert time.perf_counter() - start < 0.1
    hits = language._accept_language.cache_info().hits
    assert language.accept_language("fr;q=0.9, ja;q=0.8") == "ja"
    assert language.accept_language("fr;q=0.9, ja;q=0.8") == "ja"
    assert language._accept_language.cache_info().hits == hits + 1
    late = " " * 300 + ",ja"  # past the prefix: not read
    assert language.accept_language(late) is None


# ---------------------------------------------------------------- WebSocket messages


def test_messages_too_big_are_charged_and_close_the_connection(tmp_path: Path) -> None:
    """Item 6: 60 KB messages skipped the rate limit (86,200 in 21 s from 4 connections, each
    answered). Now each is charged its size in tokens (here 5 tokens for 5 KiB against a
    1 KiB limit): two drain a burst of 10, so the next small message is rate limited; and the
    connection is closed (1008, with an ``error`` saying why) after ``max_bad_messages``."""
    now = [1000.0]
    s = settings(tmp_path, max_message_bytes=1024, message_burst=10,
                 max_messages_per_second=1, max_bad_messages=3)
    with client_for(s, clock=lambda: now[0]) as c:
        game = new_game(c, "human,bot")
        with c.websocket_connect(ws_url(game)) as ws:
            next_state(ws)
            for _ in range(2):
                ws.send_text("x" * 5 * 1024)
                assert ws.receive_json()["code"] == "too_big"
            ws.send_json({"type": "ping", "id": 1})
            assert ws.receive_json()["code"] == "rate_limited"
            now[0] += 20.0  # the bucket refills
            ws.send_json({"type": "ping", "id": 2})
            assert ws.receive_json() == {"type": "pong", "id": 2}
            ws.send_text("x" * 2000)
            got = [ws.receive_json() for _ in range(2)]
            assert [m["code"] for m in got] == ["too_big", "closed"]
            assert "3 messages" in got[1]["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008


def test_messages_not_of_the_protocol_close_the_connection(tmp_path: Path) -> None:
    """Item 6: messages that are not JSON objects of a known type count too (a message
    merely wrong, an act without its version, does not): after ``max_bad_messages`` the
    connection closes."""
    s = settings(tmp_path, max_bad_messages=3)
    with client_for(s) as c:
        game = new_game(c, "human,bot")
        with c.websocket_connect(ws_url(game)) as ws:
            next_state(ws)
            for _ in range(5):  # wrong, but of the protocol: answered, never closing
                ws.send_json({"type": "act", "index": 0})
                assert "version" in ws.receive_json()["message"]
            for payload in ("not json", '["act"]'):
                ws.send_text(payload)
                assert ws.receive_json()["code"] == "malformed"
            ws.send_json({"type": "dance"})
            assert ws.receive_json()["code"] == "malformed"
            assert ws.receive_json()["code"] == "closed"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008


# ---------------------------------------------------------------- one bad row


def _spoil(url: str, game_id: str, column: str, value: str) -> None:
    """Writes ``value`` into a game row's column behind the server's back."""
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url[len("sqlite:///"):]) as conn:
            conn.execute(f"UPDATE flamecraft_games SET {column} = ? WHERE id = ?",
                         (value, game_id))
        return
    import psycopg

    with psycopg.connect(url, autocommit=True) as pg:
        pg.execute(f"UPDATE flamecraft_games SET {column} = %s WHERE id = %s",
                   (value, game_id))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_row_that_cannot_be_read_is_skipped(tmp_path: Path, backend: str,
                                              caplog: pytest.LogCaptureFixture) -> None:
    """Item 7: a running game whose options are not JSON, one whose options the engine
    refuses (9 players), and a finished one whose result is not JSON: start-up goes on (it
    failed: "Application startup failed"), logging each; the lobby lists the good games (it
    answered 500 to everyone); each bad game's own URL answers ``broken``."""
    with contextlib.ExitStack() as stack:
        url = (stack.enter_context(postgres_schema()) if backend == "postgresql"
               else f"sqlite:///{tmp_path / 'games.sqlite3'}")
        _bad_rows(settings(tmp_path, database_url=url), url, caplog)


def _bad_rows(s: Settings, db: str, caplog: pytest.LogCaptureFixture) -> None:
    with client_for(s) as c:
        good = new_game(c, "human,bot", start=True)
        bad_json = new_game(c, "human,bot", start=True)
        bad_options = new_game(c, "human,bot", start=True)
        finished = new_game(c, "random,random")
        with c.websocket_connect(ws_url(finished)) as ws:
            while next_state(ws).get("status") != "finished":
                pass
    _spoil(db, bad_json["game_id"], "options", '{"players": 2, "deck": ')
    _spoil(db, bad_options["game_id"], "options", '{"players": 9, "deck": "purple"}')
    _spoil(db, finished["game_id"], "result", "{oops")
    caplog.set_level(logging.ERROR, logger="flamecraft.server")
    with client_for(s) as c:
        listed = c.get("/api/games")
        assert listed.status_code == 200
        ids = {g["game_id"] for g in listed.json()["games"]}
        assert good["game_id"] in ids and finished["game_id"] not in ids
        assert bad_json["game_id"] not in ids
        assert c.get("/api/games", params={"status": "finished"}).status_code == 200
        assert c.get(f"/api/games/{good['game_id']}").json()["status"] == "running"
        for bad in (bad_json, bad_options, finished):
            r = c.get(f"/api/games/{bad['game_id']}")
            assert r.status_code == 500 and error_shape(r.json()), r.text
            assert r.json()["code"] == "broken" and bad["game_id"] in r.json()["message"]
        with pytest.raises(WebSocketDisconnect), \
                c.websocket_connect(ws_url(bad_json)) as ws:
            assert ws.receive_json()["code"] == "broken"
            ws.receive_json()
    logged = caplog.text
    assert bad_json["game_id"] in logged and bad_options["game_id"] in logged


# ---------------------------------------------------------------- names


@pytest.mark.parametrize(("first", "second"), [
    ("Bob", "\u0412\u043eb"),  # Cyrillic В and о
    ("Ann", "\u0391nn"),  # Greek Α
    ("Player 1", "PIayer 1"),  # a capital I for the l
    ("carl", "cari"),  # not a look-alike: accepted (below)
])
def test_look_alike_names_cannot_both_sit(tmp_path: Path, first: str, second: str) -> None:
    """Item 8: two seats whose names have the same confusable skeleton (UTS #39) are refused,
    naming the second; names that merely resemble each other are not."""
    from flamecraft.server.names import skeleton

    alike = skeleton(first) == skeleton(second)
    assert alike == (first != "carl")
    with client_for(settings(tmp_path)) as c:
        seats = [{"kind": "human", "name": first}, {"kind": "human", "name": second}]
        r = c.post("/api/games", json={"seats": seats})
        if not alike:
            assert r.status_code == 201
            return
        assert r.status_code == 400 and error_shape(r.json())
        assert repr(second) in r.json()["message"] and "looks like" in r.json()["message"]
        # joining under a look-alike of a seated name is refused the same way
        game = new_game(c, "human,human")
        token = game["seats"][0]["token"]
        assert c.post(f"/api/games/{game['game_id']}/join",
                      json={"seat": 0, "token": token, "name": first}).status_code == 200
        token = game["seats"][1]["token"]
        r = c.post(f"/api/games/{game['game_id']}/join",
                   json={"seat": 1, "token": token, "name": second})
        assert r.status_code == 400 and "looks like" in r.json()["message"]
        ja = c.post(f"/api/games/{game['game_id']}/join", headers={"Accept-Language": "ja"},
                    json={"seat": 1, "token": token, "name": second})
        assert ja.json()["message"] != r.json()["message"]


@pytest.mark.parametrize(("name", "why"), [
    ("Zalgo" + "\u0301\u0302\u0303\u0304", "marks"),
    ("\ufdfd" * 20, "wide"),
    ("\ufdfd" * 4, "wide"),
])
def test_stacked_marks_and_very_wide_names_are_refused(tmp_path: Path, name: str,
                                                       why: str) -> None:
    """Item 8: more than three combining marks on one letter, or a name wider than 40 columns
    (U+FDFD is a dozen letters wide), are refused; Vietnamese and Japanese names are not."""
    with client_for(settings(tmp_path)) as c:
        r = c.post("/api/games", json={"seats": [{"kind": "human", "name": name}]})
        assert r.status_code == 400 and error_shape(r.json())
        assert ("marks" if why == "marks" else "too wide") in r.json()["message"]
        for fine in ("Nguy\u1ec5n Th\u1ecb", "\u5c71\u7530\u592a\u90ce", "\ufdfd"):
            assert c.post("/api/games", json={"seats": [{"kind": "human", "name": fine}]}
                          ).status_code == 201


# ---------------------------------------------------------------- the creation limiter


def test_the_creation_limiter_groups_ipv6_by_64_and_forgets_the_quiet_first() -> None:
    """Item 8: each IPv6 address was its own client (a host has 2^64 of them) and past 10,000
    addresses the limiter forgot everyone at once, the busy one too. Now a /64 is one client,
    and a flood of new addresses forgets only those whose bucket has refilled."""
    from flamecraft.server.guards import AddressBuckets, address_group

    assert address_group("2001:db8:1:2::5") == address_group("2001:db8:1:2:ffff::9")
    assert address_group("2001:db8:1:3::5") != address_group("2001:db8:1:2::5")
    assert address_group("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_group("testclient") == "testclient"
    now = [0.0]
    limiter = AddressBuckets(rate=1 / 60, burst=3, size=100, clock=lambda: now[0])
    assert [limiter.allow(f"2001:db8:1:2::{i:x}") for i in range(1, 5)] == [True] * 3 + [False]
    for i in range(1000):  # a flood of new addresses, each making one game
        now[0] += 0.001
        assert limiter.allow(f"198.51.{i // 256}.{i % 256}")
    assert len(limiter.buckets) <= 100
    assert not limiter.allow("2001:db8:1:2::77"), "the busy /64 was forgotten"
    now[0] += 3600  # an hour on, its bucket is full again
    assert limiter.allow("2001:db8:1:2::77")


# ---------------------------------------------------------------- durability


def test_sqlite_syncs_every_acknowledged_move(tmp_path: Path) -> None:
    """Item 8: ``synchronous=NORMAL`` in WAL mode can lose the last acknowledged moves on a
    power loss; the store runs with FULL (2): the WAL is synced at every commit."""
    from flamecraft.server.store import SqliteStore

    store = SqliteStore(str(tmp_path / "games.sqlite3"))
    try:
        assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        store.close()
