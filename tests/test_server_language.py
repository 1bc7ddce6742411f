"""The server in the client's language (issue 16): each request and each WebSocket says its
language (``?lang=``, else ``Accept-Language``: server/language.py, docs/server.md); the
texts the server builds — error messages, choices and their facts, what is being chosen, the
log, the bots' few words, card texts, the page itself — arrive in it, while error *codes*,
ids and the stable action texts never change. Two seats of one game may read two languages.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from flamecraft.display.i18n import translator
from flamecraft.server.language import accept_language, client_language
from flamecraft.server.pages import PAGE_TEXTS, linked
from test_server_api import client, new_game, next_state, play_out, ws_url  # noqa: F401

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

JA = {"Accept-Language": "ja"}
KANA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana or kanji: Japanese words


def japanese(text: str) -> bool:
    return bool(KANA.search(text))


def ws_ja(url: str) -> str:
    return url + ("&" if "?" in url else "?") + "lang=ja"


# ---------------------------------------------------------------- choosing the language


@pytest.mark.parametrize(("header", "lang"), [
    ("ja", "ja"), ("ja-JP,ja;q=0.9,en;q=0.8", "ja"), ("en-US,en;q=0.9,ja;q=0.8", "en"),
    ("fr-FR, ja;q=0.5", "ja"), ("de, fr", None), ("", None), (None, None),
    ("en;q=0.2, ja;q=0.7", "ja"), ("ja;q=0", None), ("JA-jp", "ja"),
])
def test_accept_language(header: str | None, lang: str | None) -> None:
    """The first language the project speaks, by quality then order; q=0 refuses one."""
    assert accept_language(header) == lang


def test_the_query_parameter_comes_before_the_header() -> None:
    assert client_language({"lang": "ja"}, {"accept-language": "en"}) == "ja"
    assert client_language({"lang": "en"}, {"accept-language": "ja"}) == "en"
    assert client_language({"lang": "xx"}, {"accept-language": "ja"}) == "ja"  # unknown: ignored
    assert client_language({}, {}) == "en"


# ---------------------------------------------------------------- the page and its catalogue


def test_the_page_catalogue_is_the_web_po(client: TestClient) -> None:  # noqa: F811
    """GET /api/i18n/ja is the web catalogue as msgid → text, read from the .po (no copy);
    English needs none; an unknown language is a clear 404 in the asker's language."""
    got = client.get("/api/i18n/ja").json()
    ja = translator("ja", "web")
    assert got["lang"] == "ja" and len(got["messages"]) > 300
    for msgid in ("Your turn", "Town", "Create game", "{n} Reputation"):
        assert got["messages"][msgid] == ja.gettext(msgid) and japanese(got["messages"][msgid])
    assert client.get("/api/i18n/en").json() == {"lang": "en", "messages": {}}
    r = client.get("/api/i18n/xx", headers=JA)
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    assert japanese(r.json()["message"]) and "'xx'" in r.json()["message"]


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.texts.append(data.strip())


def test_the_page_is_served_in_the_asked_language(client: TestClient) -> None:  # noqa: F811
    """index.html: English byte for byte as the file (but for its links, under the static
    files' version: pages.linked); in Japanese, <html lang="ja"> and every text of it
    translated (every text it holds is a marked msgid, PAGE_TEXTS)."""
    index = Path(__file__).resolve().parents[1] / "src/flamecraft/server/static/index.html"
    html = index.read_text(encoding="utf-8")
    parser = _Texts()
    parser.feed(html)
    assert set(parser.texts) - {"Flamecraft"} == set(PAGE_TEXTS)  # the <title> is the name
    en = client.get("/").text
    version = re.search(r'src="/static/([0-9a-f]+)/app\.js"', en)
    assert version is not None and en == linked(html, version.group(1))
    ja = client.get("/play/abc", headers=JA).text
    assert '<html lang="ja">' in ja
    for text in PAGE_TEXTS:
        assert text not in ja and translator("ja", "web").gettext(text) in ja
    assert "Accept-Language" in client.get("/").headers["vary"]


def test_the_bots_few_words_in_japanese(client: TestClient) -> None:  # noqa: F811
    en = client.get("/api/bots").json()
    ja = client.get("/api/bots", headers=JA).json()
    assert [b["name"] for b in ja["ladder"]] == [b["name"] for b in en["ladder"]]
    assert all(japanese(b["about"]) for b in ja["ladder"] if b["about"])
    assert all(japanese(b["label"]) for b in ja["ladder"])
    assert en["ladder"][1] == {"name": "strong", "label": "Strong", "elo": 302,
                               "about": "plans its turn with weights tuned by self-play"}


# ---------------------------------------------------------------- errors


def test_http_errors_in_japanese_with_the_same_codes(client: TestClient) -> None:  # noqa: F811
    """The same bad requests in English and in Japanese: the same status and code, the message
    in the asker's language (English unchanged)."""
    game = new_game(client, "human,human")
    bad: list[tuple[str, str, dict[str, Any] | None]] = [
        ("get", "/api/games/nope", None),
        ("get", "/api/nothing-here", None),
        ("post", f"/api/games/{game['game_id']}/join", {"seat": 1, "token": "wrong"}),
        ("post", f"/api/games/{game['game_id']}/hint", {"seat": 0, "token": "wrong"}),
        ("get", f"/api/games/{game['game_id']}/record", None),
        ("post", "/api/games", {"seats": []}),
        ("post", "/api/games", {"seats": [{"kind": "bot", "bot": "nobody"}]}),
        ("post", "/api/games", {"seats": [{"name": "A\u200bB"}]}),
        ("delete", "/api/games", None),
    ]
    for method, path, body in bad:
        en = client.request(method, path, json=body)
        ja = client.request(method, path, json=body, headers=JA)
        assert en.status_code == ja.status_code >= 400, path
        assert en.json()["code"] == ja.json()["code"], path
        assert not japanese(en.json()["message"]), path
        assert japanese(ja.json()["message"]), (path, ja.json()["message"])
        assert ja.json()["detail"] == ja.json()["message"]


def test_websocket_errors_in_japanese(client: TestClient) -> None:  # noqa: F811
    """A WebSocket that asks for Japanese (?lang=ja) reads its errors in Japanese, with the
    same codes as in English: a wrong key, then a malformed message, an out-of-range choice
    and a stale one."""
    game = new_game(client, "human,human", start=True)
    url = f"/ws/games/{game['game_id']}?seat=0&token=wrong"
    for lang_url, check in ((url, lambda m: not japanese(m)), (ws_ja(url), japanese)):
        with client.websocket_connect(lang_url) as ws:
            msg = ws.receive_json()
            assert msg["code"] == "bad_token" and check(msg["message"]), msg
    seat = ws_url(game, game["game"]["first_player"])
    with client.websocket_connect(ws_ja(seat)) as ws:
        state = next_state(ws)
        codes = []
        for sent in ("not json", {"type": "act", "version": state["version"], "index": 999},
                     {"type": "act", "version": state["version"] - 1, "index": 0},
                     {"type": "dance"}):
            if isinstance(sent, str):
                ws.send_text(sent)
            else:
                ws.send_json(sent)
            msg = ws.receive_json()
            assert msg["type"] == "error" and japanese(msg["message"]), msg
            codes.append(msg["code"])
        assert codes == ["malformed", "illegal", "stale", "malformed"]


# ---------------------------------------------------------------- the game's texts


def test_two_seats_two_languages(client: TestClient) -> None:  # noqa: F811
    """One game, seat 0 in English and seat 1 in Japanese, played to the end by both: each
    reads its choices, what it is choosing and the log in its own language; the ids, kinds,
    indices and stable action texts are the same whatever the language, and English messages
    carry no ``say``."""
    game = new_game(client, "human,human", start=True)
    rng = random.Random(5)
    seen: dict[str, list[dict[str, Any]]] = {"en": [], "ja": []}
    with client.websocket_connect(ws_url(game, 0)) as en, \
            client.websocket_connect(ws_ja(ws_url(game, 1))) as ja:
        socks, logs = {0: en, 1: ja}, {0: seen["en"], 1: seen["ja"]}
        last = {p: next_state(socks[p], logs[p]) for p in (0, 1)}
        for _step in range(2000):
            while last[0]["version"] != last[1]["version"]:  # both at the same move
                late = 0 if last[0]["version"] < last[1]["version"] else 1
                last[late] = next_state(socks[late], logs[late])
            if last[0]["status"] == "finished":
                break
            who = 0 if last[0]["legal"] else 1
            socks[who].send_json({"type": "act", "version": last[who]["version"],
                                  "index": rng.randrange(len(last[who]["legal"]))})
            last[who] = next_state(socks[who], logs[who])
        assert last[0]["status"] == last[1]["status"] == "finished"
    english = [m for m in seen["en"] if m.get("legal")]
    japanese_turns = [m for m in seen["ja"] if m.get("legal")]
    assert english and japanese_turns
    for msg in english:
        assert not japanese(msg["choosing"])
        assert all("say" not in a and not japanese(a["facts"]) for a in msg["legal"])
    for msg in japanese_turns:
        assert japanese(msg["choosing"]), msg["choosing"]
        assert all(japanese(a.get("say", "")) for a in msg["legal"]), msg["legal"]
        assert all(not japanese(a["text"]) for a in msg["legal"])  # the stable text
    end_en, end_ja = seen["en"][-1], seen["ja"][-1]
    assert end_en["status"] == end_ja["status"] == "finished"
    assert [p["reputation"] for p in end_en["view"]["players"]] == \
        [p["reputation"] for p in end_ja["view"]["players"]]
    assert end_en["view"]["winners"] == end_ja["view"]["winners"]
    assert end_en["version"] == end_ja["version"]
    assert sum(japanese(line["text"]) for line in end_ja["log"]) > len(end_ja["log"]) // 2
    assert not any(japanese(line["text"]) for line in end_en["log"])


def test_the_replay_log_in_japanese(client: TestClient) -> None:  # noqa: F811
    game = new_game(client, "human,random", start=True, seed=3)
    with client.websocket_connect(ws_url(game, 0)) as ws:
        play_out(ws, random.Random(3))
    path = f"/api/games/{game['game_id']}/replay/12"
    en, ja = client.get(path).json(), client.get(path, headers=JA).json()
    assert en["view"] == ja["view"] and en["step_lines"] == ja["step_lines"]
    assert len(en["log"]) == len(ja["log"]) > 0
    assert any(japanese(line["text"]) for line in ja["log"])
    assert not any(japanese(line["text"]) for line in en["log"])
