"""A game's clock, chosen when the game is created: none, real-time (a time bank per seat
and a few seconds added per move, e.g. 10 min + 10 s) or turn-based (a deadline per move,
hours to days).

The time is kept on the server, in the game's row (``GameRow.clock``, written with every
version bump), as wall-clock seconds: it survives a restart and reads the same in every
process sharing the store, and clients only display what the presence message says of it.
A clock runs only for a person playing their own seat: a bot's seat, or a person's a bot
plays for now, has no time counted.

*Out of time* is a seat whose bank is spent (real-time) or whose deadline has passed
(turn-based) while it is to act: the others are told at once (the presence message), and a
grace period later a bot plays the seat (``standins.time_out``), until the person takes it
back. A "move" is a seat's turn at the table: the increment is added, and a turn-based
deadline set anew, when the seat to act changes; the small decisions of one turn share them.

Every function here is pure: it reads and writes the clock's JSON dict given the time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.tr import N_
from .gameerror import GameError

NONE, REALTIME, TURN = "none", "realtime", "turn"
KINDS = (NONE, REALTIME, TURN)

# What the API accepts (the lobby offers presets within them): seconds.
BANK_RANGE = (1.0, 3 * 3600.0)
INCREMENT_RANGE = (0.0, 600.0)
PER_MOVE_RANGE = (1.0, 14 * 24 * 3600.0)
RECLAIM_FLOOR = 30.0  # a real-time seat taken back with its bank spent gets this to go on


@dataclass(frozen=True)
class ClockSpec:
    """The clock a game was created with: its kind, and for real-time the bank and the
    increment, for turn-based the time per move (seconds)."""

    kind: str = NONE
    bank: float = 0.0
    increment: float = 0.0
    per_move: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise GameError("malformed", N_("clock: kind must be 'none', 'realtime' or "
                                            "'turn', not {kind}"), 400, kind=repr(self.kind))
        if self.kind == REALTIME:
            _within("bank", self.bank, BANK_RANGE)
            _within("increment", self.increment, INCREMENT_RANGE)
        if self.kind == TURN:
            _within("per_move", self.per_move, PER_MOVE_RANGE)

    @property
    def runs(self) -> bool:
        return self.kind != NONE

    def to_json(self) -> dict[str, Any]:
        if self.kind == REALTIME:
            return {"kind": REALTIME, "bank": self.bank, "increment": self.increment}
        if self.kind == TURN:
            return {"kind": TURN, "per_move": self.per_move}
        return {"kind": NONE}

    @staticmethod
    def of(clock: dict[str, Any] | None) -> ClockSpec:
        """The spec a stored clock was made from (none for a row without one)."""
        if not clock:
            return ClockSpec()
        return ClockSpec(str(clock.get("kind", NONE)), float(clock.get("bank", 0.0)),
                         float(clock.get("increment", 0.0)), float(clock.get("per_move", 0.0)))


def _within(name: str, value: float, bounds: tuple[float, float]) -> None:
    low, high = bounds
    if not low <= value <= high:
        raise GameError("malformed", N_("clock: {name} must be from {low:g} to {high:g} "
                                        "seconds, not {value:g}"), 400,
                        name=name, low=low, high=high, value=value)


def new_clock(spec: ClockSpec, seats: int) -> dict[str, Any] | None:
    """The clock a game starts with (None: no clock); it runs from ``start``."""
    if not spec.runs:
        return None
    clock = spec.to_json()
    if spec.kind == REALTIME:
        clock["left"] = [spec.bank] * seats
    clock.update({"seat": None, "since": None, "deadline": None})
    return clock


def start(clock: dict[str, Any] | None, seat: int | None, now: float) -> None:
    """The game begins (or a seat is handed back): ``seat``, to act, is on the clock."""
    if not clock:
        return
    _hand_to(clock, seat, now)


def _hand_to(clock: dict[str, Any], seat: int | None, now: float) -> None:
    clock["seat"] = seat
    clock["since"] = now if seat is not None else None
    per_move = float(clock.get("per_move", 0.0))
    clock["deadline"] = (now + per_move if seat is not None and clock["kind"] == TURN
                         else None)


def charge(clock: dict[str, Any] | None, counted: bool, now: float) -> None:
    """The time since the clock was last read is taken from the seat on it (real-time),
    if ``counted`` (a person plays it); the clock then reads from ``now``."""
    if not clock or clock.get("seat") is None:
        return
    seat = int(clock["seat"])
    if clock["kind"] == REALTIME and counted and clock.get("since") is not None:
        left = clock["left"]
        left[seat] = max(0.0, float(left[seat]) - max(0.0, now - float(clock["since"])))
    clock["since"] = now


def moved(clock: dict[str, Any] | None, counted: bool, next_seat: int | None,
          now: float) -> None:
    """After a move of the seat on the clock: its time charged, and if another seat is to
    act now (``next_seat``; None once the game is over) the increment added to the mover
    (real-time) and the next seat put on the clock (turn-based: a new deadline)."""
    if not clock:
        return
    charge(clock, counted, now)
    seat = clock.get("seat")
    if next_seat == seat:
        return
    if clock["kind"] == REALTIME and seat is not None and counted:
        clock["left"][seat] = float(clock["left"][seat]) + float(clock["increment"])
    _hand_to(clock, next_seat, now)


def handed_back(clock: dict[str, Any] | None, seat: int, to_act: int | None,
                now: float) -> None:
    """A person takes their seat back from a bot: a spent bank gets ``RECLAIM_FLOOR``, and if
    the seat is to act its clock starts now (turn-based: a whole new deadline)."""
    if not clock:
        return
    if clock["kind"] == REALTIME:
        clock["left"][seat] = max(float(clock["left"][seat]), RECLAIM_FLOOR)
    if to_act == seat:
        _hand_to(clock, seat, now)


def runs_out(clock: dict[str, Any] | None) -> float | None:
    """When the seat on the clock is out of time (wall-clock seconds), or None (no clock,
    nobody on it). Valid while that seat is counted."""
    if not clock or clock.get("seat") is None or clock.get("since") is None:
        return None
    if clock["kind"] == REALTIME:
        return float(clock["since"]) + float(clock["left"][int(clock["seat"])])
    deadline = clock.get("deadline")
    return None if deadline is None else float(deadline)


def remaining(clock: dict[str, Any] | None, seat: int, counted: bool, now: float) -> float | None:
    """A seat's time left at ``now`` (real-time: its bank; turn-based: till the deadline,
    for the seat to act), or None when the clock says nothing of it."""
    if not clock:
        return None
    on = clock.get("seat") == seat
    if clock["kind"] == REALTIME:
        left = float(clock["left"][seat])
        if on and counted and clock.get("since") is not None:
            left -= max(0.0, now - float(clock["since"]))
        return max(0.0, left)
    if on and clock.get("deadline") is not None:
        return max(0.0, float(clock["deadline"]) - now)
    return None


def public_json(clock: dict[str, Any] | None, counted: list[bool],
                now: float) -> dict[str, Any] | None:
    """The clock as the presence message tells it (the same to everyone): its kind and
    settings, the seat on it, and each seat's time left now (to a hundredth of a
    second; None where it says nothing)."""
    if not clock:
        return None
    out = ClockSpec.of(clock).to_json()
    out["seat"] = clock.get("seat")
    out["left"] = [None if (r := remaining(clock, i, counted[i], now)) is None
                   else round(r, 2) for i in range(len(counted))]
    return out
