"""Weight and speed: answers compressed (gzip, Starlette's GZipMiddleware) when the client
accepts it, and the client's static files cached by content: the page shell is ``no-cache``
and links its files under the static folder's version (``/static/<version>/app.js``,
immutable); the plain ``/static/app.js`` revalidates by a strong ETag (docs/server.md,
"Compression and caching"; server/pages.py)."""

from __future__ import annotations

import gzip
import os
import re
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from flamecraft.server.pages import IMMUTABLE, StaticVersion
from flamecraft.server.settings import STATIC_DIR
from test_server_api import client, client_for, new_game, next_state, settings, ws_url  # noqa: F401

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


def version_of(c: TestClient) -> str:
    """The static files' version the page shell links."""
    found = re.search(r'src="/static/([0-9a-f]{16})/app\.js"', c.get("/").text)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("path", ["/", "/play/abc", "/static/app.js", "/static/style.css",
                                  "/api/cards", "/api/openapi.json"])
def test_answers_are_gzipped_when_asked_and_plain_when_not(client: TestClient,  # noqa: F811
                                                           path: str) -> None:
    """A page, a static file and a JSON answer: gzip when the client accepts it (with
    ``Vary: Accept-Encoding``), the same bytes as they are when it does not."""
    zipped = client.get(path, headers=GZIP)
    plain = client.get(path, headers=PLAIN)
    assert zipped.status_code == plain.status_code == 200
    assert zipped.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    assert "Accept-Encoding" in zipped.headers["vary"]
    assert zipped.content == plain.content  # httpx decodes the gzip
    assert int(zipped.headers["content-length"]) < len(plain.content)
    assert zipped.headers["content-security-policy"] == plain.headers["content-security-policy"]


def test_raw_gzip_on_the_wire_is_the_file(client: TestClient) -> None:  # noqa: F811
    """The bytes sent for a static file are gzip of the file itself."""
    with client.stream("GET", "/static/table.js", headers=GZIP) as r:
        raw = b"".join(r.iter_raw())
    assert gzip.decompress(raw) == (STATIC_DIR / "table.js").read_bytes()
    if "content-length" in r.headers:  # (a file over one 64 KiB chunk streams, chunked)
        assert len(raw) == int(r.headers["content-length"])


def test_small_answers_go_uncompressed(client: TestClient) -> None:  # noqa: F811
    for path in ("/api/health", "/api/games?status=nosuch"):
        r = client.get(path, headers=GZIP)
        assert r.status_code == 200 and "content-encoding" not in r.headers, path
        assert int(r.headers["content-length"]) < 500


def test_the_page_shell_stays_no_cache_and_revalidates(client: TestClient) -> None:  # noqa: F811
    for path in ("/", "/play/abc"):
        r = client.get(path)
        assert r.headers["cache-control"] == "no-cache"
        again = client.get(path, headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["etag"] == r.headers["etag"]
    # another language is another page, with another tag
    ja = client.get("/", headers={"Accept-Language": "ja"})
    assert ja.headers["etag"] != client.get("/").headers["etag"]


def test_the_versioned_url_is_immutable_and_the_same_bytes(client: TestClient) -> None:  # noqa: F811
    """Every file the shell links is under one version, as is every module it imports by a
    relative path; each serves the plain URL's bytes, cached for a year."""
    page = client.get("/").text
    version = version_of(client)
    linked = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
    assert linked and all(u.startswith(f"/static/{version}/") for u in linked)
    for name in ("app.js", "table.js", "i18n.js", "style.css"):
        hashed = client.get(f"/static/{version}/{name}")
        plain = client.get(f"/static/{name}")
        assert hashed.status_code == 200 and hashed.content == plain.content
        assert hashed.content == (STATIC_DIR / name).read_bytes()
        assert hashed.headers["cache-control"] == IMMUTABLE
        assert plain.headers["cache-control"] == "no-cache"
        assert hashed.headers["etag"] == plain.headers["etag"]
    assert client.get(f"/static/{version}/no-such-file.js").status_code == 404


def test_a_static_file_revalidates_with_304(client: TestClient) -> None:  # noqa: F811
    """A strong ETag of the file's bytes; If-None-Match gets a 304 without a body, for the
    plain and the versioned URL, gzip or not."""
    first = client.get("/static/app.js")
    etag = first.headers["etag"]
    assert not etag.startswith("W/")
    for url in ("/static/app.js", f"/static/{version_of(client)}/app.js"):
        for enc in (GZIP, PLAIN):
            r = client.get(url, headers={"If-None-Match": etag, **enc})
            assert r.status_code == 304 and r.content == b"", (url, enc)
            assert r.headers["etag"] == etag
    assert client.get("/static/app.js", headers={"If-None-Match": '"other"'}).status_code == 200


def test_the_version_changes_when_a_file_changes(tmp_path: Path) -> None:
    """An edited file (a deploy, or a developer's change while the server runs) gives every
    file a new URL at the next page load; an older version still answers, but no-cache."""
    folder = tmp_path / "static"
    shutil.copytree(STATIC_DIR, folder)
    with client_for(settings(tmp_path, static_dir=folder)) as c:
        before = version_of(c)
        old_js = c.get(f"/static/{before}/cards.js")
        old_tag = c.get("/static/cards.js").headers["etag"]
        cards = folder / "cards.js"
        cards.write_bytes(cards.read_bytes() + b"\n// changed\n")
        after = version_of(c)
        assert after != before
        new_js = c.get(f"/static/{after}/cards.js")
        assert new_js.content == cards.read_bytes() != old_js.content
        assert new_js.headers["cache-control"] == IMMUTABLE
        assert c.get("/static/cards.js", headers={"If-None-Match": old_tag}).status_code == 200
        stale = c.get(f"/static/{before}/cards.js")
        assert stale.status_code == 200 and stale.headers["cache-control"] == "no-cache"
        # the same bytes again: the same version (the hash is of the bytes, not the time)
        cards.write_bytes(old_js.content)
        os.utime(cards, ns=(1, 1))
        assert version_of(c) == before


def test_the_version_is_of_names_and_bytes(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("a")
    one = StaticVersion(tmp_path).version
    (tmp_path / "b.js").write_text("")
    two = StaticVersion(tmp_path).version
    assert one != two and StaticVersion(tmp_path).version == two


def test_a_websocket_still_works_under_gzip(client: TestClient) -> None:  # noqa: F811
    """The compression passes WebSockets by: a seat's table arrives and a move is taken."""
    game = new_game(client, "human,human", start=True)
    with client.websocket_connect(ws_url(game, 0), headers=GZIP) as ws:
        msg = next_state(ws)
        assert msg["seat"] == 0 and "hand" in msg["view"]["players"][0]
        ws.send_json({"type": "ping", "id": 1})
        while (answer := ws.receive_json())["type"] != "pong":
            pass
        assert answer["id"] == 1
