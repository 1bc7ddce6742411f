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
"""

from __future__ import annotations

import argparse
import asyncio
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


def start_server(database: str | None, workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A local ``flamecraft serve`` whose bots and clients are not slowed down."""
    port = free_port()
    db = database or f"sqlite:///{workdir / 'bench.sqlite3'}"
    env = {**os.environ, "FLAMECRAFT_BOT_DELAY": "0", "FLAMECRAFT_MESSAGES_PER_SECOND": "100000",
           "FLAMECRAFT_GAMES_PER_MINUTE": "100000"}
    with open(workdir / "server.log", "wb") as log:  # the child keeps its own handle
        proc = subprocess.Popen(
            [sys.executable, "-c", "import sys; from flamecraft.cli import main; "
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
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        proc = None
        base = args.url
        if base is None:
            proc, base = start_server(args.database, Path(tmp))
        try:
            totals, elapsed = asyncio.run(run(base.rstrip("/"), args.games, args.concurrency,
                                              args.players))
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(10)
    lat = [x * 1000 for x in totals.latencies]
    where = args.url or ("PostgreSQL" if args.database and args.database.startswith("postgres")
                         else "local server, SQLite")
    print(f"flamecraft ws_load: {totals.games} games of {args.players}, {args.concurrency} at a "
          f"time, {where}; Python {platform.python_version()}, {os.cpu_count()} CPUs")
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
