"""The turn: visit a Shop, Gather or Enchant there, end the turn; and the end of the game.

Each step is a frame on the stack. A turn starts as (bottom to top) ``P_END_TURN``,
``D_END_TURN``, ``D_VISIT``; each resolved step pushes the next ones.
"""

from __future__ import annotations

from typing import Final

from . import actions as A
from .actions import Action
from .board import (
    ART_TYPE,
    CATALOG,
    COMPANIONS,
    GOODS_LIMIT,
    HAND_LIMIT,
    SHOPS,
    add_rep,
    companion_ready,
    dragons_at,
    gain_reward,
    one_per_type,
    refill_park,
    refill_row,
    use_companion,
)
from .cards import ICON_COIN, ICON_DRAGON, ICON_RAINBOW
from .effects import place_frame, run_list
from .frames import (
    D_ABILITY,
    D_ACTION,
    D_CAST,
    D_COMPANION_USE,
    D_DISCARD,
    D_DRAW_ARTISAN,
    D_END_TURN,
    D_FIRE_ALL,
    D_FIRE_ONE,
    D_GAIN_GOOD,
    D_GIVE_TO,
    D_PAY,
    D_START_GOOD,
    D_VISIT,
    NOWHERE,
    P_CAST_FINISH,
    P_END_TURN,
    P_FIRE,
    P_GAME_END,
    P_GATHER,
    P_REFILL,
    P_SETUP_DONE,
    P_TURN_START,
    Frame,
    always,
    register,
    register_phase,
)
from .goals import FANCIES, fancy_value
from .goods import NUM_GOODS
from .solo import check_achievements, town_bustle
from .state import (
    CAST_ICONS,
    CASTS,
    EMPTY,
    FANCY_SCORED,
    MAX_SETS,
    SRC_COINS,
    SRC_ENCHANT,
    SRC_MOON,
    VISITED,
    GameState,
)

ENCHANTMENTS: Final = CATALOG.enchantments
MAX_ENCHANTMENTS: Final = 3


# --- setup ------------------------------------------------------------------------------------

def _start_good_legal(s: GameState, f: Frame) -> list[Action]:
    return [(A.TAKE_GOOD, g, -1, -1) for g in range(NUM_GOODS)]


def _start_good_resolve(s: GameState, f: Frame, a: Action) -> None:
    s.goods[f[1]][a[1]] += 1


register(D_START_GOOD, _start_good_legal, _start_good_resolve)


def _setup_done(s: GameState, f: Frame) -> None:
    s.stack.append((P_TURN_START, s.first_player))


register_phase(P_SETUP_DONE, _setup_done)


def _turn_start(s: GameState, f: Frame) -> None:
    p = f[1]
    s.current = p
    s.turn += 1
    s.fired = 0
    s.companion_turn[p] = 0
    s.stack.append((P_END_TURN, p))
    s.stack.append((D_END_TURN, p))
    s.stack.append((D_VISIT, p))


register_phase(P_TURN_START, _turn_start)


# --- visiting ---------------------------------------------------------------------------------

def occupants(s: GameState, p: int, shop: int) -> list[int]:
    return [q for q in range(s.n) if q != p and s.pos[q] == shop]


def _visit_legal(s: GameState, f: Frame) -> list[Action]:
    """Every face-up Shop but p's own that p can pay one gift to each Flamekeeper at. The
    others' positions are read once per decision, and not counted at all when p could pay
    every one of them wherever they stand."""
    p = f[1]
    pos = s.pos
    here = pos[p]
    wealth = s.coins[p]
    for count in s.goods[p]:
        wealth += count
    rich = wealth >= s.n - 1
    facedown = s.facedown
    out: list[Action] = []
    for shop in s.town:
        if shop in (EMPTY, here) or (facedown and shop in facedown):
            continue
        if not rich:
            there = 0
            for q in range(s.n):
                if q != p and pos[q] == shop:
                    there += 1
            if wealth < there:
                continue
        out.append((A.VISIT, shop, -1, -1))
    return out


def _visit_resolve(s: GameState, f: Frame, a: Action) -> None:
    p, shop = f[1], a[1]
    others = occupants(s, p, shop)
    s.pos[p] = shop
    s.counters[p][VISITED] |= 1 << shop
    s.stack.append((D_ACTION, p, shop))
    for q in reversed(others):
        s.stack.append((D_GIVE_TO, p, shop, q))


register(D_VISIT, _visit_legal, _visit_resolve, always)  # every turn's first decision


def _action_legal(s: GameState, f: Frame) -> list[Action]:
    out: list[Action] = [(A.GATHER, -1, -1, -1)]
    if any_castable(s, f[1], f[2]):
        out.append((A.ENCHANT, -1, -1, -1))
    return out


def _action_resolve(s: GameState, f: Frame, a: Action) -> None:
    p, shop = f[1], f[2]
    if a[0] == A.GATHER:
        s.stack.append((P_GATHER, p, shop))
    else:
        s.stack.append((D_FIRE_ALL, p, shop))
        s.stack.append((D_CAST, p, shop))


register(D_ACTION, _action_legal, _action_resolve)


# --- gathering --------------------------------------------------------------------------------

def _gather(s: GameState, f: Frame) -> None:
    """Gather step 1, with steps 2–4 scheduled after it."""
    p, shop = f[1], f[2]
    card = SHOPS[shop]
    if card.ability >= 0:
        s.stack.append((D_ABILITY, p, shop))
    s.stack.append((D_FIRE_ONE, p, shop))
    if s.companion[p] != EMPTY and COMPANIONS[s.companion[p]].hook == "gather_extra_place":
        s.stack.append((D_COMPANION_USE, p, shop, s.companion[p]))
    s.stack.append(place_frame(p, shop, shop, 0, True))
    goods = s.goods[p]
    if card.icon < NUM_GOODS:
        goods[card.icon] += 1
    elif card.icon == ICON_RAINBOW:
        s.stack.append((D_GAIN_GOOD, p, shop))
    elif card.icon == ICON_COIN:
        s.coins[p] += card.icon_amount
    elif card.icon == ICON_DRAGON:
        s.stack.append((D_DRAW_ARTISAN, p, shop))
    for d in dragons_at(s, shop):
        goods[ART_TYPE[d]] += 1
    for e in s.shop_ench[shop]:
        goods[ENCHANTMENTS[e].icon] += 1


register_phase(P_GATHER, _gather)


def _unfired_here(s: GameState, shop: int) -> list[int]:
    return [d for d in dragons_at(s, shop) if not s.fired >> d & 1]


def _fire_one_legal(s: GameState, f: Frame) -> list[Action]:
    out: list[Action] = [(A.FIRE, d, -1, -1) for d in _unfired_here(s, f[2])]
    if out:
        out.append((A.SKIP, A.NO_FIRE, -1, -1))
        bellows = companion_ready(s, f[1], "gather_fire_all")
        if bellows is not None and len(out) > 2:
            out.append((A.USE_COMPANION, bellows.index, -1, -1))
    return out


def _fire_resolve(s: GameState, f: Frame, a: Action) -> None:
    if a[0] == A.USE_COMPANION:  # Old Bellows: fire up every dragon here instead of 1
        use_companion(s, f[1])
        s.stack.append((D_FIRE_ALL, f[1], f[2]))
    elif a[0] == A.FIRE:
        if f[0] == D_FIRE_ALL:
            s.stack.append(f)
        s.stack.append((P_FIRE, f[1], f[2], a[1]))


register(D_FIRE_ONE, _fire_one_legal, _fire_resolve)


def _ability_legal(s: GameState, f: Frame) -> list[Action]:
    return [(A.USE_ABILITY, f[2], -1, -1), (A.SKIP, A.NO_ABILITY, -1, -1)]


def _ability_resolve(s: GameState, f: Frame, a: Action) -> None:
    if a[0] == A.USE_ABILITY:
        run_list(s, f[1], f[2], SHOPS[f[2]].ability)


register(D_ABILITY, _ability_legal, _ability_resolve)


# --- enchanting -------------------------------------------------------------------------------

def affordable(s: GameState, p: int, card_index: int, sets: int) -> bool:
    card = ENCHANTMENTS[card_index]
    goods = s.goods[p]
    if card.no_coins:
        return all(goods[g] >= card.cost[g] * sets for g in range(NUM_GOODS)) and (
            s.coins[p] >= card.printed_coins)
    short = sum(max(0, card.cost[g] * sets - goods[g]) for g in range(NUM_GOODS))
    return short + card.printed_coins <= s.coins[p]


def castable(s: GameState, p: int, shop: int) -> list[tuple[int, int]]:
    """(Enchantment, sets) that p may cast at this Shop now (ruling 11, 12, 14)."""
    card = SHOPS[shop]
    if not card.can_enchant or len(s.shop_ench[shop]) >= MAX_ENCHANTMENTS:
        return []
    candidates = s.ench_row[:]
    if s.reserved[p] != EMPTY:
        candidates.append(s.reserved[p])
    out = []
    for e in candidates:
        ench = ENCHANTMENTS[e]
        if card.icon != ICON_RAINBOW and ench.icon != card.icon:
            continue
        for sets in range(1, ench.max_sets + 1):
            if not affordable(s, p, e, sets):
                break  # a cost only grows with the sets: no more of them is affordable
            out.append((e, sets))
    return out


def any_castable(s: GameState, p: int, shop: int) -> bool:
    """Whether ``castable`` would list anything: stops at the first Enchantment p can pay one
    set of (more sets never cost less)."""
    card = SHOPS[shop]
    if not card.can_enchant or len(s.shop_ench[shop]) >= MAX_ENCHANTMENTS:
        return False
    reserved = s.reserved[p]
    for e in s.ench_row if reserved == EMPTY else [*s.ench_row, reserved]:
        if (card.icon == ICON_RAINBOW or ENCHANTMENTS[e].icon == card.icon) and affordable(
                s, p, e, 1):
            return True
    return False


def _cast_legal(s: GameState, f: Frame) -> list[Action]:
    return [(A.CAST, e, sets, -1) for e, sets in castable(s, f[1], f[2])]


def _cast_resolve(s: GameState, f: Frame, a: Action) -> None:
    p, shop = f[1], f[2]
    e, sets = a[1], a[2]
    s.coins[p] -= ENCHANTMENTS[e].printed_coins
    s.stack.append((P_CAST_FINISH, p, shop, e, sets))
    _pay_from(s, p, shop, e, sets, 0)


register(D_CAST, _cast_legal, _cast_resolve)


def _pay_range(s: GameState, p: int, e: int, sets: int, good: int) -> tuple[int, int]:
    """The fewest and most Coins p may pay toward ``good`` while staying able to pay the rest."""
    card = ENCHANTMENTS[e]
    need = card.cost[good] * sets
    have = s.goods[p][good]
    low = max(0, need - have)
    if card.no_coins:
        return low, low
    later = sum(max(0, card.cost[h] * sets - s.goods[p][h]) for h in range(good + 1, NUM_GOODS))
    return low, min(need, s.coins[p] - later)


def _pay_from(s: GameState, p: int, shop: int, e: int, sets: int, start: int) -> None:
    """Pays the cost Good by Good; asks only where Goods and Coins are both possible."""
    card = ENCHANTMENTS[e]
    for good in range(start, NUM_GOODS):
        need = card.cost[good] * sets
        if not need:
            continue
        low, high = _pay_range(s, p, e, sets, good)
        if low != high:
            s.stack.append((D_PAY, p, shop, e, sets, good))
            return
        s.goods[p][good] -= need - low
        s.coins[p] -= low


def _pay_legal(s: GameState, f: Frame) -> list[Action]:
    _, p, _shop, e, sets, good = f
    need = ENCHANTMENTS[e].cost[good] * sets
    low, high = _pay_range(s, p, e, sets, good)
    return [(A.PAY, good, need - c, c) for c in range(low, high + 1)]


def _pay_resolve(s: GameState, f: Frame, a: Action) -> None:
    _, p, shop, e, sets, good = f
    s.goods[p][good] -= a[2]
    s.coins[p] -= a[3]
    _pay_from(s, p, shop, e, sets, good + 1)


register(D_PAY, _pay_legal, _pay_resolve)


def _cast_finish(s: GameState, f: Frame) -> None:
    """Gains the Enchantment's rewards and tucks it behind the Shop."""
    _, p, shop, e, sets = f
    card = ENCHANTMENTS[e]
    if s.reserved[p] == e:
        s.reserved[p] = EMPTY
    else:
        s.ench_row.remove(e)
    s.shop_ench[shop] = (*s.shop_ench[shop], e)
    counters = s.counters[p]
    counters[CASTS] += 1
    counters[CAST_ICONS] |= 1 << card.icon
    companion = companion_ready(s, p, "after_cast")
    if companion is not None:
        use_companion(s, p)
        run_list(s, p, shop, companion.effect)
    if card.variable:
        counters[MAX_SETS] = max(counters[MAX_SETS], sets)
        add_rep(s, p, card.rep_by_sets[sets - 1], SRC_ENCHANT)
    gain_reward(s, p, card.reward, SRC_ENCHANT)


register_phase(P_CAST_FINISH, _cast_finish)


def _fire_all_legal(s: GameState, f: Frame) -> list[Action]:
    out: list[Action] = [(A.FIRE, d, -1, -1) for d in _unfired_here(s, f[2])]
    if out:
        out.append((A.SKIP, A.STOP_FIRING, -1, -1))
    return out


register(D_FIRE_ALL, _fire_all_legal, _fire_resolve)


# --- the end of a turn ------------------------------------------------------------------------

def _end_turn_legal(s: GameState, f: Frame) -> list[Action]:
    return [(A.END_TURN, -1, -1, -1)]


def _nothing(s: GameState, f: Frame, a: Action) -> None:
    return None


register(D_END_TURN, _end_turn_legal, _nothing, always)  # every turn's last decision


def _end_turn(s: GameState, f: Frame) -> None:
    """Step 1: flip new Shops; step 2: the limits (ruling 16)."""
    p = f[1]
    s.facedown.clear()
    s.stack.append((P_REFILL, p))
    goods = s.goods[p]
    for g in range(NUM_GOODS):
        if goods[g] > GOODS_LIMIT:
            goods[g] = GOODS_LIMIT
    if len(s.hand[p]) > HAND_LIMIT:
        s.stack.append((D_DISCARD, p, NOWHERE))


register_phase(P_END_TURN, _end_turn)


def _discard_legal(s: GameState, f: Frame) -> list[Action]:
    return [(A.DISCARD, d, -1, -1) for d in one_per_type(s.hand[f[1]])]


def _discard_resolve(s: GameState, f: Frame, a: Action) -> None:
    p = f[1]
    s.hand[p].remove(a[1])
    s.artisan_deck.insert(0, a[1])
    if len(s.hand[p]) > HAND_LIMIT:
        s.stack.append(f)


register(D_DISCARD, _discard_legal, _discard_resolve, always)  # one per type in a hidden hand


def _refill(s: GameState, f: Frame) -> None:
    """Step 3: refill the Park and the row; then the next turn, or the end (ruling 17)."""
    p = f[1]
    if s.n == 1:
        town_bustle(s)
    refill_park(s)
    refill_row(s)
    if s.n == 1:
        check_achievements(s, p)
    limit = s.options.variant.turns  # 0 in the rules; a research variant's turn limit
    if limit and s.turn >= limit:
        s.stack.append((P_GAME_END,))
        return
    if s.end_triggered:
        s.final_turns = s.n if s.final_turns < 0 else s.final_turns - 1
        if s.final_turns == 0:
            s.stack.append((P_GAME_END,))
            return
    s.stack.append((P_TURN_START, (p + 1) % s.n))


register_phase(P_REFILL, _refill)


def _game_end(s: GameState, f: Frame) -> None:
    """End-game scoring: Coins first, then Moon Dragons whose goals are met (ruling 19)."""
    for p in range(s.n):
        add_rep(s, p, s.coins[p], SRC_COINS)
        s.coins[p] = 0
    for p in range(s.n):
        for card in [c for c in s.fancy[p] if not FANCIES[c].sun]:
            rep = fancy_value(s, p, FANCIES[card])
            if rep > 0:
                s.fancy[p].remove(card)
                s.scored[p].append(card)
                s.counters[p][FANCY_SCORED] += 1
                add_rep(s, p, rep, SRC_MOON)
    if s.n == 1:
        check_achievements(s, 0)
    s.over = True


register_phase(P_GAME_END, _game_end)
