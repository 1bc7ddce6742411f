"""When a game that has not ended by itself is cut, and what a cut game gives, in every research
interface (docs/rl.md, "Truncation"): ``max_cycles`` counts PettingZoo's cycles (every live
agent acted once), ``max_decisions`` the decisions of all seats, and a cut game has no
result: 0 for every seat, in PettingZoo, Gymnasium and OpenSpiel alike."""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest

import flamecraft.research.openspiel_game as og
from flamecraft import GameState
from flamecraft.core.actions import Action
from flamecraft.core.serialize import state_to_json
from flamecraft.research import flamecraft_v2
from flamecraft.research.cut import Cut
from flamecraft.research.encoding import catalogue, final_rewards
from flamecraft.research.gym_single import OPPONENTS, FlamecraftSingleEnv, register_opponent


def _cycles(seats: list[int], players: int) -> list[int]:
    """The reference count: after each decision, the cycles completed so far (a cycle ends
    at the decision by which every seat has acted since the last one ended)."""
    out, done, waiting = [], 0, set(range(players))
    for seat in seats:
        waiting.discard(seat)
        if not waiting:
            done, waiting = done + 1, set(range(players))
        out.append(done)
    return out


def test_a_cycle_ends_once_every_seat_has_acted() -> None:
    cut = Cut(3, max_cycles=2, max_decisions=100)
    for seat, cycles in [(0, 0), (0, 0), (1, 0), (2, 1), (2, 1), (2, 1), (0, 1), (1, 2)]:
        assert not cut.reached
        cut.count(seat)
        assert cut.cycles == cycles
    assert cut.reached and cut.decisions == 8 and "2 cycles (max_cycles)" in cut.why()
    solo = Cut(1, max_cycles=3, max_decisions=100)
    for _ in range(3):
        solo.count(0)
    assert solo.reached and solo.cycles == 3  # alone, every decision is a cycle
    backstop = Cut(2, max_cycles=50, max_decisions=4)
    for _ in range(4):
        backstop.count(0)  # one seat deciding on and on: no cycle ends
    assert backstop.reached and backstop.cycles == 0 and "max_decisions" in backstop.why()
    cut.reset()
    assert (cut.cycles, cut.decisions, cut.reached) == (0, 0, False)


@pytest.mark.parametrize(("players", "limit"), [(1, 7), (2, 5), (3, 4), (5, 3)])
def test_pettingzoo_cuts_after_max_cycles_cycles(players: int, limit: int) -> None:
    """The AEC half of PettingZoo's ``max_cycles_test`` in a game of irregular turns: the
    game is cut at the decision that completes cycle ``max_cycles`` (not before), every agent
    acted at least ``max_cycles`` times and then steps once more (None) to leave; in solo,
    where a cycle is one decision, the agent appears exactly ``max_cycles + 1`` times, as
    that test asserts."""
    env = flamecraft_v2.env(players=players, max_cycles=limit)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    seats: list[int] = []
    appearances = dict.fromkeys(env.possible_agents, 0)
    leaving: list[str] = []
    for agent in env.agent_iter():
        appearances[agent] += 1
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            leaving.append(agent)
            env.step(None)
            continue
        assert not leaving
        seats.append(env.possible_agents.index(agent))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    counts = _cycles(seats, players)
    assert counts[-1] == limit and limit not in counts[:-1], "cut at the cycle's last decision"
    assert env.unwrapped.cycles == limit and not env.unwrapped.game.over
    assert sorted(leaving) == env.possible_agents  # each leaves once
    acted = [seats.count(p) for p in range(players)]
    assert min(acted) >= limit
    assert all(appearances[a] == acted[p] + 1 for p, a in enumerate(env.possible_agents))
    if players == 1:
        assert appearances == {"player_0": limit + 1}


def _first_legal(s: GameState, rng: random.Random) -> Action:
    legal = catalogue(s.n).legal(s)
    return legal[min(legal)]


@pytest.mark.parametrize("players", [2, 4])
def test_gymnasium_cuts_after_max_cycles_cycles(players: int) -> None:
    """The learner's and the bots' decisions make the cycles together: the step whose
    decisions (the learner's, then the bots' until it must choose again) complete cycle
    ``max_cycles`` is the truncated one."""
    register_opponent("first-legal", _first_legal)
    try:
        env = FlamecraftSingleEnv(players=players, seat=1, opponents="first-legal",
                                  max_cycles=4)
        obs, _ = env.reset(seed=2)
        steps = 0
        while True:
            before = env.cycles
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, terminated, truncated, _ = env.step(int(legal[0]))
            steps += 1
            if truncated or terminated:
                break
            assert env.cycles < 4 and env.cycles >= before
    finally:
        del OPPONENTS["first-legal"]
    assert truncated and not terminated and reward == 0.0
    assert env.cycles == 4 and env.decisions >= 4 * players and not env.game.over


def test_a_cut_game_has_no_result_in_every_interface(monkeypatch: pytest.MonkeyPatch) -> None:
    """One deal, the lowest legal index for every seat (a game that never ends at 2
    players), cut at 60 decisions: PettingZoo, Gymnasium and OpenSpiel reach the same
    position and all give 0 to every seat (truncated in the environments; OpenSpiel's state
    terminal, ``was_cut``), where scoring the position as it stands would not."""
    limit, seed = 60, 3
    for reward in ("win", "margin"):
        pz = flamecraft_v2.raw_env(players=2, max_decisions=limit, reward=reward)
        pz.reset(seed=seed)
        while not any(pz.truncations.values()):
            mask = pz.observe(pz.agent_selection)["action_mask"]
            pz.step(int(np.flatnonzero(mask)[0]))
        totals = {a: pz._cumulative_rewards[a] for a in pz.possible_agents}
        assert all(pz.truncations.values()) and not any(pz.terminations.values())
        assert totals == dict.fromkeys(pz.possible_agents, 0.0)
        if reward == "win":  # what OpenSpiel's cut gave before: the position as it stands
            assert final_rewards(pz.game, reward) != [0.0, 0.0]

        monkeypatch.setattr(og, "MAX_GAME_LENGTH", limit)
        game = pyspiel.load_game("python_flamecraft", {"players": 2, "reward": reward})
        state = og.deal_seed(game.new_initial_state(), seed)
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        assert state.was_cut() and state.returns() == [0.0, 0.0]
        ours, theirs = state_to_json(state.engine_state), state_to_json(pz.game)
        assert json.dumps({**ours, "rng": 0}) == json.dumps({**theirs, "rng": 0})

        register_opponent("first-legal", _first_legal)
        try:
            gym_env = FlamecraftSingleEnv(players=2, opponents="first-legal", reward=reward,
                                          max_decisions=limit)
            obs, _ = gym_env.reset(seed=seed)
            while True:
                obs, got, terminated, truncated, _ = gym_env.step(
                    int(np.flatnonzero(obs["action_mask"])[0]))
                if terminated or truncated:
                    break
                assert got == 0.0
        finally:
            del OPPONENTS["first-legal"]
        assert truncated and not terminated and got == 0.0 and gym_env.decisions == limit
