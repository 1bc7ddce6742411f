"""What stands between the app and the public internet: a request body limit that holds for
chunked bodies too, the security headers of every page, errors in the one documented shape
``{"code", "message", "detail"}``, and the token buckets that hold messages and new games to
a rate.

The first two are plain ASGI middleware (not FastAPI's ``@app.middleware``) because the body limit
must see each chunk as it arrives: reading the body first and checking it after is what let
a 200 MB chunked request into memory.
"""

from __future__ import annotations

import ipaddress
import json
import time
from collections import OrderedDict
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
                409: "illegal", 413: "too_big", 422: "malformed", 429: "rate_limited",
                431: "too_big"}

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


class HeaderLimit:
    """Refuses (431 ``too_big``) a request, or a WebSocket handshake, with more than ``limit``
    header lines (their total size is bounded by the listener: httpd.py)."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and len(scope.get("headers", ())) > self.limit:
            if scope["type"] == "websocket":  # refused before it is accepted: an HTTP 403
                await send({"type": "websocket.close", "code": 1008,
                            "reason": f"more than {self.limit} headers"})
                return
            await send_error(send, 431, "too_big", say(
                header_language(scope.get("headers", ())),
                N_("requests are limited to {limit} headers"), {"limit": self.limit}))
            return
        await self.app(scope, receive, send)


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

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def allow(self) -> bool:
        self._refill()
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def spend(self, cost: float) -> None:
        """Charges an event that happens anyway (a message too big, answered so): ``cost``
        tokens, or all there are."""
        self._refill()
        self.tokens = max(0.0, self.tokens - cost)

def address_group(host: str) -> str:
    """The group a client address is limited as: an IPv4 address itself, an IPv6 address its
    /64 (one subscriber's network: a host picks any address in it at will), an IPv4-mapped
    IPv6 address its IPv4 address; anything else (a test client's name) as it is."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class AddressBuckets:
    """A token bucket per client address group (``address_group``), in bounded memory: past
    ``size`` groups, those whose bucket has filled up again (they would be allowed a whole
    burst anyway) are forgotten, then, if still too many, the least recently seen. So a flood
    of new addresses forgets the quiet ones first and never every address at once (the old
    table was cleared whole at 10,000, the busy address's count with it)."""

    def __init__(self, rate: float, burst: float, size: int = 10000,
                 clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.size, self.clock = rate, burst, max(1, size), clock
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def allow(self, host: str) -> bool:
        group = address_group(host)
        bucket = self.buckets.get(group)
        if bucket is None:
            bucket = self.buckets[group] = TokenBucket(self.rate, self.burst, self.clock)
            if len(self.buckets) > self.size:
                self._forget()
        else:
            self.buckets.move_to_end(group)
        return bucket.allow()

    def _forget(self) -> None:
        now = self.clock()
        full = [g for g, b in self.buckets.items()
                if b.tokens + (now - b.at) * b.rate >= b.burst]
        for group in full[:len(self.buckets) - self.size // 2]:
            del self.buckets[group]  # a full bucket is what a forgotten one starts with
        while len(self.buckets) > self.size:
            self.buckets.popitem(last=False)  # the least recently seen
