"""Fancy Dragon goals: the measures a goal reads, and what a Fancy Dragon pays now.

Every goal reads only public facts or its owner's own (Appendix A of the design). Coins never
stand in for Goods in a goal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .board import ART_TYPE, CATALOG, dragons_at, empty_coin_slots
from .cards import FancyCard
from .goods import NUM_GOODS
from .state import (
    CAST_ICONS,
    CASTS,
    COMPLETED,
    EMPTY,
    FANCY_SCORED,
    GIFTS,
    MAX_SETS,
    PLACED,
    SUN_SCORED,
    VISITED,
    GameState,
)

FANCIES: Final = CATALOG.fancies


def _same_and_distinct(s: GameState, shop: int) -> tuple[int, int]:
    """(most dragons of one type, distinct types) among the up to 3 dragons at a Shop, without
    building a list: Sun goals ask this of every Shop at every step of their owner's turn."""
    base = shop * 3
    a, b, c = s.slots[base], s.slots[base + 1], s.slots[base + 2]
    # An empty slot gets its own negative mark, so that it matches nothing.
    ta = ART_TYPE[a] if a != EMPTY else -1
    tb = ART_TYPE[b] if b != EMPTY else -2
    tc = ART_TYPE[c] if c != EMPTY else -3
    n = (a != EMPTY) + (b != EMPTY) + (c != EMPTY)
    if ta == tb and ta == tc:
        return 3, 1
    if ta in (tb, tc) or tb == tc:
        return 2, n - 1
    return (1 if n else 0), n


def _best_shop(s: GameState, k: int) -> int:
    """The largest ``_same_and_distinct(s, shop)[k]`` over the Shops in Town (0 if none)."""
    best = 0
    for shop in s.town_shops():
        here = _same_and_distinct(s, shop)[k]
        if here > best:
            best = here
    return best


def _max_same_type(s: GameState, p: int, arg: int) -> int:
    return _best_shop(s, 0)


def _max_distinct(s: GameState, p: int, arg: int) -> int:
    return _best_shop(s, 1)


# The measures below count in loops rather than with ``max``/``sum`` over a generator:
# compiled by mypyc, those reach the builtins by name and run a generator object, and Sun
# goals are measured at every step of their owner's turn.

def _max_ench(s: GameState, p: int, arg: int) -> int:
    best = 0
    for shop in s.town_shops():
        tucked = len(s.shop_ench[shop])
        if tucked > best:
            best = tucked
    return best


def _coin_match(s: GameState, p: int, arg: int) -> int:
    return 1 if s.coins[p] >= 1 and s.coins[p] == empty_coin_slots(s) else 0


def _full(s: GameState, shop: int) -> bool:
    slots, base = s.slots, shop * 3
    return slots[base] != EMPTY and slots[base + 1] != EMPTY and slots[base + 2] != EMPTY


def _full_shops(s: GameState, p: int, arg: int) -> int:
    count = 0
    for shop in s.town_shops():
        if _full(s, shop):
            count += 1
    return count


def _shops_with_ench(s: GameState, p: int, arg: int) -> int:
    count = 0
    for shop in s.town_shops():
        if len(s.shop_ench[shop]) >= arg:
            count += 1
    return count


def _most_of_type_in_town(s: GameState, p: int, arg: int) -> int:
    counts = [0] * NUM_GOODS
    for shop in s.town_shops():
        for d in dragons_at(s, shop):
            counts[ART_TYPE[d]] += 1
    best = 0
    for count in counts:
        if count > best:
            best = count
    return best


def _showpiece(s: GameState, p: int, arg: int) -> int:
    count = 0
    for shop in s.town_shops():
        if len(s.shop_ench[shop]) >= 3 and _full(s, shop):
            count += 1
    return count


MEASURE_FUNCTIONS: Final[dict[str, Callable[[GameState, int, int], int]]] = {
    "max_same_type_in_a_shop": _max_same_type,
    "max_distinct_types_in_a_shop": _max_distinct,
    "max_enchantments_in_a_shop": _max_ench,
    "coins_match_empty_coin_slots": _coin_match,
    "most_of_one_good": lambda s, p, a: max(s.goods[p]),
    "total_goods": lambda s, p, a: sum(s.goods[p]),
    "odd_good_types": lambda s, p, a: sum(1 for g in s.goods[p] if g % 2),
    "good_types_with_at_least": lambda s, p, a: sum(1 for g in s.goods[p] if g >= a),
    "hand_size": lambda s, p, a: len(s.hand[p]),
    "fancy_held": lambda s, p, a: len(s.fancy[p]) + len(s.scored[p]),
    "full_shops": _full_shops,
    "shops_with_enchantments_at_least": _shops_with_ench,
    "most_dragons_of_one_type_in_town": _most_of_type_in_town,
    "showpiece_shops": _showpiece,
    "town_shops": lambda s, p, a: len(s.town_shops()),
    "enchantments_cast": lambda s, p, a: s.counters[p][CASTS],
    "distinct_cast_icons": lambda s, p, a: s.counters[p][CAST_ICONS].bit_count(),
    "max_variable_sets": lambda s, p, a: s.counters[p][MAX_SETS],
    "dragons_placed": lambda s, p, a: s.counters[p][PLACED],
    "shops_completed": lambda s, p, a: s.counters[p][COMPLETED],
    "gifts_given": lambda s, p, a: s.counters[p][GIFTS],
    "shops_visited": lambda s, p, a: s.counters[p][VISITED].bit_count(),
    "sun_scored": lambda s, p, a: s.counters[p][SUN_SCORED],
    "coins": lambda s, p, a: s.coins[p],
    "fancy_scored": lambda s, p, a: s.counters[p][FANCY_SCORED],
}


# Each Fancy Dragon's measure function (by catalog index), looked up by name once: a Sun's
# goal is read at every step of its owner's turn. ``None`` for a spend goal (no measure).
CARD_MEASURES: Final[tuple[Callable[[GameState, int, int], int] | None, ...]] = tuple(
    None if card.goal.spend is not None else MEASURE_FUNCTIONS[card.goal.measure]
    for card in FANCIES)


def measure(s: GameState, p: int, card: FancyCard) -> int:
    goal = card.goal
    return MEASURE_FUNCTIONS[goal.measure](s, p, goal.arg)


def fancy_value(s: GameState, p: int, card: FancyCard) -> int:
    """The Reputation this Fancy Dragon would pay p now (its fixed reward's Reputation when a
    fixed goal is met); 0 when its goal is not met."""
    goal = card.goal
    if goal.spend is not None:
        goods = s.goods[p]
        return card.reward.rep if all(goods[g] >= goal.spend[g] for g in range(NUM_GOODS)) else 0
    by_index = CARD_MEASURES[card.index]
    function = by_index if by_index is not None else MEASURE_FUNCTIONS[goal.measure]
    value = function(s, p, goal.arg)
    if card.rep_table:
        best = 0
        for threshold, rep in card.rep_table:
            if value >= threshold:
                best = rep
        return best
    if card.rep_per:
        count = max(0, value - goal.beyond) // goal.unit
        return min(card.rep_max, card.rep_per * count)
    if goal.at_least is not None and value < goal.at_least:
        return 0
    if goal.at_most is not None and value > goal.at_most:
        return 0
    return max(card.reward.rep, 1)


def goal_met(s: GameState, p: int, card: FancyCard) -> bool:
    return fancy_value(s, p, card) > 0


# What each Fancy Dragon's spend goal asks, as (Good, count) for the Goods it names, or None
# for a measured goal; computed once, since whether a Sun can be revealed is asked at every
# step of its owner's turn. A spend goal is met when it pays (reward above 0) and p has them.
SPEND_NEEDS: Final[tuple[tuple[tuple[int, int], ...] | None, ...]] = tuple(
    None if card.goal.spend is None or card.reward.rep <= 0
    else tuple((g, n) for g, n in enumerate(card.goal.spend) if n > 0)
    for card in FANCIES)


def revealable_suns(s: GameState, p: int) -> list[int]:
    """p's unscored Sun Dragons whose goals are met now."""
    out = []
    goods = s.goods[p]
    for f in s.fancy[p]:
        card = FANCIES[f]
        if not card.sun:
            continue
        needs = SPEND_NEEDS[f]
        if needs is None:
            if card.goal.spend is None and fancy_value(s, p, card) > 0:
                out.append(f)
            continue
        for g, n in needs:
            if goods[g] < n:
                break
        else:
            out.append(f)
    return out


def early_moons(s: GameState, p: int) -> list[int]:
    """p's unscored Moon Dragons that may be scored now (not end-only, paying at least 1)."""
    return [f for f in s.fancy[p]
            if not FANCIES[f].sun and not FANCIES[f].end_only and goal_met(s, p, FANCIES[f])]
