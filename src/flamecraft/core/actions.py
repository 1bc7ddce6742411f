"""Actions: small hashable tuples ``(kind, a, b, c)`` with a stable readable text.

One value serves every client: bots and search compare tuples, people read and type the text
(``action_text`` / ``parse_action``), and RL maps each tuple to a fixed integer (the research
catalogue). Unused arguments are -1. Every kind is declared here once (``kinds.ActionKind``:
its named arguments, its texts, its catalogue blocks), and the text is derived from the
declaration; so are the browser's arguments, the catalogue and the default facts.
"""

from __future__ import annotations

from typing import Final

from .cards import Catalog
from .goods import item_name
from .kinds import (
    ABILITY,
    ACTION_KINDS,
    ARTISAN,
    COMPANION,
    COUNT,
    ENCHANTMENT,
    FANCY,
    GOOD,
    ITEM,
    MASK,
    SEAT,
    SETS,
    SHOP,
    SKIPS,
    SLOT,
    ActionKind,
    Arg,
    Block,
    Skip,
    declare_action,
    declare_skip,
)
from .kinds import SKIP as SKIP_ARG
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
for _code, _name, _text in (
        (NO_PLACE, "place", N_("do not place")), (NO_FIRE, "fire", N_("do not fire up")),
        (NO_ABILITY, "ability", N_("do not use the Shop ability")),
        (STOP_FIRING, "firing", N_("stop firing up")),
        (NO_RESERVE, "reserve", N_("do not reserve")),
        (STOP_RETURNING, "returning", N_("stop returning")), (NO_GIFT, "gift", N_("do not gift")),
        (NO_PUT_BACK, "put_back", N_("keep your Fancy Dragons")),
        (NO_SCORE, "score", N_("do not score a Moon Dragon")), (NO_SWAP, "swap", N_("do not swap")),
        (STOP_PARK, "park", N_("stop sending dragons")),
        (NO_COMPANION, "companion", N_("do not use your Companion"))):
    declare_skip(Skip(_code, _name, _text))

# Each kind's arguments, texts and catalogue blocks (``kinds.ActionKind``), in the order of the
# research catalogue's blocks (docs/rl.md): declaring a kind adds its blocks at the end.
_FANCY: Final = Arg("fancy", FANCY, "card")
_GOOD: Final = Arg("good", GOOD)
_DRAGON: Final = Arg("artisan", ARTISAN, "dragon")
_CARD: Final = Arg("artisan", ARTISAN, "card")
_SPELL: Final = Arg("enchantment", ENCHANTMENT, "card")
_BY_GOOD: Final = (Block(("good",), "Good"),)
_BY_TYPE: Final = (Block(("artisan:type",), "dragon type"),)
_ONE: Final = (Block((), "-"),)
for _kind in (
    ActionKind(KEEP_FANCY, "keep_fancy", N_("keep {card}"), (_FANCY,),
               (Block(("fancy",), "Fancy Dragon (catalog index)"),),
               public=N_("keep a Fancy Dragon")),
    ActionKind(TAKE_GOOD, "take_good", N_("take {good}"), (_GOOD,), _BY_GOOD),
    ActionKind(VISIT, "visit", N_("visit {shop}"), (Arg("shop", SHOP),),
               (Block(("shop",), "Shop"),)),
    ActionKind(GIVE, "give", N_("give {good} to {player}"),
               (Arg("item", ITEM, "good"), Arg("to", SEAT, "player", nobody="supply")),
               (Block(("item", "to"), "item (6 Goods, Coin) × seat offset"),),
               nobody=N_("give {good} to the supply")),
    ActionKind(GATHER, "gather", N_("gather"), (), _ONE),
    ActionKind(ENCHANT, "enchant", N_("enchant"), (), _ONE),
    ActionKind(GAIN_GOOD, "gain_good", N_("gain {good}"), (_GOOD,), _BY_GOOD),
    ActionKind(DRAW_PARK, "draw_park", N_("draw {dragon} from the Park"), (_DRAGON,), _BY_TYPE),
    ActionKind(DRAW_DECK, "draw_deck", N_("draw from the Artisan deck"), (), _ONE,
               constants=(("deck", "artisan"),)),
    ActionKind(PLACE, "place", N_("place {dragon} on {shop} slot {slot}"),
               (_DRAGON, Arg("shop", SHOP), Arg("slot", SLOT)),
               (Block(("artisan:type", "slot"), "dragon type × (Shop × slot)"),)),
    ActionKind(SKIP, "skip", "", (Arg("skip", SKIP_ARG),),
               (Block(("skip",), "what is declined (kinds.SKIPS)"),), decline=True),
    ActionKind(FIRE, "fire", N_("fire up {dragon}"), (_DRAGON,),
               (Block(("artisan:town",), "the dragon's Shop × slot", "fire_town"),
                Block(("artisan:hand",), "dragon type, from the hand", "fire_hand"),
                Block(("artisan:park",), "position in the Park", "fire_park"))),
    ActionKind(USE_ABILITY, "use_ability", N_("use {ability}"),
               (Arg("shop", ABILITY, "ability"),), _ONE),
    ActionKind(CAST, "cast", N_("cast {card} with {sets} set"),
               (_SPELL, Arg("sets", SETS, plural=True)),
               (Block(("enchantment:sets",), "(Enchantment, sets) pair (CAST_PAIRS)"),),
               plural=N_("cast {card} with {sets} sets"), plain=N_("cast {card}")),
    ActionKind(PAY, "pay", N_("pay {good} with {goods} {good} and {coins} Coin"),
               (_GOOD, Arg("goods", COUNT), Arg("coins", COUNT, plural=True)),
               (Block(("good", "coins:paid"), "Good × Coins paid for it"),),
               plural=N_("pay {good} with {goods} {good} and {coins} Coins")),
    ActionKind(GAIN_TWO, "gain_two", N_("gain {n} {good}"), (_GOOD, Arg("count", COUNT, "n")),
               _BY_GOOD),
    ActionKind(GAIN_SET, "gain_set", N_("gain {goods}"), (Arg("goods", MASK),),
               (Block(("goods",), "bit mask of Goods"),)),
    ActionKind(GIFT, "gift", N_("gift {good} to {player}"),
               (Arg("item", ITEM, "good"), Arg("to", SEAT, "player", nobody="supply")),
               (Block(("item", "to"), "item × seat offset (solo: 0, the supply)"),),
               nobody=N_("gift {good} to the supply")),
    ActionKind(SWAP, "swap", N_("swap with {dragon}"), (_DRAGON,),
               (Block(("artisan:town",), "the other dragon's Shop × slot"),)),
    ActionKind(DISCARD, "discard", N_("discard {card}"), (_CARD,), _BY_TYPE,
               public=N_("discard an Artisan Dragon")),
    ActionKind(REVEAL, "reveal", N_("reveal {card}"), (_FANCY,),
               (Block(("fancy",), "Sun Dragon"),)),
    ActionKind(END_TURN, "end_turn", N_("end turn"), (), _ONE, decline=True),
    ActionKind(RETURN, "return", N_("return {good}"), (Arg("item", ITEM, "good"),),
               (Block(("item",), "item"),)),
    ActionKind(RESERVE, "reserve", N_("reserve {card}"), (_SPELL,),
               (Block(("enchantment",), "Enchantment"),)),
    ActionKind(EXCHANGE, "exchange", N_("exchange for {card}"), (_SPELL,),
               (Block(("enchantment",), "Enchantment"),)),
    ActionKind(CHOOSE_TYPE, "choose_type", N_("choose {good}"), (_GOOD,), _BY_GOOD),
    ActionKind(PUT_BACK_FANCY, "put_back_fancy", N_("put back {card}"), (_FANCY,),
               (Block(("fancy",), "Fancy Dragon"),), public=N_("put back a Fancy Dragon")),
    ActionKind(KEEP_ARTISAN, "keep_artisan", N_("keep {card}"), (_CARD,), _BY_TYPE,
               public=N_("keep an Artisan Dragon from the top of the deck")),
    ActionKind(SCORE_MOON, "score_moon", N_("score {card}"), (_FANCY,),
               (Block(("fancy",), "Moon Dragon"),)),
    ActionKind(GIFT_ARTISAN, "gift_artisan", N_("gift {dragon} to {player}"),
               (_DRAGON, Arg("to", SEAT, "player", nobody="deck")),
               (Block(("artisan:type", "to"),
                      "dragon type × seat offset (solo: 0, the deck bottom)"),),
               nobody=N_("gift {dragon} to the bottom of the Artisan deck"),
               public=N_("gift an Artisan Dragon to {player}"),
               public_nobody=N_("gift an Artisan Dragon to the bottom of the Artisan deck")),
    ActionKind(PARK_BOTTOM, "park_bottom", N_("send {dragon} to the bottom of the deck"),
               (_DRAGON,), _BY_TYPE),
    ActionKind(PICK, "pick", N_("pick {dragon}"), (_DRAGON,),
               (Block(("artisan:town",), "dragon's Shop × slot"),)),
    ActionKind(GIFT_EACH, "gift_each", N_("gift a Good to each other player"), (), _ONE),
    ActionKind(PICK_COMPANION, "pick_companion", N_("take {companion}"),
               (Arg("companion", COMPANION),),
               (Block(("companion",), "Companion (setup draft)"),)),
    ActionKind(USE_COMPANION, "use_companion", N_("use {companion}"),
               (Arg("companion", COMPANION),), (Block(("companion",), "Companion"),)),
    ActionKind(EXCHANGE_GOOD, "exchange_good", N_("return {good} for {other}"),
               (_GOOD, Arg("gain", GOOD, "other")),
               (Block(("good", "gain"), "Good returned × Good gained"),)),
):
    declare_action(_kind)


def act(kind: int, a: int = -1, b: int = -1, c: int = -1) -> Action:
    return (kind, a, b, c)


def arg_words(arg: Arg, value: int, catalog: Catalog, tr: Translate = same) -> str | int:
    """How the text names one argument's value: a card's name, a Good, slot 1–3, a number."""
    t = arg.type
    if t == SHOP:
        return catalog.shops[value].name
    if t == ABILITY:
        return catalog.shops[value].ability_name
    if t == ARTISAN:
        return catalog.artisans[value].name
    if t == ENCHANTMENT:
        return catalog.enchantments[value].name
    if t == FANCY:
        return catalog.fancies[value].name
    if t == COMPANION:
        return catalog.companions[value].name
    if t in (GOOD, ITEM):
        return item_name(value, tr)
    if t == SLOT:
        return value + 1
    if t == MASK:
        return tr(", ").join(item_name(g, tr) for g in range(6) if value >> g & 1)
    if t == SKIP_ARG:
        return tr(SKIPS[value].text)
    return value  # COUNT, SETS


def counts(kind: ActionKind, action: Action, catalog: Catalog, arg: int) -> bool:
    """Whether argument ``arg`` (0 for a) counts: a SETS argument only for a variable
    Enchantment (the kind's ENCHANTMENT argument), every other always."""
    if kind.args[arg].type != SETS:
        return True
    return catalog.enchantments[action[kind.arg_at("enchantment")]].variable


def template(kind: ActionKind, action: Action, catalog: Catalog) -> str:
    """Which of the kind's texts says this action (``kinds.ActionKind`` has the rule)."""
    seat = -1
    for i, arg in enumerate(kind.args):
        if arg.type == SETS and not counts(kind, action, catalog, i):
            return kind.plain
        if arg.type == SEAT:
            seat = action[i + 1]
    if seat < 0 and kind.nobody:
        return kind.nobody
    if kind.plural:
        for i, arg in enumerate(kind.args):
            if arg.plural and action[i + 1] != 1:
                return kind.plural
    return kind.text


def action_text(action: Action, catalog: Catalog, names: tuple[str, ...],
                tr: Translate = same) -> str:
    """The stable, readable text of an action (also what ``parse_action`` accepts); with a
    ``tr`` (``core/tr.py``) the same action in the reader's language, for showing only."""
    kind = ACTION_KINDS.get(action[0])
    if kind is None:
        raise ValueError(f"unknown action kind {action[0]}")
    if not kind.text:  # a decline: the words of what it declines
        return str(arg_words(kind.args[0], action[1], catalog, tr))
    values: dict[str, str | int] = {}
    for i, arg in enumerate(kind.args):
        value = action[i + 1]
        if arg.type == SEAT:
            if value >= 0:
                values[arg.placeholder] = names[value]
        elif counts(kind, action, catalog, i):
            values[arg.placeholder] = arg_words(arg, value, catalog, tr)
    return tr(template(kind, action, catalog)).format(**values)


def normalize(text: str) -> str:
    return " ".join(text.lower().split())
