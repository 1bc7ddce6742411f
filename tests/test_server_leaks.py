"""Nobody sees what is not theirs: every message each seat (and a spectator) receives over a
whole game is searched for the cards hidden from it at that moment (docs/server.md, issue 7).

A card is hidden from a seat when it lies in another seat's hand or unscored Fancy Dragons, in
another seat's pending choice of drawn Fancy Dragons, in a deck, among the cards set aside, or
face down in Town, and the seat has never held, been shown or seen it face up (a card a seat
gifted, put back or saw on top of the Artisan deck, one drawn from the Park in view of all, or
one fired up in its owner's hand, is one it knows). The messages are checked for the ids of
those cards and, in the texts a person reads (log, choices), for their names — in English and
in Japanese (issue 16: the translated texts keep card names as printed). The byte oracle of
tests/test_events.py is run over the Japanese state messages too.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from flamecraft import apply_in_place, legal_actions, parse_action, start, to_act
from flamecraft.core import actions as A
from flamecraft.core.board import CATALOG
from flamecraft.core.cards import ArtisanCard, CompanionCard, EnchantmentCard, FancyCard, ShopCard
from flamecraft.core.frames import D_ARTISAN_LOOK, D_KEEP_DRAWN_FANCY
from flamecraft.core.serialize import GameRecord
from flamecraft.core.state import GameState
from flamecraft.server.chat import CANNED
from flamecraft.server.connections import common_of, seat_message
from test_events import Interfaces, _hidden_changed
from test_server_api import client_for, new_game, settings, ws_url

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ART = [c.id for c in CATALOG.artisans]
FANCY = [c.id for c in CATALOG.fancies]
SHOP = [c.id for c in CATALOG.shops]
ENCH = [c.id for c in CATALOG.enchantments]
COMP = [c.id for c in CATALOG.companions]
CARDS: list[ArtisanCard | FancyCard | ShopCard | EnchantmentCard | CompanionCard] = [
    *CATALOG.artisans, *CATALOG.fancies, *CATALOG.shops, *CATALOG.enchantments,
    *CATALOG.companions]
NAME = {c.id: c.name for c in CARDS}
BY_NAME = {name: card for card, name in NAME.items()}
# Every card name, longest first, so that "Fortune Cookie" is read before "Cookie"; a name is
# a whole word in English, and in Japanese ("Cutletを置く": kana are word characters for \b)
# a run of Latin letters.
NAMES = re.compile(r"(?<![A-Za-z0-9])("
                   + "|".join(re.escape(n) for n in sorted(BY_NAME, key=len, reverse=True))
                   + r")(?![A-Za-z0-9])")


def seen_now(s: GameState, seat: int) -> set[str]:
    """The hidden cards ``seat`` holds or is being shown at this moment."""
    out = {ART[a] for a in s.hand[seat]} | {FANCY[f] for f in s.fancy[seat]}
    for f in s.stack:
        if f[0] == D_KEEP_DRAWN_FANCY and f[1] == seat:
            out |= {FANCY[c] for c in f[4:]}
    top = s.stack[-1] if s.stack else ()
    if top[:2] == (D_ARTISAN_LOOK, seat):
        out |= {ART[a] for a in s.artisan_deck[-top[3]:]}
    return out


def public_now(s: GameState) -> set[str]:
    """The cards everyone sees at this moment (a card once seen by all, say drawn from the
    Park into a hand, stays known to all: naming it later tells nothing new)."""
    out = {ART[a] for a in (*s.park, *(d for d in s.slots if d >= 0))}
    out |= {SHOP[t] for t in s.town_shops()}
    out |= {ENCH[e] for e in (*s.ench_row, *s.ench_removed, *(r for r in s.reserved if r >= 0))}
    out |= {ENCH[e] for tucked in s.shop_ench for e in tucked}
    out |= {FANCY[f] for scored in s.scored for f in scored}
    out |= {COMP[c] for c in (*s.companion_offer, *(c for c in s.companion if c >= 0))}
    return out


def hidden(s: GameState, seat: int | None, known: set[str]) -> set[str]:
    """The cards hidden from ``seat`` (None: a spectator) in state ``s``."""
    out: set[str] = set()
    for p in range(s.n):
        if p != seat:
            out |= {ART[a] for a in s.hand[p]} | {FANCY[f] for f in s.fancy[p]}
    for f in s.stack:
        if f[0] == D_KEEP_DRAWN_FANCY and f[1] != seat:
            out |= {FANCY[c] for c in f[4:]}
    out |= {ART[a] for a in (*s.artisan_deck, *s.removed)}
    out |= {FANCY[f] for f in s.fancy_deck} | {ENCH[e] for e in s.ench_deck}
    out |= {SHOP[t] for t in (*s.shop_deck, *s.facedown, *s.shops_unused)}
    out |= {COMP[c] for c in s.companion_box}
    return out - known


def strings(value: Any) -> set[str]:
    """Every string in a message (its keys and values)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value).union(*(strings(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value))
    return set()


def named(texts: list[str]) -> set[str]:
    """The cards the texts name."""
    return {BY_NAME[m] for line in texts for m in NAMES.findall(line)}


def leaks(msg: dict[str, Any], secret: set[str], log_from: int = 0) -> list[str]:
    """The secret cards a message names: by id anywhere, by name in a text a person reads
    (the log from line ``log_from``: earlier lines were checked in earlier messages)."""
    found = sorted(strings({k: v for k, v in msg.items() if k != "log"}) & secret)
    texts = [line["text"] for line in msg.get("log", [])[log_from:]]
    texts += [a["text"] for a in msg.get("legal", [])]
    texts += [a["say"] for a in msg.get("legal", []) if "say" in a]  # in the reader's language
    texts += [a["facts"] for a in msg.get("legal", [])]
    texts += (msg.get("view") or {}).get("legal_actions", [])
    found += [f"{card} (by name)" for card in sorted(named(texts) & secret)]
    return found


def play_and_record(c: Any, kinds: str, seed: int, lang: str = "en", **options: Any
                    ) -> tuple[GameRecord, dict[int | None, list[dict[str, Any]]]]:
    """Plays a whole game: bots on the server, each person's seat by a scripted client
    choosing at random, every connection reading ``lang``; returns the record and every
    message each connection received."""
    def url(game: dict[str, Any], seat: int | None = None) -> str:
        plain = ws_url(game, seat)
        return plain if lang == "en" else plain + ("&" if "?" in plain else "?") + f"lang={lang}"

    def next_state(ws: Any, record: list[dict[str, Any]]) -> dict[str, Any]:
        """The next state, every presence and chat message on the way kept (in
        ``presences`` and ``chats``)."""
        while True:
            msg: dict[str, Any] = ws.receive_json()
            if msg["type"] == "presence":
                presences.append(msg)
            elif msg["type"] == "chat":
                chats.append(msg)
            else:
                record.append(msg)
                return msg

    def say(who: int) -> None:
        """A person's lines in the table chat (issue 23): once a canned phrase, once typed."""
        if said.count(who) < 2:
            typed = f"my turn {len(said)}"
            socks[who].send_json({"type": "chat", "text": typed} if said.count(who)
                                 else {"type": "chat", "canned": "thinking"})
            said.append(who)
            typed_texts.add(typed)

    chosen = seed if kinds.split(",").count("human") <= 1 else None  # issue 12: fair deals
    game = new_game(c, kinds, start=True, seed=chosen, **options)
    people = [i for i, k in enumerate(kinds.split(",")) if k == "human"]
    got: dict[int | None, list[dict[str, Any]]] = {p: [] for p in [*people, None]}
    presences: list[dict[str, Any]] = []
    chats: list[dict[str, Any]] = []
    said: list[int] = []
    typed_texts: set[str] = set()
    rng = random.Random(seed)
    with c.websocket_connect(url(game)) as spy:
        conns = {p: c.websocket_connect(url(game, p)) for p in people}
        socks = {p: conn.__enter__() for p, conn in conns.items()}
        for ws in [spy, *socks.values()]:  # every connection hears presence too (issue 23)
            ws.send_json({"type": "presence", "hidden": False})
            ws.send_json({"type": "chat", "history": True})  # and the table chat
        try:
            last = {p: next_state(socks[p], got[p]) for p in people}
            msg = next_state(spy, got[None])
            while msg["status"] != "finished":
                who = msg["view"]["to_act"]
                if who in socks:
                    while last[who]["version"] < msg["version"]:
                        last[who] = next_state(socks[who], got[who])
                    mine = last[who]
                    say(who)
                    socks[who].send_json({"type": "act", "version": mine["version"],
                                          "index": rng.randrange(len(mine["legal"]))})
                msg = next_state(spy, got[None])
            for p in people:
                while last[p]["status"] != "finished":
                    last[p] = next_state(socks[p], got[p])
        finally:
            for conn in conns.values():
                conn.__exit__(None, None, None)
        record = GameRecord.from_json(c.get(f"/api/games/{game['game_id']}/record").json())
    # Presence says who is here and who is to act, nothing of the cards: only these words.
    words = {"type", "presence", "seats", "seat", "status", "here", "away", "bot", "why",
             "hidden", "offline", "acting", "thinking", "spectators"}
    assert presences
    for msg in presences:
        assert strings(msg) <= words, msg
    # The chat carries what people typed, who and when, nothing of the game.
    names = {s["name"] for s in game["seats"]}
    lines = [line for msg in chats for line in msg["lines"]]
    assert len({x["seq"] for x in lines}) == 2 * len(people)
    for msg in chats:
        assert set(msg) <= {"type", "lines", "history"}, msg
    for line in lines:
        assert set(line) <= {"seq", "seat", "name", "text", "canned", "at", "step"}, line
        assert line["seat"] in people and line["name"] in names, line
        assert line["text"] in typed_texts | {CANNED["thinking"]}, line
        assert line.get("canned") in (None, "thinking"), line
        assert all(isinstance(line[k], int) for k in ("seq", "step")), line
    return record, got


@pytest.mark.parametrize("kinds, seed, lang, options", [
    ("human,random,human", 31, "en", {}),
    ("random,human", 32, "en", {"deck": "golden"}),
    ("human,random,random,human,random", 33, "en", {"companions": True}),
    ("human,random,human", 34, "ja", {"companions": True}),
    ("human,random,random,human", 35, "ja", {"deck": "golden"}),
])
def test_no_message_shows_a_seat_what_is_hidden_from_it(tmp_path: Path, kinds: str, seed: int,
                                                       lang: str,
                                                       options: dict[str, Any]) -> None:
    """Issue 7, nothing leaked: in whole games, no message to a seat or to a spectator names a
    card hidden from it at the moment of that message (ids anywhere, names in the texts), in
    English and in Japanese (issue 16)."""
    with client_for(settings(tmp_path)) as c:
        record, got = play_and_record(c, kinds, seed, lang, **options)
    o = record.options
    s = start(o.players, record.seed, o.deck, o.names, o.companions)
    states, shown = [s.copy()], [set[str]()]
    for typed in record.actions:
        action = parse_action(s, typed)
        apply_in_place(s, action)
        states.append(s.copy())
        # a dragon fired up in its owner's hand is used face up (design, "fire up in your
        # hand": its printed ability is used), so from then on every seat knows it
        shown.append({ART[action[1]]} if action[0] == A.FIRE else set())
    checked = 0
    for seat, messages in got.items():
        known: set[str] = set()
        learned_up_to, lines = -1, 0
        assert messages and messages[-1]["status"] == "finished"
        for msg in messages:
            step = msg["step"]
            for k in range(learned_up_to + 1, step + 1):  # what the seat has held or seen
                known |= public_now(states[k]) | shown[k]
                if seat is not None:
                    known |= seen_now(states[k], seat)
            learned_up_to = max(learned_up_to, step)
            secret = hidden(states[step], seat, known)
            assert secret, "a game always hides some cards"
            found = leaks(msg, secret, log_from=lines)
            assert not found, f"seat {seat}, step {step}: {found}"
            lines = len(msg.get("log", []))
            checked += 1
    assert checked >= 3 * len(record.actions) // 2


def test_the_leak_check_finds_a_leak() -> None:
    """The check itself: another seat's hand card, by id or by name in the log, is found;
    a card the seat itself holds is not a leak."""
    s = start(2, 1)
    theirs, mine = ART[s.hand[1][0]], ART[s.hand[0][0]]
    secret = hidden(s, 0, seen_now(s, 0))
    assert theirs in secret and mine not in secret
    assert leaks({"view": {"players": [{"hand": [theirs]}]}}, secret) == [theirs]
    by_name = leaks({"log": [{"text": f"keep {NAME[theirs]}"}]}, secret)
    assert by_name == [f"{theirs} (by name)"]
    assert leaks({"log": [{"text": f"keep {NAME[mine]}"}]}, secret) == []


def test_the_leak_check_reads_names_in_japanese() -> None:
    """A card name inside a Japanese sentence (no spaces around it) is found."""
    s = start(2, 1)
    theirs = ART[s.hand[1][0]]
    secret = hidden(s, 0, seen_now(s, 0))
    assert leaks({"log": [{"text": f"{NAME[theirs]}を手元に残す"}]}, secret) == \
        [f"{theirs} (by name)"]
    assert leaks({"legal": [{"text": "gather", "say": f"{NAME[theirs]}を起動する",
                             "facts": ""}]}, secret) == [f"{theirs} (by name)"]


@pytest.mark.parametrize(("players", "deck", "companions"), [(2, "golden", True),
                                                              (4, "purple", False)])
def test_leak_oracle_in_japanese(players: int, deck: str, companions: bool) -> None:
    """Issue 16 over issue 11's oracle: at every step of a whole random game, for every seat,
    two changes of what the seat cannot see leave every byte of its Japanese state message
    (choices, facts, what is being chosen, the log) unchanged."""
    rng = random.Random(players)
    s = start(players, 200 + players, deck, companions=companions)
    interfaces = Interfaces(s)
    table = interfaces.table

    def received(state: GameState, seat: int) -> str:
        table.state = state
        return seat_message(table, seat, common_of(table), "ja")

    steps = said = 0
    while not s.over:
        for seat in range(players):
            truth = received(s, seat)
            for k in (1, 2):
                other = _hidden_changed(s, seat, 1000 * steps + k)
                assert received(other, seat) == truth, f"seat {seat}, step {steps}"
            said += to_act(s) == seat and '"say":' in truth  # its choices, in Japanese
        s = interfaces.play(s, rng.choice(legal_actions(s)))
        steps += 1
    assert said > steps // 2  # the messages checked were Japanese ones


def test_the_account_pages_show_no_hidden_card(tmp_path: Path) -> None:
    """Issue 27: the profile, history, "my games", export and leaderboard pages name no card
    at all — by id or by name — at any moment of a game of two signed-in people (their hands
    and Fancy Dragons change as they play) nor once it is finished (the replay is where a
    finished game's cards are shown, as the public record has them)."""
    from softkey import SoftKey
    from test_server_api import next_state

    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "human,human", start=True, first_player=0)
        people: dict[str, tuple[str, str, str]] = {}  # name → cookie, csrf, account id
        for seat, name in enumerate(("Ann", "Bob")):
            c.cookies.clear()
            key = SoftKey()
            opts = c.post("/api/account/signup/options", json={"name": name}).json()
            me = c.post("/api/account/signup", json={
                "challenge_id": opts["challenge_id"],
                "credential": key.create(opts["options"])}).json()
            cookie = c.cookies.get("flamecraft_session") or ""
            people[name] = (cookie, me["csrf"], me["account"]["id"])
            r = c.post("/api/me/seats", headers={"X-Flamecraft-CSRF": me["csrf"]}, json={
                "game_id": game["game_id"], "seat": seat,
                "token": game["seats"][seat]["token"]})
            assert r.status_code == 200, r.text

        def pages() -> list[str]:
            out = []
            for cookie, _, _ in [*people.values(), ("", "", "")]:  # each person, a stranger
                c.cookies.clear()
                if cookie:
                    c.cookies.set("flamecraft_session", cookie)
                    out += [c.get(p).text for p in ("/api/me", "/api/me/games",
                                                    "/api/me/export")]
                out += [c.get(f"/api/players/{a}").text for _, _, a in people.values()]
                out.append(c.get("/api/leaderboard").text)
            return out

        rng = random.Random(5)
        checked = 0
        with c.websocket_connect(ws_url(game, 0)) as wa, \
                c.websocket_connect(ws_url(game, 1)) as wb:
            conns = {0: wa, 1: wb}
            msg = {0: next_state(wa), 1: next_state(wb)}
            while msg[0]["status"] != "finished":
                if msg[0]["version"] % 25 == 0:
                    for text in pages():
                        assert NAMES.search(text) is None, NAMES.search(text)
                        assert not strings(json.loads(text)) & set(NAME)
                    checked += 1
                who = msg[0]["view"]["to_act"]
                while msg[who]["version"] < msg[0]["version"]:
                    msg[who] = next_state(conns[who])
                conns[who].send_json({"type": "act", "version": msg[who]["version"],
                                      "index": rng.randrange(len(msg[who]["legal"]))})
                msg[0] = next_state(wa)
        assert checked >= 3
        for text in pages():
            assert NAMES.search(text) is None, NAMES.search(text)
            assert not strings(json.loads(text)) & set(NAME)
