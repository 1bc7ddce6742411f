"""A game ended short, by the server or its operator rather than by its players: a bot-only
game past its age limit (``expired``, ``games.py``), or one the operator ends (``operator``,
``flamecraft admin end``). It ends where it stands, with no winner and no review, like an
abandoned game; ``result["ended"]`` says why."""

from __future__ import annotations

from ..core.state import GameState
from . import clocks
from .store import FINISHED, RUNNING, GameRow

EXPIRED, OPERATOR = "expired", "operator"


def end_row(row: GameRow, s: GameState | None, why: str, now: float) -> GameRow | None:
    """``row`` ended where ``s`` stands (``why``: EXPIRED or OPERATOR); None if it is not
    running (nothing to end)."""
    if row.status != RUNNING or s is None:
        return None
    row.status = FINISHED
    row.result = {"reputation": s.rep[:], "winners": [], "turns": s.turn, "ended": why}
    clocks.start(row.clock, None, now)
    return row
