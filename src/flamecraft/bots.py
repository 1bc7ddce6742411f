"""The simplest bot: a uniformly random legal action.

It drives ``demo`` and ``simulate`` and serves fuzzing, so it asks the engine for the legal
actions and nothing else: any action it returns is legal by construction.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from .core.actions import Action
from .core.engine import legal_actions
from .core.errors import GameOverError
from .core.state import GameState


def random_action(state: GameState, rng: random.Random) -> Action:
    """One of the legal actions of the player to act, chosen uniformly by ``rng``."""
    actions = legal_actions(state)
    if not actions:
        raise GameOverError("the game is over: there is no action to choose")
    return actions[rng.randrange(len(actions))]


BotPolicy = Callable[[GameState, random.Random], Action]

# The seat kinds a game can be set up with, by name. A stronger bot registers itself here and
# becomes available to ``flamecraft play --seats`` without any change to the play screen.
BOTS: dict[str, BotPolicy] = {"random": random_action}


@dataclass(frozen=True, slots=True)
class BotInfo:
    """A bot as a person choosing an opponent reads it: its name and a few words."""

    name: str
    about: str


# The bots offered as opponents, strongest first, with a few words each: data, so the web
# lobby (GET /api/bots) and the terminal's setup list the same thing in the same order.
BOT_LADDER: tuple[BotInfo, ...] = (
    BotInfo("ismcts", "searches many possible futures; the strongest, but thinks a second "
            "per choice"),
    BotInfo("planner", "plans its whole turn; a solid player"),
    BotInfo("greedy", "takes the best-looking next step; quick and easy to beat"),
    BotInfo("random", "picks any legal move; only for learning the rules"),
)
# The default opponent: the strongest bot that answers within about a second a turn (the
# planner thinks ~50 ms a choice; ismcts a second a choice, several seconds a turn). A first
# game should never be against a random opponent by accident.
DEFAULT_BOT = "planner"


def _register_ladder() -> None:
    """Adds the ladder's bots (greedy, planner, ismcts) from ``flamecraft.ai``; each sees only
    its seat (``ai.Seat``). The cheater reads the true state and is never registered."""
    from functools import partial

    from .ai import PLAY_BOTS, make_play_bot
    from .ai.interface import policy_per_thread

    for name in PLAY_BOTS:
        BOTS[name] = policy_per_thread(partial(make_play_bot, name))


_register_ladder()
