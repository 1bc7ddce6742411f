"""The pending-decision stack's vocabulary: frame kinds and the handler registries.

A frame is a tuple of ints ``(kind, player, here, *args)``. Decision frames wait for the player
to choose; phase frames run by themselves. ``here`` is where an effect happens: a Shop index,
or ``IN_HAND`` / ``IN_PARK`` for a dragon fired up away from a Shop, or ``NOWHERE``.
Modules that own a part of the turn (``turn.py``, ``effects.py``) register their handlers here,
and ``engine.py`` dispatches on the kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .actions import Action
from .state import GameState

Frame = tuple[int, ...]

NOWHERE: Final = -1
IN_HAND: Final = -2
IN_PARK: Final = -3
SUPPLY: Final = -1  # the recipient of a gift in a solo game: the general supply

# Decision kinds.
D_START_GOOD: Final = 0
D_VISIT: Final = 1
D_ACTION: Final = 2
D_GAIN_GOOD: Final = 3
D_DRAW_ARTISAN: Final = 4
D_PLACE: Final = 5
D_FIRE_ONE: Final = 6
D_ABILITY: Final = 7
D_FIRE_ALL: Final = 8
D_CAST: Final = 9
D_PAY: Final = 10
D_END_TURN: Final = 11
D_DISCARD: Final = 12
D_GAIN_TWO: Final = 13
D_GAIN_SET: Final = 14
D_GIFT: Final = 15
D_SWAP_FIRE: Final = 16
D_TRADE_ANY: Final = 17
D_TRADE_SAME: Final = 18
D_RETURN_UP_TO: Final = 19
D_RESERVE: Final = 20
D_FIRE_UP: Final = 21
D_KEEP_DRAWN_FANCY: Final = 22
D_FANCY_RETURN: Final = 23
D_ARTISAN_LOOK: Final = 24
D_SCORE_MOON: Final = 25
D_GIFT_EACH: Final = 26
D_GIFT_ARTISAN: Final = 27
D_SWAP_TWO: Final = 28
D_PARK_CYCLE: Final = 29
D_CHOOSE_TYPE: Final = 30
D_GIVE_TO: Final = 31
D_COMPANION_PICK: Final = 32
D_COMPANION_USE: Final = 33
D_EXCHANGE_GOOD: Final = 34

# Phase kinds (run without a decision).
P_RUN: Final = 100
P_TURN_START: Final = 101
P_GATHER: Final = 102
P_CAST_FINISH: Final = 103
P_END_TURN: Final = 104
P_GAME_END: Final = 105
P_FIRE: Final = 106
P_SETUP_DONE: Final = 107
P_RETURN_REWARD: Final = 108
P_GIFT_EACH_REWARD: Final = 109
P_REFILL: Final = 110
P_DEAL_FANCY: Final = 111


@dataclass(frozen=True, slots=True)
class Decision:
    """How one kind of decision lists and resolves its actions."""

    legal: Callable[[GameState, Frame], list[Action]]
    resolve: Callable[[GameState, Frame, Action], None]
    sun_reveals: bool = False  # whether Sun Dragons may be revealed at this decision


DECISIONS: Final[dict[int, Decision]] = {}
PHASES: Final[dict[int, Callable[[GameState, Frame], None]]] = {}


def register(kind: int, legal: Callable[[GameState, Frame], list[Action]],
             resolve: Callable[[GameState, Frame, Action], None],
             sun_reveals: bool = False) -> None:
    """Registers how decisions of one kind list and resolve their actions."""
    DECISIONS[kind] = Decision(legal, resolve, sun_reveals)


def register_phase(kind: int, run: Callable[[GameState, Frame], None]) -> None:
    PHASES[kind] = run
