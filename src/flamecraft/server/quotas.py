"""Budgets, so that no one visitor can take what everyone shares (issue 24): how many jobs
may wait in a lane (hints and reviews; games to load) overall and per client address, and
how many games may run overall and per address, bot-only games apart.

Past a budget the answer is a ``Busy`` error (``gameerror.py``) that says which limit was
hit and when to try again, and nothing is stored: ``busy`` (503) when the server's own
queue or cap is full, ``rate_limited`` (429) when it is the asker's share. The retry time
is what the lane's recent jobs took (a lane) or when the oldest of the games in the way
expires (bot-only games); otherwise a minute.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core.tr import N_
from .gameerror import Busy
from .guards import AddressBuckets, address_group
from .settings import Settings

UNKNOWN = "?"  # the address of a job no client asked for (the server's own)
CAP_RETRY = 60.0  # seconds to wait when a cap of people's games is full (no time is known)
SMOOTHING = 0.3  # the weight of the newest job in a lane's mean duration


class Budget:
    """One lane's budget: at most ``size`` jobs waiting or running at once, at most
    ``per_address`` of them asked from one address group (an IPv6 /64 as one), run
    ``workers`` at a time. ``full`` and ``share`` are the refusals' msgids (the lane full:
    ``{count}``, ``{size}``; the address's share taken: ``{limit}``; both ``{retry_after}``)."""

    def __init__(self, full: str, share: str, size: int, per_address: int, workers: int = 1,
                 mean: float = 1.0):
        self.full, self.share = full, share
        self.size, self.per_address = max(1, size), max(1, per_address)
        self.workers = max(1, workers)
        self.mean = mean  # seconds a job took lately (smoothed): the retry time's unit
        self.total = 0
        self.held: dict[str, int] = {}

    def retry_after(self) -> float:
        """When a place is likely free: the jobs ahead, run ``workers`` at a time."""
        return self.mean * max(1.0, self.total / self.workers)

    def check(self, address: str | None) -> str:
        """The address group a job is charged to, if the budget takes it; else ``Busy``."""
        group = address_group(address) if address else UNKNOWN
        if self.total >= self.size:
            raise Busy("busy", self.full, 503, self.retry_after(), count=self.total,
                       size=self.size)
        if group != UNKNOWN and self.held.get(group, 0) >= self.per_address:
            raise Busy("rate_limited", self.share, 429, self.retry_after(),
                       limit=self.per_address)
        return group

    def hold(self, address: str | None) -> Place:
        """A place for one job while it waits and runs (``Busy`` if there is none), let go
        when the ``with`` block of the returned ``Place`` ends (or by ``release``); its
        duration feeds the retry time."""
        group = self.check(address)
        self.total += 1
        self.held[group] = self.held.get(group, 0) + 1
        return Place(self, group)

    def _release(self, group: str, took: float) -> None:
        self.total -= 1
        left = self.held[group] - 1
        if left:
            self.held[group] = left
        else:
            del self.held[group]
        self.mean = (1 - SMOOTHING) * self.mean + SMOOTHING * took


class Place:
    """A job's place in a ``Budget`` (``Budget.hold``): a context manager, released once."""

    def __init__(self, budget: Budget, group: str):
        self.budget, self.group = budget, group
        self.began = time.monotonic()
        self.released = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.budget._release(self.group, time.monotonic() - self.began)

    def __enter__(self) -> Place:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class Reads:
    """The budget of a game's reads per client address (an IPv6 /64 as one): its entry,
    record, review, replay steps and chat over HTTP, and each WebSocket connection (which
    may load the game): a burst of three seconds' worth, then ``rate`` a second."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic,
                 addresses: int = 10000):
        self.rate = rate
        self.buckets = AddressBuckets(rate, 3 * rate, addresses, clock)

    def charge(self, address: str) -> str:
        """The address, if it may read now; else ``rate_limited`` with the time to wait."""
        if not self.buckets.allow(address):
            raise Busy("rate_limited", N_("too many requests for games from one address (at "
                                          "most {rate} a second): try again in {retry_after} "
                                          "s"), 429, 1.0 / self.rate, rate=f"{self.rate:g}")
        return address


@dataclass(frozen=True, slots=True)
class Unfinished:
    """A game not finished (open or running), as the caps count it (``store.py``)."""

    id: str
    created: float  # Unix seconds
    bot_only: bool


class GameCaps:
    """The caps on games not finished: overall (from the store, so every process's count)
    and per address (the games created through this process since it started: the store
    keeps no client addresses); bot-only games apart, which also expire."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.origin: dict[str, str] = {}  # game id → the address group that created it

    def check(self, games: Sequence[Unfinished], address: str | None, bot_only: bool,
              now: float | None = None) -> str:
        """The creator's address group if a new game fits every cap; else ``Busy``."""
        s = self.settings
        now = time.time() if now is None else now
        group = address_group(address) if address else UNKNOWN
        # (a game made without an address, the server's own, counts overall only)
        ours = [g for g in games if group != UNKNOWN and self.origin.get(g.id) == group]
        if bot_only:
            bots = [g for g in games if g.bot_only]
            our_bots = [g for g in ours if g.bot_only]
            if len(our_bots) >= s.bot_games_per_address:
                raise Busy("rate_limited", N_(
                    "at most {limit} games without a person may run at once from one address; "
                    "the oldest of yours ends in {retry_after} s"), 429,
                    self._expires(our_bots, now), limit=s.bot_games_per_address)
            if len(bots) >= s.bot_games:
                raise Busy("busy", N_(
                    "the server runs as many games without a person as it takes ({limit}); "
                    "try again in {retry_after} s"), 503, self._expires(bots, now),
                    limit=s.bot_games)
        if len(ours) >= s.running_games_per_address:
            raise Busy("rate_limited", N_(
                "at most {limit} unfinished games from one address: finish or abandon one, or "
                "try again in {retry_after} s"), 429, CAP_RETRY,
                limit=s.running_games_per_address)
        if len(games) >= s.running_games:
            raise Busy("busy", N_("the server holds as many unfinished games as it takes "
                                  "({limit}); try again in {retry_after} s"), 503, CAP_RETRY,
                       limit=s.running_games)
        return group

    def _expires(self, games: Sequence[Unfinished], now: float) -> float:
        """When the first of ``games`` reaches its age limit (at least a second)."""
        if not games:
            return CAP_RETRY
        return max(1.0, min(g.created for g in games) + self.settings.bot_game_seconds - now)

    def created(self, game_id: str, group: str) -> None:
        if group != UNKNOWN:
            self.origin[game_id] = group

    def forget(self, games: Sequence[Unfinished]) -> None:
        """Forgets the origin of the games no longer unfinished (bounded memory)."""
        alive = {g.id for g in games}
        for game_id in [k for k in self.origin if k not in alive]:
            del self.origin[game_id]
