"""One game as a server process holds it: its stored row and actions, and the ``History``
they make (``session/history.py``: the state, the event log, the undo points and the one undo
policy the terminal shares), plus what only the web needs, the log as JSON per reader.

A table is built by replaying the stored actions, so it is the same in every process; it
changes only after the store has committed a change (``moves.py``, ``games.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from ..core.actions import Action
from ..core.engine import apply_in_place, to_act
from ..core.errors import FlamecraftError
from ..core.events import Event
from ..core.serialize import GameRecord, action_error, names_from_json, start_from_json
from ..core.setup_game import GameStart, seeded_start
from ..core.state import GameState
from ..core.tr import N_
from ..core.upgrade import DECISION_RULES, upgrade
from ..session import compose
from ..session.history import History, Played, ReplayError
from .gameerror import GameError
from .language import DEFAULT as DEFAULT_LANGUAGE
from .store import FINISHED, HUMAN, OPEN, RUNNING, ActionRow, GameRow
from .wire import LogLine, log_line

log = logging.getLogger("flamecraft.server")


def stored_start(row: GameRow) -> GameStart:
    """How a stored game was dealt: its row's deal (by card ids, so the order of the card
    files does not matter), or for a row stored without one its seed's deal, as it always
    was. A deal that no longer fits the card data is named to the operator's log only (it
    names hidden cards)."""
    if row.setup is None:
        return seeded_start(row.options, row.seed)
    try:
        return start_from_json(row.setup.get("deal"), row.options)
    except FlamecraftError as exc:
        log.error("game %s: %s", row.id, exc)
        raise GameError("broken", N_("game {game}: its stored deal no longer fits this "
                                     "server's card data"), 500, game=row.id) from None


def upgraded_actions(row: GameRow, actions: Sequence[ActionRow],
                     version: int) -> list[ActionRow] | None:
    """A game stored under the decision points before ruling 20's (no ``rules`` in its
    setup), as today's engine asks it (``core/upgrade.py``): its rows, numbered anew, each at
    ``version`` (the game's version once they are stored again); None for a game of today's
    rules, or one still in the lobby. A game that no longer replays is "broken" (named to
    the operator's log only: the texts can name hidden cards)."""
    if not needs_upgrade(row):
        return None
    table = Table(row)
    assert table.history is not None
    s = table.history.state.copy()
    try:
        texts = upgrade(s, [a.text for a in actions], table.parse_stored)
        out = []
        for seq, typed in enumerate(texts, 1):
            out.append(ActionRow(seq, to_act(s), typed, version))
            apply_in_place(s, table.parse_stored(s, typed))
    except FlamecraftError as exc:
        log.error("game %s, stored before ruling 20: %s", row.id, exc)
        raise GameError("broken", N_("game {game}: its stored actions no longer replay "
                                     "with this server's rules"), 500, game=row.id) from None
    return out


def renamed_actions(old: GameRow, new: GameRow, actions: Sequence[ActionRow],
                    version: int) -> list[ActionRow]:
    """The stored ``actions`` of ``old`` written anew in ``new``'s seat names (an action's
    text names seats: ``give Potion to Ann``), each at ``version``; the same actions, read
    with the old names and written with the new."""
    reader, writer = Table(old), Table(new)
    assert reader.history is not None and writer.history is not None
    s, w = reader.history.state.copy(), writer.history.state.copy()
    record = writer.record()
    out = []
    for a in actions:
        action = reader.parse_stored(s, a.text)
        out.append(ActionRow(a.seq, a.seat, record.write(w, action), version))
        apply_in_place(s, action)
        apply_in_place(w, action)
    return out


def record_of(row: GameRow, actions: Sequence[ActionRow],
              start: GameStart | None = None) -> GameRecord:
    """A stored game's record, dealt from the row's deal (``start``, if already read), its
    texts read in the row's names: no replay (a finished game not loaded: its record, its
    review, its replay)."""
    setup = row.setup
    return GameRecord(row.options, row.seed, [a.text for a in actions], row.result,
                      stored_start(row) if start is None else start,
                      None if setup is None else names_from_json(setup.get("names", {})))


def needs_upgrade(row: GameRow) -> bool:
    """Whether a stored game predates ruling 20's decision points (``upgraded_actions``)."""
    return row.status != OPEN and (row.setup is None
                                   or row.setup.get("rules", 1) < DECISION_RULES)


class Table:
    """A game's row and stored actions, and what follows from them: its ``History`` (None
    while the game is open) and the log's JSON lines."""

    def __init__(self, row: GameRow, actions: Sequence[ActionRow] = ()):
        self.row = row
        self.history: History | None = None
        self.actions: list[ActionRow] = []  # the stored rows of ``history.actions``
        # Each event as JSON per reader: the actor, its gift's receiver, everyone else (None:
        # they see nothing). Built once: a state message carries the whole log, and is sent
        # after every move.
        self.log_json: list[LogLine] = []
        # the same in the other languages a client reads, made when first asked for
        self.log_lang: dict[str, list[LogLine]] = {}
        # per seat and language: lines, joined
        self._log_joined: dict[tuple[int | None, str], tuple[int, str]] = {}
        self._start: GameStart | None = None
        self._reader: GameRecord | None = None  # reads the stored texts (``parse_stored``)
        if row.status != OPEN:
            self.begin()
            self.extend(actions)

    def begin(self) -> None:
        """Deals the game (when it leaves the lobby, or is loaded running), from its stored
        deal by card ids (``stored_start``)."""
        self.history = History(self.record().first_state(), self._people())

    def _people(self) -> list[int]:
        """The seats whose choices may be undone: the people's, never a bot's."""
        return [i for i, seat in enumerate(self.row.seats) if seat.kind == HUMAN]

    def human(self, seat: int) -> bool:
        return self.row.seats[seat].kind == HUMAN

    def person_plays(self, seat: int) -> bool:
        """Whether a person plays ``seat`` now (not a bot, nor a bot in their place)."""
        return self.row.seats[seat].person_plays

    # --- the game in play (History's)

    @property
    def state(self) -> GameState | None:
        return None if self.history is None else self.history.state

    @state.setter
    def state(self, s: GameState) -> None:
        """A position set directly (tests and benches): the history's state from now on."""
        if self.history is None:
            self.history = History(s, self._people())
        else:
            self.history.state = s

    @property
    def log(self) -> list[Event]:
        """The public event stream (core/events.py), with the table's notes."""
        return [] if self.history is None else self.history.log

    @property
    def log_ends(self) -> list[int]:
        """``len(self.log)`` after each action (for the replay)."""
        return [] if self.history is None else self.history.log_ends

    def live_state(self, over: str = N_("the game is over")) -> GameState:
        """The state of a game in play, or the error that it has not started or is over
        (``over``: a msgid)."""
        s = self.state
        if self.row.status == OPEN or s is None:
            raise GameError("illegal", N_("the game has not started yet"))
        if self.row.status == FINISHED or s.over:
            raise GameError("illegal", over)
        return s

    def prepare(self, action: Action) -> Played:
        """The action worked out on a copy, not yet kept: raises ``IllegalActionError``,
        changing nothing, when it is not legal now."""
        assert self.history is not None
        return self.history.prepare(action)

    def commit(self, played: Played, row: ActionRow, undo_point: bool = True) -> None:
        """Keeps a prepared action once the store holds it (``row``): the history's commit
        (and its undo points: ``undo_point`` False for the later actions of one composite
        choice), then the rows and the log's lines."""
        assert self.history is not None
        first = len(self.history.log)
        self.history.commit(played, undo_point)
        self.actions.append(row)
        self._added(first)

    def extend(self, actions: Sequence[ActionRow]) -> None:
        """Replays stored actions after the ones already here; a stored action that no longer
        applies (the card data changed) is the error "broken", and the table is then as it
        was. The operator's log names the action; a client is told only its number, since
        its text and the legal ones can name a seat's hidden cards."""
        assert self.history is not None
        first = len(self.history.log)
        try:
            self.history.replay((a.text for a in actions), self.parse_stored)
        except ReplayError as exc:
            log.error("game %s: %s", self.row.id,
                      action_error(exc.number, exc.action, exc.cause))
            raise GameError("broken", N_("game {game}: stored action {number} no longer "
                                         "replays with this server's card data"), 500,
                            game=self.row.id, number=exc.number) from None
        self.actions.extend(actions)
        self._choice_points()
        self._added(first)

    def _choice_points(self) -> None:
        """The undo points a replay gives, one a person's choice as when it was made: the
        actions of one composite choice (``session/compose.py``) were stored with one
        version, so only the first of each version is a point, and a choice the page took
        by itself (``compose.automatic``) is none."""
        assert self.history is not None
        versions = [a.version for a in self.actions]
        self.history.undo_points = [
            snap for snap in self.history.undo_points
            if (snap.actions == 0 or versions[snap.actions] != versions[snap.actions - 1])
            and compose.automatic(snap.state) is None]

    def _added(self, first: int) -> None:
        """The log grew from ``first`` on: its English lines are made now, the others when
        asked for (``lines_in``)."""
        assert self.history is not None
        self.log_json.extend(log_line(e, DEFAULT_LANGUAGE) for e in self.history.log[first:])

    def can_undo(self, seat: int | None) -> bool:
        """Whether ``seat`` may take back a choice now (History's policy), in a running game."""
        return (self.history is not None and self.row.status == RUNNING
                and seat is not None and self.person_plays(seat)
                and self.history.can_undo(seat))

    def undo_keeps(self) -> int:
        """How many actions stay if the last choice is taken back (``can_undo`` holds)."""
        assert self.history is not None
        return self.history.undo_points[-1].actions

    def rewind(self) -> None:
        """Takes back the last choice (``can_undo`` holds, and the store has done it too)."""
        assert self.history is not None
        snap, _undone = self.history.undo()
        del self.actions[snap.actions:]
        del self.log_json[snap.log:]
        for lines in self.log_lang.values():
            del lines[snap.log:]
        self._log_joined.clear()

    # --- the log as each reader reads it

    def lines_in(self, lang: str) -> list[LogLine]:
        """The log's lines as JSON in ``lang`` (English made at each commit, the others
        brought up to date when asked for)."""
        if lang == DEFAULT_LANGUAGE:
            return self.log_json
        lines = self.log_lang.setdefault(lang, [])
        lines.extend(log_line(e, lang) for e in self.log[len(lines):])
        return lines

    def log_for(self, seat: int | None, lang: str = DEFAULT_LANGUAGE) -> str:
        """The log as ``seat`` may read it in ``lang``, as a JSON array (joined once per line:
        the lines only grow, except on undo, which starts the joining again)."""
        lines = self.lines_in(lang)
        done, joined = self._log_joined.get((seat, lang), (0, ""))
        new = [line for line in (full if seat is not None and seat in (p, also) else pub
                                 for full, pub, p, also in lines[done:])
               if line is not None]
        if new:
            joined = joined + "," + ",".join(new) if joined else ",".join(new)
        self._log_joined[(seat, lang)] = (len(lines), joined)
        return "[" + joined + "]"

    # --- a finished game

    def record(self) -> GameRecord:
        """The game's record, dealt from the row's deal, its texts read in the row's names."""
        return record_of(self.row, self.actions, self.start)

    def parse_stored(self, s: GameState, typed: str) -> Action:
        """A stored action text at ``s``, read in the names it was written with."""
        if self._reader is None:
            self._reader = self.record()
        return self._reader.parse(s, typed)

    @property
    def start(self) -> GameStart:
        """How the game was dealt (``stored_start``), read once."""
        if self._start is None:
            self._start = stored_start(self.row)
        return self._start
