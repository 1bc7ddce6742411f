"""The language each client of the server reads: English or Japanese, per request and per
WebSocket, so two seats of one game may play in two languages at once.

A client says its language with ``?lang=en|ja`` (what the browser's WebSocket sends: a
browser cannot set a WebSocket's headers), else with the standard ``Accept-Language`` header
(what the browser's ``fetch`` sends, set to the page's language); anything else reads
English. Error *codes* never change with the language; their ``message`` does.

The texts themselves come from the message catalogues (``flamecraft.display.i18n``): the ``web``
domain for the server's own sentences, the ``game`` domain for the game's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from typing import Any

from starlette.requests import HTTPConnection

from ..core.tr import Translate, same
from ..display.i18n import LANGUAGES, catalogue, translator

DEFAULT = "en"
# Only the start of an Accept-Language header is read (a browser's is a few dozen bytes; a 10 MB
# one blocked the event loop 1.5 s, parsed on each request), and what it says is remembered.
ACCEPT_LANGUAGE_PREFIX = 256


def _supported(tag: str) -> str | None:
    """The language a tag ("ja", "ja-JP", "en-GB") asks for, if the project speaks it."""
    base = tag.strip().lower().replace("_", "-").split("-")[0]
    return base if base in LANGUAGES else None


def accept_language(header: str | None) -> str | None:
    """The first language of an ``Accept-Language`` header (by quality, then order) that the
    project speaks, or None; only its first ``ACCEPT_LANGUAGE_PREFIX`` characters are read."""
    if not header:
        return None
    return _accept_language(header[:ACCEPT_LANGUAGE_PREFIX])


@lru_cache(maxsize=1024)
def _accept_language(header: str) -> str | None:
    ranked: list[tuple[float, int, str]] = []
    for order, part in enumerate(header.split(",")):
        tag, _, params = part.partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        lang = _supported(tag)
        if lang is not None and quality > 0:
            ranked.append((-quality, order, lang))
    return min(ranked)[2] if ranked else None


def client_language(query: Mapping[str, str], headers: Mapping[str, str]) -> str:
    """A client's language: ``?lang=`` if it names one the project speaks, else the
    ``Accept-Language`` header's, else English."""
    asked = query.get("lang")
    if asked and _supported(asked) == asked.lower():
        return asked.lower()
    return accept_language(headers.get("accept-language")) or DEFAULT


def request_language(request: HTTPConnection) -> str:
    """The language an HTTP request or a WebSocket reads (``?lang=``, else Accept-Language)."""
    return client_language(request.query_params, request.headers)


def header_language(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The language of a raw ASGI request's headers (for the middleware's errors)."""
    for name, value in headers:
        if name.lower() == b"accept-language":
            return accept_language(value[:ACCEPT_LANGUAGE_PREFIX].decode("latin-1")) or DEFAULT
    return DEFAULT


def web_tr(lang: str) -> Translate:
    """The server's own sentences (the ``web`` domain) in ``lang``."""
    return same if lang == DEFAULT else translator(lang, "web").gettext


def game_tr(lang: str) -> Translate:
    """The game's sentences (the ``game`` domain: choices, facts, log lines) in ``lang``."""
    return same if lang == DEFAULT else translator(lang, "game").gettext


def error_tr(lang: str) -> Translate:
    """An error's words in ``lang``: the game's (``sessions``, the engine) or the server's own
    (``names.py``), whichever catalogue holds its msgid."""
    if lang == DEFAULT:
        return same
    game, web = game_tr(lang), web_tr(lang)
    return lambda msgid: game(msgid) if game(msgid) != msgid else web(msgid)


def say(lang: str, msgid: str, params: Mapping[str, Any] | None = None) -> str:
    """A server sentence in ``lang``, its ``{placeholders}`` filled (English: the msgid)."""
    text = web_tr(lang)(msgid)
    return text.format(**params) if params else text


@cache
def page_catalogue(lang: str) -> dict[str, Any]:
    """What the browser loads to speak ``lang`` (GET /api/i18n/{lang}): the ``web`` domain's
    translations, msgid → text, straight from the catalogue."""
    return {"lang": lang, "messages": catalogue(lang, "web")}
