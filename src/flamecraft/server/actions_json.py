"""The structured form of a legal action for the browser: its kind and what it concerns, by id.

The text of an action (``engine.text``) is for reading; the browser also needs to know which
card, slot or Good an action is about so that it can make that thing clickable. Each action
kind has a name and a small ``args`` object naming things by catalog id: ``shop``, ``slot``
(1-based), ``artisan``, ``enchantment``, ``fancy``, ``companion``, ``good``/``item``
(``BREAD``…``PLANT``, or ``COIN``), ``to`` (a seat number, ``"supply"`` or ``"deck"``),
counts, and ``skip`` (what a decline declines). Both come from the kind's declaration
(``core/actions.py``: each argument's key and type of value), so a new kind needs nothing
here.

Each action also carries its facts (``core/describe.py``: what it costs and gives, the same
words the terminal shows) and ``detail``, the card it concerns as the page's card-details
spec (``artisan:<id>``, ``ench:<id>``…), for the hover card of a listed choice. In another
language than English the facts are in that language, and ``say`` holds the action's words in
it; ``text`` stays the stable English text, what a client sends back or matches a hint with.
"""

from __future__ import annotations

from typing import Any

from ..core import kinds as K
from ..core.actions import Action, counts
from ..core.board import CATALOG
from ..core.describe import Choice, describe
from ..core.engine import legal_actions
from ..core.events import Event
from ..core.goods import COIN, GOOD_KEYS
from ..core.kinds import ACTION_KINDS
from ..core.state import GameState
from ..core.tr import Translate, same

_ART = [c.id for c in CATALOG.artisans]
_SHOP = [c.id for c in CATALOG.shops]
_ENCH = [c.id for c in CATALOG.enchantments]
_FANCY = [c.id for c in CATALOG.fancies]
_COMP = [c.id for c in CATALOG.companions]


def item_key(item: int) -> str:
    """A Good's key (BREAD…PLANT) or COIN."""
    return "COIN" if item == COIN else GOOD_KEYS[item]


def _value(arg: K.Arg, v: int) -> Any:
    """One argument's value as the browser reads it: a card by id, a Good by key, a slot
    1–3, a seat's number (or what nobody is: "supply", "deck"), a decline by its name."""
    t = arg.type
    if t in (K.SHOP, K.ABILITY):
        return _SHOP[v]
    if t == K.ARTISAN:
        return _ART[v]
    if t == K.ENCHANTMENT:
        return _ENCH[v]
    if t == K.FANCY:
        return _FANCY[v]
    if t == K.COMPANION:
        return _COMP[v]
    if t == K.GOOD:
        return GOOD_KEYS[v]
    if t == K.ITEM:
        return item_key(v)
    if t == K.SEAT:
        return arg.nobody if v < 0 else v
    if t == K.SLOT:
        return v + 1
    if t == K.MASK:
        return [GOOD_KEYS[g] for g in range(6) if v >> g & 1]
    if t == K.SKIP:
        return K.SKIPS[v].name
    return v  # COUNT, SETS


def args_of(action: Action) -> dict[str, Any]:
    """What an action concerns, by its kind's declared arguments (``actions.py``): each by
    its key (a SETS argument only where it counts, a variable Enchantment's), then the
    kind's constant ones."""
    kind = ACTION_KINDS[action[0]]
    out: dict[str, Any] = {}
    for i, arg in enumerate(kind.args):
        if counts(kind, action, CATALOG, i):
            out[arg.key] = _value(arg, action[i + 1])
    out.update(kind.constants)
    return out


def kind_name(kind: int) -> str:
    """An action kind's name (the JSON ``kind``): its declaration's."""
    return ACTION_KINDS[kind].name


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
    args = args_of(action)
    out = {"index": index, "text": choice.text, "facts": choice.facts,
           "card": choice.card, "detail": detail_of(choice, args),
           "kind": kind_name(action[0]), "args": args}
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
    return {"kind": kind_name(e.action[0]), "args": args_of(e.action)}
