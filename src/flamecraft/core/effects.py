"""The effect interpreter: runs lists of effect primitives from the card data.

A primitive either changes the state at once or pushes a decision frame for its player; the
rest of its list waits below on the stack as a ``P_RUN`` frame ``(P_RUN, player, here, list,
index, dragon)``, where ``dragon`` is the Artisan Dragon being fired up (or -1). "As much as you
can" is the default (ruling 15): a primitive that can do nothing does nothing; "you may" parts
are decisions with a skip.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Final

from . import actions as A
from .actions import Action
from .board import (
    ART_TYPE,
    CATALOG,
    GOODS_LIMIT,
    add_rep,
    check_end,
    count_gift,
    dragons_at,
    draw_artisan_from_deck,
    draw_fancy,
    gain_reward,
    give_item,
    has_empty_slot,
    held_items,
    locate,
    one_per_type,
    place,
    placements,
    recipients,
    refill_park,
    shop_goods,
    take_from_park,
    town_dragons,
)
from .cards import Op, Reward
from .frames import (
    ARTISAN_LOOK_N,
    D_ARTISAN_LOOK,
    D_CHOOSE_TYPE,
    D_DISCARD,
    D_DRAW_ARTISAN,
    D_EXCHANGE_GOOD,
    D_FANCY_RETURN,
    D_FIRE_UP,
    D_GAIN_GOOD,
    D_GAIN_SET,
    D_GAIN_TWO,
    D_GIFT,
    D_GIFT_ARTISAN,
    D_GIFT_EACH,
    D_GIVE_TO,
    D_KEEP_DRAWN_FANCY,
    D_PARK_CYCLE,
    D_PLACE,
    D_RESERVE,
    D_RETURN_UP_TO,
    D_SCORE_MOON,
    D_SWAP_FIRE,
    D_SWAP_TWO,
    D_TRADE_ANY,
    D_TRADE_SAME,
    FANCY_RETURN_EFFECT,
    FIRE_UP_EFFECT,
    GAIN_SET_N,
    GAIN_TWO_N,
    GIFT_ARTISAN_EFFECT,
    GIFT_COUNT,
    GIFT_EACH_EFFECT,
    GIFT_EFFECT,
    GIVE_TO_SEAT,
    IN_HAND,
    IN_PARK,
    KEEP_FANCY_CARDS,
    KEEP_FANCY_KEEP,
    P_FIRE,
    P_GIFT_EACH_REWARD,
    P_RETURN_REWARD,
    P_RUN,
    PLACE_EFFECT,
    PLACE_OPTIONAL,
    PLACE_SCOPE,
    PLACE_SOURCE,
    RETURN_EFFECT,
    SCORE_MOON_EFFECT,
    SUPPLY,
    SWAP_FIRE_DRAGON,
    SWAP_TWO_FIRST,
    TRADE_SAME_EFFECT,
    Frame,
    always,
    register,
    register_phase,
)
from .goals import FANCIES, early_moons, fancy_value
from .goods import COIN, NUM_GOODS
from .state import (
    EMPTY,
    FANCY_SCORED,
    SRC_ABILITY,
    SRC_COMPANION,
    SRC_GIFT,
    SRC_MOON,
    GameState,
)

OPS: Final = CATALOG.op_lists
# Where Reputation gained by an op list counts in the score breakdown: its card's kind.
LIST_SOURCE: Final = [SRC_COMPANION if key.startswith("companion.") else SRC_ABILITY
                      for key in CATALOG.op_list_keys]
GOOD_SETS: Final = {n: [sum(1 << g for g in combo) for combo in combinations(range(NUM_GOODS), n)]
                    for n in range(1, NUM_GOODS + 1)}


def run_list(s: GameState, p: int, here: int, list_id: int, dragon: int = -1) -> None:
    """Schedules an op list to run (on top of the stack)."""
    if list_id >= 0:
        s.stack.append((P_RUN, p, here, list_id, 0, dragon))


def _run_phase(s: GameState, f: Frame) -> None:
    _, p, here, list_id, index, dragon = f
    ops = OPS[list_id]
    if index + 1 < len(ops):
        s.stack.append((P_RUN, p, here, list_id, index + 1, dragon))
    LIST_RUNNERS[list_id][index](s, p, here, ops[index], (list_id, index), dragon)


register_phase(P_RUN, _run_phase)


def _op(f: Frame, at: int) -> Op:
    """The op a decision frame refers to by its effect field, starting at ``at``."""
    return OPS[f[at]][f[at + 1]]


def _param_list(op: Op, name: str) -> int:
    return int(op.params.get(name, -1))


# --- gains ------------------------------------------------------------------------------------

def _gain_parts(op: Op) -> tuple[tuple[int, ...], int, Reward]:
    """A ``gain`` op's Goods (six counts, or none), its Reputation per Enchantment here, and
    the rest of what it gives as a Reward: read once from its parameters, since fire-ups
    run them at most steps of a game."""
    params = op.params
    goods = params.get("goods")
    return (tuple(goods) if goods else (), params.get("rep_per_enchantment_here", 0),
            Reward(rep=params.get("rep", 0), coins=params.get("coins", 0),
                   artisan=params.get("artisan", 0), fancy=params.get("fancy", 0),
                   good_choice=params.get("good_choice", 0)))


# Per op list, per op: a gain op's parts (``_gain_parts``); other ops' entries are unused.
GAINS: Final[list[list[tuple[tuple[int, ...], int, Reward]]]] = [
    [_gain_parts(op) if op.name == "gain" else ((), 0, Reward()) for op in ops] for ops in OPS]


def _gain(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int], dragon: int) -> None:
    goods, per_ench, reward = GAINS[ref[0]][ref[1]]
    if goods:
        mine = s.goods[p]
        for g in range(NUM_GOODS):
            mine[g] += goods[g]
    if per_ench and here >= 0:
        extra = per_ench * len(s.shop_ench[here])
        reward = Reward(rep=reward.rep + extra, coins=reward.coins, artisan=reward.artisan,
                        fancy=reward.fancy, good_choice=reward.good_choice)
    gain_reward(s, p, reward, LIST_SOURCE[ref[0]])


def _gain_good_legal(s: GameState, f: Frame) -> list[Action]:
    return [(A.GAIN_GOOD, g, -1, -1) for g in range(NUM_GOODS)]


def _gain_good_resolve(s: GameState, f: Frame, a: Action) -> None:
    s.goods[f[1]][a[1]] += 1


register(D_GAIN_GOOD, _gain_good_legal, _gain_good_resolve)


def _draw_artisan_legal(s: GameState, f: Frame) -> list[Action]:
    out: list[Action] = [(A.DRAW_PARK, d, -1, -1) for d in one_per_type(s.park)]
    if s.artisan_deck:
        out.append((A.DRAW_DECK, -1, -1, -1))
    return out


def _draw_artisan_resolve(s: GameState, f: Frame, a: Action) -> None:
    if a[0] == A.DRAW_DECK:
        draw_artisan_from_deck(s, f[1])
    else:
        take_from_park(s, f[1], a[1])


register(D_DRAW_ARTISAN, _draw_artisan_legal, _draw_artisan_resolve)


def _gain_same(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int], dr: int) -> None:
    s.stack.append((D_CHOOSE_TYPE, p, here, 0, op.params.get("n", 1)))


def _forage(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int], dr: int) -> None:
    s.stack.append((D_CHOOSE_TYPE, p, here, 1, op.params.get("max", 3)))


def _choose_type_legal(s: GameState, f: Frame) -> list[Action]:
    return [(A.CHOOSE_TYPE, g, -1, -1) for g in range(NUM_GOODS)]


def _choose_type_resolve(s: GameState, f: Frame, a: Action) -> None:
    _, p, _here, purpose, n = f
    good = a[1]
    if purpose == 0:
        s.goods[p][good] += n
    else:
        s.goods[p][good] += min(n, sum(1 for d in s.park if ART_TYPE[d] == good))


register(D_CHOOSE_TYPE, _choose_type_legal, _choose_type_resolve)


def _sources_here(s: GameState, p: int, here: int) -> int:
    """Goods that the Iron fire-up may take: the Shop's icon and its dragons, or the dragons
    in the hand or the Park it was fired up in."""
    if here >= 0:
        mask = shop_goods(here)
        dragons = dragons_at(s, here)
    elif here == IN_HAND:
        mask, dragons = 0, s.hand[p]
    elif here == IN_PARK:
        mask, dragons = 0, s.park
    else:
        mask, dragons = 0, []
    for d in dragons:
        mask |= 1 << ART_TYPE[d]
    return mask


def _gain_from_here(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int],
                    dr: int) -> None:
    s.stack.append((D_GAIN_TWO, p, here, op.params.get("n", 2)))


def _gain_two_legal(s: GameState, f: Frame) -> list[Action]:
    mask = _sources_here(s, f[1], f[2])
    return [(A.GAIN_TWO, g, f[GAIN_TWO_N], -1) for g in range(NUM_GOODS) if mask >> g & 1]


def _gain_two_resolve(s: GameState, f: Frame, a: Action) -> None:
    s.goods[f[1]][a[1]] += f[GAIN_TWO_N]


def _in_hand(s: GameState, f: Frame) -> bool:
    return f[2] == IN_HAND  # the Goods of the dragons in a hidden hand


register(D_GAIN_TWO, _gain_two_legal, _gain_two_resolve, _in_hand)


def _gain_distinct(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int],
                   dr: int) -> None:
    s.stack.append((D_GAIN_SET, p, here, op.params.get("n", 3)))


def _gain_set_legal(s: GameState, f: Frame) -> list[Action]:
    return [(A.GAIN_SET, mask, -1, -1) for mask in GOOD_SETS[f[GAIN_SET_N]]]


def _gain_set_resolve(s: GameState, f: Frame, a: Action) -> None:
    goods = s.goods[f[1]]
    for g in range(NUM_GOODS):
        if a[1] >> g & 1:
            goods[g] += 1


register(D_GAIN_SET, _gain_set_legal, _gain_set_resolve)


# --- trades and returns -----------------------------------------------------------------------

def _trade(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int], dr: int) -> None:
    params = op.params
    then = _param_list(op, "then")
    goods = s.goods[p]
    if "give" in params:
        give = params["give"]
        if all(goods[g] >= give[g] for g in range(NUM_GOODS)):
            for g in range(NUM_GOODS):
                goods[g] -= give[g]
            run_list(s, p, here, then)
    elif "give_any" in params:
        n = params["give_any"]
        if n and sum(goods) >= n:
            s.stack.append((D_TRADE_ANY, p, here, *ref, n))
    elif "give_same" in params:
        n = params["give_same"]
        if any(g >= n for g in goods):
            s.stack.append((D_TRADE_SAME, p, here, *ref))
    elif "give_coins" in params:
        n = params["give_coins"]
        if s.coins[p] >= n:
            s.coins[p] -= n
            run_list(s, p, here, then)


def _trade_any_legal(s: GameState, f: Frame) -> list[Action]:
    return [(A.RETURN, g, -1, -1) for g in range(NUM_GOODS) if s.goods[f[1]][g]]


def _trade_any_resolve(s: GameState, f: Frame, a: Action) -> None:
    _, p, here, list_id, index, left = f
    s.goods[p][a[1]] -= 1
    if left > 1:
        s.stack.append((D_TRADE_ANY, p, here, list_id, index, left - 1))
    else:
        run_list(s, p, here, _param_list(OPS[list_id][index], "then"))


register(D_TRADE_ANY, _trade_any_legal, _trade_any_resolve)


def _trade_same_legal(s: GameState, f: Frame) -> list[Action]:
    n = _op(f, TRADE_SAME_EFFECT).params["give_same"]
    return [(A.RETURN, g, -1, -1) for g in range(NUM_GOODS) if s.goods[f[1]][g] >= n]


def _trade_same_resolve(s: GameState, f: Frame, a: Action) -> None:
    op = _op(f, TRADE_SAME_EFFECT)
    s.goods[f[1]][a[1]] -= op.params["give_same"]
    run_list(s, f[1], f[2], _param_list(op, "then"))


register(D_TRADE_SAME, _trade_same_legal, _trade_same_resolve)


def _return_up_to(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int],
                  dr: int) -> None:
    s.stack.append((D_RETURN_UP_TO, p, here, *ref, 0))


def _return_legal(s: GameState, f: Frame) -> list[Action]:
    p = f[1]
    op = _op(f, RETURN_EFFECT)
    out: list[Action] = []
    if op.params.get("item", "goods") == "coins":
        if s.coins[p]:
            out.append((A.RETURN, COIN, -1, -1))
    else:
        out = [(A.RETURN, g, -1, -1) for g in range(NUM_GOODS) if s.goods[p][g]]
    out.append((A.SKIP, A.STOP_RETURNING, -1, -1))
    return out


def _return_resolve(s: GameState, f: Frame, a: Action) -> None:
    _, p, here, list_id, index, count = f
    if a[0] == A.RETURN:
        if a[1] == COIN:
            s.coins[p] -= 1
        else:
            s.goods[p][a[1]] -= 1
        count += 1
        if count < OPS[list_id][index].params.get("max", 1):
            s.stack.append((D_RETURN_UP_TO, p, here, list_id, index, count))
            return
    s.stack.append((P_RETURN_REWARD, p, here, list_id, index, count))


register(D_RETURN_UP_TO, _return_legal, _return_resolve)


def _return_reward(s: GameState, f: Frame) -> None:
    _, p, _here, list_id, index, count = f
    params = OPS[list_id][index].params
    if count and "per" in params:
        gain_reward(s, p, params["per"], SRC_ABILITY, count)
    if "bonus" in params and count >= params.get("bonus_at", 0) and count:
        gain_reward(s, p, params["bonus"], SRC_ABILITY)


register_phase(P_RETURN_REWARD, _return_reward)


# --- reserving --------------------------------------------------------------------------------

def _reserve(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int], dr: int) -> None:
    if s.ench_row and (s.reserved[p] == EMPTY or op.params.get("exchange")):
        s.stack.append((D_RESERVE, p, here, *ref))


def _reserve_legal(s: GameState, f: Frame) -> list[Action]:
    kind = A.RESERVE if s.reserved[f[1]] == EMPTY else A.EXCHANGE
    out: list[Action] = [(kind, e, -1, -1) for e in s.ench_row]
    out.append((A.SKIP, A.NO_RESERVE, -1, -1))
    return out


def _reserve_resolve(s: GameState, f: Frame, a: Action) -> None:
    p = f[1]
    if a[0] == A.RESERVE:
        s.ench_row.remove(a[1])
        s.reserved[p] = a[1]
    elif a[0] == A.EXCHANGE:
        s.ench_row[s.ench_row.index(a[1])] = s.reserved[p]
        s.reserved[p] = a[1]


register(D_RESERVE, _reserve_legal, _reserve_resolve)


# --- firing up --------------------------------------------------------------------------------

def _fire_candidates(s: GameState, p: int, here: int, op: Op) -> list[int]:
    where = op.params.get("where", "here")
    exclude = op.params.get("exclude", ())
    fired = s.fired
    if where == "hand":
        pool = one_per_type([d for d in s.hand[p] if not fired >> d & 1])
    elif where == "park":
        pool = [d for d in s.park if not fired >> d & 1]
    elif where == "here":
        pool = [d for d in dragons_at(s, here) if not fired >> d & 1] if here >= 0 else []
    else:
        pool = [d for d, shop in town_dragons(s) if shop != here and not fired >> d & 1]
    return [d for d in pool if ART_TYPE[d] not in exclude]


def _fire_up(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int], dr: int) -> None:
    """Asks which dragon to fire up when there is one; for dragons in the hand, whenever the
    hand holds any (which of them may be fired up is hidden): ``otherwise`` runs when none
    could be."""
    if s.hand[p] if op.params.get("where", "here") == "hand" else _fire_candidates(
            s, p, here, op):
        s.stack.append((D_FIRE_UP, p, here, *ref))
    else:
        run_list(s, p, here, _param_list(op, "otherwise"))


def _fire_up_legal(s: GameState, f: Frame) -> list[Action]:
    out: list[Action] = [(A.FIRE, d, -1, -1) for d in _fire_candidates(s, f[1], f[2],
                                                                          _op(f, FIRE_UP_EFFECT))]
    out.append((A.SKIP, A.NO_FIRE, -1, -1))
    return out


def fire_location(s: GameState, p: int, dragon: int) -> int:
    if dragon in s.hand[p]:
        return IN_HAND
    if dragon in s.park:
        return IN_PARK
    return locate(s, dragon) // 3


def _fire_up_resolve(s: GameState, f: Frame, a: Action) -> None:
    if a[0] == A.FIRE:
        s.stack.append((P_FIRE, f[1], fire_location(s, f[1], a[1]), a[1]))
        return
    op = _op(f, FIRE_UP_EFFECT)
    if op.params.get("where", "here") == "hand" and not _fire_candidates(s, f[1], f[2], op):
        run_list(s, f[1], f[2], _param_list(op, "otherwise"))  # asked, but none could fire


def _from_hand(s: GameState, f: Frame) -> bool:
    where: str = _op(f, FIRE_UP_EFFECT).params.get("where", "here")
    return where == "hand"


register(D_FIRE_UP, _fire_up_legal, _fire_up_resolve, _from_hand)


def _fire_phase(s: GameState, f: Frame) -> None:
    """Fires up a dragon: at most once per turn (ruling 13, extended to every fire-up)."""
    _, p, here, dragon = f
    if s.fired >> dragon & 1:
        return
    s.fired |= 1 << dragon
    run_list(s, p, here, CATALOG.fire_ups[ART_TYPE[dragon]], dragon)


register_phase(P_FIRE, _fire_phase)


def _swap_and_fire(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int],
                   dragon: int) -> None:
    if dragon >= 0 and locate(s, dragon) >= 0:
        s.stack.append((D_SWAP_FIRE, p, here, dragon))


def _swap_fire_legal(s: GameState, f: Frame) -> list[Action]:
    """Every other dragon in the face-up Town (``town_dragons``' order, without its pairs)."""
    potion = f[SWAP_FIRE_DRAGON]
    slots = s.slots
    out: list[Action] = []
    for shop in s.town_shops():
        base = shop * 3
        for k in range(3):
            d = slots[base + k]
            if d not in (EMPTY, potion):
                out.append((A.SWAP, d, -1, -1))
    return out


def _swap_fire_resolve(s: GameState, f: Frame, a: Action) -> None:
    _, p, _here, potion = f
    other = a[1]
    i, j = locate(s, potion), locate(s, other)
    s.slots[i], s.slots[j] = other, potion
    s.stack.append((P_FIRE, p, i // 3, other))


register(D_SWAP_FIRE, _swap_fire_legal, _swap_fire_resolve)


# --- placing and swapping ---------------------------------------------------------------------

def place_frame(p: int, here: int, scope: int, source: int, optional: bool,
                ref: tuple[int, int] = (-1, -1)) -> Frame:
    """A placement decision: from the hand (source 0) or the Park (1), at Shop ``scope`` or
    anywhere (-1); ``ref`` names the op whose ``cost`` is paid on placing."""
    return (D_PLACE, p, here, scope, source, int(optional), ref[0], ref[1])


def _op_cost(op: Op) -> tuple[int, ...] | None:
    cost = op.params.get("cost")
    return tuple(cost) if cost else None


# Per op list, per op: the Goods a ``place`` op costs (None: free), read once.
COSTS: Final[list[list[tuple[int, ...] | None]]] = [[_op_cost(op) for op in ops] for ops in OPS]


def _cost(f: Frame) -> tuple[int, ...] | None:
    list_id = f[PLACE_EFFECT]
    if list_id < 0:
        return None
    return COSTS[list_id][f[PLACE_EFFECT + 1]]


def _place_legal(s: GameState, f: Frame) -> list[Action]:
    """The placements; from the hand, asked whenever some hand could place (a non-empty hand,
    an empty slot in scope, the cost paid): ``do not place`` is then offered when the
    placement is optional or when no dragon of this hand fits."""
    p = f[1]
    cards = s.hand[p] if f[PLACE_SOURCE] == 0 else s.park
    if not cards:
        return []  # nothing to place: the list must come out empty, so skip building it
    cost = _cost(f)
    if cost is not None and not all(s.goods[p][g] >= cost[g] for g in range(NUM_GOODS)):
        return []
    scope = f[PLACE_SCOPE]
    out: list[Action] = [(A.PLACE, d, shop, k) for d, shop, k in placements(s, cards, scope)]
    if out:
        if f[PLACE_OPTIONAL]:
            out.append((A.SKIP, A.NO_PLACE, -1, -1))
    elif f[PLACE_SOURCE] == 0 and has_empty_slot(s, scope):
        out.append((A.SKIP, A.NO_PLACE, -1, -1))
    return out


def _place_resolve(s: GameState, f: Frame, a: Action) -> None:
    if a[0] != A.PLACE:
        return
    cost = _cost(f)
    if cost:
        goods = s.goods[f[1]]
        for g in range(NUM_GOODS):
            goods[g] -= cost[g]
    place(s, f[1], a[1], a[2], a[3])


def _hand_place(s: GameState, f: Frame) -> bool:
    return f[PLACE_SOURCE] == 0


register(D_PLACE, _place_legal, _place_resolve, _hand_place)


def _place(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int], dr: int) -> None:
    params = op.params
    scope = here if params.get("scope", "anywhere") == "here" else -1
    source = 0 if params.get("source", "hand") == "hand" else 1
    s.stack.append(place_frame(p, here, scope, source, params.get("optional", False), ref))


def _swap_two(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int], dr: int) -> None:
    if len(town_dragons(s)) >= 2:
        s.stack.append((D_SWAP_TWO, p, here, -1))


def _swap_two_legal(s: GameState, f: Frame) -> list[Action]:
    first = f[SWAP_TWO_FIRST]
    out: list[Action] = [(A.PICK, d, -1, -1) for d, _shop in town_dragons(s) if d != first]
    if first < 0:
        out.append((A.SKIP, A.NO_SWAP, -1, -1))
    return out


def _swap_two_resolve(s: GameState, f: Frame, a: Action) -> None:
    if a[0] != A.PICK:
        return
    first = f[SWAP_TWO_FIRST]
    if first < 0:
        s.stack.append((D_SWAP_TWO, f[1], f[2], a[1]))
        return
    i, j = locate(s, first), locate(s, a[1])
    s.slots[i], s.slots[j] = s.slots[j], s.slots[i]


register(D_SWAP_TWO, _swap_two_legal, _swap_two_resolve)


# --- Fancy Dragons ----------------------------------------------------------------------------

def draw_keep_fancy(s: GameState, p: int, here: int, n: int, keep: int) -> None:
    """Draw n Fancy Dragons, keep ``keep`` of them, the rest to the bottom of the deck."""
    drawn = [card for card in (draw_fancy(s, p) for _ in range(n)) if card >= 0]
    if len(drawn) > keep:
        s.stack.append((D_KEEP_DRAWN_FANCY, p, here, keep, *drawn))


def _fancy_draw(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int],
                dr: int) -> None:
    n = op.params.get("n", 1)
    draw_keep_fancy(s, p, here, n, op.params.get("keep", n))


def _keep_fancy_legal(s: GameState, f: Frame) -> list[Action]:
    return [(A.KEEP_FANCY, card, -1, -1) for card in f[KEEP_FANCY_CARDS:]]


def _keep_fancy_resolve(s: GameState, f: Frame, a: Action) -> None:
    p, here, keep = f[1], f[2], f[KEEP_FANCY_KEEP]
    rest = [card for card in f[KEEP_FANCY_CARDS:] if card != a[1]]
    if keep > 1 and len(rest) > keep - 1:
        s.stack.append((D_KEEP_DRAWN_FANCY, p, here, keep - 1, *rest))
        return
    if keep == 1:
        for card in rest:
            s.fancy[p].remove(card)
            s.fancy_deck.insert(0, card)


register(D_KEEP_DRAWN_FANCY, _keep_fancy_legal, _keep_fancy_resolve)


def _fancy_return(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int],
                  dr: int) -> None:
    if s.fancy[p]:
        s.stack.append((D_FANCY_RETURN, p, here, *ref))
    else:
        run_list(s, p, here, _param_list(op, "otherwise"))


def _fancy_return_legal(s: GameState, f: Frame) -> list[Action]:
    out: list[Action] = [(A.PUT_BACK_FANCY, card, -1, -1) for card in s.fancy[f[1]]]
    out.append((A.SKIP, A.NO_PUT_BACK, -1, -1))
    return out


def _fancy_return_resolve(s: GameState, f: Frame, a: Action) -> None:
    p, here = f[1], f[2]
    op = _op(f, FANCY_RETURN_EFFECT)
    if a[0] == A.PUT_BACK_FANCY:
        s.fancy[p].remove(a[1])
        s.fancy_deck.insert(0, a[1])
        run_list(s, p, here, _param_list(op, "then"))
    else:
        run_list(s, p, here, _param_list(op, "otherwise"))


register(D_FANCY_RETURN, _fancy_return_legal, _fancy_return_resolve)


def score_fancy(s: GameState, p: int, card: int, source: int) -> None:
    """Scores a Fancy Dragon now: its Reputation (and a Sun's extras), face up for good."""
    fancy = FANCIES[card]
    rep = fancy_value(s, p, fancy)
    s.fancy[p].remove(card)
    s.scored[p].append(card)
    s.counters[p][FANCY_SCORED] += 1
    add_rep(s, p, rep, source)


def _score_moon_now(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int],
                    dr: int) -> None:
    if s.fancy[p]:  # asked whenever p holds a Fancy Dragon: which Moons are met is hidden
        s.stack.append((D_SCORE_MOON, p, here, *ref))
    else:
        run_list(s, p, here, _param_list(op, "otherwise"))


def _score_moon_legal(s: GameState, f: Frame) -> list[Action]:
    out: list[Action] = [(A.SCORE_MOON, card, -1, -1) for card in early_moons(s, f[1])]
    out.append((A.SKIP, A.NO_SCORE, -1, -1))
    return out


def _score_moon_resolve(s: GameState, f: Frame, a: Action) -> None:
    p, here = f[1], f[2]
    op = _op(f, SCORE_MOON_EFFECT)
    if a[0] == A.SCORE_MOON:
        score_fancy(s, p, a[1], SRC_MOON)
        run_list(s, p, here, _param_list(op, "then"))
    else:
        run_list(s, p, here, _param_list(op, "otherwise"))


register(D_SCORE_MOON, _score_moon_legal, _score_moon_resolve, always)


# --- Artisan deck and Park --------------------------------------------------------------------

def _artisan_look(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int],
                  dr: int) -> None:
    if s.artisan_deck:
        s.stack.append((D_ARTISAN_LOOK, p, here, op.params.get("n", 3)))


def _artisan_look_legal(s: GameState, f: Frame) -> list[Action]:
    top = s.artisan_deck[-f[ARTISAN_LOOK_N]:]
    return [(A.KEEP_ARTISAN, d, -1, -1) for d in one_per_type(top[::-1])]


def _artisan_look_resolve(s: GameState, f: Frame, a: Action) -> None:
    """Keeps one of the top n; the others go to the bottom in the order they lay (a ruling:
    the order is the engine's, to keep the decision small)."""
    n = f[ARTISAN_LOOK_N]
    top = s.artisan_deck[-n:]
    del s.artisan_deck[-n:]
    top.remove(a[1])
    s.hand[f[1]].append(a[1])
    s.artisan_deck[0:0] = top
    check_end(s)


register(D_ARTISAN_LOOK, _artisan_look_legal, _artisan_look_resolve, always)  # hidden cards


def _park_cycle(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int],
                dr: int) -> None:
    if s.park:
        s.stack.append((D_PARK_CYCLE, p, here, 0, op.params.get("max", 2)))


def _park_cycle_legal(s: GameState, f: Frame) -> list[Action]:
    out: list[Action] = [(A.PARK_BOTTOM, d, -1, -1) for d in one_per_type(s.park)]
    out.append((A.SKIP, A.STOP_PARK, -1, -1))
    return out


def _park_cycle_resolve(s: GameState, f: Frame, a: Action) -> None:
    _, p, here, count, most = f
    if a[0] == A.PARK_BOTTOM:
        s.park.remove(a[1])
        s.artisan_deck.insert(0, a[1])
        count += 1
        if count < most and s.park:
            s.stack.append((D_PARK_CYCLE, p, here, count, most))
            return
    if count:
        refill_park(s)


register(D_PARK_CYCLE, _park_cycle_legal, _park_cycle_resolve)


# --- gifts ------------------------------------------------------------------------------------

def _gift(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int], dr: int) -> None:
    s.stack.append((D_GIFT, p, here, *ref, 0))


def _gift_legal(s: GameState, f: Frame) -> list[Action]:
    p = f[1]
    out: list[Action] = [(A.GIFT, item, to, -1) for item in held_items(s, p)
                         for to in recipients(s, p)]
    if out and (_op(f, GIFT_EFFECT).params.get("optional", False) or f[GIFT_COUNT] > 0):
        out.append((A.SKIP, A.NO_GIFT, -1, -1))
    return out


def _gift_resolve(s: GameState, f: Frame, a: Action) -> None:
    _, p, here, list_id, index, count = f
    op = OPS[list_id][index]
    if a[0] == A.GIFT:
        give_item(s, p, a[1], a[2])
        count += 1
        if "per" in op.params:
            gain_reward(s, p, op.params["per"], SRC_GIFT)
        if count < op.params.get("max", 1):
            s.stack.append((D_GIFT, p, here, list_id, index, count))
            return
    if count:
        run_list(s, p, here, _param_list(op, "then"))


register(D_GIFT, _gift_legal, _gift_resolve)


def _gift_each(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int], dr: int) -> None:
    if sum(s.goods[p]) + s.coins[p] >= len(recipients(s, p)):
        s.stack.append((D_GIFT_EACH, p, here, *ref))


def _gift_each_legal(s: GameState, f: Frame) -> list[Action]:
    return [(A.GIFT_EACH, -1, -1, -1), (A.SKIP, A.NO_GIFT, -1, -1)]


def _gift_each_resolve(s: GameState, f: Frame, a: Action) -> None:
    if a[0] != A.GIFT_EACH:
        return
    p, here = f[1], f[2]
    at = GIFT_EACH_EFFECT
    s.stack.append((P_GIFT_EACH_REWARD, p, here, f[at], f[at + 1]))
    for to in reversed(recipients(s, p)):
        s.stack.append((D_GIVE_TO, p, here, to))


register(D_GIFT_EACH, _gift_each_legal, _gift_each_resolve)


def _gift_each_reward(s: GameState, f: Frame) -> None:
    _, p, here, list_id, index = f
    op = OPS[list_id][index]
    add_rep(s, p, op.params.get("per_gift_rep", 0) * len(recipients(s, p)), SRC_GIFT)
    run_list(s, p, here, _param_list(op, "then"))


register_phase(P_GIFT_EACH_REWARD, _gift_each_reward)


def _give_to_legal(s: GameState, f: Frame) -> list[Action]:
    return [(A.GIVE, item, f[GIVE_TO_SEAT], -1) for item in held_items(s, f[1])]


def _give_to_resolve(s: GameState, f: Frame, a: Action) -> None:
    give_item(s, f[1], a[1], a[2])


register(D_GIVE_TO, _give_to_legal, _give_to_resolve)


def _gift_artisan(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int],
                  dr: int) -> None:
    if s.hand[p]:
        s.stack.append((D_GIFT_ARTISAN, p, here, *ref))


def _gift_artisan_legal(s: GameState, f: Frame) -> list[Action]:
    p = f[1]
    out: list[Action] = [(A.GIFT_ARTISAN, d, to, -1) for d in one_per_type(s.hand[p])
                         for to in recipients(s, p)]
    out.append((A.SKIP, A.NO_GIFT, -1, -1))
    return out


def _gift_artisan_resolve(s: GameState, f: Frame, a: Action) -> None:
    if a[0] != A.GIFT_ARTISAN:
        return
    p = f[1]
    s.hand[p].remove(a[1])
    if a[2] == SUPPLY:  # solo: a gifted dragon goes to the bottom of the Artisan deck
        s.artisan_deck.insert(0, a[1])
    else:
        s.hand[a[2]].append(a[1])
    count_gift(s, p)
    run_list(s, p, f[2], _param_list(_op(f, GIFT_ARTISAN_EFFECT), "then"))


register(D_GIFT_ARTISAN, _gift_artisan_legal, _gift_artisan_resolve, always)  # a hidden hand


# --- conditions -------------------------------------------------------------------------------

CONDITIONS: Final[dict[str, Callable[[GameState, int], bool]]] = {
    "lowest_rep": lambda s, p: s.n > 1 and all(s.rep[q] >= s.rep[p] for q in range(s.n)),
}


def _if(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int], dr: int) -> None:
    branch = "then" if CONDITIONS[op.params["cond"]](s, p) else "otherwise"
    run_list(s, p, here, _param_list(op, branch))


def _exchange_good(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int],
                   dr: int) -> None:
    if exchanges(s, p):
        s.stack.append((D_EXCHANGE_GOOD, p, here))


def exchanges(s: GameState, p: int) -> list[Action]:
    """Each ``return X for Y`` open to p: any Good held for another type; once the end of
    the turn has applied the Goods limit (p is discarding), only for a type held fewer than 7
    of, so the turn still ends within the limit (Companion further ruling 6)."""
    goods = s.goods[p]
    limited = any(f[0] == D_DISCARD and f[1] == p for f in s.stack)
    return [(A.EXCHANGE_GOOD, g, h, -1) for g in range(NUM_GOODS) if goods[g]
            for h in range(NUM_GOODS)
            if h != g and not (limited and goods[h] >= GOODS_LIMIT)]


def _exchange_legal(s: GameState, f: Frame) -> list[Action]:
    return exchanges(s, f[1])


def _exchange_resolve(s: GameState, f: Frame, a: Action) -> None:
    goods = s.goods[f[1]]
    goods[a[1]] -= 1
    goods[a[2]] += 1


register(D_EXCHANGE_GOOD, _exchange_legal, _exchange_resolve)


OpRunner = Callable[[GameState, int, int, Op, tuple[int, int], int], None]
OP_RUNNERS: Final[dict[str, OpRunner]] = {
    "gain": _gain,
    "gain_same": _gain_same,
    "gain_distinct": _gain_distinct,
    "gain_from_here": _gain_from_here,
    "trade": _trade,
    "return_up_to": _return_up_to,
    "reserve": _reserve,
    "fire_up": _fire_up,
    "fancy_draw": _fancy_draw,
    "fancy_return": _fancy_return,
    "artisan_look": _artisan_look,
    "score_moon_now": _score_moon_now,
    "gift": _gift,
    "gift_each": _gift_each,
    "gift_artisan": _gift_artisan,
    "place": _place,
    "swap_two": _swap_two,
    "swap_and_fire": _swap_and_fire,
    "park_cycle": _park_cycle,
    "if": _if,
    "forage": _forage,
    "exchange_good": _exchange_good,
}
# Per op list, per op: its runner, looked up once rather than by name at every step.
LIST_RUNNERS: Final[list[list[OpRunner]]] = [[OP_RUNNERS[op.name] for op in ops] for ops in OPS]
