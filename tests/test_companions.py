"""The Companion module (design §6): the draft, and each Companion's ability and timing."""

from __future__ import annotations

import pytest

from flamecraft import GameState, apply_in_place, legal_actions, start, to_act
from flamecraft.core.board import CATALOG
from flamecraft.core.frames import D_COMPANION_PICK, D_DISCARD
from flamecraft.core.state import EMPTY, SRC_COMPANION
from helpers import (
    add_shop,
    clear_hand,
    do,
    enchant,
    finish_turn,
    gather,
    give_companion,
    set_goods,
    set_row,
    sound,
    stand,
    texts,
    to_hand,
    to_slot,
    with_companion,
)

C = CATALOG.companion_by_id


def name(cid: str) -> str:
    return CATALOG.companions[C[cid]].name


# --- the draft ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "first"), [
    (n, first) for n in (1, 2, 3, 4, 5) for first in (None, *range(n))])
def test_draft_reveals_one_more_than_players_and_last_seat_picks_first(
        players: int, first: int | None) -> None:
    """design §6: reveal players + 1 (solo: 2, keep 1); pick in reverse turn order, from the
    last player to the first; the rest go back to the box; no Fancy Dragon is dealt before
    the draft."""
    s = start(players, 3, companions=True, first_player=first)
    turn_order = [(s.first_player + k) % players for k in range(players)]
    assert len(s.companion_offer) == players + 1
    assert len(s.companion_box) == 7 - players - 1
    assert all(not f for f in s.fancy)
    order = []
    while s.stack[-1][0] == D_COMPANION_PICK:
        order.append(to_act(s))
        offered = texts(s)
        assert len(offered) == len(s.companion_offer) >= 2
        do(s, offered[-1])
    assert order == list(reversed(turn_order))
    assert all(c != EMPTY for c in s.companion)
    assert not s.companion_offer and len(s.companion_box) == 7 - players
    sound(s)


def test_without_the_module_nobody_has_a_companion() -> None:
    """The module is off by default: no draft, no Companion."""
    s = start(3, 3)
    assert s.companion == [EMPTY] * 3 and not s.companion_offer and not s.companion_box


def test_fortune_cookie_deals_three_keeps_two() -> None:
    """Fortune Cookie: dealt 3 Fancy Dragons instead of 2, keep 2, the third to the bottom."""
    for seed in range(40):
        s = start(2, seed, companions=True)
        if C["fortune-cookie"] in s.companion_offer:
            break
    else:
        pytest.fail("no seed revealed Fortune Cookie")
    while s.stack[-1][0] == D_COMPANION_PICK:
        wanted = f"take {name('fortune-cookie')}"
        do(s, wanted if wanted in texts(s) else texts(s)[0])
    p = s.companion.index(C["fortune-cookie"])
    while to_act(s) != p:
        apply_in_place(s, legal_actions(s)[0])
    assert len(s.fancy[p]) == 3
    bottom_before = s.fancy_deck[0]
    do(s, texts(s)[0])
    do(s, texts(s)[0])
    assert len(s.fancy[p]) == 2
    assert s.fancy_deck[0] != bottom_before  # the third went to the bottom
    sound(s)


# --- each Companion ----------------------------------------------------------------------------

def test_hexley_gains_a_good_after_each_cast() -> None:
    """Hexley: after you cast an Enchantment, gain 1 Good of your choice (every cast)."""
    s = with_companion("hexley")
    set_row(s, "displacer-beef", "smelting-pot", "creme-brulee", "wraith-rose", "elfspresso")
    set_goods(s, 0, BREAD=2, IRON=3)
    enchant(s, "draco-bell")
    do(s, "draw from the Artisan deck")  # Displacer Beef's own reward comes first
    assert "gain Plant" in texts(s)
    do(s, "gain Plant")
    assert s.goods[0][5] == 1 and s.goods[0][2] == 0


def test_maitre_drake_reserves_after_a_cast_only_without_a_reservation() -> None:
    """Maître D'rake: after a cast, gain 1 Good of your choice; then, if you have no reserved
    Enchantment, you may reserve one."""
    s = with_companion("maitre-drake")
    set_row(s, "displacer-beef", "smelting-pot", "creme-brulee", "wraith-rose", "elfspresso")
    set_goods(s, 0, BREAD=2, IRON=3)
    enchant(s, "draco-bell")
    do(s, "draw from the Artisan deck")
    assert "gain Plant" in texts(s)  # Maître D'rake's Good (since the balance pass) comes first
    do(s, "gain Plant")
    assert "reserve Smelting Pot" in texts(s) and "do not reserve" in texts(s)
    do(s, "reserve Smelting Pot")
    assert s.reserved[0] == CATALOG.enchantment_by_id["smelting-pot"]
    s2 = with_companion("maitre-drake")
    set_row(s2, "displacer-beef", "smelting-pot", "creme-brulee", "wraith-rose", "elfspresso")
    s2.reserved[0] = s2.ench_row.pop()  # already holding Elfspresso
    s2.ench_row.append(s2.ench_deck.pop())
    set_goods(s2, 0, BREAD=2, IRON=3)
    enchant(s2, "draco-bell")
    do(s2, "draw from the Artisan deck", "gain Plant")
    assert not any(t.startswith("reserve") for t in texts(s2)) and s2.goods[0][5] == 1


def to_own_turn(s: GameState) -> None:
    """Plays on (declining what is optional) until the first player's next turn starts."""
    finish_turn(s)
    while s.current != 0 and not s.over:
        finish_turn(s)


def bellows_gather(s: GameState) -> list[str]:
    """The first player gathers at Draco Bell (two dragons there); the choices then."""
    stand(s, 0, "critical-rolls")
    gather(s, "draco-bell")
    if "do not place" in texts(s):
        do(s, "do not place")
    return texts(s)


def test_old_bellows_fires_every_dragon_twice_per_game() -> None:
    """Old Bellows (twice per game since the balance pass): on a Gather turn, fire up every
    dragon at the Shop; a third Gather turn does not offer it."""
    s = with_companion("old-bellows")
    to_slot(s, "draco-bell", 1, "cutlet")
    to_hand(s, 0)
    use = f"use {name('old-bellows')}"
    assert use in bellows_gather(s)
    do(s, use)
    fired = 0
    while "stop firing up" in texts(s) and fired < 2:
        do(s, next(t for t in texts(s) if t.startswith("fire up")))
        fired += 1
        while s.current == 0 and texts(s) and not any(
                t.startswith(("fire up", "stop")) for t in texts(s)):
            do(s, texts(s)[0])
    assert fired == 2 and s.companion_uses[0] == 1
    to_own_turn(s)
    assert use in bellows_gather(s)
    do(s, use)
    assert s.companion_uses[0] == 2
    to_own_turn(s)
    assert s.current == 0 and use not in bellows_gather(s)


def test_old_bellows_is_not_offered_for_a_single_dragon() -> None:
    """With only one dragon to fire, Old Bellows would change nothing: not offered."""
    s = with_companion("old-bellows")
    gather(s, "draco-bell")
    if "do not place" in texts(s):
        do(s, "do not place")
    assert f"use {name('old-bellows')}" not in texts(s)


def test_santa_claws_once_per_turn_after_gifts_visiting_gifts_included() -> None:
    """Santa Claws (a Good since the balance pass): once per turn, after you give 1 or more
    gifts, gain 1 Good of your choice."""
    s = with_companion("santa-claws", players=3)
    stand(s, 1, "draco-bell")
    stand(s, 2, "draco-bell")
    set_goods(s, 0, BREAD=1, MEAT=1)
    do(s, "visit Draco Bell", "give Bread to P2")
    assert "gain Plant" in texts(s)  # after the first gift
    do(s, "gain Plant", "give Meat to P3")  # the Good it gave could be gifted too
    assert s.goods[1][0] == 1 and s.goods[2][1] == 1 and s.goods[0][5] == 1
    assert s.counters[0][3] == 2  # both gifts counted
    assert not any(t.startswith("gain ") for t in texts(s))  # once per turn


def test_santa_claws_does_not_trigger_without_gifts() -> None:
    s = with_companion("santa-claws", players=3)
    set_goods(s, 0, BREAD=2)
    gather(s, "draco-bell")
    assert s.rep_sources[0][SRC_COMPANION] == 0


def test_knick_knack_exchanges_one_good_twice_per_turn() -> None:
    """Knick Knack (twice per turn since the balance pass): return 1 Good to gain 1 Good of
    another type; a third use in the same turn is not offered."""
    s = with_companion("knick-knack")
    set_goods(s, 0, BREAD=2)
    use = f"use {name('knick-knack')}"
    assert use in texts(s)
    do(s, use)
    assert "return Bread for Bread" not in texts(s)
    do(s, "return Bread for Meat")
    assert s.goods[0][0] == 1 and s.goods[0][1] == 1
    do(s, use, "return Bread for Iron")
    assert s.goods[0][:3] == [0, 1, 1]
    assert use not in texts(s)


def test_knick_knack_after_the_goods_limit_cannot_take_a_good_past_7() -> None:
    """Rules, end of turn (ruling 16: each Good above 7 is cut to 7) and Companion further
    ruling 6: Knick Knack offered at the discards, after the Goods limit, may not gain a Good
    of which the player holds 7 — the turn ends within the limit (the long fuzz run found an
    exchange that left 8 Potion)."""
    s = with_companion("knick-knack")
    clear_hand(s, 0)
    to_hand(s, 0, "cookie", "loaf", "honey", "fondue", "cutlet", "rusty", "herb")
    set_goods(s, 0, BREAD=1, POTION=7)
    do(s, "visit Hello Nursery")
    use = f"use {name('knick-knack')}"
    while s.stack[-1][0] != D_DISCARD:
        options = [t for t in texts(s) if t != use and not t.startswith("reveal ")]
        quiet = [t for t in options if t.startswith(("do not", "end turn", "stop"))]
        do(s, (quiet or options)[0])
    assert to_act(s) == 0 and s.goods[0][3] == 7  # Potion, cut to 7 if it was above
    do(s, use)
    assert "return Bread for Meat" in texts(s)
    assert not [t for t in texts(s) if t.endswith("for Potion")]
    assert all(not t.endswith("for " + g) for t in texts(s) for g, n in zip(
        ("Bread", "Meat", "Iron", "Potion", "Crystal", "Plant"), s.goods[0], strict=True)
        if n >= 7)


def test_knick_knack_needs_a_good() -> None:
    s = with_companion("knick-knack")
    set_goods(s, 0)
    assert f"use {name('knick-knack')}" not in texts(s)


def test_hardhat_hattie_places_anywhere_twice_per_game() -> None:
    """Hardhat Hattie: twice per game (not twice in a turn), after Gather step 2, place 1
    more dragon from your hand anywhere in Town, gaining the slot's reward."""
    s = with_companion("hardhat-hattie")
    add_shop(s, "fogo-de-char")
    to_hand(s, 0, "cutlet", "brisket", "skewart", "flambe")
    use = f"use {name('hardhat-hattie')}"
    for round_ in range(3):
        stand(s, 0, "smith-mart" if round_ % 2 else "critical-rolls")
        gather(s, "draco-bell")
        if round_ < 2:
            if "do not place" in texts(s):
                do(s, "do not place")
            assert use in texts(s), round_
            do(s, use)
            place = next(t for t in texts(s) if "Fogo de Char" in t)
            do(s, place)
        else:
            assert use not in texts(s)
        finish_turn(s)
        finish_turn(s)
    assert s.companion_uses[0] == 2
    sound(s)


def test_companion_effects_do_not_act_for_other_players() -> None:
    """design §6: a Companion acts only for its owner. The first player casts, as in
    test_hexley_gains_a_good_after_each_cast, but Hexley is the second player's (the first
    holds Fortune Cookie, which does nothing after setup): no Good is offered after the
    cast, nobody gains one and no use of Hexley is counted."""
    s = with_companion("hexley", p=1)
    give_companion(s, "fortune-cookie", 0)
    assert s.companion == [C["fortune-cookie"], C["hexley"]]
    set_row(s, "displacer-beef", "smelting-pot", "creme-brulee", "wraith-rose", "elfspresso")
    set_goods(s, 0, BREAD=2, IRON=3)
    enchant(s, "draco-bell")
    do(s, "draw from the Artisan deck")  # the cast's reward: Hexley's owner is offered a Good now
    assert not any(t.startswith("gain ") for t in texts(s))
    assert s.goods == [[0] * 6, [0] * 6]  # the cast took the first player's five Goods
    assert s.companion_uses == [0, 0]
    finish_turn(s)
    assert s.current == 1 and s.goods[1] == [0] * 6 and s.companion_uses == [0, 0]
