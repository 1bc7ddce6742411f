"""Who is at a table: each seat here, away or a bot; how long the seat to act has been
thinking; how many watch.

Each process knows its own connections; with several processes over one PostgreSQL, each
tells the others what it sees of a game's seats (``facts``: per seat shown, hidden since or
gone since; and how many watch) over the bus (``pubsub.PRESENCE_CHANNEL``), at each change
and every ``heartbeat`` seconds, and merges what it hears (``heard``): a seat is here if any
process has a shown connection of it. What a process has not repeated for ``ttl`` seconds
(a process gone) no longer counts.

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
SHOWN, GONE = "shown", "gone"  # what a process sees of a seat (with HIDDEN): its facts

Fact = tuple[str, float]  # SHOWN, HIDDEN or GONE, and since when
Facts = dict[int, Fact]  # per seat, what one process sees (seats it never saw left out)


@dataclass
class Told:
    """What a process tells the others of a game (``pubsub.PRESENCE_CHANNEL``): its facts,
    how many watch there, and whether it asks the others to tell theirs at once (it has just
    loaded the game)."""

    process: str
    facts: Facts
    spectators: int
    ask: bool = False

    def to_json(self) -> str:
        obj: dict[str, object] = {"p": self.process, "w": self.spectators, "f": {
            str(seat): [kind, round(since, 3)] for seat, (kind, since) in self.facts.items()}}
        if self.ask:
            obj["ask"] = True
        return json.dumps(obj, separators=(",", ":"))

    @staticmethod
    def from_json(text: str, seats: int) -> Told:
        """ValueError for anything malformed (a notification is not trusted to be well
        formed: it is dropped and logged)."""
        obj = json.loads(text)
        if not isinstance(obj, dict) or not isinstance(obj.get("p"), str):
            raise ValueError("no process")
        spectators, raw = obj.get("w", 0), obj.get("f", {})
        if not isinstance(spectators, int) or spectators < 0 or not isinstance(raw, dict):
            raise ValueError("bad spectators or facts")
        facts: Facts = {}
        for key, value in raw.items():
            seat = int(key)
            if not (0 <= seat < seats and isinstance(value, list) and len(value) == 2
                    and value[0] in (SHOWN, HIDDEN, GONE)
                    and isinstance(value[1], (int, float))):
                raise ValueError(f"bad fact {key!r}: {value!r}")
            facts[seat] = (value[0], float(value[1]))
        return Told(obj["p"], facts, spectators, obj.get("ask") is True)

    def same(self, other: Told) -> bool:
        """Whether telling ``other`` after this changes nothing anyone is shown (a shown
        seat's "since" is always now, so only its kind counts)."""
        def kinds(t: Told) -> dict[int, object]:
            return {seat: kind if kind == SHOWN else (kind, since)
                    for seat, (kind, since) in t.facts.items()}
        return self.spectators == other.spectators and kinds(self) == kinds(other)


@dataclass
class Heard:
    """What another process last told of a game, and when this one heard it."""

    at: float
    told: Told


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
    remote: dict[str, Heard] = field(default_factory=dict)  # what other processes told
    ttl: float = 45.0  # seconds another process's facts count without being told again

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

    def fact(self, seat: int, conns: Iterable[Hashable]) -> Fact | None:
        """What this process sees of a person's seat (``conns``: its open connections here):
        shown now, hidden since, gone since, or None (never connected here)."""
        open_ = list(conns)
        if not open_:
            gone = self.gone.get(seat)
            return None if gone is None else (GONE, gone)
        if any(c not in self.hidden for c in open_):
            return SHOWN, self.clock()
        return HIDDEN, max(self.hidden[c] for c in open_)  # the last one to be hidden

    def facts(self, seats: int, bots: set[int],
              conns_of: Callable[[int], Sequence[Hashable]]) -> Facts:
        """This process's facts of every person's seat, to tell the other processes."""
        out: Facts = {}
        for seat in range(seats):
            if seat not in bots and (f := self.fact(seat, conns_of(seat))) is not None:
                out[seat] = f
        return out

    def heard(self, told: Told) -> bool:
        """Another process told its facts; True if that changes what this one shows."""
        before = self.remote.get(told.process)
        self.remote[told.process] = Heard(self.clock(), told)
        if before is None:
            return bool(told.facts) or told.spectators > 0
        return not before.told.same(told)

    def _told(self) -> list[Told]:
        """What other processes told that still counts (forgetting what has expired)."""
        now = self.clock()
        for process in [p for p, h in self.remote.items() if now - h.at > self.ttl]:
            del self.remote[process]
        return [h.told for h in self.remote.values()]

    def spectators(self, here: int) -> int:
        """How many watch, ``here`` of them on this process's connections."""
        return here + sum(t.spectators for t in self._told())

    def seat_status(self, seat: int, conns: Iterable[Hashable]) -> tuple[str, str | None, float]:
        """A person's status, why they are away, and since when (``conns``: the seat's open
        connections here; what other processes told counts alike)."""
        now = self.clock()
        facts = [f for f in [self.fact(seat, conns)] if f is not None]
        facts += [h.facts[seat] for h in self._told() if seat in h.facts]
        if any(kind == SHOWN for kind, _ in facts):
            return HERE, None, now
        hidden = [since for kind, since in facts if kind == HIDDEN]
        if hidden:
            since = max(hidden)
            return (AWAY if now - since >= self.hidden_grace else HERE), HIDDEN, since
        since = max((since for kind, since in facts if kind == GONE), default=self.loaded)
        return (AWAY if now - since >= self.gone_grace else HERE), OFFLINE, since

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
        for heard in self.remote.values():  # another process's facts expire: a change
            wait = max(0.0, heard.at + self.ttl - now)
            soonest = wait if soonest is None else min(soonest, wait)
        return soonest

    def message(self, seats: int, bots: set[int], conns_of: Callable[[int], Sequence[Hashable]],
                spectators: int, clock: dict[str, object] | None = None) -> str:
        """The "presence" message (docs/server.md), as JSON text: the same for everyone
        (``spectators``: those watching on this process; ``clock``: the game's clock as
        ``clocks.public_json`` tells it, when it has one)."""
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
                                      "spectators": self.spectators(spectators)}
        if clock is not None:
            message["clock"] = clock
        return json.dumps(message, separators=(",", ":"))

