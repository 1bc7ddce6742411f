"""The structured form of a legal action for the browser: its kind and what it concerns, by id.

The text of an action (``engine.text``) is for reading; the browser also needs to know which
card, slot or Good an action is about so that it can make that thing clickable. Each action
kind of ``flamecraft/actions.py`` maps to a lower-case kind name and a small ``args`` object
naming things by catalog id: ``shop``, ``slot`` (1-based), ``artisan``, ``enchantment``,
``fancy``, ``companion``, ``good``/``item`` (``BREAD``…``PLANT``, or ``COIN``), ``to`` (a
seat number, ``"supply"`` or ``"deck"``), counts, and ``skip`` (what a decline declines).
The table is complete: a test checks every kind, so a new action kind cannot go unmapped.

Each action also carries its facts (``core/describe.py``: what it costs and gives, the same
words the terminal shows) and ``detail``, the card it concerns as the page's card-details
spec (``artisan:<id>``, ``ench:<id>``…), for the hover card of a listed choice. In another
language than English the facts are in that language, and ``say`` holds the action's words in
it; ``text`` stays the stable English text, what a client sends back or matches a hint with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core import actions as A
from ..core.actions import Action
from ..core.board import CATALOG
from ..core.describe import Choice, describe
from ..core.engine import legal_actions
from ..core.events import Event
from ..core.goods import COIN, GOOD_KEYS
from ..core.state import GameState
from ..core.tr import Translate, same

_ART = [c.id for c in CATALOG.artisans]
_SHOP = [c.id for c in CATALOG.shops]
_ENCH = [c.id for c in CATALOG.enchantments]
_FANCY = [c.id for c in CATALOG.fancies]
_COMP = [c.id for c in CATALOG.companions]

# What each variant of SKIP declines (actions.SKIP_TEXTS has the readable words).
SKIP_NAMES = ("place", "fire", "ability", "firing", "reserve", "returning", "gift", "put_back",
              "score", "swap", "park", "companion")

KIND_NAMES = ("keep_fancy", "take_good", "visit", "give", "gather", "enchant", "gain_good",
              "draw_park", "draw_deck", "place", "skip", "fire", "use_ability", "cast", "pay",
              "gain_two", "gain_set", "gift", "swap", "discard", "reveal", "end_turn", "return",
              "reserve", "exchange", "choose_type", "put_back_fancy", "keep_artisan",
              "score_moon", "gift_artisan", "park_bottom", "pick", "gift_each",
              "pick_companion", "use_companion", "exchange_good")


def item_key(item: int) -> str:
    """A Good's key (BREAD…PLANT) or COIN."""
    return "COIN" if item == COIN else GOOD_KEYS[item]


def _recipient(to: int, nobody: str) -> int | str:
    return nobody if to < 0 else to


Args = Callable[[Action], dict[str, Any]]

_ARGS: dict[int, Args] = {
    A.KEEP_FANCY: lambda a: {"fancy": _FANCY[a[1]]},
    A.TAKE_GOOD: lambda a: {"good": GOOD_KEYS[a[1]]},
    A.VISIT: lambda a: {"shop": _SHOP[a[1]]},
    A.GIVE: lambda a: {"item": item_key(a[1]), "to": _recipient(a[2], "supply")},
    A.GATHER: lambda a: {},
    A.ENCHANT: lambda a: {},
    A.GAIN_GOOD: lambda a: {"good": GOOD_KEYS[a[1]]},
    A.DRAW_PARK: lambda a: {"artisan": _ART[a[1]]},
    A.DRAW_DECK: lambda a: {"deck": "artisan"},
    A.PLACE: lambda a: {"artisan": _ART[a[1]], "shop": _SHOP[a[2]], "slot": a[3] + 1},
    A.SKIP: lambda a: {"skip": SKIP_NAMES[a[1]]},
    A.FIRE: lambda a: {"artisan": _ART[a[1]]},
    A.USE_ABILITY: lambda a: {"shop": _SHOP[a[1]]},
    A.CAST: lambda a: ({"enchantment": _ENCH[a[1]], "sets": a[2]}
                       if CATALOG.enchantments[a[1]].variable else {"enchantment": _ENCH[a[1]]}),
    A.PAY: lambda a: {"good": GOOD_KEYS[a[1]], "goods": a[2], "coins": a[3]},
    A.GAIN_TWO: lambda a: {"good": GOOD_KEYS[a[1]], "count": a[2]},
    A.GAIN_SET: lambda a: {"goods": [GOOD_KEYS[g] for g in range(6) if a[1] >> g & 1]},
    A.GIFT: lambda a: {"item": item_key(a[1]), "to": _recipient(a[2], "supply")},
    A.SWAP: lambda a: {"artisan": _ART[a[1]]},
    A.DISCARD: lambda a: {"artisan": _ART[a[1]]},
    A.REVEAL: lambda a: {"fancy": _FANCY[a[1]]},
    A.END_TURN: lambda a: {},
    A.RETURN: lambda a: {"item": item_key(a[1])},
    A.RESERVE: lambda a: {"enchantment": _ENCH[a[1]]},
    A.EXCHANGE: lambda a: {"enchantment": _ENCH[a[1]]},
    A.CHOOSE_TYPE: lambda a: {"good": GOOD_KEYS[a[1]]},
    A.PUT_BACK_FANCY: lambda a: {"fancy": _FANCY[a[1]]},
    A.KEEP_ARTISAN: lambda a: {"artisan": _ART[a[1]]},
    A.SCORE_MOON: lambda a: {"fancy": _FANCY[a[1]]},
    A.GIFT_ARTISAN: lambda a: {"artisan": _ART[a[1]], "to": _recipient(a[2], "deck")},
    A.PARK_BOTTOM: lambda a: {"artisan": _ART[a[1]]},
    A.PICK: lambda a: {"artisan": _ART[a[1]]},
    A.GIFT_EACH: lambda a: {},
    A.PICK_COMPANION: lambda a: {"companion": _COMP[a[1]]},
    A.USE_COMPANION: lambda a: {"companion": _COMP[a[1]]},
    A.EXCHANGE_GOOD: lambda a: {"good": GOOD_KEYS[a[1]], "gain": GOOD_KEYS[a[2]]},
}


# Which argument names a card, and the page's prefix for its details (cards.js ``details``).
_DETAIL = (("artisan", "artisan"), ("enchantment", "ench"), ("fancy", "fancy"),
           ("companion", "companion"), ("shop", "shop"))


def detail_of(choice: Choice, args: dict[str, Any]) -> str | None:
    """The card-details spec of the card a choice concerns, or None."""
    if choice.card is None:
        return None
    for name, prefix in _DETAIL:
        if args.get(name) == choice.card:
            return f"{prefix}:{choice.card}"
    return None


def action_json(s: GameState, action: Action, index: int,
                tr: Translate = same) -> dict[str, Any]:
    """One legal action as the browser receives it: its stable text, unchanged, and its
    facts apart (the page shows ``text`` and ``facts`` together; it sends back ``index``);
    in another language (``tr``), ``say``: the action in that language."""
    choice = describe(s, action, tr)
    args = _ARGS[action[0]](action)
    out = {"index": index, "text": choice.text, "facts": choice.facts,
           "card": choice.card, "detail": detail_of(choice, args),
           "kind": KIND_NAMES[action[0]], "args": args}
    if choice.words and choice.words != choice.text:
        out["say"] = choice.words
    return out


def legal_json(s: GameState, tr: Translate = same) -> list[dict[str, Any]]:
    """The legal actions of the player to act, in the engine's order (``index`` is what an
    ``act`` message sends back), described in ``tr``'s language."""
    return [action_json(s, a, i, tr) for i, a in enumerate(legal_actions(s))]


def event_things(e: Event) -> dict[str, Any]:
    """What a log line's action concerns (``kind`` and ``args``, as for a legal action), so the
    page can light up the last move on the board; only for an action the whole table reads in
    full (``public == full``): a masked one (a Fancy Dragon kept, a dragon discarded or
    gifted) or a decline names nothing, whoever reads it."""
    if e.public is None or e.public != e.full or e.action[0] < 0:  # (a table note: no action)
        return {}
    return {"kind": KIND_NAMES[e.action[0]], "args": _ARGS[e.action[0]](e.action)}
