"""Single-observer information-set MCTS (SO-ISMCTS), and the cheater that searches the truth.

Each iteration draws the hidden part of the game with ``seat.sample`` (a determinization
consistent with the bot's view; a pool of samples is reused round-robin because drawing one
costs ten state copies), then walks one tree of the bot's own decisions of the turn in
progress, shared by all samples: at each node only the actions legal in this sample count, and
UCB uses how often each action was *available* rather than the parent's visits (Cowling,
Powley & Whitehouse 2012). The subtree of the chosen action is kept for the next decision of
the same turn.

How a node is valued (``complete``):

- "plan" (the default): every iteration values *all* of the root's actions on its sample, and
  a new node below it once, the same way (common random numbers: the actions are compared on
  the same hidden cards, which removes most of the noise between them). An action's value on
  a sample is the best way to finish the turn after it (the planner's beam search), scored by
  the valuation at the end of the turn (``leaf="now"``, the default), or with ``leaf="next"``
  after the other seats' turns played by a fast rollout policy up to the bot's next decision.
  Measured at 1 s a decision against the planner, "now" won 13 of 20 games and "next" 13 of 30:
  the fast policy is too weak a model of the other players (docs/bots.md).
- "greedy", "beam" or "fast": classic expansion, one new node per iteration, with one-step
  priors (progressive bias and widening), whose leaf is completed to the end of the turn by
  the one-step valuation, a beam search or the fast policy, then rolled out as above.

A reward is the change of the bot's margin (its value less the others' public value) since the
root, squashed into (0, 1); a finished game adds a bonus for winning. With ``value`` (the
learned evaluation, ``ai/learned.py``: ``learned`` or a model file) a position is worth what
the planner with the same ``value`` and ``blend`` says it is (the valuation plus ``blend``
times the model's predicted final margin, or the prediction alone), wherever the search
values one: the root, the priors, the end of a planned turn, a leaf. The model reads the
sample the search is on, so it sees no more than the seat does. The budget is a number of
iterations (reproducible) or seconds per decision. ``CheaterBot`` is the same search on copies
of the true state: a reference upper bound for tournaments, never registered for play.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Final

from ..core import actions as A
from ..core.actions import Action
from ..core.board import ART_TYPE, CATALOG, dragons_at
from ..core.cards import ICON_COIN, ICON_RAINBOW
from ..core.engine import apply, apply_in_place, legal_actions, to_act, winners
from ..core.goods import NUM_GOODS
from ..core.state import GameState
from ..core.turn import affordable
from .evaluate import DEFAULT, Weights, ench_reward, public_value, settle, squash, value
from .interface import Seat
from .planner import PlannerBot

_ENCH: Final = CATALOG.enchantments
_SHOPS: Final = CATALOG.shops
_SKIP: Final = A.SKIP
WIN_BONUS: Final = 3.0  # Reputation-equivalent of winning, added at the end of a searched game


class _Node:
    """Statistics of one action in the tree (``visits`` and ``total`` include the virtual
    visits of its prior), and the node it leads to."""

    __slots__ = ("avail", "children", "order", "real", "total", "visits")

    def __init__(self, visits: float = 0.0, total: float = 0.0) -> None:
        self.visits = visits
        self.total = total
        self.real = 0  # iterations that went through this node
        self.avail = 0
        self.children: dict[Action, _Node] | None = None
        self.order: dict[Action, int] | None = None  # rank of each action by its prior


# --- the rollout policy -------------------------------------------------------------------

def _needs(s: GameState, p: int) -> list[int]:
    """How many more of each Good p lacks for the cheapest Enchantment in the row."""
    goods = s.goods[p]
    best: list[int] | None = None
    best_short = 99
    for e in s.ench_row:
        cost = _ENCH[e].cost
        lack = [max(0, cost[g] - goods[g]) for g in range(NUM_GOODS)]
        short = sum(lack)
        if short < best_short:
            best, best_short = lack, short
    return best or [0] * NUM_GOODS


def _good_pick(s: GameState, p: int, options: list[Action], rng: random.Random) -> Action:
    need = _needs(s, p)
    return max(options, key=lambda a: (need[a[1]] if a[1] < NUM_GOODS else 0, rng.random()))


def rollout_action(s: GameState, actions: list[Action], rng: random.Random) -> Action:
    """A fast, sensible action (no look-ahead): reveal Sun Dragons, enchant when possible and
    cast the richest, gather at well-stocked Shops, take Goods the row asks for, place and
    fire up rather than skip. Any other kind (a new one included): a real choice at random,
    a decline now and then."""
    kind = actions[0][0]
    for a in actions:
        if a[0] == A.REVEAL:
            return a
    p = to_act(s)
    if kind == A.VISIT:
        casts = [(_ENCH[e].icon, ench_reward(e, 1)) for e in s.ench_row
                 if affordable(s, p, e, 1)]
        best, best_v = actions[0], -1e9
        for a in actions:
            if a[0] != A.VISIT:
                continue
            shop = a[1]
            card = _SHOPS[shop]
            v = 1 + len(dragons_at(s, shop)) + len(s.shop_ench[shop]) + rng.random()
            if card.icon == ICON_COIN:
                v += card.icon_amount - 1
            if casts and card.can_enchant and len(s.shop_ench[shop]) < 3:
                v += max((r for icon, r in casts if card.icon in (icon, ICON_RAINBOW)),
                         default=0.0)
            v += 0.8 * (card.ability >= 0)
            v -= 1.5 * sum(1 for q in range(s.n) if q != p and s.pos[q] == shop)
            if v > best_v:
                best, best_v = a, v
        return best
    if kind == A.GATHER:
        for a in actions:
            if a[0] == A.ENCHANT:
                return a
        return actions[0]
    if kind == A.CAST:
        return max(actions, key=lambda a: ench_reward(a[1], a[2]) if a[0] == A.CAST else -1)
    if kind == A.PAY:
        return actions[0]
    if kind in (A.GAIN_GOOD, A.CHOOSE_TYPE, A.GAIN_TWO):
        return _good_pick(s, p, actions, rng)
    if kind == A.TAKE_GOOD:
        return actions[rng.randrange(len(actions))]
    if kind == A.PLACE:
        placing = [a for a in actions if a[0] == A.PLACE]
        if placing:
            def reward(a: Action) -> float:
                r = _SHOPS[a[2]].slots[a[3]].reward
                return r.rep + r.coins + r.fancy * 1.3 + r.artisan + rng.random()
            return max(placing, key=reward)
    if kind == A.FIRE:
        firing = [a for a in actions if a[0] == A.FIRE]
        useful = [a for a in firing if ART_TYPE[a[1]] not in (0, 1)] or firing
        if useful and rng.random() < 0.9:
            return useful[rng.randrange(len(useful))]
    if kind in (A.USE_ABILITY, A.USE_COMPANION):
        return actions[0] if rng.random() < 0.8 else actions[-1]
    real = [a for a in actions if a[0] != _SKIP]
    if real and rng.random() < 0.75:
        return real[rng.randrange(len(real))]
    return actions[rng.randrange(len(actions))]


# --- the search ---------------------------------------------------------------------------

class ISMCTSBot:
    """SO-ISMCTS (see the module docstring). Give ``iterations`` for a reproducible budget or
    ``seconds`` per decision (the default); with both, whichever ends first.

    The tree holds the bot's own decisions of the turn in progress. A new node's actions get
    one-step values as priors (``prior_visits`` virtual visits each) and are opened up best
    first, more as the node is visited (progressive widening: ``widen`` + sqrt(visits)). A leaf
    is completed to the end of the bot's turn (``complete``: "greedy" picks each of the bot's
    remaining decisions by its one-step value, "fast" uses the fast policy), then, with
    ``leaf="next"``, the others' turns are played by the fast policy up to the bot's next
    decision, where the valuation scores it (``leaf="now"``, the default, scores at the end of
    the turn).
    ``reuse`` keeps the subtree of the chosen action for the next decision of the turn.
    ``value`` and ``blend`` value positions with the learned evaluation, as the planner's
    options of the same names do (see the module docstring)."""

    name = "ismcts"

    def __init__(self, iterations: int | None = None, seconds: float | None = 1.0,
                 exploration: float = 0.2, pool: int = 32, prior_visits: float = 2.0,
                 widen: float = 2.0, scale: float = 3.0, reuse: bool = True,
                 leaf: str = "now", complete: str = "plan", beam: int = 5,
                 depth: int = 12, weights: Weights = DEFAULT, value: str | None = None,
                 blend: float | None = None) -> None:
        if leaf not in ("next", "now"):
            raise ValueError(f"leaf must be 'next' or 'now', not {leaf!r}")
        if complete not in ("plan", "beam", "greedy", "fast"):
            raise ValueError(f"complete must be 'plan', 'beam', 'greedy' or 'fast', not "
                             f"{complete!r}")
        if iterations is None and seconds is None:
            raise ValueError("give ismcts a budget: iterations or seconds")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.pool = max(1, pool)
        self.prior_visits = prior_visits
        self.widen = widen
        self.scale = scale
        self.reuse = reuse
        self.leaf = leaf
        self.complete = complete
        self.beam = max(1, beam)
        self.depth = max(1, depth)
        self.weights = weights
        self._planner = PlannerBot(beam=self.beam, samples=1, depth=self.depth, weights=weights,
                                   value=value, blend=blend)
        self.value = value
        self.blend = self._planner.blend
        self._learned = self._planner.net is not None
        self.last_iterations = 0
        self._kept: tuple[int, int, _Node, float] | None = None  # (seat, turn, tree, base)
        self._me = 0
        self._turn = 0
        self._base = 0.0  # the root's margin: rewards measure the change from it

    def choose(self, seat: Seat, rng: random.Random) -> Action:
        actions = seat.legal_actions()
        if len(actions) == 1:
            return actions[0]
        return self.search(lambda: seat.sample(rng), seat.seat, actions, rng)

    def search(self, draw: Callable[[], GameState], me: int, actions: list[Action],
               rng: random.Random) -> Action:
        """Runs the search from the samples ``draw`` gives; returns the most visited action."""
        pool = [draw()]
        self._me, self._turn = me, pool[0].turn
        kept = self._reused(me, self._turn, actions)
        if kept is not None:
            root, self._base = kept  # the kept statistics are relative to their own base
        else:
            root = _Node()
            self._base = self._worth(pool[0])
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iterations
        count = 0
        every = 0 if self.complete == "plan" else 7  # plan iterations are slow: check each
        while True:
            if limit is not None and count >= limit:
                break
            if deadline is not None and count & every == 0 and time.perf_counter() >= deadline:
                break
            if len(pool) < self.pool and count >= len(pool):
                pool.append(draw())
            t = pool[count % len(pool)].copy()
            self._iterate(root, t, rng)
            count += 1
        self.last_iterations = count
        children = root.children or {}

        plan = self.complete == "plan"

        def rank(a: Action) -> tuple[float, float]:
            ch = children.get(a)
            if ch is None or ch.visits <= 0:
                return (-1.0, 0.0)
            mean = ch.total / ch.visits
            return (mean, ch.real) if plan else (ch.real, mean)

        best = max(actions, key=rank)
        if self.reuse and best in children:
            self._kept = (me, self._turn, children[best], self._base)
        return best

    def _reused(self, me: int, turn: int, actions: list[Action]
                ) -> tuple[_Node, float] | None:
        """The subtree kept from this seat's last decision and the base its rewards were
        measured from, if this decision continues it (same seat and turn, and every legal
        action already in it)."""
        kept, self._kept = self._kept, None
        if kept is None or kept[0] != me or kept[1] != turn:
            return None
        node = kept[2]
        if node.children is None or any(a not in node.children for a in actions):
            return None
        return node, kept[3]

    def _iterate(self, root: _Node, t: GameState, rng: random.Random) -> None:
        """One iteration: down the tree by UCB over the actions legal in this sample (the
        widened ones), one new node, its completion and rollout, the reward back up."""
        path: list[_Node] = []
        node = root
        me, turn = self._me, self._turn
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        reward: float | None = None  # set when a node is opened by a plan
        while not t.over and t.turn == turn and t.stack[-1][1] == me:
            actions = legal_actions(t)
            children = node.children
            if self.complete == "plan" and (node is root or children is None):
                # Every iteration values all of the root's actions on its sample (common
                # random numbers); a new node below is valued the same way, once.
                if children is None:
                    children = node.children = {}
                reward = self._expand(node, t, actions, rng)
                if node is not root:
                    break
            if children is None:
                if node.real == 0 and node is not root:
                    break  # a new node: score it
                children = node.children = {}
                if self.prior_visits > 0 and len(actions) > 1:
                    self._priors(node, t, actions)
            order = node.order
            if order is not None and self.widen > 0:
                width = self.widen + sqrt(node.real)
                allowed = [a for a in actions if order.get(a, 0) < width]
                if allowed:
                    actions = allowed
            best, best_v = actions[0], -1e18
            for a in actions:
                ch = children.get(a)
                if ch is None:
                    ch = children[a] = _Node()
                ch.avail += 1
                if ch.visits <= 0:
                    v = 1e9 + rng.random()
                else:
                    v = ch.total / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                if v > best_v:
                    best, best_v = a, v
            apply_in_place(t, best)
            node = children[best]
            path.append(node)
        if reward is None:
            reward = self._leaf(t, rng)
        if self.complete == "plan":
            path = path[1:]  # the root's actions were valued on this sample already
        for n in path:
            n.visits += 1
            n.real += 1
            n.total += reward
        root.real += 1

    def _margin(self, t: GameState, own: float) -> float:
        """The bot's value ``own`` less the others' public value (their mean, leaning toward
        the strongest); solo, the value itself."""
        if t.n == 1:
            return own
        me = self._me
        others = [public_value(t, o) for o in range(t.n) if o != me]
        return own - 0.5 * max(others) - 0.5 * sum(others) / len(others)

    def _worth(self, t: GameState, bonus: float = 0.0) -> float:
        """What t is worth to the bot, plus ``bonus``: its margin by the valuation, or with
        the learned evaluation what the planner with the same ``value`` says."""
        if self._learned:
            return self._planner.values([t], self._me)[0] + bonus
        return self._margin(t, value(t, self._me, self.weights) + bonus)

    def _reward(self, t: GameState, bonus: float = 0.0) -> float:
        """The reward in (0, 1): the worth's change since the root, squashed (so rewards do
        not saturate when the bot is far ahead or behind)."""
        return squash(self._worth(t, bonus) - self._base, self.scale)

    def _one_step(self, t: GameState, actions: list[Action]) -> list[float]:
        me = self._me
        after = [settle(apply(t, a), me) for a in actions]
        if self._learned:
            return self._planner.values(after, me)  # the model on all of them at once
        return [self._worth(u) for u in after]

    def _priors(self, node: _Node, t: GameState, actions: list[Action]) -> None:
        """Progressive bias and widening: each action's one-step value, counted as
        ``prior_visits`` virtual visits, and its rank (so the best-looking open first)."""
        assert node.children is not None
        k = self.prior_visits
        margins = self._one_step(t, actions)
        ranked = sorted(range(len(actions)), key=lambda i: -margins[i])
        node.order = {actions[i]: r for r, i in enumerate(ranked)}
        for a, m in zip(actions, margins, strict=True):
            r = squash(m - self._base, self.scale)
            node.children[a] = _Node(k, k * r)

    def _expand(self, node: _Node, t: GameState, actions: list[Action],
                rng: random.Random) -> float:
        """Opens a node on this sample: a beam search over the rest of the bot's turn finds
        each action's best way to end the turn; with ``leaf="next"`` the others' turns are
        then played by the fast policy (the same dice for every action) up to the bot's next
        decision. Each action's margin there counts as one visit of it; the best of them is
        the reward of the iteration."""
        assert node.children is not None
        ends = self._planner.plan_ends(t, self._me, actions)
        if self.leaf == "next":
            seed = rng.getrandbits(32)
            margins = [self._after(end, random.Random(seed)) for _m, end in ends]
        else:
            margins = [m for m, _end in ends]
        for a, m in zip(actions, margins, strict=True):
            child = node.children.get(a)
            if child is None:
                child = node.children[a] = _Node()
            child.visits += 1
            child.real += 1
            child.avail += 1
            child.total += squash(m - self._base, self.scale)
        return squash(max(margins) - self._base, self.scale)

    def _after(self, t: GameState, rng: random.Random) -> float:
        """The bot's margin at its next decision after the others' turns (fast policy)."""
        me, turn = self._me, self._turn
        t = t.copy()
        while not t.over and not (t.stack[-1][1] == me and t.turn != turn):
            actions = legal_actions(t)
            apply_in_place(t, actions[0] if len(actions) == 1
                           else rollout_action(t, actions, rng))
        won = t.over and t.n > 1 and me in winners(t)
        return self._worth(t, WIN_BONUS if won else 0.0)

    def _beam_complete(self, t: GameState) -> GameState:
        """The best end of the bot's turn reachable from t by its own decisions, found by a
        beam search (``beam`` states kept per step, ``depth`` steps at most)."""
        me, turn = self._me, self._turn

        def mine(u: GameState) -> bool:
            return not u.over and u.turn == turn and u.stack[-1][1] == me

        if not mine(t):
            return t
        best_m, best = -1e18, t
        frontier = [t]
        for _ in range(self.depth):
            grown: list[tuple[float, GameState]] = []
            for st in frontier:
                for a in legal_actions(st):
                    u = settle(apply(st, a), me)
                    m = self._worth(u)
                    if mine(u):
                        grown.append((m, u))
                    elif m > best_m:
                        best_m, best = m, u
            if not grown:
                return best
            grown.sort(key=lambda x: -x[0])
            frontier = [u for _m, u in grown[:self.beam]]
        for st in frontier:  # cut off by the depth: the best position reached
            m = self._worth(st)
            if m > best_m:
                best_m, best = m, st
        return best

    def _leaf(self, t: GameState, rng: random.Random) -> float:
        """Completes the bot's turn, plays the others' turns by the fast policy up to the bot's
        next decision (``leaf="next"``), then scores the valuation's margin (or who won)."""
        me, turn = self._me, self._turn
        greedy = self.complete == "greedy"
        if self.complete == "beam":
            t = self._beam_complete(t)
        while not t.over:
            top = t.stack[-1]
            mine = top[1] == me and t.turn == turn
            if not mine and (self.leaf == "now" or top[1] == me):
                break
            actions = legal_actions(t)
            if len(actions) == 1:
                a = actions[0]
            elif mine and greedy:
                margins = self._one_step(t, actions)
                a = actions[max(range(len(actions)), key=margins.__getitem__)]
            else:
                a = rollout_action(t, actions, rng)
            apply_in_place(t, a)
        won = t.over and t.n > 1 and me in winners(t)
        return self._reward(t, WIN_BONUS if won else 0.0)


class CheaterBot(ISMCTSBot):
    """The same search on copies of the true state: it sees every hidden card. A reference
    upper bound for tournaments only (never in ``bots.BOTS``)."""

    name = "cheater"

    def choose(self, seat: Seat, rng: random.Random) -> Action:
        raise TypeError("the cheater plays from the true state: call choose_true")

    def choose_true(self, state: GameState, rng: random.Random) -> Action:
        actions = legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        return self.search(state.copy, to_act(state), actions, rng)
