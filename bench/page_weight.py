"""Benchmark: the bytes a browser's first load of the table transfers, with and without gzip.

Why: the issue's budget is a first load of the table of at most 400 KB transferred. This
starts the app in-process (a test client, a throwaway SQLite file), creates a two-seat game,
and fetches what a browser fetches for its table page: the page shell, every file it links
(``src=``/``href=`` under ``/static``), every module those import (``import … from "./x.js"``,
followed recursively, resolved relative to the importing module as a browser does), every
picture the style sheet paints (``url(art/….svg)``: the art, all of it, as if every card were
on the table at once), and the
JSON the table reads before it draws (the cards, the game's entry, the page language's texts).
Each is fetched once with ``Accept-Encoding: gzip`` and once without; the bytes are the body
as sent on the wire (compressed when it was) plus the response's header lines. A last column
is the repeat visit: the shell revalidated by its ETag (a 304), the files under their versioned
URL not asked for at all (``immutable``); the JSON answers are not cached.

    python bench/page_weight.py              # English
    python bench/page_weight.py --lang ja    # the page and its texts in Japanese
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import warnings
from pathlib import Path
from urllib.parse import urljoin

warnings.filterwarnings("ignore", message=".*httpx")  # the test client's own notice

from fastapi.testclient import TestClient  # noqa: E402

from flamecraft.server import Settings, create_app  # noqa: E402

LINKS = re.compile(r'(?:src|href)="(/static/[^"]+)"')
CSS_URLS = re.compile(r'url\((?!data:)["\']?([^"\')]+)["\']?\)')
IMPORTS = re.compile(r'^\s*(?:import|export)\b[^"\';]*?(?:from\s*)?["\'](\.{1,2}/[^"\']+)["\']',
                     re.MULTILINE)
GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


def wire(c: TestClient, url: str, headers: dict[str, str]) -> tuple[int, int, str]:
    """The status, the bytes sent (the body as on the wire, and the header lines), and the
    ETag."""
    with c.stream("GET", url, headers=headers) as r:
        raw = b"".join(r.iter_raw())
        head = sum(len(k) + len(v) + 4 for k, v in r.headers.raw) + len("HTTP/1.1 200 OK\r\n\r\n")
        etag = r.headers.get("etag", "")
        status = r.status_code
    return status, len(raw) + head, etag


def static_urls(c: TestClient, page: str) -> list[str]:
    """Every static file the page loads: its links, then the modules' imports, recursively."""
    todo = LINKS.findall(page)
    seen: list[str] = []
    while todo:
        url = todo.pop(0)
        if url in seen:
            continue
        seen.append(url)
        if url.endswith(".js"):
            source = c.get(url, headers=PLAIN).text
            todo.extend(urljoin(url, rel) for rel in IMPORTS.findall(source))
        elif url.endswith(".css"):
            source = c.get(url, headers=PLAIN).text
            todo.extend(urljoin(url, rel) for rel in CSS_URLS.findall(source))
    return seen


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--lang", default="en", help="the page's language (default: en)")
    args = ap.parse_args()
    lang = {"Accept-Language": args.lang}
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite:///{Path(tmp) / 'games.sqlite3'}",
                            bot_delay=0.0)
        with TestClient(create_app(settings)) as c:
            game = c.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}],
                                              "start": True}).json()
            gid = game["game_id"]
            page_url = f"/play/{gid}"
            page = c.get(page_url, headers={**lang, **PLAIN}).text
            urls = [page_url, *static_urls(c, page),
                    "/api/cards", f"/api/games/{gid}", f"/api/i18n/{args.lang}"]
            rows: list[tuple[str, int, int, int]] = []
            for url in urls:
                status, zipped, etag = wire(c, url, {**lang, **GZIP})
                _, plain, _ = wire(c, url, {**lang, **PLAIN})
                assert status == 200, (url, status)
                if url == page_url:
                    again, repeat, _ = wire(c, url, {**lang, **GZIP, "If-None-Match": etag})
                    assert again == 304
                elif url.startswith("/static/"):
                    repeat = 0
                else:
                    repeat = zipped
                rows.append((url.replace(gid, "{id}"), plain, zipped, repeat))
            ws_bytes = 0
            token = game["seats"][0]["token"]
            with c.websocket_connect(f"/ws/games/{gid}?seat=0&token={token}&lang={args.lang}") \
                    as ws:
                ws_bytes = len(ws.receive_text().encode())
    width = max(len(r[0]) for r in rows)
    print(f"{'file':<{width}}  {'plain':>9}  {'gzip':>9}  {'ratio':>6}  {'repeat':>8}")
    for url, plain, zipped, repeat in rows:
        print(f"{url:<{width}}  {plain:>9,}  {zipped:>9,}  {zipped / plain:>6.1%}  {repeat:>8,}")
    total = [sum(r[1] for r in rows), sum(r[2] for r in rows), sum(r[3] for r in rows)]
    print(f"{'total (' + str(len(rows)) + ' answers)':<{width}}  {total[0]:>9,}  "
          f"{total[1]:>9,}  {total[1] / total[0]:>6.1%}  {total[2]:>8,}")
    print(f"first WebSocket state message (seat 0, uncompressed): {ws_bytes:,} bytes")
    budget = 400_000
    print(f"first load with gzip: {total[1] / 1000:.1f} KB of the {budget // 1000} KB budget"
          f" ({(total[1] + ws_bytes) / 1000:.1f} KB with the first state)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
