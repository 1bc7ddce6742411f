"""Load benchmark of the web server: many games played over WebSockets at once.

Why: the server must stay responsive with many tables live. This starts a local server
(``flamecraft serve`` on a free loopback port, a fresh SQLite file unless ``--database`` names
another database) or uses ``--url``, then plays ``--games`` games, ``--concurrency`` at a time.
Every seat is a client-side random bot on its own WebSocket, acting like a browser: it answers
the newest state with an ``act`` message. The latency of an action is the time from sending
it to receiving the state it produced; games per minute count whole games.

    python bench/ws_load.py                              # 40 games of 3, 8 at a time
    python bench/ws_load.py --games 100 --concurrency 20 --players 4
    python bench/ws_load.py --database postgresql://localhost/flamecraft
    python bench/ws_load.py --url http://127.0.0.1:8000  # a server already running

Scenarios (``--scenario``; issue 12):

    games        the above (the default)
    starvation   ``--heavy`` games of 5 ``--heavy-bot`` bots (4 of ismcts) run while one
                 person plays a ``greedy`` bot: the greedy bot's reply time (from the state
                 that asks it to move to the state with its move) is what is measured
    spectators   one game of 2 people watched by ``--spectators`` spectators (200): the
                 action latency of the players, and how many spectators were let in

    live         ``--games`` (200) games live at once for ``--seconds``, as people play
                 them (issue 23): a quarter each of one person against a greedy bot, the
                 same with a real-time clock, two people with a real-time clock, two people
                 turn-based; each person thinks 0.5–3 s, listens to presence as a browser
                 does, and acts; the server's bots pause 0.4 s as by default. Measured: the
                 latency of each person's move, and each two-person real-time clock's drift
                 — the time its seats were charged against the wall-clock time that passed
                 between two readings (a tenth of the way and at the end, from presence
                 messages); one of them is always on the clock and there is no increment,
                 so they must agree

Attacks (issue 24): a victim game of two people, played by the bench as quickly as it
answers, for ``--seconds`` alone and as long again while one address attacks; measured: the
victim's move latency (send → new state) and the server's resident memory (peak, sampled),
idle and under attack. The server keeps its default message rate limits here.

    big-headers  ``--attackers`` (8) connections each streaming an endless header (up to 40 MB
                 each, reconnecting when closed), and as many sending a request a byte every
                 second (slowloris)
    oversized    ``--attackers`` (4) WebSocket connections sending 60 KB messages as fast as
                 they can (reconnecting when closed)

Compute attacks (issue 24 items 1-3): the victim is a person against a ``planner`` bot (the
person answers at once, from an address of its own, 127.0.0.2; the attack runs in a process
of its own, from 127.0.0.1), and what is measured is the bot's reply (the state asking it to
move → the state with its move) and the person's move, idle and under attack, with the
server's memory (and its worker processes' together).

    review-flood ``--attackers`` (4) clients each, over ``--finished`` (15) finished games:
                 a spectator's socket opened and closed, then the game's review asked for
                 with a 0.5 s client timeout, again and again
    replay-flood ``--attackers`` (4) clients asking for ``--finished`` (300, written into
                 the database before the server starts) finished games' entries and a few
                 replay steps each, again and again
    bot-flood    one client creating games of five ``ismcts`` bots, ``--attackers`` (12) of
                 them, under the default creation limit (30 a minute)

    python bench/ws_load.py --scenario starvation --seconds 60
    python bench/ws_load.py --scenario big-headers --seconds 30
    python bench/ws_load.py --scenario oversized --seconds 30
    python bench/ws_load.py --scenario review-flood --seconds 30
    python bench/ws_load.py --scenario replay-flood --seconds 30
    python bench/ws_load.py --scenario bot-flood --seconds 30
    python bench/ws_load.py --scenario spectators --spectators 200
    python bench/ws_load.py --scenario live --games 200 --seconds 120
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


@dataclass
class Totals:
    """What the run measured."""

    latencies: list[float] = field(default_factory=list)  # seconds per action
    games: int = 0
    actions: int = 0
    retries: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(database: str | None, workdir: Path, bot_delay: float = 0.0,
                 message_limits: bool = False, creation_limit: bool = False
                 ) -> tuple[subprocess.Popen[bytes], str]:
    """A local ``flamecraft serve`` whose clients are not slowed down (nor its bots, unless
    ``bot_delay`` says; nor their messages, unless ``message_limits``: the defaults; nor
    their new games, unless ``creation_limit``)."""
    port = free_port()
    db = database or f"sqlite:///{workdir / 'bench.sqlite3'}"
    env = {**os.environ, "FLAMECRAFT_BOT_DELAY": str(bot_delay),
           "FLAMECRAFT_CONNECTIONS_PER_ADDRESS": "100000"}  # every client is on 127.0.0.1
    if not creation_limit:
        env["FLAMECRAFT_GAMES_PER_MINUTE"] = "100000"
    if not message_limits:
        env["FLAMECRAFT_MESSAGES_PER_SECOND"] = "100000"
    with open(workdir / "server.log", "wb") as log:  # the child keeps its own handle
        proc = subprocess.Popen(
            [sys.executable, "-c", "import sys; from flamecraft.cli.main import main; "
             "sys.exit(main(sys.argv[1:]))", "serve", "--port", str(port), "--database", db],
            env=env, stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit((workdir / "server.log").read_text())
        try:
            httpx.get(base + "/api/health", timeout=1).raise_for_status()
            return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


async def play_seat(conn: ClientConnection, rng: random.Random, totals: Totals) -> None:
    """One seat: answers each newest state that asks it to choose; times each answer."""
    acted, sent_at = -1, 0.0
    pending: dict[str, object] | None = None
    async for raw in conn:
        msg = json.loads(raw)
        if msg["type"] == "error":
            if msg["code"] == "rate_limited" and pending is not None:
                totals.retries += 1
                await asyncio.sleep(1.0)
                sent_at = time.perf_counter()
                await conn.send(json.dumps(pending))
            continue
        if msg["type"] != "state":
            continue
        if pending is not None and msg["version"] > acted:
            totals.latencies.append(time.perf_counter() - sent_at)
            totals.actions += 1
            pending = None
        if msg["status"] == "finished":
            return
        if msg["legal"] and msg["version"] > acted and pending is None:
            acted = msg["version"]
            pending = {"type": "act", "version": acted,
                       "index": rng.randrange(len(msg["legal"]))}
            sent_at = time.perf_counter()
            await conn.send(json.dumps(pending))


async def play_game(http: httpx.AsyncClient, ws_base: str, players: int, number: int,
                    totals: Totals) -> None:
    seats = [{"kind": "human", "name": f"Seat {i + 1}"} for i in range(players)]
    body: dict[str, object] = {"seats": seats, "start": True, "name": f"bench {number}"}
    if players == 1:  # a chosen seed is only for games of at most one person (issue 12)
        body["seed"] = number
    r = await http.post("/api/games", json=body)
    r.raise_for_status()
    game = r.json()
    conns = [await connect(f"{ws_base}/ws/games/{game['game_id']}?seat={s['seat']}"
                           f"&token={s['token']}", max_size=2**22) for s in game["seats"]]
    try:
        await asyncio.gather(*(play_seat(c, random.Random(f"{number}:{i}"), totals)
                               for i, c in enumerate(conns)))
    finally:
        for c in conns:
            await c.close()
    totals.games += 1


async def run(base: str, games: int, concurrency: int, players: int) -> tuple[Totals, float]:
    totals = Totals()
    ws_base = "ws" + base[len("http"):]
    queue: asyncio.Queue[int] = asyncio.Queue()
    for number in range(games):
        queue.put_nowait(number)

    async def worker(http: httpx.AsyncClient) -> None:
        while not queue.empty():
            await play_game(http, ws_base, players, queue.get_nowait(), totals)

    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        started = time.perf_counter()
        await asyncio.gather(*(worker(http) for _ in range(concurrency)))
        return totals, time.perf_counter() - started


async def probe_greedy(http: httpx.AsyncClient, ws_base: str, seconds: float,
                       replies: list[float]) -> None:
    """One person against a greedy bot, played at once, game after game, for ``seconds``:
    times every bot decision from the state asking for it to the state holding it."""
    rng = random.Random(7)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        r = await http.post("/api/games", json={"seats": [{"kind": "human"}, {
            "kind": "bot", "bot": "greedy"}], "start": True, "name": "probe"})
        r.raise_for_status()
        game = r.json()
        token = game["seats"][0]["token"]
        async with connect(f"{ws_base}/ws/games/{game['game_id']}?seat=0&token={token}",
                           max_size=2**22) as conn:
            asked, acted = 0.0, -1
            async for raw in conn:
                msg = json.loads(raw)
                if msg["type"] != "state":
                    continue
                now = time.perf_counter()
                if msg["status"] == "finished" or now > deadline:
                    break
                if asked and msg["log"] and msg["log"][-1]["player"] == 1:
                    replies.append(now - asked)
                asked = 0.0
                if msg["view"]["to_act"] == 1:
                    asked = now  # the bot is asked to move by this state
                elif msg["legal"] and msg["version"] > acted:
                    acted = msg["version"]
                    await conn.send(json.dumps({"type": "act", "version": acted,
                                                "index": rng.randrange(len(msg["legal"]))}))


async def run_starvation(base: str, heavy: int, heavy_bot: str, seconds: float
                         ) -> tuple[list[float], float]:
    ws_base = "ws" + base[len("http"):]
    replies: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for _ in range(heavy):
            r = await http.post("/api/games", json={"seats": [{"kind": "bot",
                                                               "bot": heavy_bot}] * 5})
            r.raise_for_status()
        await asyncio.sleep(2.0)  # the heavy bots are thinking
        started = time.perf_counter()
        await probe_greedy(http, ws_base, seconds, replies)
        return replies, time.perf_counter() - started


async def run_spectators(base: str, spectators: int, games: int) -> tuple[Totals, int, int]:
    """Plays ``games`` games of 2 people one after another, each watched by ``spectators``
    connections (or as many as the server lets in); returns the totals, and how many
    spectators were let in and turned away (of the last game)."""
    ws_base = "ws" + base[len("http"):]
    totals = Totals()
    admitted = refused = 0
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for number in range(games):
            r = await http.post("/api/games", json={"seats": [{"kind": "human"}] * 2,
                                                    "start": True, "name": f"watched {number}"})
            r.raise_for_status()
            game = r.json()
            watchers: list[ClientConnection] = []
            admitted = refused = 0
            for _ in range(spectators):
                conn = await connect(f"{ws_base}/ws/games/{game['game_id']}", max_size=2**22)
                first = json.loads(await conn.recv())
                if first["type"] == "error":
                    refused += 1
                    await conn.close()
                else:
                    admitted += 1
                    watchers.append(conn)
            drains = [asyncio.create_task(_drain(c)) for c in watchers]
            seats = [await connect(f"{ws_base}/ws/games/{game['game_id']}?seat={s['seat']}"
                                   f"&token={s['token']}", max_size=2**22)
                     for s in game["seats"]]
            try:
                await asyncio.gather(*(play_seat(c, random.Random(f"{number}:{i}"), totals)
                                       for i, c in enumerate(seats)))
            finally:
                for c in [*seats, *watchers]:
                    await c.close()
                for d in drains:
                    d.cancel()
            totals.games += 1
    return totals, admitted, refused


LIVE_KINDS = ("bot", "bot+clock", "people+clock", "people+turn")
LIVE_BANK = 3600.0  # a real-time bank no test run spends: the clock never runs out


@dataclass
class LiveGame:
    """One game of the live scenario: its kind, id, and when it was created (wall clock)."""

    kind: str
    game: dict[str, object]
    created: float


async def live_person(conn: ClientConnection, rng: random.Random, totals: Totals,
                      until: float) -> bool:
    """A person at a table until ``until`` (monotonic) or the game's end (True): says the
    tab is shown (so it hears presence, as a browser), thinks 0.5–3 s at each of its
    decisions, then acts."""
    await conn.send(json.dumps({"type": "presence", "hidden": False}))
    acted, sent_at, pending = -1, 0.0, False
    latest: dict[str, object] | None = None
    think: asyncio.Task[None] | None = None

    async def act_later(msg: dict[str, object]) -> None:
        nonlocal acted, sent_at, pending
        await asyncio.sleep(rng.uniform(0.5, 3.0))
        if latest is not msg:
            return
        acted = int(str(msg["version"]))
        legal = msg["legal"]
        assert isinstance(legal, list)
        pending, sent_at = True, time.perf_counter()
        await conn.send(json.dumps({"type": "act", "version": acted,
                                    "index": rng.randrange(len(legal))}))

    try:
        while time.monotonic() < until:
            try:
                raw = await asyncio.wait_for(conn.recv(),
                                             timeout=max(0.1, until - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] != "state":
                continue
            if pending and msg["version"] > acted:
                totals.latencies.append(time.perf_counter() - sent_at)
                totals.actions += 1
                pending = False
            if msg["status"] == "finished":
                return True
            latest = msg
            if msg["legal"] and msg["version"] > acted and not pending:
                think = asyncio.create_task(act_later(msg))
    finally:
        if think is not None:
            think.cancel()
    return False


async def charged(ws_base: str, game: LiveGame) -> tuple[float, float] | None:
    """A real-time game's charged time (the seconds its seats' banks have lost), by a
    presence message asked for now, and the wall-clock time it arrived."""
    async with connect(f"{ws_base}/ws/games/{game.game['game_id']}", max_size=2**22) as conn:
        await conn.send(json.dumps({"type": "presence", "hidden": False}))
        while True:
            msg = json.loads(await asyncio.wait_for(conn.recv(), timeout=10))
            if msg["type"] == "presence":
                now = time.time()
                clock = msg.get("clock")
                if not clock:
                    return None
                return sum(LIVE_BANK - left for left in clock["left"] if left is not None), now


async def live_slot(http: httpx.AsyncClient, ws_base: str, number: int, until: float,
                    totals: Totals, current: dict[int, LiveGame]) -> LiveGame | None:
    """One of the live games, kept live until ``until``: a game that ends is followed by a
    new one of the same kind. Returns the last one if it is still running at the end."""
    kind = LIVE_KINDS[number % len(LIVE_KINDS)]
    people = 1 if kind.startswith("bot") else 2
    seats: list[dict[str, object]] = [{"kind": "human"}] * people
    if people == 1:
        seats = [*seats, {"kind": "bot", "bot": "greedy"}]
    body: dict[str, object] = {"seats": seats, "start": True, "name": f"live {number}"}
    if kind.endswith("+clock"):
        body["clock"] = {"kind": "realtime", "bank": LIVE_BANK, "increment": 0}
    elif kind.endswith("+turn"):
        body["clock"] = {"kind": "turn", "per_move": 86400}
    rounds = 0
    while time.monotonic() < until:
        created = time.time()
        r = await http.post("/api/games", json=body)
        r.raise_for_status()
        game = LiveGame(kind, r.json(), created)
        current[number] = game
        conns = [await connect(f"{ws_base}/ws/games/{game.game['game_id']}?seat={s['seat']}"
                               f"&token={s['token']}", max_size=2**22)
                 for s in game.game["seats"] if s["token"]]  # type: ignore[attr-defined]
        try:
            ended = await asyncio.gather(*(live_person(
                c, random.Random(f"live:{number}:{rounds}:{i}"), totals, until)
                for i, c in enumerate(conns)))
        finally:
            for c in conns:
                await c.close()
        rounds += 1
        if not any(ended):
            return game  # still running when the time was up
        totals.games += 1
    return None


async def run_live(base: str, games: int, seconds: float) -> tuple[Totals, list[float], int]:
    """The live scenario: returns the totals, each real-time game's drift, and how many
    games were live at once."""
    ws_base = "ws" + base[len("http"):]
    totals = Totals()
    current: dict[int, LiveGame] = {}
    first: dict[str, tuple[float, float]] = {}  # game id: charged, when (a tenth of the way)

    async def look_early() -> None:
        await asyncio.sleep(seconds / 10)
        for g in list(current.values()):
            if g.kind == "people+clock" and (read := await charged(ws_base, g)) is not None:
                first[str(g.game["game_id"])] = read

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        until = time.monotonic() + seconds
        early = asyncio.create_task(look_early())
        last = await asyncio.gather(*(live_slot(http, ws_base, number, until, totals, current)
                                      for number in range(games)))
        await early
    # Two people: one of them is always on the clock, so between two readings its seats are
    # charged exactly the wall-clock time that passed (read twice, so the time the game took
    # to be created under load does not count).
    drifts = []
    for g in last:
        before = first.get(str(g.game["game_id"])) if g is not None else None
        if g is None or before is None:
            continue
        after = await charged(ws_base, g)
        if after is not None:
            drifts.append((after[0] - before[0]) - (after[1] - before[1]))
    return totals, drifts, games


def rss_kib(pid: int | None) -> int | None:
    """A process's resident memory now (VmRSS), in KiB; None when it is not local."""
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


@dataclass
class Phase:
    """One phase of an attack scenario: the victim's move latencies, the server's peak
    memory, and what the attack did."""

    latencies: list[float] = field(default_factory=list)
    peak_kib: int | None = None
    sent: int = 0  # bytes or messages the attackers sent
    closed: int = 0  # attacking connections the server closed


async def _victim(http: httpx.AsyncClient, ws_base: str, until: float, phase: Phase) -> None:
    """Games of two people played by the bench one after another until ``until``: each
    move's latency (send → the state it made) goes in ``phase``."""
    totals = Totals()
    number = 0
    while time.monotonic() < until:
        r = await http.post("/api/games", json={"seats": [{"kind": "human"}] * 2,
                                                "start": True, "name": f"victim {number}"})
        r.raise_for_status()
        game = r.json()
        conns = [await connect(f"{ws_base}/ws/games/{game['game_id']}?seat={s['seat']}"
                               f"&token={s['token']}", max_size=2**22) for s in game["seats"]]

        async def seat(c: ClientConnection, name: str) -> None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(play_seat(c, random.Random(name), totals),
                                       max(0.1, until - time.monotonic()))

        try:
            await asyncio.gather(*(seat(c, f"v{number}:{i}") for i, c in enumerate(conns)))
        finally:
            for c in conns:
                await c.close()
        number += 1
    phase.latencies.extend(totals.latencies)


async def _sample_memory(pid: int | None, until: float, phase: Phase) -> None:
    while time.monotonic() < until:
        now = rss_kib(pid)
        if now is not None:
            phase.peak_kib = max(phase.peak_kib or 0, now)
        await asyncio.sleep(0.2)


async def _endless_header(host: str, port: int, until: float, phase: Phase) -> None:
    """A connection streaming a header that never ends (40 MB at most), again when closed."""
    chunk = b"a" * 65536
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        try:
            writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\nAccept-Language: ")
            for _ in range(640):
                if time.monotonic() >= until:
                    break
                if reader.at_eof() or writer.is_closing():  # answered and closed
                    raise ConnectionResetError
                writer.write(chunk)
                await asyncio.wait_for(writer.drain(), 5)
                phase.sent += len(chunk)
        except (OSError, TimeoutError):
            phase.closed += 1
        finally:
            writer.close()


async def _slowloris(host: str, port: int, until: float, phase: Phase) -> None:
    """A connection sending its request a byte a second, again when closed."""
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        try:
            writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
            while time.monotonic() < until:
                await asyncio.sleep(1.0)
                writer.write(b"X")
                await writer.drain()
                if reader.at_eof():
                    raise ConnectionResetError
        except OSError:
            phase.closed += 1
        finally:
            writer.close()


async def _oversized(ws_base: str, game_id: str, until: float, phase: Phase) -> None:
    """A spectator connection sending 60 KB messages as fast as it can, again when closed."""
    message = "x" * 60000
    while time.monotonic() < until:
        try:
            async with connect(f"{ws_base}/ws/games/{game_id}", max_size=2**22) as conn:
                drain = asyncio.create_task(_drain(conn))
                try:
                    while time.monotonic() < until:
                        await conn.send(message)
                        phase.sent += 1
                        await asyncio.sleep(0)  # let its reader see a close
                finally:
                    drain.cancel()
        except Exception:  # closed by the server (1008): connect again
            phase.closed += 1


async def run_attack(base: str, scenario: str, attackers: int, seconds: float,
                     pid: int | None) -> tuple[Phase, Phase]:
    """The victim alone for ``seconds``, then as long again under the attack."""
    ws_base = "ws" + base[len("http"):]
    host, port = base.split("//", 1)[1].rsplit(":", 1)
    idle, attacked = Phase(), Phase()
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        until = time.monotonic() + seconds
        await asyncio.gather(_victim(http, ws_base, until, idle),
                             _sample_memory(pid, until, idle))
        target = (await http.post("/api/games", json={"seats": [{"kind": "human"}, {
            "kind": "bot", "bot": "random"}], "name": "target"})).json()["game_id"]
        until = time.monotonic() + seconds
        attacks = []
        for _ in range(attackers):
            if scenario == "big-headers":
                attacks += [_endless_header(host, int(port), until, attacked),
                            _slowloris(host, int(port), until, attacked)]
            else:
                attacks.append(_oversized(ws_base, target, until, attacked))
        await asyncio.sleep(1.0)  # the attack is under way
        await asyncio.gather(_victim(http, ws_base, until, attacked),
                             _sample_memory(pid, until, attacked), *attacks)
    return idle, attacked


# ---------------------------------------------------------------- compute attacks (issue 24)


@dataclass
class Compute(Phase):
    """A compute attack's phase: also the planner's replies and what the attack was told."""

    replies: list[float] = field(default_factory=list)
    children_peak_kib: int | None = None
    answers: dict[str, int] = field(default_factory=dict)  # status (or "timeout") → count

    def told(self, what: str) -> None:
        self.answers[what] = self.answers.get(what, 0) + 1


def children_kib(pid: int | None) -> int | None:
    """The resident memory of a process's children (its worker processes), in KiB."""
    if pid is None:
        return None
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    return sum(rss_kib(int(k)) or 0 for k in kids)


async def _sample_all(pid: int | None, until: float, phase: Compute) -> None:
    while time.monotonic() < until:
        now, kids = rss_kib(pid), children_kib(pid)
        if now is not None:
            phase.peak_kib = max(phase.peak_kib or 0, now)
        if kids is not None:
            phase.children_peak_kib = max(phase.children_peak_kib or 0, kids)
        await asyncio.sleep(0.2)


VICTIM_ADDRESS = "127.0.0.2"  # the victim's own address (the attack comes from 127.0.0.1)


async def _planner_victim(http: httpx.AsyncClient, ws_base: str, until: float,
                          phase: Compute) -> None:
    """Games of a person against a planner, one after another until ``until``: the bot's
    replies and the person's moves (send → the state with the move) go in ``phase``. The
    person connects from another address than the attack's (``VICTIM_ADDRESS``, a loopback
    address of its own), as another visitor would, so no per-address limit mixes them."""
    rng = random.Random(11)
    while time.monotonic() < until:
        r = await http.post("/api/games", json={"seats": [{"kind": "human"}, {
            "kind": "bot", "bot": "planner"}], "start": True, "name": "victim"})
        r.raise_for_status()
        game = r.json()
        token = game["seats"][0]["token"]
        async with connect(f"{ws_base}/ws/games/{game['game_id']}?seat=0&token={token}",
                           max_size=2**22, local_addr=(VICTIM_ADDRESS, 0)) as conn:
            asked, acted, sent = 0.0, -1, 0.0
            while time.monotonic() < until:
                try:
                    raw = await asyncio.wait_for(conn.recv(), until - time.monotonic())
                except TimeoutError:
                    break
                msg = json.loads(raw)
                if msg["type"] != "state":
                    continue
                now = time.perf_counter()
                if sent and msg["version"] > acted:
                    phase.latencies.append(now - sent)
                    sent = 0.0
                if msg["status"] == "finished":
                    break
                if asked and msg["log"] and msg["log"][-1]["player"] == 1:
                    phase.replies.append(now - asked)
                asked = 0.0
                if msg["view"]["to_act"] == 1:
                    asked = now  # the bot is asked to move by this state
                elif msg["legal"] and msg["version"] > acted:
                    acted = msg["version"]
                    sent = time.perf_counter()
                    await conn.send(json.dumps({"type": "act", "version": acted,
                                                "index": rng.randrange(len(msg["legal"]))}))


async def _finish_bot_games(http: httpx.AsyncClient, count: int) -> list[str]:
    """``count`` games of two random bots played to their end (two at a time)."""
    done: list[str] = []

    async def one() -> None:
        while len(done) < count:
            r = await http.post("/api/games", json={"seats": [{"kind": "bot", "bot": "random"}]
                                                    * 2, "name": "finished"})
            if r.status_code != 201:
                await asyncio.sleep(0.5)
                continue
            game_id = r.json()["game_id"]
            while (await http.get(f"/api/games/{game_id}")).json()["status"] != "finished":
                await asyncio.sleep(0.2)
            done.append(game_id)

    await asyncio.gather(one(), one())
    return done[:count]


def write_finished_games(database: str, count: int, players: int = 3) -> list[str]:
    """``count`` finished games of random moves written straight into a fresh database (the
    replay flood's targets: as many as a server holds after a while)."""
    from flamecraft import apply, legal_actions, text
    from flamecraft.core.engine import to_act
    from flamecraft.core.serialize import CARD_NAMES, start_to_json
    from flamecraft.core.setup_game import seeded_start
    from flamecraft.core.state import Options
    from flamecraft.core.upgrade import DECISION_RULES
    from flamecraft.server.store import ActionRow, GameRow, SeatRow, open_store
    from flamecraft.server.table import Table

    store = open_store(database)
    ids = []
    try:
        for seed in range(count):
            options = Options(players, "purple", tuple(f"P{i}" for i in range(players)),
                              False, None)
            row = GameRow(f"flood{seed:07d}", "flood", options, seed,
                          [SeatRow(f"P{i}", "bot", "random") for i in range(players)],
                          status="finished", version=0)
            row.setup = {"deal": start_to_json(seeded_start(options, seed)),
                         "names": CARD_NAMES, "rules": DECISION_RULES}
            s = Table(row).state
            assert s is not None
            rng = random.Random(seed)
            actions: list[ActionRow] = []
            while not s.over:
                a = rng.choice(legal_actions(s))
                actions.append(ActionRow(len(actions), to_act(s), text(s, a), 1))
                s = apply(s, a)
            row.result = {"reputation": s.rep[:], "winners": [], "turns": s.turn}
            store.create_game(row)
            row.version = 1
            assert store.append_actions(row, 0, actions)
            ids.append(row.id)
    finally:
        store.close()
    return ids


async def _review_flood(http: httpx.AsyncClient, ws_base: str, games: list[str], until: float,
                        phase: Compute, number: int) -> None:
    rng = random.Random(number)
    while time.monotonic() < until:
        game_id = rng.choice(games)
        with contextlib.suppress(Exception):
            async with connect(f"{ws_base}/ws/games/{game_id}", max_size=2**22) as conn:
                await conn.recv()
        try:
            r = await http.get(f"/api/games/{game_id}/review", timeout=0.5)
            phase.told(str(r.status_code))
        except httpx.TimeoutException:
            phase.told("timeout")
        except httpx.HTTPError:
            phase.told("error")
        phase.sent += 1


async def _replay_flood(http: httpx.AsyncClient, games: list[str], until: float,
                        phase: Compute, number: int) -> None:
    rng = random.Random(number)
    while time.monotonic() < until:
        game_id = rng.choice(games)
        try:
            r = await http.get(f"/api/games/{game_id}")
            phase.told(str(r.status_code))
            phase.sent += 1
            steps = r.json().get("step", 0) if r.status_code == 200 else 0
            for _ in range(3):
                if time.monotonic() >= until or not steps:
                    break
                r = await http.get(f"/api/games/{game_id}/replay/{rng.randrange(steps + 1)}")
                phase.told(str(r.status_code))
                phase.sent += 1
        except httpx.HTTPError:
            phase.told("error")


async def _bot_flood(http: httpx.AsyncClient, count: int, until: float,
                     phase: Compute) -> None:
    """Games of five ismcts bots, ``count`` of them made (each refusal waited out)."""
    made = 0
    while made < count and time.monotonic() < until:
        r = await http.post("/api/games", json={"seats": [{"kind": "bot", "bot": "ismcts"}] * 5,
                                                "name": "flood"})
        phase.told(str(r.status_code))
        phase.sent += 1
        if r.status_code == 201:
            made += 1
            await asyncio.sleep(2.1)  # under 30 a minute
        else:
            await asyncio.sleep(min(5.0, float(r.headers.get("retry-after", "2"))))


def _attack_process(base: str, scenario: str, attackers: int, seconds: float,
                    targets: list[str], out: Any) -> None:
    """The attack, in a process of its own (so the victim's timings never wait for the
    attackers' work in the bench's own event loop): says "ready", attacks for ``seconds``,
    then puts what it sent and what it was told."""
    async def attack() -> tuple[int, dict[str, int]]:
        ws_base = "ws" + base[len("http"):]
        phase = Compute()
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            out.put("ready")
            until = time.monotonic() + seconds
            if scenario == "review-flood":
                attacks = [_review_flood(http, ws_base, targets, until, phase, k)
                           for k in range(attackers)]
            elif scenario == "replay-flood":
                attacks = [_replay_flood(http, targets, until, phase, k)
                           for k in range(attackers)]
            else:
                attacks = [_bot_flood(http, attackers, until, phase)]
            await asyncio.gather(*attacks)
        return phase.sent, phase.answers

    out.put(asyncio.run(attack()))


async def run_compute_attack(base: str, scenario: str, attackers: int, seconds: float,
                             pid: int | None, finished: list[str] | None,
                             finished_count: int = 15) -> tuple[Compute, Compute, list[str]]:
    """The planner victim alone for ``seconds``, then as long again under the attack (made
    by another process)."""
    import multiprocessing

    ws_base = "ws" + base[len("http"):]
    idle, attacked = Compute(), Compute()
    victim = httpx.AsyncClient(base_url=base, timeout=60, transport=httpx.AsyncHTTPTransport(
        local_address=VICTIM_ADDRESS))
    async with httpx.AsyncClient(base_url=base, timeout=60) as http, victim:
        targets = finished or []
        if scenario == "review-flood" and not targets:
            targets = await _finish_bot_games(http, finished_count)
        until = time.monotonic() + seconds
        await asyncio.gather(_planner_victim(victim, ws_base, until, idle),
                             _sample_all(pid, until, idle))
        context = multiprocessing.get_context("spawn")
        out = context.Queue()
        attack = context.Process(target=_attack_process, args=(
            base, scenario, attackers, seconds + 1.0, targets, out))
        attack.start()
        loop = asyncio.get_running_loop()
        assert await loop.run_in_executor(None, out.get) == "ready"
        await asyncio.sleep(0.5)  # the attack is under way
        until = time.monotonic() + seconds
        await asyncio.gather(_planner_victim(victim, ws_base, until, attacked),
                             _sample_all(pid, until, attacked))
        attacked.sent, attacked.answers = await loop.run_in_executor(None, out.get)
        attack.join(30)
    return idle, attacked, targets


async def _drain(conn: ClientConnection) -> None:
    """A spectator: reads every state (a browser renders each)."""
    try:
        async for _ in conn:
            pass
    except Exception:
        return


def latency_line(what: str, values_s: Sequence[float]) -> str:
    lat = [x * 1000 for x in values_s]
    if not lat:
        return f"  {what}: none measured"
    return (f"  {what} ({len(lat)}): p50 {statistics.median(lat):.1f} ms, "
            f"p90 {percentile(lat, 0.9):.1f} ms, p99 {percentile(lat, 0.99):.1f} ms, "
            f"max {max(lat):.1f} ms")


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games to play (default 40)")
    parser.add_argument("--concurrency", type=int, default=8,
                        help="games played at the same time (default 8)")
    parser.add_argument("--players", type=int, default=3, choices=range(1, 6),
                        help="seats per game (default 3)")
    parser.add_argument("--url", help="a running server (default: start a local one)")
    parser.add_argument("--database", help="the local server's database (default: a fresh "
                        "SQLite file)")
    parser.add_argument("--scenario", choices=("games", "starvation", "spectators", "live",
                                               "big-headers", "oversized", "review-flood",
                                               "replay-flood", "bot-flood"),
                        default="games", help="what to measure (default: games)")
    parser.add_argument("--attackers", type=int, default=None,
                        help="big-headers, oversized, review-flood, replay-flood: attacking "
                        "connections (8, 4, 4, 4); bot-flood: games made (12)")
    parser.add_argument("--finished", type=int, default=None,
                        help="review-flood, replay-flood: finished games attacked (15, 300)")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="starvation: how long the greedy bot is timed (default 60)")
    parser.add_argument("--heavy", type=int, default=4,
                        help="starvation: games of 5 heavy bots running (default 4)")
    parser.add_argument("--heavy-bot", default="ismcts",
                        help="starvation: the heavy bot (default ismcts)")
    parser.add_argument("--spectators", type=int, default=200,
                        help="spectators: connections watching each game (default 200)")
    parser.add_argument("--watched-games", type=int, default=3,
                        help="spectators: games played one after another (default 3)")
    args = parser.parse_args(argv)
    where = args.url or ("PostgreSQL" if args.database and args.database.startswith("postgres")
                         else "local server, SQLite")
    head = f"Python {platform.python_version()}, {os.cpu_count()} CPUs"
    with tempfile.TemporaryDirectory() as tmp:
        proc = None
        base = args.url
        attack = args.scenario in ("big-headers", "oversized")
        compute = args.scenario in ("review-flood", "replay-flood", "bot-flood")
        finished = None
        if base is None and args.scenario == "replay-flood":
            db = args.database or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
            finished = write_finished_games(db, args.finished or 300)
        if base is None:
            proc, base = start_server(args.database, Path(tmp),
                                      0.4 if args.scenario == "live" else 0.0,
                                      message_limits=attack or compute,
                                      creation_limit=args.scenario == "bot-flood")
        try:
            if compute:
                attackers = args.attackers or (12 if args.scenario == "bot-flood" else 4)
                idle2, attacked2, targets = asyncio.run(run_compute_attack(
                    base.rstrip("/"), args.scenario, attackers, args.seconds,
                    proc.pid if proc is not None else None, finished, args.finished or 15))
                what = {"review-flood": f"{attackers} clients flooded {len(targets)} finished "
                                        "games' reviews (a socket opened and closed, then "
                                        "the review with a 0.5 s timeout)",
                        "replay-flood": f"{attackers} clients flooded {len(targets)} finished "
                                        "games' entries and replay steps",
                        "bot-flood": f"one client made up to {attackers} games of five "
                                     "ismcts bots"}[args.scenario]
                print(f"flamecraft ws_load --scenario {args.scenario}: a person against a "
                      f"planner, {args.seconds:.0f} s alone, then {args.seconds:.0f} s while "
                      f"{what}; {where}; {head}")
                for name, ph in (("idle", idle2), ("under attack", attacked2)):
                    memory = "?" if ph.peak_kib is None else f"{ph.peak_kib / 1024:.0f} MB"
                    workers = ("?" if ph.children_peak_kib is None
                               else f"{ph.children_peak_kib / 1024:.0f} MB")
                    print(latency_line(f"{name}: the planner's reply", ph.replies))
                    print(latency_line(f"{name}: a person's move", ph.latencies)
                          + f"; server memory (peak RSS) {memory}, its workers' {workers}")
                told = ", ".join(f"{k}: {v}" for k, v in sorted(attacked2.answers.items()))
                print(f"  the attack made {attacked2.sent} requests; answers: {told}")
                return 0
            if attack:
                attackers = args.attackers or (8 if args.scenario == "big-headers" else 4)
                idle, attacked = asyncio.run(run_attack(
                    base.rstrip("/"), args.scenario, attackers, args.seconds,
                    proc.pid if proc is not None else None))
                what = ("connections streaming an endless header, and as many slowloris"
                        if args.scenario == "big-headers" else
                        "WebSocket connections sending 60 KB messages")
                print(f"flamecraft ws_load --scenario {args.scenario}: a game of two people "
                      f"played {args.seconds:.0f} s alone, then {args.seconds:.0f} s while "
                      f"{attackers} {what}; {where}; {head}")
                for name, phase in (("idle", idle), ("under attack", attacked)):
                    memory = ("?" if phase.peak_kib is None
                              else f"{phase.peak_kib / 1024:.0f} MB")
                    print(latency_line(f"{name}: a person's move", phase.latencies)
                          + f"; server memory (peak RSS) {memory}")
                unit = "bytes" if args.scenario == "big-headers" else "messages"
                print(f"  the attack sent {attacked.sent} {unit}; the server closed "
                      f"{attacked.closed} of its connections")
                return 0
            if args.scenario == "live":
                totals, drifts, live = asyncio.run(run_live(base.rstrip("/"), args.games,
                                                            args.seconds))
                print(f"flamecraft ws_load --scenario live: {live} games live for "
                      f"{args.seconds:.0f} s (a quarter each: person vs greedy, the same with a "
                      f"real-time clock, two people real-time, two people turn-based), people "
                      f"thinking 0.5–3 s, bots pausing 0.4 s; {where}; {head}")
                print(latency_line("a person's move (send → new state)", totals.latencies))
                if drifts:
                    worst = max(abs(d) for d in drifts)
                    print(f"  real-time clocks ({len(drifts)}): time charged − wall-clock time "
                          f"between a reading at {args.seconds / 10:.0f} s and one at the end: "
                          f"median {statistics.median(drifts):+.3f} s, worst {worst:.3f} s "
                          f"(the presence message rounds each bank to 0.01 s)")
                print(f"  {totals.games} games finished meanwhile (each followed by a new one "
                      f"of its kind, so {live} stay live)")
                return 0
            if args.scenario == "starvation":
                replies, elapsed = asyncio.run(run_starvation(
                    base.rstrip("/"), args.heavy, args.heavy_bot, args.seconds))
                print(f"flamecraft ws_load --scenario starvation: {args.heavy} games of 5 "
                      f"{args.heavy_bot} bots running, one person against greedy for "
                      f"{elapsed:.0f} s; {where}; {head}")
                print(latency_line("greedy bot reply", replies))
                return 0
            if args.scenario == "spectators":
                totals, admitted, refused = asyncio.run(run_spectators(
                    base.rstrip("/"), args.spectators, max(1, args.watched_games)))
                print(f"flamecraft ws_load --scenario spectators: {totals.games} game(s) of 2 "
                      f"people, {args.spectators} spectators asked to watch ({admitted} let in, "
                      f"{refused} turned away); {where}; {head}")
                print(latency_line("action latency (send → new state)", totals.latencies))
                return 0
            totals, elapsed = asyncio.run(run(base.rstrip("/"), args.games, args.concurrency,
                                              args.players))
        finally:
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:  # (a worker job it waits for: stop it)
                    proc.kill()
                    proc.wait(10)
    lat = [x * 1000 for x in totals.latencies]
    print(f"flamecraft ws_load: {totals.games} games of {args.players}, {args.concurrency} at a "
          f"time, {where}; {head}")
    print(f"  {totals.actions} actions in {elapsed:.1f} s: {totals.actions / elapsed:.0f} "
          f"actions/s, {totals.games / elapsed * 60:.1f} games per minute")
    if lat:
        print(f"  action latency (send → new state): p50 {statistics.median(lat):.1f} ms, "
              f"p90 {percentile(lat, 0.9):.1f} ms, p99 {percentile(lat, 0.99):.1f} ms, "
              f"max {max(lat):.1f} ms")
    if totals.retries:
        print(f"  {totals.retries} actions were rate-limited and sent again")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
