"""Hints: every legal action of the seat to act, valued, with a win chance and a reason.

A hint is what the planner (``planner.py``) thinks of each action, shown rather than played:
on ``samples`` re-deals of the cards the seat cannot see (``Seat.sample``: never the true
state), the rest of the turn after each action is planned (beam search to the end of the
turn) and the end of the turn valued (``evaluate.relative``: the seat's position minus the
others', in Reputation). The same samples serve every action (common random numbers), so
the differences between actions are not luck of the deal. Each action gets:

- ``value``: the mean of that end-of-turn value; ``loss``: how far below the best it is;
- ``win``: the chance to win after it, the calibrated model (``winchance.py``) at the end of
  the planned turn, averaged over the samples (None in a solo game);
- ``reason``: a short sentence from what happens in the planned turn ("+6 Rep now, casts
  Ring of Destiny, completes Draco Bell; then 2 Goods short of Dragon Egg") and, for the
  others, the valuation's terms that put it behind the best ("2.3 behind: Fancy Dragons −1.5");
- ``plan``: the rest of the turn as planned, up to the first hidden card it would draw (what
  comes after depends on a card the seat cannot know, so it is not spelled out).

Everything is computed from the ``Seat``'s members, so a hint depends only on what the seat
sees and the ``rng`` (``tests/test_hints.py`` re-deals the hidden cards and compares the hints
byte for byte). ``HINT_BUDGET`` is sized for about a second on the project's 2-core machine
(docs/bots.md has the measurement).

The reason is worded by ``tr`` (``core/tr.py``; English by default, byte for byte): its
phrases are msgids of the ``terminal`` catalogue (``locale/terminal.cfg`` extracts this
module), so ``flamecraft play --lang ja`` gives its reasons in Japanese.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from ..core.actions import Action
from ..core.board import CATALOG
from ..core.describe import describe
from ..core.engine import apply, to_act
from ..core.engine import text as action_text
from ..core.errors import GameOverError
from ..core.state import COMPLETED, EMPTY, GameState
from ..core.tr import Translate, same
from .evaluate import TERM_NAMES, TERMS, settle, targets, value_terms
from .interface import SealedSeat, Seat
from .planner import PlannerBot
from .winchance import WinModel, default_model

_ENCH, _SHOPS, _FANCY = CATALOG.enchantments, CATALOG.shops, CATALOG.fancies


@dataclass(frozen=True)
class Budget:
    """How much a hint thinks: re-deals of the hidden cards, and the planner's beam and
    depth (decisions looked ahead within the turn)."""

    samples: int = 64
    beam: int = 5
    depth: int = 12


# Under a second a hint on the project's machine with the compiled core (docs/bots.md;
# about 3 times that in pure Python); the review, which values every decision of a game,
# uses fewer samples (``review.REVIEW_BUDGET``).
HINT_BUDGET = Budget(samples=64)


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

    def to_json(self) -> dict[str, Any]:
        """Plain data for a client (the action by its text, as the server's actions are)."""
        return {"action": self.text, "value": round(self.value, 2),
                "loss": round(self.loss, 2), "loss_se": round(self.loss_se, 2),
                "win": None if self.win is None else round(self.win, 4),
                "reason": self.reason, "plan": list(self.plan)}


def hints(seat: Seat | SealedSeat, rng: random.Random, budget: Budget = HINT_BUDGET,
          model: WinModel | None = None, tr: Translate = same,
          game: Translate = same) -> list[Hint]:
    """Every legal action of ``seat``, best first (ties keep the legal order), each reason in
    the language of ``tr`` (the ``terminal`` catalogue) and its plan in that of ``game``
    (the ``game`` catalogue: the actions in words; the stable texts with ``same``). Raises
    ``NotToActError`` if the seat is not to act, ``GameOverError`` once the game is over."""
    actions = seat.legal_actions()
    if not actions:
        view = seat.view()
        if view.get("over"):
            raise GameOverError("the game is over: there is nothing to hint")
        raise NotToActError(f"seat {seat.seat + 1} is not to act: hints are for the seat "
                            "whose decision it is")
    model = model or default_model()
    p = seat.seat
    planner = PlannerBot(beam=budget.beam, samples=1, depth=budget.depth)
    k = max(1, budget.samples)
    values = [[0.0] * k for _ in actions]
    wins: list[list[float]] = [[] for _ in actions]
    terms = [dict.fromkeys(TERMS, 0.0) for _ in actions]
    runs: list[list[tuple[GameState, GameState, tuple[Action, ...]]]] = [[] for _ in actions]
    for j in range(k):
        t = seat.sample(rng)
        for i, (v, end, line) in enumerate(planner.plan_lines(t, p, actions)):
            values[i][j] = v
            chances = model.chances(end)
            if chances is not None:
                wins[i].append(chances[p])
            for name, x in value_terms(end, p).items():
                terms[i][name] += x / k
            runs[i].append((t, end, line))
    means = [sum(v) / k for v in values]
    best = max(range(len(actions)), key=lambda i: (means[i], -i))
    out = []
    for i, a in enumerate(actions):
        j = _median_index(values[i])
        t, end, line = runs[i][j]
        now, outlook = _facts(t, end, p, tr)
        if i == best and not now:
            now = [_gains(terms[i], value_terms(t, p), tr)]
        tail = [outlook] if outlook else []
        if i != best:
            tail.append(_behind(terms[i], terms[best], means[best] - means[i], tr))
        reason = tr("; ").join(([tr(", ").join(now[:_MAX_FACTS])] if now else []) + tail)
        win = sum(wins[i]) / len(wins[i]) if wins[i] else None
        out.append(Hint(a, seat.text(a), means[i], means[best] - means[i],
                        _paired_se(values[best], values[i]), win,
                        reason, _plan(t, a, line, p, tr, game),
                        {name: round(x, 6) for name, x in terms[i].items()}))
    order = sorted(range(len(actions)), key=lambda i: (-means[i], i))
    return [out[i] for i in order]


def _paired_se(best: list[float], mine: list[float]) -> float:
    """The standard error of the mean of best − mine over the samples (0 with one)."""
    k = len(best)
    if k < 2:
        return 0.0
    d = [b - m for b, m in zip(best, mine, strict=True)]
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
        facts.append(tr("+{goods}").format(goods=_goods(goods, tr)))
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


def _terms_text(delta: dict[str, float], sign: float, tr: Translate) -> str:
    parts = sorted(((x, name) for name, x in delta.items() if sign * x > 0.05),
                   key=lambda item: -abs(item[0]))[:2]
    return tr(", ").join(f"{tr(TERM_NAMES[name])} {x:+.1f}" for x, name in parts)


def _behind(mine: dict[str, float], best: dict[str, float], loss: float,
            tr: Translate = same) -> str:
    """Why an action is below the best: the valuation's terms that differ most."""
    if loss < 0.05:
        return tr("as good as the best")
    delta = {name: mine[name] - best[name] for name in TERMS}
    why = _terms_text(delta, -1.0, tr)
    return (tr("{loss} behind the best ({why})").format(loss=f"{loss:.1f}", why=why) if why
            else tr("{loss} behind the best (the others gain more)").format(loss=f"{loss:.1f}"))


def _gains(after: dict[str, float], before: dict[str, float], tr: Translate = same) -> str:
    delta = {name: after[name] - before[name] for name in TERMS}
    why = _terms_text(delta, 1.0, tr)
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
