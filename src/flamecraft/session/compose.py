"""A person's choices, composed from the engine's small decisions.

The engine asks one small thing at a time (one Good type of a payment, gather or enchant,
then which Enchantment…): that keeps the lists short for bots, search and RL, and the records
exact. A person would rather make one choice where the chain has one sensible path, so both
interfaces (the terminal and the web) list ``Composite`` choices instead: each stands for a
sequence of engine actions of the same seat, applied one by one through ``History`` (so the
record, the log, the other seats and replays see exactly the engine's sequence). What is
composed:

- a payment: the whole split in one choice (every split listed, the one that keeps Coins
  first as the default), and a cast with its split when the list stays short;
- visiting and then gathering or enchanting, where both are possible (elsewhere the one
  action left is simply taken);
- a fire-up's gift that must be given (Plant: "gift 1 Good, then gain 2 Reputation") with
  its default (``default_gift``: to whoever has the least Reputation), listed before the
  fire-up alone, as a visit's gifts are (below);
- visiting an occupied Shop with its gifts (one to each other Flamekeeper there) and then
  gathering or enchanting: "visit Smith Mart + give Bread to Ember + give Meat to Ash +
  gather", with a default gift for each (``default_gift``), listed first and marked
  ``default``; the plain visit stays listed after them, to choose each gift oneself (then
  asked as one choice with what follows, while the list stays short: see below). The visit
  list is a Shop a line or two already; the gifts add the one plain visit a Shop where
  there is a gift to choose, and where the whole list would pass ``ONE_PATH_MAX`` the
  default-gift lines are left out, the largest Shops' first (the plain visits stay); the
  same for any other step that leads to gifts owed ("gift each": one to every other
  Flamekeeper), with the list's own bound (``LIST_MAX``);
- an optional step and its own choice ("use the ability" and which Goods, "fire up" and what
  the dragon does), when that choice has a few options, and a declined optional step of a
  Gather with the next one ("do not place; fire up Wingnut"), and while the list stays short
  a gift owed on a visit with what follows it, a placement with the fire-up after it;
- every step after a choice that has one legal action for the person (taken through the
  engine, so every seat sees the same sequence), except the end of the turn, which is always
  asked: it is the turn's confirm point (``confirm``), where undo can still take the turn's
  choices back; a Sun Dragon revealed there is one choice with the end of the turn, when no
  other Sun is left to reveal (a reveal cannot be undone: a confirm after it would take
  nothing back).

A composition never looks past something hidden or random (``undo.reveals``: a card drawn,
a Shop turned, a shuffle) nor past another seat's decision, so a choice says nothing the
seat could not know. ``Composite.text`` is its stable form (the engine texts joined by
``SEP``), what the terminal types and the web sends; ``find`` refuses one that is no longer
among the choices (``StaleChoiceError``, naming the current ones) and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.actions import END_TURN, PAY, REVEAL, SKIP, Action, normalize
from ..core.describe import describe
from ..core.engine import apply, legal_actions, text, to_act
from ..core.errors import FlamecraftError
from ..core.frames import (
    D_ABILITY,
    D_ACTION,
    D_CAST,
    D_END_TURN,
    D_FIRE_ALL,
    D_FIRE_ONE,
    D_GIFT,
    D_GIVE_TO,
    D_PAY,
    D_PLACE,
    D_VISIT,
)
from ..core.goods import NUM_GOODS
from ..core.kinds import ACTION_KINDS
from ..core.state import GameState
from ..core.tr import Translate, same
from ..core.turn import castable
from .history import History, Played
from .undo import reveals

SEP = " + "  # between the engine texts of a composite's stable text (no engine text has it)

LIST_MAX = 10  # ... as long as the whole list stays within this many choices
ONE_PATH_MAX = 21  # ... or this many, where there is one thing to do or not (fire up Twig)
CAST_MAX = 12  # the most choices a cast with its payment splits may make, in all

# The decisions whose action is composed with the decision it leads to, and which: a visit
# with gather/enchant, enchant with the cast, a cast with its payment, a payment Good with the
# next one, an ability or a fire-up with its own choice.
_LEADS_TO: dict[int, tuple[int, ...]] = {
    D_VISIT: (D_ACTION,),
    D_ACTION: (D_CAST,),
    D_CAST: (D_PAY,),
    D_PAY: (D_PAY,),
}
_OWN_CHOICE = (D_ABILITY, D_FIRE_ONE, D_FIRE_ALL)
# The optional steps of a Gather whose decline is composed with the next one ("do not
# place; fire up Wingnut"), as the web's "skip the rest" does in one click.
_DECLINE_THEN: dict[int, tuple[int, ...]] = {
    D_PLACE: (D_FIRE_ONE, D_ABILITY),
    D_FIRE_ONE: (D_ABILITY,),
}
# Steps composed with the next when the list stays short (LIST_MAX): a gift owed on a visit
# with the next gift or gather/enchant, a placement with the fire-up that follows it, a
# fire-up (with nothing of its own to choose) with the Shop's ability after it.
_THEN_IF_SHORT: dict[int, tuple[int, ...]] = {
    D_GIVE_TO: (D_GIVE_TO, D_ACTION),
    D_PLACE: (D_FIRE_ONE,),
    D_FIRE_ONE: (D_ABILITY,),
}


class StaleChoiceError(FlamecraftError):
    """A composite choice that is not among the choices now (another tab, a stale page):
    nothing was changed; ``choices`` are the current ones' texts."""

    def __init__(self, typed: str, choices: Sequence[str]):
        shown = "; ".join(choices[:6]) + ("; …" if len(choices) > 6 else "")
        super().__init__(f"{typed!r} is not a choice now; the choices are: {shown}")
        self.typed, self.choices = typed, list(choices)


@dataclass(frozen=True)
class Composite:
    """One choice as a person makes it: the engine actions it stands for, in order, from the
    state it was listed at. ``default``: the one offered first where a choice has a default
    (a payment's split that keeps Coins); ``confirm``: the end of the turn."""

    actions: tuple[Action, ...]
    texts: tuple[str, ...]  # each action's stable text, at the state it is applied to
    default: bool = False
    confirm: bool = False

    @property
    def text(self) -> str:
        """The stable form: what the terminal types, the web sends and ``find`` reads."""
        return SEP.join(self.texts)

    @property
    def first(self) -> Action:
        return self.actions[0]


def _is_confirm(s: GameState, action: Action) -> bool:
    return s.stack[-1][0] == D_END_TURN and action[0] == END_TURN


def _forced(s: GameState, p: int, turn: int) -> Action | None:
    """The one legal action the person would be asked for next, to take without asking:
    None when the game is over, another seat acts, the turn has ended, it is the end of the
    turn (always asked), or there is a real choice."""
    if s.over or to_act(s) != p or s.turn != turn:
        return None
    legal = legal_actions(s)
    if len(legal) != 1 or _is_confirm(s, legal[0]):
        return None
    return legal[0]


def _follow(s: GameState, p: int, turn: int, path: list[Action], texts: list[str]
            ) -> tuple[GameState, bool]:
    """Applies ``path``'s last action's forced successors (``_forced``) to ``s``, appending
    them; returns the state reached and whether it may be looked into further (nothing
    hidden shown, same seat, same turn)."""
    while True:
        a = _forced(s, p, turn)
        if a is None:
            break
        t = apply(s, a)
        path.append(a)
        texts.append(text(s, a))
        if reveals(s, t):
            return t, False
        s = t
    return s, not s.over and to_act(s) == p and s.turn == turn


def _step(s: GameState, a: Action) -> tuple[GameState, bool]:
    t = apply(s, a)
    return t, not reveals(s, t)


def _expand(s: GameState, p: int, turn: int, depth: int = 0,
            leaf: bool = False) -> list[Composite]:
    """The composites from ``s`` (the person ``p`` to act, turn ``turn``), in the order they
    are listed: the engine's, with declines last; a payment's splits by Coins, fewest first.
    ``leaf``: each action with its forced steps only, composed no further (what a visit is
    composed with: gather or enchant, the cast asked after it, so the visit list stays one
    or two lines a Shop)."""
    top = s.stack[-1][0]
    legal = sorted(legal_actions(s), key=lambda a: ACTION_KINDS[a[0]].decline)
    # (alone, composed, bound): an optional composition is listed while the whole list
    # stays within its bound (0: not optional; the default gifts: ONE_PATH_MAX, as visits)
    rows: list[tuple[Composite, list[Composite], int]] = []
    for a in legal:
        if _is_confirm(s, a):
            rows.append((Composite((a,), (text(s, a),), confirm=True), [], 0))
            continue
        ending = _reveal_and_end(s, a, p, turn)
        if ending is not None:
            rows.append((ending, [], 0))
            continue
        t, clear = _step(s, a)
        path, texts = [a], [text(s, a)]
        if clear:
            t, clear = _follow(t, p, turn, path, texts)
        alone = Composite(tuple(path), tuple(texts))
        follow: list[Composite] = []
        optional = 0
        if (clear and depth < 6 and not leaf and top not in (D_GIVE_TO, D_GIFT)
                and owes_gift(t)):
            gifts = _with_default_gifts(t, p, turn)
            rows.append((alone, [Composite((*path, *c.actions), (*texts, *c.texts), i == 0)
                                 for i, c in enumerate(gifts)] + [alone], ONE_PATH_MAX))
            continue
        if clear and depth < 6 and not leaf:
            nxt = t.stack[-1][0]
            if nxt in _LEADS_TO.get(top, ()) and not (top == D_VISIT and len(
                    legal_actions(t)) < 2):
                follow = _expand(t, p, turn, depth + 1, leaf=top == D_VISIT)
                if top == D_CAST and len(follow) * len(legal) > CAST_MAX:
                    follow = []
            elif _composed_with_next(s, t, a, top, nxt):
                follow, optional = _expand(t, p, turn, depth + 1), LIST_MAX
                if len(follow) > ONE_PATH_MAX or any(c.confirm for c in follow):
                    follow = []
        rows.append((alone, [Composite((*path, *c.actions), (*texts, *c.texts), c.default)
                             for c in follow], optional))
    # an optional step's own choices are listed with it only while the list stays short:
    # the largest are left to be asked after it
    # (or up to ONE_PATH_MAX when only one action is not a decline: "fire up Twig" or not,
    # and then to whom it gifts what, is one choice)
    total = sum(len(composed) or 1 for _, composed, _ in rows)
    doing = [row for row in rows if not ACTION_KINDS[row[0].first[0]].decline]
    most = ONE_PATH_MAX if len(doing) == 1 or top == D_VISIT else LIST_MAX
    for i in sorted(range(len(rows)), key=lambda i: -len(rows[i][1])):
        alone, composed, bound = rows[i]
        if total <= most:
            break
        if bound and len(composed) > 1 and total > max(bound, most):
            total -= len(composed) - 1
            rows[i] = (alone, [], bound)
    out = [c for alone, composed, _ in rows for c in (composed or [alone])]
    if top in (D_PAY, D_CAST):
        out = _defaults(out)
    return out


def _reveal_and_end(s: GameState, a: Action, p: int, turn: int) -> Composite | None:
    """A Sun Dragon revealed at the end of the turn, with the end of the turn when that is
    all there is left (no other Sun to reveal): one choice, and a confirm (it ends the
    turn; a reveal cannot be undone anyway, so a confirm after it would take nothing back).
    None for any other action."""
    if a[0] != REVEAL or s.stack[-1][0] != D_END_TURN:
        return None
    t = apply(s, a)
    if t.over or to_act(t) != p or t.turn != turn or t.stack[-1][0] != D_END_TURN:
        return None
    left = legal_actions(t)
    if len(left) != 1 or left[0][0] != END_TURN:
        return None
    return Composite((a, left[0]), (text(s, a), text(t, left[0])), confirm=True)


def owes_gift(s: GameState) -> bool:
    """Whether the decision at ``s`` is a gift that must be given: one owed on a visit (or a
    "gift each"), or a fire-up's gift that cannot be declined (Plant: "gift 1 Good")."""
    if not s.stack or s.over:
        return False
    top = s.stack[-1][0]
    if top == D_GIVE_TO:
        return True
    return top == D_GIFT and all(a[0] != SKIP for a in legal_actions(s))


def default_gift(s: GameState) -> Action:
    """The gift a composed choice gives at ``s`` (a gift owed: ``owes_gift``): a Good while
    the seat holds one (a Coin only when it holds no Good: Coins pay for what Goods cannot,
    and a Good is what the rules' gift usually is); among the Goods, first one that leaves
    every Enchantment the seat can cast at this Shop castable (as many of them, and of their
    sets, as any gift would), then the one it holds most of (giving from plenty), then the
    first in the Goods' order; where the seat chooses to whom (a fire-up's gift), to the
    Flamekeeper with the least Reputation (helping whoever is furthest behind), the next in
    turn order on a tie. So the default is the same for every seat and every run, and reads
    only what the table shows."""
    f = s.stack[-1]
    p, shop = f[1], f[2]
    legal = [a for a in legal_actions(s) if a[0] != SKIP]
    goods = [a for a in legal if a[1] != NUM_GOODS] or legal
    left: dict[int, tuple[int, int]] = {}
    for item in {a[1] for a in goods}:
        one = next(a for a in goods if a[1] == item)
        cast = castable(apply(s, one), p, shop) if shop >= 0 else []
        left[item] = (len({e for e, _ in cast}), len(cast))

    def key(a: Action) -> tuple[int, int, int, int, int, int]:
        held = s.goods[p][a[1]] if a[1] != NUM_GOODS else 0
        to = a[2]  # a seat, or the supply (a solo game's gift)
        behind = (-s.rep[to], -((to - p) % s.n)) if 0 <= to < s.n else (0, 0)
        return (*left[a[1]], held, -a[1], *behind)

    return max(goods, key=key)


def _with_default_gifts(s: GameState, p: int, turn: int) -> list[Composite]:
    """From the first gift owed (``s``: on a visit, a "gift each", a fire-up's gift), the
    default gifts (``default_gift``) with their forced steps, then, after a visit, gather or
    enchant where both are possible (each with its forced steps, as a visit is composed):
    the composites to list after the step that owes the gifts."""
    path: list[Action] = []
    texts: list[str] = []
    clear = True
    while clear and owes_gift(s):
        a = default_gift(s)
        path.append(a)
        texts.append(text(s, a))
        s, clear = _step(s, a)
        if clear:
            s, clear = _follow(s, p, turn, path, texts)
    if clear and s.stack and s.stack[-1][0] == D_ACTION and len(legal_actions(s)) > 1:
        return [Composite((*path, *c.actions), (*texts, *c.texts))
                for c in _expand(s, p, turn, 1, leaf=True)]
    return [Composite(tuple(path), tuple(texts))]


def _composed_with_next(s: GameState, t: GameState, a: Action, top: int, nxt: int) -> bool:
    """Whether action ``a`` of decision ``top`` (at ``s``) is listed with the choices of the
    decision ``nxt`` it leads to (at ``t``), while the list stays short: an optional step
    with its own choice, a declined Gather step with the next, a gift owed with what follows,
    a placement with its fire-up."""
    decline = ACTION_KINDS[a[0]].decline
    if decline:
        return nxt in _DECLINE_THEN.get(top, ())
    if nxt in _THEN_IF_SHORT.get(top, ()):
        return len(legal_actions(t)) > 1
    return (top in _OWN_CHOICE and nxt != top and len(t.stack) >= len(s.stack)
            and len(legal_actions(t)) <= ONE_PATH_MAX)


def _coins_paid(c: Composite) -> int:
    """The Coins a composite's payment steps spend (a PAY action's last argument)."""
    return sum(a[3] for a in c.actions if a[0] == PAY)


def _defaults(out: list[Composite]) -> list[Composite]:
    """The splits of each payment (of a cast, at a cast) together, fewest Coins first, that
    one the default where there are several."""
    groups: dict[Action, list[Composite]] = {}
    for c in out:
        groups.setdefault(c.first if c.first[0] != PAY else (PAY, -1, -1, -1), []).append(c)
    listed = []
    for group in groups.values():
        group.sort(key=_coins_paid)
        if len(group) > 1:
            group[0] = Composite(group[0].actions, group[0].texts, default=True)
        listed.extend(group)
    return listed


def choices(s: GameState) -> list[Composite]:
    """The composite choices of the seat to act, as a person's interface lists them (empty
    once the game is over). A payment's first choice is its ``default``."""
    if s.over:
        return []
    return _expand(s, to_act(s), s.turn)


def automatic(s: GameState) -> Composite | None:
    """The choice a person's interface takes without asking: the only one there is, unless
    it is the end of the turn (always confirmed)."""
    listed = choices(s)
    if len(listed) == 1 and not listed[0].confirm:
        return listed[0]
    return None


def find(s: GameState, typed: str, listed: Sequence[Composite] | None = None) -> Composite:
    """The choice whose stable text is ``typed`` (spaces and case aside); a single engine
    action's text picks the choice that starts with it when it is the only one, or the first
    (the default) of a payment. Raises ``StaleChoiceError`` otherwise, changing nothing."""
    listed = choices(s) if listed is None else listed
    key = normalize(typed)
    for c in listed:
        if normalize(c.text) == key:
            return c
    starting = [c for c in listed if normalize(c.texts[0]) == key]
    if len(starting) == 1 or (starting and starting[0].default):
        return starting[0]
    raise StaleChoiceError(typed, [c.text for c in listed])


def words(s: GameState, c: Composite, tr: Translate = same) -> str:
    """A composite in the reader's words: each step as it is described at its own state."""
    out, t = [], s
    for a in c.actions:
        out.append(describe(t, a, tr).words or text(t, a))
        t = apply(t, a)
    return tr("; ").join(out)


def label(s: GameState, c: Composite, tr: Translate = same) -> str:
    """A composite as a list shows it: its words and the first step's facts (what it
    costs and gives)."""
    if c.confirm and len(c.actions) == 1:
        return tr("confirm the end of your turn")
    first = describe(s, c.first, tr)
    said = first.words or first.text
    if first.facts:
        said = f"{said} {first.facts}"
    if c.confirm:  # a Sun revealed with it (_reveal_and_end)
        return tr("; ").join([said, tr("confirm the end of your turn")])
    if len(c.actions) > 1:
        said = tr("; ").join([said, words(apply(s, c.first), Composite(
            c.actions[1:], c.texts[1:]), tr)])
    return said


def prepare(history: History, c: Composite) -> list[Played]:
    """The composite's actions worked out from the history's state, not yet kept; raises
    ``IllegalActionError`` (nothing changed) if one no longer applies."""
    s, out = history.state, []
    for a in c.actions:
        one = history.prepare(a, s)
        out.append(one)
        s = one.after
    return out


def commit(history: History, played: Sequence[Played], asked: bool = True) -> None:
    """Keeps a prepared composite: one undo point, before its first action, so an undo takes
    the whole choice back; none for a choice taken without asking (``automatic``), which an
    undo goes back past (it would only be taken again)."""
    for i, one in enumerate(played):
        history.commit(one, undo_point=asked and i == 0)


def play(history: History, c: Composite, asked: bool = True) -> list[Played]:
    """Applies a composite (``prepare`` then ``commit``)."""
    played = prepare(history, c)
    commit(history, played, asked)
    return played


def play_automatic(history: History, people: Sequence[int] | None = None) -> int:
    """Takes every choice a person's interface answers without asking (``automatic``), for
    the seats in ``people`` (all when None); returns how many engine actions that took."""
    n = 0
    while not history.state.over:
        if people is not None and to_act(history.state) not in people:
            break
        c = automatic(history.state)
        if c is None:
            break
        n += len(play(history, c, asked=False))
    return n
