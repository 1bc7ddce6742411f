"""Every legal action described with its facts: what it costs, what it gives, where it is.

One function for every client (the terminal's numbered list, the web's choice list and hover
cards): the action's stable text stays as it is (scripts and replays type it), and ``facts``
adds what a player needs to decide, e.g. ``place Honey on Drake of Cakes slot 1 → 3 Rep``.
The facts read only what the seat to act may see (the public board and its own cards), so a
description never tells a seat anything its view does not; the numbers come from the rules'
own functions (``goals.fancy_value``, ``turn.castable``…), never recomputed here.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import actions as A
from .actions import Action
from .board import ART_TYPE, CATALOG, SHOPS, dragons_at, locate, recipients
from .cards import ICON_COIN, ICON_DRAGON, ICON_RAINBOW, EnchantmentCard, FancyCard, Reward
from .effects import OPS
from .engine import legal_actions, text
from .frames import D_ACTION, D_GIFT, D_GIFT_EACH, D_PLACE, D_SWAP_FIRE
from .goals import fancy_value, measure
from .goods import COIN, NUM_GOODS
from .state import GameState
from .turn import occupants

GOOD_ICONS = ("[Br]", "[Me]", "[Ir]", "[Po]", "[Cr]", "[Pl]")
GOOD_WORDS = ("Bread", "Meat", "Iron", "Potion", "Crystal", "Plant")
RAINBOW = "★"
SHORT = 60  # the longest card text in a choice's facts
# What firing up each Artisan type does, in a few words (data/fire_ups.toml has the rules).
FIRE_UP_SHORT = (
    "draw an Artisan Dragon",
    "place a dragon from your hand",
    "gain 2 of one Good here",
    "swap it, fire up the one arriving",
    "gain 3 different Goods",
    "gift 1 Good → 2 Rep",
)
# What a Fancy Dragon's goal counts, in a few words (``cards.MEASURES``).
MEASURE_WORDS = {
    "max_same_type_in_a_shop": "most of one type in a Shop",
    "max_distinct_types_in_a_shop": "most types in a Shop",
    "max_enchantments_in_a_shop": "most Enchantments in a Shop",
    "coins_match_empty_coin_slots": "Coins match empty Coin slots",
    "most_of_one_good": "most of one Good",
    "total_goods": "Goods held",
    "odd_good_types": "odd Good types",
    "good_types_with_at_least": "Good types held",
    "hand_size": "dragons in hand",
    "fancy_held": "Fancy Dragons held",
    "full_shops": "full Shops",
    "shops_with_enchantments_at_least": "Shops with Enchantments",
    "most_dragons_of_one_type_in_town": "most of one type in Town",
    "showpiece_shops": "full Shops with 3 Enchantments",
    "town_shops": "Shops in Town",
    "enchantments_cast": "Enchantments cast",
    "distinct_cast_icons": "icons cast",
    "max_variable_sets": "most sets cast",
    "dragons_placed": "dragons placed",
    "shops_completed": "Shops completed",
    "gifts_given": "gifts given",
    "shops_visited": "Shops visited",
    "sun_scored": "Sun Dragons scored",
    "coins": "Coins",
    "fancy_scored": "Fancy Dragons scored",
}


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal action as a player reads it."""

    text: str  # the action's stable text, unchanged (``engine.text``)
    facts: str  # what it costs and gives; "" when there is nothing to add
    card: str | None  # the id of the card the action concerns (for hover cards), or None

    @property
    def label(self) -> str:
        return f"{self.text} {self.facts}" if self.facts else self.text

    def __reduce__(self) -> tuple[type[Choice], tuple[str, str, str | None]]:
        """Pickled by its fields (compiled by mypyc, a frozen dataclass refuses the attribute
        assignments pickle's default makes), as ``state.Options`` is."""
        return (Choice, (self.text, self.facts, self.card))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def reward_facts(reward: Reward, rep: int = 0) -> str:
    """A reward in short words: ``3 Rep + 1 Coin``; "" for nothing."""
    parts = []
    if reward.rep + rep:
        parts.append(f"{reward.rep + rep} Rep")
    if reward.coins:
        parts.append(_plural(reward.coins, "Coin"))
    if reward.artisan:
        parts.append(_plural(reward.artisan, "Artisan Dragon"))
    if reward.fancy:
        parts.append(_plural(reward.fancy, "Fancy Dragon"))
    if reward.good_choice:
        parts.append(_plural(reward.good_choice, "Good") + " of your choice")
    return " + ".join(parts)


def _goods_words(counts: list[int] | tuple[int, ...], coins: int = 0) -> str:
    parts = [f"{n} {GOOD_WORDS[g]}" for g, n in enumerate(counts) if n]
    if coins:
        parts.append(_plural(coins, "Coin"))
    return " ".join(parts)


def shop_icon(shop: int) -> str:
    """A Shop's icon as text: a Good's letters, ★ (any Good), +Dr or +1$."""
    card = SHOPS[shop]
    if card.icon < NUM_GOODS:
        return GOOD_ICONS[card.icon]
    if card.icon == ICON_RAINBOW:
        return RAINBOW
    if card.icon == ICON_DRAGON:
        return f"+{card.icon_amount}Dr" if card.icon_amount > 1 else "+Dr"
    assert card.icon == ICON_COIN
    return f"+{card.icon_amount}$"


def gathered(s: GameState, shop: int) -> str:
    """What gathering at a Shop gives now: its icon, its dragons' and Enchantments' Goods."""
    icons = [shop_icon(shop)]
    icons += [GOOD_ICONS[ART_TYPE[d]] for d in dragons_at(s, shop)]
    icons += [GOOD_ICONS[CATALOG.enchantments[e].icon] for e in s.shop_ench[shop]]
    return "".join(icons)


def enchantment_facts(card: EnchantmentCard, sets: int = 1) -> str:
    """``(3 Meat 2 Crystal 1 Plant → 6 Rep)``: the cost of ``sets`` sets and the reward."""
    cost = _goods_words([n * sets for n in card.cost], card.printed_coins) or "nothing"
    rep = card.rep_by_sets[sets - 1] if card.variable else 0
    gives = reward_facts(card.reward, rep) or "nothing"
    return f"({cost} → {gives})"


def fancy_facts(s: GameState, p: int, card: FancyCard) -> str:
    """A Fancy Dragon's goal as p stands now: ``— 2 Shops completed → 5 Rep``."""
    kind = "Sun" if card.sun else "Moon"
    now = fancy_value(s, p, card)
    if card.goal.spend is not None:
        goal = f"spend {_goods_words(card.goal.spend)}"
    else:
        value = str(measure(s, p, card))
        if card.goal.at_least is not None and not card.rep_table and not card.rep_per:
            value += f"/{card.goal.at_least}"  # how far from the goal
        goal = f"{value} {MEASURE_WORDS.get(card.goal.measure, card.goal.measure)}"
    extras = reward_facts(Reward(coins=card.reward.coins, artisan=card.reward.artisan,
                                 fancy=card.reward.fancy, good_choice=card.reward.good_choice))
    pays = f"{now} Rep" + (f" + {extras}" if extras and now else "")
    return f"— {kind}: {goal} → {pays} now"


def short(words: str, width: int = SHORT) -> str:
    """A card's text cut at a word to ``width`` characters (the hover card has all of it)."""
    if len(words) <= width:
        return words
    return words[:width - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def _good(item: int) -> str:
    return "$" if item == COIN else GOOD_ICONS[item]


def _where(s: GameState, dragon: int) -> str:
    slot = locate(s, dragon)
    return f"at {SHOPS[slot // 3].name}" if slot >= 0 else ""


def _op_param(s: GameState, key: str) -> Reward | None:
    """The per-gift reward of the gift decision on top of the stack (Plant fire-up: 2 Rep)."""
    frame = s.stack[-1]
    if frame[0] != D_GIFT:
        return None
    value = OPS[frame[3]][frame[4]].params.get(key)
    return value if isinstance(value, Reward) else None


def _facts(s: GameState, p: int, action: Action) -> tuple[str, str | None]:
    kind, a, b, c = action
    art = CATALOG.artisans
    frame = s.stack[-1] if s.stack else ()
    if kind == A.PLACE:
        slot = SHOPS[b].slots[c]
        facts = "→ " + (reward_facts(slot.reward) or "nothing")
        if sum(1 for d in dragons_at(s, b)) == 2:
            facts += ", completes the Shop"
        if frame and frame[0] == D_PLACE and frame[6] >= 0:
            cost = OPS[frame[6]][frame[7]].params.get("cost")
            if cost:
                facts = f"(pay {_goods_words(cost)}) {facts}"
        return f"{GOOD_ICONS[ART_TYPE[a]]} {facts}", art[a].id
    if kind == A.CAST:
        card = CATALOG.enchantments[a]
        return enchantment_facts(card, b), card.id
    if kind in (A.RESERVE, A.EXCHANGE):
        card = CATALOG.enchantments[a]
        return f"{GOOD_ICONS[card.icon]} {enchantment_facts(card)}", card.id
    if kind in (A.KEEP_FANCY, A.PUT_BACK_FANCY):
        fancy = CATALOG.fancies[a]
        return fancy_facts(s, p, fancy), fancy.id
    if kind in (A.REVEAL, A.SCORE_MOON):
        fancy = CATALOG.fancies[a]
        rep = fancy_value(s, p, fancy)
        extras = Reward(coins=fancy.reward.coins, artisan=fancy.reward.artisan,
                        fancy=fancy.reward.fancy, good_choice=fancy.reward.good_choice)
        gives = reward_facts(extras, rep) if kind == A.REVEAL else f"{rep} Rep"
        return f"→ {gives or 'nothing'}", fancy.id
    if kind == A.USE_ABILITY:
        shop = SHOPS[a]
        return f"— {short(shop.ability_text)}", shop.id
    if kind == A.VISIT:
        facts = f"→ {gathered(s, a)}"
        owed = occupants(s, p, a)
        if owed:
            names = s.options.player_names()
            facts += ", gift 1 to " + " and 1 to ".join(names[q] for q in owed)
        return facts, SHOPS[a].id
    if kind == A.GATHER and frame and frame[0] == D_ACTION:
        return f"→ {gathered(s, frame[2])}", None
    if kind in (A.TAKE_GOOD, A.GAIN_GOOD, A.CHOOSE_TYPE, A.DISCARD_GOOD):
        return GOOD_ICONS[a], None
    if kind == A.RETURN:
        return _good(a), None
    if kind == A.GAIN_TWO:
        return GOOD_ICONS[a] * b, None
    if kind == A.GAIN_SET:
        return "".join(GOOD_ICONS[g] for g in range(NUM_GOODS) if a >> g & 1), None
    if kind == A.EXCHANGE_GOOD:
        return f"{GOOD_ICONS[a]} → {GOOD_ICONS[b]}", None
    if kind in (A.GIVE, A.GIFT):
        facts = _good(a)
        per = _op_param(s, "per") if kind == A.GIFT else None
        if per is not None and not per.is_empty():
            facts += f" → {reward_facts(per)}"
        return facts, None
    if kind == A.GIFT_EACH and frame and frame[0] == D_GIFT_EACH:
        rep = OPS[frame[3]][frame[4]].params.get("per_gift_rep", 0) * len(recipients(s, p))
        return (f"→ {rep} Rep" if rep else ""), None
    if kind == A.PAY:
        return f"{GOOD_ICONS[a] * b}{' + ' + _plural(c, 'Coin') if c else ''}", None
    if kind == A.FIRE:
        place = _where(s, a) or ("in your hand" if a in s.hand[p] else "in the Park")
        return (f"{GOOD_ICONS[ART_TYPE[a]]} {place}: {FIRE_UP_SHORT[ART_TYPE[a]]}",
                art[a].id)
    if kind == A.SWAP:
        facts = f"{GOOD_ICONS[ART_TYPE[a]]} {_where(s, a)}"
        if frame and frame[0] == D_SWAP_FIRE:
            facts += f", then: {FIRE_UP_SHORT[ART_TYPE[a]]}"
        return facts, art[a].id
    if kind == A.PICK:
        return f"{GOOD_ICONS[ART_TYPE[a]]} {_where(s, a)}", art[a].id
    if kind in (A.DRAW_PARK, A.KEEP_ARTISAN, A.DISCARD, A.PARK_BOTTOM, A.GIFT_ARTISAN):
        return GOOD_ICONS[ART_TYPE[a]], art[a].id
    if kind in (A.PICK_COMPANION, A.USE_COMPANION):
        comp = CATALOG.companions[a]
        return f"— {short(comp.text)}", comp.id
    if kind == A.DRAW_DECK:
        return "(unseen)", None
    return "", None


def describe(s: GameState, action: Action) -> Choice:
    """An action of the seat to act with its facts, from what that seat may see."""
    p = s.stack[-1][1] if s.stack else -1
    facts, card = _facts(s, p, action)
    return Choice(text(s, action), facts, card)


def choices(s: GameState) -> list[Choice]:
    """``legal_actions(s)`` described, in the same order."""
    return [describe(s, a) for a in legal_actions(s)]
