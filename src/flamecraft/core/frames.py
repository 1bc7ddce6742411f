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

from .actions import Action
from .state import GameState

Frame = tuple[int, ...]

NOWHERE, IN_HAND, IN_PARK = -1, -2, -3
SUPPLY = -1  # the recipient of a gift in a solo game: the general supply

# Decision kinds.
(D_START_GOOD, D_VISIT, D_ACTION, D_GAIN_GOOD, D_DRAW_ARTISAN,
 D_PLACE, D_FIRE_ONE, D_ABILITY, D_FIRE_ALL, D_CAST, D_PAY, D_END_TURN, D_DISCARD,
 D_GAIN_TWO, D_GAIN_SET, D_GIFT, D_SWAP_FIRE, D_TRADE_ANY, D_TRADE_SAME, D_RETURN_UP_TO,
 D_RESERVE, D_FIRE_UP, D_KEEP_DRAWN_FANCY, D_FANCY_RETURN, D_ARTISAN_LOOK, D_SCORE_MOON,
 D_GIFT_EACH, D_GIFT_ARTISAN, D_SWAP_TWO, D_PARK_CYCLE, D_CHOOSE_TYPE,
 D_GIVE_TO, D_COMPANION_PICK, D_COMPANION_USE, D_EXCHANGE_GOOD) = range(35)

# Phase kinds (run without a decision).
(P_RUN, P_TURN_START, P_GATHER, P_CAST_FINISH, P_END_TURN, P_GAME_END, P_FIRE, P_SETUP_DONE,
 P_RETURN_REWARD, P_GIFT_EACH_REWARD, P_REFILL, P_DEAL_FANCY) = range(100, 112)


@dataclass(frozen=True, slots=True)
class Decision:
    """How one kind of decision lists and resolves its actions."""

    legal: Callable[[GameState, Frame], list[Action]]
    resolve: Callable[[GameState, Frame, Action], None]
    sun_reveals: bool = False  # whether Sun Dragons may be revealed at this decision


DECISIONS: dict[int, Decision] = {}
PHASES: dict[int, Callable[[GameState, Frame], None]] = {}


def register(kind: int, legal: Callable[[GameState, Frame], list[Action]],
             resolve: Callable[[GameState, Frame, Action], None],
             sun_reveals: bool = False) -> None:
    """Registers how decisions of one kind list and resolve their actions."""
    DECISIONS[kind] = Decision(legal, resolve, sun_reveals)


def register_phase(kind: int, run: Callable[[GameState, Frame], None]) -> None:
    PHASES[kind] = run
