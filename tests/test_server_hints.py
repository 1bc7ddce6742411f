"""Hints and the review on the web server (issue 15 §2–3): POST /api/games/{id}/hint for the
seat to act only, from its own view, unless the host turned hints off; GET
/api/games/{id}/review for finished games only (docs/server.md)."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("fastapi", reason="the web extra is not installed")

from fastapi.testclient import TestClient

from flamecraft.core.engine import to_act
from flamecraft.core.hidden import determinize
from flamecraft.server.advice import hint_json
from test_server_api import (
    client_for,
    finished_game,
    new_game,
    next_state,
    play_out,
    settings,
    ws_url,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SAMPLES = 4


def quick(tmp_path: Path) -> Any:
    return settings(tmp_path, hint_samples=SAMPLES, review_samples=1, bot_processes=0)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(quick(tmp_path)) as c:
        yield c


def _waiting(c: TestClient, game: dict[str, Any], seat: int) -> dict[str, Any]:
    """The seat's state message once it has a decision."""
    with c.websocket_connect(ws_url(game, seat)) as ws:
        while True:
            msg = next_state(ws)
            if msg["type"] == "state" and msg["legal"]:
                return msg


def _ask(c: TestClient, game: dict[str, Any], seat: int, token: str | None = None) -> Any:
    key = game["seats"][seat]["token"] if token is None else token
    return c.post(f"/api/games/{game['game_id']}/hint", json={"seat": seat, "token": key})


def test_the_seat_to_act_gets_three_hints_and_no_one_else(client: TestClient) -> None:
    game = new_game(client, "human,human", start=True)
    gid = game["game_id"]
    assert game["game"]["hints"] is True
    first = game["game"]["first_player"]
    msg = _waiting(client, game, first)
    assert msg["hints"] is True  # every seat's state says whether hints are on
    r = _ask(client, game, first)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["version"] == msg["version"] and answer["seat"] == first
    hints = answer["hints"]
    assert len(hints) == min(3, len(msg["legal"]))
    legal = {a["text"] for a in msg["legal"]}
    for h in hints:
        assert h["action"] in legal and h["reason"] and 0 <= h["win"] <= 1
    assert hints[0]["loss"] == 0 and [h["loss"] for h in hints] == sorted(h["loss"]
                                                                         for h in hints)
    assert _ask(client, game, first).json() == answer  # kept for this version

    other = 1 - first
    r = _ask(client, game, other)
    assert r.status_code == 409 and r.json()["code"] == "out_of_turn"
    assert set(r.json()) == {"code", "message", "detail"}
    # a spectator has no key; another seat's key does not open the seat to act
    for seat, token in ((first, ""), (first, game["seats"][other]["token"]), (first, "x" * 32)):
        r = _ask(client, game, seat, token)
        assert r.status_code == 403 and r.json()["code"] == "bad_token", r.text
    assert client.post(f"/api/games/{gid}/hint", json={"seat": first}).status_code == 400


def test_a_hint_tells_nothing_of_other_seats_hidden_cards(client: TestClient) -> None:
    """The leak oracle (tests/test_hints.py) through the server: the hints it sends are the
    ones computed on a re-deal of everything the seat cannot see."""
    game = new_game(client, "human,random,random", start=True)
    _waiting(client, game, 0)
    session = client.app.state.games.sessions[game["game_id"]]  # type: ignore[attr-defined]
    s = session.table.state
    assert to_act(s) == 0
    answer = _ask(client, game, 0).json()
    seed = f"{session.table.row.seed}:{len(session.table.actions)}:hint"
    for k in (1, 2):
        other = determinize(s, 0, 1000 + k)
        assert other != s
        assert hint_json(other, 0, seed, SAMPLES) == answer["hints"]


def test_the_host_can_turn_hints_off_and_it_survives_a_restart(tmp_path: Path) -> None:
    with client_for(quick(tmp_path)) as c:
        game = new_game(c, "human,random", start=True, hints=False)
        gid = game["game_id"]
        assert game["game"]["hints"] is False
        msg = _waiting(c, game, 0)
        assert msg["hints"] is False
        r = _ask(c, game, 0)
        assert r.status_code == 403 and r.json()["code"] == "hints_off"
        assert "turned hints off" in r.json()["message"]
        on = new_game(c, "human,random", start=True)
    with client_for(quick(tmp_path)) as c:  # a new process: read back from the store
        assert c.get(f"/api/games/{gid}").json()["hints"] is False
        assert c.get(f"/api/games/{on['game_id']}").json()["hints"] is True
        listed = {g["game_id"]: g["hints"] for g in c.get("/api/games").json()["games"]}
        assert listed[gid] is False
        assert _ask(c, game, 0).json()["code"] == "hints_off"
        # a rematch keeps the host's choice
        with c.websocket_connect(ws_url(game, 0)) as ws:
            play_out(ws, random.Random(2))
        again = c.post(f"/api/games/{gid}/rematch",
                       json={"seat": 0, "token": game["seats"][0]["token"]}).json()
        assert again["game"]["hints"] is False


def test_the_review_is_for_finished_games_only(client: TestClient) -> None:
    running = new_game(client, "human,random", start=True)
    r = client.get(f"/api/games/{running['game_id']}/review")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    assert "every seat's cards" in r.json()["message"]
    assert client.get("/api/games/nosuchgame/review").status_code == 404

    game = finished_game(client, "random,random")
    gid = game["game_id"]
    r = client.get(f"/api/games/{gid}/review")
    assert r.status_code == 200, r.text
    rv = r.json()
    record = client.get(f"/api/games/{gid}/record").json()
    assert rv["names"] == [s["name"] for s in game["seats"]]
    assert len(rv["decisions"]) == len(record["actions"])
    assert rv["result"] == record["result"]["reputation"]
    assert len(rv["turns"]) == len(rv["chances"]) > 1
    assert all(abs(sum(c) - 1) < 1e-6 for c in rv["chances"])
    assert len(rv["mistakes"]) == 2
    for seat, bad in enumerate(rv["mistakes"]):
        assert len(bad) <= 3 and all(d["seat"] == seat and d["label"] for d in bad)
        assert [d["loss"] for d in bad] == sorted((d["loss"] for d in bad), reverse=True)
    assert sum(len(bad) for bad in rv["mistakes"]) > 0  # random play makes mistakes
    again = client.get(f"/api/games/{gid}/review").json()  # cached: the same answer
    assert json.dumps(again, sort_keys=True) == json.dumps(rv, sort_keys=True)


def _japanese(text: str) -> bool:
    return any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in text)


def test_hints_and_the_review_in_japanese(client: TestClient) -> None:
    """Issue 16: asked in Japanese (Accept-Language), a hint's reasons are Japanese and its
    actions the same stable texts as in English (the same choices, same values); the review's
    reasons and choices are Japanese, its numbers the same as in English."""
    ja = {"Accept-Language": "ja"}
    game = new_game(client, "human,human", start=True)
    first = game["game"]["first_player"]
    _waiting(client, game, first)
    key = {"seat": first, "token": game["seats"][first]["token"]}
    path = f"/api/games/{game['game_id']}/hint"
    en_hints = client.post(path, json=key).json()["hints"]
    ja_hints = client.post(path, json=key, headers=ja).json()["hints"]
    assert [(h["action"], h["value"]) for h in ja_hints] == \
        [(h["action"], h["value"]) for h in en_hints]
    assert all(_japanese(h["reason"]) for h in ja_hints)
    assert not any(_japanese(h["reason"]) for h in en_hints)

    done = finished_game(client, "random,random")
    path = f"/api/games/{done['game_id']}/review"
    en, jp = client.get(path).json(), client.get(path, headers=ja).json()
    assert en["result"] == jp["result"] and en["chances"] == jp["chances"]
    assert [d["loss"] for d in en["decisions"]] == [d["loss"] for d in jp["decisions"]]
    said = [d for d in jp["decisions"] if d["best_reason"]]
    assert said and all(_japanese(d["best_reason"]) for d in said)
    assert sum(_japanese(d["chosen"]) for d in jp["decisions"]) > len(jp["decisions"]) // 2
    assert not any(_japanese(d["chosen"] + d["best_reason"]) for d in en["decisions"])
