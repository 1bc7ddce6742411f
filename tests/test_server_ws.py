"""The live table over WebSocket: who sees what, moves reaching every connection, the checks
on every move (stale, out of turn, illegal, malformed, too big, too fast), undo within a
turn, and bots that hold nobody up (docs/server.md, issue 7)."""

from __future__ import annotations

import os
import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):  # in CI the web extra is installed: a missing one fails
    pytest.importorskip("fastapi", reason="the web extra is not installed")

from starlette.websockets import WebSocketDisconnect

from flamecraft import to_act
from flamecraft.ai.roster import BOTS, random_action
from flamecraft.core.state import GameState
from test_server_api import client_for, new_game, next_state, settings, ws_url

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def version_of(client: Any, game: dict[str, Any]) -> int:
    return int(client.get(f"/api/games/{game['game_id']}").json()["version"])


def test_each_connection_sees_only_its_seat(tmp_path: Path) -> None:
    """Issue 7, spectating and hidden cards: a seat sees its own hand and Fancy Dragons and
    no one else's; only the seat to act gets the legal actions; a spectator sees neither."""
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human,random", start=True)
        with c.websocket_connect(ws_url(game, 0)) as w0, \
                c.websocket_connect(ws_url(game, 1)) as w1, \
                c.websocket_connect(ws_url(game)) as spy:
            m0, m1, ms = next_state(w0), next_state(w1), next_state(spy)
    assert (m0["seat"], m1["seat"], ms["seat"]) == (0, 1, None)
    assert m0["version"] == m1["version"] == ms["version"]
    for msg, seat in ((m0, 0), (m1, 1), (ms, None)):
        players = msg["view"]["players"]
        for p, entry in enumerate(players):
            assert ("hand" in entry) == (p == seat) and ("fancy" in entry) == (p == seat)
    acting = m0["view"]["to_act"]
    assert acting in (0, 1)
    mine = (m0, m1)[acting]
    assert mine["legal"] and all({"index", "text", "kind", "args"} <= set(a) for a in
                                 mine["legal"])
    assert [a["index"] for a in mine["legal"]] == list(range(len(mine["legal"])))
    assert (m0, m1)[1 - acting]["legal"] == [] and ms["legal"] == []
    # What is being decided goes to the seat deciding only (issue 11: whether another seat
    # has a decision at all can depend on its hidden cards).
    assert mine["choosing"] != "" and (m0, m1)[1 - acting]["choosing"] == ms["choosing"] == ""


def test_bad_links_are_refused(tmp_path: Path) -> None:
    """Issue 7, nobody let in: a wrong token, another seat's token, a seat without a token or
    an unknown game gets a clear error and the connection is closed."""
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True)
        gid, t0 = game["game_id"], game["seats"][0]["token"]
        wrong = t0[:-1] + ("y" if t0.endswith("x") else "x")  # (one letter changed)
        for query in (f"seat=0&token={wrong}", f"seat=1&token={t0}", "seat=0",
                      f"seat=9&token={t0}", f"seat=zero&token={t0}", f"token={t0}"):
            with c.websocket_connect(f"/ws/games/{gid}?{query}") as ws:
                msg = ws.receive_json()
                assert msg["type"] == "error" and msg["code"] == "bad_token", query
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 4403
        with c.websocket_connect("/ws/games/no-such-game") as ws:
            assert ws.receive_json()["code"] == "not_found"


def test_a_move_reaches_every_connection(tmp_path: Path) -> None:
    """Issue 7, live: a move reaches every seat and spectator at once, with the new version,
    and the log line each may read (a kept Fancy Dragon is named to its keeper only)."""
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game, 0)) as w0, \
                c.websocket_connect(ws_url(game, 1)) as w1, \
                c.websocket_connect(ws_url(game)) as spy:
            first = [next_state(w) for w in (w0, w1, spy)]
            acting = first[0]["view"]["to_act"]
            conn = (w0, w1)[acting]
            choice = first[acting]["legal"][0]
            conn.send_json({"type": "act", "version": first[0]["version"], "index": 0})
            after = [next_state(w) for w in (w0, w1, spy)]
    assert {m["version"] for m in after} == {first[0]["version"] + 1}
    assert {m["step"] for m in after} == {first[0]["step"] + 1}
    lines = [m["log"][-1] for m in after]
    assert lines[acting]["text"].startswith(choice["text"]) and lines[acting]["player"] == acting
    if choice["kind"] == "keep_fancy":  # the keeper also reads the card shown beside it
        assert lines[acting]["text"].startswith(f"{choice['text']} (shown ")
        assert lines[1 - acting]["text"] == lines[2]["text"] == "keep a Fancy Dragon"


def test_every_move_is_checked(tmp_path: Path) -> None:
    """Issue 7, nothing let in: stale, out-of-turn, spectator, illegal and malformed moves,
    and oversized messages, each get their error code and change nothing."""
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game, 0)) as w0, \
                c.websocket_connect(ws_url(game, 1)) as w1, \
                c.websocket_connect(ws_url(game)) as spy:
            first = {0: next_state(w0), 1: next_state(w1)}
            next_state(spy)
            v, acting = first[0]["version"], first[0]["view"]["to_act"]
            me, other = ((w0, w1), (w1, w0))[acting]
            cases: list[tuple[Any, Any, str]] = [
                (me, {"type": "act", "version": v - 1, "index": 0}, "stale"),
                (me, {"type": "act", "version": v + 5, "index": 0}, "stale"),
                (other, {"type": "act", "version": v, "index": 0}, "out_of_turn"),
                (spy, {"type": "act", "version": v, "index": 0}, "out_of_turn"),
                (me, {"type": "act", "version": v, "index": 99}, "illegal"),
                (me, {"type": "act", "version": v, "index": -1}, "illegal"),
                (me, {"type": "act", "version": v, "text": "visit the Moon"}, "illegal"),
                (me, {"type": "act", "index": 0}, "malformed"),
                (me, {"type": "act", "version": True, "index": 0}, "malformed"),
                (me, {"type": "act", "version": v, "index": "0"}, "malformed"),
                (me, {"type": "act", "version": v, "index": 1.5}, "malformed"),
                (me, {"type": "dance"}, "malformed"),
                (me, ["act"], "malformed"),
                (me, "not json", "malformed"),
                (me, {"type": "act", "version": v, "text": "x" * 9000}, "too_big"),
                (me, {"type": "undo", "version": v}, "illegal"),
                (other, {"type": "undo", "version": v}, "out_of_turn"),
            ]
            for ws, payload, code in cases:
                if isinstance(payload, str):
                    ws.send_text(payload)
                else:
                    ws.send_json(payload)
                error = ws.receive_json()
                assert error["type"] == "error" and error["code"] == code, (payload, error)
                assert error["message"] and len(error["message"]) < 400
            assert version_of(c, game) == v
            # and a good move by text still goes through
            me.send_json({"type": "act", "version": v, "text": first[acting]["legal"][0]["text"]})
            assert next_state(spy)["version"] == v + 1


def test_two_clicks_on_one_state_apply_once(tmp_path: Path) -> None:
    """Issue 7, stale: the same seat open in two tabs answers one state twice: one move is
    applied, the other is refused as stale."""
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True)
        acting = None
        with c.websocket_connect(ws_url(game, 0)) as probe:
            acting = next_state(probe)["view"]["to_act"]
        with c.websocket_connect(ws_url(game, acting)) as tab1, \
                c.websocket_connect(ws_url(game, acting)) as tab2:
            v = next_state(tab1)["version"]
            next_state(tab2)
            tab1.send_json({"type": "act", "version": v, "index": 0})
            tab2.send_json({"type": "act", "version": v, "index": 1})
            got2 = [tab2.receive_json(), tab2.receive_json()]
        assert {m["type"] for m in got2} == {"state", "error"}
        assert next(m for m in got2 if m["type"] == "error")["code"] == "stale"
        assert version_of(c, game) == v + 1


def _answers_up_to_a_marker(ws: Any, limit: int) -> list[tuple[str, Any]]:
    """Sends a message one byte too big and reads every answer before its ``too_big``: the
    size is checked before the rate limit (it is charged a token, or its size in tokens, and
    counts towards ``max_bad_messages``), so the marker is always answered, and once it is,
    the server has read every message sent before it. Each answer is (type, id or code)."""
    ws.send_text("x" * (limit + 1))
    got: list[tuple[str, Any]] = []
    while True:
        m = ws.receive_json()
        if m["type"] == "error" and m["code"] == "too_big":
            return got
        got.append((m["type"], m["id"] if m["type"] == "pong" else m.get("code")))


def test_messages_are_rate_limited(tmp_path: Path) -> None:
    """Issue 7, bounded; issue 12, a burst is not abuse: a connection may send a burst of up
    to ``message_burst`` messages at once, then ``max_messages_per_second`` a second; the
    rest are refused ("rate_limited", said at most once a second). On a clock the test
    moves (``create_app(clock=...)``), so the counts are exact however loaded the machine."""
    now = [1000.0]
    s = settings(tmp_path, max_messages_per_second=20, message_burst=40, send_queue=1000,
                 max_bad_messages=100)  # the markers are messages too big (issue 24)
    limit = s.max_message_bytes

    def pings(ids: range) -> list[tuple[str, Any]]:
        for i in ids:
            ws.send_json({"type": "ping", "id": i})
        return _answers_up_to_a_marker(ws, limit)

    def pongs(ids: range) -> list[tuple[str, Any]]:
        return [("pong", i) for i in ids]

    refused = ("error", "rate_limited")
    with client_for(s, clock=lambda: now[0]) as c:
        game = new_game(c, "human,bot")
        with c.websocket_connect(ws_url(game)) as ws:
            next_state(ws)
            # a quick player's (or a test's) burst of clicks: all answered
            assert pings(range(30)) == pongs(range(30))
            # far over the burst, at the same instant: the 9 tokens left (the marker too big
            # cost one: issue 24), then one notice
            assert pings(range(30, 90)) == [*pongs(range(30, 39)), refused]
            # half a second later: 10 more tokens (20 a second); no second notice yet
            now[0] += 0.5
            assert pings(range(90, 105)) == pongs(range(90, 100))
            # a second and a half after the notice: 20 tokens, and the notice again
            now[0] += 1.0
            assert pings(range(105, 135)) == [*pongs(range(105, 125)), refused]
            # a long pause fills the bucket to its size (the burst), never beyond
            now[0] += 100.0
            assert pings(range(135, 185)) == [*pongs(range(135, 175)), refused]


def test_the_bucket_refills_at_the_sustained_rate() -> None:
    """Issue 12: the token bucket behind the rate limit, on a clock of its own: a full
    bucket takes a burst, then admits ``rate`` events a second, never more than its size."""
    from flamecraft.server.guards import TokenBucket

    now = [0.0]
    bucket = TokenBucket(rate=20, burst=40, clock=lambda: now[0])
    assert sum(bucket.allow() for _ in range(50)) == 40
    now[0] += 0.5
    assert sum(bucket.allow() for _ in range(50)) == 10
    now[0] += 100.0
    assert sum(bucket.allow() for _ in range(50)) == 40


def stored(db: Path, game_id: str) -> int:
    """The number of action rows stored for a game."""
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT count(*) FROM flamecraft_actions WHERE game_id = ?",
                           (game_id,)).fetchone()
    return int(row[0])


def _draw_then_choose(msg: dict[str, Any], rng: random.Random) -> int:
    for a in msg["legal"]:
        if a["kind"] == "draw_deck":
            return int(a["index"])
    return rng.randrange(len(msg["legal"]))


def test_undo_within_the_turn_up_to_a_hidden_draw(tmp_path: Path) -> None:
    """Issue 7, undo: a person takes back choices of their own turn (the state, the log and
    the stored record go back), but not a draw from the hidden Artisan deck, and not once
    the turn has passed to someone else."""
    db = tmp_path / "games.sqlite3"
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,random", start=True, seed=3)
        gid = game["game_id"]
        rng = random.Random(2)
        checked_undo = checked_draw = False
        with c.websocket_connect(ws_url(game, 0)) as ws:
            before: dict[str, Any] | None = None
            msg = next_state(ws)
            while msg["status"] == "running" and not (checked_undo and checked_draw):
                if not msg["legal"]:
                    if before is not None:
                        assert not msg["can_undo"]  # the turn has passed
                    before = None
                    msg = next_state(ws)
                    continue
                if msg["can_undo"] and not checked_undo:
                    assert before is not None and msg["step"] == before["step"] + 1
                    assert stored(db, gid) == msg["step"]
                    ws.send_json({"type": "undo", "version": msg["version"]})
                    back = next_state(ws)
                    assert back["version"] == msg["version"] + 1
                    assert back["step"] == before["step"] == stored(db, gid)
                    assert back["view"] == before["view"] and back["legal"] == before["legal"]
                    assert back["log"] == before["log"]
                    checked_undo = True
                    msg = back
                index = _draw_then_choose(msg, rng)
                drew = msg["legal"][index]["kind"] == "draw_deck"
                before = msg
                ws.send_json({"type": "act", "version": msg["version"], "index": index})
                msg = next_state(ws)
                if drew and msg["legal"]:
                    assert not msg["can_undo"]
                    ws.send_json({"type": "undo", "version": msg["version"]})
                    assert ws.receive_json()["code"] == "illegal"
                    checked_draw = True
    assert checked_undo and checked_draw


def test_bots_hold_nobody_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 7, bots: a bot thinks in the background; meanwhile people in other games, and
    in its own game, get their answers at once."""
    thinking = threading.Event()

    def slow(state: GameState, rng: random.Random) -> Any:
        thinking.set()
        time.sleep(1.5)
        return random_action(state, rng)

    monkeypatch.setitem(BOTS, "slow", slow)
    with client_for(settings(tmp_path)) as c:
        slow_game = new_game(c, "slow,human", start=True, first_player=0)
        quick_game = new_game(c, "human,random", start=True)
        with c.websocket_connect(ws_url(slow_game, 1)) as waiting, \
                c.websocket_connect(ws_url(quick_game, 0)) as player:
            m = next_state(waiting)
            assert m["view"]["to_act"] == 0 and thinking.wait(5)
            started = time.monotonic()
            waiting.send_json({"type": "act", "version": m["version"], "index": 0})
            assert waiting.receive_json()["code"] == "out_of_turn"
            q = next_state(player)
            while not q["legal"]:
                q = next_state(player)
            player.send_json({"type": "act", "version": q["version"], "index": 0})
            assert next_state(player)["version"] == q["version"] + 1
            assert time.monotonic() - started < 1.0
            assert next_state(waiting)["version"] == m["version"] + 1  # the bot has moved


def test_undo_never_turns_a_shop_face_down_again() -> None:
    """Issue 12, defect 9, on the server: once the end-of-turn flip has shown a face-down
    Shop (a Park draw, then a discard down to 6 still to choose), undo is not offered."""
    from flamecraft.core.state import Options
    from flamecraft.server.store import ActionRow, GameRow, SeatRow
    from flamecraft.server.table import Table
    from helpers import ISSUE_12_SEED, shop_turning_up_within_a_turn

    before, played = shop_turning_up_within_a_turn()
    names = ("P1", "P2", "P3")  # the engine's default names
    row = GameRow("g", "g", Options(3, "purple", names, False), ISSUE_12_SEED,
                  [SeatRow(n, "human", None, ["x"], True) for n in names], status="running")
    table = Table(row, [ActionRow(i, -1, t, i + 1) for i, t in enumerate(played[:-1])])
    assert table.state is not None and table.state.facedown == before.facedown
    p = to_act(before)
    table.extend([ActionRow(len(played) - 1, -1, played[-1], len(played))])
    assert table.state is not None and not table.state.facedown
    assert not table.can_undo(p)


def _bot_replies(ws: Any, bot_seat: int, wanted: int, rng: random.Random) -> list[float]:
    """Plays the person's seat of a game against one bot at once; returns how long each of
    the bot's decisions took, from the state asking for it to the state holding it."""
    replies: list[float] = []
    asked, acted = 0.0, -1
    while len(replies) < wanted:
        msg = next_state(ws)
        if msg["type"] != "state" or msg["status"] == "finished":
            break
        now = time.monotonic()
        if asked and msg["log"] and msg["log"][-1]["player"] == bot_seat:
            replies.append(now - asked)
        asked = now if msg["view"]["to_act"] == bot_seat else 0.0
        if msg["legal"] and msg["version"] > acted:
            acted = msg["version"]
            ws.send_json({"type": "act", "version": acted,
                          "index": rng.randrange(len(msg["legal"]))})
    return replies


def test_search_bots_never_starve_a_quick_bot(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12, defect 4: four games of slow search bots (each decision 1 s) fill their
    lane; a greedy bot in another game still answers at once (it waited behind them)."""
    def slow(state: GameState, rng: random.Random) -> Any:
        time.sleep(1.0)
        return random_action(state, rng)

    monkeypatch.setitem(BOTS, "slow", slow)
    s = settings(tmp_path, bot_threads=2, bot_processes=0, search_bots=frozenset({"slow"}),
                 bot_games=4, bot_games_per_address=4)  # (past the default caps: quotas.py)
    with client_for(s) as c:
        for _ in range(4):
            new_game(c, "slow,slow,slow,slow,slow")  # no people: they start at once
        time.sleep(0.3)
        game = new_game(c, "human,greedy", start=True)
        with c.websocket_connect(ws_url(game, 0)) as ws:
            replies = _bot_replies(ws, 1, 6, random.Random(3))
    assert len(replies) == 6 and max(replies) < 0.5, replies


def test_search_bots_think_in_a_worker_process(tmp_path: Path) -> None:
    """Issue 12, defect 4: with ``bot_processes`` a search bot (ismcts) thinks in a worker
    process, off the server's interpreter lock, and its moves arrive like any other."""
    from concurrent.futures import ProcessPoolExecutor

    from flamecraft.server.games import Games

    with client_for(settings(tmp_path, bot_processes=1)) as c:
        games: Games = c.app.state.games  # type: ignore[attr-defined]
        game = new_game(c, "human,ismcts", start=True)
        with c.websocket_connect(ws_url(game, 0)) as ws:
            replies = _bot_replies(ws, 1, 1, random.Random(1))
        assert isinstance(games.lanes._search, ProcessPoolExecutor)
    assert len(replies) == 1 and replies[0] < 30


def test_a_composite_choice_is_played_whole_and_a_stale_one_changes_nothing(
        tmp_path: Path) -> None:
    """Issue 21: the page's choices (``choices``: session/compose.py) are sent back by their
    stable text; one of several engine actions is stored whole with one version bump, and
    undone whole; one no longer open (a stale page, another tab) is refused with the current
    choices, and nothing changes."""
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True)
        rng = random.Random(4)
        with c.websocket_connect(ws_url(game, 0)) as w0, \
                c.websocket_connect(ws_url(game, 1)) as w1:
            msgs = {0: next_state(w0), 1: next_state(w1)}
            ws = {0: w0, 1: w1}
            for _ in range(60):  # until a choice of several steps is on offer
                acting = msgs[0]["view"]["to_act"]
                msg = msgs[acting]
                several = [ch for ch in msg["choices"] if ch["steps"] > 1]
                if several:
                    break
                pick = msg["choices"][rng.randrange(len(msg["choices"]))]
                ws[acting].send_json({"type": "act", "version": msg["version"],
                                      "choice": pick["text"]})
                msgs = {0: next_state(w0), 1: next_state(w1)}
            else:
                pytest.fail("no choice of several steps in 60 choices")
            v, made = msg["version"], several[0]
            steps = stored(tmp_path / "games.sqlite3", game["game_id"])
            ws[acting].send_json({"type": "act", "version": v, "choice": "visit the Moon"})
            error = ws[acting].receive_json()
            assert error["code"] == "illegal" and msg["choices"][0]["text"] in error["message"]
            assert version_of(c, game) == v
            ws[acting].send_json({"type": "act", "version": v, "choice": made["text"]})
            after = next_state(ws[acting])
            assert after["version"] == v + 1
            assert stored(tmp_path / "games.sqlite3", game["game_id"]) == steps + made["steps"]
            ws[acting].send_json({"type": "act", "version": v, "choice": made["text"]})
            assert ws[acting].receive_json()["code"] == "stale"  # the other tab's answer
            if after["can_undo"]:
                ws[acting].send_json({"type": "undo", "version": v + 1})
                back = next_state(ws[acting])
                assert [ch["text"] for ch in back["choices"]] == [
                    ch["text"] for ch in msg["choices"]]
                assert stored(tmp_path / "games.sqlite3", game["game_id"]) == steps


def test_after_a_restart_undo_takes_back_a_whole_composite_choice(tmp_path: Path) -> None:
    """The undo points come back from the store one a choice: the actions of one composite
    were stored with one version, so after a restart an undo still takes them all back."""
    s = settings(tmp_path)
    rng = random.Random(5)
    with client_for(s) as c:
        game = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game, 0)) as w0, \
                c.websocket_connect(ws_url(game, 1)) as w1:
            msgs = {0: next_state(w0), 1: next_state(w1)}
            ws = {0: w0, 1: w1}
            made = None
            for _ in range(200):
                acting = msgs[0]["view"]["to_act"]
                msg = msgs[acting]
                listed = msg["choices"]
                several = [ch for ch in listed if ch["steps"] > 1 and not ch["confirm"]]
                pick = several[0] if several and msg["can_undo"] else listed[
                    rng.randrange(len(listed))]
                ws[acting].send_json({"type": "act", "version": msg["version"],
                                      "choice": pick["text"]})
                msgs = {0: next_state(w0), 1: next_state(w1)}
                if pick["steps"] > 1 and msgs[acting]["can_undo"] and msg["can_undo"]:
                    made, seat, before = pick, acting, msg
                    break
            assert made is not None, "no undoable choice of several steps"
            step = msgs[seat]["step"]
    with client_for(s) as c, c.websocket_connect(ws_url(game, seat)) as again:
        now = next_state(again)
        assert now["step"] == step and now["can_undo"]
        again.send_json({"type": "undo", "version": now["version"]})
        back = next_state(again)
        assert back["step"] == step - made["steps"] == before["step"]
