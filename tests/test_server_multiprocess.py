"""More than one machine: two server processes (``flamecraft serve`` on two loopback ports)
share their games through one PostgreSQL database, and a move made through one reaches the
WebSocket clients of the other through LISTEN/NOTIFY (docs/server.md, issue 7).

Needs FLAMECRAFT_TEST_PG (set by .ci/run): skipped locally without it, a failure in CI.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):  # in CI the web extra is installed: a missing one fails
    pytest.importorskip("fastapi", reason="the web extra is not installed")

import httpx
from websockets.sync.client import ClientConnection, connect

from flamecraft.core.serialize import GameRecord, replay
from test_server_api import postgres_schema

TIMEOUT = 15.0
AWAY_TAKEOVER = 2.0  # seconds a person away on their turn waits before a bot plays for them
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One ``flamecraft serve`` process."""

    def __init__(self, url: str, log: Path, takeover: float):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "FLAMECRAFT_BOT_DELAY": "0",
               "FLAMECRAFT_BOT_TAKEOVER": str(takeover),
               "FLAMECRAFT_MESSAGES_PER_SECOND": "100000",  # scripted seats are quick
               "FLAMECRAFT_TIMEOUT_GRACE": "0.3",  # (a clock's test runs out in a second)
               "FLAMECRAFT_AWAY_TAKEOVER": str(AWAY_TAKEOVER)}
        self.log = log
        with open(log, "w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "import sys; from flamecraft.cli.main import main; "
                 "sys.exit(main(sys.argv[1:]))", "serve", "--port", str(self.port),
                 "--database", url], env=env, stdout=out, stderr=subprocess.STDOUT)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server stopped: {self.log.read_text()}")
            try:
                if httpx.get(self.base + "/api/health", timeout=1).json()["store"]:
                    return
            except (httpx.HTTPError, ValueError):
                time.sleep(0.1)
        raise AssertionError(f"the server did not start: {self.log.read_text()}")

    def ws(self, game_id: str, seat: int | None = None, token: str | None = None
           ) -> ClientConnection:
        query = f"?seat={seat}&token={token}" if seat is not None else ""
        return connect(f"ws://127.0.0.1:{self.port}/ws/games/{game_id}{query}",
                       open_timeout=TIMEOUT)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    """Two processes on one database. Each plays a bot seat almost as soon as the other
    moved (takeover 0.05 s), so they race for bot moves: only one may win each."""
    with postgres_schema() as url:
        logs = tmp_path_factory.mktemp("servers")
        a, b = Server(url, logs / "a.log", 0.05), Server(url, logs / "b.log", 0.05)
        try:
            a.wait_ready()
            b.wait_ready()
            yield a, b
        finally:
            a.stop()
            b.stop()


def receive(conn: ClientConnection) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(conn.recv(timeout=TIMEOUT))
    return msg


class Client:
    """A WebSocket client that remembers the newest state it has read."""

    def __init__(self, conn: ClientConnection):
        self.conn = conn
        self.last: dict[str, Any] = {"version": -1}

    def upto(self, version: int) -> dict[str, Any]:
        """The first state of at least ``version`` (every state reaches every client)."""
        while self.last["version"] < version:
            msg = receive(self.conn)
            if msg["type"] == "state":
                self.last = msg
        return self.last

    def act(self, version: int, index: int) -> None:
        self.conn.send(json.dumps({"type": "act", "version": version, "index": index}))


def create(server: Server, kinds: list[str], **body: Any) -> dict[str, Any]:
    seats = [{"kind": "human"} if k == "human" else {"kind": "bot", "bot": k} for k in kinds]
    r = httpx.post(server.base + "/api/games", json={"seats": seats, "start": True, **body},
                   timeout=TIMEOUT)
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_a_move_through_one_process_reaches_the_other(servers: tuple[Server, Server]) -> None:
    """Issue 7, more than one machine: moves sent to process A reach the clients of process B
    at once, and moves sent to B reach the clients of A."""
    a, b = servers
    game = create(a, ["human", "human"])
    gid, tokens = game["game_id"], [s["token"] for s in game["seats"]]
    conns = {(p, seat): Client(p.ws(gid, seat, tokens[seat])) for p in (a, b)
             for seat in (0, 1)}
    watch = {a: Client(a.ws(gid)), b: Client(b.ws(gid))}
    try:
        state = watch[b].upto(0)
        for k in range(6):
            via, other = (a, b) if k % 2 == 0 else (b, a)
            seat, v = state["view"]["to_act"], state["version"]
            mine = conns[(via, seat)].upto(v)
            sent = time.monotonic()
            conns[(via, seat)].act(v, 0)
            seen = conns[(other, seat)].upto(v + 1)  # a client of the other process
            assert time.monotonic() - sent < 5
            assert seen["version"] == v + 1
            # the move is the first new line of the actor's log (forced actions may follow;
            # the keeper of a Fancy Dragon also reads the card shown beside it)
            new = seen["log"][len(mine["log"])]
            assert new["text"].startswith(mine["legal"][0]["text"]) and new["player"] == seat
            state = watch[other].upto(v + 1)
            assert state["view"] == watch[via].upto(v + 1)["view"]
    finally:
        for client in (*conns.values(), *watch.values()):
            client.conn.close()


def test_two_processes_never_both_apply_a_move(servers: tuple[Server, Server]) -> None:
    """Issue 7, stale across processes: the same seat answers one state through A and
    through B at once; exactly one move is applied, the other is refused as stale."""
    a, b = servers
    game = create(a, ["human", "human"])
    gid, tokens = game["game_id"], [s["token"] for s in game["seats"]]
    with a.ws(gid) as probe:
        first = receive(probe)
    seat, v = first["view"]["to_act"], first["version"]
    with a.ws(gid, seat, tokens[seat]) as via_a, b.ws(gid, seat, tokens[seat]) as via_b:
        receive(via_a)
        receive(via_b)
        via_a.send(json.dumps({"type": "act", "version": v, "index": 0}))
        via_b.send(json.dumps({"type": "act", "version": v, "index": 1}))
        errors = []
        for conn in (via_a, via_b):
            conn.send(json.dumps({"type": "ping", "id": "end"}))  # answered after the act
            got = receive(conn)
            while got.get("id") != "end":
                if got["type"] == "error":
                    errors.append(got["code"])
                got = receive(conn)
    assert errors == ["stale"]
    for p in (a, b):
        deadline = time.monotonic() + TIMEOUT
        while httpx.get(f"{p.base}/api/games/{gid}").json()["version"] != v + 1:
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_a_whole_game_across_two_processes(servers: tuple[Server, Server]) -> None:
    """Issue 7, more than one machine: a person plays through A and B in turn while both
    processes race to play the bots; the game ends with one consistent record."""
    a, b = servers
    game = create(b, ["human", "random", "random"])
    gid, token = game["game_id"], game["seats"][0]["token"]
    rng = random.Random(4)
    with a.ws(gid, 0, token) as via_a, b.ws(gid, 0, token) as via_b:
        conns, turn, acted = (via_a, via_b), 0, -1
        while True:
            msg = receive(conns[turn % 2])  # each reads its backlog, then the newest state
            if msg["type"] != "state" or msg["version"] <= acted or not (
                    msg["legal"] or msg["status"] == "finished"):
                continue
            if msg["status"] == "finished":
                break
            acted = msg["version"]
            conns[turn % 2].send(json.dumps({"type": "act", "version": acted,
                                             "index": rng.randrange(len(msg["legal"]))}))
            turn += 1
    records = [httpx.get(f"{p.base}/api/games/{gid}/record").json() for p in (a, b)]
    assert records[0] == records[1]
    record = GameRecord.from_json(records[0])
    assert record.result is not None and replay(record).rep == record.result["reputation"]
    entry = httpx.get(f"{a.base}/api/games/{gid}").json()
    assert entry["version"] == len(record.actions)  # one stored action per version, no double


def test_a_clock_runs_out_once_across_two_processes(servers: tuple[Server, Server]) -> None:
    """Issue 23 item 7: both processes have the game loaded (a spectator on each) and both
    time its clock; when the person's 1 s bank is spent, a bot takes the seat once, not once
    per process (the row's version decides), and the game goes on to its end."""
    a, b = servers
    game = create(a, ["human", "random"], first_player=0,
                  clock={"kind": "realtime", "bank": 1.0, "increment": 0})
    gid = game["game_id"]
    with a.ws(gid) as wa, b.ws(gid) as wb:
        ca, cb = Client(wa), Client(wb)
        ca.upto(0)
        cb.upto(0)
        deadline = time.monotonic() + TIMEOUT
        while cb.last["status"] != "finished":
            assert time.monotonic() < deadline, "the game did not go on to its end"
            msg = receive(wb)
            if msg["type"] == "state":
                cb.last = msg
        spans = cb.last["seats"][0]["spans"]
        assert [span["why"] for span in spans] == ["timeout"], spans
        assert spans[0]["from"] == 0
    row = httpx.get(a.base + f"/api/games/{gid}", timeout=TIMEOUT).json()
    assert row["seats"][0]["spans"] == spans


def presence_until(conn: ClientConnection, check: Any) -> dict[str, Any]:
    """Reads until a presence message passes ``check`` (states in between skipped)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        msg = receive(conn)
        if msg["type"] == "presence" and check(msg):
            return msg
    raise AssertionError("no such presence message")


def test_presence_is_shared_and_an_away_takeover_happens_once(
        servers: tuple[Server, Server]) -> None:
    """Issue 23 item 1 over PostgreSQL: Ann plays through A, Bo through B only. A's clients
    see Bo here (not away, though A has no connection of his), and the spectators of both
    processes counted; Bo, on his turn, stays well past the away takeover and no bot takes
    his seat. He closes his tab: A's clients see him away, and after the takeover time one
    bot plays for him (why "away", once, though both processes time it)."""
    a, b = servers
    game = create(a, ["human", "human"], first_player=1)
    gid, tokens = game["game_id"], [s["token"] for s in game["seats"]]
    hello = json.dumps({"type": "presence", "hidden": False})
    with a.ws(gid, 0, tokens[0]) as ann, a.ws(gid) as watch_a, b.ws(gid) as watch_b:
        for conn in (ann, watch_a, watch_b):
            conn.send(hello)
        with b.ws(gid, 1, tokens[1]) as bo:
            bo.send(hello)
            seen = presence_until(ann, lambda m: m["spectators"] == 2
                                  and [s["status"] for s in m["seats"]] == ["here", "here"])
            assert seen["acting"]["seat"] == 1
            time.sleep(AWAY_TAKEOVER + 3.5)  # past the grace and the takeover
            assert httpx.get(f"{a.base}/api/games/{gid}").json()["version"] == 0
            watch_b.send(json.dumps({"type": "ping", "id": "still"}))
            msg = receive(watch_b)
            while msg.get("id") != "still":
                assert msg["type"] != "presence" or msg["seats"][1]["status"] == "here", msg
                msg = receive(watch_b)
        gone = presence_until(ann, lambda m: m["seats"][1]["status"] == "away")
        assert gone["seats"][1]["why"] == "offline"
        deadline = time.monotonic() + TIMEOUT
        while not (entry := httpx.get(f"{a.base}/api/games/{gid}").json())["seats"][1].get(
                "spans"):
            assert time.monotonic() < deadline, "no bot took the seat of a person away"
            time.sleep(0.1)
        assert [span["why"] for span in entry["seats"][1]["spans"]] == ["away"]


def test_a_chat_line_said_on_one_process_reaches_the_other_once(
        servers: tuple[Server, Server]) -> None:
    """Issue 23 item 4 across processes: a line Ann writes through A reaches Bo on B (through
    the store's NOTIFY) exactly once, and a line Bo writes reaches Ann; both read the same
    history afterwards, in order."""
    a, b = servers
    game = create(a, ["human", "human"])
    gid, tokens = game["game_id"], [s["token"] for s in game["seats"]]
    ask = json.dumps({"type": "chat", "history": True})

    def next_chat(conn: ClientConnection) -> dict[str, Any]:
        while (msg := receive(conn))["type"] != "chat":
            pass
        return msg

    with a.ws(gid, 0, tokens[0]) as ann, b.ws(gid, 1, tokens[1]) as bo:
        for conn in (ann, bo):
            conn.send(ask)
            assert next_chat(conn)["lines"] == []
        ann.send(json.dumps({"type": "chat", "text": "hello from A"}))
        assert [x["seq"] for x in next_chat(ann)["lines"]] == [0]  # her own line, back
        (line,) = next_chat(bo)["lines"]
        assert (line["seat"], line["text"], line["seq"]) == (0, "hello from A", 0)
        bo.send(json.dumps({"type": "chat", "canned": "gg"}))
        assert [x["seq"] for x in next_chat(bo)["lines"]] == [1]
        assert [x["seq"] for x in next_chat(ann)["lines"]] == [1]
        time.sleep(0.5)  # a second NOTIFY of the same line would have come by now
        for conn in (ann, bo):
            conn.send(json.dumps({"type": "ping", "id": "end"}))
            while (msg := receive(conn)).get("id") != "end":
                assert msg["type"] != "chat", f"a line came twice: {msg}"
    pages = [httpx.get(f"{p.base}/api/games/{gid}/chat", timeout=TIMEOUT).json()
             for p in (a, b)]
    assert pages[0] == pages[1] and [x["seq"] for x in pages[0]["lines"]] == [0, 1]
