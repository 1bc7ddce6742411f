"""Clocks (issue 23 item 2), and a bot in the place of a person out of time or away (item 3):
chosen when the game is created and shown in the lobby list; none, real-time (a bank per seat
plus an increment per move) or turn-based (a deadline per move); kept on the server in the
game's row, so they survive a restart; out of time, the others are told and a grace period
later a bot plays the seat until the person takes it back. Bad clocks are refused by name and
store nothing."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):  # in CI the web extra is installed: a missing one fails
    pytest.importorskip("fastapi", reason="the web extra is not installed")

from flamecraft.server import clocks
from flamecraft.server.gameerror import GameError
from flamecraft.server.games import Games
from flamecraft.server.gamespec import NewGame, NewSeat
from test_server_api import client_for, new_game, next_state, settings, ws_url

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def auth(game: dict[str, Any], seat: int) -> dict[str, Any]:
    return {"seat": seat, "token": game["seats"][seat]["token"]}


# ------------------------------------------------------------------- the clock's arithmetic


def test_a_real_time_bank_is_charged_while_a_person_thinks_and_grows_by_the_increment() -> None:
    """The seat on the clock loses the time it thinks (several decisions of one turn
    included); the increment is added when the turn passes to another seat; a seat a bot
    plays is not charged."""
    clock = clocks.new_clock(clocks.ClockSpec(clocks.REALTIME, 60.0, 5.0), 2)
    assert clock is not None
    clocks.start(clock, 0, 1000.0)
    assert clocks.remaining(clock, 0, True, 1010.0) == 50.0
    assert clocks.runs_out(clock) == 1060.0
    clocks.moved(clock, True, 0, 1010.0)  # a decision within the turn: no increment
    assert clock["left"] == [50.0, 60.0] and clock["seat"] == 0
    clocks.moved(clock, True, 1, 1020.0)  # the turn passes: charged, then +5
    assert clock["left"] == [45.0, 60.0] and clock["seat"] == 1
    assert clocks.remaining(clock, 1, True, 1030.0) == 50.0
    clocks.moved(clock, False, 0, 1100.0)  # seat 1 played by a bot: nothing charged or added
    assert clock["left"] == [45.0, 60.0]
    assert clocks.remaining(clock, 0, True, 2000.0) == 0.0  # never below 0
    public = clocks.public_json(clock, [True, True], 1110.0)
    assert public == {"kind": "realtime", "bank": 60.0, "increment": 5.0, "seat": 0,
                      "left": [35.0, 60.0]}


def test_a_turn_based_deadline_is_set_per_turn_and_a_taken_back_seat_gets_time() -> None:
    clock = clocks.new_clock(clocks.ClockSpec(clocks.TURN, per_move=3600.0), 3)
    assert clock is not None
    clocks.start(clock, 1, 0.0)
    assert clocks.runs_out(clock) == 3600.0
    clocks.moved(clock, True, 1, 100.0)  # the same turn: the same deadline
    assert clocks.runs_out(clock) == 3600.0
    clocks.moved(clock, True, 2, 200.0)
    assert clocks.runs_out(clock) == 3800.0
    assert clocks.remaining(clock, 2, True, 800.0) == 3000.0
    assert clocks.remaining(clock, 0, True, 800.0) is None  # not on the clock: no deadline
    clocks.handed_back(clock, 2, 2, 5000.0)
    assert clocks.runs_out(clock) == 8600.0
    real = clocks.new_clock(clocks.ClockSpec(clocks.REALTIME, 10.0, 0.0), 2)
    assert real is not None
    real["left"][0] = 0.0
    clocks.handed_back(real, 0, 1, 0.0)
    assert real["left"][0] == clocks.RECLAIM_FLOOR


@pytest.mark.parametrize("clock, named", [
    ({"kind": "blitz"}, "kind"),
    ({"kind": "realtime", "bank": 0}, "bank"),
    ({"kind": "realtime", "bank": 60, "increment": 1000}, "increment"),
    ({"kind": "turn", "per_move": 30 * 86400}, "per_move"),
])
def test_a_bad_clock_is_refused_by_name_and_stores_nothing(tmp_path: Path, clock: dict[str, Any],
                                                           named: str) -> None:
    with client_for(settings(tmp_path)) as c:
        r = c.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}],
                                       "clock": clock})
        assert r.status_code in (400, 422), r.text
        assert named in r.text
        assert c.get("/api/games").json()["games"] == []


def test_the_clock_is_chosen_at_creation_listed_and_carried_into_a_rematch() -> None:
    spec = clocks.ClockSpec(clocks.REALTIME, 600.0, 10.0)
    new = NewGame((NewSeat(), NewSeat()), clock=spec, stand_in="planner")
    assert new.clock == spec and new.stand_in == "planner"
    with pytest.raises(GameError, match="stand_in"):
        NewGame((NewSeat(), NewSeat()), stand_in="nobody")


def test_the_lobby_lists_each_game_with_its_clock(tmp_path: Path) -> None:
    with client_for(settings(tmp_path)) as c:
        new_game(c, "human,human", clock={"kind": "turn", "per_move": 86400})
        new_game(c, "human,human")
        entries = c.get("/api/games").json()["games"]
        kinds = sorted(e["clock"]["kind"] for e in entries)
        assert kinds == ["none", "turn"]
        turn = next(e for e in entries if e["clock"]["kind"] == "turn")
        assert turn["clock"] == {"kind": "turn", "per_move": 86400.0}
        assert turn["deadline"] is None  # not started: no one on the clock


# ------------------------------------------------------------------- out of time: a bot plays


def test_a_real_time_clock_runs_out_a_bot_plays_and_the_person_takes_the_seat_back(
        tmp_path: Path) -> None:
    """Ann (seat 0, 1 s bank) does not move: the presence message shows her time running
    down to 0; after the grace a bot (the host's choice) plays her seat and the game goes on;
    she takes the seat back and has RECLAIM_FLOOR seconds. The spans say why."""
    s = settings(tmp_path, timeout_grace=0.3)
    with client_for(s) as c:
        game = new_game(c, "human,random", start=True, first_player=0, stand_in="random",
                        clock={"kind": "realtime", "bank": 1.0, "increment": 2.0})
        gid = game["game_id"]
        with c.websocket_connect(ws_url(game, 0)) as ann:
            first = next_state(ann)
            assert first["clock"] == {"kind": "realtime", "bank": 1.0, "increment": 2.0}
            ann.send_json({"type": "presence", "hidden": False})
            presence = next_state(ann)
            assert presence["type"] == "presence"
            assert presence["clock"]["seat"] == 0 and 0 < presence["clock"]["left"][0] <= 1.0
            started = time.monotonic()
            msg = first
            while msg["type"] != "state" or msg["seats"][0]["stand_in"] is None:
                msg = next_state(ann)
                assert time.monotonic() - started < 10, "no bot took the seat"
            waited = time.monotonic() - started
            assert waited >= 1.0  # the bank and the grace, not sooner
            seat = msg["seats"][0]
            assert seat["stand_in"] == "random" and seat["spans"][0]["why"] == "timeout"
            while msg["type"] != "state" or msg["step"] == first["step"]:
                msg = next_state(ann)  # the bot plays Ann's turn: the game goes on
            r = c.post(f"/api/games/{gid}/reclaim", json=auth(game, 0))
            assert r.status_code == 200, r.text
            row = c.get(f"/api/games/{gid}").json()
            assert row["seats"][0]["stand_in"] is None


def test_a_person_who_moves_in_time_keeps_their_seat(tmp_path: Path) -> None:
    s = settings(tmp_path, timeout_grace=0.2)
    with client_for(s) as c:
        game = new_game(c, "human,random", start=True, first_player=0,
                        clock={"kind": "realtime", "bank": 30.0, "increment": 5.0})
        with c.websocket_connect(ws_url(game, 0)) as ann:
            msg = next_state(ann)
            ann.send_json({"type": "act", "version": msg["version"], "index": 0})
            while msg["type"] != "state" or msg["step"] == 0:
                msg = next_state(ann)
            assert msg["seats"][0]["stand_in"] is None
        row = c.get(f"/api/games/{game['game_id']}").json()
        assert row["clock"]["kind"] == "realtime"


def test_a_turn_based_deadline_passes_while_the_server_is_down(tmp_path: Path) -> None:
    """The deadline is kept in the store: a server started after it has passed (the game
    not loaded: idle, so not resumed at start) finds it in its sweep, and a bot plays."""
    s = settings(tmp_path, timeout_grace=0.0)

    async def scenario() -> None:
        games = Games(s)
        await games.open()
        made = await games.create(NewGame((NewSeat(), NewSeat()), begin=True, first_player=0,
                                          clock=clocks.ClockSpec(clocks.TURN, per_move=1.0)))
        gid = made["game_id"]
        await games.close()
        await asyncio.sleep(1.2)
        later = Games(s)
        await later.open()
        later.sessions.pop(gid, None)  # (as if it were idle: not resumed)
        assert await later.load_due_clocks() == [gid]
        session = later.sessions[gid]
        for _ in range(100):
            if session.table.row.seats[0].stand_in is not None:
                break
            await asyncio.sleep(0.05)
        assert session.table.row.seats[0].spans[0]["why"] == "timeout"
        await later.close()

    asyncio.run(scenario())


def test_a_person_away_on_their_turn_is_played_by_a_bot_after_the_grace(tmp_path: Path) -> None:
    """No clock: Bo's tab closes on his turn; he is away after the away grace, and a bot
    plays for him ``away_takeover`` seconds later (Ann is told at each step)."""
    s = settings(tmp_path, away_grace=0.2, away_takeover=0.3)
    with client_for(s) as c:
        game = new_game(c, "human,human", start=True, first_player=1)
        with c.websocket_connect(ws_url(game, 0)) as ann:
            next_state(ann)
            ann.send_json({"type": "presence", "hidden": False})
            with c.websocket_connect(ws_url(game, 1)) as bo:
                next_state(bo)
            started = time.monotonic()
            msg: dict[str, Any] = {"type": ""}
            while msg.get("type") != "state" or msg["seats"][1]["stand_in"] is None:
                msg = next_state(ann)
                assert time.monotonic() - started < 10, "no bot took Bo's seat"
            assert time.monotonic() - started >= 0.5
            assert msg["seats"][1]["spans"][0]["why"] == "away"
