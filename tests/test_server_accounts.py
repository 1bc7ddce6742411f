"""Accounts (issue 27) through the HTTP API: passkey sign-up and sign-in (a software passkey,
``softkey.py``; the browser tests use Chromium's virtual authenticator), sessions and their
cookie, CSRF, sign-out everywhere, recovery, names, seats bound to an account, profiles,
export and deletion, every refusal leaving everything as it was, and the migration of a
schema-3 store with games in every state (on SQLite, and PostgreSQL when
FLAMECRAFT_TEST_PG is set)."""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from flamecraft.server.account_schema import ACCOUNT_TABLES, ACCOUNTS_SCHEMA
from flamecraft.server.accounts import issue_recovery
from flamecraft.server.sessions import COOKIE
from flamecraft.server.store import SCHEMA_VERSION, open_store
from softkey import SoftKey
from test_server_api import client_for, new_game, postgres_schema, settings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ERROR_KEYS = {"code", "message", "detail"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(settings(tmp_path)) as c:
        yield c


@pytest.fixture(params=["sqlite", "postgresql"])
def any_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """A client of a server on SQLite, then on PostgreSQL (FLAMECRAFT_TEST_PG)."""
    with contextlib.ExitStack() as stack:
        url = (stack.enter_context(postgres_schema()) if request.param == "postgresql"
               else settings(tmp_path).database_url)
        yield stack.enter_context(client_for(settings(tmp_path, database_url=url)))


def signup(c: TestClient, name: str, key: SoftKey | None = None) -> dict[str, Any]:
    """Signs ``c`` up as ``name`` with a passkey; the /api/me answer (with ``csrf``)."""
    key = key or SoftKey()
    r = c.post("/api/account/signup/options", json={"name": name})
    assert r.status_code == 200, r.text
    opts = r.json()
    r = c.post("/api/account/signup", json={"challenge_id": opts["challenge_id"],
                                            "credential": key.create(opts["options"])})
    assert r.status_code == 200, r.text
    out = dict(r.json())
    out["key"] = key
    return out


def signin(c: TestClient, key: SoftKey, headers: dict[str, str] | None = None) -> Any:
    opts = c.post("/api/account/signin/options", headers=headers).json()
    return c.post("/api/account/signin", headers=headers,
                  json={"challenge_id": opts["challenge_id"],
                        "credential": key.get(opts["options"])})


def csrf(me: dict[str, Any]) -> dict[str, str]:
    return {"X-Flamecraft-CSRF": me["csrf"]}


def refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) >= ERROR_KEYS and body["code"] == code, body


def test_sign_up_sign_in_on_another_client_and_sign_out(client: TestClient,
                                                        tmp_path: Path) -> None:
    me = signup(client, "Ann")
    assert me["signed_in"] and me["account"]["name"] == "Ann" and me["csrf"]
    cookie = client.cookies.get(COOKIE)
    assert cookie and len(cookie) >= 40
    assert client.get("/api/me").json()["account"]["name"] == "Ann"
    # the store holds the session's digest only, never the token
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        stored = [r[0] for r in db.execute("SELECT token_hash FROM flamecraft_sessions")]
        assert stored and cookie not in stored
    # another device (the same passkey, synced): signed in, a different session
    with client_for(settings(tmp_path)) as other:
        r = signin(other, me["key"])
        assert r.status_code == 200, r.text
        assert r.json()["account"] == me["account"]
        set_cookie = r.headers["set-cookie"]
        assert "HttpOnly" in set_cookie and "SameSite=Lax" in set_cookie
        assert "Secure" not in set_cookie  # plain HTTP here; over HTTPS it is (below)
        assert other.cookies.get(COOKIE) != cookie
        # sign-out ends that session only
        r = other.post("/api/me/signout", headers=csrf(r.json()))
        assert r.status_code == 200 and other.get("/api/me").json() == {"signed_in": False}
    assert client.get("/api/me").json()["signed_in"]


def test_a_sign_in_rotates_the_session(client: TestClient) -> None:
    me = signup(client, "Ann")
    first = client.cookies.get(COOKIE)
    r = signin(client, me["key"], csrf(me))
    assert r.status_code == 200
    second = client.cookies.get(COOKIE)
    assert second and second != first
    # the old token no longer signs anyone in
    client.cookies.set(COOKIE, first or "")
    assert client.get("/api/me").json() == {"signed_in": False}


def test_a_sign_up_ends_the_browsers_previous_session(client: TestClient) -> None:
    me = signup(client, "Ann")
    first = client.cookies.get(COOKIE)
    r = client.post("/api/account/signup/options", json={"name": "Bob"}, headers=csrf(me))
    opts = r.json()
    r = client.post("/api/account/signup", headers=csrf(me), json={
        "challenge_id": opts["challenge_id"], "credential": SoftKey().create(opts["options"])})
    assert r.status_code == 200 and r.json()["account"]["name"] == "Bob"
    client.cookies.set(COOKIE, first or "")
    assert client.get("/api/me").json() == {"signed_in": False}


def test_ratings_are_written_only_over_the_ratings_they_were_computed_from(
        tmp_path: Path) -> None:
    """Two games ending at once: the second to write finds a rating moved since it read it,
    writes nothing, and computes again (``rate_once`` returns None)."""
    from flamecraft.server import account_store as db
    from flamecraft.server.account_store import AccountRow, CredentialRow, RatingChange

    store = open_store(settings(tmp_path).database_url)
    try:
        with client_for(settings(tmp_path)) as c:
            game = new_game(c, "human,human")
        db.create_account(store, AccountRow("a1", "Ann", "ann", "h1", 0.0),
                          CredentialRow("c1", "a1", "k", 0, [], 0.0, 0.0), "s1", 9e9)
        db.mark_rated(store, game["game_id"], "people")
        change = [RatingChange("a1", 30.0, 7.0, 1, 2)]
        stale = {"a1": db.RatingRow("a1", 27.0, 8.0, 1)}  # not what the store holds (none)
        assert db.apply_ratings_checked(store, game["game_id"], change, stale, 1.0) is None
        assert db.ratings(store, ["a1"]) == {} and db.history(store, "a1") == []
        assert db.rated_mode(store, game["game_id"]) == ("people", False)
        assert db.apply_ratings_checked(store, game["game_id"], change, {}, 1.0) is True
        assert db.apply_ratings_checked(store, game["game_id"], change, {}, 1.0) is False
        assert db.ratings(store, ["a1"])["a1"].games == 1 and len(db.history(store, "a1")) == 1
    finally:
        store.close()


def test_secure_cookie_over_https(tmp_path: Path) -> None:
    with client_for(settings(tmp_path, public_origin="https://flamecraft.example")) as c:
        key = SoftKey(origin="https://flamecraft.example")
        opts = c.post("/api/account/signup/options", json={"name": "Ann"}).json()
        assert opts["options"]["rp"]["id"] == "flamecraft.example"
        r = c.post("/api/account/signup", json={"challenge_id": opts["challenge_id"],
                                                "credential": key.create(opts["options"])})
        assert r.status_code == 200, r.text
        assert "Secure" in r.headers["set-cookie"]


def test_the_public_origin_setting_is_checked() -> None:
    from flamecraft.server.settings import Settings

    assert Settings.from_env({"FLAMECRAFT_ORIGIN": "https://f.example/"}).public_origin == (
        "https://f.example")
    assert Settings.from_env({}).public_origin == ""
    for bad in ("f.example", "https://f.example/play", "ftp://f.example", "https://"):
        with pytest.raises(ValueError, match="FLAMECRAFT_ORIGIN"):
            Settings.from_env({"FLAMECRAFT_ORIGIN": bad})


def test_csrf_is_required_with_the_cookie(client: TestClient) -> None:
    me = signup(client, "Ann")
    for method, path, body in (("POST", "/api/me/name", {"name": "Bea"}),
                               ("POST", "/api/me/signout-everywhere", None),
                               ("DELETE", "/api/me", None),
                               ("POST", "/api/games", {"seats": [{"kind": "human"}]})):
        r = client.request(method, path, json=body)
        refused(r, 403, "csrf")
        r = client.request(method, path, json=body, headers={"X-Flamecraft-CSRF": "0" * 40})
        refused(r, 403, "csrf")
    assert client.get("/api/me").json()["account"]["name"] == "Ann"  # nothing changed
    assert client.get("/api/games").json()["games"] == []
    # with the token it works; a guest (no cookie) needs none
    assert client.post("/api/me/name", json={"name": "Bea"}, headers=csrf(me)).status_code == 200
    client.cookies.clear()
    assert client.post("/api/games", json={"seats": [{"kind": "human"}]}).status_code == 201


def test_a_forged_or_replayed_assertion_and_a_stale_challenge(client: TestClient,
                                                              tmp_path: Path) -> None:
    me = signup(client, "Ann")
    client.post("/api/me/signout", headers=csrf(me))
    key: SoftKey = me["key"]
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        before = db.execute("SELECT sign_count FROM flamecraft_credentials").fetchall()
    # forged: another key signs for Ann's credential id
    opts = client.post("/api/account/signin/options").json()
    forger = SoftKey(credential_id=key.credential_id, user_handle=key.user_handle)
    r = client.post("/api/account/signin", json={"challenge_id": opts["challenge_id"],
                                                 "credential": forger.get(opts["options"])})
    refused(r, 403, "bad_passkey")
    # an unknown passkey is refused in the same words (no account enumeration)
    opts = client.post("/api/account/signin/options").json()
    r2 = client.post("/api/account/signin", json={
        "challenge_id": opts["challenge_id"], "credential": SoftKey().get(opts["options"])})
    refused(r2, 403, "bad_passkey")
    assert r2.json()["message"] == r.json()["message"]
    # another site's origin
    opts = client.post("/api/account/signin/options").json()
    r = client.post("/api/account/signin", json={
        "challenge_id": opts["challenge_id"],
        "credential": key.get(opts["options"], origin="https://evil.example")})
    refused(r, 403, "bad_passkey")
    # a good answer, then the same answer again: its challenge is used up
    opts = client.post("/api/account/signin/options").json()
    answer = {"challenge_id": opts["challenge_id"], "credential": key.get(opts["options"])}
    assert client.post("/api/account/signin", json=answer).status_code == 200
    good_count = key.count
    client.cookies.clear()
    refused(client.post("/api/account/signin", json=answer), 400, "expired")
    # replayed against a fresh challenge: the signature does not cover it
    opts = client.post("/api/account/signin/options").json()
    refused(client.post("/api/account/signin", json={
        "challenge_id": opts["challenge_id"], "credential": answer["credential"]}),
        403, "bad_passkey")
    # a counter that went back (a cloned authenticator)
    opts = client.post("/api/account/signin/options").json()
    refused(client.post("/api/account/signin", json={
        "challenge_id": opts["challenge_id"], "credential": key.get(opts["options"], count=1)}),
        403, "bad_passkey")
    assert client.get("/api/me").json() == {"signed_in": False}
    # a challenge past its time
    import flamecraft.server.accounts as accounts_module

    opts = client.post("/api/account/signin/options").json()
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        db.execute("UPDATE flamecraft_challenges SET expires = 1")
        after = db.execute("SELECT sign_count FROM flamecraft_credentials").fetchall()
    assert before[0][0] < after[0][0] == good_count  # only the good sign-in counted
    refused(client.post("/api/account/signin", json={
        "challenge_id": opts["challenge_id"], "credential": key.get(opts["options"])}),
        400, "expired")
    assert accounts_module.CHALLENGE_SECONDS <= 600


def test_names_follow_the_seat_name_rules(client: TestClient, tmp_path: Path) -> None:
    for bad in ("", "Ann\u200b", "A\u0007nn", "x" * 21, "12", "spectator"):
        r = client.post("/api/account/signup/options", json={"name": bad})
        refused(r, 400, "malformed")
    me = signup(client, "Ann")
    # taken, case-folded, fullwidth, and a look-alike of another script
    with client_for(settings(tmp_path)) as c2:
        for taken in ("ann", "ＡＮＮ", "Аnn"):  # the last with a Cyrillic А
            refused(c2.post("/api/account/signup/options", json={"name": taken}), 409,
                    "name_taken")
    refused(client.post("/api/me/name", json={"name": "Bob\u202e"}, headers=csrf(me)),
            400, "malformed")
    assert client.get("/api/me").json()["account"]["name"] == "Ann"
    r = client.post("/api/me/name", json={"name": "  Ann  Lee "}, headers=csrf(me))
    assert r.status_code == 200 and r.json()["name"] == "Ann Lee"


def test_sign_out_everywhere_and_a_deleted_accounts_cookie(client: TestClient,
                                                           tmp_path: Path) -> None:
    me = signup(client, "Ann")
    with client_for(settings(tmp_path)) as other:
        other_me = signin(other, me["key"]).json()
        r = client.post("/api/me/signout-everywhere", headers=csrf(me))
        assert r.status_code == 200 and r.json()["ended"] == 2
        assert other.get("/api/me").json() == {"signed_in": False}
        refused(other.post("/api/me/name", json={"name": "Eve"}, headers=csrf(other_me)), 401,
                "signed_out")
    me = signin(client, me["key"]).json()
    old_cookie = client.cookies.get(COOKIE)
    assert client.delete("/api/me", headers=csrf(me)).json()["deleted"]
    client.cookies.set(COOKIE, old_cookie or "")
    for method, path in (("POST", "/api/me/name"), ("DELETE", "/api/me"),
                         ("GET", "/api/me/export"), ("GET", "/api/me/games")):
        refused(client.request(method, path, json={"name": "Eve"}, headers=csrf(me)), 401,
                "signed_out")
    r = client.get("/api/me")
    assert r.json() == {"signed_in": False} and "Max-Age=0" in r.headers["set-cookie"]
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        for table in ("accounts", "credentials", "sessions"):
            assert db.execute(f"SELECT COUNT(*) FROM flamecraft_{table}").fetchone() == (0,)


def test_sign_in_and_up_are_rate_limited(tmp_path: Path) -> None:
    with client_for(settings(tmp_path, account_attempts_per_minute=3)) as c:
        for _ in range(3):
            assert c.post("/api/account/signin/options").status_code == 200
        refused(c.post("/api/account/signin/options"), 429, "rate_limited")
        refused(c.post("/api/account/signup/options", json={"name": "Ann"}), 429,
                "rate_limited")


def test_recovery_by_the_host(client: TestClient, tmp_path: Path) -> None:
    me = signup(client, "Ann")
    client.cookies.clear()
    store = open_store(settings(tmp_path).database_url)
    try:
        assert issue_recovery(store, "Nobody") is None
        code = issue_recovery(store, "ann")
    finally:
        store.close()
    assert code is not None
    with client_for(settings(tmp_path)) as c:
        refused(c.post("/api/account/recover/options", json={"code": "x" + code}), 400,
                "expired")
        opts = c.post("/api/account/recover/options", json={"code": code}).json()
        # the lost passkey is excluded; the new one is stored for the same account
        assert [x["id"] for x in opts["options"]["excludeCredentials"]] == [me["key"].id]
        new_key = SoftKey()
        r = c.post("/api/account/recover", json={"challenge_id": opts["challenge_id"],
                                                 "credential": new_key.create(opts["options"])})
        assert r.status_code == 200 and r.json()["account"] == me["account"]
        # the code worked once
        refused(c.post("/api/account/recover/options", json={"code": code},
                       headers=csrf(r.json())), 400, "expired")
    again = signin(client, new_key).json()
    assert again["account"] == me["account"]
    assert signin(client, me["key"], csrf(again)).status_code == 200  # the old one too


def _bind(c: TestClient, me: dict[str, Any], created: dict[str, Any], seat: int) -> str:
    r = c.post("/api/me/seats", headers=csrf(me), json={
        "game_id": created["game_id"], "seat": seat, "token": created["seats"][seat]["token"]})
    assert r.status_code == 200, r.text
    return str(r.json()["seat_link"])


def test_a_bound_seat_opens_from_another_device(client: TestClient, tmp_path: Path) -> None:
    game = new_game(client, "human,human", name="Friday")
    me = signup(client, "Ann")
    link = _bind(client, me, game, 0)
    token = link.split("token=")[1]
    assert token != game["seats"][0]["token"]
    # another device, signed in: "my games" holds the seat and the account's own link
    with client_for(settings(tmp_path)) as other:
        other_me = signin(other, me["key"]).json()
        mine = other.get("/api/me/games").json()["games"]
        assert [(g["game_id"], g["seat"], g["seat_link"]) for g in mine] == [
            (game["game_id"], 0, link)]
        # the account's key opens the seat as its link does
        r = other.post(f"/api/games/{game['game_id']}/join", json={"seat": 0, "token": token},
                       headers=csrf(other_me))
        assert r.status_code == 200, r.text
        # binding again is the same link; the other seat's key does not open seat 0
        assert _bind(other, other_me, game, 0) == link
        # one seat per account in a game (a rated game is not played against oneself)
        refused(other.post("/api/me/seats", headers=csrf(other_me), json={
            "game_id": game["game_id"], "seat": 1, "token": game["seats"][1]["token"]}),
            409, "illegal")
        refused(other.post("/api/me/seats", headers=csrf(other_me), json={
            "game_id": game["game_id"], "seat": 0,
            "token": game["seats"][1]["token"]}), 403, "bad_token")
    # someone else cannot take a seat bound to Ann
    with client_for(settings(tmp_path)) as bob:
        bob_me = signup(bob, "Bob")
        refused(bob.post("/api/me/seats", headers=csrf(bob_me), json={
            "game_id": game["game_id"], "seat": 0, "token": game["seats"][0]["token"]}),
            403, "bad_token")
        assert bob.get("/api/me/games").json()["games"] == []
    # a guest's link still works
    client.cookies.clear()
    guest = client.post(f"/api/games/{game['game_id']}/join",
                        json={"seat": 1, "token": game["seats"][1]["token"]})
    assert guest.status_code == 200


def _downgrade(url: str) -> None:
    """Makes the store at ``url`` a store of schema 3, the last one released before the
    accounts: no account tables and no stored reviews (schema 4)."""
    store = open_store(url)
    try:
        with store._transaction() as cur:
            for statement in reversed(ACCOUNT_TABLES):
                if statement.lstrip().startswith("CREATE TABLE"):
                    table = statement.split("EXISTS")[1].split("(")[0].strip()
                    cur.execute(f"DROP TABLE {table}")
            cur.execute("DROP TABLE flamecraft_reviews")
            cur.execute(store._sql("UPDATE flamecraft_meta SET value = ? WHERE key = "
                                   "'schema_version'"), ("3",))
    finally:
        store.close()


def _stored(url: str) -> tuple[str, list[Any], list[Any]]:
    """The schema version, the games' rows and the actions' rows of the store at ``url``,
    read raw (opening it as a store would migrate it)."""
    if url.startswith("sqlite"):
        with sqlite3.connect(url[len("sqlite:///"):]) as db:
            version = db.execute("SELECT value FROM flamecraft_meta WHERE key = "
                                 "'schema_version'").fetchone()[0]
            games = db.execute("SELECT * FROM flamecraft_games ORDER BY id").fetchall()
            actions = db.execute("SELECT * FROM flamecraft_actions ORDER BY game_id, seq"
                                 ).fetchall()
        return str(version), games, actions
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        version = conn.execute("SELECT value FROM flamecraft_meta WHERE key = "
                               "'schema_version'").fetchone()
        games = conn.execute("SELECT * FROM flamecraft_games ORDER BY id").fetchall()
        actions = conn.execute("SELECT * FROM flamecraft_actions ORDER BY game_id, seq"
                               ).fetchall()
    assert version is not None
    return str(version[0]), games, actions


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migration_from_schema_3_loses_nothing(backend: str, tmp_path: Path) -> None:
    """A store of schema 3 (no account tables) with games waiting, running and finished,
    opened by this server: schema 5, every game and action as it was, and accounts work
    (SQLite, and PostgreSQL when FLAMECRAFT_TEST_PG is set)."""
    import time

    with contextlib.ExitStack() as stack:
        url = (stack.enter_context(postgres_schema()) if backend == "postgresql"
               else settings(tmp_path).database_url)
        s = settings(tmp_path, database_url=url)
        with client_for(s) as c:
            waiting = new_game(c, "human,human")
            running = new_game(c, "human,random", start=True, first_player=0)
            finished = new_game(c, "random,random")
            deadline = time.monotonic() + 60
            while c.get(f"/api/games/{finished['game_id']}").json()["status"] != "finished":
                assert time.monotonic() < deadline
                time.sleep(0.05)
        _downgrade(url)
        version, games_before, actions_before = _stored(url)
        assert version == "3"
        assert {g[5] for g in games_before} == {"open", "running", "finished"}
        with client_for(s) as c:
            for game, status in ((waiting, "open"), (running, "running"),
                                 (finished, "finished")):
                r = c.get(f"/api/games/{game['game_id']}")
                assert r.status_code == 200 and r.json()["status"] == status
            me = signup(c, "Ann")
            _bind(c, me, running, 0)
            assert c.get("/api/me/games").json()["games"][0]["game_id"] == running["game_id"]
        version, games_after, actions_after = _stored(url)
        assert version == str(SCHEMA_VERSION) == str(ACCOUNTS_SCHEMA)
        # every game and every action as it was (the running one waits for its person: its
        # row gained only the account's key to seat 0, its version bumped by that)
        assert actions_after == actions_before
        assert [g[0] for g in games_after] == [g[0] for g in games_before]
        for b, a in zip(games_before, games_after, strict=True):
            if b[0] != running["game_id"]:
                assert a == b
            else:
                assert (a[1], a[2], a[3], a[5]) == (b[1], b[2], b[3], b[5])



# --------------------------------------------------------------------------- ratings, profiles


class People:
    """Several people signed in on one test client (one server): ``as_(name)`` puts that
    person's cookie in the client's jar; ``headers(name)`` is their CSRF header."""

    def __init__(self, c: TestClient):
        self.c = c
        self.me: dict[str, dict[str, Any]] = {}
        self.cookie: dict[str, str | None] = {}

    def add(self, name: str) -> dict[str, Any]:
        self.c.cookies.clear()
        me = signup(self.c, name)
        self.me[name], self.cookie[name] = me, self.c.cookies.get(COOKIE)
        return me

    def as_(self, name: str | None) -> dict[str, str]:
        self.c.cookies.clear()
        if name is None:
            return {}
        self.c.cookies.set(COOKIE, self.cookie[name] or "")
        return csrf(self.me[name])

    def id(self, name: str) -> str:
        return str(self.me[name]["account"]["id"])


def _wait(check: Any, seconds: float = 30) -> Any:
    import time

    deadline = time.monotonic() + seconds
    while True:
        out = check()
        if out:
            return out
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _profile(c: TestClient, account_id: str) -> dict[str, Any]:
    r = c.get(f"/api/players/{account_id}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_a_rated_two_person_game_updates_both_ratings(any_client: TestClient) -> None:
    client = any_client
    import random

    from test_server_api import finish_two, ws_url

    people = People(client)
    people.add("Ann")
    people.add("Bob")
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            "rated": "people", "hints": False, "start": True}
    # refused: a guest; hints on; a bot seat among people; nothing stored
    people.as_(None)
    refused(client.post("/api/games", json=body), 401, "signed_out")
    h = people.as_("Ann")
    refused(client.post("/api/games", json={**body, "hints": True}, headers=h), 400,
            "malformed")
    refused(client.post("/api/games", headers=h, json={
        **body, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}), 400,
        "malformed")
    assert client.get("/api/games").json()["games"] == []
    r = client.post("/api/games", json=body, headers=h)
    assert r.status_code == 201, r.text
    game = r.json()
    assert game["rated"] == "people"
    assert client.get(f"/api/games/{game['game_id']}").json()["rated"] == "people"
    _bind(client, people.me["Ann"], game, 0)
    h = people.as_("Bob")
    _bind(client, people.me["Bob"], game, 1)
    people.as_(None)
    with client.websocket_connect(ws_url(game, 0)) as wa, \
            client.websocket_connect(ws_url(game, 1)) as wb:
        end = finish_two(wa, wb, rng=random.Random(4))
    winners = end["result"]["winners"]
    ann = _wait(lambda: (p := _profile(client, people.id("Ann")))["rating"]["games"] and p)
    bob = _wait(lambda: (p := _profile(client, people.id("Bob")))["rating"]["games"] and p)
    for p, seat in ((ann, 0), (bob, 1)):
        assert p["rating"]["games"] == 1 and len(p["history"]) == 1
        assert p["played"] == p["finished"] == 1
        line = p["games"][0]
        assert line["game_id"] == game["game_id"] and line["seat"] == seat
        assert line["replay"] == f"/play/{game['game_id']}?replay=1" and "review" in line
        won = seat in winners
        assert line["won"] == won
        assert p["by_players"] == [{"players": 2, "finished": 1, "won": int(won),
                                    "win_rate": float(won)}]
        # a newcomer is Elo 0; a win moves the rating up, a loss down
        assert (p["rating"]["elo"] > 0) == won or (len(winners) == 2 and p["rating"]["elo"] == 0)
        assert p["rating"]["like"] in ("beginner", "casual", "strong", "expert")
    # a finished game's profile names no card (its record is for the replay)
    from test_server_leaks import NAMES

    for text in (client.get(f"/api/players/{people.id(n)}").text for n in ("Ann", "Bob")):
        assert NAMES.search(text) is None
    board = client.get("/api/leaderboard").json()["players"]
    assert {x["name"] for x in board} == {"Ann", "Bob"}
    assert [x["rank"] for x in board] == [1, 2]
    # rated once: a second look changes nothing
    from flamecraft.server.profiles import rate_once

    store = open_store(client.app.state.settings.database_url)  # type: ignore[attr-defined]
    try:
        assert rate_once(store, game["game_id"], 0.0) is False
    finally:
        store.close()
    assert _profile(client, people.id("Ann"))["rating"] == ann["rating"]


def test_a_seat_a_bot_finished_is_placed_last(any_client: TestClient) -> None:
    """A person who concedes a rated game against a bot: the bot plays their seat out, and
    whatever its score the game is rated as their loss (never a win)."""
    client = any_client
    people = People(client)
    people.add("Ann")
    h = people.as_("Ann")
    r = client.post("/api/games", headers=h, json={
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "rated": "bots",
        "hints": False, "first_player": 0, "start": True})
    assert r.status_code == 201, r.text
    game = r.json()
    _bind(client, people.me["Ann"], game, 0)
    token = game["seats"][0]["token"]
    r = client.post(f"/api/games/{game['game_id']}/concede", headers=h,
                    json={"seat": 0, "token": token})
    assert r.status_code == 200, r.text
    p = _wait(lambda: (x := _profile(client, people.id("Ann")))["rating"]["games"] and x)
    assert p["history"][0]["place"] == 2
    line = p["games"][0]
    assert line["left"] and not line["won"] and line["place"] == 2
    assert p["rating"]["elo"] < 0  # lost to the random bot


def test_places_put_a_left_seat_last() -> None:
    from flamecraft.core.state import Options
    from flamecraft.server.ratings import places
    from flamecraft.server.store import GameRow, SeatRow

    row = GameRow("g", "g", Options(3), 1, [SeatRow("A", "human"), SeatRow("B", "human"),
                                            SeatRow("C", "bot", "random")],
                  status="finished",
                  result={"reputation": [30, 20, 25], "winners": [0], "turns": 9})
    assert places(row) == [1, 3, 2]
    row.seats[0].stand_in = "greedy"
    assert places(row) == [3, 2, 1]
    row.seats[0].stand_in, row.seats[1].conceded = None, True
    assert places(row) == [1, 3, 2]


def test_export_delete_and_no_card_in_the_profile_pages(any_client: TestClient) -> None:
    client = any_client
    from flamecraft.server.store import open_store as open_
    from flamecraft.server.table import Table
    from test_server_leaks import NAMES

    people = People(client)
    people.add("Ann")
    people.add("Bob")
    h = people.as_("Ann")
    r = client.post("/api/games", headers=h, json={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "start": True, "name": "Tuesday"})
    game = r.json()
    _bind(client, people.me["Ann"], game, 0)
    people.as_("Bob")
    _bind(client, people.me["Bob"], game, 1)
    # a running game: its hands hold cards, none of which any account page names
    store = open_(client.app.state.settings.database_url)  # type: ignore[attr-defined]
    try:
        row, actions = store.load_with_actions(game["game_id"])
    finally:
        store.close()
    assert row is not None
    s = Table(row, actions).state
    assert s is not None and s.hand[0] and s.hand[1]
    pages = []
    for who in ("Ann", "Bob"):
        people.as_(who)
        pages += [client.get(path).text for path in (
            "/api/me", "/api/me/games", "/api/me/export", "/api/leaderboard",
            f"/api/players/{people.id('Ann')}", f"/api/players/{people.id('Bob')}")]
    from test_server_leaks import NAME, strings

    for text in pages:
        assert NAMES.search(text) is None, NAMES.search(text)
        assert not strings(json.loads(text)) & set(NAME), "a card's id"
    # export: everything stored about Ann, no secret
    h = people.as_("Ann")
    data = client.get("/api/me/export").json()
    assert data["account"]["name"] == "Ann" and len(data["passkeys"]) == 1
    assert data["profile"]["games"][0]["game_id"] == game["game_id"]
    text = client.get("/api/me/export").text
    assert (people.cookie["Ann"] or "?") not in text and "private" not in text
    # delete: the game stays, her seat's name replaced; her profile is gone
    r = client.delete("/api/me", headers=h)
    assert r.status_code == 200 and r.json()["games_renamed"] == 1
    entry = client.get(f"/api/games/{game['game_id']}").json()
    assert [x["name"] for x in entry["seats"]] == ["Former player 1", "Bob"]
    refused(client.get(f"/api/players/{people.id('Ann')}"), 404, "not_found")
    people.as_("Bob")
    assert client.get("/api/me/games").json()["games"][0]["seats"][0]["name"] == (
        "Former player 1")


def test_a_recovery_may_revoke_the_lost_passkeys(client: TestClient, tmp_path: Path) -> None:
    me = signup(client, "Ann")
    client.cookies.clear()
    store = open_store(settings(tmp_path).database_url)
    try:
        code = issue_recovery(store, "Ann", revoke=True)
    finally:
        store.close()
    assert code is not None
    opts = client.post("/api/account/recover/options", json={"code": code}).json()
    new_key = SoftKey()
    r = client.post("/api/account/recover", json={"challenge_id": opts["challenge_id"],
                                                  "credential": new_key.create(opts["options"])})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    refused(signin(client, me["key"]), 403, "bad_passkey")  # the lost one no longer works
    assert signin(client, new_key).json()["account"] == me["account"]


def test_the_host_prints_a_recovery_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    """``flamecraft account recover NAME``: a one-time link to /account/recover whose code
    opens the recovery for that account; an unknown name is an error naming it."""
    from flamecraft.cli.main import main

    s = settings(tmp_path)
    with client_for(s) as c:
        me = signup(c, "Ann")
    db = str(tmp_path / "games.sqlite3")
    assert main(["account", "recover", "Nobody", "--database", db]) != 0
    assert "Nobody" in capsys.readouterr().err
    assert main(["account", "recover", "ANN", "--database", db,
                 "--origin", "https://flamecraft.example/"]) == 0
    link = capsys.readouterr().out.strip()
    assert link.startswith("https://flamecraft.example/account/recover#code=")
    with client_for(s) as c:
        opts = c.post("/api/account/recover/options", json={"code": link.split("code=")[1]})
        assert opts.status_code == 200, opts.text
        assert opts.json()["options"]["user"]["name"] == me["account"]["name"]


def test_the_rating_scale_is_the_bots_ladder() -> None:
    """A person who finishes ahead of the Casual bot (its rating on the ladder) half the
    time, game after game, is rated near it and "plays like Casual"; one who beats it every
    time climbs past it, one who always loses falls below it."""
    from flamecraft.ai.roster import LEVEL_OF
    from flamecraft.core.state import Options
    from flamecraft.server.account_store import RatingRow
    from flamecraft.server.ratings import elo, rate, shown
    from flamecraft.server.store import GameRow, SeatRow

    def after(wins: list[bool]) -> RatingRow:
        held: dict[str, RatingRow] = {}
        for i, won in enumerate(wins):
            row = GameRow(f"g{i}", "g", Options(2), 1,
                          [SeatRow("Ann", "human"), SeatRow("Bot", "bot", "casual")],
                          status="finished", result={"reputation": [20, 20],
                                                     "winners": [0 if won else 1], "turns": 9})
            (change,) = rate(row, {0: "ann"}, held)
            games = held["ann"].games + 1 if "ann" in held else 1
            held = {"ann": RatingRow("ann", change.mu, change.sigma, games)}
        return held["ann"]

    casual = LEVEL_OF["casual"].elo
    assert casual is not None
    even = after([i % 2 == 0 for i in range(200)])
    assert abs(elo(even.mu) - casual) < 30, elo(even.mu)
    assert shown(even.mu, even.sigma).like == "casual"
    assert elo(after([True] * 30).mu) > casual + 100
    assert elo(after([False] * 30).mu) < casual - 100


def test_no_token_or_credential_reaches_the_log(client: TestClient,
                                                caplog: pytest.LogCaptureFixture) -> None:
    """Sign-up, sign-in, refusals, binding a seat: the server's log (every logger, every
    level) holds no session token, CSRF token, seat key, challenge or credential."""
    import logging

    caplog.set_level(logging.DEBUG)
    game = new_game(client, "human,human")
    me = signup(client, "Ann")
    secrets_seen = {client.cookies.get(COOKIE) or "?", me["csrf"], me["key"].id}
    link = _bind(client, me, game, 0)
    secrets_seen |= {link.split("token=")[1], game["seats"][0]["token"]}
    opts = client.post("/api/account/signin/options", headers=csrf(me)).json()
    secrets_seen |= {opts["challenge_id"], opts["options"]["challenge"]}
    bad = SoftKey(credential_id=me["key"].credential_id).get(opts["options"])
    refused(client.post("/api/account/signin", headers=csrf(me), json={
        "challenge_id": opts["challenge_id"], "credential": bad}), 403, "bad_passkey")
    secrets_seen.add(bad["response"]["signature"])
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "refused" in text  # the refusal is logged, by its kind only
    for secret in secrets_seen:
        assert secret not in text


def test_two_processes_share_sessions_and_rate_once_on_postgres(tmp_path: Path) -> None:
    """Two servers on one PostgreSQL: a session made on one signs in on the other, and a
    rated game both see end is rated once."""
    import random

    from test_server_api import finish_two, ws_url

    with contextlib.ExitStack() as stack:
        url = stack.enter_context(postgres_schema())
        s = settings(tmp_path, database_url=url)
        one = stack.enter_context(client_for(s))
        two = stack.enter_context(client_for(s))
        people = People(one)
        people.add("Ann")
        people.add("Bob")
        two.cookies.set(COOKIE, people.cookie["Ann"] or "")
        assert two.get("/api/me").json()["account"]["name"] == "Ann"
        h = people.as_("Ann")
        game = one.post("/api/games", headers=h, json={
            "seats": [{"kind": "human"}, {"kind": "human"}], "rated": "people",
            "hints": False, "start": True}).json()
        _bind(one, people.me["Ann"], game, 0)
        people.as_("Bob")
        _bind(one, people.me["Bob"], game, 1)
        people.as_(None)
        two.get(f"/api/games/{game['game_id']}")  # loaded by the second process too
        with one.websocket_connect(ws_url(game, 0)) as wa, \
                one.websocket_connect(ws_url(game, 1)) as wb:
            finish_two(wa, wb, rng=random.Random(2))
        for account in (people.id("Ann"), people.id("Bob")):
            p = _wait(lambda a=account: (x := _profile(two, a))["rating"]["games"] and x)
            assert p["rating"]["games"] == 1 and len(p["history"]) == 1
        import time

        time.sleep(0.5)  # the second process has heard the end too by now
        for account in (people.id("Ann"), people.id("Bob")):
            assert _profile(two, account)["rating"]["games"] == 1


def test_a_rated_game_left_unrated_is_rated_at_the_next_start(tmp_path: Path) -> None:
    """A process that stopped between a rated game's end and its rating: the next start's
    sweep rates it."""
    import random

    from test_server_api import finish_two, ws_url

    s = settings(tmp_path)
    with client_for(s) as c:
        people = People(c)
        people.add("Ann")
        people.add("Bob")
        h = people.as_("Ann")
        game = c.post("/api/games", headers=h, json={
            "seats": [{"kind": "human"}, {"kind": "human"}], "rated": "people",
            "hints": False, "start": True}).json()
        _bind(c, people.me["Ann"], game, 0)
        people.as_("Bob")
        _bind(c, people.me["Bob"], game, 1)
        people.as_(None)
        c.app.state.games.changed_hooks.clear()  # type: ignore[attr-defined]  # no rating now
        with c.websocket_connect(ws_url(game, 0)) as wa, \
                c.websocket_connect(ws_url(game, 1)) as wb:
            finish_two(wa, wb, rng=random.Random(7))
        assert _profile(c, people.id("Ann"))["rating"]["games"] == 0
    with client_for(s) as c:
        for name in ("Ann", "Bob"):
            assert _profile(c, people.id(name))["rating"]["games"] == 1


def test_refusals_in_japanese(client: TestClient) -> None:
    """The accounts' refusals in the client's language, codes unchanged."""
    ja = {"Accept-Language": "ja"}
    opts = client.post("/api/account/signin/options", headers=ja).json()
    r = client.post("/api/account/signin", headers=ja, json={
        "challenge_id": opts["challenge_id"], "credential": SoftKey().get(opts["options"])})
    refused(r, 403, "bad_passkey")
    assert "パスキー" in r.json()["message"]
    r = client.post("/api/account/signin", headers=ja, json={
        "challenge_id": opts["challenge_id"], "credential": SoftKey().get(opts["options"])})
    refused(r, 400, "expired")
    assert "期限切れ" in r.json()["message"]
    refused(client.get("/api/me/games", headers=ja), 401, "signed_out")
    me = signup(client, "Ann")
    r = client.post("/api/me/name", json={"name": "x"}, headers=ja)
    refused(r, 403, "csrf")
    assert "ヘッダー" in r.json()["message"]
    r = client.post("/api/me/name", json={"name": "Ann\u200b"}, headers={**ja, **csrf(me)})
    refused(r, 400, "malformed")
    assert "U+200B" in r.json()["message"] and "名前" in r.json()["message"]


def test_a_deleted_name_leaves_the_other_processes_tables_on_postgres(tmp_path: Path) -> None:
    """Two servers on one PostgreSQL, a running game loaded in both: Ann deletes her account
    through one; the table the other sends names her seat "Former player 1" from then on,
    in its seats, its view and its log."""
    from test_server_api import ws_url

    with contextlib.ExitStack() as stack:
        url = stack.enter_context(postgres_schema())
        s = settings(tmp_path, database_url=url)
        one = stack.enter_context(client_for(s))
        two = stack.enter_context(client_for(s))
        game = new_game(one, "human,human", start=True, first_player=0, name="Duel",
                        seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
        people = People(one)
        me = people.add("Ann")
        _bind(one, me, game, 0)
        bo = stack.enter_context(two.websocket_connect(ws_url(game, 1)))
        first = bo.receive_json()
        assert first["type"] == "state" and "Ann" in json.dumps(first)
        h = people.as_("Ann")
        assert one.delete("/api/me", headers=h).status_code == 200
        import time

        deadline = time.monotonic() + 10
        while True:
            msg = bo.receive_json()
            if msg["type"] == "state" and "Former player 1" in json.dumps(msg):
                break
            assert time.monotonic() < deadline
        text = json.dumps(msg)
        assert "Ann" not in text, text[max(0, text.find("Ann") - 200):text.find("Ann") + 50]


def test_a_deleted_accounts_name_leaves_the_games_reviews(tmp_path: Path) -> None:
    """Issue 27 with issue 24's stored reviews: a review names the seats, so deleting an
    account forgets the reviews kept of its games (in the store and as sent); the next ask
    makes one with the seat's new name."""
    import time

    from flamecraft.server import account_store

    s = settings(tmp_path, review_samples=1)
    with client_for(s) as c:
        game = new_game(c, "random,random", name="Ann's")
        me = signup(c, "Ann")
        url = f"/api/games/{game['game_id']}"
        deadline = time.monotonic() + 60
        while c.get(url).json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        store = open_store(s.database_url)
        try:
            account_store.bind_seat(store, game["game_id"], 0, me["account"]["id"],
                                    time.time())
        finally:
            store.close()
        names = [x["name"] for x in c.get(url).json()["seats"]]
        before = c.get(f"{url}/review").json()
        assert before["names"] == names
        assert c.delete("/api/me", headers=csrf(me)).json()["games_renamed"] == 1
        after = c.get(f"{url}/review").json()
        assert after["names"][0] == "Former player 1" != names[0]
        assert names[0] not in after["names"]
        # a gift's text names its receiver ("give Potion to Ember"); a card's name may hold
        # the word ("Undying Ember"), so only the seat's own texts are looked for
        text = json.dumps(after)
        assert re.search(rf"\bto {re.escape(names[0])}\b", text) is None
