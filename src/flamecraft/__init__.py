"""Flamecraft: an exact, fast rules engine for the board game, with its command line.

The core API (everything an adapter needs)::

    from flamecraft import start, legal_actions, apply, text, parse_action, view

    s = start(players=4, seed=1)
    while not s.over:
        action = legal_actions(s)[0]
        s = apply(s, action)          # or apply_in_place(s, action) for speed
    print(s.rep, winners(s))

To show a person the choices, ``choices(s)`` describes each legal action, in the same order,
from what the seat to act may see: ``Choice(text, facts, card, words)``, whose ``label`` reads
``cast Smelting Pot (3 Meat 2 Crystal 1 Plant → 6 Rep)``; ``text`` stays the stable text.
In Japanese, ``choices(s, translator("ja", "game").gettext)`` (``flamecraft.display.i18n``) gives
``words`` and ``facts`` in Japanese and ``text`` unchanged (``docs/i18n.md``).
"""

from __future__ import annotations

from .core.actions import Action
from .core.cards import Catalog, load_catalog
from .core.describe import Choice, choices, describe
from .core.engine import (
    apply,
    apply_in_place,
    describe_decision,
    is_over,
    legal_actions,
    parse_action,
    start,
    text,
    to_act,
    winners,
)
from .core.errors import (
    CardDataError,
    FlamecraftError,
    GameOverError,
    IllegalActionError,
    StateFormatError,
    error_text,
)
from .core.serialize import GameRecord, dump_record, dump_state, load_record, load_state, replay
from .core.state import GameState, Options
from .core.view import view

__all__ = [
    "Action", "CardDataError", "Catalog", "Choice", "FlamecraftError", "GameOverError",
    "GameRecord", "GameState", "IllegalActionError", "Options", "StateFormatError", "apply",
    "apply_in_place", "choices", "describe", "describe_decision", "dump_record", "dump_state",
    "error_text",
    "is_over", "legal_actions", "load_catalog", "load_record", "load_state", "parse_action",
    "replay", "start", "text", "to_act", "view", "winners",
]
