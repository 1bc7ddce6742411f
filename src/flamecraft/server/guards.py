"""What stands between the app and the public internet: a request body limit that holds for
chunked bodies too, the security headers of every page, errors in the one documented shape
``{"code", "message", "detail"}``, and the token buckets that hold messages and new games to
a rate.

The first two are plain ASGI middleware (not FastAPI's ``@app.middleware``) because the body limit
must see each chunk as it arrives: reading the body first and checking it after is what let
a 200 MB chunked request into memory.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ..core.tr import N_
from .language import header_language, say

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# The error code of each HTTP status the server answers on its own (the API's own errors
# carry theirs: gameerror.GameError).
STATUS_CODES = {400: "malformed", 403: "bad_token", 404: "not_found", 405: "not_allowed",
                409: "illegal", 413: "too_big", 422: "malformed", 429: "rate_limited"}

# No inline script or style anywhere in the client, so the policy can forbid both; the
# favicon is a data: URL. WebSockets go to this same origin ('self' covers ws: and wss:).
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; "
                           "img-src 'self' data:; connect-src 'self'; font-src 'self'; "
                           "object-src 'none'; base-uri 'none'; form-action 'self'; "
                           "frame-ancestors 'none'")
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"referrer-policy", b"no-referrer"),  # seat keys must never leave in a Referer
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers that predate it
    (b"cross-origin-opener-policy", b"same-origin"),
)


def error_body(code: str, message: str) -> dict[str, str]:
    """The one error shape (``detail`` repeats the message for clients of the first API)."""
    return {"code": code, "message": message, "detail": message}


async def send_error(send: Send, status: int, code: str, message: str) -> None:
    """Answers a request with a JSON error, from inside a middleware."""
    body = json.dumps(error_body(code, message)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuses (413 ``too_big``) a request whose body passes ``limit`` bytes, counting the
    chunks as they arrive, so no more than ``limit`` bytes of a body are ever held. A body
    within the limit is handed on whole."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = say(header_language(scope.get("headers", ())),
                      N_("requests are limited to {limit} bytes"), {"limit": self.limit})
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await send_error(send, 413, "too_big", too_big)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await send_error(send, 413, "too_big", too_big)  # the rest is never read
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        handed = False

        async def replay() -> Message:
            nonlocal handed
            if not handed:
                handed = True
                return whole
            return await receive()

        await self.app(scope, replay, send)


class SecurityHeaders:
    """Adds the security headers to every HTTP answer."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                message["headers"] = [*message.get("headers", ()),
                                      *(h for h in SECURITY_HEADERS if h[0] not in present)]
            await send(message)

        await self.app(scope, receive, with_headers)


class TokenBucket:
    """A token bucket: up to ``burst`` events at once, then ``rate`` a second. A quick
    player clicking several choices in a row (or a reconnecting client) is not abuse; a
    flood is, and is held to the sustained rate."""

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, max(1.0, burst), clock
        self.tokens, self.at = self.burst, clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True
