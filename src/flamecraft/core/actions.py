"""Actions: small hashable tuples ``(kind, a, b, c)`` with a stable readable text.

One value serves every client: bots and search compare tuples, people read and type the text
(``action_text`` / ``parse_action``), and RL maps each tuple to a fixed integer (a later
catalogue). Unused arguments are -1.
"""

from __future__ import annotations

from typing import Final

from .cards import Catalog
from .goods import item_name

Action = tuple[int, int, int, int]

KEEP_FANCY: Final = 0
TAKE_GOOD: Final = 1
VISIT: Final = 2
GIVE: Final = 3
GATHER: Final = 4
ENCHANT: Final = 5
GAIN_GOOD: Final = 6
DRAW_PARK: Final = 7
DRAW_DECK: Final = 8
PLACE: Final = 9
SKIP: Final = 10
FIRE: Final = 11
USE_ABILITY: Final = 12
CAST: Final = 13
PAY: Final = 14
GAIN_TWO: Final = 15
GAIN_SET: Final = 16
GIFT: Final = 17
SWAP: Final = 18
DISCARD: Final = 19
REVEAL: Final = 20
END_TURN: Final = 21
RETURN: Final = 22
RESERVE: Final = 23
EXCHANGE: Final = 24
CHOOSE_TYPE: Final = 25
PUT_BACK_FANCY: Final = 26
KEEP_ARTISAN: Final = 27
SCORE_MOON: Final = 28
GIFT_ARTISAN: Final = 29
PARK_BOTTOM: Final = 30
PICK: Final = 31
GIFT_EACH: Final = 32
DISCARD_GOOD: Final = 33
PICK_COMPANION: Final = 34
USE_COMPANION: Final = 35
EXCHANGE_GOOD: Final = 36
NUM_ACTION_KINDS: Final = 37

# The variants of SKIP: what the player declines, as its text says.
NO_PLACE: Final = 0
NO_FIRE: Final = 1
NO_ABILITY: Final = 2
STOP_FIRING: Final = 3
NO_RESERVE: Final = 4
STOP_RETURNING: Final = 5
NO_GIFT: Final = 6
NO_PUT_BACK: Final = 7
NO_SCORE: Final = 8
NO_SWAP: Final = 9
STOP_PARK: Final = 10
NO_TRADE: Final = 11
NO_COMPANION: Final = 12
SKIP_TEXTS: Final = (
    "do not place", "do not fire up", "do not use the Shop ability", "stop firing up",
    "do not reserve", "stop returning", "do not gift", "keep your Fancy Dragons",
    "do not score a Moon Dragon", "do not swap", "stop sending dragons", "do not trade",
    "do not use your Companion",
)

GOOD_SET_NAMES: Final[dict[int, str]] = {}


def act(kind: int, a: int = -1, b: int = -1, c: int = -1) -> Action:
    return (kind, a, b, c)


def _set_text(mask: int) -> str:
    return ", ".join(item_name(g) for g in range(6) if mask >> g & 1)


def action_text(action: Action, catalog: Catalog, names: tuple[str, ...]) -> str:
    """The stable, readable text of an action (also what ``parse_action`` accepts)."""
    kind, a, b, c = action
    art = catalog.artisans
    if kind == KEEP_FANCY:
        return f"keep {catalog.fancies[a].name}"
    if kind == TAKE_GOOD:
        return f"take {item_name(a)}"
    if kind == VISIT:
        return f"visit {catalog.shops[a].name}"
    if kind in (GIVE, GIFT):
        to = "the supply" if b < 0 else names[b]
        return f"{'give' if kind == GIVE else 'gift'} {item_name(a)} to {to}"
    if kind == GATHER:
        return "gather"
    if kind == ENCHANT:
        return "enchant"
    if kind == GAIN_GOOD:
        return f"gain {item_name(a)}"
    if kind == DRAW_PARK:
        return f"draw {art[a].name} from the Park"
    if kind == DRAW_DECK:
        return "draw from the Artisan deck"
    if kind == PLACE:
        return f"place {art[a].name} on {catalog.shops[b].name} slot {c + 1}"
    if kind == SKIP:
        return SKIP_TEXTS[a]
    if kind == FIRE:
        return f"fire up {art[a].name}"
    if kind == USE_ABILITY:
        return f"use {catalog.shops[a].ability_name}"
    if kind == CAST:
        card = catalog.enchantments[a]
        if not card.variable:
            return f"cast {card.name}"
        return f"cast {card.name} with {b} set" + ("s" if b != 1 else "")
    if kind == PAY:
        need_goods = b
        return f"pay {item_name(a)} with {need_goods} {item_name(a)} and {c} Coin" + (
            "s" if c != 1 else "")
    if kind == GAIN_TWO:
        return f"gain {b} {item_name(a)}"
    if kind == GAIN_SET:
        return f"gain {_set_text(a)}"
    if kind == SWAP:
        return f"swap with {art[a].name}"
    if kind == DISCARD:
        return f"discard {art[a].name}"
    if kind == DISCARD_GOOD:
        return f"discard {item_name(a)}"
    if kind == REVEAL:
        return f"reveal {catalog.fancies[a].name}"
    if kind == END_TURN:
        return "end turn"
    if kind == RETURN:
        return f"return {item_name(a)}"
    if kind == RESERVE:
        return f"reserve {catalog.enchantments[a].name}"
    if kind == EXCHANGE:
        return f"exchange for {catalog.enchantments[a].name}"
    if kind == CHOOSE_TYPE:
        return f"choose {item_name(a)}"
    if kind == PUT_BACK_FANCY:
        return f"put back {catalog.fancies[a].name}"
    if kind == KEEP_ARTISAN:
        return f"keep {art[a].name}"
    if kind == SCORE_MOON:
        return f"score {catalog.fancies[a].name}"
    if kind == GIFT_ARTISAN:
        to = "the bottom of the Artisan deck" if b < 0 else names[b]
        return f"gift {art[a].name} to {to}"
    if kind == PARK_BOTTOM:
        return f"send {art[a].name} to the bottom of the deck"
    if kind == PICK:
        return f"pick {art[a].name}"
    if kind == GIFT_EACH:
        return "gift a Good to each other player"
    if kind == PICK_COMPANION:
        return f"take {catalog.companions[a].name}"
    if kind == USE_COMPANION:
        return f"use {catalog.companions[a].name}"
    if kind == EXCHANGE_GOOD:
        return f"return {item_name(a)} for {item_name(b)}"
    raise ValueError(f"unknown action kind {kind}")


def normalize(text: str) -> str:
    return " ".join(text.lower().split())
