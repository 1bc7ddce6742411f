"""Actions: small hashable tuples ``(kind, a, b, c)`` with a stable readable text.

One value serves every client: bots and search compare tuples, people read and type the text
(``action_text`` / ``parse_action``), and RL maps each tuple to a fixed integer (a later
catalogue). Unused arguments are -1.
"""

from __future__ import annotations

from .cards import Catalog
from .goods import item_name

Action = tuple[int, int, int, int]

(KEEP_FANCY, TAKE_GOOD, VISIT, GIVE, GATHER, ENCHANT, GAIN_GOOD, DRAW_PARK, DRAW_DECK, PLACE,
 SKIP, FIRE, USE_ABILITY, CAST, PAY, GAIN_TWO, GAIN_SET, GIFT, SWAP, DISCARD, REVEAL, END_TURN,
 RETURN, RESERVE, EXCHANGE, CHOOSE_TYPE, PUT_BACK_FANCY, KEEP_ARTISAN, SCORE_MOON, GIFT_ARTISAN,
 PARK_BOTTOM, PICK, GIFT_EACH, DISCARD_GOOD, PICK_COMPANION, USE_COMPANION,
 EXCHANGE_GOOD) = range(37)
NUM_ACTION_KINDS = 37

# The variants of SKIP: what the player declines, as its text says.
(NO_PLACE, NO_FIRE, NO_ABILITY, STOP_FIRING, NO_RESERVE, STOP_RETURNING, NO_GIFT, NO_PUT_BACK,
 NO_SCORE, NO_SWAP, STOP_PARK, NO_TRADE, NO_COMPANION) = range(13)
SKIP_TEXTS = (
    "do not place", "do not fire up", "do not use the Shop ability", "stop firing up",
    "do not reserve", "stop returning", "do not gift", "keep your Fancy Dragons",
    "do not score a Moon Dragon", "do not swap", "stop sending dragons", "do not trade",
    "do not use your Companion",
)

GOOD_SET_NAMES: dict[int, str] = {}


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
