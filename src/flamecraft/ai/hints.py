"""Hints: every legal action of the seat to act, valued, with a win chance and a reason.

A hint is what the Expert level's planner (``planner.py`` valuing with the tuned valuation
plus half the learned model's margin, ``roster.LEVELS``) thinks of each action, shown rather
than played: on re-deals of the cards the seat cannot see (``Seat.sample``: never the true
state), the rest of the turn after each action is planned (beam search to the end of the
turn) and the end of the turn valued (Reputation ahead of the others). The same re-deals
serve every action (common random numbers), so the differences between actions are not luck
of the deal; they come in rounds that stop once the answer is known (``Budget``). Each action
gets:

- ``value``: that end-of-turn value, the best's mean less this one's loss; ``loss``: how far
  below the best it is, paired over the re-deals both were planned on;
- ``win``: the chance to win after it, the calibrated model (``winchance.py``) at the end of
  the planned turn, averaged over the samples (None in a solo game);
- ``reason``: a short sentence from what happens in the planned turn ("+6 Rep now, casts
  Ring of Destiny, completes Draco Bell; then 2 Goods short of Dragon Egg") and, for the
  others, the parts of the value that put it behind the best ("2.3 behind: Fancy Dragons
  −1.5"): the valuation's terms, and the learned model's part where it differs most ("the
  learned model's view −1.3": docs/bots.md says how);
- ``plan``: the rest of the turn as planned, up to the first hidden card it would draw (what
  comes after depends on a card the seat cannot know, so it is not spelled out).

Everything is computed from the ``Seat``'s members, so a hint depends only on what the seat
sees and the ``rng`` (``tests/test_hints.py`` re-deals the hidden cards and compares the hints
byte for byte, and from a ``SealedSeat``). ``HINT_BUDGET`` answers within about 0.6 s on the
project's 2-core machine (docs/bots.md and bench/advice_latency.py have the measurements).

The reason is worded by ``tr`` (``core/tr.py``; English by default, byte for byte): its
phrases are msgids of the ``game`` catalogue (``locale/game.cfg`` extracts this module), so
``flamecraft play --lang ja`` gives its reasons in Japanese.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..core.actions import Action
from ..core.board import CATALOG
from ..core.describe import describe
from ..core.engine import apply, to_act
from ..core.engine import text as action_text
from ..core.errors import GameOverError
from ..core.state import COMPLETED, EMPTY, GameState
from ..core.tr import Translate, same
from . import make_play_bot
from .evaluate import TERM_NAMES, TERMS, settle, targets, value_terms
from .interface import SealedSeat, Seat
from .learned import features
from .planner import PlannerBot
from .roster import LEVEL_OF
from .winchance import WinModel, default_model

_ENCH, _SHOPS, _FANCY = CATALOG.enchantments, CATALOG.shops, CATALOG.fancies


@dataclass(frozen=True)
class Budget:
    """How much a hint thinks: re-deals of the hidden cards, and the planner's beam and
    depth (decisions looked ahead within the turn).

    With ``first`` the re-deals come in rounds, ``first`` of them and then twice as many as
    before each time, up to ``samples``; after each round an action more than ``prune`` behind
    the best (by at least two standard errors) is no longer planned, and no round follows once
    every action still planned has its loss known to a standard error of ``stop`` (a decision
    whose plans never meet a hidden card stops after the first round: every re-deal gives the
    same values). ``seconds`` is a deadline: a round takes only the re-deals that fit in it at
    the pace of those before, and no re-deal begins after it, even within the first round
    (0: no clock; with one, how many re-deals a hint gets depends on the machine).
    ``first=0`` plans every action on every re-deal at once, as hints did before issue 26.

    ``widest`` (0: no limit) plans at most that many actions: the best by a one-step look
    on a first re-deal (the leaf's value of the position right after each, as the greedy bot
    looks), and those the caller asks to keep; the others are left out of the answer. The
    review uses it (a decision of 30 swaps costs as much as 4 then). ``fine`` (0: never)
    stops after any round once every action of ``keep`` is less than ``fine`` behind the
    best (by two standard errors; with one re-deal, by its value there): the review needs
    more re-deals only where the move played may have lost something.

    ``leaf`` is how an end of turn is valued: ``expert``, as the Expert level does (the tuned
    valuation plus half the learned model's predicted margin, ``roster.LEVELS``), ``tuned``
    (the tuned valuation alone, the Strong level) or ``valuation`` (the hand-set one, the
    Casual level). Without numpy the learned model cannot run, and ``expert`` is ``tuned``."""

    samples: int = 64
    beam: int = 5
    depth: int = 12
    first: int = 0
    stop: float = 0.0
    prune: float = 0.0
    seconds: float = 0.0
    leaf: str = "expert"
    widest: int = 0
    fine: float = 0.0


LEAVES = ("expert", "tuned", "valuation")

# About 0.1–0.3 s a hint on the project's machine with the compiled core, under 1 s at the
# 90th percentile with 4 players on a busy machine (docs/bots.md, bench/advice_latency.py);
# the review, which values every decision of a game, thinks less (``review.REVIEW_BUDGET``).
HINT_BUDGET = Budget(samples=64, first=4, stop=0.25, prune=3.0, seconds=0.6)


class NotToActError(ValueError):
    """Hints were asked for a seat that is not the one to act."""


@dataclass(frozen=True)
class Hint:
    """One legal action, as the hint sees it (see the module docstring)."""

    action: Action
    text: str
    value: float  # mean end-of-turn value after it, Reputation ahead of the others
    loss: float  # the best hint's value minus this one's (0 for the best)
    loss_se: float  # the standard error of ``loss`` over the samples (paired: same deals)
    win: float | None  # chance to win after it (None: solo)
    reason: str
    plan: tuple[str, ...] = ()  # the rest of the turn as planned (up to a hidden draw)
    terms: dict[str, float] = field(default_factory=dict)  # own valuation at the plan's end
    # The learned model's part of ``value`` (``leaf="expert"``: half its predicted margin at
    # the plan's end, the mean over the samples); None when the leaf has no model.
    model: float | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain data for a client (the action by its text, as the server's actions are)."""
        return {"action": self.text, "value": round(self.value, 2),
                "loss": round(self.loss, 2), "loss_se": round(self.loss_se, 2),
                "win": None if self.win is None else round(self.win, 4),
                "reason": self.reason, "plan": list(self.plan)}


def hints(seat: Seat | SealedSeat, rng: random.Random, budget: Budget = HINT_BUDGET,
          model: WinModel | None = None, tr: Translate = same,
          game: Translate = same, keep: Collection[Action] = ()) -> list[Hint]:
    """Every legal action of ``seat`` (those ``budget.widest`` plans, and ``keep``), best
    first (ties keep the legal order), each reason in the language of ``tr`` (the ``game``
    catalogue) and its plan in that of ``game`` (the actions in words; the stable texts with
    ``same``). Raises ``NotToActError`` if the seat is not to act, ``GameOverError`` once the
    game is over."""
    actions = seat.legal_actions()
    if not actions:
        view = seat.view()
        if view.get("over"):
            raise GameOverError("the game is over: there is nothing to hint")
        raise NotToActError(f"seat {seat.seat + 1} is not to act: hints are for the seat "
                            "whose decision it is")
    model = model or default_model()
    p = seat.seat
    planner = leaf_planner(budget)
    net, blend, weights = planner.net, planner.blend or 0.0, planner.weights
    if 0 < budget.widest < len(actions):
        actions = _screen(seat, rng, planner, actions, budget.widest, keep)
    most = max(1, budget.samples)
    values: list[list[float]] = [[] for _ in actions]
    wins: list[list[float]] = [[] for _ in actions]
    parts: list[list[float]] = [[] for _ in actions]  # the model's part of each value
    terms = [dict.fromkeys(TERMS, 0.0) for _ in actions]
    runs: list[list[tuple[GameState, GameState, tuple[Action, ...]]]] = [[] for _ in actions]
    live = list(range(len(actions)))  # the actions still planned
    kept = {i for i, a in enumerate(actions) if a in keep}
    began = time.perf_counter()
    taken, goal = 0, (min(most, budget.first) if budget.first > 0 else most)
    late = False
    while True:
        while taken < goal and not late:
            t = seat.sample(rng)
            planned = planner.plan_lines(t, p, [actions[i] for i in live])
            learned = (net.predict([features(end, p) for _v, end, _l in planned])
                       if net is not None else None)
            for k, (i, (v, end, line)) in enumerate(zip(live, planned, strict=True)):
                values[i].append(v)
                chances = model.chances(end)
                if chances is not None:
                    wins[i].append(chances[p])
                if learned is not None:
                    parts[i].append(blend * float(learned[k]))
                for name, x in value_terms(end, p, weights).items():
                    terms[i][name] += x
                runs[i].append((t, end, line))
            taken += 1
            late = budget.seconds > 0 and time.perf_counter() - began >= budget.seconds
        if taken >= most or late:
            break
        live, settled = _sift(values, live, budget, kept)
        if settled:
            break
        goal = min(most, 2 * taken)
        if budget.seconds > 0:  # only the re-deals that fit, at the pace so far
            spent = time.perf_counter() - began
            room = int((budget.seconds - spent) * taken / spent) if spent > 0 else goal
            if room < 1:
                break
            goal = min(goal, taken + room)
    means = [sum(v) / len(v) for v in values]
    best = max(live, key=lambda i: (means[i], -i))
    # A loss is paired: the best's value minus this one's on the samples both were planned on
    # (all of them, unless this one was dropped), so the deal's luck cancels; an action's value
    # is the best's less its loss (its own mean, when it was planned on every sample).
    # (An action dropped for an earlier best may look better than a later best on its few
    # samples: it stays below the best, at a loss of at least 0.)
    losses = [(max(0.0, loss), se) for loss, se in (_paired(values[best], values[i])
                                                    for i in range(len(actions)))]
    shown = [means[best] - loss for loss, _se in losses]
    for i in range(len(actions)):
        terms[i] = {name: x / len(values[i]) for name, x in terms[i].items()}
    views = [sum(x) / len(x) if x else None for x in parts]
    out = []
    for i, a in enumerate(actions):
        j = _median_index(values[i])
        t, end, line = runs[i][j]
        now, outlook = _facts(t, end, p, tr)
        mine, top = views[i], views[best]
        if i == best and not now:
            now = [_gains(terms[i], value_terms(t, p, weights), tr,
                          _model_gain(net, blend, t, p, mine))]
        tail = [outlook] if outlook else []
        if i != best:
            tail.append(_behind(terms[i], terms[best], losses[i][0], tr,
                                None if mine is None or top is None else mine - top))
        reason = tr("; ").join(([tr(", ").join(now[:_MAX_FACTS])] if now else []) + tail)
        win = sum(wins[i]) / len(wins[i]) if wins[i] else None
        out.append(Hint(a, seat.text(a), shown[i], losses[i][0], losses[i][1], win,
                        reason, _plan(t, a, line, p, tr, game),
                        {name: round(x, 6) for name, x in terms[i].items()},
                        None if mine is None else round(mine, 6)))
    order = sorted(range(len(actions)), key=lambda i: (losses[i][0], i != best, i))
    return [out[i] for i in order]


@cache
def _planner(beam: int, depth: int, leaf: str) -> PlannerBot:
    if leaf not in LEAVES:
        raise ValueError(f"no hint leaf {leaf!r} (known: {', '.join(LEAVES)})")
    if leaf == "valuation":
        return PlannerBot(beam=beam, samples=1, depth=depth)
    options = dict(LEVEL_OF["expert" if leaf == "expert" else "strong"].options)
    if leaf == "expert" and not _numpy():
        options = {k: v for k, v in options.items() if k not in ("value", "blend")}
    bot = make_play_bot("planner", beam=beam, samples=1, depth=depth, **options)
    assert isinstance(bot, PlannerBot)
    return bot


def _screen(seat: Seat | SealedSeat, rng: random.Random, planner: PlannerBot,
            actions: list[Action], widest: int, keep: Collection[Action]) -> list[Action]:
    """The ``widest`` actions that look best one step ahead on a re-deal, and ``keep``, in
    the legal order."""
    p = seat.seat
    t = seat.sample(rng)
    looks = planner.values([settle(apply(t, a), p) for a in actions], p)
    order = sorted(range(len(actions)), key=lambda i: (-looks[i], i))
    picked = set(order[:widest]) | {i for i, a in enumerate(actions) if a in keep}
    return [a for i, a in enumerate(actions) if i in picked]


def leaf_planner(budget: Budget) -> PlannerBot:
    """The planner a hint plans with (one sample at a time): the Expert's, the Strong one's
    or the Casual one's valuation at ``budget.leaf`` (made once, then shared)."""
    return _planner(budget.beam, budget.depth, budget.leaf)


def _numpy() -> bool:
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def _sift(values: list[list[float]], live: list[int], budget: Budget, kept: set[int]
          ) -> tuple[list[int], bool]:
    """After a round: the actions still worth planning (those not clearly more than
    ``budget.prune`` behind the best, and ``kept``), and whether to stop: every loss known
    to a standard error of ``budget.stop``, or every action of ``kept`` within
    ``budget.fine`` of the best (by two standard errors)."""
    k = len(values[live[0]])
    means = {i: sum(values[i]) / k for i in live}
    best = max(live, key=lambda i: (means[i], -i))
    still, errors, fine = [], [], bool(kept) and budget.fine > 0
    for i in live:
        loss, se = _paired(values[best], values[i])
        if i in kept:
            fine = fine and loss + 2 * se < budget.fine
        elif i != best and k >= 2 and budget.prune > 0 and loss - 2 * se > budget.prune:
            continue
        still.append(i)
        errors.append(se)
    settled = fine or (k >= 2 and budget.stop > 0 and max(errors) <= budget.stop)
    return still, settled


def _paired(best: list[float], mine: list[float]) -> tuple[float, float]:
    """The mean of best − mine over the samples both have, and its standard error."""
    k = len(mine)
    d = [b - m for b, m in zip(best[:k], mine, strict=True)]
    return sum(d) / k, _se(d)


def _model_gain(net: Any, blend: float, t: GameState, p: int, after: float | None
                ) -> float | None:
    """How much more the learned model's part is worth at the plan's end than now."""
    if net is None or after is None:
        return None
    return after - blend * float(net.predict([features(t, p)])[0])


def _se(d: list[float]) -> float:
    """The standard error of the mean of ``d`` (0 with one value)."""
    k = len(d)
    if k < 2:
        return 0.0
    mean = sum(d) / k
    return math.sqrt(sum((x - mean) ** 2 for x in d) / (k - 1) / k)


def _median_index(xs: list[float]) -> int:
    order = sorted(range(len(xs)), key=lambda j: (xs[j], j))
    return order[(len(order) - 1) // 2]


# --- reasons ------------------------------------------------------------------------------

def _goods(n: int, tr: Translate) -> str:
    return (tr("{n} Good") if n == 1 else tr("{n} Goods")).format(n=n)


_MAX_FACTS = 5  # what the turn does, at most: a hint is read at a glance


def _facts(t: GameState, end: GameState, p: int, tr: Translate = same
           ) -> tuple[list[str], str]:
    """What the planned turn does, from sample ``t`` to ``end``, and the outlook after it
    ("then 1 Good short of X"; "" if none). Only cards the seat knows at the decision are
    named (public ones and its own): a card drawn in the plan is made up by the sample."""
    facts = []
    names = t.options.player_names()
    rep = end.rep[p] - t.rep[p]
    if rep:
        facts.append(tr("{rep} Rep now").format(rep=f"{rep:+d}"))
    for shop in range(len(t.shop_ench)):
        for e in end.shop_ench[shop]:
            if e not in t.shop_ench[shop]:
                facts.append(tr("casts {card}").format(card=_ENCH[e].name))
    if end.counters[p][COMPLETED] > t.counters[p][COMPLETED]:
        done = [_SHOPS[shop].name for shop in t.town_shops()
                if EMPTY in t.slots[shop * 3:shop * 3 + 3]
                and EMPTY not in end.slots[shop * 3:shop * 3 + 3]]
        facts.append(tr("completes {shops}").format(
            shops=tr(" and ").join(done) if done else tr("a Shop")))
    for f in end.scored[p][len(t.scored[p]):]:
        known = f in t.fancy[p]
        facts.append(tr("reveals {card}").format(card=_FANCY[f].name) if known
                     else tr("reveals a Fancy Dragon"))
    goods = sum(end.goods[p]) - sum(t.goods[p])
    coins = end.coins[p] - t.coins[p]
    if goods > 0:
        # one msgid with the number, so a language can put the word before it (商品+2枚)
        facts.append((tr("+{n} Good") if goods == 1 else tr("+{n} Goods")).format(n=goods))
    if coins:
        facts.append((tr("{n} Coin") if abs(coins) == 1 else tr("{n} Coins"))
                     .format(n=f"{coins:+d}"))
    drawn = len(end.hand[p]) - len(t.hand[p])
    if drawn > 0:
        facts.append((tr("+{n} dragon in hand") if drawn == 1 else tr("+{n} dragons in hand"))
                     .format(n=drawn))
    given = [names[q] for q in range(t.n)
             if q != p and (sum(end.goods[q]) + end.coins[q] + len(end.hand[q])
                            > sum(t.goods[q]) + t.coins[q] + len(t.hand[q]))]
    if given:
        facts.append(tr("gifts to {names}").format(
            names=(tr(", ").join(given[:-1]) + tr(" and ") if len(given) > 1 else "")
            + given[-1]))
    outlook = ""
    if not end.over:
        tg = targets(end, p)
        if tg:
            _credit, e, _sets, short = tg[0]
            card = _ENCH[e].name
            if short == 0:
                outlook = tr("then ready to cast {card}").format(card=card)
            elif short <= 3:
                outlook = tr("then {goods} short of {card}").format(goods=_goods(short, tr),
                                                                    card=card)
    return facts, outlook


def _terms_text(delta: dict[str, float], sign: float, tr: Translate,
                model: float | None = None) -> str:
    """The two parts that differ most in the direction ``sign``: the valuation's terms, and
    the learned model's part of the value when the leaf has one."""
    items = [(x, tr(TERM_NAMES[name])) for name, x in delta.items()]
    if model is not None:
        items.append((model, tr("the learned model's view")))
    parts = sorted(((x, label) for x, label in items if sign * x > 0.05),
                   key=lambda item: -abs(item[0]))[:2]
    return tr(", ").join(f"{label} {x:+.1f}" for x, label in parts)


def _behind(mine: dict[str, float], best: dict[str, float], loss: float,
            tr: Translate = same, model: float | None = None) -> str:
    """Why an action is below the best: the parts of the value that differ most (the
    valuation's terms, and ``model``: how much more or less the learned model's part is)."""
    if loss < 0.05:
        return tr("as good as the best")
    delta = {name: mine[name] - best[name] for name in TERMS}
    why = _terms_text(delta, -1.0, tr, model)
    return (tr("{loss} behind the best ({why})").format(loss=f"{loss:.1f}", why=why) if why
            else tr("{loss} behind the best (the others gain more)").format(loss=f"{loss:.1f}"))


def _gains(after: dict[str, float], before: dict[str, float], tr: Translate = same,
           model: float | None = None) -> str:
    delta = {name: after[name] - before[name] for name in TERMS}
    why = _terms_text(delta, 1.0, tr, model)
    return tr("improves {terms}").format(terms=why) if why else tr("keeps the position")


def _plan(t: GameState, first: Action, line: tuple[Action, ...], p: int,
          tr: Translate = same, game: Translate = same) -> tuple[str, ...]:
    """The planned rest of the turn as texts (in ``game``'s words; the stable texts with
    ``same``), up to the first card drawn from a hidden pile (the sample made it up, so what
    follows is not what the seat will see)."""
    s = settle(apply(t, first), p)  # the planner's line skips the lone decisions
    out: list[str] = []
    for a in line:
        if _drew(t, s) or to_act(s) != p:
            out.append(tr("… (then it depends on the card drawn)"))
            break
        out.append(action_text(s, a) if game is same else describe(s, a, game).words)
        t, s = s, settle(apply(s, a), p)
    return tuple(out)


def _drew(before: GameState, after: GameState) -> bool:
    return (len(after.artisan_deck) < len(before.artisan_deck)
            or len(after.fancy_deck) < len(before.fancy_deck)
            or len(after.ench_deck) < len(before.ench_deck)
            or len(after.shop_deck) < len(before.shop_deck))
