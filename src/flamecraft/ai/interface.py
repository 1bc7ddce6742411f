"""The bot interface: a bot sees one seat's view and legal actions, never the true state.

A bot is any object with ``choose(seat, rng) -> Action``. The ``Seat`` it is handed exposes
only what that seat may know: its index, its view (``flamecraft.view.view``), its legal
actions and their texts, and ``sample(rng)``, a full game state whose hidden part is re-dealt
at random from what the seat sees (``flamecraft.hidden.determinize``). Search runs on such
samples, so no bot reads another seat's hand, Fancy Dragons or a deck's order. All of a bot's
randomness comes from the ``rng`` it is given, so a game is reproducible from its seeds.

``TrueStateBot`` is the one exception, kept apart on purpose: a reference bot that reads the
true state (the "cheater"), used only in tournaments to measure what hidden information costs.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from ..core.actions import Action
from ..core.engine import legal_actions, text, to_act
from ..core.errors import GameOverError
from ..core.hidden import determinize
from ..core.state import GameState
from ..core.view import view

__all__ = ["Bot", "RandomBot", "Seat", "TrueStateBot", "policy_of", "policy_per_thread"]


class Seat:
    """What one seat may know of a game in progress (see the module docstring).

    The state is held privately: a bot uses the methods, never the attribute."""

    __slots__ = ("__state", "seat")

    def __init__(self, state: GameState, seat: int) -> None:
        self.__state = state
        self.seat = seat

    def view(self) -> dict[str, Any]:
        """The seat's view: the public board, its own hidden cards, counts of the others'."""
        return view(self.__state, self.seat)

    def legal_actions(self) -> list[Action]:
        """The legal actions, when this seat is the one to act (else an empty list)."""
        if to_act(self.__state) != self.seat:
            return []
        return legal_actions(self.__state)

    def text(self, action: Action) -> str:
        """The readable text of an action."""
        return text(self.__state, action)

    def sample(self, rng: random.Random) -> GameState:
        """A full state consistent with what this seat sees, its hidden part dealt at random
        (a fresh copy: search may change it freely)."""
        return determinize(self.__state, self.seat, rng.getrandbits(63))


@runtime_checkable
class Bot(Protocol):
    """Anything that picks a legal action for the seat to act."""

    name: str

    def choose(self, seat: Seat, rng: random.Random) -> Action: ...


@runtime_checkable
class TrueStateBot(Protocol):
    """A reference bot that reads the true state. Never offered for play; tournaments only."""

    name: str

    def choose_true(self, state: GameState, rng: random.Random) -> Action: ...


class RandomBot:
    """A uniformly random legal action: the bottom of the ladder."""

    name = "random"

    def choose(self, seat: Seat, rng: random.Random) -> Action:
        actions = seat.legal_actions()
        if not actions:
            raise GameOverError("there is no action to choose: this seat is not to act")
        return actions[rng.randrange(len(actions))]


def policy_of(bot: Bot) -> Callable[[GameState, random.Random], Action]:
    """The ``bots.BOTS`` form of a bot: it gets the seat to act and nothing more."""
    def policy(state: GameState, rng: random.Random) -> Action:
        return bot.choose(Seat(state, to_act(state)), rng)
    return policy


def policy_per_thread(make: Callable[[], Bot]) -> Callable[[GameState, random.Random], Action]:
    """Like ``policy_of``, with one bot per thread (made by ``make``): a search bot keeps
    state between decisions, which threads serving games at once must not share."""
    local = threading.local()

    def policy(state: GameState, rng: random.Random) -> Action:
        bot = getattr(local, "bot", None)
        if bot is None:
            bot = local.bot = make()
        return bot.choose(Seat(state, to_act(state)), rng)
    return policy


def pick_best(scores: list[float], rng: random.Random, tolerance: float = 1e-9) -> int:
    """The index of the highest score; near-ties are broken by ``rng`` (so a bot's seed, not
    the order of the legal actions, decides between equal choices)."""
    top = max(scores)
    best = [i for i, v in enumerate(scores) if v >= top - tolerance]
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


def mine_this_turn(s: GameState, p: int, turn: int) -> bool:
    """Whether p is still choosing within the turn numbered ``turn`` (a plan's horizon)."""
    return not s.over and s.turn == turn and to_act(s) == p
