"""The browser client's pages: the one page shell (``index.html``, at ``/`` for the lobby and
``/play/{id}`` for a table) in the request's language, and the client's static files."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from ..core.tr import N_
from .language import DEFAULT, request_language, say
from .settings import Settings

# The texts of index.html, seen before the client's script has loaded its catalogue (and
# without script at all): the page is served with them in the request's language.
PAGE_TEXTS = (N_("Loading Flamecraft…"),
              N_("Flamecraft needs JavaScript to run in the browser."))


def page_in(html: str, lang: str) -> str:
    """index.html in ``lang``: its ``<html lang>`` and its texts (``PAGE_TEXTS``)."""
    html = html.replace('<html lang="en">', f'<html lang="{lang}">', 1)
    for text in PAGE_TEXTS:
        html = html.replace(f">{text}<", f">{say(lang, text)}<")
    return html


def add_pages(app: FastAPI, settings: Settings) -> None:
    """The page routes and the static files."""

    def page(request: Request) -> Response:
        index = settings.static_dir / "index.html"
        headers = {"Cache-Control": "no-cache", "Vary": "Accept-Language"}
        if not index.is_file():
            return HTMLResponse("<!doctype html><title>Flamecraft</title><p>The browser client "
                                "is not installed (src/flamecraft/server/static/index.html).</p>")
        lang = request_language(request)
        if lang == DEFAULT:
            return FileResponse(index, headers=headers)
        return HTMLResponse(page_in(index.read_text(encoding="utf-8"), lang), headers=headers)

    @app.get("/", include_in_schema=False)
    async def lobby_page(request: Request) -> Response:
        return page(request)

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play_page(request: Request, game_id: str) -> Response:
        return page(request)

    app.mount("/static", StaticFiles(directory=settings.static_dir, check_dir=False),
              name="static")
