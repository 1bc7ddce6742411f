"""The position valuation shared by the greedy, planner and search bots.

``value(s, p)`` estimates, in Reputation, what player p's position is worth: Reputation
already earned, Coins, Goods (more when they bring a visible Enchantment or one of p's own
Fancy goals closer), dragons in hand, the Fancy Dragons p holds, what the decisions p still has
to take this turn are likely to give, and the best Shop p can gather from next turn. Resources
are discounted as the end approaches: a Good left over when the game ends is worth nothing.

Why it may read p's hidden cards: every caller evaluates either a determinized sample (where
the other seats' cards are made up) or p's own seat, so a valuation never reveals a true hidden
card of another seat to a bot. ``public_value`` reads only what everybody sees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from ..core.board import ART_TYPE, CATALOG, dragons_at
from ..core.cards import ICON_COIN, ICON_DRAGON, ICON_RAINBOW
from ..core.engine import apply_in_place, legal_actions, to_act
from ..core.frames import (
    CAST_FINISH_ENCHANTMENT,
    CAST_FINISH_SETS,
    CHOOSE_TYPE_N,
    CHOOSE_TYPE_PURPOSE,
    D_ABILITY,
    D_ACTION,
    D_CAST,
    D_CHOOSE_TYPE,
    D_DRAW_ARTISAN,
    D_FIRE_ALL,
    D_FIRE_ONE,
    D_GAIN_GOOD,
    D_GAIN_SET,
    D_GAIN_TWO,
    D_PAY,
    D_PLACE,
    D_VISIT,
    GAIN_SET_N,
    P_CAST_FINISH,
    PAY_ENCHANTMENT,
    PAY_GOOD,
    PAY_SETS,
)
from ..core.goals import MEASURE_FUNCTIONS, fancy_value
from ..core.goods import NUM_GOODS
from ..core.state import EMPTY, GameState
from ..core.tr import N_
from ..core.turn import affordable

_ENCH: Final = CATALOG.enchantments
_SHOPS: Final = CATALOG.shops
_FANCY: Final = CATALOG.fancies
_BREAD: Final = 0
_MEAT: Final = 1
_IRON: Final = 2
_POTION: Final = 3
_CRYSTAL: Final = 4
_PLANT: Final = 5

# Closeness credit by how many Goods are still missing (0, 1, 2, …): the share of an
# Enchantment's or a Sun Dragon's Reputation counted as already "in hand" (half of it when it
# could be cast now: another player may take it first, and casting takes a turn).
_Q: Final = (0.5, 0.36, 0.25, 0.16, 0.1, 0.06, 0.03, 0.015, 0.0)
_Q_SUN: Final = (0.85, 0.45, 0.3, 0.18, 0.1, 0.05, 0.02, 0.0)


@dataclass(frozen=True)
class Weights:
    """The valuation's knobs (Reputation per unit). Every bot takes a ``weights`` argument, so
    a variant can be tried in a tournament without touching the others."""

    good: float = 0.32  # a Good with no particular use
    coin_bonus: float = 0.15  # a Coin over its 1 Reputation at the end: it is wild
    dragon: float = 1.0  # an Artisan Dragon in hand
    fancy_base: float = 1.2  # an unscored Fancy Dragon with no progress yet
    second_target: float = 0.35  # weight of the second-best Enchantment target
    contested: float = 0.08  # per other player: the chance an Enchantment in the row is taken
    next_shop: float = 0.35  # weight of the best Shop to gather from next turn
    pending: float = 1.0  # weight of the decisions left this turn
    opponents: float = 1.0  # weight of the others' public value (relative valuation)


DEFAULT: Final = Weights()


def _q(table: tuple[float, ...], short: int) -> float:
    return table[short] if short < len(table) else 0.0


# --- the end of the game ------------------------------------------------------------------

def turns_left(s: GameState, p: int) -> float:
    """How many more turns p will start after the present moment (an estimate before the end
    is triggered, exact after). The turn in progress is not counted."""
    n = s.n
    cur = s.current
    if s.over:
        return 0.0
    if s.end_triggered:
        # During the triggering turn final_turns is -1: n more turns follow it. Later it
        # counts the final turns left including the one in progress.
        after = n if s.final_turns < 0 else s.final_turns - 1
        dist = (p - cur) % n or n
        return 1.0 if dist <= after else 0.0
    # Rough rates seen in bot games: the Artisan deck shrinks by about 0.55 cards a turn and
    # the Enchantment deck by about 0.3; whichever runs out first ends the game, then everyone
    # has one more turn.
    total = min(len(s.artisan_deck) / 0.55, len(s.ench_deck) / 0.3) + n
    return max(1.0, total / n)


def phase(s: GameState, p: int) -> float:
    """How much a resource still to be used is worth: 1 with several turns left, less near the
    end, 0 when p has no turn left to use it."""
    left = turns_left(s, p)
    if left <= 0:
        return 0.0
    return min(1.0, 0.45 + 0.18 * left)


# --- Goods toward goals -------------------------------------------------------------------

def _short(goods: list[int], cost: tuple[int, ...], sets: int) -> int:
    short = 0
    for g in range(NUM_GOODS):
        c = cost[g]
        if c:
            missing = c * sets - goods[g]
            if missing > 0:
                short += missing
    return short


def ench_reward(e: int, sets: int) -> float:
    """What casting Enchantment e with ``sets`` sets gives, in Reputation."""
    return _REWARD[e][sets]


def _reward_of(e: int, sets: int) -> float:
    card = _ENCH[e]
    r = card.reward
    rep = card.rep_by_sets[sets - 1] if card.variable and sets >= 1 else 0
    return rep + r.rep + r.coins + 1.0 * r.artisan + 1.3 * r.fancy + 0.5 * r.good_choice


# Per Enchantment: its (Good, count) pairs, and its reward by number of sets (index 0 unused).
_COST_PAIRS: Final = [tuple((g, c) for g, c in enumerate(card.cost) if c) for card in _ENCH]
_REWARD: Final = [[0.0] + [_reward_of(card.index, k) for k in range(1, card.max_sets + 1)]
                  for card in _ENCH]


def _enchantable_icons(s: GameState) -> int:
    """Bit mask of the Enchantment icons some face-up Shop in Town can still take."""
    mask = 0
    for shop in s.town:
        if shop < 0 or len(s.shop_ench[shop]) >= 3 or shop in s.facedown:
            continue
        icon = _SHOPS[shop].icon
        if icon < NUM_GOODS:
            mask |= 1 << icon
        elif icon == ICON_RAINBOW:
            return 0b111111
    return mask


Targets = tuple[tuple[float, int, int, int], ...]

# targets() by everything it reads: a search values thousands of positions that share the
# Enchantment row and a seat's Goods, so each combination is worked out once. The values are
# immutable (tuples); the cache is emptied when it grows past its bound.
_TARGETS: Final[dict[tuple[int, ...], Targets]] = {}
_TARGETS_BOUND: Final = 1 << 16


def targets(s: GameState, p: int) -> Targets:
    """(credit, Enchantment, sets, Goods missing) for each Enchantment p could aim for, best
    first: the face-up row and p's reserved one."""
    icons = _enchantable_icons(s)
    key = (s.n, s.reserved[p], icons, s.coins[p], *s.goods[p], *s.ench_row)
    found = _TARGETS.get(key)
    if found is None:
        if len(_TARGETS) >= _TARGETS_BOUND:
            _TARGETS.clear()
        found = _TARGETS[key] = _targets(s, p, icons)
    return found


def _targets(s: GameState, p: int, icons: int) -> Targets:
    goods = s.goods[p]
    coins = s.coins[p]
    out = []
    contested = 1.0 - DEFAULT.contested * (s.n - 1)
    reserved = s.reserved[p]
    cands = s.ench_row if reserved == EMPTY else [*s.ench_row, reserved]
    for e in cands:
        card = _ENCH[e]
        pairs = _COST_PAIRS[e]
        rewards = _REWARD[e]
        best_credit, best_sets, best_short = 0.0, 1, 99
        for sets in range(1, len(rewards)):
            reward = rewards[sets]
            if reward <= 0:
                continue
            short = 0
            for g, c in pairs:
                missing = c * sets - goods[g]
                if missing > 0:
                    short += missing
            if card.no_coins:
                if coins < card.printed_coins:
                    short += card.printed_coins - coins
            else:
                short = short + card.printed_coins - coins
                if short < 0:
                    short = 0
            credit = reward * (_Q[short] if short < len(_Q) else 0.0)
            if credit > best_credit:
                best_credit, best_sets, best_short = credit, sets, short
        if best_credit <= 0:
            continue
        if e != reserved:
            best_credit *= contested
        if not icons >> card.icon & 1:
            best_credit *= 0.4
        out.append((best_credit, e, best_sets, best_short))
    out.sort(reverse=True)
    return tuple(out)


def _goods_value(s: GameState, p: int, w: Weights, ph: float,
                 tg: Targets) -> float:
    goods = s.goods[p]
    v = 0.0
    for g in range(NUM_GOODS):
        k = goods[g]
        if k > 7:
            k = 7
        v += k if k <= 4 else 4 + 0.5 * (k - 4)
    v *= w.good * ph
    if tg:
        v += tg[0][0] * ph
        if len(tg) > 1:
            v += tg[1][0] * w.second_target * ph
    return v


# --- Fancy Dragons ------------------------------------------------------------------------

def _fancy_reward(card_index: int) -> float:
    r = _FANCY[card_index].reward
    return r.coins + 1.0 * r.artisan + 1.3 * r.fancy + 0.5 * r.good_choice


# Measures that never go down: an "at most" goal over its limit on one of them is lost.
_ONLY_GROW: Final = frozenset({"gifts_given", "dragons_placed", "shops_completed", "shops_visited",
                               "enchantments_cast", "distinct_cast_icons", "sun_scored",
                               "fancy_scored"})


def fancy_worth(s: GameState, p: int, f: int, ph: float, w: Weights = DEFAULT) -> float:
    """What one of p's unscored Fancy Dragons is worth now."""
    card = _FANCY[f]
    goal = card.goal
    base = w.fancy_base * ph
    if card.sun:
        if ph <= 0 and s.current != p:
            return 0.0
        full = card.reward.rep + _fancy_reward(f)
        if goal.spend is not None:
            # Net of the Goods it will take (they are valued with the rest of p's Goods), so
            # revealing a met one is always worth more than keeping it.
            short = _short(s.goods[p], goal.spend, 1)
            net = full - sum(goal.spend) * (w.good + 0.15)
            return max(base, net * _q(_Q_SUN, short) * max(ph, 0.5))
        now = fancy_value(s, p, card)
        if now > 0:
            return full * 0.9
        if goal.at_least:
            m = MEASURE_FUNCTIONS[goal.measure](s, p, goal.arg)
            ratio = min(1.0, m / goal.at_least)
            return max(base, full * 0.55 * ratio * ratio * ph)
        return base
    # Moon Dragons score at the end from what holds then.
    now = fancy_value(s, p, card)
    if goal.at_most is not None:
        # "at most" goals can still be lost: worth more as the end nears.
        if now > 0:
            return now * (1.0 - 0.5 * ph)
        if goal.measure in _ONLY_GROW:
            return 0.0  # lost for good
        # Not met yet but reachable by spending (fewer Goods): a share by how far over it is,
        # so the bot steers toward it as the end nears.
        over = MEASURE_FUNCTIONS[goal.measure](s, p, goal.arg) - goal.at_most
        return card.reward.rep * 0.6 * max(0.0, 1.0 - over / 6.0) * (1.0 - 0.5 * ph)
    if card.rep_table or card.rep_per:
        # Grows with the measure; the present score is safe (measures only grow).
        return now + 0.5 * base
    if now > 0:
        return float(now)
    if goal.at_least:
        m = MEASURE_FUNCTIONS[goal.measure](s, p, goal.arg)
        ratio = min(1.0, m / goal.at_least)
        return max(base, card.reward.rep * 0.6 * ratio * ratio * ph)
    return base


def _fancy_value(s: GameState, p: int, w: Weights, ph: float) -> float:
    return sum(fancy_worth(s, p, f, ph, w) for f in s.fancy[p])


# --- Shops: what gathering or enchanting there gives --------------------------------------

def good_values(s: GameState, p: int, w: Weights = DEFAULT,
                tg: Targets | None = None) -> list[float]:
    """The worth of 1 more of each Good to p (a flat base plus how much closer it brings p's
    best targets)."""
    ph = phase(s, p)
    goods = s.goods[p]
    out = [w.good * ph if goods[g] < 7 else 0.0 for g in range(NUM_GOODS)]
    if tg is None:
        tg = targets(s, p)
    for credit, e, sets, short in tg[:2]:
        if short <= 0 or short >= len(_Q):
            continue
        gain = credit / _Q[short] * (_Q[short - 1] - _Q[short]) * ph
        for g, c in _COST_PAIRS[e]:
            if c * sets > goods[g]:
                out[g] += gain
    for f in s.fancy[p]:
        spend = _FANCY[f].goal.spend
        if spend is None:
            continue
        short = _short(goods, spend, 1)
        if short <= 0:
            continue
        full = _FANCY[f].reward.rep
        gain = full * (_q(_Q_SUN, short - 1) - _q(_Q_SUN, short)) * ph
        for g in range(NUM_GOODS):
            if spend[g] > goods[g]:
                out[g] += gain
    return out


# What firing up one dragon of each type gives, in Goods-of-choice units (see fire_ups.toml).
_FIRE_UNITS: Final = {_BREAD: 0.0, _MEAT: 0.0, _IRON: 2.0, _POTION: 1.0, _CRYSTAL: 3.0, _PLANT: 0.0}


def fire_value(s: GameState, p: int, dragon: int, gv: float, w: Weights) -> float:
    """A rough worth of firing up one dragon (its type's fire-up)."""
    t = ART_TYPE[dragon]
    if t == _BREAD:
        return w.dragon * 0.9
    if t == _MEAT:
        return 0.8 if s.hand[p] else 0.0
    if t == _PLANT:
        return 1.6 - gv if (sum(s.goods[p]) or s.coins[p]) else 0.0
    return _FIRE_UNITS[t] * gv


def gather_value(s: GameState, p: int, shop: int, gvs: list[float], w: Weights) -> float:
    """What gathering at a Shop is likely worth to p (step 1 in full, steps 2-4 roughly)."""
    return _gather_value(s, p, shop, gvs, w, max(gvs), sum(gvs) / NUM_GOODS, -1.0)


def _gather_value(s: GameState, p: int, shop: int, gvs: list[float], w: Weights,
                  best_gv: float, mean_gv: float, ph: float) -> float:
    """``gather_value`` with what is the same for every Shop worked out by the caller (the
    best and mean Good values; p's phase, or -1 for "not yet"), and the slots read in place:
    ``next_shop_value`` asks it of every Shop in Town, at every position a search values."""
    card = _SHOPS[shop]
    v = 0.0
    icon = card.icon
    if icon < NUM_GOODS:
        v += gvs[icon]
    elif icon == ICON_RAINBOW:
        v += best_gv
    elif icon == ICON_COIN:
        v += card.icon_amount * (1.0 + w.coin_bonus)
    elif icon == ICON_DRAGON:
        v += w.dragon * (phase(s, p) if ph < 0 else ph)
    fire = 0.0
    slots = s.slots
    base = shop * 3
    open_slot = False
    for k in range(3):
        d = slots[base + k]
        if d == EMPTY:
            open_slot = True
            continue
        v += gvs[ART_TYPE[d]]
        f = fire_value(s, p, d, mean_gv, w)
        if f > fire:
            fire = f
    for e in s.shop_ench[shop]:
        v += gvs[_ENCH[e].icon]
    v += 0.8 * fire
    if card.ability >= 0:
        v += 0.6
    if s.hand[p] and open_slot:
        v += 0.3
    return v


def _cast_nets(s: GameState, p: int, gvs: list[float]) -> list[float]:
    """Per Enchantment icon: the best net worth (reward minus the Goods and Coins paid) of an
    Enchantment p can afford now; -1e9 where there is none."""
    nets = [-1e9] * NUM_GOODS
    goods = s.goods[p]
    reserved = s.reserved[p]
    cands = s.ench_row if reserved == EMPTY else [*s.ench_row, reserved]
    for e in cands:
        card = _ENCH[e]
        rewards = _REWARD[e]
        for sets in range(1, len(rewards)):
            if not affordable(s, p, e, sets):
                break
            pay = 0.0
            for g, c in _COST_PAIRS[e]:
                need = c * sets
                have = goods[g]
                pay += gvs[g] * need if need <= have else gvs[g] * have + (need - have) * 1.1
            net = rewards[sets] - pay - card.printed_coins
            if net > nets[card.icon]:
                nets[card.icon] = net
    return nets


def _shop_net(shop: int, nets: list[float]) -> float:
    icon = _SHOPS[shop].icon
    if icon < NUM_GOODS:
        return nets[icon]
    return max(nets) if icon == ICON_RAINBOW else -1e9


def cast_value(s: GameState, p: int, shop: int, gvs: list[float], w: Weights,
               nets: list[float]) -> float:
    """What enchanting at a Shop is likely worth to p: the best cast (``nets`` from
    ``_cast_nets``), plus firing up every dragon there; -1e9 when p cannot enchant there."""
    if len(s.shop_ench[shop]) >= 3:
        return -1e9
    best = _shop_net(shop, nets)
    if best <= -1e9:
        return -1e9
    mean_gv = sum(gvs) / NUM_GOODS
    fire = sum(fire_value(s, p, d, mean_gv, w) for d in dragons_at(s, shop))
    return best + 0.8 * fire


def _visit_cost(s: GameState, p: int, shop: int, gvs: list[float]) -> float:
    others = sum(1 for q in range(s.n) if q != p and s.pos[q] == shop)
    return others * min(min(gvs), 1.0) if others else 0.0


def _pending(s: GameState, p: int, w: Weights, gvs: list[float]) -> float:
    """What the decisions p has left this turn are likely worth (they are not taken yet, so
    the position alone does not show them). A kind of decision not named here counts for
    nothing: a new kind needs no line here to be played."""
    v = 0.0
    nets: list[float] = []
    for f in s.stack:
        kind = f[0]
        if kind == P_CAST_FINISH and f[1] == p:
            # a cast being paid for: its reward is coming
            v += ench_reward(f[CAST_FINISH_ENCHANTMENT], f[CAST_FINISH_SETS])
            continue
        if kind >= 100 or f[1] != p:
            continue
        if kind == D_PAY:
            # The Goods still to be paid are still counted with p's Goods: take them off.
            cost, sets = _ENCH[f[PAY_ENCHANTMENT]].cost, f[PAY_SETS]
            v -= sum(cost[g] * sets * gvs[g] for g in range(f[PAY_GOOD], NUM_GOODS))
            continue
        if not nets and kind in (D_VISIT, D_ACTION, D_CAST):
            nets = _cast_nets(s, p, gvs)
        if kind == D_VISIT:
            best = 0.0
            for shop in s.town_shops():
                if shop == s.pos[p]:
                    continue
                val = max(gather_value(s, p, shop, gvs, w),
                          cast_value(s, p, shop, gvs, w, nets))
                val -= _visit_cost(s, p, shop, gvs)
                if val > best:
                    best = val
            v += best
        elif kind == D_ACTION:
            v += max(gather_value(s, p, f[2], gvs, w), cast_value(s, p, f[2], gvs, w, nets))
        elif kind == D_CAST:
            v += max(0.0, _shop_net(f[2], nets)) if f[2] >= 0 else 0.0
        elif kind == D_GAIN_GOOD:
            v += max(gvs)
        elif kind == D_CHOOSE_TYPE:
            v += max(gvs) * (f[CHOOSE_TYPE_N] if f[CHOOSE_TYPE_PURPOSE] == 0 else 1)
        elif kind == D_GAIN_TWO:
            v += 2 * max(gvs)
        elif kind == D_GAIN_SET:
            v += sum(sorted(gvs)[-f[GAIN_SET_N]:])
        elif kind == D_DRAW_ARTISAN:
            v += w.dragon * phase(s, p)
        elif kind in (D_FIRE_ONE, D_FIRE_ALL) and f[2] >= 0:
            mean_gv = sum(gvs) / NUM_GOODS
            fires = [fire_value(s, p, d, mean_gv, w) for d in dragons_at(s, f[2])
                     if not s.fired >> d & 1]
            if fires:
                v += 0.8 * (max(fires) if kind == D_FIRE_ONE else sum(fires))
        elif kind == D_ABILITY:
            v += 0.6
        elif kind == D_PLACE and s.hand[p]:
            v += 0.3
    return v * w.pending


def next_shop_value(s: GameState, p: int, w: Weights, gvs: list[float]) -> float:
    """The best gathering p can look forward to next turn (not the Shop it stands on)."""
    best = 0.0
    best_gv, mean_gv, ph = max(gvs), sum(gvs) / NUM_GOODS, phase(s, p)
    for shop in s.town_shops():
        if shop == s.pos[p]:
            continue
        val = _gather_value(s, p, shop, gvs, w, best_gv, mean_gv, ph)
        if val > best:
            best = val
    return best


# --- the whole position -------------------------------------------------------------------

def value(s: GameState, p: int, w: Weights = DEFAULT) -> float:
    """p's position in Reputation (see the module docstring)."""
    if s.over:
        return s.rep[p] + 0.01 * len(s.hand[p]) + 0.001 * sum(s.goods[p])
    ph = phase(s, p)
    v = float(s.rep[p]) + s.coins[p] * (1.0 + w.coin_bonus * ph)
    tg = targets(s, p)
    v += _goods_value(s, p, w, ph, tg)
    hand = len(s.hand[p])
    v += w.dragon * ph * (hand if hand <= 6 else 6 + 0.3 * (hand - 6))
    v += 0.01 * hand
    v += _fancy_value(s, p, w, ph)
    mine = s.current == p and bool(s.stack)
    if mine or ph > 0:
        gvs = good_values(s, p, w, tg)
        if mine:
            v += _pending(s, p, w, gvs)
        if ph > 0:
            v += w.next_shop * ph * next_shop_value(s, p, w, gvs)
    return v


# The parts of ``value`` by name, as ``value_terms`` gives them (hints explain with them).
TERMS = ("rep", "coins", "goods", "targets", "dragons", "fancy", "pending", "next_shop")
# (msgids: a hint's reason names them in the reader's language, ai/hints.py)
TERM_NAMES = {"rep": N_("Reputation"), "coins": N_("Coins"), "goods": N_("Goods"),
              "targets": N_("Enchantment targets"), "dragons": N_("dragons in hand"),
              "fancy": N_("Fancy Dragons"), "pending": N_("the rest of the turn"),
              "next_shop": N_("next turn's Shop")}


def value_terms(s: GameState, p: int, w: Weights = DEFAULT) -> dict[str, float]:
    """``value(s, p)`` split into its parts (``TERMS``; they add up to it): what a hint's
    reason names. Kept beside ``value`` rather than inside it, which must stay fast."""
    out = dict.fromkeys(TERMS, 0.0)
    if s.over:
        out["rep"] = float(s.rep[p])
        out["dragons"] = 0.01 * len(s.hand[p])
        out["goods"] = 0.001 * sum(s.goods[p])
        return out
    ph = phase(s, p)
    out["rep"] = float(s.rep[p])
    out["coins"] = s.coins[p] * (1.0 + w.coin_bonus * ph)
    tg = targets(s, p)
    base = _goods_value(s, p, w, ph, ())
    out["goods"] = base
    out["targets"] = _goods_value(s, p, w, ph, tg) - base
    hand = len(s.hand[p])
    out["dragons"] = w.dragon * ph * (hand if hand <= 6 else 6 + 0.3 * (hand - 6)) + 0.01 * hand
    out["fancy"] = _fancy_value(s, p, w, ph)
    mine = s.current == p and bool(s.stack)
    if mine or ph > 0:
        gvs = good_values(s, p, w, tg)
        if mine:
            out["pending"] = _pending(s, p, w, gvs)
        if ph > 0:
            out["next_shop"] = w.next_shop * ph * next_shop_value(s, p, w, gvs)
    return out


def public_value(s: GameState, q: int) -> float:
    """q's position from what everybody sees: Reputation, Coins, Goods, card counts."""
    if s.over:
        return float(s.rep[q])
    ph = phase(s, q)
    goods = sum(min(g, 7) for g in s.goods[q])
    return (s.rep[q] + s.coins[q] + ph * (0.45 * goods + DEFAULT.dragon * min(len(s.hand[q]), 6)
                                          + DEFAULT.fancy_base * 1.5 * len(s.fancy[q])))


def settle(s: GameState, p: int) -> GameState:
    """``s`` (a state the caller owns: changed in place) past p's decisions that have a single
    action — the `end turn` asked every turn, a lone decline (docs/rules.md, ruling 20) —:
    where a search values a move is p's next real choice, or the end of its turn with the
    limits and refills done, as before the engine asked such decisions."""
    while not s.over and to_act(s) == p:
        actions = legal_actions(s)
        if len(actions) != 1:
            break
        apply_in_place(s, actions[0])
    return s


def relative(s: GameState, p: int, w: Weights = DEFAULT) -> float:
    """p's value minus the others' (their mean, leaning toward the strongest): what a bot
    maximises, so that helping an opponent counts against an action."""
    own = value(s, p, w)
    if s.n == 1:
        return own
    others = [public_value(s, q) for q in range(s.n) if q != p]
    return own - w.opponents * (0.5 * max(others) + 0.5 * sum(others) / len(others))


def squash(x: float, scale: float = 4.0) -> float:
    """A margin in Reputation mapped to (0, 1): the reward of a search."""
    if x > 60:
        return 1.0
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x / scale))
