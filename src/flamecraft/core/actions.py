"""Actions: small hashable tuples ``(kind, a, b, c)`` with a stable readable text.

One value serves every client: bots and search compare tuples, people read and type the text
(``action_text`` / ``parse_action``), and RL maps each tuple to a fixed integer (a later
catalogue). Unused arguments are -1.
"""

from __future__ import annotations

from typing import Final

from .cards import Catalog
from .goods import item_name
from .tr import N_, Translate, same

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
PICK_COMPANION: Final = 33
USE_COMPANION: Final = 34
EXCHANGE_GOOD: Final = 35
NUM_ACTION_KINDS: Final = 36

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
NO_COMPANION: Final = 11
SKIP_TEXTS: Final = (
    N_("do not place"), N_("do not fire up"), N_("do not use the Shop ability"),
    N_("stop firing up"), N_("do not reserve"), N_("stop returning"), N_("do not gift"),
    N_("keep your Fancy Dragons"), N_("do not score a Moon Dragon"), N_("do not swap"),
    N_("stop sending dragons"), N_("do not use your Companion"),
)

def act(kind: int, a: int = -1, b: int = -1, c: int = -1) -> Action:
    return (kind, a, b, c)


def _set_text(mask: int, tr: Translate) -> str:
    return tr(", ").join(item_name(g, tr) for g in range(6) if mask >> g & 1)


def action_text(action: Action, catalog: Catalog, names: tuple[str, ...],
                tr: Translate = same) -> str:
    """The stable, readable text of an action (also what ``parse_action`` accepts); with a
    ``tr`` (``core/tr.py``) the same action in the reader's language, for showing only."""
    kind, a, b, c = action
    art = catalog.artisans
    if kind == KEEP_FANCY:
        return tr("keep {card}").format(card=catalog.fancies[a].name)
    if kind == TAKE_GOOD:
        return tr("take {good}").format(good=item_name(a, tr))
    if kind == VISIT:
        return tr("visit {shop}").format(shop=catalog.shops[a].name)
    if kind in (GIVE, GIFT):
        good = item_name(a, tr)
        if b < 0:
            return (tr("give {good} to the supply") if kind == GIVE
                    else tr("gift {good} to the supply")).format(good=good)
        return (tr("give {good} to {player}") if kind == GIVE
                else tr("gift {good} to {player}")).format(good=good, player=names[b])
    if kind == GATHER:
        return tr("gather")
    if kind == ENCHANT:
        return tr("enchant")
    if kind == GAIN_GOOD:
        return tr("gain {good}").format(good=item_name(a, tr))
    if kind == DRAW_PARK:
        return tr("draw {dragon} from the Park").format(dragon=art[a].name)
    if kind == DRAW_DECK:
        return tr("draw from the Artisan deck")
    if kind == PLACE:
        return tr("place {dragon} on {shop} slot {slot}").format(
            dragon=art[a].name, shop=catalog.shops[b].name, slot=c + 1)
    if kind == SKIP:
        return tr(SKIP_TEXTS[a])
    if kind == FIRE:
        return tr("fire up {dragon}").format(dragon=art[a].name)
    if kind == USE_ABILITY:
        return tr("use {ability}").format(ability=catalog.shops[a].ability_name)
    if kind == CAST:
        card = catalog.enchantments[a]
        if not card.variable:
            return tr("cast {card}").format(card=card.name)
        return (tr("cast {card} with {sets} set") if b == 1
                else tr("cast {card} with {sets} sets")).format(card=card.name, sets=b)
    if kind == PAY:
        return (tr("pay {good} with {goods} {good} and {coins} Coin") if c == 1
                else tr("pay {good} with {goods} {good} and {coins} Coins")).format(
            good=item_name(a, tr), goods=b, coins=c)
    if kind == GAIN_TWO:
        return tr("gain {n} {good}").format(n=b, good=item_name(a, tr))
    if kind == GAIN_SET:
        return tr("gain {goods}").format(goods=_set_text(a, tr))
    if kind == SWAP:
        return tr("swap with {dragon}").format(dragon=art[a].name)
    if kind == DISCARD:
        return tr("discard {card}").format(card=art[a].name)
    if kind == REVEAL:
        return tr("reveal {card}").format(card=catalog.fancies[a].name)
    if kind == END_TURN:
        return tr("end turn")
    if kind == RETURN:
        return tr("return {good}").format(good=item_name(a, tr))
    if kind == RESERVE:
        return tr("reserve {card}").format(card=catalog.enchantments[a].name)
    if kind == EXCHANGE:
        return tr("exchange for {card}").format(card=catalog.enchantments[a].name)
    if kind == CHOOSE_TYPE:
        return tr("choose {good}").format(good=item_name(a, tr))
    if kind == PUT_BACK_FANCY:
        return tr("put back {card}").format(card=catalog.fancies[a].name)
    if kind == KEEP_ARTISAN:
        return tr("keep {card}").format(card=art[a].name)
    if kind == SCORE_MOON:
        return tr("score {card}").format(card=catalog.fancies[a].name)
    if kind == GIFT_ARTISAN:
        if b < 0:
            return tr("gift {dragon} to the bottom of the Artisan deck").format(
                dragon=art[a].name)
        return tr("gift {dragon} to {player}").format(dragon=art[a].name, player=names[b])
    if kind == PARK_BOTTOM:
        return tr("send {dragon} to the bottom of the deck").format(dragon=art[a].name)
    if kind == PICK:
        return tr("pick {dragon}").format(dragon=art[a].name)
    if kind == GIFT_EACH:
        return tr("gift a Good to each other player")
    if kind == PICK_COMPANION:
        return tr("take {companion}").format(companion=catalog.companions[a].name)
    if kind == USE_COMPANION:
        return tr("use {companion}").format(companion=catalog.companions[a].name)
    if kind == EXCHANGE_GOOD:
        return tr("return {good} for {other}").format(good=item_name(a, tr),
                                                       other=item_name(b, tr))
    raise ValueError(f"unknown action kind {kind}")


def normalize(text: str) -> str:
    return " ".join(text.lower().split())
