"""Saving and loading a terminal game: a save is a game record with who plays each seat
(``seats``) and the turn's undo points, or, for a game begun from a state file, that state.
Every save is written whole or not at all (``session/files.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..ai.roster import DEFAULT_OPPONENT
from ..core.errors import FlamecraftError, error_text
from ..core.serialize import (
    STATE_FORMAT,
    GameRecord,
    action_error,
    json_error,
    state_from_json,
    state_to_json,
)
from ..core.tr import same
from ..session.files import write_whole
from ..session.history import ReplayError
from ..session.seats import SetupError
from .local_table import LocalTable
from .newgame import HUMAN, PlayerSeat, seat_kind

AUTOSAVE = "flamecraft-autosave-{started}.json"  # one file per game: {started} is its start


def save_text(table: LocalTable) -> str:
    """The game record (``serialize.GameRecord``) with one extra key, ``seats``: who plays
    each seat, so that a loaded game goes on with the same people and bots. A game loaded
    from a state is saved as its current state, with ``seats``. ``undo`` lists the turn's undo
    points (how many actions stood before each choice that can be taken back); a load
    replays the actions and gets the same points back from the undo policy."""
    obj = table.record().to_json() if table.base is None else state_to_json(table.state)
    obj["seats"] = [{"name": seat.name, "kind": seat.kind} for seat in table.seats]
    marks = table.history.marks()
    if table.base is None and marks:
        obj["undo"] = {"seat": table.history.undo_seat, "points": marks}
    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


def load_table(path: str, tr: Callable[[str], str] = same,
                 game: Callable[[str], str] = same) -> LocalTable:
    """A saved game (a game record, with or without ``seats``), replayed to where it stood,
    or a state (``flamecraft new`` or ``apply``), which goes on from where it stands.
    Without ``seats`` (say, a ``demo --record`` file) seat 1 is a person, the others bots."""
    try:
        with open(path, encoding="utf-8") as fh:
            raw = fh.read()
    except FileNotFoundError:
        raise SetupError(tr("{path}: no such file").format(path=path)) from None
    except IsADirectoryError:
        raise SetupError(tr("{path}: is a directory, not a file").format(path=path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SetupError(tr("{path}: cannot read: {error}").format(path=path,
                                                                   error=exc)) from None
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise SetupError(f"{path}: {error_text(json_error(exc), game)}") from None
    if isinstance(obj, dict) and obj.get("format") == STATE_FORMAT:
        try:
            s = state_from_json(obj)
        except FlamecraftError as exc:
            raise SetupError(f"{path}: {error_text(exc, game)}") from None
        seats = _saved_seats(obj.get("seats"), list(s.options.player_names()), path)
        return LocalTable(s, None, seats, base=s.copy())
    try:
        record = GameRecord.from_json(obj)
        s = record.first_state()  # every option the record holds, dealt from its deal
    except FlamecraftError as exc:
        raise SetupError(f"{path}: {error_text(exc, game)}") from None
    names = list(s.options.player_names())
    seats = _saved_seats(obj.get("seats"), names, path)
    points, _ = _undo_points(obj.get("undo"), len(record.actions), len(names), path)
    table = LocalTable(s, record.seed, seats, deal=record.deal)
    try:
        # read in the card names the record was written with; the undo points come back by
        # the one policy
        table.history.replay(record.actions, record.parse)
    except ReplayError as exc:
        error = action_error(exc.number, exc.action, exc.cause)
        raise SetupError(f"{path}: {error_text(error, game)}") from None
    if obj.get("undo") is not None:
        # a choice of several actions (session/compose.py) is one point: the policy gives
        # one per action, the save says which of them were choices
        history = table.history
        history.undo_points = [snap for snap in history.undo_points if snap.actions in points]
    return table


def _undo_points(raw: Any, count: int, players: int, path: str) -> tuple[set[int], int]:
    """The saved undo points (``undo``: the seat, and the number of actions before each of
    its choices that can be taken back), checked; none when the save has no ``undo``."""
    if raw is None:
        return set(), -1
    points = raw.get("points") if isinstance(raw, dict) else None
    seat = raw.get("seat") if isinstance(raw, dict) else None
    if (not isinstance(seat, int) or not 0 <= seat < players or not isinstance(points, list)
            or not all(isinstance(n, int) and 0 <= n < count for n in points)):
        raise SetupError(f"{path}: 'undo' must name a seat and action counts below {count}")
    return set(points), seat


def _saved_seats(raw: Any, names: list[str], path: str) -> list[PlayerSeat]:
    if raw is None:
        kinds = [HUMAN] + [DEFAULT_OPPONENT] * (len(names) - 1)
        return [PlayerSeat(k, n) for k, n in zip(kinds, names, strict=True)]
    if not isinstance(raw, list) or len(raw) != len(names):
        raise SetupError(f"{path}: 'seats' must list {len(names)} seats")
    seats = []
    for entry, name in zip(raw, names, strict=True):
        if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
            raise SetupError(f"{path}: each seat needs a 'kind'")
        seats.append(PlayerSeat(seat_kind(entry["kind"]), name))
    return seats


def write_file(path: str, content: str, tr: Callable[[str], str] = same) -> None:
    """Writes a save whole or not at all (``session/files.py``)."""
    try:
        write_whole(path, content)
    except OSError as exc:
        raise SetupError(tr("{path}: cannot write: {error}").format(
            path=path, error=exc.strerror or exc)) from None
