"""Who is at the table (issue 23, presence): each seat shows here or away to everyone at the
table, live — away once a person has no connection, or only hidden tabs, for a grace period —
and the seat to act shows how long it has been thinking; the same bytes reach every seat and
spectator (docs/server.md, "presence")."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):  # in CI the web extra is installed: a missing one fails
    pytest.importorskip("fastapi", reason="the web extra is not installed")

from flamecraft.server.presence import GONE, HIDDEN, SHOWN, Presence, Told
from test_server_api import client_for, new_game, settings, ws_url

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GRACE = 0.3  # seconds (the server's default is 3 without a connection, 30 hidden)


def next_presence(ws: Any) -> tuple[str, dict[str, Any]]:
    """The next presence message (its text, and read), skipping the states."""
    while True:
        text = ws.receive_text()
        msg = json.loads(text)
        if msg["type"] == "presence":
            return text, msg
        assert msg["type"] == "state", msg


def statuses(msg: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(s["status"], s.get("why")) for s in msg["seats"]]


def presence_until(ws: Any, wanted: list[tuple[str, str | None]]) -> dict[str, Any]:
    """Reads presence messages until one says ``wanted`` (the grace's timer sends it)."""
    for _ in range(10):
        _text, msg = next_presence(ws)
        if statuses(msg) == wanted:
            return msg
    raise AssertionError(f"never {wanted}: last {msg}")


def test_a_seat_that_leaves_or_hides_is_away_to_everyone(tmp_path: Path) -> None:
    """Issue 23, presence: a person connected and shown is here; one whose last connection
    closed, or whose every tab is hidden, is away once the grace has passed (saying why);
    a bot seat says bot; coming back or showing the tab again is here at once."""
    s = settings(tmp_path, away_grace=GRACE, hidden_grace=GRACE)
    with client_for(s) as c:
        game = new_game(c, "human,human,random", start=True)
        with c.websocket_connect(ws_url(game, 0)) as ann:
            ann.send_json({"type": "presence", "hidden": False})
            # Bo never came: away (no connection) once the grace from the game's loading is up
            msg = presence_until(ann, [("here", None), ("away", "offline"), ("bot", None)])
            assert msg["seats"][1]["away"] >= 0 and msg["spectators"] == 0
            with c.websocket_connect(ws_url(game, 1)) as bo:
                presence_until(ann, [("here", None), ("here", None), ("bot", None)])
                bo.send_json({"type": "presence", "hidden": True})
                # hidden, but not yet for the grace: still here; then away, the tab hidden
                presence_until(ann, [("here", None), ("away", "hidden"), ("bot", None)])
                bo.send_json({"type": "presence", "hidden": False})
                presence_until(ann, [("here", None), ("here", None), ("bot", None)])
            # Bo's tab closed: away after the grace, no connection
            msg = presence_until(ann, [("here", None), ("away", "offline"), ("bot", None)])
            assert msg["seats"][1]["away"] < 5


def test_every_seat_and_spectator_gets_the_same_bytes(tmp_path: Path) -> None:
    """Issue 23, nothing leaked: the presence message says only what everyone at the table
    may know, so a seat and a spectator receive it byte for byte alike; it names the seat to
    act (the public to_act) and how long it has been thinking; it counts the spectators."""
    s = settings(tmp_path, away_grace=60.0, hidden_grace=60.0)
    with client_for(s) as c:
        game = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game, 0)) as ann, \
                c.websocket_connect(ws_url(game)) as spy:
            first = ann.receive_json()
            for ws in (ann, spy):
                ws.send_json({"type": "presence", "hidden": False})
            next_presence(ann)  # the answers to their own first presence messages
            next_presence(spy)
            with c.websocket_connect(ws_url(game, 1)):
                a, b = next_presence(ann), next_presence(spy)
                assert a[0] == b[0]
                assert statuses(a[1]) == [("here", None), ("here", None)]
                assert a[1]["acting"]["seat"] == first["view"]["to_act"]
                assert 0 <= a[1]["acting"]["thinking"] < 5 and a[1]["spectators"] == 1
                assert set(a[1]) == {"type", "seats", "acting", "spectators"}


def test_only_a_connection_that_asked_hears_presence(tmp_path: Path) -> None:
    """A script reading the raw protocol is sent what it did before (states, answers): the
    presence messages go to a connection once it has sent one itself (docs/server.md)."""
    s = settings(tmp_path, away_grace=GRACE)
    with client_for(s) as c:
        game = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game, 0)) as ann:
            assert ann.receive_json()["type"] == "state"
            with c.websocket_connect(ws_url(game, 1)):
                pass
            time.sleep(2 * GRACE)  # Bo away: a presence message to those who listen
            ann.send_json({"type": "ping", "id": "mark"})
            assert ann.receive_json() == {"type": "pong", "id": "mark"}


def test_a_malformed_presence_message_is_refused(tmp_path: Path) -> None:
    """Bad input: a presence message without a true-or-false ``hidden`` is "malformed", and
    changes nothing (the connection is not made to listen either)."""
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True)
        with c.websocket_connect(ws_url(game, 0)) as ann:
            assert ann.receive_json()["type"] == "state"
            for bad in ({"type": "presence"}, {"type": "presence", "hidden": "yes"},
                        {"type": "presence", "hidden": 1}):
                ann.send_json(bad)
                answer = ann.receive_json()
                assert answer["type"] == "error" and answer["code"] == "malformed", bad
                assert "hidden" in answer["message"]
            ann.send_json({"type": "ping", "id": 1})
            assert ann.receive_json() == {"type": "pong", "id": 1}


def test_the_grace_and_the_thinking_time() -> None:
    """presence.py alone, on a fake clock: away only after the grace, the time since going
    away counted from the loss; the thinking time starts again only when the seat to act
    changes; the next change the grace makes is when the message must be sent again."""
    now = [100.0]
    p = Presence(lambda: now[0], gone_grace=3.0, hidden_grace=30.0)
    conns: dict[int, list[str]] = {0: ["a"], 1: ["b"]}
    p.to_act(1)
    msg = json.loads(p.message(2, set(), lambda s: conns[s], 0))
    assert statuses(msg) == [("here", None), ("here", None)]
    assert msg["acting"] == {"seat": 1, "thinking": 0}
    conns[1] = []
    p.closed("b", 1, seat_still_open=False)
    assert p.next_change(2, set(), lambda s: conns[s]) == pytest.approx(3.0)
    now[0] += 2.9
    assert statuses(json.loads(p.message(2, set(), lambda s: conns[s], 0)))[1] == ("here", None)
    now[0] += 0.2
    p.to_act(1)  # the same seat: the thinking time goes on
    msg = json.loads(p.message(2, set(), lambda s: conns[s], 0))
    assert msg["seats"][1] == {"seat": 1, "status": "away", "why": "offline", "away": 3}
    assert msg["acting"] == {"seat": 1, "thinking": 3}
    assert p.next_change(2, set(), lambda s: conns[s]) is None
    assert p.said("a", True) and not p.said("a", True)  # news once
    now[0] += 29
    assert p.seat_status(0, ["a"])[0] == "here"
    now[0] += 1
    assert p.seat_status(0, ["a"])[:2] == ("away", "hidden")
    assert p.seat_status(0, ["a", "a2"])[0] == "here"  # another tab shown
    p.to_act(0)
    assert json.loads(p.message(2, {1}, lambda s: conns[s], 0))["acting"]["thinking"] == 0


def test_what_other_processes_tell_is_merged_and_expires() -> None:
    """Issue 23 item 1 over a shared PostgreSQL: a seat connected (and shown) only on another
    process is here, not away; hidden there, it is away after the hidden grace; spectators are
    counted on every process; what a process has not told again for ``ttl`` seconds (a process
    gone) stops counting, and that moment is a change the message must be sent again at."""
    now = [100.0]
    p = Presence(lambda: now[0], gone_grace=3.0, hidden_grace=30.0, ttl=45.0)
    here: dict[int, list[str]] = {0: ["a"], 1: []}
    now[0] += 10
    assert p.seat_status(1, [])[:2] == ("away", "offline")  # nobody told anything yet
    assert p.heard(Told("B", {1: (SHOWN, now[0])}, spectators=2))
    msg = json.loads(p.message(2, set(), lambda s: here[s], 1))
    assert statuses(msg) == [("here", None), ("here", None)] and msg["spectators"] == 3
    assert not p.heard(Told("B", {1: (SHOWN, now[0] + 5)}, spectators=2))  # no news
    assert p.next_change(2, set(), lambda s: here[s]) == pytest.approx(45.0)
    assert p.heard(Told("B", {1: (HIDDEN, now[0])}, spectators=0))
    now[0] += 29
    assert p.seat_status(1, [])[:2] == ("here", "hidden")
    now[0] += 1
    assert p.seat_status(1, [])[:2] == ("away", "hidden")
    assert p.heard(Told("C", {1: (SHOWN, now[0])}, spectators=0))  # a tab on a third process
    assert p.seat_status(1, [])[0] == "here"
    now[0] += 46  # neither B nor C told it again: both gone
    msg = json.loads(p.message(2, set(), lambda s: here[s], 1))
    assert msg["seats"][1]["status"] == "away" and msg["spectators"] == 1
    assert p.remote == {}


def test_a_process_tells_its_facts_as_json_and_malformed_ones_are_refused() -> None:
    """The bus's presence payload (``Told``) round-trips; a notification is not trusted: a
    seat out of range, an unknown kind or a negative count is a ValueError (dropped, logged)."""
    told = Told("p1", {0: (SHOWN, 1.5), 2: (GONE, 3.25)}, spectators=4, ask=True)
    assert Told.from_json(told.to_json(), 3) == told
    for bad in ("[]", '{"p": 1}', '{"p": "x", "f": {"5": ["shown", 1]}}',
                '{"p": "x", "f": {"0": ["asleep", 1]}}', '{"p": "x", "w": -1}',
                '{"p": "x", "f": {"zero": ["shown", 1]}}', "not json"):
        with pytest.raises(ValueError):
            Told.from_json(bad, 3)
