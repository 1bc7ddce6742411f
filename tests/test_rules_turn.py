"""A turn by the rules: visiting, Gathering, Enchanting, when dragons fire up, and the end of
the turn (rules "Taking a Turn" to "Ending Your Turn", rulings 5–16)."""

from __future__ import annotations

import pytest

from flamecraft import GameState, apply, apply_in_place, legal_actions, parse_action, start, to_act
from flamecraft.core.board import CATALOG
from flamecraft.core.state import COMPLETED, EMPTY, GIFTS, PLACED
from helpers import (
    A,
    E,
    S,
    add_shop,
    clear_fancy,
    clear_hand,
    do,
    end_turn,
    finish_turn,
    fresh,
    gather,
    set_goods,
    set_park,
    set_row,
    sound,
    stand,
    texts,
    to_hand,
    to_row,
    to_slot,
    tuck,
)

BREAD, MEAT, IRON, POTION, CRYSTAL, PLANT = range(6)
STARTER_VISITS = ["visit Critical Rolls", "visit Draco Bell", "visit Smith Mart",
                  "visit Potable Potions", "visit Fragile Reptile", "visit Hello Nursery"]


def decline_until(s: GameState, prefix: str) -> GameState:
    """Declines optional steps ("do not …", "stop …") until an action starting with
    ``prefix`` is offered (fails if the turn ends first)."""
    turn = s.turn
    while not any(t.startswith(prefix) for t in texts(s)):
        assert s.turn == turn, f"the turn ended before {prefix!r} was offered"
        declines = [t for t in texts(s) if t.startswith(("do not", "stop"))]
        assert declines, f"{prefix!r} not offered and nothing to decline: {texts(s)}"
        do(s, declines[0])
    return s


def hand_names(s: GameState, p: int) -> list[str]:
    return sorted(CATALOG.artisans[d].name for d in s.hand[p])


# --- visiting ---------------------------------------------------------------------------------

def test_first_visit_may_be_any_shop() -> None:
    """Ruling 5: Flamekeepers start outside the Town, so the first visit of the game may be to
    any Shop."""
    s = fresh(2, seed=0)
    assert texts(s) == STARTER_VISITS
    finish_turn(do(s, "visit Smith Mart"))
    # The second player's first visit: any Shop but the occupied one (they cannot pay).
    assert texts(s) == [t for t in STARTER_VISITS if t != "visit Smith Mart"]
    set_goods(s, 1, BREAD=1)
    assert texts(s) == STARTER_VISITS


def test_must_visit_a_shop_other_than_last_turns() -> None:
    """Rules, Visiting a Shop, and ruling 6: you must choose a different Shop than you visited
    on your last turn (only that one is barred)."""
    s = fresh(2, seed=0)
    finish_turn(do(s, "visit Critical Rolls"))
    finish_turn(do(s, "visit Smith Mart"))
    assert to_act(s) == 0
    assert "visit Critical Rolls" not in texts(s)
    assert "visit Draco Bell" in texts(s)
    finish_turn(do(s, "visit Draco Bell"))
    finish_turn(do(s, "visit Potable Potions"))
    assert "visit Critical Rolls" in texts(s)  # two turns ago is allowed again
    assert "visit Draco Bell" not in texts(s)


def test_visiting_an_occupied_shop_gives_each_occupant_a_good_or_coin() -> None:
    """Rules, Visiting a Shop, and ruling 7: to visit a Shop where another player stands you
    give that player 1 Good or 1 Coin of your choice; the item moves and counts as a gift."""
    s = fresh(2, seed=0)
    finish_turn(do(s, "visit Critical Rolls"))
    set_goods(s, 1, coins=1, MEAT=1)
    before_p1 = (s.goods[0][:], s.coins[0])
    do(s, "visit Critical Rolls")
    assert texts(s) == ["give Meat to P1", "give Coin to P1"]
    coin = apply(s, parse_action(s, "give Coin to P1"))
    assert coin.coins == [before_p1[1] + 1, 0]
    assert coin.goods[1][MEAT] == 1 and coin.goods[0] == before_p1[0]
    meat = apply(s, parse_action(s, "give Meat to P1"))
    assert meat.coins == [before_p1[1], 1]
    assert meat.goods[1][MEAT] == 0 and meat.goods[0][MEAT] == before_p1[0][MEAT] + 1
    for after in (coin, meat):
        assert after.counters[1][GIFTS] == 1
        assert after.pos == [S["critical-rolls"]] * 2  # both now stand there
        sound(after)


def test_visiting_a_shop_with_two_occupants_gives_to_each() -> None:
    """Ruling 7: one Good or Coin to EACH other Flamekeeper already at the Shop, chosen per
    recipient."""
    s = fresh(4, seed=0)
    stand(s, 1, "draco-bell")
    stand(s, 2, "draco-bell")
    set_goods(s, 0, coins=1, BREAD=1)
    do(s, "visit Draco Bell")
    assert texts(s) == ["give Bread to P2", "give Coin to P2"]
    do(s, "give Bread to P2")  # the Coin is all that is left: given to P3 at once
    assert s.goods[1][BREAD] == 1 and s.coins[2] == 1
    assert s.goods[0][BREAD] == 0 and s.coins[0] == 0
    assert s.counters[0][GIFTS] == 2
    sound(s)


@pytest.mark.parametrize(("occupants", "wealth", "allowed"), [
    (1, (0, 0), False), (1, (1, 0), True), (1, (0, 1), True),
    (2, (1, 0), False), (2, (0, 1), False), (2, (1, 1), True), (2, (2, 0), True),
    (3, (1, 1), False), (3, (2, 1), True),
])
def test_cannot_visit_if_you_cannot_give_one_to_each(occupants: int, wealth: tuple[int, int],
                                                     allowed: bool) -> None:
    """Ruling 7: if you cannot give a Good or Coin to each player at a Shop, you cannot visit
    that Shop (Goods and Coins both count)."""
    s = fresh(4, seed=0)
    for p in range(1, occupants + 1):
        stand(s, p, "hello-nursery")
    goods, coins = wealth
    set_goods(s, 0, coins=coins, IRON=goods)
    assert ("visit Hello Nursery" in texts(s)) is allowed
    assert [t for t in texts(s) if t != "visit Hello Nursery"] == STARTER_VISITS[:5]


def test_face_down_shops_cannot_be_visited() -> None:
    """Rules, Expand Town, and ruling 9: a Shop drawn face down is not in play until it is
    flipped at the end of the turn."""
    s = fresh(2, seed=0)
    add_shop(s, "fogo-de-char")
    s.facedown.append(S["fogo-de-char"])
    s.cache = None
    assert texts(s) == STARTER_VISITS
    s.facedown.clear()
    s.cache = None
    assert texts(s) == [*STARTER_VISITS, "visit Fogo de Char"]


# --- gathering --------------------------------------------------------------------------------

def test_gather_gives_the_shop_good_and_one_per_dragon_and_enchantment() -> None:
    """Rules, Gather Goods, and ruling 8: the Shop's icon gives its Good, and each Artisan
    Dragon and each Enchantment at the Shop gives 1 of its own Good."""
    s = fresh(2, seed=0)
    clear_hand(s, 0)
    to_slot(s, "draco-bell", 1, "flint")  # an Iron dragon beside Hickory (Meat)
    tuck(s, "draco-bell", "le-flamberge")  # a Meat Enchantment
    set_goods(s, 0, PLANT=1)
    do(s, "visit Draco Bell")
    # Icon 1 Meat + Hickory 1 Meat + Le Flamberge 1 Meat; Flint 1 Iron; nothing else.
    assert s.goods[0] == [0, 3, 1, 0, 0, 1]
    assert s.coins[0] == 0 and s.hand[0] == []


def test_gather_at_a_rainbow_shop_gives_a_good_of_choice_never_a_coin() -> None:
    """Rules, Gather Goods, and ruling 8: a rainbow icon gives 1 Good of your choice; Coins
    are not Goods, so they cannot be chosen. An Enchantment there gives its own Good."""
    s = fresh(2, seed=0)
    add_shop(s, "bizarre-bazaar")
    tuck(s, "bizarre-bazaar", "wraith-rose")  # a Plant Enchantment
    clear_hand(s, 0)
    do(s, "visit Bizarre Bazaar")
    assert texts(s) == ["gain Bread", "gain Meat", "gain Iron", "gain Potion", "gain Crystal",
                        "gain Plant"]
    do(s, "gain Potion")
    assert s.goods[0] == [0, 0, 0, 1, 0, 1]
    assert s.coins[0] == 0


@pytest.mark.parametrize(("shop", "coins"), [("dragon-alley", 1), ("maw-paws", 1),
                                             ("wishing-well", 3)])
def test_gather_at_a_coin_shop_gives_coins(shop: str, coins: int) -> None:
    """Rules, Gather Goods, and ruling 8: a Coin icon gives a Coin (Wishing Well's icon gives
    3, card data); no Good."""
    s = fresh(2, seed=0)
    add_shop(s, shop)
    clear_hand(s, 0)
    do(s, f"visit {CATALOG.shops[S[shop]].name}")
    assert s.coins[0] == coins
    assert s.goods[0] == [0] * 6


def test_gather_at_a_dragon_shop_draws_from_the_park_or_the_deck_top() -> None:
    """Rules, Gather Goods, and ruling 8: a Dragon icon draws 1 Artisan Dragon of your choice
    from the Park or the top of the Artisan deck."""
    s = fresh(2, seed=0)
    add_shop(s, "sew-cute")
    clear_hand(s, 0)
    set_park(s, "honey", "cutlet", "rusty", "jasmine", "frostfire")  # one of each type
    do(s, "visit Sew Cute")
    park_names = [f"draw {CATALOG.artisans[d].name} from the Park" for d in s.park]
    assert texts(s) == [*park_names, "draw from the Artisan deck"]
    top = s.artisan_deck[-1]
    from_deck = apply(s, parse_action(s, "draw from the Artisan deck"))
    assert from_deck.hand[0] == [top] and from_deck.park == s.park
    assert from_deck.goods[0] == [0] * 6
    # Gather step 1 comes before step 2: the drawn dragon may be placed at once.
    name = CATALOG.artisans[top].name
    assert texts(from_deck) == [f"place {name} on Sew Cute slot {k}" for k in (1, 2, 3)] + [
        "do not place"]
    chosen = s.park[2]
    from_park = apply(s, parse_action(s, park_names[2]))
    assert from_park.hand[0] == [chosen] and chosen not in from_park.park
    assert from_park.artisan_deck == s.artisan_deck


def test_place_only_a_matching_dragon_on_an_empty_slot_of_this_shop() -> None:
    """Rules, Place a Dragon, and ruling 9: placing is optional; the dragon's icon must match
    an icon of an EMPTY slot of the Shop you visit (a rainbow slot takes any dragon); no
    other Shop's slots are offered."""
    s = fresh(2, seed=0)
    add_shop(s, "fogo-de-char")
    clear_hand(s, 0)
    to_hand(s, 0, "cutlet", "rusty", "jasmine", "honey")
    at_draco = apply(s, parse_action(s, "visit Draco Bell"))
    # Draco Bell: slot 1 holds Hickory; slot 2 takes Meat or Iron; slot 3 takes Iron.
    assert texts(at_draco) == ["place Cutlet on Draco Bell slot 2",
                               "place Rusty on Draco Bell slot 2",
                               "place Rusty on Draco Bell slot 3", "do not place"]
    to_slot(s, "fogo-de-char", 0, "skewart")
    do(s, "visit Fogo de Char")
    # Fogo de Char: slot 1 (Meat) is taken; slot 2 takes Potion or Bread; slot 3 is rainbow.
    assert texts(s) == ["place Jasmine on Fogo de Char slot 2",
                        "place Honey on Fogo de Char slot 2",
                        "place Cutlet on Fogo de Char slot 3",
                        "place Rusty on Fogo de Char slot 3",
                        "place Jasmine on Fogo de Char slot 3",
                        "place Honey on Fogo de Char slot 3", "do not place"]
    declined = apply(s, parse_action(s, "do not place"))
    assert len(declined.hand[0]) == 4
    assert declined.slots[S["fogo-de-char"] * 3 + 2] == EMPTY


def test_placing_gains_the_slot_reward() -> None:
    """Rules, Place a Dragon: after placing your Dragon, gain the printed rewards on the slot
    you filled (here 1 Coin, a Fancy Dragon, Reputation)."""
    s = fresh(2, seed=0)
    add_shop(s, "fogo-de-char")
    clear_hand(s, 0)
    to_hand(s, 0, "cutlet", "rusty")
    do(s, "visit Draco Bell")
    coin = apply(s, parse_action(s, "place Cutlet on Draco Bell slot 2"))
    assert coin.coins[0] == 1 and coin.slots[S["draco-bell"] * 3 + 1] == A["cutlet"]
    assert coin.hand[0] == [A["rusty"]] and coin.counters[0][PLACED] == 1
    top_fancy = s.fancy_deck[-1]
    fancy = apply(s, parse_action(s, "place Rusty on Draco Bell slot 3"))
    assert fancy.fancy[0] == [*s.fancy[0], top_fancy] and fancy.coins[0] == 0
    s2 = fresh(2, seed=0)
    add_shop(s2, "fogo-de-char")
    clear_hand(s2, 0)
    to_hand(s2, 0, "cutlet")
    do(s2, "visit Fogo de Char", "place Cutlet on Fogo de Char slot 1")
    assert s2.rep[0] == 3


def test_filling_the_last_slot_draws_a_shop_face_down_flipped_at_end_of_turn() -> None:
    """Rules, Place a Dragon and Expand Town, and ruling 9: filling a Shop's last empty slot
    draws the top Shop of the Shop deck at once, face down onto an empty Town space; it is
    flipped face up at the end of the turn."""
    s = fresh(2, seed=0)
    clear_hand(s, 0)
    to_hand(s, 0, "rusty", "patina")
    to_slot(s, "draco-bell", 1, "flint")
    new = s.shop_deck[-1]
    do(s, "visit Draco Bell", "place Rusty on Draco Bell slot 3")
    assert s.shop_deck[-1] != new and new not in s.shop_deck
    assert s.town[6] == new and s.facedown == [new]
    assert new not in s.town_shops()
    assert s.counters[0][COMPLETED] == 1
    # Still face down during the rest of the turn: the fire-up offers no dragon from it.
    assert texts(s) == ["fire up Hickory", "fire up Flint", "fire up Rusty", "do not fire up"]
    finish_turn(s)
    assert s.facedown == [] and new in s.town_shops()
    assert f"visit {CATALOG.shops[new].name}" in texts(s)
    sound(s)


def test_filling_the_last_slot_draws_nothing_when_town_full_or_deck_empty() -> None:
    """Ruling 9: with no empty Town space, or no Shop left in the Shop deck, completing a
    Shop draws nothing (it still counts as completing it)."""
    full = fresh(2, seed=0)
    for shop in full.shops_unused[:6]:
        add_shop(full, CATALOG.shops[shop].id)
    assert EMPTY not in full.town
    empty = fresh(2, seed=0)
    empty.shops_unused.extend(empty.shop_deck)
    empty.shop_deck.clear()
    for s in (full, empty):
        clear_hand(s, 0)
        to_hand(s, 0, "rusty")
        to_slot(s, "draco-bell", 1, "flint")
        town, deck = s.town[:], s.shop_deck[:]
        do(s, "visit Draco Bell", "place Rusty on Draco Bell slot 3")
        assert s.town == town and s.shop_deck == deck and s.facedown == []
        assert s.counters[0][COMPLETED] == 1
        sound(s)


def test_gather_fires_up_at_most_one_dragon_which_may_be_the_one_just_placed() -> None:
    """Rules, Fire Up a Dragon (Gather step 3): you may use the ability of any 1 Artisan
    Dragon at the Shop, including the Dragon you just placed; then no other."""
    s = fresh(2, seed=0)
    clear_hand(s, 0)
    to_hand(s, 0, "rusty")
    to_slot(s, "draco-bell", 2, "flint")
    do(s, "visit Draco Bell", "place Rusty on Draco Bell slot 2")
    assert texts(s) == ["fire up Hickory", "fire up Rusty", "fire up Flint", "do not fire up"]
    do(s, "fire up Rusty", "gain 2 Iron")
    # One fire-up only: the turn ends (a starter Shop has no ability step).
    end_turn(s)
    assert s.current == 1 and s.turn == 2
    assert s.goods[0] == [0, 2, 3, 0, 0, 0]  # gathered 2 Meat and 1 Iron, then 2 Iron


def test_shop_ability_is_optional_and_only_when_gathering() -> None:
    """Rules, Use Shop Ability, and ruling 10: after Gathering you may use the Shop's ability
    (or not); never when Enchanting the Shop."""
    s = fresh(2, seed=0)
    add_shop(s, "fogo-de-char")
    clear_hand(s, 0)
    to_slot(s, "fogo-de-char", 0, "cutlet")
    to_row(s, "displacer-beef")
    set_goods(s, 0, BREAD=2, IRON=3)
    do(s, "visit Fogo de Char")
    assert texts(s) == ["gather", "enchant"]
    gathering = apply(s, parse_action(s, "gather"))
    decline_until(gathering, "use ")
    assert texts(gathering) == ["use Stoke the Grill", "do not use the Shop ability"]
    declined = apply(gathering, parse_action(gathering, "do not use the Shop ability"))
    assert end_turn(declined).current == 1
    do(s, "enchant")  # the only cast is taken at once; its reward draws a dragon
    seen: list[str] = []
    while s.current == 0:
        seen.extend(texts(s))
        do(s, next(t for t in texts(s) if t.startswith(("stop", "draw from", "end turn"))))
    assert s.shop_ench[S["fogo-de-char"]] == (E["displacer-beef"],)
    assert not any(t.startswith("use ") for t in seen)


def test_starter_shops_have_no_ability() -> None:
    """Rules, Preparation 1, and ruling 10: starter Shops have no ability: after the fire-up
    step the turn ends."""
    s = fresh(2, seed=0)
    clear_hand(s, 0)
    do(s, "visit Critical Rolls")
    assert texts(s) == ["fire up Pan", "do not fire up"]
    do(s, "do not fire up")
    assert end_turn(s).current == 1


# --- enchanting -------------------------------------------------------------------------------

RICH = {g: 7 for g in ("BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT")}


@pytest.mark.parametrize(("shop", "enchantable"), [
    ("draco-bell", True), ("bizarre-bazaar", True), ("fogo-de-char", True),
    ("sew-cute", False), ("draggin-tail-roost", False), ("dragon-alley", False),
    ("wishing-well", False),
])
def test_only_good_or_rainbow_shops_can_be_enchanted(shop: str, enchantable: bool) -> None:
    """Rules, Enchanting a Shop, and ruling 11: Shops with a Dragon or Coin icon cannot be
    Enchanted; Good and rainbow Shops can."""
    s = fresh(2, seed=0)
    add_shop(s, shop)
    clear_fancy(s, 0)  # no Sun Dragon to reveal: a single choice is taken at once
    to_row(s, "displacer-beef")
    set_goods(s, 0, coins=5, **RICH)
    do(s, f"visit {CATALOG.shops[S[shop]].name}")
    assert ("enchant" in texts(s)) is enchantable
    if not enchantable:  # gathering went ahead by itself
        assert s.coins[0] > 5 or len(s.hand[0]) > 3 or texts(s)[0].startswith("draw")


def _casts(s: GameState) -> list[str]:
    return sorted(t for t in texts(s) if t.startswith("cast "))


def test_enchantment_must_match_the_shop_icon_rainbow_takes_any() -> None:
    """Rules, Enchanting a Shop, and ruling 11: the Enchantment must match the Shop's icon; a
    rainbow Shop takes any Enchantment."""
    s = fresh(2, seed=0)  # row: Ring of Destiny, Displacer Beef, Smoked Gorgon, Smelting Pot,
    add_shop(s, "bizarre-bazaar")  # Imp'anadas
    set_goods(s, 0, coins=0, **RICH)
    meat = do(apply(s, parse_action(s, "visit Draco Bell")), "enchant")
    assert _casts(meat) == ["cast Displacer Beef", "cast Smoked Gorgon with 1 set",
                            "cast Smoked Gorgon with 2 sets", "cast Smoked Gorgon with 3 sets",
                            "cast Smoked Gorgon with 4 sets"]
    rainbow = do(apply(s, parse_action(s, "visit Bizarre Bazaar")), "enchant")
    names = {t.split(" with ")[0] for t in _casts(rainbow)}
    assert names == {f"cast {CATALOG.enchantments[e].name}" for e in s.ench_row}


def test_at_most_three_enchantments_per_shop() -> None:
    """Rules, Enchanting a Shop, and ruling 11: a Shop can have no more than 3
    Enchantments."""
    s = fresh(2, seed=0)
    add_shop(s, "bizarre-bazaar")
    set_goods(s, 0, coins=5, **RICH)
    tuck(s, "bizarre-bazaar", "wraith-rose", "elfspresso")
    assert "enchant" in texts(apply(s, parse_action(s, "visit Bizarre Bazaar")))
    tuck(s, "bizarre-bazaar", "hobbichino")
    assert "enchant" not in texts(apply(s, parse_action(s, "visit Bizarre Bazaar")))


@pytest.mark.parametrize(("goods", "coins", "castable"), [
    ({"BREAD": 2, "IRON": 3}, 0, True),
    ({"BREAD": 2, "IRON": 2}, 0, False),
    ({"BREAD": 1, "IRON": 2}, 2, True),  # Coins stand for any Goods
    ({"IRON": 3}, 2, True),
    ({"IRON": 2}, 2, False),
    ({}, 5, True),
    ({}, 4, False),
])
def test_must_be_able_to_pay_coins_stand_for_any_goods(goods: dict[str, int], coins: int,
                                                       castable: bool) -> None:
    """Rules, Enchanting a Shop, and rulings 11–12: you must be able to pay the cost; you may
    pay Coins in place of any Goods (Displacer Beef: 2 Bread, 3 Iron)."""
    s = fresh(2, seed=0)
    to_row(s, "displacer-beef")
    s.ench_row.remove(E["smoked-gorgon"])  # the only Meat card left in the row
    s.ench_deck.insert(0, E["smoked-gorgon"])
    set_goods(s, 0, coins=coins, **goods)
    do(s, "visit Draco Bell")
    assert ("enchant" in texts(s)) is castable
    if castable:
        do(s, "enchant")
        while not s.shop_ench[S["draco-bell"]]:
            do(s, texts(s)[-1])  # pay with as many Coins as offered
        assert s.shop_ench[S["draco-bell"]] == (E["displacer-beef"],)
        spent = sum(goods.values()) + coins - sum(s.goods[0]) - s.coins[0]
        assert spent == 5  # nothing is gathered on an Enchant turn
        sound(s)


@pytest.mark.parametrize(("goods", "coins", "castable"), [
    ({"PLANT": 1, "CRYSTAL": 1, "POTION": 1}, 0, True),
    ({"PLANT": 1, "CRYSTAL": 1}, 5, False),
    ({}, 9, False),
])
def test_no_coins_enchantment_cannot_be_paid_with_coins(goods: dict[str, int], coins: int,
                                                        castable: bool) -> None:
    """Rules, Enchanting a Shop, and ruling 12: a no-coins Enchantment (Minotarts) cannot be
    paid with Coins at all."""
    s = fresh(2, seed=0, deck="golden")
    set_row(s, "minotarts", "basilisk-bourguignon", "light-sabre", "kobold-kettle", "milky-bear")
    set_goods(s, 0, coins=coins, **goods)
    do(s, "visit Critical Rolls")
    assert ("enchant" in texts(s)) is castable


@pytest.mark.parametrize(("goods", "coins", "castable"), [
    ({"POTION": 1, "IRON": 3}, 0, False),  # the printed Coin needs a Coin
    ({"POTION": 1, "IRON": 3}, 1, True),
    ({"IRON": 3}, 1, False),  # one Coin cannot pay both the printed Coin and the Potion
    ({"IRON": 3}, 2, True),
    ({"BREAD": 9, "MEAT": 9}, 1, False),
])
def test_printed_coin_must_be_paid_with_a_coin(goods: dict[str, int], coins: int,
                                               castable: bool) -> None:
    """Card data format and design §0: a Coin printed in a cost (Griffin Muffins: 1 Coin,
    1 Potion, 3 Iron) must be paid with a Coin; other Goods of the cost may still be paid
    with Coins."""
    s = fresh(2, seed=0, deck="golden")
    clear_fancy(s, 0)
    set_row(s, "griffin-muffins", "basilisk-bourguignon", "light-sabre", "kobold-kettle",
            "milky-bear")
    set_goods(s, 0, coins=coins, **goods)
    do(s, "visit Critical Rolls")
    assert ("enchant" in texts(s)) is castable
    if castable:
        do(s, "enchant")  # the one cast and the one way to pay are taken at once
        assert s.shop_ench[S["critical-rolls"]] == (E["griffin-muffins"],)
        assert s.coins[0] == 0 and s.goods[0] == [0] * 6
        assert s.rep[0] == 4 and len(s.fancy[0]) == 1  # its reward: 4 Reputation, a Fancy
        sound(s)


def test_variable_enchantment_is_paid_in_whole_sets_one_set_gives_nothing() -> None:
    """Rules, Enchanting a Shop, and ruling 12: a variable Enchantment is paid in whole sets,
    at least one; 1 set alone gives 0 Reputation, N sets give the card's Reputation for N
    (Mirror of Truth: 1 Iron + 1 Potion per set; 0, 3, 6, 9)."""
    s = fresh(2, seed=0)
    clear_fancy(s, 0)
    set_row(s, "mirror-of-truth", "smelting-pot", "displacer-beef", "le-flamberge",
            "wraith-rose")
    set_goods(s, 0, coins=1, IRON=2, POTION=3, BREAD=1)
    do(s, "visit Fragile Reptile", "enchant")
    # 3 sets need 3 Iron + 3 Potion: 1 Coin covers the missing Iron. 4 sets would need 2.
    assert texts(s) == ["cast Mirror of Truth with 1 set", "cast Mirror of Truth with 2 sets",
                        "cast Mirror of Truth with 3 sets"]
    results = {}
    for sets in (1, 2, 3):
        typed = f"cast Mirror of Truth with {sets} set" + ("s" if sets > 1 else "")
        after = apply(s, parse_action(s, typed))
        while after.current == 0 and not after.shop_ench[S["fragile-reptile"]]:
            do(after, texts(after)[0])  # pay with as few Coins as possible
        results[sets] = after
        assert after.shop_ench[S["fragile-reptile"]] == (E["mirror-of-truth"],)
    assert [results[n].rep[0] for n in (1, 2, 3)] == [0, 3, 6]
    assert results[1].goods[0][IRON:POTION + 1] == [1, 2] and results[1].coins[0] == 1
    assert results[2].goods[0][IRON:POTION + 1] == [0, 1] and results[2].coins[0] == 1
    assert results[3].goods[0][IRON:POTION + 1] == [0, 0] and results[3].coins[0] == 0
    assert results[3].goods[0][BREAD] == 1  # nothing but the sets is paid


def test_payment_choice_is_offered_only_when_goods_and_coins_both_can_pay() -> None:
    """Rules, Enchanting a Shop, and ruling 12: you may pay Coins in place of Goods, so when
    both are possible you choose; with one way to pay there is no question (Displacer Beef:
    2 Bread, 3 Iron)."""
    s = fresh(2, seed=0)
    clear_fancy(s, 0)
    set_row(s, "displacer-beef", "smelting-pot", "mirror-of-truth", "wraith-rose",
            "elfspresso")
    set_goods(s, 0, coins=1, BREAD=2, IRON=3)
    do(s, "visit Draco Bell", "enchant")
    assert texts(s) == ["pay Bread with 2 Bread and 0 Coins", "pay Bread with 1 Bread and 1 Coin"]
    coin = apply(s, parse_action(s, "pay Bread with 1 Bread and 1 Coin"))
    assert coin.goods[0][BREAD] == 1 and coin.goods[0][IRON] == 0 and coin.coins[0] == 0
    goods = apply(s, parse_action(s, "pay Bread with 2 Bread and 0 Coins"))
    assert texts(goods) == ["pay Iron with 3 Iron and 0 Coins", "pay Iron with 2 Iron and 1 Coin"]
    # Exactly the Goods and no Coin: nothing to choose.
    t = fresh(2, seed=0)
    clear_fancy(t, 0)
    set_row(t, "displacer-beef", "smelting-pot", "mirror-of-truth", "wraith-rose", "elfspresso")
    set_goods(t, 0, coins=0, BREAD=2, IRON=3)
    do(t, "visit Draco Bell", "enchant")
    assert t.shop_ench[S["draco-bell"]] == (E["displacer-beef"],)
    assert t.goods[0] == [0] * 6
    # Only Coins can pay the Bread: nothing to choose either.
    u = fresh(2, seed=0)
    clear_fancy(u, 0)
    set_row(u, "displacer-beef", "smelting-pot", "mirror-of-truth", "wraith-rose", "elfspresso")
    set_goods(u, 0, coins=2, IRON=3)
    do(u, "visit Draco Bell", "enchant")
    assert u.shop_ench[S["draco-bell"]] == (E["displacer-beef"],)
    assert u.goods[0] == [0] * 6 and u.coins[0] == 0


def test_reserved_enchantment_only_its_owner_on_a_matching_shop() -> None:
    """Rules, Reserving Enchantments, and ruling 14: you may cast your reserved Enchantment
    instead of one from the row, on a Shop it matches; other players may not cast it."""
    s = fresh(2, seed=0)
    clear_fancy(s, 0)
    clear_fancy(s, 1)
    set_row(s, "displacer-beef", "smelting-pot", "mirror-of-truth", "wraith-rose",
            "le-flamberge")
    s.ench_deck.remove(E["elfspresso"])  # Potion: 2 Iron, 3 Crystal
    s.reserved[0] = E["elfspresso"]
    for p in (0, 1):
        set_goods(s, p, IRON=2, CRYSTAL=3)
    wrong_icon = apply(s, parse_action(s, "visit Draco Bell"))
    assert "enchant" not in texts(wrong_icon)
    at_potions = apply(s, parse_action(s, "visit Potable Potions"))
    do(at_potions, "enchant")
    assert at_potions.shop_ench[S["potable-potions"]] == (E["elfspresso"],)
    assert at_potions.reserved[0] == EMPTY
    assert len(at_potions.ench_row) == 5  # the row is untouched
    sound(at_potions)
    # The other player cannot cast it.
    finish_turn(do(s, "visit Smith Mart"))
    assert to_act(s) == 1
    do(s, "visit Potable Potions")
    assert "enchant" not in texts(s)
    assert s.reserved[0] == E["elfspresso"]


def test_cast_gains_the_rewards_and_tucks_the_card_behind_the_shop() -> None:
    """Rules, Enchanting a Shop: pay the cost, gain the rewards on the card (Displacer Beef:
    4 Reputation and an Artisan Dragon), tuck it behind the Shop; the row is refilled at
    the end of the turn."""
    s = fresh(2, seed=0)
    clear_fancy(s, 0)
    set_row(s, "displacer-beef", "smelting-pot", "mirror-of-truth", "wraith-rose",
            "elfspresso")
    set_goods(s, 0, BREAD=2, IRON=3, PLANT=1)
    hand = s.hand[0][:]
    next_card = s.ench_deck[-1]
    do(s, "visit Draco Bell", "enchant")
    assert s.rep[0] == 4 and s.rep_sources[0][1] == 4
    assert s.goods[0] == [0, 0, 0, 0, 0, 1]
    assert s.shop_ench[S["draco-bell"]] == (E["displacer-beef"],)
    assert E["displacer-beef"] not in s.ench_row and len(s.ench_row) == 4
    assert texts(s)[-1] == "draw from the Artisan deck"
    top = s.artisan_deck[-1]
    do(s, "draw from the Artisan deck")
    assert s.hand[0] == [*hand, top]
    finish_turn(s)
    assert len(s.ench_row) == 5 and s.ench_row[-1] == next_card
    sound(s)


def test_enchanting_fires_up_all_dragons_each_once_including_one_that_arrives() -> None:
    """Rules, Fire Up ALL Dragons, and ruling 13: after casting you may fire up any number of
    the dragons at the Shop, in any order, each at most once; a dragon that arrives there
    during this step may be fired up too."""
    s = fresh(2, seed=0)
    clear_fancy(s, 0)
    to_slot(s, "draco-bell", 1, "flint")
    set_row(s, "displacer-beef", "smelting-pot", "mirror-of-truth", "wraith-rose",
            "elfspresso")
    set_goods(s, 0, BREAD=2, IRON=3)
    do(s, "visit Draco Bell", "enchant", "draw from the Artisan deck")  # the card's reward
    clear_hand(s, 0)  # Rusty alone in hand: Hickory's placement below is a known choice
    to_hand(s, 0, "rusty")
    assert texts(s) == ["fire up Hickory", "fire up Flint", "stop firing up"]
    do(s, "fire up Flint", "gain 2 Iron")
    assert texts(s) == ["fire up Hickory", "stop firing up"]  # Flint is spent this turn
    # Hickory (Meat) places a dragon from the hand: Rusty arrives at this Shop.
    do(s, "fire up Hickory")
    assert "place Rusty on Draco Bell slot 3" in texts(s)
    do(s, "place Rusty on Draco Bell slot 3")
    assert texts(s) == ["fire up Rusty", "stop firing up"]
    do(s, "fire up Rusty", "gain 2 Meat")
    # every dragon there has fired: the step and the turn are over
    assert end_turn(s).current == 1
    assert s.goods[0][IRON] == 2 and s.goods[0][MEAT] == 2


def test_enchant_fire_up_all_may_stop_early() -> None:
    """Rules, Fire Up ALL Dragons: firing up is optional ("any number", zero included)."""
    s = fresh(2, seed=0)
    clear_fancy(s, 0)
    set_row(s, "displacer-beef", "smelting-pot", "mirror-of-truth", "wraith-rose",
            "elfspresso")
    set_goods(s, 0, BREAD=2, IRON=3)
    do(s, "visit Draco Bell", "enchant", "draw from the Artisan deck")
    assert texts(s) == ["fire up Hickory", "stop firing up"]
    do(s, "stop firing up")
    assert end_turn(s).current == 1


# --- the end of a turn ------------------------------------------------------------------------

def test_hand_limit_discard_choice_to_the_bottom_of_the_artisan_deck() -> None:
    """Rules, Dragons & Goods Limit, and ruling 16: at the end of your turn discard down to 6
    Artisan Dragons, your choice, to the BOTTOM of the Artisan deck."""
    s = fresh(2, seed=0)
    clear_fancy(s, 0)
    clear_hand(s, 0)
    to_hand(s, 0, "honey", "fondue", "cutlet", "rusty", "jasmine", "frostfire", "olive",
            "lotus")
    do(s, "visit Smith Mart", "do not place", "do not fire up")
    end_turn(s)  # the limits are checked after the turn's last decision
    assert texts(s) == ["discard Honey", "discard Cutlet", "discard Rusty", "discard Jasmine",
                        "discard Frostfire", "discard Olive"]  # one of each type
    do(s, "discard Jasmine")
    assert s.artisan_deck[0] == A["jasmine"]
    do(s, "discard Olive")
    assert s.artisan_deck[:2] == [A["olive"], A["jasmine"]]
    assert s.current == 1
    assert hand_names(s, 0) == ["Cutlet", "Fondue", "Frostfire", "Honey", "Lotus", "Rusty"]
    sound(s)


def test_goods_limit_seven_of_each_type() -> None:
    """Rules, Dragons & Goods Limit, and ruling 16: at the end of your turn return Goods
    until you have no more than 7 of each type (Coins have no limit)."""
    s = fresh(2, seed=0)
    clear_fancy(s, 0)
    clear_hand(s, 0)
    set_goods(s, 0, coins=12, BREAD=9, MEAT=7, IRON=6, PLANT=8)
    gather(s, "critical-rolls")  # 2 Bread more: 11
    do(s, "do not fire up")
    assert end_turn(s).current == 1
    assert s.goods[0] == [7, 7, 6, 0, 0, 7]
    assert s.coins[0] == 12


def test_limits_apply_to_the_active_player_only() -> None:
    """Ruling 16: the hand and Goods limits are checked for the player whose turn ends, not
    for the others (they check at the end of their own turn)."""
    s = fresh(2, seed=0)
    clear_fancy(s, 1)
    clear_hand(s, 1)
    to_hand(s, 1, "honey", "fondue", "cookie", "cinnabun", "loaf", "suzette", "olive")
    set_goods(s, 1, BREAD=9)
    finish_turn(do(s, "visit Smith Mart"))
    assert to_act(s) == 1
    assert len(s.hand[1]) == 7 and s.goods[1][BREAD] == 9
    do(s, "visit Hello Nursery")
    finish_turn(s)  # discards the first dragon offered
    assert len(s.hand[1]) == 6 and s.goods[1][BREAD] == 7


def test_park_and_row_are_refilled_to_five_from_their_decks() -> None:
    """Rules, Refresh Park & Enchantments, and ruling 16: at the end of the turn the Park and
    the Enchantment row are refilled to 5 from the tops of their decks."""
    s = fresh(2, seed=0)
    clear_fancy(s, 0)
    add_shop(s, "sew-cute")
    taken = s.park[0]
    top = s.artisan_deck[-1]
    do(s, "visit Sew Cute", f"draw {CATALOG.artisans[taken].name} from the Park")
    assert len(s.park) == 4
    finish_turn(s)
    assert len(s.park) == 5 and s.park[-1] == top and top not in s.artisan_deck
    # The row, after a cast.
    clear_fancy(s, 1)
    set_row(s, "displacer-beef", "smelting-pot", "mirror-of-truth", "wraith-rose",
            "elfspresso")
    set_goods(s, 1, BREAD=2, IRON=3)
    next_card = s.ench_deck[-1]
    do(s, "visit Draco Bell", "enchant")
    assert len(s.ench_row) == 4
    finish_turn(s)
    assert len(s.ench_row) == 5 and s.ench_row[-1] == next_card
    sound(s)


# --- a perft-style regression -----------------------------------------------------------------

# The number of legal actions at each of the first 40 decisions of a game in which the first
# legal action is always taken. Any change to the rules (or to how decisions are split) moves
# these numbers; if a change is intended, check the new numbers by hand before updating them.
#
# Checked by hand against a trace of the actions (texts) and the state after each one:
# - 2 players, seed 0: [0] keep 1 of 2 dealt Fancy Dragons: 2. [2] P1's first visit: the 6
#   starters (ruling 5). [3] Critical Rolls with Potato (Meat), Mulch (Plant), Lavender
#   (Potion) in hand: Potato on slot 2 (Bread/Meat) or 3 (Meat), or not: 3. [5] Pan draws:
#   Park Brisket, Olive, Roxanne, Flint, Lotus is 3 types (one offer per type) + the deck: 4.
#   [6] P1's `end turn`, asked alone: 1. [7] P2 has no Good or Coin: every starter but P1's
#   Critical Rolls: 5. [8] Draco Bell takes Meat/Iron, P2 holds Silverscale, Herb, Moonbeam:
#   nothing fits, but the hand is hidden, so the placement is asked with a lone `do not
#   place`: 1. [9] only Hickory or not: 2. [10] Hickory (Meat) must place anywhere: Crystal
#   on Potable Potions 2, 3, Fragile Reptile 2; Plant on Fragile Reptile 2, 3, Hello Nursery
#   2; no skip: 6. [14] 1 Bread + 1 Coin at Draco Bell pays 1 set of Smoked Gorgon (Bread +
#   Potion): gather or enchant: 2. [37] P1: 7 Shops in Town (Flagons & Dragons drawn when
#   [35] completed Potable Potions) less last turn's Draco Bell: 6.
# - 4 players, seed 0: [0-3] four Fancy choices of 2; [4] seat 4 takes a Good: 6; [9] P1's
#   `end turn`: 1; [10] P2 without Goods: 5; [15] P3 without Goods, P1 and P2 on 2 Shops,
#   Flagons & Dragons added when P2 completed Draco Bell at [13]: 7 - 2 = 5; [20] seat 4
#   holds its setup Good, so it may visit any of the 7 Shops (one occupant each): 7; [25] P1:
#   8 Shops (Dragon Alley drawn when [21] completed Critical Rolls) less its last: 7.
# Ruling 20 ("Decision points never depend on hidden cards") changed these counts: every
# turn now ends with an `end turn` asked alone, and a placement from the hand is asked with a
# lone `do not place` when nothing in it fits (the 1s); a met Sun Dragon's reveal is offered
# at those (seed 2's P1 holds Scone Ranger). The new numbers come from this engine; with the
# 1s taken out, every line but (2, 2) gives back the previous numbers exactly (there, the
# lone `do not place` asked beside Scone Ranger's reveal counts 2), and the notes above were
# checked again at their new indices.
PERFT = {
    (2, 0): [2, 2, 6, 3, 3, 4, 1, 5, 1, 2, 6, 1, 5, 2, 2, 2, 3, 5, 1, 5, 1, 3, 3, 1, 5, 3, 2, 1,
             3, 4, 1, 5, 2, 1, 3, 5, 1, 6, 3, 2],
    (2, 1): [2, 2, 6, 3, 3, 6, 1, 5, 3, 3, 6, 1, 5, 2, 1, 3, 8, 1, 6, 1, 3, 5, 1, 6, 4, 1, 3, 4,
             1, 6, 1, 3, 3, 1, 6, 4, 1, 3, 6, 1],
    (2, 2): [2, 2, 6, 3, 3, 5, 1, 5, 1, 2, 6, 1, 5, 2, 2, 3, 3, 5, 1, 5, 2, 4, 6, 2, 5, 3, 2, 1,
             3, 5, 1, 6, 3, 2, 4, 4, 2, 6, 3, 2],
    (4, 0): [2, 2, 2, 2, 6, 6, 2, 3, 4, 1, 5, 4, 3, 2, 1, 5, 3, 3, 2, 1, 7, 2, 4, 5, 1, 7, 2, 4,
             13, 1, 8, 3, 4, 4, 1, 8, 2, 2, 4, 4],
    (4, 1): [2, 2, 2, 2, 6, 6, 3, 3, 4, 1, 5, 2, 3, 6, 1, 4, 2, 4, 2, 1, 7, 1, 3, 5, 1, 6, 2, 1,
             3, 5, 1, 7, 3, 4, 6, 1, 7, 2, 2, 4],
    (4, 2): [2, 2, 2, 2, 6, 6, 3, 3, 5, 1, 5, 3, 3, 5, 1, 4, 1, 3, 2, 1, 6, 1, 3, 4, 1, 5, 2, 2,
             4, 3, 1, 6, 3, 1, 3, 4, 1, 6, 2, 2],
}


@pytest.mark.parametrize(("players", "seed"), sorted(PERFT))
def test_perft_first_forty_decisions(players: int, seed: int) -> None:
    """Regression of the whole rule set: the legal-action counts along a fixed line of play
    (always the first legal action) are those checked by hand above (seat 1 plays first)."""
    s = start(players, seed, first_player=0)
    counts = []
    for _ in range(40):
        actions = legal_actions(s)
        counts.append(len(actions))
        apply_in_place(s, actions[0])
    assert counts == PERFT[players, seed]
