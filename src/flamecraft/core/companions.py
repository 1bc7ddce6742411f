"""The optional Companion module (design §6): the draft at setup, and the decisions that
use a Companion. The hooks that trigger Companions live where their moment is: ``turn.py``
(after a cast, on a Gather turn), ``board.count_gift`` (after a gift) and ``engine.py``
(a free action, offered like a Sun Dragon reveal).
"""

from __future__ import annotations

from typing import Final

from . import actions as A
from .actions import Action
from .board import (
    COMPANIONS,
    companion_ready,
    draw_fancy,
    has_empty_slot,
    placements,
    use_companion,
)
from .effects import exchanges, run_list
from .frames import (
    COMPANION_USE_CARD,
    D_COMPANION_PICK,
    D_COMPANION_USE,
    D_KEEP_DRAWN_FANCY,
    NOWHERE,
    P_DEAL_FANCY,
    Frame,
    register,
    register_phase,
)
from .setup_game import turn_order
from .state import EMPTY, GameState

FANCY_DEALT: Final = 2
FANCY_KEPT: Final = 1


def _pick_legal(s: GameState, f: Frame) -> list[Action]:
    return [(A.PICK_COMPANION, c, -1, -1) for c in s.companion_offer]


def _pick_resolve(s: GameState, f: Frame, a: Action) -> None:
    s.companion_offer.remove(a[1])
    s.companion[f[1]] = a[1]


register(D_COMPANION_PICK, _pick_legal, _pick_resolve)


def _deal_fancy(s: GameState, f: Frame) -> None:
    """Setup step 7's Fancy Dragons, dealt in turn order from the first player: dealt 2, keep
    1 (a ``setup_fancy`` Companion changes both); the Companions nobody took go back to the
    box."""
    s.companion_box.extend(s.companion_offer)
    s.companion_offer.clear()
    keeps = []
    for p in turn_order(s.n, s.first_player):
        dealt, kept = FANCY_DEALT, FANCY_KEPT
        card = s.companion[p]
        if card != EMPTY and COMPANIONS[card].hook == "setup_fancy":
            dealt, kept = COMPANIONS[card].fancy_dealt, COMPANIONS[card].fancy_kept
        cards = [c for c in (draw_fancy(s, p) for _ in range(dealt)) if c >= 0]
        if cards:  # always in the rules; a research variant may have no Fancy Dragons
            keeps.append((D_KEEP_DRAWN_FANCY, p, NOWHERE, kept, *cards))
    s.stack.extend(reversed(keeps))  # the first player chooses first


register_phase(P_DEAL_FANCY, _deal_fancy)


def _use_legal(s: GameState, f: Frame) -> list[Action]:
    """Use or not; Hardhat Hattie's extra placement is asked whenever some hand could place
    (a non-empty hand, an empty slot in Town), and only declined when this one cannot."""
    p = f[1]
    card = COMPANIONS[f[COMPANION_USE_CARD]]
    if s.companion[p] != card.index or companion_ready(s, p, card.hook) is None:
        return []
    decline: Action = (A.SKIP, A.NO_COMPANION, -1, -1)
    if card.hook == "gather_extra_place":
        hand = s.hand[p]
        if not hand or not has_empty_slot(s, -1):
            return []
        if not placements(s, hand, -1):
            return [decline]
    return [(A.USE_COMPANION, card.index, -1, -1), decline]


def _hand_place(s: GameState, f: Frame) -> bool:
    return COMPANIONS[f[COMPANION_USE_CARD]].hook == "gather_extra_place"


def _use_resolve(s: GameState, f: Frame, a: Action) -> None:
    if a[0] == A.USE_COMPANION:
        use_companion(s, f[1])
        run_list(s, f[1], f[2], COMPANIONS[a[1]].effect)


register(D_COMPANION_USE, _use_legal, _use_resolve, _hand_place)


def free_actions(s: GameState, p: int) -> list[Action]:
    """A ``free_action`` Companion that p may use at this step (Knick Knack)."""
    card = companion_ready(s, p, "free_action")
    if card is None or not exchanges(s, p):  # a Good to return, and one it may become
        return []
    return [(A.USE_COMPANION, card.index, -1, -1)]


def use_free_action(s: GameState, p: int, companion: int) -> None:
    use_companion(s, p)
    run_list(s, p, NOWHERE, COMPANIONS[companion].effect)
