"""The six Artisan fire-up abilities (rules "Artisan Dragon Abilities", cards.md table), at a
Shop, in a hand (Fogo de Char) and in the Park (Eternal Flame), and the once-per-turn rule."""

from __future__ import annotations

from itertools import combinations

import pytest

from flamecraft import GameState
from flamecraft.core.goods import GOOD_NAMES
from flamecraft.core.state import COMPLETED, GIFTS, PLACED
from helpers import (
    A,
    E,
    S,
    add_shop,
    clear_fancy,
    clear_hand,
    do,
    enchant,
    end_turn,
    fresh,
    gather,
    goods_of,
    set_goods,
    set_park,
    texts,
    to_ability,
    to_hand,
    to_row,
    to_slot,
)

ME = 0


def game(*shop_ids: str, players: int = 2) -> GameState:
    """A fresh game with these Shops in Town, no Fancy Dragons in play (so no Sun reveal stops
    the turn) and an empty hand for the first player."""
    s = fresh(players)
    for shop_id in shop_ids:
        add_shop(s, shop_id)
    for p in range(players):
        clear_fancy(s, p)
    clear_hand(s, ME)
    return s


def slot(s: GameState, shop_id: str, k: int) -> int:
    return s.slots[S[shop_id] * 3 + k]


def turn_over(s: GameState) -> bool:
    """ME's turn is over: nothing is left but its end (asked every turn: then taken here)."""
    if s.current == ME and texts(s) == ["end turn"]:
        do(s, "end turn")
    return s.current != ME


# --- Bread -----------------------------------------------------------------------------------

@pytest.mark.parametrize("source", ["park", "deck"])
def test_bread_draws_from_park_or_deck(source: str) -> None:
    """Rules, Artisan Dragon Abilities (Bread): draw 1 Artisan Dragon, any face-up one in the
    Park or the top of the deck."""
    s = game()
    set_park(s, "olive", "rusty", "earl", "hot-dog", "flint")
    top = s.artisan_deck[-1]
    gather(s, "critical-rolls")
    assert goods_of(s, ME) == {"BREAD": 2}
    do(s, "fire up Pan")
    # Dragons of one type are interchangeable: one choice per type (Flint is an Iron too).
    assert set(texts(s)) == {"draw Olive from the Park", "draw Rusty from the Park",
                             "draw Earl from the Park", "draw Hot Dog from the Park",
                             "draw from the Artisan deck"}
    if source == "park":
        do(s, "draw Earl from the Park")
        assert s.hand[ME] == [A["earl"]] and A["earl"] not in s.park
    else:
        do(s, "draw from the Artisan deck")
        assert s.hand[ME] == [top] and top not in s.artisan_deck


# --- Meat ------------------------------------------------------------------------------------

def test_meat_places_from_hand_anywhere_with_the_reward() -> None:
    """Rules, Artisan Dragon Abilities (Meat): place an Artisan Dragon from your hand on any
    empty matching slot in Town, gaining its reward. Engine ruling: the placement is not a "you
    may" (ruling 15), so there is no skip while a placement is possible."""
    s = game()
    to_hand(s, ME, "rusty")
    gather(s, "draco-bell")
    do(s, "do not place", "fire up Hickory")
    options = texts(s)
    assert "do not place" not in options
    assert set(options) == {"place Rusty on Draco Bell slot 2", "place Rusty on Draco Bell slot 3",
                            "place Rusty on Smith Mart slot 2"}
    do(s, "place Rusty on Smith Mart slot 2")
    assert slot(s, "smith-mart", 1) == A["rusty"] and s.hand[ME] == []
    assert s.coins[ME] == 1 and s.counters[ME][PLACED] == 1


def test_meat_with_nothing_to_place_does_nothing() -> None:
    """Ruling 15: an ability that can do nothing may be chosen and does nothing."""
    s = game()
    gather(s, "draco-bell")
    before = s.copy()
    do(s, "fire up Hickory")
    assert turn_over(s)
    assert s.goods[ME] == before.goods[ME] and s.coins[ME] == 0 and s.rep[ME] == 0
    assert s.counters[ME][PLACED] == 0


def test_meat_completing_a_shop_draws_a_new_shop() -> None:
    """Rules, Artisan Dragon Abilities: a placement by ability follows all placing rules,
    including a new Shop when it fills a Shop's last slot (ruling 9)."""
    s = game()
    to_slot(s, "smith-mart", 1, "flint")
    to_hand(s, ME, "jasmine")
    shops = len(s.shop_deck)
    gather(s, "draco-bell")
    do(s, "fire up Hickory", "place Jasmine on Smith Mart slot 3")
    assert s.counters[ME][COMPLETED] == 1 and len(s.shop_deck) == shops - 1
    assert len(s.fancy[ME]) == 1


def test_meat_in_hand_may_place_itself() -> None:
    """design §0 "fire up in your hand": a Meat Dragon fired up in your hand may place
    itself."""
    s = game("fogo-de-char")
    to_hand(s, ME, "cutlet")
    gather(s, "fogo-de-char")
    to_ability(s)
    do(s, "use Stoke the Grill", "fire up Cutlet")
    assert "place Cutlet on Critical Rolls slot 3" in texts(s)
    do(s, "place Cutlet on Critical Rolls slot 3")
    assert slot(s, "critical-rolls", 2) == A["cutlet"] and s.hand[ME] == []
    assert len(s.fancy[ME]) == 1


def test_meat_in_the_park_places_from_hand() -> None:
    """design §0 "fire up in the Park": a Meat Dragon in the Park places a dragon from your
    hand; it stays in the Park itself."""
    s = game("eternal-flame")
    set_park(s, "cutlet", "olive", "earl", "lotus", "flint")
    to_hand(s, ME, "rusty")
    gather(s, "eternal-flame")
    do(s, "gain Bread")
    to_ability(s)
    do(s, "use Undying Ember", "fire up Cutlet")
    assert all("Rusty" in t for t in texts(s)) and "do not place" not in texts(s)
    do(s, "place Rusty on Smith Mart slot 2")
    assert A["cutlet"] in s.park and s.hand[ME] == [] and s.coins[ME] == 1


def test_meat_placed_dragon_may_fire_when_enchanting() -> None:
    """Rules, Enchanting step 2 / ruling 13: a dragon placed at the Shop by a fire-up during
    this step may also be fired up."""
    s = game()
    to_row(s, "smoked-gorgon")
    set_goods(s, ME, BREAD=1, POTION=1)
    to_hand(s, ME, "rusty")
    enchant(s, "draco-bell")
    assert s.shop_ench[S["draco-bell"]] == (E["smoked-gorgon"],)
    assert texts(s) == ["fire up Hickory", "stop firing up"]
    do(s, "fire up Hickory", "place Rusty on Draco Bell slot 3")
    assert texts(s) == ["fire up Rusty", "stop firing up"]
    do(s, "fire up Rusty")
    assert set(texts(s)) == {"gain 2 Meat", "gain 2 Iron"}
    do(s, "gain 2 Iron")
    assert goods_of(s, ME) == {"IRON": 2}
    assert turn_over(s), "every dragon here has fired: the step ends"


# --- Iron ------------------------------------------------------------------------------------

def test_iron_takes_this_shops_good_or_a_dragons_here() -> None:
    """Rules, Artisan Dragon Abilities (Iron): gain 2 of one Good from this Shop or an Artisan
    Dragon here (the same Good twice)."""
    s = game()
    to_slot(s, "smith-mart", 1, "jasmine")
    gather(s, "smith-mart")
    assert goods_of(s, ME) == {"IRON": 2, "POTION": 1}
    do(s, "fire up Wingnut")
    assert set(texts(s)) == {"gain 2 Iron", "gain 2 Potion"}
    do(s, "gain 2 Potion")
    assert goods_of(s, ME) == {"IRON": 2, "POTION": 3}


def test_iron_alone_takes_its_own_good() -> None:
    """Rules (Iron): with only Iron on offer, the choice is forced: 2 Iron."""
    s = game()
    gather(s, "smith-mart")
    do(s, "fire up Wingnut")
    assert goods_of(s, ME) == {"IRON": 4}


def test_iron_at_a_rainbow_shop_takes_any_good() -> None:
    """Rules (Iron): if the Shop has a rainbow icon, you may take 2 of any 1 Good."""
    s = game("eternal-flame")
    to_slot(s, "eternal-flame", 0, "rusty")
    gather(s, "eternal-flame")
    do(s, "gain Bread", "fire up Rusty")
    assert set(texts(s)) == {f"gain 2 {g}" for g in GOOD_NAMES}
    do(s, "gain 2 Crystal")
    assert goods_of(s, ME) == {"BREAD": 1, "IRON": 1, "CRYSTAL": 2}


def test_iron_at_a_dragon_shop_takes_only_dragons_goods() -> None:
    """Rules (Iron): never Coins or dragons; at a dragon-icon Shop only the dragons' Goods."""
    s = game("sew-cute")
    to_slot(s, "sew-cute", 0, "rusty")
    to_slot(s, "sew-cute", 1, "honey")
    gather(s, "sew-cute")
    do(s, "draw from the Artisan deck", "do not place", "fire up Rusty")
    assert set(texts(s)) == {"gain 2 Iron", "gain 2 Bread"}


def test_iron_at_a_coin_shop_never_takes_coins() -> None:
    s = game("maw-paws")
    to_slot(s, "maw-paws", 1, "rusty")
    gather(s, "maw-paws")
    do(s, "fire up Rusty")
    assert goods_of(s, ME) == {"IRON": 3} and s.coins[ME] == 1


def test_iron_in_hand_takes_goods_of_dragons_in_hand() -> None:
    """Rules (Iron): fired up away from a Shop, any dragon in that location may be the source
    (Fogo de Char: the hand)."""
    s = game("fogo-de-char")
    to_hand(s, ME, "rusty", "honey")
    gather(s, "fogo-de-char")
    to_ability(s)
    do(s, "use Stoke the Grill", "fire up Rusty")
    assert set(texts(s)) == {"gain 2 Iron", "gain 2 Bread"}
    do(s, "gain 2 Bread")
    assert goods_of(s, ME) == {"MEAT": 1, "BREAD": 2}
    assert sorted(s.hand[ME]) == sorted([A["rusty"], A["honey"]])


# --- Crystal ---------------------------------------------------------------------------------

def test_crystal_gains_three_different_goods() -> None:
    """Rules, Artisan Dragon Abilities (Crystal): gain any 3 different Goods."""
    s = game()
    gather(s, "fragile-reptile")
    do(s, "fire up Brightgem")
    expected = {"gain " + ", ".join(c) for c in combinations(GOOD_NAMES, 3)}
    assert set(texts(s)) == expected and len(expected) == 20
    do(s, "gain Bread, Potion, Plant")
    assert goods_of(s, ME) == {"CRYSTAL": 2, "BREAD": 1, "POTION": 1, "PLANT": 1}


# --- Potion ----------------------------------------------------------------------------------

def test_potion_swaps_and_fires_the_arrived_dragon() -> None:
    """Rules, Artisan Dragon Abilities (Potion): swap with another Town dragon, slot icons
    ignored, no slot rewards, not a placement; then fire up the dragon that arrived here."""
    s = game()
    gather(s, "potable-potions")
    do(s, "fire up Tannin")
    assert len(texts(s)) == 5 and "swap with Tannin" not in texts(s)
    do(s, "swap with Brightgem")
    assert slot(s, "potable-potions", 0) == A["brightgem"]
    assert slot(s, "fragile-reptile", 0) == A["tannin"]
    assert len(texts(s)) == 20, "Brightgem fires on arriving: 3 different Goods"
    do(s, "gain Bread, Meat, Iron")
    assert goods_of(s, ME) == {"POTION": 2, "BREAD": 1, "MEAT": 1, "IRON": 1}
    assert s.rep[ME] == 0 and s.coins[ME] == 0 and s.counters[ME][PLACED] == 0


def test_potion_arrived_dragon_resolves_at_its_new_shop() -> None:
    """Rules (Potion): the arrived dragon fires here: an Iron takes this Shop's Goods."""
    s = game()
    gather(s, "potable-potions")
    do(s, "fire up Tannin", "swap with Wingnut")
    assert set(texts(s)) == {"gain 2 Potion", "gain 2 Iron"}


def test_potion_swap_with_a_fired_dragon_does_not_fire_it_again() -> None:
    """design §0 "once per turn for each dragon" / ruling 13: a dragon already fired this turn
    may be swapped in, but does not fire again; each dragon is offered once."""
    s = game()
    to_slot(s, "potable-potions", 1, "frostfire")
    to_row(s, "hobbichino")
    set_goods(s, ME, PLANT=1, IRON=1)
    enchant(s, "potable-potions")
    assert set(texts(s)) == {"fire up Tannin", "fire up Frostfire", "stop firing up"}
    do(s, "fire up Frostfire", "gain Bread, Meat, Iron")
    assert texts(s) == ["fire up Tannin", "stop firing up"]
    do(s, "fire up Tannin", "swap with Frostfire")
    assert slot(s, "potable-potions", 0) == A["frostfire"]
    assert slot(s, "potable-potions", 1) == A["tannin"]
    assert turn_over(s), "nothing left to fire: Frostfire did not fire twice"
    assert goods_of(s, ME) == {"BREAD": 1, "MEAT": 1, "IRON": 1}


def test_potion_never_fires_in_hand_or_park() -> None:
    """design §0 / Appendix C 3: Potion Dragons are never fired up in a hand or in the Park."""
    s = game("fogo-de-char")
    to_hand(s, ME, "jasmine", "earl")
    gather(s, "fogo-de-char")
    to_ability(s)
    do(s, "use Stoke the Grill")
    # Asked although nothing may fire: which dragons the hand holds is hidden (ruling 20).
    assert texts(s) == ["do not fire up"]
    do(s, "do not fire up")
    assert turn_over(s) and sorted(s.hand[ME]) == sorted([A["jasmine"], A["earl"]])

    s = game("eternal-flame")
    set_park(s, "jasmine", "earl", "venti", "thistle", "lotus")
    gather(s, "eternal-flame")
    do(s, "gain Bread")
    to_ability(s)
    do(s, "use Undying Ember")
    assert texts(s) == ["fire up Lotus", "do not fire up"]


# --- Plant -----------------------------------------------------------------------------------

def test_plant_gifts_a_good_then_gains_two_reputation() -> None:
    """Rules, Artisan Dragon Abilities (Plant): gift any 1 Good to another player of your
    choice, then gain 2 Reputation; a Coin may stand in (Giving Gifts)."""
    s = game(players=3)
    set_goods(s, ME, BREAD=1, coins=1)
    gather(s, "hello-nursery")
    do(s, "fire up Twig")
    options = set(texts(s))
    assert options == {f"gift {item} to {p}" for item in ("Bread", "Plant", "Coin")
                       for p in ("P2", "P3")}, "mandatory: no skip while a gift is possible"
    do(s, "gift Coin to P3")
    assert s.coins[2] == 1 and s.coins[ME] == 0
    assert s.rep[ME] == 2 and s.counters[ME][GIFTS] == 1


def test_plant_without_a_gift_gives_nothing() -> None:
    """Rules (Plant): the 2 Reputation follow the gift; with nothing to give, nothing happens."""
    s = game()
    gather(s, "hello-nursery")
    set_goods(s, ME, coins=0)
    do(s, "fire up Twig")
    assert turn_over(s) and s.rep[ME] == 0 and s.counters[ME][GIFTS] == 0


def test_plant_in_the_park() -> None:
    """design §0 "fire up in the Park": Plant gifts 1 Good, then 2 Reputation."""
    s = game("eternal-flame")
    set_park(s, "lotus", "earl", "venti", "thistle", "jasmine")
    gather(s, "eternal-flame")
    do(s, "gain Bread")
    to_ability(s)
    do(s, "use Undying Ember", "fire up Lotus")
    assert s.goods[1][0] == 1 and s.rep[ME] == 2 and A["lotus"] in s.park


# --- once per turn ---------------------------------------------------------------------------

def test_gather_fires_only_one_dragon() -> None:
    """Rules, Gathering step 3: fire up any 1 Artisan Dragon at the Shop."""
    s = game()
    to_slot(s, "fragile-reptile", 1, "frostfire")
    gather(s, "fragile-reptile")
    assert set(texts(s)) == {"fire up Brightgem", "fire up Frostfire", "do not fire up"}
    do(s, "fire up Brightgem", "gain Bread, Meat, Iron")
    assert turn_over(s)


def test_a_dragon_fired_in_step_three_cannot_fire_again_by_an_ability() -> None:
    """design §0 "once per turn for each dragon": Draconic Tonic cannot re-fire a dragon fired
    in Gather step 3, so its fallback applies."""
    s = game("draconic-tonic")
    to_slot(s, "draconic-tonic", 1, "rusty")
    gather(s, "draconic-tonic")
    do(s, "fire up Rusty", "gain 2 Iron", "use Pick-Me-Up")
    assert goods_of(s, ME) == {"POTION": 2, "IRON": 3}


def test_fired_set_resets_each_turn() -> None:
    """design Appendix A: the fired set is per turn; the next turn may fire the same dragon."""
    s = game()
    gather(s, "fragile-reptile")
    do(s, "fire up Brightgem", "gain Bread, Meat, Iron")
    end_turn(s)
    assert s.fired == 0 and s.current == 1
    set_goods(s, 1, MEAT=1)
    gather(s, "fragile-reptile")  # P2 gives P1 its Meat to share the Shop
    assert s.goods[ME][1] == 2
    do(s, "do not place")
    assert "fire up Brightgem" in texts(s)
