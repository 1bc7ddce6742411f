"""The pending-decision stack's vocabulary: every frame kind, declared, and the handlers.

A frame is a tuple of ints ``(kind, player, here, *args)``. Decision frames wait for the player
to choose; phase frames run by themselves. ``here`` is where an effect happens: a Shop index,
or ``IN_HAND`` / ``IN_PARK`` for a dragon fired up away from a Shop, or ``NOWHERE``.
Each kind is declared here once (``kinds.FrameKind``: its saved name, its named fields, the
question a decision asks, whether Sun Dragons may be revealed at it), and the field indices
handlers read are derived from the declarations. Modules that own a part of the turn
(``turn.py``, ``effects.py``) register their handlers here, and ``engine.py`` dispatches on
the kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .actions import Action
from .kinds import (
    ARTISAN,
    COMPANION,
    EFFECT,
    ENCHANTMENT,
    FANCY_LIST,
    FRAME_KINDS,
    GOOD,
    PLAYER,
    SCOPE,
    SEAT,
    WHERE,
    Field,
    FrameKind,
    declare_frame,
)
from .state import GameState
from .tr import N_

Frame = tuple[int, ...]

NOWHERE: Final = -1
IN_HAND: Final = -2
IN_PARK: Final = -3
SUPPLY: Final = -1  # the recipient of a gift in a solo game: the general supply

# Decision kinds (numbered in order: the research observation one-hots them) and phase kinds,
# each declared below with its saved name, fields and question (``kinds.py``). The codes are
# literal constants so that compiled code compares them as C ints.
D_START_GOOD: Final = 0
D_VISIT: Final = 1
D_ACTION: Final = 2
D_GAIN_GOOD: Final = 3
D_DRAW_ARTISAN: Final = 4
D_PLACE: Final = 5
D_FIRE_ONE: Final = 6
D_ABILITY: Final = 7
D_FIRE_ALL: Final = 8
D_CAST: Final = 9
D_PAY: Final = 10
D_END_TURN: Final = 11
D_DISCARD: Final = 12
D_GAIN_TWO: Final = 13
D_GAIN_SET: Final = 14
D_GIFT: Final = 15
D_SWAP_FIRE: Final = 16
D_TRADE_ANY: Final = 17
D_TRADE_SAME: Final = 18
D_RETURN_UP_TO: Final = 19
D_RESERVE: Final = 20
D_FIRE_UP: Final = 21
D_KEEP_DRAWN_FANCY: Final = 22
D_FANCY_RETURN: Final = 23
D_ARTISAN_LOOK: Final = 24
D_SCORE_MOON: Final = 25
D_GIFT_EACH: Final = 26
D_GIFT_ARTISAN: Final = 27
D_SWAP_TWO: Final = 28
D_PARK_CYCLE: Final = 29
D_CHOOSE_TYPE: Final = 30
D_GIVE_TO: Final = 31
D_COMPANION_PICK: Final = 32
D_COMPANION_USE: Final = 33
D_EXCHANGE_GOOD: Final = 34

P_RUN: Final = 100
P_TURN_START: Final = 101
P_GATHER: Final = 102
P_CAST_FINISH: Final = 103
P_END_TURN: Final = 104
P_GAME_END: Final = 105
P_FIRE: Final = 106
P_SETUP_DONE: Final = 107
P_RETURN_REWARD: Final = 108
P_GIFT_EACH_REWARD: Final = 109
P_REFILL: Final = 110
P_DEAL_FANCY: Final = 111

_EFFECT: Final = Field("effect", EFFECT)
_N: Final = Field("n")
_COUNT: Final = Field("count")


def _decide(code: int, name: str, fields: tuple[Field, ...], asks: str,
            sun_reveals: bool = False) -> FrameKind:
    return declare_frame(FrameKind(code, name, (PLAYER, *fields), asks, sun_reveals))


def _phase(code: int, name: str, fields: tuple[Field, ...] = ()) -> FrameKind:
    return declare_frame(FrameKind(code, name, fields))


_decide(D_START_GOOD, "decide_start_good", (WHERE,), N_("which Good to take at setup"))
_decide(D_VISIT, "decide_visit", (), N_("which Shop to visit"), sun_reveals=True)
_decide(D_ACTION, "decide_action", (WHERE,), N_("whether to gather or enchant"),
        sun_reveals=True)
_decide(D_GAIN_GOOD, "decide_gain_good", (WHERE,), N_("which Good to gain"))
_decide(D_DRAW_ARTISAN, "decide_draw_artisan", (WHERE,), N_("which Artisan Dragon to draw"))
DECIDE_PLACE: Final = _decide(
    D_PLACE, "decide_place", (WHERE, Field("scope", SCOPE), Field("source"), Field("optional"),
                              Field("effect", EFFECT, optional=True)),
    N_("where to place an Artisan Dragon"), sun_reveals=True)
_decide(D_FIRE_ONE, "decide_fire_one", (WHERE,), N_("which dragon to fire up"), sun_reveals=True)
_decide(D_ABILITY, "decide_ability", (WHERE,), N_("whether to use the Shop's ability"),
        sun_reveals=True)
_decide(D_FIRE_ALL, "decide_fire_all", (WHERE,), N_("which dragons to fire up, one at a time"),
        sun_reveals=True)
# No Sun reveals at the cast: a reveal that spends the Goods of the only affordable cast would
# leave an Enchant turn without a cast (reveal at the gather/enchant choice instead).
_decide(D_CAST, "decide_cast", (WHERE,), N_("which Enchantment to cast"))
DECIDE_PAY: Final = _decide(
    D_PAY, "decide_pay", (WHERE, Field("enchantment", ENCHANTMENT), Field("sets"),
                          Field("good", GOOD)), N_("how to pay with Goods and Coins"))
_decide(D_END_TURN, "decide_end_turn", (),
        N_("whether to end the turn (or first reveal a Sun Dragon)"), sun_reveals=True)
_decide(D_DISCARD, "decide_discard", (WHERE,), N_("which Artisan Dragon to discard down to 6"),
        sun_reveals=True)
DECIDE_GAIN_TWO: Final = _decide(D_GAIN_TWO, "decide_gain_two", (WHERE, _N),
                                 N_("which Good to gain 2 of"))
DECIDE_GAIN_SET: Final = _decide(D_GAIN_SET, "decide_gain_set", (WHERE, _N),
                                 N_("which different Goods to gain"))
DECIDE_GIFT: Final = _decide(D_GIFT, "decide_gift", (WHERE, _EFFECT, _COUNT),
                             N_("what to gift, and to whom"))
DECIDE_SWAP_FIRE: Final = _decide(D_SWAP_FIRE, "decide_swap_fire",
                                  (WHERE, Field("artisan", ARTISAN)),
                                  N_("which dragon to swap with"))
_decide(D_TRADE_ANY, "decide_trade_any", (WHERE, _EFFECT, _N), N_("which Good to return"))
DECIDE_TRADE_SAME: Final = _decide(D_TRADE_SAME, "decide_trade_same", (WHERE, _EFFECT),
                                   N_("which Good to return"))
DECIDE_RETURN_UP_TO: Final = _decide(D_RETURN_UP_TO, "decide_return_up_to",
                                     (WHERE, _EFFECT, _COUNT), N_("what to return"))
_decide(D_RESERVE, "decide_reserve", (WHERE, _EFFECT), N_("which Enchantment to reserve"))
DECIDE_FIRE_UP: Final = _decide(D_FIRE_UP, "decide_fire_up", (WHERE, _EFFECT),
                                N_("which dragon to fire up"))
DECIDE_KEEP_DRAWN_FANCY: Final = _decide(
    D_KEEP_DRAWN_FANCY, "decide_keep_drawn_fancy",
    (WHERE, Field("keep"), Field("fancy", FANCY_LIST)), N_("which Fancy Dragon to keep"))
DECIDE_FANCY_RETURN: Final = _decide(D_FANCY_RETURN, "decide_fancy_return", (WHERE, _EFFECT),
                                     N_("which Fancy Dragon to put back"))
DECIDE_ARTISAN_LOOK: Final = _decide(D_ARTISAN_LOOK, "decide_artisan_look", (WHERE, _N),
                                     N_("which Artisan Dragon to keep"))
DECIDE_SCORE_MOON: Final = _decide(D_SCORE_MOON, "decide_score_moon", (WHERE, _EFFECT),
                                   N_("which Moon Dragon to score now"))
DECIDE_GIFT_EACH: Final = _decide(D_GIFT_EACH, "decide_gift_each", (WHERE, _EFFECT),
                                  N_("whether to gift a Good to each other player"))
DECIDE_GIFT_ARTISAN: Final = _decide(D_GIFT_ARTISAN, "decide_gift_artisan", (WHERE, _EFFECT),
                                     N_("which Artisan Dragon to gift, and to whom"))
DECIDE_SWAP_TWO: Final = _decide(D_SWAP_TWO, "decide_swap_two",
                                 (WHERE, Field("artisan", ARTISAN, optional=True)),
                                 N_("which dragons to swap"))
_decide(D_PARK_CYCLE, "decide_park_cycle", (WHERE, _COUNT, Field("max")),
        N_("which Park dragons to send to the bottom of the deck"))
DECIDE_CHOOSE_TYPE: Final = _decide(D_CHOOSE_TYPE, "decide_choose_type",
                                    (WHERE, Field("purpose"), _N), N_("which Good type"))
DECIDE_GIVE_TO: Final = _decide(D_GIVE_TO, "decide_give_to", (WHERE, Field("to", SEAT)),
                                N_("which Good or Coin to give"))
_decide(D_COMPANION_PICK, "decide_companion_pick", (WHERE,), N_("which Companion to take"))
DECIDE_COMPANION_USE: Final = _decide(
    D_COMPANION_USE, "decide_companion_use", (WHERE, Field("companion", COMPANION)),
    N_("whether to use your Companion"), sun_reveals=True)
_decide(D_EXCHANGE_GOOD, "decide_exchange_good", (WHERE,),
        N_("which Good to return and which to gain"))

_phase(P_RUN, "phase_run", (PLAYER, WHERE, _EFFECT, Field("artisan", ARTISAN, optional=True)))
_phase(P_TURN_START, "phase_turn_start", (PLAYER,))
_phase(P_GATHER, "phase_gather", (PLAYER, WHERE))
PHASE_CAST_FINISH: Final = _phase(P_CAST_FINISH, "phase_cast_finish",
                                  (PLAYER, WHERE, Field("enchantment", ENCHANTMENT),
                                   Field("sets")))
_phase(P_END_TURN, "phase_end_turn", (PLAYER,))
_phase(P_GAME_END, "phase_game_end")
_phase(P_FIRE, "phase_fire", (PLAYER, WHERE, Field("artisan", ARTISAN)))
_phase(P_SETUP_DONE, "phase_setup_done")
_phase(P_RETURN_REWARD, "phase_return_reward", (PLAYER, WHERE, _EFFECT, _COUNT))
_phase(P_GIFT_EACH_REWARD, "phase_gift_each_reward", (PLAYER, WHERE, _EFFECT))
_phase(P_REFILL, "phase_refill", (PLAYER,))
_phase(P_DEAL_FANCY, "phase_deal_fancy")

# Where the fields that handlers read sit in a frame tuple, derived from the declarations
# (compiled, each is one C static: as fast as a literal index).
PLACE_SCOPE: Final = DECIDE_PLACE.at("scope")
PLACE_SOURCE: Final = DECIDE_PLACE.at("source")
PLACE_OPTIONAL: Final = DECIDE_PLACE.at("optional")
PLACE_EFFECT: Final = DECIDE_PLACE.at("effect")
PAY_ENCHANTMENT: Final = DECIDE_PAY.at("enchantment")
PAY_SETS: Final = DECIDE_PAY.at("sets")
PAY_GOOD: Final = DECIDE_PAY.at("good")
GAIN_TWO_N: Final = DECIDE_GAIN_TWO.at("n")
GAIN_SET_N: Final = DECIDE_GAIN_SET.at("n")
GIFT_EFFECT: Final = DECIDE_GIFT.at("effect")
GIFT_COUNT: Final = DECIDE_GIFT.at("count")
SWAP_FIRE_DRAGON: Final = DECIDE_SWAP_FIRE.at("artisan")
TRADE_SAME_EFFECT: Final = DECIDE_TRADE_SAME.at("effect")
RETURN_EFFECT: Final = DECIDE_RETURN_UP_TO.at("effect")
FIRE_UP_EFFECT: Final = DECIDE_FIRE_UP.at("effect")
KEEP_FANCY_KEEP: Final = DECIDE_KEEP_DRAWN_FANCY.at("keep")
KEEP_FANCY_CARDS: Final = DECIDE_KEEP_DRAWN_FANCY.at("fancy")
FANCY_RETURN_EFFECT: Final = DECIDE_FANCY_RETURN.at("effect")
ARTISAN_LOOK_N: Final = DECIDE_ARTISAN_LOOK.at("n")
SCORE_MOON_EFFECT: Final = DECIDE_SCORE_MOON.at("effect")
GIFT_EACH_EFFECT: Final = DECIDE_GIFT_EACH.at("effect")
GIFT_ARTISAN_EFFECT: Final = DECIDE_GIFT_ARTISAN.at("effect")
SWAP_TWO_FIRST: Final = DECIDE_SWAP_TWO.at("artisan")
CHOOSE_TYPE_PURPOSE: Final = DECIDE_CHOOSE_TYPE.at("purpose")
CHOOSE_TYPE_N: Final = DECIDE_CHOOSE_TYPE.at("n")
GIVE_TO_SEAT: Final = DECIDE_GIVE_TO.at("to")
COMPANION_USE_CARD: Final = DECIDE_COMPANION_USE.at("companion")
CAST_FINISH_ENCHANTMENT: Final = PHASE_CAST_FINISH.at("enchantment")
CAST_FINISH_SETS: Final = PHASE_CAST_FINISH.at("sets")


@dataclass(frozen=True, slots=True)
class Decision:
    """How one kind of decision lists and resolves its actions (its rules; what it is called,
    its fields and question are its ``kinds.FrameKind``).

    ``asked_alone`` marks the frames asked even with a single legal action: those whose
    options can depend on the deciding seat's hidden cards (a placement from the hand, a
    discard, an early Moon scoring …), and the visit and the end of every turn. The others see
    who is to act, so whether a decision is asked must follow from what they see (docs/rules.md,
    "Decision points"): such a frame is asked whenever it is reached, and its options then
    always include a way through (a decline), whatever the hidden cards."""

    legal: Callable[[GameState, Frame], list[Action]]
    resolve: Callable[[GameState, Frame, Action], None]
    sun_reveals: bool  # the declaration's, kept here for the engine's hot path
    asked_alone: Callable[[GameState, Frame], bool] | None = None
    asked_always: bool = False  # ``asked_alone`` is ``always``: read without a call


def always(s: GameState, f: Frame) -> bool:
    """An ``asked_alone`` for the kinds asked whenever they are reached."""
    return True


DECISIONS: Final[dict[int, Decision]] = {}
PHASES: Final[dict[int, Callable[[GameState, Frame], None]]] = {}


def register(kind: int, legal: Callable[[GameState, Frame], list[Action]],
             resolve: Callable[[GameState, Frame, Action], None],
             asked_alone: Callable[[GameState, Frame], bool] | None = None) -> None:
    """Registers how decisions of one declared kind list and resolve their actions, and
    which of its frames are asked even with one legal action (``Decision.asked_alone``)."""
    declared = FRAME_KINDS[kind]
    assert declared.decision, declared.name
    DECISIONS[kind] = Decision(legal, resolve, declared.sun_reveals, asked_alone,
                               asked_alone is always)


def asked_alone(s: GameState, f: Frame) -> bool:
    """Whether this decision frame is asked even when it has a single legal action."""
    return decision_asked_alone(DECISIONS[f[0]], s, f)


def decision_asked_alone(decision: Decision, s: GameState, f: Frame) -> bool:
    """``asked_alone`` for a frame whose decision is at hand (the engine's hot path)."""
    if decision.asked_always:
        return True
    check = decision.asked_alone
    return check is not None and check(s, f)


def register_phase(kind: int, run: Callable[[GameState, Frame], None]) -> None:
    """Registers how phases of one declared kind run."""
    assert not FRAME_KINDS[kind].decision, FRAME_KINDS[kind].name
    PHASES[kind] = run


def unregister(kind: int) -> None:
    """Removes a kind's handlers (a test's own kind, after its test)."""
    DECISIONS.pop(kind, None)
    PHASES.pop(kind, None)
