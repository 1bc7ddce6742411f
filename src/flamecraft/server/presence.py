"""Who is at a table: each seat here, away or a bot; how long the seat to act has been
thinking; how many watch. What one process sees of its own connections (a game served by two
processes at once shows each process's clients; docs/server.md).

A person is *away* once none of their connections has been open and visible for a grace
period: no connection for ``gone_grace`` seconds (a reload or a dropped phone network comes
back well within it), or every connection's tab hidden for ``hidden_grace`` seconds (a
glance at another tab is not leaving). The message says only what everyone at the table may
know — who is connected and who is to act — so every client, spectators too, is sent the
same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field

HERE, AWAY, BOT = "here", "away", "bot"
HIDDEN, OFFLINE = "hidden", "offline"  # why a person is away


@dataclass
class Presence:
    """A loaded game's presence, kept by ``Connections``: when each person's connections went
    (or went hidden), and since when the seat to act has been to act. ``clock`` gives
    seconds (``time.time`` in the server, a fake in tests)."""

    clock: Callable[[], float]
    gone_grace: float = 3.0
    hidden_grace: float = 30.0
    loaded: float = field(default=0.0)  # when this process loaded the game
    hidden: dict[Hashable, float] = field(default_factory=dict)  # connection: hidden since
    gone: dict[int, float] = field(default_factory=dict)  # seat: its last connection closed
    acting: tuple[int, float] | None = None  # the seat to act, and since when

    def __post_init__(self) -> None:
        if not self.loaded:
            self.loaded = self.clock()

    def said(self, conn: Hashable, hidden: bool) -> bool:
        """A connection says its tab is hidden (or shown again). True if that is news."""
        if hidden:
            if conn in self.hidden:
                return False
            self.hidden[conn] = self.clock()
            return True
        return self.hidden.pop(conn, None) is not None

    def closed(self, conn: Hashable, seat: int | None, seat_still_open: bool) -> None:
        """A connection closed; ``seat_still_open``: its seat has another one open."""
        self.hidden.pop(conn, None)
        if seat is not None and not seat_still_open:
            self.gone[seat] = self.clock()

    def opened(self, seat: int | None) -> None:
        if seat is not None:
            self.gone.pop(seat, None)

    def to_act(self, seat: int | None) -> None:
        """The seat to act now (None: nobody, the game is over or not begun): the thinking
        time starts again only when it changes."""
        if seat is None:
            self.acting = None
        elif self.acting is None or self.acting[0] != seat:
            self.acting = (seat, self.clock())

    def seat_status(self, seat: int, conns: Iterable[Hashable]) -> tuple[str, str | None, float]:
        """A person's status, why they are away, and since when (``conns``: the seat's open
        connections)."""
        now = self.clock()
        open_ = list(conns)
        if not open_:
            since = self.gone.get(seat, self.loaded)
            return (AWAY if now - since >= self.gone_grace else HERE), OFFLINE, since
        shown = [c for c in open_ if c not in self.hidden]
        if shown:
            return HERE, None, now
        since = max(self.hidden[c] for c in open_)  # the last one to be hidden
        return (AWAY if now - since >= self.hidden_grace else HERE), HIDDEN, since

    def next_change(self, seats: int, bots: set[int],
                    conns_of: Callable[[int], Sequence[Hashable]]) -> float | None:
        """Seconds until a person still counted here becomes away by the grace alone (when
        the message must be sent again), or None."""
        now = self.clock()
        soonest: float | None = None
        for seat in range(seats):
            if seat in bots:
                continue
            status, why, since = self.seat_status(seat, conns_of(seat))
            if status == HERE and why is not None:
                grace = self.gone_grace if why == OFFLINE else self.hidden_grace
                wait = max(0.0, since + grace - now)
                soonest = wait if soonest is None else min(soonest, wait)
        return soonest

    def message(self, seats: int, bots: set[int], conns_of: Callable[[int], Sequence[Hashable]],
                spectators: int, clock: dict[str, object] | None = None) -> str:
        """The "presence" message (docs/server.md), as JSON text: the same for everyone
        (``clock``: the game's clock as ``clocks.public_json`` tells it, when it has one)."""
        now = self.clock()
        out: list[dict[str, object]] = []
        for seat in range(seats):
            if seat in bots:
                out.append({"seat": seat, "status": BOT})
                continue
            status, why, since = self.seat_status(seat, conns_of(seat))
            entry: dict[str, object] = {"seat": seat, "status": status}
            if status == AWAY:
                entry["why"] = why
                entry["away"] = round(now - since)
            out.append(entry)
        acting = None if self.acting is None else {
            "seat": self.acting[0], "thinking": round(now - self.acting[1])}
        message: dict[str, object] = {"type": "presence", "seats": out, "acting": acting,
                                      "spectators": spectators}
        if clock is not None:
            message["clock"] = clock
        return json.dumps(message, separators=(",", ":"))
