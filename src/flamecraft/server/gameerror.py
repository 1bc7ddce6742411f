"""The one error a request can meet: a code the protocol names (the same in every language)
and a sentence in the client's language. Every check raises it before anything changes, so a
refused request leaves the game as it was; the HTTP and WebSocket sides both answer it."""

from __future__ import annotations

from typing import Any

from ..core.errors import error_text
from .language import DEFAULT as DEFAULT_LANGUAGE
from .language import error_tr, say


class GameError(Exception):
    """A request that cannot be honoured; ``code`` is the protocol's error code (the same in
    every language). ``message`` is a msgid of the ``web`` catalogue (marked ``N_``) with its
    ``{placeholders}`` in ``params``: ``.message`` reads it in English, ``message_in(lang)``
    in the client's language. ``error``: the engine or setup error it reports, whose own
    words (the ``game`` catalogue) are the message."""

    def __init__(self, code: str, message: str, status: int = 409, *,
                 error: Exception | None = None, **params: Any):
        english = message.format(**params) if params else message
        super().__init__(english)
        self.code, self.message, self.status = code, english, status
        self.msgid, self.params, self.error = message, params, error

    def message_in(self, lang: str) -> str:
        """The message in ``lang`` (English: ``message``, byte for byte)."""
        if lang == DEFAULT_LANGUAGE:
            return self.message
        if self.error is not None:
            return error_text(self.error, error_tr(lang))
        return say(lang, self.msgid, self.params)


class Unavailable(GameError):
    """A fault of the server's own, not of the request, that heals by itself: the store
    cannot be reached or written (``what`` = "store": a locked or read-only SQLite file, a
    PostgreSQL restart, a dropped connection), or the bots' worker processes died twice in a
    row ("workers"). 503 ``unavailable``; the bots retry (``botseats.py``), a person tries
    again."""

    def __init__(self, what: str, message: str, **params: Any):
        super().__init__("unavailable", message, 503, **params)
        self.what = what
