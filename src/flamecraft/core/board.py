"""Small queries and changes of the board and the players' supplies, shared by every rule.

Everything that draws from a deck goes through here, so the end-of-game trigger (the last card
of the Artisan or Enchantment deck drawn or revealed, ruling 17) is checked in one place.
"""

from __future__ import annotations

from typing import Final

from .cards import ANY_SLOT, CompanionCard, Reward, load_catalog
from .frames import D_DRAW_ARTISAN, D_GAIN_GOOD, NOWHERE, P_RUN, SUPPLY
from .goods import NUM_GOODS
from .state import COMPLETED, EMPTY, GIFTS, PLACED, SRC_SLOT, GameState

CATALOG: Final = load_catalog()
ART_TYPE: Final = CATALOG.artisan_types
SHOPS: Final = CATALOG.shops
HAND_LIMIT: Final = 6
GOODS_LIMIT: Final = 7
ROW_SIZE: Final = 5
COMPANIONS: Final = CATALOG.companions


def add_rep(s: GameState, p: int, amount: int, source: int) -> None:
    s.rep[p] += amount
    s.rep_sources[p][source] += amount


def check_end(s: GameState) -> None:
    if not s.end_triggered and (not s.artisan_deck or not s.ench_deck):
        s.end_triggered = True


def draw_artisan_from_deck(s: GameState, p: int) -> None:
    """The top Artisan Dragon into p's hand (nothing if the deck is empty)."""
    if s.artisan_deck:
        s.hand[p].append(s.artisan_deck.pop())
        check_end(s)


def take_from_park(s: GameState, p: int, dragon: int) -> None:
    s.park.remove(dragon)
    s.hand[p].append(dragon)


def draw_fancy(s: GameState, p: int) -> int:
    """The top Fancy Dragon into p's hidden Fancy Dragons; -1 if the deck is empty."""
    if not s.fancy_deck:
        return -1
    card = s.fancy_deck.pop()
    s.fancy[p].append(card)
    return card


def refill_park(s: GameState) -> None:
    size = s.options.variant.park  # the rules' 5 (ROW_SIZE), or a research variant's
    while len(s.park) < size and s.artisan_deck:
        s.park.append(s.artisan_deck.pop())
        check_end(s)


def refill_row(s: GameState) -> None:
    size = s.options.variant.row  # the rules' 5, or a research variant's
    while len(s.ench_row) < size and s.ench_deck:
        s.ench_row.append(s.ench_deck.pop())
        check_end(s)


def gain_reward(s: GameState, p: int, reward: Reward, source: int, times: int = 1) -> None:
    """Gains a reward; draws of Artisan Dragons and Goods of choice become decisions."""
    if reward.rep:
        add_rep(s, p, reward.rep * times, source)
    if reward.coins:
        s.coins[p] += reward.coins * times
    for _ in range(reward.fancy * times):
        draw_fancy(s, p)
    for _ in range(reward.artisan * times):
        s.stack.append((D_DRAW_ARTISAN, p, NOWHERE))
    for _ in range(reward.good_choice * times):
        s.stack.append((D_GAIN_GOOD, p, NOWHERE))


def give_item(s: GameState, p: int, item: int, to: int) -> None:
    """p gives 1 Good (0-5) or 1 Coin (6) to player ``to`` (or to the supply in a solo game,
    ``to == SUPPLY``); counts as a gift given."""
    if item == NUM_GOODS:
        s.coins[p] -= 1
        if to != SUPPLY:
            s.coins[to] += 1
    else:
        s.goods[p][item] -= 1
        if to != SUPPLY:
            s.goods[to][item] += 1
    count_gift(s, p)


def recipients(s: GameState, p: int) -> list[int]:
    """Whom p may gift to: every other player, or the supply in a solo game."""
    return [q for q in range(s.n) if q != p] if s.n > 1 else [SUPPLY]


def count_gift(s: GameState, p: int) -> None:
    """Counts 1 gift given by p, and triggers an ``after_gift`` Companion (Santa Claws)."""
    s.counters[p][GIFTS] += 1
    card = companion_ready(s, p, "after_gift")
    if card is not None and p == s.current:
        use_companion(s, p)
        s.stack.append((P_RUN, p, NOWHERE, card.effect, 0, -1))


def companion_ready(s: GameState, p: int, hook: str) -> CompanionCard | None:
    """p's Companion if it acts on ``hook`` and has a use left this game and this turn."""
    index = s.companion[p]
    if index == EMPTY:
        return None
    card = COMPANIONS[index]
    if card.hook != hook:
        return None
    if card.uses_per_game and s.companion_uses[p] >= card.uses_per_game:
        return None
    if card.per_turn and s.companion_turn[p] >= card.per_turn:
        return None
    return card


def use_companion(s: GameState, p: int) -> None:
    s.companion_uses[p] += 1
    s.companion_turn[p] += 1


def held_items(s: GameState, p: int) -> list[int]:
    """The Goods types p holds, then the Coin (6) if p has Coins: what p can give."""
    items = [g for g in range(NUM_GOODS) if s.goods[p][g]]
    if s.coins[p]:
        items.append(NUM_GOODS)
    return items


def one_per_type(cards: list[int]) -> list[int]:
    """The first card of each Artisan type: dragons of one type are interchangeable, so
    offering one of each keeps decisions small."""
    seen = 0
    out = []
    for card in cards:
        bit = 1 << ART_TYPE[card]
        if not seen & bit:
            seen |= bit
            out.append(card)
    return out


def dragons_at(s: GameState, shop: int) -> list[int]:
    base = shop * 3
    return [d for d in s.slots[base:base + 3] if d != EMPTY]


def town_dragons(s: GameState) -> list[tuple[int, int]]:
    """(dragon, shop) for every Artisan Dragon in the face-up Town."""
    out = []
    for shop in s.town_shops():
        base = shop * 3
        for d in s.slots[base:base + 3]:
            if d != EMPTY:
                out.append((d, shop))
    return out


def locate(s: GameState, dragon: int) -> int:
    """The index into ``slots`` holding this dragon, or -1."""
    try:
        return s.slots.index(dragon)
    except ValueError:
        return -1


def placements(s: GameState, cards: list[int], scope: int) -> list[tuple[int, int, int]]:
    """(dragon, shop, slot) for each card (one per type) and each empty matching slot, at Shop
    ``scope`` or anywhere in Town when scope is -1."""
    shops = [scope] if scope >= 0 else s.town_shops()
    candidates = one_per_type(cards)
    out = []
    slots = s.slots
    for shop in shops:
        base = shop * 3
        card = SHOPS[shop]
        for k in range(3):
            if slots[base + k] != EMPTY:
                continue
            accepts = card.slots[k].accepts
            anything = accepts[0] == ANY_SLOT
            for d in candidates:
                if anything or ART_TYPE[d] in accepts:
                    out.append((d, shop, k))
    return out


def has_empty_slot(s: GameState, scope: int) -> bool:
    """Whether Shop ``scope`` (or any face-up Shop, scope -1) has an empty slot: where some
    hand could place, which is what the table can tell about a hidden hand."""
    slots = s.slots
    for shop in [scope] if scope >= 0 else s.town_shops():
        base = shop * 3
        if slots[base] == EMPTY or slots[base + 1] == EMPTY or slots[base + 2] == EMPTY:
            return True
    return False


def place(s: GameState, p: int, dragon: int, shop: int, slot: int) -> None:
    """Puts a dragon (from p's hand or the Park) on a slot: the slot's reward, and a new Shop
    when this fills the Shop's last slot (ruling 9)."""
    if dragon in s.hand[p]:
        s.hand[p].remove(dragon)
    else:
        s.park.remove(dragon)
    base = shop * 3
    s.slots[base + slot] = dragon
    s.counters[p][PLACED] += 1
    if EMPTY not in s.slots[base:base + 3]:
        s.counters[p][COMPLETED] += 1
        draw_new_shop(s)
    gain_reward(s, p, SHOPS[shop].slots[slot].reward, SRC_SLOT)


def draw_new_shop(s: GameState) -> None:
    """The top of the Shop deck, face down, onto the first empty Town space (ruling 9: the
    space is the engine's choice, since spaces have no effect on play)."""
    if not s.shop_deck or EMPTY not in s.town:
        return
    shop = s.shop_deck.pop()
    s.town[s.town.index(EMPTY)] = shop
    s.facedown.append(shop)


def empty_coin_slots(s: GameState) -> int:
    count = 0
    for shop in s.town_shops():
        base = shop * 3
        for k in range(3):
            if s.slots[base + k] == EMPTY and SHOPS[shop].slots[k].reward.coins:
                count += 1
    return count


def shop_goods(shop: int) -> int:
    """Bit mask of the Goods a Shop's own icon can give (all six at a rainbow Shop)."""
    icon = SHOPS[shop].icon
    if icon < NUM_GOODS:
        return 1 << icon
    return 0b111111 if icon == 6 else 0
