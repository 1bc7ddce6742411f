"""Issue 24, items 1-3: what one visitor can make the server compute or hold is bounded.

1. Expensive results once per game, kept: a review flood makes one review, kept in the store
   (schema 4, migrated from 3 on SQLite and PostgreSQL); a replay flood keeps the replays'
   cache under its byte cap, a finished game is answered without being loaded, and loading
   a game replays it on the load lane's thread.
2. Lanes with budgets: hints and reviews past their queue are ``busy`` (503, Retry-After),
   past one address's share ``rate_limited`` (429); bot-only games think in a lane of their
   own, are capped per address and overall, and expire; people's games are capped too;
   every refusal changes nothing stored.
3. ``flamecraft admin`` lists, ends and deletes games on the store (SQLite, PostgreSQL).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("fastapi", reason="the web extra is not installed")

from flamecraft import apply, legal_actions, text
from flamecraft.cli.main import main
from flamecraft.core.engine import to_act
from flamecraft.core.serialize import CARD_NAMES, start_to_json
from flamecraft.core.setup_game import seeded_start
from flamecraft.core.state import Options
from flamecraft.core.upgrade import DECISION_RULES
from flamecraft.server.gameerror import Busy
from flamecraft.server.games import Games
from flamecraft.server.quotas import GameCaps, Unfinished
from flamecraft.server.replays import build_replay
from flamecraft.server.reviews import ReviewBody
from flamecraft.server.settings import Settings
from flamecraft.server.store import (
    FINISHED,
    SCHEMA_VERSION,
    ActionRow,
    GameRow,
    SeatRow,
    open_store,
)
from flamecraft.server.table import Table, record_of
from test_server_api import (
    client_for,
    finished_game,
    new_game,
    next_state,
    play_out,
    postgres_schema,
    settings,
    ws_url,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TIMEOUT = 30.0


def quick(tmp_path: Path, **changes: Any) -> Settings:
    """Threads for every lane (a stand-in review runs in this process), small reviews."""
    base: dict[str, Any] = {"bot_processes": 0, "review_samples": 1, "hint_samples": 2}
    base.update(changes)
    return settings(tmp_path, **base)


def games_of(c: Any) -> Games:
    games: Games = c.app.state.games
    return games


class Counted:
    """A stand-in for ``advice.review_json`` (run on the advice lane's thread): counts its
    calls, and waits for ``release`` before it answers, so a test can ask meanwhile."""

    def __init__(self, wait: bool = False):
        self.calls = 0
        self.release = threading.Event()
        if not wait:
            self.release.set()

    def __call__(self, record: Any, samples: int, lang: str) -> dict[str, Any]:
        self.calls += 1
        assert self.release.wait(TIMEOUT)
        return {"reviewed": len(record.actions), "lang": lang}


def asked(c: Any, url: str, out: list[Any]) -> threading.Thread:
    """A GET of ``url`` on a thread of its own (its response appended to ``out``)."""
    thread = threading.Thread(target=lambda: out.append(c.get(url)))
    thread.start()
    return thread


def until(check: Any, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def busy_shape(r: Any, status: int, code: str) -> None:
    """A refusal that says which limit was hit and when to try again."""
    assert r.status_code == status, r.text
    body = r.json()
    assert body["code"] == code and body["message"] == body["detail"]
    assert int(r.headers["retry-after"]) == body["retry_after"] >= 1
    assert f"{body['retry_after']} s" in body["message"]


# ---------------------------------------------------------------- 1. reviews made once, kept


def test_a_review_flood_makes_one_review_kept_in_the_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24 item 1, as reported: a spectator's socket opened and closed, then the review
    asked for, again and again, and many at once meanwhile. Before: each unloaded game made
    the review anew (15 uncancellable jobs). Now one is made, shared by every asker, stored,
    and read from the store after a restart."""
    review = Counted(wait=True)
    monkeypatch.setattr("flamecraft.server.advice.review_json", review)
    s = quick(tmp_path, advice_per_address=1, advice_queue=1)
    with client_for(s) as c:
        game = finished_game(c, "random,random")
        url = f"/api/games/{game['game_id']}/review"
        out: list[Any] = []
        threads = [asked(c, url, out) for _ in range(6)]  # all wait for the one review
        until(lambda: review.calls == 1)
        for _ in range(3):
            with c.websocket_connect(ws_url(game)) as ws:
                next_state(ws)
            assert game["game_id"] not in games_of(c).sessions  # (the last socket went)
        review.release.set()
        for thread in threads:
            thread.join(TIMEOUT)
        assert [r.status_code for r in out] == [200] * 6
        assert all(r.json() == out[0].json() for r in out)
        for _ in range(5):
            assert c.get(url).json() == out[0].json()
        assert review.calls == 1 and games_of(c).advice.reviews.made == 1
    store = open_store(s.database_url)
    try:
        assert store.load_review(game["game_id"], "en") == out[0].json()
    finally:
        store.close()
    with client_for(s) as c:  # a new process: the review is the store's
        assert c.get(url).json() == out[0].json()
        assert games_of(c).advice.reviews.made == 0
    assert review.calls == 1


def test_a_persons_finished_game_has_its_review_made_ahead(tmp_path: Path) -> None:
    """Issue 26, a review while the end screen shows: once a game a person played ends, its
    review is made in the background in the language its clients read, and the "Review"
    asked afterwards is the one made ahead (none made again); a game of bots alone gets
    none until asked."""
    s = quick(tmp_path)
    with client_for(s) as c:
        game = new_game(c, "human,random", start=True, first_player=0)
        with c.websocket_connect(ws_url(game, 0) + "&lang=ja") as ws:
            play_out(ws, random.Random(3))
        reviews = games_of(c).advice.reviews
        until(lambda: reviews.made == 1 and not reviews.making)
        store = open_store(s.database_url)
        try:
            ahead = store.load_review(game["game_id"], "ja")
            assert ahead is not None and store.load_review(game["game_id"], "en") is None
        finally:
            store.close()
        r = c.get(f"/api/games/{game['game_id']}/review", headers={"Accept-Language": "ja"})
        assert r.status_code == 200 and r.json() == ahead and reviews.made == 1
        bots = finished_game(c, "random,random")
        time.sleep(0.3)
        assert reviews.made == 1 and not reviews.making
        store = open_store(s.database_url)
        try:
            assert store.load_review(bots["game_id"], "en") is None
        finally:
            store.close()


def test_a_review_asked_again_is_sent_from_its_kept_body(tmp_path: Path) -> None:
    """Issue 24, item 1: a review is encoded and gzipped once, then sent from the bodies
    kept (bounded in bytes: the least recently used dropped first), whether the client takes
    gzip or not; nothing is read from the store for it again."""
    s = quick(tmp_path)
    with client_for(s) as c:
        games = [finished_game(c, "random,random") for _ in range(3)]
        reviews = games_of(c).advice.reviews
        first = c.get(f"/api/games/{games[0]['game_id']}/review")
        assert first.status_code == 200 and first.headers["content-encoding"] == "gzip"
        assert first.headers["vary"] == "Accept-Encoding"
        asked: list[str] = []
        real = reviews.stored

        async def counted(game_id: str, lang: str) -> Any:
            asked.append(game_id)
            return await real(game_id, lang)

        reviews.stored = counted  # type: ignore[method-assign]
        again = c.get(f"/api/games/{games[0]['game_id']}/review")
        plain = c.get(f"/api/games/{games[0]['game_id']}/review",
                      headers={"Accept-Encoding": "identity"})
        assert again.json() == plain.json() == first.json() and asked == []
        assert "content-encoding" not in plain.headers
        body = next(iter(reviews.bodies.values()))
        assert json.loads(body.plain) == first.json()
        reviews.cache_bytes = cap = body.size * 2  # room for about two
        sizes = [body.size]
        for game in games[1:]:
            r = c.get(f"/api/games/{game['game_id']}/review")
            assert r.status_code == 200
            sizes.append(ReviewBody.of(r.json()).size)
        kept: list[int] = []  # the least recently used dropped first, as the cache must
        for i, size in enumerate(sizes):
            if size <= cap:
                kept.append(i)
            while sum(sizes[k] for k in kept) > cap:
                kept.pop(0)
        assert [k[0] for k in reviews.bodies] == [games[i]["game_id"] for i in kept]
        assert 0 < reviews.body_bytes == sum(sizes[i] for i in kept) <= cap


def test_reviews_past_the_lane_budget_are_busy_with_a_retry_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints and reviews have a lane of their own, capped: past one address's share the
    answer is 429 ``rate_limited``, past the lane's queue 503 ``busy``, each with
    Retry-After, and nothing is stored; once the lane frees, the review is made."""
    review = Counted(wait=True)
    monkeypatch.setattr("flamecraft.server.advice.review_json", review)
    s = quick(tmp_path, advice_per_address=1, advice_queue=2)
    with client_for(s) as c:
        one, two, three = (finished_game(c, "random,random") for _ in range(3))
        out: list[Any] = []
        thread = asked(c, f"/api/games/{one['game_id']}/review", out)
        until(lambda: review.calls == 1)
        second = f"/api/games/{two['game_id']}/review"
        busy_shape(c.get(second), 429, "rate_limited")
        lane = games_of(c).advice.budget
        lane.per_address = 5  # another address's ask: the lane still has a place
        other: list[Any] = []
        thread2 = asked(c, second, other)
        until(lambda: lane.total == 2)  # (it waits for the lane's one thread)
        busy_shape(c.get(f"/api/games/{three['game_id']}/review"), 503, "busy")
        refused = c.get(f"/api/games/{three['game_id']}/review", headers={
            "Accept-Language": "ja"})
        assert refused.status_code == 503 and refused.json()["code"] == "busy"
        assert "try again" not in refused.json()["message"]  # (in Japanese)
        assert str(refused.json()["retry_after"]) in refused.json()["message"]
        review.release.set()
        thread.join(TIMEOUT)
        thread2.join(TIMEOUT)
        assert out[0].status_code == other[0].status_code == 200
        store = open_store(s.database_url)
        try:
            assert store.load_review(three["game_id"], "en") is None  # nothing stored
        finally:
            store.close()
        assert c.get(f"/api/games/{three['game_id']}/review").status_code == 200
        assert lane.total == 0 and not lane.held


def test_hints_count_against_the_same_budget(tmp_path: Path) -> None:
    """A hint asked while the address's share of the lane is taken is refused with a retry
    time; the seat's own game is unchanged."""
    s = quick(tmp_path, advice_per_address=1)
    with client_for(s) as c:
        game = new_game(c, "human,random", start=True, first_player=0)
        auth = {"seat": 0, "token": game["seats"][0]["token"]}
        budget = games_of(c).advice.budget
        place = budget.hold("testclient")  # (the address's one place, taken)
        try:
            before = c.get(f"/api/games/{game['game_id']}").json()
            busy_shape(c.post(f"/api/games/{game['game_id']}/hint", json=auth), 429,
                       "rate_limited")
            assert c.get(f"/api/games/{game['game_id']}").json() == before
        finally:
            place.release()
        r = c.post(f"/api/games/{game['game_id']}/hint", json=auth)
        assert r.status_code == 200 and r.json()["hints"]


# ---------------------------------------------------------------- 1. replays in bounded bytes


def a_finished_row(seed: int, players: int = 3) -> tuple[GameRow, list[ActionRow]]:
    """A finished game of random moves, as the store holds it."""
    options = Options(players, "purple", tuple(f"P{i}" for i in range(players)), False, None)
    row = GameRow(f"g{seed:011d}", "t", options, seed,
                  [SeatRow(f"P{i}", "bot", "random") for i in range(players)],
                  status=FINISHED, version=1)
    row.setup = {"deal": start_to_json(seeded_start(options, seed)), "names": CARD_NAMES,
                 "rules": DECISION_RULES}
    s = record_of(row, []).first_state()
    rng = random.Random(seed)
    actions: list[ActionRow] = []
    while not s.over:
        a = rng.choice(legal_actions(s))
        actions.append(ActionRow(len(actions), to_act(s), text(s, a), 1))
        s = apply(s, a)
    return row, actions


def test_a_replay_entry_gives_every_state_from_its_checkpoints() -> None:
    """Every step's state from the checkpoints (one every 5 steps here) is the state the
    whole replay reaches, and the log is the table's."""
    row, actions = a_finished_row(7)
    replay = build_replay(row, actions, record_of(row, actions), 5)
    assert len(replay.checkpoints) == len(actions) // 5 + 1
    table = Table(row)
    record = record_of(row, actions)
    s = record.first_state()
    assert replay.state_at(0) == s
    for k, action in enumerate(actions, 1):
        s = apply(s, record.parse(s, action.text))
        assert replay.state_at(k) == s, k
    table.extend(actions)
    assert replay.log == table.log and replay.log_ends == table.log_ends
    assert replay.size > 0


def test_a_replay_flood_keeps_the_cache_under_its_byte_cap(tmp_path: Path) -> None:
    """Issue 24 item 2, as reported: every step of many finished games asked for, none of
    them loaded. Before: each game's every state kept (1.6-2.0 MB a game) until 1,000 games
    were loaded. Now no game is loaded, the cache never passes its bytes, and a game asked
    again while kept is not replayed again."""
    s = quick(tmp_path, replay_every=8)
    with client_for(s) as c:
        finished = [finished_game(c, "random,random,random") for _ in range(4)]
    with client_for(s) as c:  # a new process: nothing loaded
        games = games_of(c)
        cache = games.replays
        assert c.get(f"/api/games/{finished[0]['game_id']}/replay/0").status_code == 200
        cache.limit = cache.bytes * 5 // 2  # (room for two games' entries, not four)
        for game in finished:
            url = f"/api/games/{game['game_id']}"
            entry = c.get(url).json()  # answered from the row: not loaded
            assert entry["status"] == "finished" and entry["step"] > 0
            assert entry["to_act"] is None
            for step in range(0, entry["step"] + 1, 7):
                r = c.get(f"{url}/replay/{step}")
                assert r.status_code == 200 and r.json()["step"] == step
                assert cache.bytes <= cache.limit
            assert game["game_id"] not in games.sessions
        assert 1 <= len(cache.entries) < len(finished)
        assert cache.built == len(finished)  # each game replayed once while it was kept
        last = finished[-1]["game_id"]
        c.get(f"/api/games/{last}/replay/1")
        assert cache.built == len(finished)
        r = c.get(f"/api/games/{last}/replay/100000")
        assert r.status_code == 400 and r.json()["code"] == "malformed"


def test_loading_a_game_replays_it_off_the_event_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game loaded from the store is replayed on the load lane's thread, not the event
    loop's; a load past the lane's budget is refused with a retry time (HTTP and
    WebSocket), and loads again once the lane frees."""
    threads: list[str] = []
    gate = threading.Event()
    gate.set()

    class Watched(Table):
        def __init__(self, *args: Any) -> None:
            threads.append(threading.current_thread().name)
            assert gate.wait(TIMEOUT)
            super().__init__(*args)

    s = quick(tmp_path, load_queue=1)
    with client_for(s) as c:
        one = new_game(c, "human,random", start=True)
        two = new_game(c, "human,random", start=True)
    monkeypatch.setattr("flamecraft.server.games.Table", Watched)
    with client_for(s) as c:
        games = games_of(c)
        for game_id in (one["game_id"], two["game_id"]):
            games.sessions.pop(game_id, None)  # (resumed at start-up: unloaded again)
        threads.clear()
        gate.clear()
        out: list[Any] = []
        thread = asked(c, f"/api/games/{one['game_id']}", out)
        until(lambda: len(threads) == 1)
        assert threads[0].startswith("flamecraft-load")
        busy_shape(c.get(f"/api/games/{two['game_id']}"), 503, "busy")
        with c.websocket_connect(ws_url(two, 0)) as ws:
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["code"] == "busy"
            assert msg["retry_after"] >= 1
        gate.set()
        thread.join(TIMEOUT)
        assert out[0].status_code == 200
        assert c.get(f"/api/games/{two['game_id']}").status_code == 200


def test_reads_of_games_are_limited_per_address(tmp_path: Path) -> None:
    """A flood of a game's reads (entry, record, replay steps, WebSocket connections) from
    one address is held to ``reads_per_second`` after a burst of three seconds' worth: 429
    (an ``error`` over WebSocket) with a retry time."""
    with client_for(quick(tmp_path, reads_per_second=1.0), clock=lambda: 0.0) as c:
        game = finished_game(c, "random,random")  # (its WebSocket: one read of three)
        url = f"/api/games/{game['game_id']}"
        for path in ("", "/record"):
            assert c.get(url + path).status_code == 200
        busy_shape(c.get(url + "/replay/2"), 429, "rate_limited")
        assert c.get("/api/games").status_code == 200  # (the lobby's list is not a game's)
        with c.websocket_connect(ws_url(game)) as ws:  # (a connection may load its game)
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["code"] == "rate_limited"
            assert msg["retry_after"] == 1 and "1" in msg["message"]


# ---------------------------------------------------------------- 2. bot-only games


def test_bot_only_games_think_in_their_own_lane(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A search bot of a game without a person thinks in the bot-only lane; one of a
    person's game in the search lane (so a flood of the first never queues the second)."""
    from flamecraft.server import botpool

    seen: dict[str, set[str]] = {}
    real = botpool.think

    def think(name: str, s: Any, rng: random.Random) -> Any:
        seen.setdefault(threading.current_thread().name.rsplit("_", 1)[0], set()).add(name)
        return real(name, s, rng)

    monkeypatch.setattr(botpool, "think", think)
    s = quick(tmp_path, search_bots=frozenset({"greedy"}))
    with client_for(s) as c:
        finished_game(c, "greedy,greedy")
        game = new_game(c, "human,greedy", start=True, first_player=0)
        with c.websocket_connect(ws_url(game, 0)) as ws:
            state = next_state(ws)
            ws.send_json({"type": "act", "version": state["version"], "index": 0})
            until(lambda: "flamecraft-search" in seen)
    assert set(seen) == {"flamecraft-bot-only", "flamecraft-search"}, seen


def test_background_workers_run_at_a_lower_priority(tmp_path: Path) -> None:
    """The bot-only and advice lanes' worker processes run at ``background_nice``; the
    search lane's at the server's own priority."""
    s = settings(tmp_path, bot_processes=1, background_nice=7)
    with client_for(s) as c:
        lanes = games_of(c).lanes
        base = os.nice(0)
        for pool, want in ((lanes.search, base), (lanes.advice, min(19, base + 7)),
                           (lanes.bot_only, min(19, base + 7))):
            assert c.portal.call(pool.call, os.nice, 0) == want, pool.name  # type: ignore


def test_bot_only_games_are_capped_per_address_and_overall(tmp_path: Path) -> None:
    """Issue 24 item 3, as reported: bot-only games from one address without a cap. Now
    past ``bot_games_per_address`` the answer is 429, past ``bot_games`` 503, each with the
    time until the oldest in the way expires, and nothing is stored; a person's game is
    still made."""
    s = quick(tmp_path, bot_delay=30.0, bot_games_per_address=1, bot_games=2,
              bot_game_seconds=600.0)
    with client_for(s) as c:
        new_game(c, "random,random")
        r = c.post("/api/games", json={"seats": [{"kind": "bot", "bot": "random"}] * 2})
        busy_shape(r, 429, "rate_limited")
        assert 500 <= r.json()["retry_after"] <= 600
        games = games_of(c)
        games.caps.origin.clear()  # (as if the first came from another address)
        new_game(c, "random,random")
        games.caps.origin.clear()
        busy_shape(c.post("/api/games", json={"seats": [{"kind": "bot"}] * 3}), 503, "busy")
        assert len(c.get("/api/games?status=running").json()["games"]) == 2
        new_game(c, "human,random", start=True)


def test_running_games_are_capped_per_address_and_overall(tmp_path: Path) -> None:
    s = quick(tmp_path, running_games_per_address=2, running_games=3)
    with client_for(s) as c:
        new_game(c, "human,random")
        new_game(c, "human,random", start=True)
        busy_shape(c.post("/api/games", json={"seats": [{"kind": "human"}]}), 429,
                   "rate_limited")
        games_of(c).caps.origin.clear()
        new_game(c, "human,random")
        busy_shape(c.post("/api/games", json={"seats": [{"kind": "human"}]}), 503, "busy")
        assert len(c.get("/api/games").json()["games"]) == 3


def test_games_made_without_an_address_count_overall_only() -> None:
    """A game the server makes on no client's behalf is charged to no address (before this
    was fixed, every such game shared one address's cap)."""
    caps = GameCaps(Settings(running_games_per_address=1, running_games=3))
    games = [Unfinished(f"g{k}", 0.0, False) for k in range(2)]
    for game in games:
        caps.created(game.id, caps.check(games[:0], None, False))
    assert caps.origin == {}
    assert caps.check(games, None, False) == "?"
    group = caps.check(games, "203.0.113.7", False)
    caps.created("g2", group)
    games.append(Unfinished("g2", 0.0, False))
    with pytest.raises(Busy) as refused:
        caps.check(games, "203.0.113.7", False)  # (its own one)
    assert refused.value.code == "rate_limited" and refused.value.status == 429
    with pytest.raises(Busy) as refused:
        caps.check(games, "198.51.100.1", False)  # (another's: the overall 3)
    assert refused.value.code == "busy" and refused.value.status == 503
    assert caps.check(games[1:], "198.51.100.1", False) == "198.51.100.1"


def test_bot_only_games_expire_loaded_or_stored(tmp_path: Path) -> None:
    """A bot-only game still running ``bot_game_seconds`` after it was created is ended
    (``ended: "expired"``, no winner, no review): by the sweep while loaded, and at start-up
    (not resumed) when it was stored before a restart."""
    s = quick(tmp_path, bot_delay=30.0, bot_game_seconds=5.0)
    with client_for(s) as c:
        loaded = new_game(c, "random,random")
        stored = new_game(c, "random,random")
        person = new_game(c, "human,random", start=True)
        games = games_of(c)
        assert c.portal.call(games.expire_bot_games, time.time()) == []  # type: ignore
        ended = c.portal.call(games.expire_bot_games, time.time() + 10)  # type: ignore
        assert sorted(ended) == sorted([loaded["game_id"], stored["game_id"]])
        entry = c.get(f"/api/games/{loaded['game_id']}").json()
        assert entry["status"] == "finished"
        assert entry["result"]["ended"] == "expired" and entry["result"]["winners"] == []
        assert c.get(f"/api/games/{loaded['game_id']}/review").json()["code"] == "illegal"
        assert c.get(f"/api/games/{person['game_id']}").json()["status"] == "running"
        again = new_game(c, "random,random")
    db = sqlite3.connect(tmp_path / "games.sqlite3")
    with db:
        db.execute("UPDATE flamecraft_games SET created = created - 10 WHERE id = ?",
                   (again["game_id"],))
    db.close()
    with client_for(s) as c:
        entry = c.get(f"/api/games/{again['game_id']}").json()
        assert entry["status"] == "finished" and entry["result"]["ended"] == "expired"
        assert again["game_id"] not in games_of(c).sessions


def test_a_game_with_a_person_is_never_taken_for_bot_only(tmp_path: Path) -> None:
    """The caps and the expiry read each row's seats as JSON, however it was written (a row
    written by hand with spaces in its JSON has a person as much as the server's own), and
    seats that cannot be read count as a person's: such a game is never ended as expired."""
    store = open_store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        people, _ = a_finished_row(5, 2)
        bots, _ = a_finished_row(6, 2)
        broken, _ = a_finished_row(7, 2)
        for row in (people, bots, broken):
            row.status = "running"
            store.create_game(row)
        with store._transaction() as cur:
            cur.execute("UPDATE flamecraft_games SET seats = ? WHERE id = ?", (json.dumps(
                [{"name": "P1", "kind": "human"}, {"name": "P2", "kind": "bot"}]), people.id))
            cur.execute("UPDATE flamecraft_games SET seats = '[{' WHERE id = ?", (broken.id,))
        only = {game_id: bot_only for game_id, _, bot_only in store.unfinished_games()}
        assert only == {people.id: False, bots.id: True, broken.id: False}
    finally:
        store.close()


def test_every_budget_and_cap_is_a_setting() -> None:
    """Each limit of issue 24 items 1-3 is read from its FLAMECRAFT_* variable."""
    env = {"FLAMECRAFT_BOT_ONLY_PROCESSES": "2", "FLAMECRAFT_ADVICE_PROCESSES": "3",
           "FLAMECRAFT_BACKGROUND_NICE": "5", "FLAMECRAFT_ADVICE_QUEUE": "7",
           "FLAMECRAFT_ADVICE_PER_ADDRESS": "3", "FLAMECRAFT_LOAD_QUEUE": "9",
           "FLAMECRAFT_RUNNING_GAMES": "50", "FLAMECRAFT_RUNNING_GAMES_PER_ADDRESS": "4",
           "FLAMECRAFT_BOT_GAMES": "0", "FLAMECRAFT_BOT_GAMES_PER_ADDRESS": "1",
           "FLAMECRAFT_BOT_GAME_SECONDS": "600", "FLAMECRAFT_REPLAY_EVERY": "8",
           "FLAMECRAFT_REPLAY_CACHE_BYTES": "1000000", "FLAMECRAFT_READS_PER_SECOND": "2.5",
           "FLAMECRAFT_REVIEW_CACHE_BYTES": "12345"}
    s = Settings.from_env(env)
    assert s.review_cache_bytes == 12345
    assert Settings.from_env({}).review_cache_bytes == 16 << 20
    assert (s.bot_only_processes, s.advice_processes, s.background_nice, s.advice_queue,
            s.advice_per_address, s.load_queue, s.running_games, s.running_games_per_address,
            s.bot_games, s.bot_games_per_address, s.bot_game_seconds, s.replay_every,
            s.replay_cache_bytes, s.reads_per_second) == (
        2, 3, 5, 7, 3, 9, 50, 4, 0, 1, 600.0, 8, 1000000, 2.5)
    d = Settings.from_env({})
    assert (d.advice_queue, d.advice_per_address, d.load_queue, d.running_games,
            d.running_games_per_address, d.bot_games, d.bot_games_per_address,
            d.bot_game_seconds, d.replay_every, d.replay_cache_bytes, d.reads_per_second,
            d.background_nice) == (4, 2, 8, 2000, 20, 6, 2, 3600.0, 16, 32 << 20, 20.0, 10)
    with pytest.raises(ValueError, match="FLAMECRAFT_BOT_GAMES"):
        Settings.from_env({"FLAMECRAFT_BOT_GAMES": "many"})


# ---------------------------------------------------------------- schema 4


def test_a_schema_3_store_gains_the_reviews(tmp_path: Path) -> None:
    """Migration: a database of schema 3 (no reviews table) opened by this server is
    schema 4, its games intact, and keeps reviews."""
    s = quick(tmp_path)
    with client_for(s) as c:
        game = finished_game(c, "random,random")
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        db.execute("DROP TABLE flamecraft_reviews")
        db.execute("UPDATE flamecraft_meta SET value = '3' WHERE key = 'schema_version'")
    store = open_store(s.database_url)
    try:
        assert SCHEMA_VERSION >= 4
        assert store.load_review(game["game_id"], "en") is None
        store.save_review(game["game_id"], "en", {"a": 1}, 1)
        store.save_review(game["game_id"], "en", {"a": 2}, 1)  # the first stays
        assert store.load_review(game["game_id"], "en") == {"a": 1}
    finally:
        store.close()
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        assert db.execute("SELECT value FROM flamecraft_meta").fetchone()[0] == str(SCHEMA_VERSION)
    with client_for(s) as c:
        assert c.get(f"/api/games/{game['game_id']}/review").json() == {"a": 1}


def test_a_schema_3_postgres_store_gains_the_reviews() -> None:
    with postgres_schema() as url:
        store = open_store(url)
        try:
            with store._transaction() as cur:
                cur.execute("DROP TABLE flamecraft_reviews")
                cur.execute("UPDATE flamecraft_meta SET value = '3'")
        finally:
            store.close()
        store = open_store(url)
        try:
            with store._transaction() as cur:
                cur.execute("SELECT value FROM flamecraft_meta")
                assert cur.fetchone()[0] == str(SCHEMA_VERSION)
            row, _ = a_finished_row(3, 2)
            store.create_game(row)
            store.save_review(row.id, "ja", {"b": [1]}, 2)
            store.save_review(row.id, "ja", {"b": [2]}, 2)
            assert store.load_review(row.id, "ja") == {"b": [1]}
            assert store.load_review(row.id, "en") is None
        finally:
            store.close()


# ---------------------------------------------------------------- 3. flamecraft admin


def admin(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["admin", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def check_admin(url: str, s: Settings, capsys: pytest.CaptureFixture[str]) -> None:
    with client_for(s) as c:
        bots = new_game(c, "human,human", start=True)  # (the game ended)
        person = new_game(c, "human,random", start=True)
        done = finished_game(c, "random,random")
    status, out, _ = admin(capsys, "--database", url, "list")
    assert status == 0
    assert bots["game_id"] in out and person["game_id"] in out and done["game_id"] not in out
    assert done["game_id"] in admin(capsys, "--database", url, "list", "--status", "all")[1]
    status, out, _ = admin(capsys, "--database", url, "end", bots["game_id"])
    assert status == 0 and bots["game_id"] in out
    status, _, err = admin(capsys, "--database", url, "end", bots["game_id"])
    assert status == 1 and "not running" in err
    assert admin(capsys, "--database", url, "end", "nosuchgame12")[0] == 1
    status, _, err = admin(capsys, "--database", url, "delete", person["game_id"], "--yes")
    assert status == 1 and "end it first" in err
    status, _, err = admin(capsys, "--database", url, "delete", done["game_id"])
    assert status == 1 and "--yes" in err
    assert admin(capsys, "--database", url, "delete", done["game_id"], "--yes")[0] == 0
    with client_for(s) as c:
        entry = c.get(f"/api/games/{bots['game_id']}").json()
        assert entry["status"] == "finished" and entry["result"]["ended"] == "operator"
        assert c.get(f"/api/games/{done['game_id']}").status_code == 404
        assert c.get(f"/api/games/{person['game_id']}").json()["status"] == "running"


def test_admin_lists_ends_and_deletes_games_on_sqlite(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = quick(tmp_path)
    check_admin(str(tmp_path / "games.sqlite3"), s, capsys)


def test_admin_on_postgres_and_a_running_server_hears_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """On PostgreSQL too; and a server running on it hears of a game ended by the operator
    at once (its players are sent the finished state)."""
    with postgres_schema() as url:
        s = Settings(database_url=url, bot_delay=0.0, bot_processes=0)
        check_admin(url, s, capsys)
        with client_for(s) as c, contextlib.ExitStack() as stack:
            game = new_game(c, "human,human", start=True)
            ws = stack.enter_context(c.websocket_connect(ws_url(game, 0)))
            assert next_state(ws)["status"] == "running"
            assert admin(capsys, "--database", url, "end", game["game_id"])[0] == 0
            deadline = time.monotonic() + TIMEOUT
            while True:
                msg = next_state(ws)
                if msg.get("type") == "state" and msg["status"] == "finished":
                    break
                assert time.monotonic() < deadline


def test_a_new_game_id_never_begins_with_a_dash_and_an_old_one_goes_after_two(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A game id that began with "-" (one in 64 of them did) was taken for an option by the
    command line: ``flamecraft admin end -x…`` said GAME was missing (a browser test met one).
    New ids never begin with "-"; one stored before is given after "--", as the help says."""
    from flamecraft.server import games, tokens

    assert not any(tokens.new_game_id().startswith("-") for _ in range(3000))
    assert all(tokens.valid_game_id(tokens.new_game_id()) for _ in range(100))
    draws = iter(["-old_dash_id", "later_id_ok"])
    monkeypatch.setattr("secrets.token_urlsafe", lambda _n: next(draws))
    assert tokens.new_game_id() == "later_id_ok"  # the draw that began with "-" was skipped
    monkeypatch.undo()
    old = "-made_before"  # a game stored before the change, with such an id
    monkeypatch.setattr(games, "new_game_id", lambda: old)
    url = str(tmp_path / "games.sqlite3")
    with client_for(quick(tmp_path)) as c:
        assert new_game(c, "human,human", start=True)["game_id"] == old
    assert admin(capsys, "--database", url, "end", old)[0] == 2  # taken for an option
    status, out, _ = admin(capsys, "--database", url, "end", "--", old)
    assert status == 0 and old in out
