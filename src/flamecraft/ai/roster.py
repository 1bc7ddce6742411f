"""The simplest bot: a uniformly random legal action.

It drives ``demo`` and ``simulate`` and serves fuzzing, so it asks the engine for the legal
actions and nothing else: any action it returns is legal by construction.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.actions import Action
from ..core.engine import legal_actions
from ..core.errors import GameOverError
from ..core.state import GameState
from ..core.tr import N_


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
DEFAULT_BOT = "random"
# The opponents a new player gets (``flamecraft play``): the strongest bot that answers within
# about a second a move. The bots for play, strongest first, each with a few words.
DEFAULT_OPPONENT = "expert"
# (The notes are msgids: the web lobby shows them in the player's language.)
BOT_NOTES: tuple[tuple[str, str], ...] = (
    ("planner", N_("plans its whole turn with weights tuned by self-play; the strongest, "
                   "quick")),
    ("ismcts", N_("searches many futures; about as strong, a second a move")),
    ("greedy", N_("looks one step ahead; a beginner")),
    ("random", N_("any legal move; for testing")),
)


@dataclass(frozen=True)
class Level:
    """A difficulty for people: a plain name (a msgid), the bot and options it plays with,
    a few words, and its rating on the ladder (``flamecraft ladder``; docs/bots.md)."""

    id: str
    label: str
    bot: str
    options: dict[str, Any] = field(default_factory=dict)
    note: str = ""
    elo: int | None = None


# The Expert's rating on the ladder refitted with it (docs/bots.md, "With the Expert"), measured
# with the shipped model (generation 2 of seed 2626).
EXPERT_ELO = 428
# Strongest first, each the bot measured at that strength and its rating on the ladder of
# docs/bots.md (Bradley–Terry, Elo scale, mean 0: "With the Expert", 340 games of issue 26 in
# which the five bots met). Each is a seat kind like a bot's name (``--seats human,expert``,
# the lobby's seats); the bots' own names stay for scripts. Expert values its ends of turn
# with the learned evaluation (ai/learned.py) added to the tuned valuation: docs/bots.md, "The
# learned evaluation".
LEVELS: tuple[Level, ...] = (
    Level("expert", N_("Expert"), "planner",
          {"weights": "tuned", "value": "learned", "blend": 0.5},
          N_("plans its turn and values it with a model learned from self-play"), elo=EXPERT_ELO),
    Level("strong", N_("Strong"), "planner", {"weights": "tuned"},
          N_("plans its turn with weights tuned by self-play"), elo=302),
    Level("casual", N_("Casual"), "planner", {},
          N_("plans its turn with hand-set weights"), elo=197),
    Level("beginner", N_("Beginner"), "greedy", {},
          N_("looks one step ahead"), elo=-255),
)
LEVEL_OF = {level.id: level for level in LEVELS}


def base_bot(kind: str) -> str:
    """The bot behind a seat kind: a level's bot, or the kind itself."""
    level = LEVEL_OF.get(kind)
    return level.bot if level is not None else kind


def bot_notes() -> list[tuple[str, str]]:
    """The registered bots by their own names (the levels aside), strongest first, with a
    few words on each (unlisted ones last)."""
    known = [(name, note) for name, note in BOT_NOTES if name in BOTS]
    return known + [(name, "") for name in BOTS
                    if name not in dict(BOT_NOTES) and name not in LEVEL_OF]


def _register_ladder() -> None:
    """Adds the ladder's bots (greedy, planner, ismcts) from ``flamecraft.ai``; each sees only
    its seat (``ai.Seat``). The cheater reads the true state and is never registered."""
    from functools import partial

    from . import PLAY_BOTS, make_play_bot
    from .interface import policy_per_thread

    for name in PLAY_BOTS:
        # The searching bots play with the weights tuned by self-play (docs/bots.md: the
        # tuned planner beat the hand-set one 72% of 200 games); greedy stays the beginner.
        options = {} if name == "greedy" else {"weights": "tuned"}
        BOTS[name] = policy_per_thread(partial(make_play_bot, name, **options))
    for level in LEVELS:
        BOTS[level.id] = (random_action if level.bot == "random" else policy_per_thread(
            partial(make_play_bot, level.bot, **level.options)))


_register_ladder()
