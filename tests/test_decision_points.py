"""Decision points never depend on hidden cards (issue 21, item 5; docs/rules.md, "Decision
points"): the others see who is to act, so whether the engine asks a seat a decision — or
takes it by itself, or skips it — must follow from what they see.

The oracle walks the engine's own loop (``engine.advance``) one frame at a time through whole
random games. At every decision frame it meets — asked, forced or skipped — and at every phase
(which may push decisions), it re-deals, for every other seat, what that seat cannot see (the
acting seat's hand and Fancy Dragons, the other hands, the deck orders, the face-down Shops:
``hidden.determinize``) and checks that the frame is handled the same way in every such
world. At every decision asked it also checks, in
the re-dealt worlds advanced by the engine itself, what each other seat is shown: who is to
act, the turn counter, its view, OpenSpiel's current player and PettingZoo's
``agent_selection``. Before this issue a met Sun Dragon made ``end turn`` a decision and a
fitting dragon in hand made a placement one: both fail here.
"""

from __future__ import annotations

import json
import random

import pytest

from flamecraft import GameState, apply, legal_actions, start, to_act, view
from flamecraft.core.engine import _decision_actions, _resolve
from flamecraft.core.frames import PHASES, asked_alone
from flamecraft.core.hidden import determinize

try:
    import pyspiel
except ImportError:  # the rl extra (make test installs it)
    pyspiel = None

SKIP, FORCED, ASKED = "skipped", "forced", "asked"


def _handling(s: GameState) -> str:
    """How the engine handles the decision frame on top of ``s``: the rule of ``advance``."""
    f = s.stack[-1]
    actions = _decision_actions(s, f)
    if not actions:
        return SKIP
    return FORCED if len(actions) == 1 and not asked_alone(s, f) else ASKED


def _check_frame(s: GameState, salt: int) -> None:
    """The frame on top of ``s`` is handled alike in every world another seat cannot tell
    from this one."""
    f = s.stack[-1]
    mine = _handling(s)
    for observer in range(s.n):
        if observer == f[1]:
            continue
        for k in (1, 2):
            other = determinize(s, observer, salt * 4 + k)
            assert [g[0] for g in other.stack] == [g[0] for g in s.stack]
            theirs = _handling(other)
            assert theirs == mine, (
                f"seat {observer} could tell: frame {f[:3]}… is {mine} here, {theirs} in a "
                f"world with other hidden cards (turn {s.turn})")


def _phase_worlds(s: GameState, salt: int) -> list[tuple[int, GameState]]:
    """The phase on top of ``s`` run in worlds the other seats cannot tell from this one."""
    f = s.stack[-1]
    out = []
    for observer in range(s.n):
        if len(f) > 1 and observer == f[1]:
            continue
        other = determinize(s, observer, salt * 4 + 3)
        g = other.stack.pop()
        PHASES[g[0]](other, g)
        out.append((observer, other))
    return out


def _advance_checked(s: GameState, salt: int) -> None:
    """``engine.advance``, checking every decision frame on the way."""
    stack = s.stack
    while stack:
        f = stack[-1]
        if f[0] >= 100:
            worlds = _phase_worlds(s, salt)
            stack.pop()
            PHASES[f[0]](s, f)
            for observer, other in worlds:
                assert [g[0] for g in other.stack] == [g[0] for g in s.stack], (
                    f"seat {observer} could tell: phase {f[:3]}… asks other decisions in a "
                    f"world with other hidden cards (turn {s.turn})")
            continue
        _check_frame(s, salt)
        actions = _decision_actions(s, f)
        if not actions:
            stack.pop()
        elif len(actions) == 1 and not asked_alone(s, f):
            _resolve(s, actions[0])
        else:
            s.cache = actions
            return
    s.cache = []


def _shown(s: GameState, observer: int) -> str:
    return json.dumps([to_act(s), s.turn, view(s, observer)], sort_keys=True)


def _check_asked(s: GameState, salt: int, spiel_game: object, pz_env: object) -> None:
    """At a decision asked: each other seat is shown the same in every world it cannot tell
    from this one, re-advanced by the engine itself."""
    acting = to_act(s)
    for observer in range(s.n):
        if observer == acting:
            continue
        other = determinize(s, observer, salt * 4 + 3)
        other.cache = None
        assert _shown(other, observer) == _shown(s, observer), f"seat {observer}, turn {s.turn}"
        if spiel_game is not None:
            st = spiel_game.new_initial_state()  # type: ignore[attr-defined]
            st._box.state, st._box.legal = other, None
            assert st.current_player() == acting
        if pz_env is not None:
            pz_env.state_ = other  # type: ignore[attr-defined]
            pz_env._after_change()  # type: ignore[attr-defined]
            assert pz_env.agent_selection == pz_env.possible_agents[acting]  # type: ignore[attr-defined]


CONFIGS = [(1, "purple", False, 1), (2, "golden", True, 2), (2, "purple", False, 3),
           (3, "purple", True, 4), (4, "golden", False, 5), (5, "purple", True, 6)]


@pytest.mark.parametrize(("players", "deck", "companions", "seed"), CONFIGS)
def test_decision_points_do_not_depend_on_hidden_cards(players: int, deck: str,
                                                       companions: bool, seed: int) -> None:
    rng = random.Random(seed)
    s = start(players, 500 + seed, deck, companions=companions)
    spiel_game = pz_env = None
    if pyspiel is not None:
        from flamecraft.research.openspiel_game import FlamecraftGame
        spiel_game = FlamecraftGame({"players": players, "companions": companions,
                                     "deck": deck})
        from flamecraft.research import flamecraft_v2
        pz_env = flamecraft_v2.raw_env(players=players, companions=companions, deck=deck)
        pz_env.reset(seed=seed)
        pz_env = pz_env.unwrapped
    steps = 0
    while not s.over:
        if players > 1:
            _check_asked(s, steps, spiel_game, pz_env)
        s = apply(s, rng.choice(legal_actions(s)))
        steps += 1
    assert s.over


def _walk_game(players: int, deck: str, companions: bool, seed: int) -> int:
    """A whole random game driven by the checked loop; the number of decisions asked."""
    rng = random.Random(seed)
    s = start(players, 500 + seed, deck, companions=companions)
    asked = 0
    while not s.over:
        actions = list(s.cache or legal_actions(s))
        action = rng.choice(actions)
        s = s.copy()
        _resolve(s, action)
        _advance_checked(s, seed * 100_000 + asked)
        asked += 1
    return asked


WALKS = [(players, deck, companions, 10 * seed + k)
         for players, deck, companions, seed in CONFIGS if players > 1 for k in range(8)]


@pytest.mark.parametrize(("players", "deck", "companions", "seed"), WALKS)
def test_every_frame_is_handled_alike_in_every_world(players: int, deck: str, companions: bool,
                                                     seed: int) -> None:
    """40 whole games (2–5 players, both decks, Companions on and off)."""
    assert _walk_game(players, deck, companions, seed) > 50
