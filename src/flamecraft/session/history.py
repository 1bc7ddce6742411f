"""A game in play, as the terminal and the web server both keep it: the state, the stable
texts of the actions taken, the public event log, and the points a person may undo back to.

One model, so that the two agree on what undo may take back (``undo.py``: a person's own run
of choices within one turn, never past something hidden shown or chance used) and on how a
saved game is replayed (``replay``: the first action that no longer applies is named, and
nothing of the game is changed). The adapters add what is theirs around it: seats and bots,
files (the terminal), rows, tokens and connections (the server).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from ..core.actions import Action
from ..core.engine import apply, parse_action, text, to_act
from ..core.errors import FlamecraftError
from ..core.events import Event
from ..core.state import GameState
from .notes import table_notes
from .undo import Snapshot, reveals


@dataclass
class Played:
    """One action worked out but not yet kept: the acting seat, the states before and after,
    the action's stable text, and what the table reads of it (its events, the forced actions
    it led to, then the table's notes)."""

    seat: int
    before: GameState
    after: GameState
    text: str
    events: list[Event]


class ReplayError(Exception):
    """A saved action that does not apply to the game as replayed (say, after a correction
    of the card data made it illegal): which one (``number`` counts from 1), its text, and
    the engine's reason (``cause``)."""

    def __init__(self, number: int, action: str, cause: FlamecraftError):
        super().__init__(f"action {number} ({action!r}): {cause}")
        self.number, self.action, self.cause = number, action, cause


class History:
    """The state and everything the game's actions left behind. ``people`` are the seats
    whose choices may be taken back (bots' never are)."""

    def __init__(self, state: GameState, people: Collection[int] = ()):
        self.state = state
        self.people = frozenset(people)
        self.actions: list[str] = []  # the stable text of every action taken
        self.log: list[Event] = []  # the public event stream (core/events.py), with notes
        self.log_ends: list[int] = []  # len(self.log) after each action (for replays)
        self.undo_points: list[Snapshot] = []  # the undoable run's states, oldest first
        self.undo_seat = -1  # whose run that is
        self.prev: GameState | None = None  # the state before the last action

    def prepare(self, action: Action, state: GameState | None = None) -> Played:
        """The action applied to a copy: raises ``IllegalActionError`` (changing nothing)
        when it is not legal now (``state``: the state a composite's earlier actions lead
        to, ``session/compose.py``)."""
        s = self.state if state is None else state
        events: list[Event] = []
        after = apply(s, action, events)
        return Played(to_act(s), s, after, text(s, action), events + table_notes(s, after))

    def commit(self, played: Played, undo_point: bool = True) -> None:
        """Keeps a prepared action, and the undo points by the one policy: a person's run of
        choices within one turn, cut when another seat acts, the turn ends, or something
        hidden is shown or chance is used. ``undo_point=False``: a later action of one
        composite choice (``session/compose.py``), taken back with the first."""
        p, before, after = played.seat, played.before, played.after
        if p != self.undo_seat or p not in self.people:
            self.undo_points.clear()
        self.undo_seat = p
        if p in self.people and undo_point:
            self.undo_points.append(Snapshot(before, len(self.actions), len(self.log)))
        if reveals(before, after) or after.turn != before.turn:
            self.undo_points.clear()
        self.actions.append(played.text)
        self.log.extend(played.events)
        self.log_ends.append(len(self.log))
        self.prev, self.state = before, after

    def play(self, action: Action) -> Played:
        played = self.prepare(action)
        self.commit(played)
        return played

    def replay(self, texts: Iterable[str],
               parse: Callable[[GameState, str], Action] = parse_action) -> None:
        """Plays saved actions (stable texts, or anything ``parse`` reads: a record's
        ``GameRecord.parse`` reads them in the card names they were written with) after the
        ones already here, with the undo points the policy gives, as when they were played.
        Raises ``ReplayError`` at the first action that does not apply; the history is then
        as it was before the call."""
        start = (self.state, len(self.actions), len(self.log), self.prev,
                 list(self.undo_points), self.undo_seat)
        for number, typed in enumerate(texts, len(self.actions) + 1):
            try:
                self.play(parse(self.state, typed))
            except FlamecraftError as exc:
                self.state, count, log, self.prev, self.undo_points, self.undo_seat = start
                self._cut(count, log)
                raise ReplayError(number, typed, exc) from None

    def marks(self) -> list[int]:
        """The undo points as a save keeps them: the number of actions before each."""
        return [snap.actions for snap in self.undo_points]

    def can_undo(self, seat: int | None) -> bool:
        """Whether ``seat`` may take back a choice now: it is to act, in its own run."""
        s = self.state
        return (seat is not None and not s.over and bool(self.undo_points)
                and self.undo_seat == seat and to_act(s) == seat)

    def undo(self) -> tuple[Snapshot, str]:
        """Takes back the last choice of the run (``can_undo`` must hold): the point gone
        back to, and the stable text of the action undone."""
        snap = self.undo_points.pop()
        undone = self.actions[snap.actions]
        self.state = snap.state
        self.prev = None
        self._cut(snap.actions, snap.log)
        return snap, undone

    def _cut(self, actions: int, log: int) -> None:
        del self.actions[actions:]
        del self.log_ends[actions:]
        del self.log[log:]
