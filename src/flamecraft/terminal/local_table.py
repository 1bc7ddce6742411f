"""One game at one keyboard: the shared session model (``session/history.py``: the state,
the actions, the log, undo) plus who sits where, the seed and the bots' generators, and what a
seat's screen may show (``screen_view``, from that seat's view only)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..core.actions import Action
from ..core.board import CATALOG
from ..core.describe import describe, fancy_goals
from ..core.engine import (
    describe_decision,
    legal_actions,
    parse_action,
    start,
    to_act,
)
from ..core.engine import winners as engine_winners
from ..core.events import Event, log_text
from ..core.goals import fancy_value
from ..core.serialize import (
    GameRecord,
)
from ..core.setup_game import GameStart
from ..core.state import GameState
from ..core.summary import Turn, event_line, last_turns, turn_steps, turns
from ..core.tr import same
from ..core.view import view
from ..session import compose
from ..session.compose import Composite
from ..session.history import History
from ..session.undo import NOTHING_TO_UNDO
from .newgame import PlayerSeat, Setup
from .screen import (
    Style,
)
from .typed_input import display_order


def tr_steps(t: Turn, names: Sequence[str], tr: Callable[[str], str]) -> str:
    """A turn's steps with their results in one line, without the name (the screen puts it
    in bold before them)."""
    return tr("; ").join(turn_steps(t, names, tr))


def listed_choices(s: GameState) -> list[Composite]:
    """The choices the terminal lists at ``s`` (``session/compose.py``), in their order."""
    return compose.choices(s)


class LocalTable:
    """One game at one keyboard: its history (the state, the actions, the log and the undo
    points, ``session/history.py``), who plays each seat, and the seed it was dealt from. A
    game loaded from a state file (``flamecraft new``/``apply``) has no seed to replay from:
    ``base`` is that state, and saves are states."""

    def __init__(self, state: GameState, seed: int | None, seats: Sequence[PlayerSeat],
                 base: GameState | None = None, secret_seed: bool = False,
                 deal: GameStart | None = None):
        self.seats = list(seats)
        self.history = History(state, [p for p, seat in enumerate(self.seats) if seat.human])
        self.seed = seed
        self.base = base
        self.secret_seed = secret_seed  # shown only once the game is over
        self.rngs: dict[int, random.Random] = {}
        self.deal = deal  # a loaded record's start (None: the seed's)
        # The numbers the choices were shown with, per decision of the turn (its kind and
        # where), so a number typed never comes to mean another choice: a choice keeps its
        # number while it is offered, and a new one gets a number not used before.
        self.numbers: dict[tuple[int, ...], dict[str, int]] = {}
        self.numbered_turn = (-1, -1)

    @staticmethod
    def new(setup: Setup) -> LocalTable:
        s = start(len(setup.kinds), setup.seed, setup.deck, setup.names, setup.companions,
                  setup.first_player)
        return LocalTable(s, setup.seed, setup.seats(), secret_seed=setup.secret_seed)

    @property
    def state(self) -> GameState:
        return self.history.state

    @property
    def actions(self) -> list[str]:
        return self.history.actions

    @property
    def log(self) -> list[Event]:
        """The public event stream (``core/events.py``) with the table's notes."""
        return self.history.log

    @property
    def prev(self) -> GameState | None:
        """The state before the last choice (for the end scores)."""
        return self.history.prev

    @property
    def humans(self) -> int:
        return sum(1 for seat in self.seats if seat.human)

    def bot_rng(self, p: int) -> random.Random:
        if p not in self.rngs:
            origin = self.seed if self.base is None else f"state {self.base.rng}"
            self.rngs[p] = random.Random(f"{origin}:{p}:{len(self.actions)}")
        return self.rngs[p]

    def play(self, action: Action) -> None:
        """Applies the seat to act's action, logs it, and keeps the undo points
        (``History.commit``)."""
        self.history.play(action)

    def actions_now(self) -> list[Action]:
        """The legal actions in the engine's small steps, declines last (``flamecraft
        actions``'s order; the person's list is ``choices_now``)."""
        return display_order(legal_actions(self.state))

    def choices_now(self) -> list[tuple[int, Composite]]:
        """The person's choices now, each with its number, in the order of their numbers
        (stable within a decision of the turn: see ``numbers``)."""
        s = self.state
        listed = listed_choices(s)
        if not listed:
            return []
        now = (s.turn, to_act(s))
        if now != self.numbered_turn:
            self.numbers.clear()
            self.numbered_turn = now
        top = s.stack[-1]
        numbers = self.numbers.setdefault((top[0], top[2] if len(top) > 2 else -1), {})
        current = {c.text for c in listed}
        kept = {text: n for text, n in numbers.items() if text in current}
        if not kept:  # a decision met anew: numbered from 1 in the listed order
            numbers.clear()
        for c in listed:
            if c.text not in numbers:
                numbers[c.text] = max(numbers.values(), default=0) + 1
        return sorted(((numbers[c.text], c) for c in listed), key=lambda nc: nc[0])

    def play_choice(self, choice: Composite, asked: bool = True) -> None:
        """Applies a person's composite choice (its engine actions, one undo point)."""
        compose.play(self.history, choice, asked)

    def play_automatic(self) -> int:
        """Takes the choices a person's interface answers by itself (``compose.automatic``)
        for the people at this table; how many engine actions that took."""
        return compose.play_automatic(self.history, sorted(self.history.people))

    def undo(self, seat: int, tr: Callable[[str], str] = same,
             game: Callable[[str], str] = same) -> str:
        """Takes back ``seat``'s last choice of its current run; the message says what (in
        the language of ``tr``; the choice in the game's words of ``game``), or why not."""
        if not self.history.can_undo(seat):
            return game(NOTHING_TO_UNDO)
        _, undone = self.history.undo()
        if game is not same:
            undone = describe(self.state, parse_action(self.state, undone), game).words
        return tr("undone: {action}").format(action=undone)

    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def log_for(self, seat: int | None, tr: Callable[[str], str] = same,
                events: list[Event] | None = None) -> list[tuple[Event, str]]:
        """The events ``seat`` sees (None: the public side), each with its line in the
        language of ``tr`` (``events.log_text``)."""
        out = []
        for e in self.log if events is None else events:
            line = log_text(e, seat, tr)
            if line is not None:
                out.append((e, line))
        return out

    def full_log(self, seat: int | None, tr: Callable[[str], str] = same,
                 events: list[Event] | None = None) -> list[tuple[int, str, str]]:
        """Every step ``seat`` reads (of ``events``: by default the whole log), with its
        results (``summary.event_line``): (turn, who, line)."""
        out = []
        for e in self.log if events is None else events:
            line = event_line(e, seat, tr)
            if line is not None:
                out.append((e.turn, self.who(e), line))
        return out

    def turn_summaries(self, seat: int | None,
                       tr: Callable[[str], str] = same) -> list[tuple[int, str, str]]:
        """Every seat-turn in one line as ``seat`` reads it (``summary.turns``): (turn, who,
        what it did and earned)."""
        names = self.names()
        return [(t.turn, names[t.seat], tr_steps(t, names, tr))
                for t in turns(self.log, seat, tr) if t.steps]

    def who(self, e: Event) -> str:
        """The name a log line starts with: the actor's, or "" for the table's notes."""
        return "" if e.action[0] < 0 else self.seats[e.seat].name

    def watcher(self) -> int | None:
        """Whose eyes the screen is between turns: the one person at the keyboard, or None
        (the public side only) when several people share it."""
        people = [p for p, seat in enumerate(self.seats) if seat.human]
        return people[0] if len(people) == 1 else None

    def screen_view(self, seat: int, style: Style | None = None) -> dict[str, Any]:
        """What ``seat`` may see: its view, the log as it may read it, its own Fancy
        Dragons' values now and their goals with its progress and reward (they read only
        public facts and its own), the kinds of
        the seats, and the name of the decision at hand; in the language of ``style``."""
        style = style or Style(False)
        s = self.state
        v = view(s, seat)
        acting = not s.over and to_act(s) == seat
        numbered = self.choices_now() if acting else []
        names = self.names()
        return {
            "view": v,
            "decision": describe_decision(s, style.game) if acting else "",
            "choices": [self._label(s, c, style) for _, c in numbered],
            "choice_numbers": [n for n, _ in numbered] if acting else [],
            # every other seat's latest turn in one line (core/summary.py), seat order
            "turns": [(names[t.seat], t.final_round, tr_steps(t, names, style.game))
                      for t in last_turns(self.log, seat, style.game)],
            "fancy_values": {CATALOG.fancies[f].id: fancy_value(s, seat, CATALOG.fancies[f])
                             for f in s.fancy[seat]},
            "fancy_goals": fancy_goals(s, seat, style.game),
            "log": self.full_log(seat, style.game),
            "seat_kinds": [seat_.label(style.tr, style.game) for seat_ in self.seats],
        }

    def _label(self, s: GameState, c: Composite, style: Style) -> str:
        """A choice as the list shows it; the end of the turn says that undo is still open."""
        if c.confirm and len(c.actions) == 1 and self.history.can_undo(to_act(s)):
            return style.tr("confirm the end of your turn (or type 'undo')")
        return compose.label(s, c, style.game)

    def record(self) -> GameRecord:
        """The game record (only for a game started from a seed)."""
        assert self.seed is not None, "a game loaded from a state has no record"
        result = None
        if self.state.over:
            result = {"reputation": self.state.rep[:], "winners": engine_winners(self.state),
                      "turns": self.state.turn}
        return GameRecord(self.state.options, self.seed, list(self.actions), result, self.deal)
