"""Bots for Flamecraft: the interface, the ladder, and how to make one by name.

The ladder, weakest first: ``random``; ``greedy`` (one step of look-ahead with the position
valuation); ``planner`` (plans its whole turn on determinized samples); ``ismcts``
(information-set Monte Carlo tree search). ``cheater`` is the same search on the true state,
a reference for tournaments only. See docs/bots.md.

    from flamecraft.ai import make_bot, Seat
    bot = make_bot("ismcts", seconds=0.5)
    action = bot.choose(Seat(state, seat), random.Random(1))
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..core import COMPILED, NATIVE_DIR

if COMPILED:  # the search's hot modules, compiled with the core (see flamecraft/core/__init__)
    __path__.insert(0, str(NATIVE_DIR / "ai"))

from . import weightsets
from .greedy import GreedyBot
from .interface import Bot, ProcessBot, RandomBot, SealedSeat, Seat, TrueStateBot, policy_of
from .ismcts import CheaterBot, ISMCTSBot
from .planner import PlannerBot

__all__ = [
    "BOT_CLASSES", "PLAY_BOTS", "Bot", "CheaterBot", "GreedyBot", "ISMCTSBot", "PlannerBot",
    "ProcessBot", "RandomBot", "SealedSeat", "Seat", "TrueStateBot", "make_bot",
    "make_play_bot", "parse_bot_spec", "policy_of",
]

BOT_CLASSES: dict[str, type[Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "planner": PlannerBot,
    "ismcts": ISMCTSBot,
    "cheater": CheaterBot,
}
# The bots offered for play (``bots.BOTS``): every one but the cheater.
PLAY_BOTS = ("greedy", "planner", "ismcts")


def make_bot(name: str, **options: Any) -> Bot | TrueStateBot:
    """A bot by name, with its options (e.g. ``make_bot("ismcts", iterations=500)``; giving
    ``iterations`` alone to ismcts makes the budget iterations only, so it is reproducible).
    ``weights="tuned"`` gives a bot a named weight set (``weightsets``), and a knob of
    ``evaluate.Weights`` given by name (``good=0.4``) overrides that one.
    ``isolated=True`` runs it in a process of its own that sees only sealed seats
    (``interface.ProcessBot``)."""
    key = name.strip().lower()
    if key not in BOT_CLASSES:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOT_CLASSES)})")
    isolated = options.pop("isolated", False)
    if not isinstance(isolated, bool):
        raise ValueError(f"isolated must be true or false, not {isolated!r}")
    if isolated and key == "cheater":
        raise ValueError("the cheater reads the true state: it cannot run isolated")
    if key in ("ismcts", "cheater") and "iterations" in options and "seconds" not in options:
        options = {**options, "seconds": None}
    bot: Bot | TrueStateBot = _build(key, **options)
    if isolated:
        # The bot's process gets the options as given (a weight set by name, plain numbers)
        # and builds them there: a compiled Weights does not survive pickling.
        make: Callable[[], Bot] = functools.partial(_build, key, **options)
        return ProcessBot(make, name=key)
    return bot


def _build(key: str, **options: Any) -> Any:
    """The bot ``key`` with its options; ``weights=NAME`` and single knobs (``good=0.4``)
    become one ``evaluate.Weights`` (``weightsets.resolve``)."""
    if key != "random":
        options = weightsets.resolve(options)
    try:
        return BOT_CLASSES[key](**options)
    except TypeError as exc:
        # The compiled bots' messages do not always say which option: find it by trying each.
        culprit = next((f" (option {name}={value!r})" for name, value in options.items()
                        if _refused(key, name, value)), "")
        raise ValueError(f"bad option for bot {key!r}{culprit}: {exc}") from None


def _refused(key: str, name: str, value: Any) -> bool:
    """Whether bot ``key`` refuses the option ``name=value`` on its own."""
    try:
        BOT_CLASSES[key](**{name: value})
    except TypeError:
        return True
    except Exception:  # refused for another reason (a model file): not a type error
        return False
    return False


def make_play_bot(name: str, **options: Any) -> Bot:
    """A bot that plays from its seat's view only (any bot but the cheater)."""
    bot = make_bot(name, **options)
    if isinstance(bot, TrueStateBot) or not isinstance(bot, Bot):
        raise ValueError(f"{name!r} reads the true state: it is for tournaments only")
    return bot


def _option_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:seconds=0.5:exploration=0.3"`` → ("ismcts", {"seconds": 0.5, …})."""
    name, *parts = spec.strip().split(":")
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, raw = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"bad bot option {part!r} in {spec!r} (expected key=value)")
        options[key.strip()] = _option_value(raw.strip())
    name = name.strip().lower()
    if name not in BOT_CLASSES:
        raise ValueError(f"unknown bot {name!r} in {spec!r} (known: {', '.join(BOT_CLASSES)})")
    return name, options
