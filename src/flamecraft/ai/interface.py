"""The bot interface: a bot sees one seat's view and legal actions, never the true state.

A bot is any object with ``choose(seat, rng) -> Action``. The ``Seat`` it is handed exposes
only what that seat may know: its index, its view (``flamecraft.view.view``), its legal
actions and their texts, and ``sample(rng)``, a full game state whose hidden part is re-dealt
at random from what the seat sees (``flamecraft.hidden.determinize``). Search runs on such
samples, so no bot reads another seat's hand, Fancy Dragons or a deck's order. All of a bot's
randomness comes from the ``rng`` it is given, so a game is reproducible from its seeds.

``TrueStateBot`` is the one exception, kept apart on purpose: a reference bot that reads the
true state (the "cheater"), used only in tournaments to measure what hidden information costs.

Where the boundary is real: a ``Seat`` holds the true state (privately, by convention), so a
bot in the same process is trusted code. ``ProcessBot`` runs a bot in a process of its own,
a fresh interpreter, that receives only ``SealedSeat``s: the view, the legal actions and
their texts, and one sample of the hidden cards from which it draws further samples exactly
as the Seat would (a sample of a sample is a sample of the truth, ``hidden.determinize``).
Nothing the true state holds beyond what the seat sees ever crosses into that process.
"""

from __future__ import annotations

import copy
import os
import random
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Protocol, runtime_checkable

from ..core.actions import Action
from ..core.engine import legal_actions, text, to_act
from ..core.errors import GameOverError
from ..core.hidden import determinize
from ..core.state import GameState
from ..core.view import view

__all__ = ["Bot", "ProcessBot", "RandomBot", "SealedSeat", "Seat", "TrueStateBot", "policy_of",
           "policy_per_thread"]

# The sample a SealedSeat carries is drawn with this fixed seed: it depends only on what the
# seat sees, so it needs no randomness of the bot's (and leaves the bot's rng untouched).
_BASE_SEED = 0


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

    def sealed(self) -> SealedSeat:
        """This seat without the true state: what may be sent to a bot's own process."""
        s = self.__state
        legal = tuple(self.legal_actions())
        return SealedSeat(seat=self.seat, seen=view(s, self.seat), legal=legal,
                          texts={action: text(s, action) for action in legal},
                          base=determinize(s, self.seat, _BASE_SEED))


@dataclass(frozen=True)
class SealedSeat:
    """A seat that holds no true state (what ``ProcessBot`` sends): the same methods as
    ``Seat``, answered from the view, the legal actions with their texts, and ``base``, a
    sample whose hidden cards are re-dealt (it depends only on what the seat sees). For the
    same ``rng``, ``sample`` returns exactly what the Seat's would."""

    seat: int
    seen: dict[str, Any]
    legal: tuple[Action, ...]
    texts: dict[Action, str]
    base: GameState

    def view(self) -> dict[str, Any]:
        """The seat's view (as ``Seat.view``: a fresh copy the bot may change)."""
        return copy.deepcopy(self.seen)

    def legal_actions(self) -> list[Action]:
        """The legal actions, when this seat is the one to act (else an empty list)."""
        return list(self.legal)

    def text(self, action: Action) -> str:
        """The readable text of an action (of the seat's legal ones as the true state says;
        of another, as the sample does)."""
        return self.texts.get(action) or text(self.base, action)

    def sample(self, rng: random.Random) -> GameState:
        """A full state consistent with what this seat sees (as ``Seat.sample``)."""
        return determinize(self.base, self.seat, rng.getrandbits(63))


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


def _serve(inbox: Connection, outbox: Connection) -> None:
    """A bot process's loop. First the bot's maker; then, per decision, a SealedSeat and the
    bot's rng state in, and the action, the rng state and the search iterations out (or the
    error's text). It ends when the game's process closes the pipe."""
    make: Callable[[], Bot] = inbox.recv()
    bot = make()
    rng = random.Random()
    while True:
        try:
            seat, rng_state = inbox.recv()
        except EOFError:
            return
        try:
            rng.setstate(rng_state)
            action = bot.choose(seat, rng)
            outbox.send(("ok", action, rng.getstate(), int(getattr(bot, "last_iterations", 0))))
        except Exception as exc:  # any failure is reported to the game's process
            outbox.send(("error", f"{type(exc).__name__}: {exc}", None, 0))


def serve_fds(inbox: int, outbox: int) -> None:
    """The entry point of a bot process (``ProcessBot`` starts it with these two pipes)."""
    _serve(Connection(inbox, writable=False), Connection(outbox, readable=False))


def _close(inbox: Connection, outbox: Connection, process: subprocess.Popen[bytes]) -> None:
    outbox.close()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    inbox.close()


class ProcessBot:
    """A bot run in a process of its own, which receives only ``SealedSeat``s.

    ``make`` builds the bot there (a picklable callable: a bot class, or ``functools.partial``
    of one with its options). The process is a fresh interpreter (``sys.executable``, the
    caller's ``sys.path``), talking over two pipes of its own: nothing of this process's
    memory is copied into it (``fork`` would copy every game state), and, unlike
    multiprocessing's ``spawn``, it does not re-run the caller's main script. Each decision
    sends the sealed seat and the state of the bot's ``rng``, and gets back the action and the
    advanced rng state, so a game plays exactly as with the bot in-process. The process ends
    with ``close()`` or when this object is collected. POSIX only (it passes pipe
    descriptors)."""

    def __init__(self, make: Callable[[], Bot], name: str | None = None) -> None:
        if os.name != "posix":
            raise RuntimeError("ProcessBot needs a POSIX system (it passes pipes to its process)")
        self.name = name or str(getattr(make, "name", getattr(make, "__name__", "bot")))
        self.last_iterations = 0
        bot_inbox, to_bot = os.pipe()  # (read end, write end)
        from_bot, bot_outbox = os.pipe()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        code = ("import sys; from flamecraft.ai.interface import serve_fds; "
                "serve_fds(int(sys.argv[1]), int(sys.argv[2]))")
        self._process = subprocess.Popen(
            [sys.executable, "-c", code, str(bot_inbox), str(bot_outbox)],
            pass_fds=(bot_inbox, bot_outbox), env=env)
        os.close(bot_inbox)
        os.close(bot_outbox)
        self._inbox = Connection(from_bot, writable=False)
        self._outbox = Connection(to_bot, readable=False)
        self._finalizer = weakref.finalize(self, _close, self._inbox, self._outbox,
                                           self._process)
        self._outbox.send(make)

    def _send(self, message: tuple[SealedSeat, Any]) -> None:
        self._outbox.send(message)

    def choose(self, seat: Seat | SealedSeat, rng: random.Random) -> Action:
        sealed = seat.sealed() if isinstance(seat, Seat) else seat
        try:
            self._send((sealed, rng.getstate()))
            status, result, rng_state, iterations = self._inbox.recv()
        except (EOFError, OSError) as exc:
            raise RuntimeError(f"bot {self.name!r}: its process has ended ({exc!r})") from None
        if status != "ok":
            raise RuntimeError(f"bot {self.name!r} failed in its process: {result}")
        rng.setstate(rng_state)
        self.last_iterations = iterations
        return result  # type: ignore[no-any-return]

    def close(self) -> None:
        """Ends the bot's process."""
        self._finalizer()


def pick_best(scores: list[float], rng: random.Random, tolerance: float = 1e-9) -> int:
    """The index of the highest score; near-ties are broken by ``rng`` (so a bot's seed, not
    the order of the legal actions, decides between equal choices)."""
    top = max(scores)
    best = [i for i, v in enumerate(scores) if v >= top - tolerance]
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


def mine_this_turn(s: GameState, p: int, turn: int) -> bool:
    """Whether p is still choosing within the turn numbered ``turn`` (a plan's horizon)."""
    return not s.over and s.turn == turn and to_act(s) == p
