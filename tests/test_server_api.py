"""The web server's HTTP API: the lobby (create, list, join, leave, start, rematch), the card
catalog, records and replays, and the structured legal actions (docs/server.md, issue 7).

The helpers at the top are shared with the other test_server_* files.
"""

from __future__ import annotations

import os
import random
import re
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("fastapi", reason="the web extra is not installed")

from fastapi.testclient import TestClient

from flamecraft import apply_in_place, legal_actions, start, text
from flamecraft.ai.roster import BOTS, DEFAULT_OPPONENT
from flamecraft.core import actions as A
from flamecraft.core.board import CATALOG
from flamecraft.core.describe import describe
from flamecraft.core.kinds import ACTION_KINDS, SKIPS
from flamecraft.core.serialize import GameRecord, replay
from flamecraft.server import Settings, create_app
from flamecraft.server.actions_json import args_of, kind_name, legal_json

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# --------------------------------------------------------------------------- shared helpers


def settings(tmp_path: Path, **changes: Any) -> Settings:
    """Test settings: a fresh SQLite file, bots that move at once, no rate limit on moves
    nor on reads (scripted seats answer, and tests poll, faster than people)."""
    base: dict[str, Any] = {"database_url": f"sqlite:///{tmp_path / 'games.sqlite3'}",
                            "bot_delay": 0.0, "max_messages_per_second": 100000,
                            "reads_per_second": 100000.0}
    base.update(changes)
    return Settings(**base)


def postgres_url() -> str:
    """The test PostgreSQL database (FLAMECRAFT_TEST_PG, set by .ci/run). In CI its absence
    fails the test; elsewhere the test is skipped, saying why."""
    url = os.environ.get("FLAMECRAFT_TEST_PG", "")
    if not url:
        message = ("FLAMECRAFT_TEST_PG is not set: these tests need a PostgreSQL database "
                   "(.ci/run starts one; see docs/server.md)")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return url


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A database URL whose tables live in a fresh PostgreSQL schema, dropped afterwards, so
    that test runs never see each other's games."""
    import psycopg

    url = postgres_url()
    name = f"flamecraft_test_{secrets.token_hex(6)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{name}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


def client_for(s: Settings, clock: Callable[[], float] = time.monotonic) -> TestClient:
    """A test client of an app with these settings (and the clock of its rate limits)."""
    return TestClient(create_app(s, clock=clock))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(settings(tmp_path)) as c:
        yield c


def new_game(c: TestClient, kinds: str = "human,bot", **body: Any) -> dict[str, Any]:
    """Creates a game whose seats are "human" or a bot name, comma-separated."""
    seats = [{"kind": "human"} if k == "human" else {"kind": "bot", "bot": k if k != "bot"
                                                      else "random"} for k in kinds.split(",")]
    r = c.post("/api/games", json={"seats": seats, **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def ws_url(game: dict[str, Any], seat: int | None = None) -> str:
    if seat is None:
        return f"/ws/games/{game['game_id']}"
    token = game["seats"][seat]["token"]
    return f"/ws/games/{game['game_id']}?seat={seat}&token={token}"


def next_state(ws: Any, record: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The next state message (errors are returned too, so a test can check them)."""
    msg: dict[str, Any] = ws.receive_json()
    if record is not None:
        record.append(msg)
    return msg


def play_out(ws: Any, rng: random.Random, record: list[dict[str, Any]] | None = None,
             until: Any = None, first: dict[str, Any] | None = None) -> dict[str, Any]:
    """Plays a seat with random legal choices until the game ends (or ``until(msg)``),
    starting from ``first`` if given (a state already read); acts only on the newest state it
    has seen, as a browser does."""
    acted = -1
    while True:
        msg, first = first or next_state(ws, record), None
        if msg["type"] != "state":
            assert msg["type"] == "rematch", msg
            continue
        if msg["status"] == "finished" or (until is not None and until(msg)):
            return msg
        if msg["legal"] and msg["version"] > acted:
            acted = msg["version"]
            ws.send_json({"type": "act", "version": msg["version"],
                          "index": rng.randrange(len(msg["legal"]))})


def finished_game(c: TestClient, kinds: str = "random,random,random",
                  **body: Any) -> dict[str, Any]:
    """A whole game of bots, played on the server; returns the creation answer."""
    game = new_game(c, kinds, **body)
    with c.websocket_connect(ws_url(game)) as ws:
        play_out(ws, random.Random(0))
    return game


# --------------------------------------------------------------------------- the lobby


def test_create_gives_each_person_an_unguessable_link(client: TestClient) -> None:
    """Issue 7, lobby: 1–5 seats, people or bots; every person's seat gets its own secret
    token and link, bots none; the game is listed as open."""
    game = new_game(client, "human,bot,human,random,human", name="Friday", deck="golden",
                    companions=True)
    tokens = [s["token"] for s in game["seats"]]
    people = [t for t in tokens if t is not None]
    assert len(people) == 3 and len(set(people)) == 3
    assert all(len(t) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in people)
    assert tokens[1] is None and tokens[3] is None
    for s in game["seats"]:
        if s["token"]:
            assert s["link"] == f"/play/{game['game_id']}#seat={s['seat']}&token={s['token']}"
    assert game["spectate"] == f"/play/{game['game_id']}"
    listed = {g["game_id"]: g for g in client.get("/api/games").json()["games"]}
    entry = listed[game["game_id"]]
    assert entry["status"] == "open" and entry["name"] == "Friday" and entry["players"] == 5
    assert entry["deck"] == "golden" and entry["companions"] is True
    assert [s["joined"] for s in entry["seats"]] == [False, True, False, True, False]
    assert "token" not in str(entry)


@pytest.mark.parametrize("body, fragment", [
    ({"seats": []}, "seats"),
    ({"seats": [{"kind": "human"}] * 6}, "seats"),
    ({"seats": [{"kind": "bot", "bot": "no-such-bot"}]}, "unknown bot"),
    ({"seats": [{"kind": "bot", "bot": "expert:beam=2"}]}, "unknown bot 'expert:beam=2'"),
    ({"seats": [{"kind": "alien"}]}, "kind"),
    ({"seats": [{"kind": "human"}], "deck": "green"}, "deck"),
    ({"seats": [{"name": "Ann"}, {"name": "ann"}]}, "same name"),
    ({"seats": [{"name": "12"}]}, "number"),
    ({"seats": [{"kind": "human"}], "seed": -1}, "seed"),
    ({"seats": [{"kind": "human"}, {"kind": "bot"}], "first_player": 2}, "first_player"),
    ({"seats": [{"kind": "human"}], "first_player": -1}, "first_player"),
])
def test_bad_creation_is_refused_and_stores_nothing(client: TestClient, body: dict[str, Any],
                                                    fragment: str) -> None:
    """Issue 7, nothing let in: malformed input gets a clear error and changes nothing."""
    r = client.post("/api/games", json=body)
    assert r.status_code == 400
    assert r.json()["code"] == "malformed" and fragment in r.json()["message"]
    assert client.get("/api/games").json()["games"] == []


def test_join_leave_and_start(client: TestClient) -> None:
    """Issue 7, lobby: join (with a name) and leave need the seat's token; only the host
    starts, whether or not everyone joined; a started game cannot be started again."""
    game = new_game(client, "human,human,bot")
    gid, t0, t1 = game["game_id"], game["seats"][0]["token"], game["seats"][1]["token"]
    bad = client.post(f"/api/games/{gid}/join", json={"seat": 1, "token": t0})
    assert bad.status_code == 403 and bad.json()["code"] == "bad_token"
    r = client.post(f"/api/games/{gid}/join", json={"seat": 1, "token": t1, "name": "Bo"})
    assert r.status_code == 200
    assert r.json()["seats"][1] == {"seat": 1, "name": "Bo", "kind": "human", "bot": None,
                                    "joined": True, "stand_in": None, "conceded": False,
                                    "votes": [], "spans": []}
    r = client.post(f"/api/games/{gid}/leave", json={"seat": 1, "token": t1})
    assert r.json()["seats"][1]["joined"] is False
    r = client.post(f"/api/games/{gid}/start", json={"seat": 1, "token": t1})
    assert r.status_code == 403 and "host" in r.json()["message"]
    assert client.get(f"/api/games/{gid}").json()["status"] == "open"
    r = client.post(f"/api/games/{gid}/start", json={"seat": 0, "token": t0})
    assert r.status_code == 200 and r.json()["status"] == "running"
    again = client.post(f"/api/games/{gid}/start", json={"seat": 0, "token": t0})
    assert again.status_code == 409
    late = client.post(f"/api/games/{gid}/join", json={"seat": 1, "token": t1, "name": "Cy"})
    assert late.status_code == 409 and "names are fixed" in late.json()["message"]
    with client.websocket_connect(ws_url(game)) as ws:
        msg = next_state(ws)
    assert [p["name"] for p in msg["view"]["players"]] == ["Player 1", "Bo", "Ember"]


def test_the_first_player_is_drawn_from_the_seed_or_chosen(client: TestClient) -> None:
    """Rules, Preparation 7: a game's first player is drawn from its seed; the lobby entry
    names it before the game starts, and the table's view once it runs; `first_player`
    fixes it (a seat)."""
    seen = set()
    for seed in range(6):  # a chosen seed: one person at most (issue 12)
        game = new_game(client, "human,random,random", seed=seed)
        entry = client.get(f"/api/games/{game['game_id']}").json()
        drawn = start(3, seed).first_player
        assert entry["first_player"] == drawn
        seen.add(drawn)
    assert len(seen) > 1
    game = new_game(client, "human,human,human", first_player=2, start=True)
    entry = client.get(f"/api/games/{game['game_id']}").json()
    assert entry["first_player"] == 2
    with client.websocket_connect(ws_url(game, 0)) as ws:
        msg = next_state(ws)
    assert msg["view"]["first_player"] == 2 and msg["view"]["to_act"] == 2


def test_unknown_game_and_malformed_bodies(client: TestClient) -> None:
    """Issue 7, nothing let in: unknown games are 404, malformed bodies 400 with a code."""
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/api/games/nope").json()["code"] == "not_found"
    r = client.post("/api/games/nope/join", json={"seat": "x"})
    assert r.status_code == 400 and r.json()["code"] == "malformed"
    big = client.post("/api/games", content=b"{" + b" " * 20000 + b"}",
                      headers={"content-type": "application/json"})
    assert big.status_code == 413 and big.json()["code"] == "too_big"


def test_game_creation_is_rate_limited(tmp_path: Path) -> None:
    """Issue 7, bounded: one address may create only so many games a minute."""
    with client_for(settings(tmp_path, games_per_minute=2)) as c:
        new_game(c)
        new_game(c)
        r = c.post("/api/games", json={"seats": [{"kind": "human"}]})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"


def test_games_without_people_start_at_once_and_list_by_status(client: TestClient) -> None:
    """Issue 7, lobby: the list shows open and running games (and recent finished ones)."""
    bots = finished_game(client)
    waiting = new_game(client, "human,bot")
    listed = {g["game_id"]: g["status"] for g in client.get("/api/games").json()["games"]}
    assert listed == {bots["game_id"]: "finished", waiting["game_id"]: "open"}
    only = client.get("/api/games", params={"status": "finished"}).json()["games"]
    assert [g["game_id"] for g in only] == [bots["game_id"]]
    assert only[0]["result"]["winners"]


# --------------------------------------------------------------------------- finished games


def test_record_and_replay(client: TestClient) -> None:
    """Issue 7, replay: a finished game's record replays to its result; the replay endpoint
    steps through it with the spectators' view and public log."""
    game = new_game(client, "human,random,random", seed=11, start=True)
    gid = game["game_id"]
    assert client.get(f"/api/games/{gid}/record").status_code == 409
    with client.websocket_connect(ws_url(game, 0)) as ws:
        end = play_out(ws, random.Random(3))
    record = GameRecord.from_json(client.get(f"/api/games/{gid}/record").json())
    assert record.seed == 11 and len(record.actions) == end["step"]
    final = replay(record)
    assert final.over and final.rep == end["result"]["reputation"]
    assert record.result == end["result"]
    # the log announced the end trigger and the final round, as the terminal's does (issue 13)
    notes = [line for line in end["log"] if "the end is triggered" in line["text"]]
    assert len(notes) == 1 and "Final round" in notes[0]["text"] and "kind" not in notes[0]

    first = client.get(f"/api/games/{gid}/replay/0").json()
    assert first["step"] == 0 and first["steps"] == end["step"] and first["log"] == []
    assert first["view"]["observer"] is None and not first["view"]["over"]
    last = client.get(f"/api/games/{gid}/replay/{end['step']}").json()
    assert last["view"]["over"] and last["view"]["winners"] == end["result"]["winners"]
    # The replay's log is the public event stream: the other seats' lines of the player's
    # own log, and the player's own lines as the table saw them (no declines, no card kept).
    others = [line for line in end["log"] if line["player"] != 0]
    assert [line for line in last["log"] if line["player"] != 0] == others
    middle = client.get(f"/api/games/{gid}/replay/{end['step'] // 2}").json()
    assert 0 < len(middle["log"]) < len(last["log"])
    assert last["log"][:len(middle["log"])] == middle["log"]
    assert all("hand" not in p for p in last["view"]["players"])
    # the replay's log is the public one: kept Fancy Dragons are not named
    kept = {f"keep {name}" for name in (*(card.name for card in CATALOG.fancies),
                                         *(card.name for card in CATALOG.artisans))}
    assert "keep a Fancy Dragon" in {line["text"] for line in last["log"]}
    assert not kept & {line["text"] for line in last["log"]}
    assert client.get(f"/api/games/{gid}/replay/{end['step'] + 1}").status_code == 400


def test_a_seat_replays_with_its_own_cards_and_by_turn(client: TestClient) -> None:
    """Issue 22 item 5: with its key (POST, in the body) a seat's replay shows its own hand
    and Fancy Dragons as they were at each step, never another seat's; a wrong key is
    refused and changes nothing; ``turn_steps`` are the steps at which each turn begins."""
    game = new_game(client, "human,random", seed=13, start=True)
    gid = game["game_id"]
    with client.websocket_connect(ws_url(game, 0)) as ws:
        end = play_out(ws, random.Random(4))
    steps = end["step"]
    token = game["seats"][0]["token"]
    middle = steps // 2
    mine = client.post(f"/api/games/{gid}/replay/{middle}", json={"seat": 0, "token": token})
    assert mine.status_code == 200, mine.text
    seen = mine.json()
    assert seen["seat"] == 0 and seen["view"]["observer"] == 0
    players = seen["view"]["players"]
    assert "hand" in players[0] and all("hand" not in p for p in players[1:])
    public = client.get(f"/api/games/{gid}/replay/{middle}").json()
    assert public["view"]["observer"] is None
    assert all("hand" not in p for p in public["view"]["players"])
    assert len(seen["log"]) >= len(public["log"])  # its own private lines too
    wrong = client.post(f"/api/games/{gid}/replay/{middle}", json={"seat": 1, "token": token})
    assert wrong.status_code == 403 and wrong.json()["code"] == "bad_token"
    turns = seen["turn_steps"]
    assert turns[0] == 0 and turns == sorted(set(turns)) and turns[-1] <= steps
    at = [client.get(f"/api/games/{gid}/replay/{k}").json()["view"]["turn"] for k in turns[:4]]
    assert at == sorted(set(at))  # each a new turn


def test_log_lines_name_the_things_of_public_moves(client: TestClient) -> None:
    """Issue 13, the last move on the board: a log line carries its action's kind and things
    (by id) when the whole table reads the action in full, and nothing for a masked one (a
    kept Fancy Dragon) or a decline, whoever reads it. The replay says which lines are its
    step's and who acted."""
    game = new_game(client, "human,random", seed=5, start=True)
    gid = game["game_id"]
    with client.websocket_connect(ws_url(game, 0)) as ws:
        end = play_out(ws, random.Random(4))
    for line in end["log"]:
        if line["text"].startswith("visit "):
            assert line["kind"] == "visit"
            assert line["args"]["shop"] in {c.id for c in CATALOG.shops}
        if line["text"].startswith(("keep ", "discard ", "gift an Artisan", "do not", "end turn")):
            assert "kind" not in line and "args" not in line, line
    assert any(line["text"].startswith("keep ") and line["player"] == 0 for line in end["log"])
    last = client.get(f"/api/games/{gid}/replay/{end['step']}").json()
    assert any(line.get("kind") == "place" for line in last["log"])
    total = 0
    record = client.get(f"/api/games/{gid}/record").json()
    for step in range(1, 41):
        answer = client.get(f"/api/games/{gid}/replay/{step}").json()
        lines = answer["log"][len(answer["log"]) - answer["step_lines"]:]
        assert answer["actor"] in (0, 1)
        assert all(line["player"] == answer["actor"] for line in lines[:1])
        total += answer["step_lines"]
        assert total == len(answer["log"])
    assert len(record["actions"]) == end["step"]


def test_rematch(client: TestClient) -> None:
    """Issue 7, play again: a new game with the same seats and a new token for the asker;
    each player's old token also opens their new seat; asking twice gives the same game."""
    game = new_game(client, "human,random,human", companions=True)
    gid, t0, t2 = game["game_id"], game["seats"][0]["token"], game["seats"][2]["token"]
    assert client.post(f"/api/games/{gid}/rematch", json={"seat": 0, "token": t0}
                       ).status_code == 409
    start_r = client.post(f"/api/games/{gid}/start", json={"seat": 0, "token": t0})
    assert start_r.status_code == 200
    with client.websocket_connect(ws_url(game, 0)) as w0, \
            client.websocket_connect(ws_url(game, 2)) as w2:
        finish_two(w0, w2, seats=(0, 2))
        r = client.post(f"/api/games/{gid}/rematch", json={"seat": 2, "token": t2})
        assert r.status_code == 201
        new = r.json()
        # the old table tells each seat its own way into the new game
        note = next(m for m in iter_messages(w0) if m["type"] == "rematch")
        assert note["game_id"] == new["game_id"]
        assert note["link"] == f"/play/{new['game_id']}#seat=0&token={t0}"
    assert new["game_id"] != gid
    assert [(s["name"], s["kind"]) for s in new["seats"]] == [
        (s["name"], s["kind"]) for s in game["seats"]]
    fresh_tokens = [s["token"] for s in new["seats"]]
    assert fresh_tokens[0] is None and fresh_tokens[1] is None  # the asker's key only
    assert fresh_tokens[2] and fresh_tokens[2] != t2
    entry = client.get(f"/api/games/{new['game_id']}").json()
    assert entry["status"] == "open" and entry["companions"] is True
    ok = client.post(f"/api/games/{new['game_id']}/join", json={"seat": 0, "token": t0})
    assert ok.status_code == 200  # the old link leads on
    wrong = client.post(f"/api/games/{new['game_id']}/join", json={"seat": 0, "token": t2})
    assert wrong.status_code == 403  # but only to its own seat
    again = client.post(f"/api/games/{gid}/rematch", json={"seat": 0, "token": t0}).json()
    assert again["game_id"] == new["game_id"]
    assert [s["token"] for s in again["seats"]] == [t0, None, None]
    assert client.get(f"/api/games/{gid}").json()["rematch"] == new["game_id"]


def test_a_rematch_against_bots_starts_at_once(client: TestClient) -> None:
    """Issue 13: one person against bots waits for nobody, so the new game starts at once
    (as the first one did, created with ``start``)."""
    game = new_game(client, "human,random", seed=2, start=True)
    gid, token = game["game_id"], game["seats"][0]["token"]
    with client.websocket_connect(ws_url(game, 0)) as ws:
        play_out(ws, random.Random(1))
    new = client.post(f"/api/games/{gid}/rematch", json={"seat": 0, "token": token}).json()
    assert client.get(f"/api/games/{new['game_id']}").json()["status"] == "running"


def test_a_rematch_gives_the_asker_only_their_own_key(client: TestClient) -> None:
    """Issue 12, defect 1: the guest who asks for a rematch receives their own new key and
    no one else's, so they cannot open the host's seat (and read the host's hand); the host
    gets in with their old key, shown to them by the finished table as a rematch link."""
    game = new_game(client, "human,human", start=True)
    gid = game["game_id"]
    host, guest = game["seats"][0]["token"], game["seats"][1]["token"]
    with client.websocket_connect(ws_url(game, 0)) as w0, \
            client.websocket_connect(ws_url(game, 1)) as w1:
        finish_two(w0, w1)
        r = client.post(f"/api/games/{gid}/rematch", json={"seat": 1, "token": guest})
        assert r.status_code == 201
        note = next(m for m in iter_messages(w0) if m["type"] == "rematch")
    new = r.json()
    nid = new["game_id"]
    assert new["seats"][0]["token"] is None and new["seats"][0]["link"] is None
    assert new["seats"][1]["token"] and "token" not in str(new["game"])
    keys = {s["token"] for s in new["seats"] if s["token"]} | {guest}
    for key in keys:  # nothing the guest holds opens the host's seat
        refused = client.post(f"/api/games/{nid}/start", json={"seat": 0, "token": key})
        assert refused.status_code == 403
        with client.websocket_connect(f"/ws/games/{nid}?seat=0&token={key}") as ws:
            assert ws.receive_json()["code"] == "bad_token"
    assert note["game_id"] == nid and host in note["link"] and "seat=0" in note["link"]
    assert client.post(f"/api/games/{nid}/start", json={"seat": 0, "token": host}
                       ).status_code == 200


def iter_messages(ws: Any) -> Iterator[dict[str, Any]]:
    while True:
        yield ws.receive_json()


def finish_two(wa: Any, wb: Any, seats: tuple[int, int] = (0, 1),
               rng: random.Random | None = None) -> dict[str, Any]:
    """Plays two people's seats (plus any bots) to the end. Every connection receives every
    state, so the one whose seat is to act reads up to the newest state and answers it."""
    rng = rng or random.Random(1)
    a, b = seats
    conns = {a: wa, b: wb}
    last: dict[int, dict[str, Any]] = {a: next_state(wa), b: next_state(wb)}
    msg = last[a]
    while msg["status"] != "finished":
        who = msg["view"]["to_act"]
        if who in conns:
            while last[who]["version"] < msg["version"]:
                last[who] = next_state(conns[who])
            mine = last[who]
            conns[who].send_json({"type": "act", "version": mine["version"],
                                  "index": rng.randrange(len(mine["legal"]))})
        last[a] = msg = next_state(wa)
    return msg


# --------------------------------------------------------------------------- catalog, pages


def test_cards_bots_and_pages(client: TestClient) -> None:
    """Issue 7: the catalog the client draws from, the bots on offer, the page at the root."""
    cards = client.get("/api/cards").json()
    assert [s["id"] for s in cards["shops"]] == [s.id for s in CATALOG.shops]
    assert len(cards["artisans"]) == len(CATALOG.artisans)
    assert len(cards["enchantments"]) == len(CATALOG.enchantments)
    assert len(cards["fancies"]) == len(CATALOG.fancies)
    assert len(cards["companions"]) == len(CATALOG.companions)
    assert cards["goods"] == ["BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT"]
    for shop in cards["shops"]:
        assert len(shop["slots"]) == 3 and isinstance(shop["ability_name"], str)
        assert all(set(slot["accepts"]) <= {*cards["goods"], "ANY"} for slot in shop["slots"])
    for e in cards["enchantments"]:
        assert e["deck"] in ("purple", "golden") and e["cost"]
        assert set(e["cost"]) <= {*cards["goods"], "COIN"}
    bots = client.get("/api/bots").json()
    assert set(bots["bots"]) == set(BOTS)
    # people's levels strongest first, each with a plain name and its few words; then the
    # bots' own names for scripts; the default answers within about a second
    assert [b["name"] for b in bots["ladder"]] == ["expert", "strong", "casual", "beginner"]
    assert bots["bots"][:4] == [b["name"] for b in bots["ladder"]]
    assert bots["bots"][4:6] == ["planner", "ismcts"] and bots["bots"][-1] == "random"
    assert bots["default"] == DEFAULT_OPPONENT
    assert all(b["about"] and b["label"] for b in bots["ladder"])
    assert [b["name"] for b in bots["scripts"]] == bots["bots"][4:]
    for path in ("/", "/play/anything"):
        page = client.get(path)
        assert page.status_code == 200 and "<html" in page.text.lower()
    assert client.get("/api/health").json()["store"] == "sqlite"


# --------------------------------------------------------------------------- legal actions


def test_every_action_kind_has_a_structured_form() -> None:
    """Issue 7, the legal list: each kind of core/actions.py is named (its constant in lower
    case) and its arguments mapped by its declaration; every skip variant is named."""
    for code, kind in ACTION_KINDS.items():
        assert getattr(A, kind.name.upper()) == code == kind.code
        assert kind_name(code) == kind.name
        assert set(args_of((code, 0, 1, 0))) <= {arg.key for arg in kind.args} | {
            key for key, _ in kind.constants}
    assert [skip.code for skip in SKIPS.values()] == list(range(len(SKIPS)))
    assert len({skip.name for skip in SKIPS.values()}) == len(SKIPS)


def test_structured_actions_name_real_cards_and_match_the_texts() -> None:
    """Issue 7, the legal list: over whole games, every legal action's args name cards that
    exist, slots 1–3, Goods by key, and its text is the engine's."""
    ids = {"shop": {c.id for c in CATALOG.shops}, "artisan": {c.id for c in CATALOG.artisans},
           "enchantment": {c.id for c in CATALOG.enchantments},
           "fancy": {c.id for c in CATALOG.fancies},
           "companion": {c.id for c in CATALOG.companions}}
    goods = {"BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT"}
    seen: set[str] = set()
    facts = details = 0
    rng = random.Random(5)
    for seed, players, companions in ((1, 1, True), (2, 3, False), (3, 5, True)):
        s = start(players, seed, "golden" if seed == 2 else "purple", companions=companions)
        while not s.over:
            actions = legal_actions(s)
            listed = legal_json(s)
            for item, action in zip(listed, actions, strict=True):
                seen.add(item["kind"])
                assert item["text"] == text(s, action)
                # issue 13: the facts of core/describe, apart from the unchanged text
                choice = describe(s, action)
                assert (item["facts"], item["card"]) == (choice.facts, choice.card)
                if item["detail"] is not None:
                    prefix, _, card = item["detail"].partition(":")
                    assert card == choice.card and prefix in ("artisan", "ench", "fancy",
                                                              "companion", "shop")
                    details += 1
                facts += bool(item["facts"])
                args = item["args"]
                for key, table in ids.items():
                    if key in args:
                        assert args[key] in table, item
                if "slot" in args:
                    assert args["slot"] in (1, 2, 3)
                for key in ("good", "gain"):
                    if key in args:
                        assert args[key] in goods
                if "item" in args:
                    assert args["item"] in goods | {"COIN"}
                if "to" in args:
                    assert args["to"] in ("supply", "deck") or 0 <= args["to"] < players
            apply_in_place(s, actions[rng.randrange(len(actions))])
    assert {"visit", "gather", "enchant", "place", "pay", "keep_fancy", "skip"} <= seen
    assert facts > 100 and details > 100


# --------------------------------------------------------------------------- configuration


def test_settings_from_the_environment_and_the_command_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 7, serve: an SQLite file by default, PostgreSQL from FLAMECRAFT_DATABASE_URL,
    --database over both; a bad value is refused with a clear message before serving."""
    from flamecraft.cli.main import main
    from flamecraft.server.settings import database_url, is_postgres, sqlite_path

    assert Settings.from_env({}).database_url == "sqlite:///flamecraft.sqlite3"
    pg = Settings.from_env({"FLAMECRAFT_DATABASE_URL": "postgresql://u@h/db"})
    assert is_postgres(pg.database_url)
    chosen = Settings.from_env({"FLAMECRAFT_DATABASE_URL": "postgresql://u@h/db",
                                "FLAMECRAFT_BOT_DELAY": "0.1"}, database="games.db")
    assert sqlite_path(chosen.database_url) == "games.db" and chosen.bot_delay == 0.1
    assert sqlite_path(database_url("/tmp/x.db")) == "/tmp/x.db"
    with pytest.raises(ValueError, match="unsupported database"):
        database_url("mysql://h/db")
    with pytest.raises(ValueError, match="FLAMECRAFT_BOT_DELAY"):
        Settings.from_env({"FLAMECRAFT_BOT_DELAY": "soon"})
    assert main(["serve", "--database", "mysql://h/db"]) == 1
    assert "unsupported database" in capsys.readouterr().err
