"""Nothing lost: every applied action is stored as it happens, and after a restart every
game continues where it was, its bots included (docs/server.md, issue 7)."""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):  # in CI the web extra is installed: a missing one fails
    pytest.importorskip("fastapi", reason="the web extra is not installed")


from flamecraft.core.serialize import GameRecord, replay
from flamecraft.server import Settings
from test_server_api import (
    client_for,
    new_game,
    next_state,
    play_out,
    postgres_schema,
    settings,
    ws_url,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def stored(db: Path, game_id: str) -> tuple[int, list[str]]:
    """The stored version and action texts of a game, read straight from the SQLite file."""
    with sqlite3.connect(db) as conn:
        version = conn.execute("SELECT version FROM flamecraft_games WHERE id = ?",
                               (game_id,)).fetchone()[0]
        texts = [r[0] for r in conn.execute(
            "SELECT text FROM flamecraft_actions WHERE game_id = ? ORDER BY seq", (game_id,))]
    return int(version), texts


def same_table(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("version", "step", "status", "view", "legal", "log", "can_undo", "seats"):
        assert a[key] == b[key], key


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_game_continues_after_a_restart(tmp_path: Path, backend: str) -> None:
    """Issue 7, persistence: play some moves, stop the server, start a new one on the same
    database: the seat finds the same table (undo included) and plays on to the end."""
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(postgres_schema()) if backend == "postgresql" else None
        s = settings(tmp_path, **({"database_url": url} if url else {}))
        play_across_a_restart(tmp_path, s, backend)


def play_across_a_restart(tmp_path: Path, s: Settings, backend: str) -> None:
    """Plays a person's seat for a while, restarts, checks the table and plays to the end."""
    rng = random.Random(8)
    with client_for(s) as c:
        game = new_game(c, "human,random,random", start=True, seed=21)
        with c.websocket_connect(ws_url(game, 0)) as ws:
            before = play_out(ws, rng, until=lambda m: m["step"] >= 12 and m["can_undo"])
    if backend == "sqlite":
        version, texts = stored(tmp_path / "games.sqlite3", game["game_id"])
        assert version == before["version"] and len(texts) == before["step"]
        # the last action stored is the person's last choice in the log (forced actions it
        # led to, such as a lone "gather", may follow it there)
        mine = [line["text"] for line in before["log"] if line["player"] == 0]
        assert texts[-1] in mine[-3:]
    with client_for(s) as c:
        with c.websocket_connect(ws_url(game, 0)) as ws:
            after = next_state(ws)
            same_table(before, after)
            ws.send_json({"type": "undo", "version": after["version"]})  # still possible
            back = next_state(ws)
            assert back["step"] == after["step"] - 1
            end = play_out(ws, rng, first=back)
        record = GameRecord.from_json(c.get(f"/api/games/{game['game_id']}/record").json())
    assert replay(record).rep == end["result"]["reputation"]


def test_bots_resume_after_a_restart(tmp_path: Path) -> None:
    """Issue 7, persistence: a game of bots stopped midway by a restart is finished by the
    new server on its own, and nothing stored before the restart changes."""
    db = tmp_path / "games.sqlite3"
    with client_for(settings(tmp_path, bot_delay=0.005)) as c:
        game = new_game(c, "random,random,random", seed=2)
        with c.websocket_connect(ws_url(game)) as ws:
            msg = next_state(ws)
            while msg["step"] < 40:
                msg = next_state(ws)
    version, texts = stored(db, game["game_id"])
    assert version == len(texts) >= 40  # one action row per version bump
    time.sleep(0.05)
    assert stored(db, game["game_id"]) == (version, texts)  # the old server has stopped
    with client_for(settings(tmp_path)) as c, c.websocket_connect(ws_url(game)) as ws:
        msg = next_state(ws)
        assert msg["step"] >= len(texts)  # (its bots resumed at start-up)
        while msg["status"] != "finished":
            msg = next_state(ws)
    version_end, texts_end = stored(db, game["game_id"])
    assert texts_end[:len(texts)] == texts and version_end == len(texts_end) == msg["step"]
