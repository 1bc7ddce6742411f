"""The public rules API: who acts, the legal actions, applying one, the result.

The state is advanced until it waits for a choice: phases run by themselves, and a decision
with a single legal action (say, paying a cost that can be paid one way only) is taken
automatically — unless its frame is asked alone (``frames.Decision.asked_alone``: the visit,
the end of every turn, and the decisions whose options can depend on the deciding seat's
hidden cards), so that which decisions a seat is asked never depends on what the others
cannot see. A Sun Dragon whose goal is met may be revealed at the decisions of its owner's
turn that are asked (ruling 21): its ``reveal`` actions are added to the decision at hand.
"""

from __future__ import annotations

from typing import Final, cast

from . import actions as A
from . import effects as _effects  # noqa: F401  (registers the effect decisions)
from . import turn as _turn  # noqa: F401  (registers the turn decisions)
from .actions import Action, action_text, normalize
from .board import CATALOG, COMPANIONS, add_rep, gain_reward
from .cards import Reward
from .companions import free_actions, use_free_action
from .errors import GameOverError, IllegalActionError
from .events import Event, close, event, opened
from .frames import DECISIONS, PHASES, Decision, Frame, decision_asked_alone
from .goals import FANCIES, fancy_value, revealable_suns
from .goods import NUM_GOODS
from .kinds import FRAME_KINDS
from .setup_game import new_game
from .state import EMPTY, FANCY_SCORED, RULES, SRC_SUN, SUN_SCORED, GameState, Options, Variant
from .tr import N_, Translate, same

__all__ = ["apply", "apply_in_place", "is_over", "legal_actions", "new_game", "to_act"]


def _decision_actions(s: GameState, f: Frame) -> list[Action]:
    return _actions_of(DECISIONS[f[0]], s, f)


def _actions_of(decision: Decision, s: GameState, f: Frame) -> list[Action]:
    """The frame's actions, with the owner's Sun reveals and free Companion actions where
    they are offered: reveals only at a decision asked anyway (more than one other action,
    or a frame asked alone), so that a met Sun Dragon, which is hidden, never makes a decision
    be asked."""
    actions = decision.legal(s, f)
    if decision.sun_reveals and actions:
        p = f[1]
        free = free_actions(s, p) if s.companion[p] != EMPTY else []
        if s.fancy[p] and (len(actions) + len(free) > 1
                           or decision_asked_alone(decision, s, f)):
            for card in revealable_suns(s, p):
                actions.append((A.REVEAL, card, -1, -1))
        actions.extend(free)
    return actions


def _resolve(s: GameState, action: Action) -> None:
    if action[0] == A.REVEAL:
        reveal_sun(s, s.stack[-1][1], action[1])
        return
    if action[0] == A.USE_COMPANION and COMPANIONS[action[1]].hook == "free_action":
        use_free_action(s, s.stack[-1][1], action[1])
        return
    f = s.stack.pop()
    DECISIONS[f[0]].resolve(s, f, action)


def advance(s: GameState, trace: list[Event] | None = None) -> None:
    """Runs phases and forced decisions until a player has a real choice or the game ends;
    ``trace`` (when given) receives the event of each forced decision taken."""
    stack = s.stack
    while stack:
        f = stack[-1]
        kind = f[0]
        if kind >= 100:
            stack.pop()
            PHASES[kind](s, f)
            continue
        decision = DECISIONS[kind]
        actions = _actions_of(decision, s, f)
        if not actions:
            stack.pop()
        elif len(actions) == 1 and not decision_asked_alone(decision, s, f):
            if trace is not None:
                _trace(trace, s, actions[0], True)
            _resolve(s, actions[0])
        else:
            s.cache = actions
            return
    s.cache = []


def legal_actions(s: GameState) -> list[Action]:
    """The legal actions of the player to act (empty once the game is over)."""
    if s.cache is None:
        advance(s)
    assert s.cache is not None
    return list(s.cache)


def to_act(s: GameState) -> int:
    """The player who must choose now, or -1 when the game is over."""
    if s.cache is None:
        advance(s)
    return s.stack[-1][1] if s.stack else -1


def is_over(s: GameState) -> bool:
    return s.over


def _check_legal(s: GameState, action: object) -> Action:
    """The action, if it is legal now; raises ``IllegalActionError`` (naming what is asked)
    for anything else, a value of the wrong type included."""
    if s.cache is None:
        advance(s)
    if s.over:
        raise GameOverError(GAME_OVER)
    cache = s.cache
    assert cache is not None
    # Most callers pass back one of the listed tuples itself: found by identity first. The
    # list is read as objects, since compiled, reading it as Actions would unbox each one.
    for legal in cast("list[object]", cache):
        if legal is action:
            return cast(Action, action)
    if action not in cache:
        raise _why_illegal(s, action)
    return action  # narrowed: it is one of the legal actions


def _trace(trace: list[Event], s: GameState, action: Action, forced: bool) -> None:
    """The event of ``action`` (about to be resolved at ``s``) traced; the one before it is
    closed with its results: everything since it, the forced declines (no event) between
    included."""
    e = event(s, action, forced)
    if e is not None:
        close(trace, s)
        trace.append(opened(e, s))


# ``apply`` and ``apply_in_place`` take any object, not only an ``Action``: compiled by mypyc,
# a parameter typed ``Action`` would refuse a value of another type with a TypeError before
# the body runs, where the pure form (and the API's promise) raises IllegalActionError.


def apply_in_place(s: GameState, action: object, trace: list[Event] | None = None) -> None:
    """Applies a legal action to this state. An illegal one raises and changes nothing.
    ``trace`` (when given) receives the events: this action's, then each forced one's."""
    legal = _check_legal(s, action)
    if trace is not None:
        _trace(trace, s, legal, False)
    s.cache = None
    _resolve(s, legal)
    advance(s, trace)
    if trace is not None:
        close(trace, s)


def apply(s: GameState, action: object, trace: list[Event] | None = None) -> GameState:
    """A new state after a legal action; ``s`` itself is never changed. ``trace`` as in
    ``apply_in_place``."""
    legal = _check_legal(s, action)
    if trace is not None:
        _trace(trace, s, legal, False)
    nxt = s.copy()
    nxt.cache = None
    _resolve(nxt, legal)
    advance(nxt, trace)
    if trace is not None:
        close(trace, nxt)
    return nxt


def reveal_sun(s: GameState, p: int, card: int) -> None:
    """Reveals a Sun Dragon whose goal is met: spends the Goods it names, scores it."""
    fancy = FANCIES[card]
    rep = fancy_value(s, p, fancy)
    spend = fancy.goal.spend
    if spend is not None:
        goods = s.goods[p]
        for g in range(NUM_GOODS):
            goods[g] -= spend[g]
    s.fancy[p].remove(card)
    s.scored[p].append(card)
    s.counters[p][SUN_SCORED] += 1
    s.counters[p][FANCY_SCORED] += 1
    add_rep(s, p, rep, SRC_SUN)
    reward = fancy.reward
    extras = Reward(coins=reward.coins, artisan=reward.artisan, fancy=reward.fancy,
                    good_choice=reward.good_choice)
    gain_reward(s, p, extras, SRC_SUN)


GAME_OVER: Final = N_("the game is over: no action can be applied")


def decision_msgid(s: GameState) -> str:
    """What the player to act is choosing, in English words (a msgid: the ``asks`` of its
    frame kind's declaration)."""
    if not s.stack:
        return N_("nothing (the game is over)")
    kind = FRAME_KINDS.get(s.stack[-1][0])
    return kind.asks if kind is not None and kind.asks else "?"


def describe_decision(s: GameState, tr: Translate = same) -> str:
    """What the player to act is choosing, in words (in ``tr``'s language)."""
    return tr(decision_msgid(s))


def names(s: GameState) -> tuple[str, ...]:
    return s.options.player_names()


def text(s: GameState, action: Action) -> str:
    """The readable text of an action in this game."""
    return action_text(action, CATALOG, names(s))


def _why_illegal(s: GameState, action: object) -> IllegalActionError:
    try:
        what = repr(text(s, action))  # type: ignore[arg-type]
    except (ValueError, IndexError, TypeError):
        what = repr(action)
    return _not_legal_now(s, what)


def _not_legal_now(s: GameState, what: str) -> IllegalActionError:
    """The error for ``what`` (an action or a typed text, as ``repr`` shows it): who is
    choosing what, and the first legal actions' stable texts (what may be typed)."""
    player = names(s)[to_act(s)]
    legal = s.cache or []
    shown = "; ".join(text(s, a) for a in legal[:6]) + ("; …" if len(legal) > 6 else "")
    return IllegalActionError(
        N_("{what} is not a legal action now: {player} is choosing {decision}; legal: {legal}"),
        {"what": what, "player": player, "decision": decision_msgid(s), "legal": shown})


def parse_action(s: GameState, typed: str) -> Action:
    """The legal action whose text is ``typed`` (case and spacing ignored), or its index."""
    actions = legal_actions(s)
    if s.over:
        raise GameOverError(GAME_OVER)
    key = normalize(typed)
    if key.isdigit():
        index = int(key)
        if 0 <= index < len(actions):
            return actions[index]
        raise IllegalActionError(N_("no action number {index}: there are {count} (0–{last})"),
                                 {"index": str(index), "count": str(len(actions)),
                                  "last": str(len(actions) - 1)})
    for action in actions:
        if normalize(text(s, action)) == key:
            return action
    raise _not_legal_now(s, repr(typed))


def winners(s: GameState) -> list[int]:
    """The winner(s) once the game is over: most Reputation, then most Artisan Dragons in
    hand, then most Goods; still tied, they share the win (ruling 20)."""
    def key(p: int) -> tuple[int, int, int]:
        return (s.rep[p], len(s.hand[p]), sum(s.goods[p]))
    best = max(key(p) for p in range(s.n))
    return [p for p in range(s.n) if key(p) == best]


def start(players: int, seed: int, deck: str = "purple",
          player_names: tuple[str, ...] = (), companions: bool = False,
          first_player: int | None = None, variant: Variant = RULES) -> GameState:
    """A new game advanced to its first decision. The first player is drawn from the seed
    unless ``first_player`` fixes it (a seat, 0 to players - 1); ``variant`` is a research
    variant (``core/variant.py``; not the rules)."""
    s = new_game(Options(players, deck, player_names, companions, first_player, variant), seed)
    advance(s)
    return s
