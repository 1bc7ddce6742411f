"""Every Shop ability (design §1, the 28 non-starter Shops), played through the engine: the exact
effect, its "you may" skip, and its fallback where the design has one."""

from __future__ import annotations

import pytest

from flamecraft import GameState
from flamecraft.core.board import CATALOG
from flamecraft.core.state import COMPLETED, EMPTY, FANCY_SCORED, GIFTS, PLACED
from helpers import (
    A,
    E,
    F,
    S,
    add_shop,
    clear_fancy,
    clear_hand,
    deck_top,
    do,
    fresh,
    gather,
    give_fancy,
    goods_of,
    hold_turn,
    set_goods,
    set_park,
    sound,
    texts,
    to_ability,
    to_hand,
    to_row,
    to_slot,
    tuck,
)

ME = 0


def game(shop_id: str, players: int = 2) -> GameState:
    """A fresh game with the Shop in Town, nobody holding Fancy Dragons (so no Sun reveal
    interrupts the turn) and an empty hand for the first player."""
    s = fresh(players)
    add_shop(s, shop_id)
    for p in range(players):
        clear_fancy(s, p)
    clear_hand(s, ME)
    return s


def slot(s: GameState, shop_id: str, k: int) -> int:
    """The dragon on slot k (0-based) of a Shop."""
    return s.slots[S[shop_id] * 3 + k]


def at_ability(shop_id: str, s: GameState) -> GameState:
    gather(s, shop_id)
    return to_ability(s)


def turn_over(s: GameState) -> bool:
    """The first player's turn has ended (the next player is choosing a Shop), once its last
    decision, a lone `end turn` (asked every turn: docs/rules.md, ruling 20), is answered:
    nothing else may be left to decide."""
    if s.current == ME and texts(s) == ["end turn"]:
        do(s, "end turn")
    return s.current != ME and all(t.startswith("visit ") for t in texts(s))


def fancy_top(s: GameState, *fancy_ids: str) -> None:
    """Puts Fancy Dragons on top of the Fancy deck, the last named on the very top."""
    for f in fancy_ids:
        s.fancy_deck.remove(F[f])
        s.fancy_deck.append(F[f])
    s.cache = None


def test_starter_shops_have_no_ability() -> None:
    """Ruling 10: starter Shops have no ability, so a Gather there offers none."""
    s = game("fogo-de-char")
    hold_turn(s, ME)
    gather(s, "critical-rolls")
    do(s, "do not fire up")
    assert texts(s) == ["end turn", "reveal Enchanté"]


def test_ability_is_not_offered_when_enchanting() -> None:
    """Rules, Gathering step 4 / ruling 10: a Shop's ability is used only when Gathering."""
    s = game("drake-of-cakes")
    hold_turn(s, ME)
    to_row(s, "imp-anadas")
    set_goods(s, ME, PLANT=1, CRYSTAL=1)
    do(s, "visit Drake of Cakes", "enchant")
    assert E["imp-anadas"] in s.shop_ench[S["drake-of-cakes"]]
    assert not any(t.startswith("use ") for t in texts(s))
    assert s.rep[ME] == 0


# --- Meat pile -------------------------------------------------------------------------------

def test_fogo_de_char_meat_in_hand_places_itself() -> None:
    """design §1 Fogo de Char (Stoke the Grill): fire up a non-Potion dragon in your hand; a
    Meat Dragon may place itself, taking the slot's reward."""
    s = game("fogo-de-char")
    to_hand(s, ME, "cutlet", "honey", "jasmine")
    at_ability("fogo-de-char", s)
    do(s, "use Stoke the Grill")
    assert set(texts(s)) == {"fire up Cutlet", "fire up Honey", "do not fire up"}
    do(s, "fire up Cutlet")
    assert "place Cutlet on Draco Bell slot 2" in texts(s)
    assert "do not place" not in texts(s)
    do(s, "place Cutlet on Draco Bell slot 2")
    assert slot(s, "draco-bell", 1) == A["cutlet"]
    assert A["cutlet"] not in s.hand[ME]
    assert s.coins[ME] == 1 and s.counters[ME][PLACED] == 1


def test_fogo_de_char_bread_in_hand_stays_and_draws() -> None:
    """design §1 Fogo de Char: the fired dragon stays in your hand (Bread draws a dragon)."""
    s = game("fogo-de-char")
    set_park(s, "olive", "rusty", "lotus", "flint", "earl")
    to_hand(s, ME, "honey")
    at_ability("fogo-de-char", s)
    do(s, "use Stoke the Grill", "fire up Honey", "draw Rusty from the Park")
    assert sorted(s.hand[ME]) == sorted([A["honey"], A["rusty"]])
    assert A["rusty"] not in s.park


def test_fogo_de_char_potion_only_or_skip_does_nothing() -> None:
    """design §1 Fogo de Char: a Potion Dragon is never fired in hand; with no such dragon,
    nothing happens; "you may" fire: skipping changes nothing."""
    s = game("fogo-de-char")
    to_hand(s, ME, "jasmine")
    at_ability("fogo-de-char", s)
    before = s.copy()
    do(s, "use Stoke the Grill")
    # a fire-up in the hand is asked whenever the hand holds a dragon (ruling 20): here
    # with nothing that may be fired up, only its decline
    assert texts(s) == ["do not fire up"]
    do(s, "do not fire up")
    assert turn_over(s)
    assert s.hand[ME] == before.hand[ME] and s.goods[ME] == before.goods[ME]
    assert s.rep == before.rep and s.coins == before.coins

    s = game("fogo-de-char")
    to_hand(s, ME, "cutlet")
    at_ability("fogo-de-char", s)
    do(s, "use Stoke the Grill", "do not fire up")
    assert s.hand[ME] == [A["cutlet"]] and s.counters[ME][PLACED] == 0


def test_full_plate_buffet() -> None:
    """design §1 Full Plate Buffet (Second Helping): you may return 1 Meat; if you do, gain
    1 Bread, 1 Potion and 1 Plant."""
    s = game("full-plate-buffet")
    set_goods(s, ME, MEAT=1)
    at_ability("full-plate-buffet", s)
    assert goods_of(s, ME) == {"MEAT": 2}
    do(s, "use Second Helping")
    assert goods_of(s, ME) == {"MEAT": 1, "BREAD": 1, "POTION": 1, "PLANT": 1}

    s = game("full-plate-buffet")
    at_ability("full-plate-buffet", s)
    do(s, "do not use the Shop ability")
    assert goods_of(s, ME) == {"MEAT": 1}

    s = game("full-plate-buffet")
    at_ability("full-plate-buffet", s)
    set_goods(s, ME, coins=3)
    do(s, "use Second Helping")
    assert goods_of(s, ME) == {} and s.coins[ME] == 3, "no Meat: Coins do not stand in"


def test_pizza_coven_good_then_reserve() -> None:
    """design §1 Pizza Coven (Order Ahead): gain 1 Good of your choice; then, with no reserved
    Enchantment, you may reserve 1 from the face-up row."""
    s = game("pizza-coven")
    hold_turn(s, ME)
    at_ability("pizza-coven", s)
    row = s.ench_row[:]
    do(s, "use Order Ahead")
    assert len(texts(s)) == 6 and "gain Crystal" in texts(s)
    do(s, "gain Crystal")
    name = texts(s)[2]
    assert texts(s)[-1] == "do not reserve" and len(texts(s)) == 6
    do(s, name)
    assert s.reserved[ME] == row[2] and s.ench_row == row[:2] + row[3:]
    assert goods_of(s, ME) == {"MEAT": 1, "CRYSTAL": 1}


def test_pizza_coven_with_a_reservation_or_skipping() -> None:
    """design §1 Pizza Coven: holding a reserved Enchantment, you only gain the Good; the
    reserve is a "you may"."""
    s = game("pizza-coven")
    hold_turn(s, ME)
    held = s.ench_deck.pop()
    s.reserved[ME] = held
    at_ability("pizza-coven", s)
    row = s.ench_row[:]
    do(s, "use Order Ahead", "gain Iron")
    assert texts(s) == ["end turn", "reveal Enchanté"]
    assert s.reserved[ME] == held and s.ench_row == row

    s = game("pizza-coven")
    at_ability("pizza-coven", s)
    do(s, "use Order Ahead", "gain Iron", "do not reserve")
    assert s.reserved[ME] == EMPTY and goods_of(s, ME) == {"MEAT": 1, "IRON": 1}


# --- Potion pile -----------------------------------------------------------------------------

def test_draconic_tonic_fires_an_unfired_dragon_here() -> None:
    """design §1 Draconic Tonic (Pick-Me-Up): you may fire up 1 dragon at this Shop not yet
    fired this turn."""
    s = game("draconic-tonic")
    to_slot(s, "draconic-tonic", 0, "frostfire")
    at_ability("draconic-tonic", s)
    assert goods_of(s, ME) == {"POTION": 1, "CRYSTAL": 1}
    do(s, "use Pick-Me-Up")
    assert texts(s) == ["fire up Frostfire", "do not fire up"]
    do(s, "fire up Frostfire", "gain Bread, Meat, Iron")
    assert goods_of(s, ME) == {"POTION": 1, "CRYSTAL": 1, "BREAD": 1, "MEAT": 1, "IRON": 1}


def test_draconic_tonic_potion_fallback_only_without_unfired_dragon() -> None:
    """design §1 Draconic Tonic: gain 1 Potion instead only when there is no unfired dragon
    here (none at all, or all fired); declining an available fire-up gives nothing."""
    s = game("draconic-tonic")
    at_ability("draconic-tonic", s)
    do(s, "use Pick-Me-Up")
    assert goods_of(s, ME) == {"POTION": 2}

    s = game("draconic-tonic")
    to_slot(s, "draconic-tonic", 0, "frostfire")
    gather(s, "draconic-tonic")
    do(s, "fire up Frostfire", "gain Meat, Iron, Plant", "use Pick-Me-Up")
    assert goods_of(s, ME) == {"POTION": 2, "CRYSTAL": 1, "MEAT": 1, "IRON": 1, "PLANT": 1}

    s = game("draconic-tonic")
    to_slot(s, "draconic-tonic", 0, "frostfire")
    at_ability("draconic-tonic", s)
    do(s, "use Pick-Me-Up", "do not fire up")
    assert goods_of(s, ME) == {"POTION": 1, "CRYSTAL": 1}


def test_funky_brewsters_two_goods_for_four_of_one_type() -> None:
    """design §1 Funky Brewsters (House Blend): return exactly 2 Goods (any types), gain 4 Goods
    of one type of your choice."""
    s = game("funky-brewsters")
    set_goods(s, ME, BREAD=1, IRON=1)
    at_ability("funky-brewsters", s)
    do(s, "use House Blend")
    assert set(texts(s)) == {"return Bread", "return Iron", "return Potion"}
    do(s, "return Bread", "return Iron")
    assert len(texts(s)) == 6
    do(s, "choose Crystal")
    assert goods_of(s, ME) == {"POTION": 1, "CRYSTAL": 4}


def test_funky_brewsters_needs_two_goods_and_never_takes_coins() -> None:
    """design §1 Funky Brewsters / §0 "return": Coins never stand in for returned Goods, and
    with fewer than 2 Goods nothing happens."""
    s = game("funky-brewsters")
    set_goods(s, ME, coins=4)
    at_ability("funky-brewsters", s)
    do(s, "use House Blend")
    assert turn_over(s)
    assert goods_of(s, ME) == {"POTION": 1} and s.coins[ME] == 4


def test_spellfire_springs_reserve() -> None:
    """design §1 Spellfire Springs (Fresh Spell): gain 1 Potion, then you may reserve 1
    Enchantment from the row."""
    s = game("spellfire-springs")
    at_ability("spellfire-springs", s)
    row = s.ench_row[:]
    do(s, "use Fresh Spell")
    assert goods_of(s, ME) == {"POTION": 2}
    assert texts(s)[-1] == "do not reserve" and len(texts(s)) == 6
    do(s, texts(s)[0])
    assert s.reserved[ME] == row[0]


def test_spellfire_springs_exchange_keeps_the_row_count() -> None:
    """design §1 Spellfire Springs: with a reserved Enchantment you may exchange it with one in
    the row; the old one takes the new one's place, so the row keeps its count."""
    s = game("spellfire-springs")
    hold_turn(s, ME)
    old = s.ench_deck.pop()
    s.reserved[ME] = old
    at_ability("spellfire-springs", s)
    row, deck = s.ench_row[:], s.ench_deck[:]
    do(s, "use Fresh Spell")
    options = texts(s)
    assert all(t.startswith("exchange for ") for t in options[:-1])
    assert len(options) == 6 and options[-1] == "do not reserve"
    do(s, options[3])
    assert s.reserved[ME] == row[3]
    assert s.ench_row == [*row[:3], old, *row[4:]]
    assert len(s.ench_row) == 5 and s.ench_deck == deck
    assert goods_of(s, ME) == {"POTION": 2}
    sound(s)


def test_spellfire_springs_skip_keeps_the_potion() -> None:
    """design §1 Spellfire Springs: the Potion is not optional, the reserve is."""
    s = game("spellfire-springs")
    at_ability("spellfire-springs", s)
    do(s, "use Fresh Spell", "do not reserve")
    assert s.reserved[ME] == EMPTY and goods_of(s, ME) == {"POTION": 2}


# --- Crystal pile ----------------------------------------------------------------------------

@pytest.mark.parametrize(("returned", "coins"), [(0, 0), (1, 1), (2, 2), (3, 4)])
def test_dragon_hoard_bank(returned: int, coins: int) -> None:
    """design §1 Dragon Hoard Bank (Deposit): return 1–3 Goods, 1 Coin each, plus 1 more Coin
    if you returned 3."""
    s = game("dragon-hoard-bank")
    set_goods(s, ME, BREAD=2, MEAT=2)
    at_ability("dragon-hoard-bank", s)
    do(s, "use Deposit")
    assert set(texts(s)) == {"return Bread", "return Meat", "return Crystal", "stop returning"}
    for good in ["Bread", "Meat", "Crystal"][:returned]:
        do(s, f"return {good}")
    if returned < 3:
        do(s, "stop returning")
    assert s.coins[ME] == coins
    assert sum(s.goods[ME]) == 5 - returned


@pytest.mark.parametrize(("reps", "gain"), [
    ((0, 5), 3),     # last: 1 + 2
    ((3, 0), 1),     # ahead: 1 only
    ((2, 3), 3),     # tied for last after the first Reputation
    ((2, 2), 1),     # "then": after gaining 1 the player is ahead
    ((0, 5, 0), 1),  # 3 players: another player has less
    ((4, 9, 5), 3),
])
def test_tip_the_scales(reps: tuple[int, ...], gain: int) -> None:
    """design §1 Tip the Scales (Underdog): gain 1 Good of your choice and 1 Reputation; then,
    if no other player has less Reputation than you, gain 2 more."""
    s = game("tip-the-scales", players=len(reps))
    for p, r in enumerate(reps):
        s.rep[p] = r
        s.rep_sources[p][0] = r
    at_ability("tip-the-scales", s)
    do(s, "use Underdog", "gain Iron")
    assert s.rep[ME] == reps[0] + gain
    assert goods_of(s, ME) == {"CRYSTAL": 1, "IRON": 1}


def test_touch_o_glass_looks_at_three_keeps_one() -> None:
    """design §1 Touch o' Glass (Looking Glass): return 1 Crystal; look at the top 3 Fancy
    Dragons, keep 1, the others to the bottom."""
    s = game("touch-o-glass")
    fancy_top(s, "sir-loin", "brewdini", "wallflower")
    deck_size = len(s.fancy_deck)
    at_ability("touch-o-glass", s)
    do(s, "use Looking Glass")
    assert set(texts(s)) == {"keep Sir Loin", "keep Brewdini", "keep Wallflower"}
    assert goods_of(s, ME) == {}
    do(s, "keep Brewdini")
    assert s.fancy[ME] == [F["brewdini"]]
    assert set(s.fancy_deck[:2]) == {F["sir-loin"], F["wallflower"]}
    assert len(s.fancy_deck) == deck_size - 1
    sound(s)


def test_touch_o_glass_without_crystal_or_with_a_short_deck() -> None:
    """design §1 Touch o' Glass / §0: without a Crystal nothing happens; with fewer than 3
    cards left, look at all of them."""
    s = game("touch-o-glass")
    at_ability("touch-o-glass", s)
    set_goods(s, ME, coins=2)
    do(s, "use Looking Glass")
    assert s.fancy[ME] == [] and s.coins[ME] == 2

    s = game("touch-o-glass")
    keep = s.fancy_deck[-2:]
    s.fancy[1].extend(s.fancy_deck[:-2])
    del s.fancy_deck[:-2]
    at_ability("touch-o-glass", s)
    do(s, "use Looking Glass")
    assert len(texts(s)) == 2
    do(s, texts(s)[0])
    assert len(s.fancy[ME]) == 1 and len(s.fancy_deck) == 1
    assert set(s.fancy[ME] + s.fancy_deck) == set(keep)


# --- Plant pile ------------------------------------------------------------------------------

def test_hedges_henges_scores_a_moon_now() -> None:
    """design §1 Hedges & Henges (Solstice): you may score 1 unscored Moon Dragon whose goal is
    met now; if you do, gain 1 more Reputation."""
    s = game("hedges-henges")
    give_fancy(s, ME, "den-mother", "kale-idoscope")
    to_hand(s, ME, "honey", "rusty", "earl", "lotus")
    at_ability("hedges-henges", s)
    do(s, "use Solstice")
    assert texts(s) == ["score Den Mother", "do not score a Moon Dragon"]
    do(s, "score Den Mother")
    assert s.rep[ME] == 4 + 1
    assert s.scored[ME] == [F["den-mother"]] and s.fancy[ME] == [F["kale-idoscope"]]
    assert s.counters[ME][FANCY_SCORED] == 1
    assert goods_of(s, ME) == {"PLANT": 1}


def test_hedges_henges_end_only_moon_cannot_be_scored() -> None:
    """design §1 Hedges & Henges: end-only Moon Dragons cannot be chosen; with none scored,
    gain 1 Good of your choice."""
    s = game("hedges-henges")
    give_fancy(s, ME, "sweep-dreams", "wallflower")
    at_ability("hedges-henges", s)
    do(s, "use Solstice")
    # asked whenever a Fancy Dragon is held (ruling 20): neither Moon may be scored now, so
    # only the decline is offered
    assert texts(s) == ["do not score a Moon Dragon"]
    do(s, "do not score a Moon Dragon")
    assert len(texts(s)) == 6 and all(t.startswith("gain ") for t in texts(s))
    do(s, "gain Iron")
    assert s.rep[ME] == 0 and goods_of(s, ME) == {"PLANT": 1, "IRON": 1}
    assert s.scored[ME] == []


def test_hedges_henges_declined_or_unmet_gives_a_good() -> None:
    """design §1 Hedges & Henges: if you do not score one (declined, or none met), gain 1 Good
    of your choice."""
    s = game("hedges-henges")
    give_fancy(s, ME, "den-mother")
    to_hand(s, ME, "honey")
    at_ability("hedges-henges", s)
    do(s, "use Solstice", "do not score a Moon Dragon", "gain Meat")
    assert s.rep[ME] == 0 and s.scored[ME] == [] and goods_of(s, ME) == {"PLANT": 1, "MEAT": 1}

    s = game("hedges-henges")
    give_fancy(s, ME, "kale-idoscope")
    at_ability("hedges-henges", s)
    do(s, "use Solstice", "gain Bread")
    assert s.rep[ME] == 0 and goods_of(s, ME) == {"PLANT": 1, "BREAD": 1}


def test_oh_my_gourd() -> None:
    """design §1 Oh My Gourd! (Prize Pumpkin): you may return 3 Goods of one type for 5
    Reputation."""
    s = game("oh-my-gourd")
    set_goods(s, ME, PLANT=2, IRON=3)
    at_ability("oh-my-gourd", s)
    do(s, "use Prize Pumpkin")
    assert set(texts(s)) == {"return Plant", "return Iron"}
    do(s, "return Iron")
    assert s.rep[ME] == 5 and goods_of(s, ME) == {"PLANT": 3}

    s = game("oh-my-gourd")
    set_goods(s, ME, PLANT=1, IRON=2, coins=5)
    at_ability("oh-my-gourd", s)
    do(s, "use Prize Pumpkin")
    assert s.rep[ME] == 0 and goods_of(s, ME) == {"PLANT": 2, "IRON": 2} and s.coins[ME] == 5


@pytest.mark.parametrize("gifts", [0, 1, 2])
def test_sage_of_sage(gifts: int) -> None:
    """design §1 Sage of Sage (Herbal Remedy): you may gift 1 or 2 Goods (a Coin may stand in,
    Giving Gifts rule) to other players, 2 Reputation each."""
    s = game("sage-of-sage", players=3)
    set_goods(s, ME, BREAD=1, coins=1)
    at_ability("sage-of-sage", s)
    do(s, "use Herbal Remedy")
    assert "gift Coin to P3" in texts(s) and "gift Bread to P2" in texts(s)
    if gifts >= 1:
        do(s, "gift Bread to P2")
    if gifts == 2:
        do(s, "gift Coin to P3")
    else:
        do(s, "do not gift")
    assert s.rep[ME] == 2 * gifts
    assert s.counters[ME][GIFTS] == gifts
    assert s.goods[1][0] == (1 if gifts >= 1 else 0)
    assert s.coins[2] == (1 if gifts == 2 else 0)


# --- Iron pile -------------------------------------------------------------------------------

def test_gnome_depot_pays_iron_only_when_placing() -> None:
    """design §1 Gnome Depot (Do It Yourself): you may return 1 Iron to place a dragon from
    your hand anywhere in Town, gaining the slot's reward; the Iron is paid only on placing."""
    s = game("gnome-depot")
    to_hand(s, ME, "cutlet")
    at_ability("gnome-depot", s)
    do(s, "use Do It Yourself")
    assert "place Cutlet on Draco Bell slot 2" in texts(s) and "do not place" in texts(s)
    do(s, "place Cutlet on Draco Bell slot 2")
    assert slot(s, "draco-bell", 1) == A["cutlet"]
    assert goods_of(s, ME) == {} and s.coins[ME] == 1 and s.counters[ME][PLACED] == 1

    s = game("gnome-depot")
    to_hand(s, ME, "cutlet")
    at_ability("gnome-depot", s)
    do(s, "use Do It Yourself", "do not place")
    assert goods_of(s, ME) == {"IRON": 1} and s.hand[ME] == [A["cutlet"]]

    s = game("gnome-depot")
    at_ability("gnome-depot", s)
    do(s, "use Do It Yourself")
    assert turn_over(s) and goods_of(s, ME) == {"IRON": 1}, "no placement possible: Iron kept"


def test_gnome_depot_without_iron_offers_no_placement() -> None:
    """design §1 Gnome Depot: the placement costs 1 Iron, and Coins do not stand in."""
    s = game("gnome-depot")
    to_hand(s, ME, "cutlet")
    at_ability("gnome-depot", s)
    set_goods(s, ME, coins=3)
    do(s, "use Do It Yourself")
    assert turn_over(s) and s.hand[ME] == [A["cutlet"]] and s.coins[ME] == 3


def test_saving_throw_puts_one_back_and_keeps_one_of_two() -> None:
    """design §1 Saving Throw (Second Chance): put 1 unscored Fancy Dragon on the bottom; if you
    do, draw 2, keep 1, the other to the bottom."""
    s = game("saving-throw")
    give_fancy(s, ME, "sir-loin")
    fancy_top(s, "brewdini", "wallflower")
    at_ability("saving-throw", s)
    do(s, "use Second Chance")
    assert texts(s) == ["put back Sir Loin", "keep your Fancy Dragons"]
    do(s, "put back Sir Loin")
    assert set(texts(s)) == {"keep Brewdini", "keep Wallflower"}
    do(s, "keep Wallflower")
    assert s.fancy[ME] == [F["wallflower"]]
    assert set(s.fancy_deck[:2]) == {F["sir-loin"], F["brewdini"]}
    assert s.rep[ME] == 0 and goods_of(s, ME) == {"IRON": 1}
    sound(s)


def test_saving_throw_fallback() -> None:
    """design §1 Saving Throw: if you do not (declined, or no unscored Fancy Dragon), gain 1
    Iron and 1 Reputation."""
    s = game("saving-throw")
    give_fancy(s, ME, "sir-loin")
    at_ability("saving-throw", s)
    do(s, "use Second Chance", "keep your Fancy Dragons")
    assert s.fancy[ME] == [F["sir-loin"]]
    assert s.rep[ME] == 1 and goods_of(s, ME) == {"IRON": 2}

    s = game("saving-throw")
    at_ability("saving-throw", s)
    do(s, "use Second Chance")
    assert s.rep[ME] == 1 and goods_of(s, ME) == {"IRON": 2}


def test_savage_beat_fires_at_another_shop_resolving_there() -> None:
    """design §1 The Savage Beat (Drum Call): fire up 1 dragon at another Shop, not fired this
    turn, as if visiting that Shop (Iron takes that Shop's Goods)."""
    s = game("the-savage-beat")
    to_slot(s, "draco-bell", 1, "rusty")
    to_slot(s, "the-savage-beat", 0, "flint")
    at_ability("the-savage-beat", s)
    do(s, "use Drum Call")
    options = texts(s)
    assert "fire up Rusty" in options and "fire up Hickory" in options
    assert "fire up Flint" not in options, "a dragon at this Shop is not at another Shop"
    assert options[-1] == "do not fire up" and len(options) == 8
    do(s, "fire up Rusty")
    assert set(texts(s)) == {"gain 2 Meat", "gain 2 Iron"}
    do(s, "gain 2 Meat")
    assert goods_of(s, ME) == {"IRON": 2, "MEAT": 2}


def test_savage_beat_skips_dragons_fired_this_turn() -> None:
    """design §0 "once per turn for each dragon": a Potion swapped away in step 3 was fired and
    cannot be fired again by Drum Call."""
    s = game("the-savage-beat")
    to_slot(s, "the-savage-beat", 0, "jasmine")
    to_slot(s, "draco-bell", 1, "rusty")
    gather(s, "the-savage-beat")
    do(s, "fire up Jasmine", "swap with Rusty")
    assert slot(s, "draco-bell", 1) == A["jasmine"]
    assert slot(s, "the-savage-beat", 0) == A["rusty"]
    assert goods_of(s, ME) == {"IRON": 3, "POTION": 1}, "Rusty fired on arriving: 2 Iron"
    do(s, "use Drum Call")
    assert "fire up Jasmine" not in texts(s) and "fire up Rusty" not in texts(s)
    assert "fire up Hickory" in texts(s)
    do(s, "do not fire up")
    assert goods_of(s, ME) == {"IRON": 3, "POTION": 1}


# --- Bread pile ------------------------------------------------------------------------------

@pytest.mark.parametrize(("enchantments", "rep"), [
    ((), 1), (("imp-anadas",), 2), (("imp-anadas", "creme-brulee", "fairys-jubilee"), 4)])
def test_drake_of_cakes(enchantments: tuple[str, ...], rep: int) -> None:
    """design §1 Drake of Cakes (Layer Cake): 1 Reputation plus 1 per Enchantment here."""
    s = game("drake-of-cakes")
    tuck(s, "drake-of-cakes", *enchantments)
    at_ability("drake-of-cakes", s)
    assert goods_of(s, ME) == {"BREAD": 1 + len(enchantments)}
    do(s, "use Layer Cake")
    assert s.rep[ME] == rep


@pytest.mark.parametrize(("coins", "returned"), [(3, 0), (3, 2), (3, 3), (5, 3), (0, 0)])
def test_guilty_treasures(coins: int, returned: int) -> None:
    """design §1 Guilty Treasures (Splurge): return 1, 2 or 3 Coins, 2 Reputation each."""
    s = game("guilty-treasures")
    set_goods(s, ME, coins=coins)
    at_ability("guilty-treasures", s)
    do(s, "use Splurge")
    if coins:
        assert texts(s) == ["return Coin", "stop returning"], "only Coins are returned"
    for _ in range(returned):
        do(s, "return Coin")
    if coins and returned < 3:
        do(s, "stop returning")
    assert turn_over(s)
    assert s.rep[ME] == 2 * returned and s.coins[ME] == coins - returned
    assert goods_of(s, ME) == {"BREAD": 1}


def test_la_petite_dragonne_keeps_one_of_top_three() -> None:
    """design §1 La Petite Dragonne (Hatchling): look at the top 3 of the Artisan deck, keep 1,
    the others to the bottom."""
    s = game("la-petite-dragonne")
    set_park(s, "honey", "hot-dog", "flint", "venti", "lotus")
    deck_top(s, "olive", "rusty", "earl")
    size = len(s.artisan_deck)
    at_ability("la-petite-dragonne", s)
    do(s, "use Hatchling")
    assert set(texts(s)) == {"keep Olive", "keep Rusty", "keep Earl"}
    do(s, "keep Rusty")
    assert s.hand[ME] == [A["rusty"]]
    assert set(s.artisan_deck[:2]) == {A["olive"], A["earl"]}
    assert len(s.artisan_deck) == size - 1 and not s.end_triggered
    sound(s)


def test_la_petite_dragonne_last_card_triggers_the_end() -> None:
    """design §1 La Petite Dragonne / ruling 17: taking the deck's last card triggers the end;
    an empty deck gives nothing (ruling 18)."""
    s = game("la-petite-dragonne")
    s.removed.extend(s.artisan_deck[:-1])
    del s.artisan_deck[:-1]
    last = s.artisan_deck[0]
    at_ability("la-petite-dragonne", s)
    do(s, "use Hatchling")
    # the look at the top of the deck is asked even with one card (ruling 20: hidden cards)
    assert texts(s) == [f"keep {CATALOG.artisans[last].name}"]
    do(s, f"keep {CATALOG.artisans[last].name}")
    assert s.hand[ME] == [last] and s.artisan_deck == [] and s.end_triggered
    assert turn_over(s) and s.final_turns == 2  # counted when the triggering turn ends

    s = game("la-petite-dragonne")
    s.removed.extend(s.artisan_deck)
    s.artisan_deck.clear()
    at_ability("la-petite-dragonne", s)
    do(s, "use Hatchling")
    assert s.hand[ME] == [] and turn_over(s)


# --- other icons -----------------------------------------------------------------------------

def test_bizarre_bazaar_haggle() -> None:
    """design §1 Bizarre Bazaar (Haggle): return up to 4 Goods, 1 Good of your choice for each;
    then gain 1 Good of your choice."""
    s = game("bizarre-bazaar")
    set_goods(s, ME, MEAT=5)
    gather(s, "bizarre-bazaar")
    do(s, "gain Bread")
    to_ability(s)
    do(s, "use Haggle")
    for _ in range(4):
        assert "stop returning" in texts(s)
        do(s, "return Meat")
    assert all(t.startswith("gain ") for t in texts(s)), "at most 4 returns"
    do(s, "gain Crystal", "gain Crystal", "gain Plant", "gain Plant", "gain Iron")
    assert goods_of(s, ME) == {"BREAD": 1, "MEAT": 1, "CRYSTAL": 2, "PLANT": 2, "IRON": 1}


def test_bizarre_bazaar_without_returns_still_gives_a_good() -> None:
    """design §1 Bizarre Bazaar: the final Good of your choice comes whatever you return."""
    s = game("bizarre-bazaar")
    gather(s, "bizarre-bazaar")
    do(s, "gain Bread")
    to_ability(s)
    do(s, "use Haggle", "stop returning", "gain Potion")
    assert goods_of(s, ME) == {"BREAD": 1, "POTION": 1}


def test_eternal_flame_fires_a_park_dragon() -> None:
    """design §1 Eternal Flame (Undying Ember): fire up 1 non-Potion dragon in the Park; it
    stays there; an Iron fired in the Park takes a Good of any dragon in the Park."""
    s = game("eternal-flame")
    set_park(s, "honey", "rusty", "jasmine", "olive", "frostfire")
    gather(s, "eternal-flame")
    do(s, "gain Bread")
    to_ability(s)
    do(s, "use Undying Ember")
    assert set(texts(s)) == {"fire up Honey", "fire up Rusty", "fire up Olive",
                             "fire up Frostfire", "do not fire up"}
    do(s, "fire up Rusty")
    assert set(texts(s)) == {"gain 2 Bread", "gain 2 Iron", "gain 2 Potion", "gain 2 Plant",
                             "gain 2 Crystal"}
    do(s, "gain 2 Potion")
    assert goods_of(s, ME) == {"BREAD": 1, "POTION": 2}
    assert A["rusty"] in s.park


def test_eternal_flame_bread_may_draw_itself() -> None:
    """design §0 "fire up in the Park": a Bread Dragon fired in the Park may draw itself."""
    s = game("eternal-flame")
    set_park(s, "honey", "rusty", "jasmine", "olive", "frostfire")
    gather(s, "eternal-flame")
    do(s, "gain Bread")
    to_ability(s)
    do(s, "use Undying Ember", "fire up Honey", "draw Honey from the Park")
    assert s.hand[ME] == [A["honey"]] and A["honey"] not in s.park


@pytest.mark.parametrize("players", [3, 4])
def test_flagons_dragons_gifts_to_all(players: int) -> None:
    """design §1 Flagons & Dragons (Buy a Round): gift exactly 1 Good (or Coin) to each other
    player; gain 3 Reputation plus 1 per gift."""
    s = game("flagons-dragons", players=players)
    set_goods(s, ME, BREAD=1, coins=1)
    before = [[*s.goods[p], s.coins[p]] for p in range(players)]
    gather(s, "flagons-dragons")
    do(s, "gain Meat")
    to_ability(s)
    do(s, "use Buy a Round")
    assert texts(s) == ["gift a Good to each other player", "do not gift"]
    do(s, "gift a Good to each other player")
    assert set(texts(s)) == {"give Bread to P2", "give Meat to P2", "give Coin to P2"}
    do(s, "give Bread to P2")
    if players == 3:
        do(s, "give Meat to P3")
    else:
        do(s, "give Coin to P3")  # P4 then gets the Meat, the only item left
    assert s.rep[ME] == 3 + (players - 1)
    assert s.counters[ME][GIFTS] == players - 1
    for p in range(1, players):
        after = s.goods[p] + [s.coins[p]]
        assert sum(after) - sum(before[p]) == 1, "each other player gets exactly 1"


def test_flagons_dragons_all_or_none() -> None:
    """design §1 Flagons & Dragons: all other players or none; too few items, nothing."""
    s = game("flagons-dragons", players=3)
    gather(s, "flagons-dragons")
    do(s, "gain Meat")
    to_ability(s)
    do(s, "use Buy a Round")
    assert turn_over(s), "1 Good cannot be gifted to 2 players"
    assert s.rep[ME] == 0 and goods_of(s, ME) == {"MEAT": 1}

    s = game("flagons-dragons", players=3)
    set_goods(s, ME, BREAD=2)
    gather(s, "flagons-dragons")
    do(s, "gain Meat")
    to_ability(s)
    do(s, "use Buy a Round", "do not gift")
    assert s.rep[ME] == 0 and goods_of(s, ME) == {"BREAD": 2, "MEAT": 1}


@pytest.mark.parametrize(("choice", "gain"), [("Bread", 3), ("Iron", 1), ("Plant", 0)])
def test_nunyas_beeswax(choice: str, gain: int) -> None:
    """design §1 Nunya's Beeswax (Forage): choose a Good type; 1 of it per Park dragon of that
    type, at most 3."""
    s = game("nunyas-beeswax")
    set_park(s, "honey", "fondue", "cookie", "cinnabun", "rusty")
    gather(s, "nunyas-beeswax")
    do(s, "gain Meat")
    to_ability(s)
    do(s, "use Forage")
    assert len(texts(s)) == 6
    do(s, f"choose {choice}")
    expected = {"MEAT": 1}
    if gain:
        expected[choice.upper()] = gain
    assert goods_of(s, ME) == expected


def test_scale_mail_post() -> None:
    """design §1 Scale Mail Post (Parcel Post): you may gift 1 Good; if you do, draw 1 Fancy
    Dragon and gain 1 Reputation."""
    s = game("scale-mail-post")
    fancy_top(s, "brewdini")
    gather(s, "scale-mail-post")
    do(s, "gain Plant")
    to_ability(s)
    do(s, "use Parcel Post")
    assert texts(s) == ["gift Plant to P2", "do not gift"]
    do(s, "gift Plant to P2")
    assert s.fancy[ME] == [F["brewdini"]] and s.rep[ME] == 1
    assert s.goods[1][5] == 1 and goods_of(s, ME) == {} and s.counters[ME][GIFTS] == 1

    s = game("scale-mail-post")
    gather(s, "scale-mail-post")
    do(s, "gain Plant")
    to_ability(s)
    do(s, "use Parcel Post", "do not gift")
    assert s.fancy[ME] == [] and s.rep[ME] == 0 and goods_of(s, ME) == {"PLANT": 1}


def test_scale_mail_post_takes_a_coin_as_its_text_says() -> None:
    """Scale Mail Post's text, "gift 1 Good or Coin" (further ruling 8: a Coin may be gifted in
    place of a Good): the gift may be a Coin, and it pays the same."""
    s = game("scale-mail-post")
    fancy_top(s, "brewdini")
    gather(s, "scale-mail-post")
    do(s, "gain Plant")
    set_goods(s, ME, coins=1, PLANT=1)
    to_ability(s)
    do(s, "use Parcel Post")
    assert texts(s) == ["gift Plant to P2", "gift Coin to P2", "do not gift"]
    do(s, "gift Coin to P2")
    assert s.fancy[ME] == [F["brewdini"]] and s.rep[ME] == 1
    assert s.coins == [0, 1] and goods_of(s, ME) == {"PLANT": 1}


def test_draggin_tail_roost_refills_the_park_then_draws() -> None:
    """design §1 Draggin' Tail Roost (Change of Roost): put 1 or 2 Park dragons on the bottom of
    the deck; if you do, refill the Park at once; then draw 1 Artisan Dragon."""
    s = game("draggin-tail-roost")
    set_park(s, "olive", "rusty", "earl", "lotus", "flint")
    deck_top(s, "honey", "cookie", "loaf")
    gather(s, "draggin-tail-roost")
    do(s, "draw from the Artisan deck", "do not place")
    assert s.hand[ME] == [A["loaf"]]
    do(s, "use Change of Roost")
    assert "stop sending dragons" in texts(s)
    do(s, "send Rusty to the bottom of the deck", "stop sending dragons")
    assert s.artisan_deck[0] == A["rusty"]
    assert "draw Cookie from the Park" in texts(s), "the Park was refilled before the draw"
    do(s, "draw Cookie from the Park")
    assert s.hand[ME] == [A["loaf"], A["cookie"]]


def test_draggin_tail_roost_skip_still_draws() -> None:
    """design §1 Draggin' Tail Roost: without sending, no refill, but the draw still happens."""
    s = game("draggin-tail-roost")
    set_park(s, "olive", "rusty", "earl", "lotus", "flint")
    gather(s, "draggin-tail-roost")
    do(s, "draw Olive from the Park", "do not place", "use Change of Roost", "stop sending dragons")
    assert len(s.park) == 4 and "draw from the Artisan deck" in texts(s)
    do(s, "draw Rusty from the Park")
    assert s.hand[ME] == [A["olive"], A["rusty"]]


def test_draggin_tail_roost_refill_revealing_the_last_card_triggers_the_end() -> None:
    """design §1 Draggin' Tail Roost / ruling 17: a refill that reveals the deck's last card
    triggers the game end."""
    s = game("draggin-tail-roost")
    set_park(s, "olive", "rusty", "earl", "lotus", "flint")
    s.removed.extend(s.artisan_deck[:-1])
    del s.artisan_deck[:-1]
    gather(s, "draggin-tail-roost")
    do(s, "draw Olive from the Park", "do not place", "use Change of Roost",
       "send Rusty to the bottom of the deck", "send Earl to the bottom of the deck")
    assert s.artisan_deck == [] and len(s.park) == 5 and s.end_triggered


def test_sew_cute_swaps_two_town_dragons() -> None:
    """design §1 Sew Cute (Alterations): you may swap 2 dragons in Town (no rewards, not a
    placement); then gain 1 Good of your choice."""
    s = game("sew-cute")
    gather(s, "sew-cute")
    do(s, "draw from the Artisan deck", "do not place", "use Alterations")
    assert "do not swap" in texts(s) and "pick Pan" in texts(s)
    do(s, "pick Pan")
    assert "do not swap" not in texts(s) and "pick Pan" not in texts(s)
    do(s, "pick Hickory", "gain Iron")
    assert slot(s, "critical-rolls", 0) == A["hickory"]
    assert slot(s, "draco-bell", 0) == A["pan"]
    assert s.rep[ME] == 0 and s.coins[ME] == 0 and s.counters[ME][PLACED] == 0
    assert goods_of(s, ME) == {"IRON": 1}

    s = game("sew-cute")
    gather(s, "sew-cute")
    do(s, "draw from the Artisan deck", "do not place", "use Alterations", "do not swap",
       "gain Bread")
    assert slot(s, "critical-rolls", 0) == A["pan"] and goods_of(s, ME) == {"BREAD": 1}


def test_dragon_alley_places_from_the_park() -> None:
    """design §1 Dragon Alley (Stray Dragon): you may place 1 Park dragon on an empty matching
    slot anywhere in Town, gaining its reward; it counts as placed by you."""
    s = game("dragon-alley")
    hold_turn(s, ME)
    set_park(s, "olive", "rusty", "earl", "lotus", "flint")
    at_ability("dragon-alley", s)
    assert s.coins[ME] == 1
    do(s, "use Stray Dragon")
    assert "place Rusty on Draco Bell slot 2" in texts(s) and "do not place" in texts(s)
    do(s, "place Rusty on Draco Bell slot 2")
    assert slot(s, "draco-bell", 1) == A["rusty"] and A["rusty"] not in s.park
    assert len(s.park) == 4 and s.hand[ME] == []
    assert s.coins[ME] == 2 and s.counters[ME][PLACED] == 1

    s = game("dragon-alley")
    at_ability("dragon-alley", s)
    do(s, "use Stray Dragon", "do not place")
    assert s.counters[ME][PLACED] == 0 and s.coins[ME] == 1


def test_dragon_alley_completing_a_shop_counts() -> None:
    """design §0 "place" / ruling 9: a Park placement that fills a Shop's last slot completes
    it and draws a new Shop."""
    s = game("dragon-alley")
    set_park(s, "olive", "rusty", "earl", "lotus", "flint")
    to_slot(s, "draco-bell", 1, "hot-dog")
    shops = len(s.shop_deck)
    at_ability("dragon-alley", s)
    do(s, "use Stray Dragon", "place Rusty on Draco Bell slot 3")
    assert s.counters[ME][COMPLETED] == 1 and len(s.shop_deck) == shops - 1
    assert len(s.fancy[ME]) == 1, "slot 3 of Draco Bell pays a Fancy Dragon"


def test_maw_paws_gifts_a_hand_dragon() -> None:
    """design §1 Maw & Paw's (Hand-Me-Down): you may gift 1 Artisan Dragon from your hand to
    another player; if you do, gain 3 Reputation."""
    s = game("maw-paws")
    to_hand(s, ME, "honey", "rusty")
    other = len(s.hand[1])
    at_ability("maw-paws", s)
    do(s, "use Hand-Me-Down")
    assert set(texts(s)) == {"gift Honey to P2", "gift Rusty to P2", "do not gift"}
    do(s, "gift Rusty to P2")
    assert s.hand[ME] == [A["honey"]] and A["rusty"] in s.hand[1]
    assert len(s.hand[1]) == other + 1
    assert s.rep[ME] == 3 and s.counters[ME][GIFTS] == 1

    s = game("maw-paws")
    to_hand(s, ME, "honey")
    at_ability("maw-paws", s)
    do(s, "use Hand-Me-Down", "do not gift")
    assert s.hand[ME] == [A["honey"]] and s.rep[ME] == 0

    s = game("maw-paws")
    at_ability("maw-paws", s)
    do(s, "use Hand-Me-Down")
    assert turn_over(s) and s.rep[ME] == 0


def test_wishing_well_three_coins_and_a_wish() -> None:
    """design §1 Wishing Well (Make a Wish): gathering gives 3 Coins; you may return 1 Coin to
    draw 2 Fancy Dragons, keep 1, the other to the bottom."""
    s = game("wishing-well")
    fancy_top(s, "brewdini", "wallflower")
    at_ability("wishing-well", s)
    assert s.coins[ME] == 3 and goods_of(s, ME) == {}
    do(s, "use Make a Wish")
    assert set(texts(s)) == {"keep Brewdini", "keep Wallflower"}
    do(s, "keep Brewdini")
    assert s.coins[ME] == 2 and s.fancy[ME] == [F["brewdini"]]
    assert s.fancy_deck[0] == F["wallflower"]

    s = game("wishing-well")
    at_ability("wishing-well", s)
    do(s, "do not use the Shop ability")
    assert s.coins[ME] == 3 and s.fancy[ME] == []

    s = game("wishing-well")
    at_ability("wishing-well", s)
    set_goods(s, ME, BREAD=2, coins=0)
    do(s, "use Make a Wish")
    assert s.fancy[ME] == [] and goods_of(s, ME) == {"BREAD": 2}
