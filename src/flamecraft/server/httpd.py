"""The HTTP listener ``flamecraft serve`` runs: uvicorn on its h11 protocol, bounded.

uvicorn's default protocol (httptools, when installed) keeps reading a request's head for as
long as it grows and for as long as the client takes: 8 connections × 40 MB of unterminated
header took a server from 70 to 462 MB, and half-sent requests stayed open for minutes, each
holding a file descriptor. Here:

- the request line and headers together are at most ``max_header_bytes`` (h11's
  ``max_incomplete_event_size``): past it the client is answered 431 and the connection closed,
  so no more than that is ever held for one connection;
- a request's head and body must have arrived ``header_timeout`` seconds after the connection
  opened, or after its previous answer went (a slowloris connection that trickles a byte now
  and then is closed); a kept-alive connection that sends nothing is closed after
  ``keep_alive_timeout`` seconds (uvicorn's own);
- at most ``max_connections`` connections at once (uvicorn's ``limit_concurrency``: past it new
  requests are answered 503), below the process's open-file limit;
- ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed from ``forwarded_allow_ips`` only.

The header count (``max_headers``) is checked by the app's ``HeaderLimit`` (guards.py), which
every way of running the app goes through.
"""

from __future__ import annotations

import asyncio
import json
import resource
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..core.tr import N_
from .guards import SECURITY_HEADERS, error_body
from .language import DEFAULT, say
from .settings import Settings


def connection_cap(settings: Settings) -> int:
    """The most connections open at once: ``max_connections``, or (0) three quarters of the
    process's open-file limit, leaving the rest for the store, the workers and the logs."""
    if settings.max_connections > 0:
        return settings.max_connections
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        soft = 65536
    return max(16, soft * 3 // 4)


def bounded_protocol(settings: Settings) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a deadline for each request's head and body, and the
    documented error shape when a head is too big or malformed."""
    timeout = settings.header_timeout
    limit = settings.max_header_bytes

    class BoundedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request on this connection has its own deadline

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._disarm()  # the WebSocket protocol times its own connection
            super().handle_websocket_upgrade(event)

        def _arm(self) -> None:
            self._disarm()
            if timeout > 0:
                self._deadline = self.loop.call_later(timeout, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            """The deadline passed: a request still arriving (its head or body incomplete)
            has its connection closed; one being answered is left alone."""
            self._deadline = None
            cycle = self.cycle
            arriving = self.conn.their_state in (h11.IDLE, h11.SEND_BODY)
            answering = cycle is not None and cycle.response_started and not cycle.response_complete
            if arriving and not answering and not self.transport.is_closing():
                self.transport.close()

        def send_400_response(self, msg: str) -> None:
            """A head past ``max_header_bytes`` (431 ``too_big``) or not HTTP (400
            ``malformed``), in the documented shape."""
            self._disarm()
            pending, _ = self.conn.trailing_data
            if len(pending) > limit:
                status, code = 431, "too_big"
                message = say(DEFAULT, N_("request headers are limited to {limit} bytes"),
                              {"limit": limit})
            else:
                status, code = 400, "malformed"
                message = say(DEFAULT, N_("the request is not valid HTTP"))
            body = json.dumps(error_body(code, message)).encode()
            headers = [(b"content-type", b"application/json"),
                       (b"content-length", str(len(body)).encode()),
                       (b"connection", b"close"), *SECURITY_HEADERS]
            try:
                self.transport.write(self.conn.send(h11.Response(status_code=status,
                                                                 headers=headers)) or b"")
                self.transport.write(self.conn.send(h11.Data(data=body)) or b"")
                self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
            except h11.LocalProtocolError:  # h11 cannot answer in this state: just close
                pass
            self.transport.close()

    return BoundedH11Protocol


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """What ``uvicorn.run`` is given for the limits above."""
    return {"http": bounded_protocol(settings),
            "h11_max_incomplete_event_size": settings.max_header_bytes,
            "timeout_keep_alive": max(1, round(settings.keep_alive_timeout)),
            "limit_concurrency": connection_cap(settings),
            "proxy_headers": True,
            "forwarded_allow_ips": settings.forwarded_allow_ips}
