"""Every Enchantment of both decks, cast through the engine at a matching Shop for its exact cost
(rules "Enchanting a Shop", cards.md, design §4–§5), with the Golden printed Coin, the no-Coin
set cards and the variable Reputation tables."""

from __future__ import annotations

from typing import Any

import pytest

from flamecraft import GameState
from flamecraft.core.board import CATALOG
from flamecraft.core.state import CAST_ICONS, CASTS, EMPTY, MAX_SETS
from helpers import (
    E,
    S,
    add_shop,
    clear_fancy,
    clear_hand,
    do,
    fresh,
    goods_of,
    hold_turn,
    set_goods,
    sound,
    texts,
    to_row,
    tuck,
)

ME = 0
GOOD_KEYS = ("BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT")
STARTER_OF = {"BREAD": "critical-rolls", "MEAT": "draco-bell", "IRON": "smith-mart",
              "POTION": "potable-potions", "CRYSTAL": "fragile-reptile", "PLANT": "hello-nursery"}
STARTER_DRAGON = {"BREAD": "Pan", "MEAT": "Hickory", "IRON": "Wingnut", "POTION": "Tannin",
                  "CRYSTAL": "Brightgem", "PLANT": "Twig"}
PURPLE_SETS = [0, 3, 6, 9]
GOLDEN_SETS = [0, 6, 11]

# The reference: cards-known.json (Purple deck, 8 Golden cards) and design.md §4–§5.
FIXED: dict[str, tuple[str, str, dict[str, int], dict[str, int]]] = {
    "smelting-pot": ("purple", "IRON", {"MEAT": 3, "PLANT": 1, "CRYSTAL": 2}, {"rep": 6}),
    "creme-brulee": ("purple", "BREAD", {"PLANT": 3, "IRON": 1, "POTION": 2}, {"rep": 6}),
    "displacer-beef": ("purple", "MEAT", {"BREAD": 2, "IRON": 3}, {"rep": 4, "artisan": 1}),
    "heart-of-flame": ("purple", "CRYSTAL", {"PLANT": 3, "POTION": 2}, {"rep": 4, "artisan": 1}),
    "ring-of-destiny": ("purple", "CRYSTAL", {"MEAT": 2, "BREAD": 1, "POTION": 3}, {"rep": 6}),
    "le-flamberge": ("purple", "MEAT", {"PLANT": 2, "BREAD": 3, "CRYSTAL": 1}, {"rep": 6}),
    "dwarven-stout": ("purple", "POTION", {"MEAT": 1, "BREAD": 2, "IRON": 3}, {"rep": 6}),
    "spell-cast-iron": ("purple", "IRON", {"MEAT": 2, "POTION": 3}, {"rep": 4, "artisan": 1}),
    "fairys-jubilee": ("purple", "BREAD", {"MEAT": 3, "PLANT": 2}, {"rep": 4, "artisan": 1}),
    "wraith-rose": ("purple", "PLANT", {"IRON": 2, "CRYSTAL": 3, "POTION": 1}, {"rep": 6}),
    "elfspresso": ("purple", "POTION", {"IRON": 2, "CRYSTAL": 3}, {"rep": 4, "artisan": 1}),
    "orkish-orchids": ("purple", "PLANT", {"BREAD": 3, "CRYSTAL": 2}, {"rep": 4, "artisan": 1}),
    "griffin-muffins": ("golden", "BREAD", {"COIN": 1, "POTION": 1, "IRON": 3},
                        {"rep": 4, "fancy": 1}),
    "lich-cereal": ("golden", "BREAD", {"MEAT": 4, "CRYSTAL": 2},
                    {"rep": 3, "coins": 2, "artisan": 1}),
    "breaded-kraken": ("golden", "MEAT", {"COIN": 1, "IRON": 1, "BREAD": 3},
                       {"rep": 4, "fancy": 1}),
    "basilisk-bourguignon": ("golden", "MEAT", {"POTION": 4, "PLANT": 2},
                             {"rep": 3, "coins": 2, "artisan": 1}),
    "kobold-kettle": ("golden", "IRON", {"COIN": 1, "BREAD": 1, "POTION": 3},
                      {"rep": 4, "fancy": 1}),
    "mimic-waffle-iron": ("golden", "IRON", {"BREAD": 4, "POTION": 2},
                          {"rep": 3, "coins": 2, "artisan": 1}),
    "milky-bear": ("golden", "POTION", {"COIN": 1, "CRYSTAL": 1, "PLANT": 3},
                   {"rep": 4, "fancy": 1}),
    "unicorn-martini": ("golden", "POTION", {"CRYSTAL": 4, "BREAD": 2},
                        {"rep": 3, "coins": 2, "artisan": 1}),
    "beholders-eye": ("golden", "CRYSTAL", {"COIN": 1, "PLANT": 1, "MEAT": 3},
                      {"rep": 4, "fancy": 1}),
    "light-sabre": ("golden", "CRYSTAL", {"PLANT": 4, "IRON": 2},
                    {"rep": 3, "coins": 2, "artisan": 1}),
    "treant-terrarium": ("golden", "PLANT", {"COIN": 1, "MEAT": 1, "CRYSTAL": 3},
                         {"rep": 4, "fancy": 1}),
    "gargoyle-garden": ("golden", "PLANT", {"IRON": 4, "MEAT": 2},
                        {"rep": 3, "coins": 2, "artisan": 1}),
}
VARIABLE: dict[str, tuple[str, str, dict[str, int], list[int], bool]] = {
    "mirror-of-truth": ("purple", "CRYSTAL", {"IRON": 1, "POTION": 1}, PURPLE_SETS, False),
    "smoked-gorgon": ("purple", "MEAT", {"BREAD": 1, "POTION": 1}, PURPLE_SETS, False),
    "hobbichino": ("purple", "POTION", {"PLANT": 1, "IRON": 1}, PURPLE_SETS, False),
    "willow-wisp": ("purple", "PLANT", {"MEAT": 1, "CRYSTAL": 1}, PURPLE_SETS, False),
    "imp-anadas": ("purple", "BREAD", {"PLANT": 1, "CRYSTAL": 1}, PURPLE_SETS, False),
    "joe-forgeman": ("purple", "IRON", {"MEAT": 1, "BREAD": 1}, PURPLE_SETS, False),
    "minotarts": ("golden", "BREAD", {"PLANT": 1, "CRYSTAL": 1, "POTION": 1}, GOLDEN_SETS, True),
    "sphinx-shard": ("golden", "CRYSTAL", {"BREAD": 1, "IRON": 1, "POTION": 1}, GOLDEN_SETS,
                     True),
    "chimera-kebab": ("golden", "MEAT", {"BREAD": 1, "PLANT": 1, "IRON": 1}, GOLDEN_SETS, True),
    "harpy-hour": ("golden", "POTION", {"MEAT": 1, "PLANT": 1, "CRYSTAL": 1}, GOLDEN_SETS, True),
    "cockatrice-topiary": ("golden", "PLANT", {"MEAT": 1, "IRON": 1, "POTION": 1}, GOLDEN_SETS,
                           True),
    "centaur-panini-press": ("golden", "IRON", {"MEAT": 1, "BREAD": 1, "CRYSTAL": 1},
                             GOLDEN_SETS, True),
}


def _sets(n: int) -> str:
    return f"{n} set" if n == 1 else f"{n} sets"


def card(ench_id: str) -> Any:
    return CATALOG.enchantments[E[ench_id]]


def cost_dict(ench_id: str) -> dict[str, int]:
    c = card(ench_id)
    out = {g: n for g, n in zip(GOOD_KEYS, c.cost, strict=True) if n}
    if c.printed_coins:
        out["COIN"] = c.printed_coins
    return out


def game(deck: str, *row: str) -> GameState:
    """A fresh game with this deck, these cards in the face-up row, no Fancy Dragons in play
    and an empty hand for the first player."""
    s = fresh(2, deck=deck)
    for p in range(2):
        clear_fancy(s, p)
    clear_hand(s, ME)
    to_row(s, *row)
    return s


def test_the_data_matches_the_reference() -> None:
    """cards.md / design §4–§5: each Enchantment's deck, icon, cost, reward, no-Coin mark and
    Reputation by sets, as the reference gives them."""
    assert set(FIXED) | set(VARIABLE) == {e.id for e in CATALOG.enchantments}
    for ench_id, (deck, icon, cost, reward) in FIXED.items():
        c = card(ench_id)
        assert (c.deck, GOOD_KEYS[c.icon], c.variable) == (["purple", "golden"].index(deck),
                                                             icon, False), ench_id
        assert cost_dict(ench_id) == cost, ench_id
        assert {k: v for k, v in (("rep", c.reward.rep), ("coins", c.reward.coins),
                                  ("artisan", c.reward.artisan), ("fancy", c.reward.fancy))
                if v} == reward, ench_id
        assert not c.no_coins
    for ench_id, (deck, icon, cost, table, no_coins) in VARIABLE.items():
        c = card(ench_id)
        assert (c.deck, GOOD_KEYS[c.icon], c.variable) == (["purple", "golden"].index(deck),
                                                             icon, True), ench_id
        assert cost_dict(ench_id) == cost and list(c.rep_by_sets) == table, ench_id
        assert c.no_coins == no_coins and c.reward.is_empty(), ench_id


def cast(s: GameState, ench_id: str, sets: int = 0) -> None:
    """Chooses the cast (typed only when there is a choice: a single option is automatic)."""
    c = card(ench_id)
    wanted = f"cast {c.name} with {_sets(sets)}" if c.variable else f"cast {c.name}"
    if wanted in texts(s):
        do(s, wanted)


@pytest.mark.parametrize("ench_id", sorted(FIXED))
def test_fixed_enchantment_cast_for_its_exact_cost(ench_id: str) -> None:
    """Rules, Enchanting a Shop: cast a row Enchantment matching the Shop's icon by paying its
    Goods (and a printed Coin with a Coin), gain its rewards, tuck it behind the Shop."""
    deck, icon, cost, reward = FIXED[ench_id]
    s = game(deck, ench_id)
    goods = {g: n for g, n in cost.items() if g != "COIN"}
    set_goods(s, ME, coins=cost.get("COIN", 0), **goods)
    hand_before = len(s.hand[ME])
    do(s, f"visit {CATALOG.shops[S[STARTER_OF[icon]]].name}", "enchant")
    cast(s, ench_id)
    assert goods_of(s, ME) == {}, "exactly the cost was paid"
    assert s.coins[ME] == reward.get("coins", 0)
    assert s.rep[ME] == reward["rep"]
    assert len(s.fancy[ME]) == reward.get("fancy", 0)
    if reward.get("artisan"):
        assert "draw from the Artisan deck" in texts(s)
        do(s, "draw from the Artisan deck")
    assert len(s.hand[ME]) == hand_before + reward.get("artisan", 0)
    assert s.shop_ench[S[STARTER_OF[icon]]] == (E[ench_id],)
    assert E[ench_id] not in s.ench_row
    assert s.counters[ME][CASTS] == 1
    assert s.counters[ME][CAST_ICONS] == 1 << GOOD_KEYS.index(icon)
    assert texts(s) == [f"fire up {STARTER_DRAGON[icon]}", "stop firing up"]
    sound(s)


@pytest.mark.parametrize("ench_id", sorted(VARIABLE))
def test_variable_enchantment_sets_and_reputation(ench_id: str) -> None:
    """Rules / ruling 12 / design §4: a variable Enchantment is paid in whole sets, at least
    one, at most its table's length; 1 set pays 0 Reputation, then the table."""
    deck, icon, set_cost, table, _ = VARIABLE[ench_id]
    name = card(ench_id).name
    for sets in range(1, len(table) + 1):
        s = game(deck, ench_id)
        set_goods(s, ME, **{g: n * 5 for g, n in set_cost.items()})
        do(s, f"visit {CATALOG.shops[S[STARTER_OF[icon]]].name}", "enchant")
        offered = [t for t in texts(s) if t.startswith(f"cast {name}")]
        assert offered == [f"cast {name} with {_sets(k)}" for k in range(1, len(table) + 1)]
        do(s, f"cast {name} with {_sets(sets)}")
        assert s.goods[ME] == [5 * set_cost.get(g, 0) - sets * set_cost.get(g, 0)
                               for g in GOOD_KEYS]
        assert s.rep[ME] == table[sets - 1]
        assert s.counters[ME][MAX_SETS] == sets
        assert s.shop_ench[S[STARTER_OF[icon]]] == (E[ench_id],)


@pytest.mark.parametrize("ench_id", sorted(i for i, v in VARIABLE.items() if v[4]))
def test_no_coin_set_cards_refuse_coins(ench_id: str) -> None:
    """Rules, Enchanting: a no-coins symbol means no Coins may pay its cost (Golden C)."""
    deck, icon, set_cost, _, _ = VARIABLE[ench_id]
    name = card(ench_id).name
    s = game(deck, ench_id)
    hold_turn(s, ME)
    short = dict(set_cost)
    short[next(iter(short))] = 0
    set_goods(s, ME, coins=6, **short)
    do(s, f"visit {CATALOG.shops[S[STARTER_OF[icon]]].name}")
    if "enchant" in texts(s):  # another row card may be castable with the Coins
        do(s, "enchant")
    assert not any(t.startswith(f"cast {name}") for t in texts(s)), "Coins may not stand in"
    assert s.shop_ench[S[STARTER_OF[icon]]] != (E[ench_id],)

    s = game(deck, ench_id)
    set_goods(s, ME, coins=6, **{g: 2 * n for g, n in set_cost.items()})
    s.goods[ME][GOOD_KEYS.index(next(iter(set_cost)))] -= 1
    do(s, f"visit {CATALOG.shops[S[STARTER_OF[icon]]].name}", "enchant")
    assert f"cast {name} with 2 sets" not in texts(s)
    cast(s, ench_id, 1)
    assert s.coins[ME] == 6, "no Coin was spent"
    assert s.shop_ench[S[STARTER_OF[icon]]] == (E[ench_id],)


def test_purple_variable_cards_allow_coins() -> None:
    """design §4: Purple variable cards allow Coins: a missing Good of a set is paid with a
    Coin."""
    s = game("purple", "mirror-of-truth")
    set_goods(s, ME, coins=1, IRON=2, POTION=1)
    do(s, "visit Fragile Reptile", "enchant")
    cast(s, "mirror-of-truth", 2)
    assert s.rep[ME] == 3 and s.coins[ME] == 0 and goods_of(s, ME) == {}


@pytest.mark.parametrize("ench_id", sorted(i for i, v in FIXED.items() if "COIN" in v[2]))
def test_golden_printed_coin_must_be_a_coin(ench_id: str) -> None:
    """cards.md Golden A / design §0: a Coin printed in a Golden cost must be paid with a Coin;
    a Good cannot stand in for it."""
    deck, icon, cost, _ = FIXED[ench_id]
    goods = {g: n + 1 for g, n in cost.items() if g != "COIN"}
    s = game(deck, ench_id)
    hold_turn(s, ME)
    set_goods(s, ME, coins=0, **goods)
    casts = s.counters[ME][CASTS]
    do(s, f"visit {CATALOG.shops[S[STARTER_OF[icon]]].name}")
    assert "enchant" not in texts(s)  # Gather was the only action: taken by itself
    assert s.counters[ME][CASTS] == casts

    s = game(deck, ench_id)
    set_goods(s, ME, coins=1, **goods)
    do(s, f"visit {CATALOG.shops[S[STARTER_OF[icon]]].name}", "enchant")
    cast(s, ench_id)
    assert s.coins[ME] == 0 and goods_of(s, ME) == {g: 1 for g in goods}


def test_golden_coin_card_other_goods_may_be_paid_with_coins() -> None:
    """Rules, Enchanting: Coins may stand in for the card's Goods too, each as a different Good;
    the printed Coin is paid on top."""
    s = game("golden", "griffin-muffins")
    set_goods(s, ME, coins=3, IRON=2)
    do(s, "visit Critical Rolls", "enchant")
    cast(s, "griffin-muffins")
    assert s.coins[ME] == 0 and goods_of(s, ME) == {}
    assert s.rep[ME] == 4 and len(s.fancy[ME]) == 1


def test_coins_stand_in_for_goods_with_a_payment_choice() -> None:
    """Rules, Enchanting: you may pay Coins in place of any Goods; where both are possible, the
    player chooses how many Coins (one decision per Good)."""
    s = game("purple", "smelting-pot")
    set_goods(s, ME, coins=2, MEAT=3, PLANT=1, CRYSTAL=2)
    do(s, "visit Smith Mart", "enchant")
    cast(s, "smelting-pot")
    assert texts(s) == ["pay Meat with 3 Meat and 0 Coins", "pay Meat with 2 Meat and 1 Coin",
                        "pay Meat with 1 Meat and 2 Coins"]
    do(s, "pay Meat with 1 Meat and 2 Coins")
    assert goods_of(s, ME) == {"MEAT": 2} and s.coins[ME] == 0 and s.rep[ME] == 6


def test_only_matching_or_rainbow_shops_take_an_enchantment() -> None:
    """Rules, Enchanting: the Enchantment must match the Shop's icon; a rainbow Shop takes any;
    dragon and coin Shops cannot be enchanted (ruling 11)."""
    s = game("purple", "wraith-rose")
    hold_turn(s, ME)
    set_goods(s, ME, IRON=2, CRYSTAL=3, POTION=1)
    do(s, "visit Smith Mart")
    assert "enchant" not in texts(s)

    for shop_id, castable in [("bizarre-bazaar", True), ("sew-cute", False),
                              ("maw-paws", False)]:
        s = game("purple", "wraith-rose")
        hold_turn(s, ME)
        add_shop(s, shop_id)
        set_goods(s, ME, IRON=2, CRYSTAL=3, POTION=1)
        do(s, f"visit {CATALOG.shops[S[shop_id]].name}")
        assert ("enchant" in texts(s)) == castable, shop_id
        if castable:
            do(s, "enchant")
            cast(s, "wraith-rose")
            assert s.shop_ench[S[shop_id]] == (E["wraith-rose"],) and s.rep[ME] == 6


def test_at_most_three_enchantments_per_shop() -> None:
    """Rules, Enchanting / ruling 11: a Shop can have no more than 3 Enchantments."""
    for tucked, castable in [(("willow-wisp", "orkish-orchids"), True),
                             (("willow-wisp", "orkish-orchids", "smelting-pot"), False)]:
        s = game("purple", "wraith-rose")
        hold_turn(s, ME)
        tuck(s, "hello-nursery", *tucked)
        set_goods(s, ME, IRON=2, CRYSTAL=3, POTION=1)
        do(s, "visit Hello Nursery")
        assert ("enchant" in texts(s)) == castable


def test_reserved_enchantment_is_cast_by_its_owner_only() -> None:
    """Rules, Reserving Enchantments / ruling 14: you may cast your reserved Enchantment on a
    matching Shop; other players may not."""
    s = game("purple")
    tuck(s, "hello-nursery", "wraith-rose")
    s.shop_ench[S["hello-nursery"]] = ()
    s.reserved[ME] = E["wraith-rose"]
    set_goods(s, ME, IRON=2, CRYSTAL=3, POTION=1)
    do(s, "visit Hello Nursery", "enchant")
    cast(s, "wraith-rose")
    assert s.reserved[ME] == EMPTY and s.rep[ME] == 6
    assert s.shop_ench[S["hello-nursery"]] == (E["wraith-rose"],)
    assert goods_of(s, ME) == {}

    s = game("purple")
    hold_turn(s, ME)
    tuck(s, "hello-nursery", "wraith-rose")
    s.shop_ench[S["hello-nursery"]] = ()
    s.reserved[1] = E["wraith-rose"]
    set_goods(s, ME, IRON=2, CRYSTAL=3, POTION=1)
    do(s, "visit Hello Nursery")
    assert "enchant" not in texts(s)
