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


class Busy(GameError):
    """A limit of the server's reached, which frees by itself: ``retry_after`` seconds is
    when to try again (HTTP: the ``Retry-After`` header and ``retry_after`` in the body;
    WebSocket: ``retry_after`` in the ``error`` message). ``code`` "busy" (503) when a lane's
    queue or an overall cap is full, "rate_limited" (429) when it is the asker's own share."""

    def __init__(self, code: str, message: str, status: int, retry_after: float,
                 **params: Any):
        wait = max(1, min(3600, int(-(-retry_after // 1))))  # whole seconds, rounded up
        super().__init__(code, message, status, retry_after=wait, **params)
        self.retry_after = wait


def retry_of(exc: GameError) -> dict[str, int]:
    """What a WebSocket ``error`` message adds for a limit that frees by itself: when to
    try again (``{"retry_after": seconds}``); nothing for any other error."""
    return {"retry_after": exc.retry_after} if isinstance(exc, Busy) else {}
