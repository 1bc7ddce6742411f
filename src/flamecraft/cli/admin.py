"""``flamecraft admin``: the server operator's commands on the configured store (an SQLite file, or
FLAMECRAFT_DATABASE_URL / ``--database``), with or without a server running on it.

* ``list``: the games (unfinished by default), newest first: id, status, age, seats, steps;
* ``end GAME``: ends a running game where it stands, no winner (``result["ended"]``:
  ``operator``), like an expired bot-only game (``ending.py``);
* ``delete GAME --yes``: removes a game that is not running (its actions, chat and reviews
  too), say one whose name or chat must go.

Every change is one transaction checked against the game's version, as a server's are: on
PostgreSQL the running servers hear of it at once (NOTIFY); a server on SQLite sees it at
its next change of that game (its write finds the version moved, and it catches up).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ..core.tr import N_, Translate, same
from ..display.i18n import pad
from ..server.cut_short import OPERATOR, end_row
from ..server.settings import Settings
from ..server.store import FINISHED, OPEN, RUNNING, GameRow, Store, open_store
from ..server.table import Table

STATUSES = {"unfinished": (OPEN, RUNNING), "open": (OPEN,), "running": (RUNNING,),
            "finished": (FINISHED,), "all": (OPEN, RUNNING, FINISHED)}

STATUS_WORDS = {OPEN: N_("open"), RUNNING: N_("running"), FINISHED: N_("finished")}


class AdminError(Exception):
    """What an admin command could not do, in the operator's words."""


def _age(seconds: float) -> str:
    if seconds < 3600:
        return f"{seconds / 60:.0f}m"
    if seconds < 86400:
        return f"{seconds / 3600:.1f}h"
    return f"{seconds / 86400:.1f}d"


def _seats(row: GameRow, tr: Translate) -> str:
    """The seats: a person's as "person", a bot's as its name."""
    return ",".join(s.bot or "?" if s.kind != "human" else tr("person") for s in row.seats)


def list_games(store: Store, status: str, limit: int, tr: Translate = same,
               now: float | None = None) -> list[str]:
    """The lines of ``admin list``: a header, then one line per game."""
    now = time.time() if now is None else now
    rows = store.list_games(STATUSES[status], limit)
    columns = ((14, "<"), (9, "<"), (6, ">"), (6, ">"), (0, "<"), (0, "<"))

    def line(cells: Sequence[str]) -> str:
        return " ".join(pad(cell, width, align)
                        for cell, (width, align) in zip(cells, columns, strict=True)).rstrip()

    lines = [line([tr("game"), tr("status"), tr("age"), tr("steps"), tr("seats"), tr("name")])]
    for row in rows:
        status = tr(STATUS_WORDS.get(row.status, row.status))
        lines.append(line([row.id, status, _age(now - row.created),
                           str(store.action_count(row.id)), _seats(row, tr), row.name]))
    return lines


def end_game(store: Store, game_id: str, tr: Translate = same,
             now: float | None = None) -> GameRow:
    """Ends a running game where it stands (``operator``); ``AdminError`` if it is not
    running, or changed while it was read (nothing changed then: run it again)."""
    row, actions = store.load_with_actions(game_id)
    if row is None:
        raise AdminError(tr("there is no game {game}").format(game=game_id))
    if row.status != RUNNING:
        raise AdminError(tr("game {game} is {status}, not running: there is nothing to "
                            "end").format(game=game_id, status=row.status))
    table = Table(row, actions)
    expected = row.version
    new = end_row(row.copy(), table.state, OPERATOR, time.time() if now is None else now)
    assert new is not None
    new.version = expected + 1
    if not store.update_game(new, expected):
        raise AdminError(tr("game {game} changed while it was being ended; nothing was "
                            "changed: run the command again").format(game=game_id))
    return new


def delete_game(store: Store, game_id: str, tr: Translate = same) -> None:
    """Removes a game that is not running, with its actions, chat and reviews."""
    row = store.load_game(game_id)
    if row is None:
        raise AdminError(tr("there is no game {game}").format(game=game_id))
    if row.status == RUNNING:
        raise AdminError(tr("game {game} is running: end it first (admin end)").format(
            game=game_id))
    if not store.delete_game(game_id, row.version):
        raise AdminError(tr("game {game} changed while it was being deleted; nothing was "
                            "changed: run the command again").format(game=game_id))


def run(command: str, settings: Settings, game: str | None = None, status: str = "unfinished",
        limit: int = 100, yes: bool = False, tr: Translate = same,
        say: Callable[[str], None] = print) -> int:
    """One ``flamecraft admin`` command on the store ``settings`` name; ``AdminError`` when
    it cannot be done (nothing is changed then)."""
    store = open_store(settings.database_url, max(1.0, settings.sqlite_busy_seconds))
    try:
        if command == "list":
            for line in list_games(store, status, limit, tr):
                say(line)
            return 0
        assert game is not None
        if command == "end":
            row = end_game(store, game, tr)
            say(tr("game {game} ended at turn {turn}: no winner").format(
                game=game, turn=(row.result or {}).get("turns")))
            return 0
        if command == "delete":
            if not yes:
                raise AdminError(tr("deleting game {game} cannot be undone: add --yes").format(
                    game=game))
            delete_game(store, game, tr)
            say(tr("game {game} deleted").format(game=game))
            return 0
        raise AdminError(f"unknown admin command {command!r}")
    finally:
        store.close()
