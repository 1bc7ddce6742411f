"""The browser client's pages: the one page shell (``index.html``, at ``/`` for the lobby and
``/play/{id}`` for a table) in the request's language, and the client's static files.

Caching by content. The client is plain ES modules that import each other by *relative*
paths (``import … from "./cards.js"``), so a module's URL decides its imports' URLs. A
hash per file in each URL would need every ``import`` rewritten inside the JS (a change to
``i18n.js`` changes the URL of every module that imports it, and so on up); instead the
whole static folder has one *version*, a hash of every file's name and bytes
(``StaticVersion``), and the page shell links its files under it: ``/static/<version>/app.js``.
Its relative imports then resolve under the same prefix (``/static/<version>/cards.js``), so
every file of one version is fetched together, and any change to any file gives every file a
new URL. Those URLs are ``Cache-Control: public, max-age=31536000, immutable``: a browser
never asks again.

- The page shell is ``no-cache`` (it names the version), with an ETag of its bytes, so a
  reload costs a 304 when nothing changed.
- The plain ``/static/app.js`` still works, ``no-cache`` with an ETag of the file's bytes
  (a strong ETag: 304 on ``If-None-Match``).
- A version that is not the current one (a page from another server process during a
  deploy, or from before an edit) is served the current bytes but ``no-cache``: the page
  still loads, and nothing stale is kept for a year.

The version is recomputed when a file's size or modification time changes (one ``stat`` per
file per page), so an edited file is seen at the next reload without a restart.
Compression (gzip) is the app's (``app.py``), on top of all this.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.responses import FileResponse
from starlette.staticfiles import NotModifiedResponse
from starlette.types import Scope

from ..core.tr import N_
from .language import DEFAULT, request_language, say
from .settings import Settings

# The texts of index.html, seen before the client's script has loaded its catalogue (and
# without script at all): the page is served with them in the request's language.
PAGE_TEXTS = (N_("Loading Flamecraft…"),
              N_("Flamecraft needs JavaScript to run in the browser."))

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
VERSION_LENGTH = 16
VERSION = re.compile(f"[0-9a-f]{{{VERSION_LENGTH}}}")


def page_in(html: str, lang: str) -> str:
    """index.html in ``lang``: its ``<html lang>`` and its texts (``PAGE_TEXTS``)."""
    html = html.replace('<html lang="en">', f'<html lang="{lang}">', 1)
    for text in PAGE_TEXTS:
        html = html.replace(f">{text}<", f">{say(lang, text)}<")
    return html


def linked(html: str, version: str) -> str:
    """index.html with its ``src="/static/…"`` and ``href="/static/…"`` under the version
    prefix (``/static/<version>/…``)."""
    return re.sub(r'((?:src|href)=")/static/', rf"\1/static/{version}/", html)


def _etag(data: bytes) -> str:
    return '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


def _matches(request_headers: Headers, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (or is ``*``)."""
    asked = request_headers.get("if-none-match")
    if not asked:
        return False
    tags = [t.strip().removeprefix("W/") for t in asked.split(",")]
    return "*" in tags or etag in tags


@dataclass(frozen=True, slots=True)
class _Seen:
    signature: tuple[tuple[str, int, int], ...]  # (name, size, mtime_ns) of every file
    version: str
    etags: dict[str, str]  # the file's path relative to the folder → its ETag


class StaticVersion:
    """The static folder's version (a hash of every file's name and bytes) and each file's
    ETag (a hash of its bytes), recomputed when a file's size or modification time
    changes."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._seen: _Seen | None = None

    def _signature(self) -> tuple[tuple[str, int, int], ...]:
        out = []
        for root, dirs, files in os.walk(self.folder):
            dirs.sort()
            for name in sorted(files):
                path = Path(root) / name
                st = path.stat()
                out.append((path.relative_to(self.folder).as_posix(), st.st_size,
                            st.st_mtime_ns))
        return tuple(out)

    def current(self) -> _Seen:
        signature = self._signature() if self.folder.is_dir() else ()
        seen = self._seen
        if seen is not None and seen.signature == signature:
            return seen
        whole = hashlib.sha256()
        etags = {}
        for name, _, _ in signature:
            data = (self.folder / name).read_bytes()
            etags[name] = _etag(data)
            whole.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
        seen = _Seen(signature, whole.hexdigest()[:VERSION_LENGTH], etags)
        self._seen = seen
        return seen

    @property
    def version(self) -> str:
        return self.current().version

    def etag(self, name: str) -> str | None:
        """The ETag of the file at ``name`` (relative to the folder), if it is one of them,
        as the last ``current()`` saw it (a request looks at the folder once)."""
        seen = self._seen if self._seen is not None else self.current()
        return seen.etags.get(name)


class VersionedStatic(StaticFiles):
    """The static files at ``/static/<file>`` (``no-cache``, revalidated by their ETag) and
    at ``/static/<version>/<file>`` (``immutable`` when the version is the current one); see
    the module's docstring."""

    def __init__(self, folder: Path, versions: StaticVersion):
        super().__init__(directory=folder, check_dir=False)
        self.versions = versions

    async def get_response(self, path: str, scope: Scope) -> Response:
        seen = self.versions.current()  # once a request: file_response's ETag reads it
        head, sep, rest = path.partition(os.sep)
        cache = REVALIDATE
        if sep and rest and VERSION.fullmatch(head):
            path = rest
            if head == seen.version:
                cache = IMMUTABLE
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = cache
        return response

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        """The file with the ETag of its bytes (Starlette's own is of its size and time)."""
        headers = {}
        try:
            name = Path(full_path).resolve().relative_to(self.versions.folder.resolve())
        except ValueError:
            name = None
        etag = self.versions.etag(name.as_posix()) if name is not None else None
        if etag is not None:
            headers["etag"] = etag
        response = FileResponse(full_path, status_code=status_code, stat_result=stat_result,
                                headers=headers)
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response


def add_pages(app: FastAPI, settings: Settings) -> None:
    """The page routes and the static files."""
    versions = StaticVersion(settings.static_dir)

    def page(request: Request) -> Response:
        index = settings.static_dir / "index.html"
        headers = {"Cache-Control": REVALIDATE, "Vary": "Accept-Language"}
        if not index.is_file():
            return HTMLResponse("<!doctype html><title>Flamecraft</title><p>The browser client "
                                "is not installed (src/flamecraft/server/static/index.html).</p>")
        lang = request_language(request)
        html = linked(index.read_text(encoding="utf-8"), versions.version)
        if lang != DEFAULT:
            html = page_in(html, lang)
        body = html.encode()
        headers["ETag"] = _etag(body)
        if _matches(request.headers, headers["ETag"]):
            return Response(status_code=304, headers=headers)
        return HTMLResponse(body, headers=headers)

    @app.get("/", include_in_schema=False)
    async def lobby_page(request: Request) -> Response:
        return page(request)

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play_page(request: Request, game_id: str) -> Response:
        return page(request)

    # the accounts' pages (issue 27): the same shell, the client draws them
    @app.get("/profile", include_in_schema=False)
    @app.get("/leaderboard", include_in_schema=False)
    @app.get("/account/recover", include_in_schema=False)
    async def account_page(request: Request) -> Response:
        return page(request)

    @app.get("/players/{account_id}", include_in_schema=False)
    async def player_page(request: Request, account_id: str) -> Response:
        return page(request)

    app.mount("/static", VersionedStatic(settings.static_dir, versions), name="static")
