"""Replays records and stored games with other card data, in a fresh interpreter: the folder
that ``FLAMECRAFT_DATA`` names (``cards.load_catalog``) holds the card files, reordered or
corrected by tests/test_records.py, which runs this script and compares what it prints with
the package's own cards.

    FLAMECRAFT_DATA=<folder> python tests/other_cards.py job.json

``job.json``: ``{"records": [record text, …], "games": [[database url, game id], …]}``. Prints
one JSON object: the catalog's card ids in file order (``catalog``), and for each record and
stored game what it replays to (``outcome``).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from flamecraft.core.board import CATALOG
from flamecraft.core.errors import FlamecraftError
from flamecraft.core.serialize import load_record, replay, state_to_json

# The lists of a state that are sets, written in the catalog's order (which the test
# changes): sorted before two states are compared. Everything else is in game order.
SETS = ("shops_unused", "companion_box", "fired")
PLAYER_SETS = ("achievements",)


def normal(state: dict[str, Any]) -> dict[str, Any]:
    """A state's JSON with its set-like lists sorted: equal for the same game whatever the
    order of the card files."""
    out: dict[str, Any] = json.loads(json.dumps(state))
    for key in SETS:
        out[key] = sorted(out[key])
    for player in out["players"]:
        for key in PLAYER_SETS:
            player[key] = sorted(player[key])
        player["counters"]["shops_visited"] = sorted(player["counters"]["shops_visited"])
    return out


def outcome(text: str) -> dict[str, Any]:
    """What a record replays to: its final state (normalized), or the one-sentence error."""
    try:
        return {"state": normal(state_to_json(replay(load_record(text))))}
    except FlamecraftError as exc:
        return {"error": str(exc)}


def stored(url: str, game_id: str) -> dict[str, Any]:
    """What a stored web game reads back as, through the server's own loading (the store's
    row and actions replayed by a ``Table``): its state and its record."""
    from flamecraft.server.store import open_store
    from flamecraft.server.table import Table

    store = open_store(url)
    try:
        row, actions = store.load_with_actions(game_id)
        assert row is not None, game_id
        try:
            table = Table(row, actions)
        except Exception as exc:  # GameError: the message a client would read
            return {"error": str(exc)}
        assert table.state is not None
        return {"state": normal(state_to_json(table.state)),
                "record": table.record().to_json()}
    finally:
        store.close()


def main(path: str) -> None:
    with open(path, encoding="utf-8") as fh:
        job = json.load(fh)
    print(json.dumps({
        "catalog": {"shops": [c.id for c in CATALOG.shops],
                    "artisans": [c.id for c in CATALOG.artisans],
                    "enchantments": [c.id for c in CATALOG.enchantments],
                    "fancy": [c.id for c in CATALOG.fancies],
                    "companions": [c.id for c in CATALOG.companions],
                    "achievements": [c.id for c in CATALOG.achievements]},
        "records": [outcome(text) for text in job.get("records", [])],
        "games": [stored(url, game_id) for url, game_id in job.get("games", [])],
    }))


if __name__ == "__main__":
    main(sys.argv[1])
