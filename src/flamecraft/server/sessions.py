"""A signed-in browser: its session cookie, and the CSRF check of every state-changing request
that carries it.

The cookie holds a random token (256 bits); the store keeps only its SHA-256 digest
(``account_store.start_session``), so neither the store nor a log line gives a session away.
It is ``HttpOnly`` (no script reads it), ``SameSite=Lax`` (not sent with another site's
POST), ``Secure`` when the page is served over HTTPS, and a new token is made at every
sign-in (the old one ended), so a token planted before sign-in is worthless after it.

CSRF: a request with the cookie that may change something (any method but GET, HEAD and
OPTIONS) must also carry ``X-Flamecraft-CSRF``, whose value only a page that asked
``GET /api/me`` knows: an HMAC of the session's token (``csrf_token``). It is checked here,
before any route runs, without the store; a request without the cookie (a guest) is not
concerned. Another site can make a browser send the cookie, but cannot read the token."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from http.cookies import SimpleCookie

from ..core.tr import N_
from .guards import ASGIApp, Receive, Scope, Send, send_error
from .language import header_language, say

COOKIE = "flamecraft_session"
CSRF_HEADER = "x-flamecraft-csrf"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SESSION_SECONDS = 30 * 86400.0  # a session lasts 30 days from its sign-in


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def session_hash(token: str) -> str:
    return hashlib.sha256(b"session:" + token.encode()).hexdigest()


def csrf_token(token: str) -> str:
    """The CSRF token of a session: an HMAC keyed by its (secret, HttpOnly) token."""
    return hmac.new(token.encode(), b"flamecraft csrf", hashlib.sha256).hexdigest()[:40]


def cookie_token(cookie_header: str | None) -> str | None:
    """The session token a Cookie header carries, if any (and of a plausible size)."""
    if not cookie_header:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(cookie_header)
    except Exception:  # a malformed Cookie header carries no session
        return None
    morsel = jar.get(COOKIE)
    if morsel is None or not 0 < len(morsel.value) <= 100:
        return None
    return morsel.value


def set_cookie_header(token: str, secure: bool, max_age: float = SESSION_SECONDS) -> str:
    """The Set-Cookie value that signs a browser in (or, ``max_age`` 0, out)."""
    parts = [f"{COOKIE}={token}", "Path=/", f"Max-Age={int(max_age)}", "HttpOnly",
             "SameSite=Lax"]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


class CsrfGuard:
    """Refuses (403 ``csrf``) a state-changing HTTP request that carries the session cookie
    without the session's CSRF token in ``X-Flamecraft-CSRF``."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method", "GET") in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers", ())
        cookie = "; ".join(v.decode("latin-1") for k, v in headers if k == b"cookie")
        token = cookie_token(cookie)
        if token is not None:
            given = next((v.decode("latin-1") for k, v in headers
                          if k == CSRF_HEADER.encode()), "")
            if not hmac.compare_digest(given.encode(), csrf_token(token).encode()):
                await send_error(send, 403, "csrf", say(header_language(headers), N_(
                    "this request carries your sign-in but not its check (the "
                    "X-Flamecraft-CSRF header): reload the page and try again")))
                return
        await self.app(scope, receive, send)
