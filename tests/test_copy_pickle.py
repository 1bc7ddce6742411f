"""Environments, catalogues and states survive ``copy.deepcopy`` and pickle (docs/rl.md,
"Copies and worker processes"), in the form this process runs (compiled where a C compiler
is) and, by running this file again in a fresh interpreter, in the other one.

Why it matters: vectorized trainers send environments to worker processes (pickle), and
search and rollouts branch environments (``deepcopy``); a copy must then play on exactly as
the original would, and independently of it.
"""

from __future__ import annotations

import copy
import functools
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import flamecraft.core
from flamecraft import apply_in_place, legal_actions, start
from flamecraft.core.serialize import state_to_json
from flamecraft.research import encoding, flamecraft_v2
from flamecraft.research.gym_single import OPPONENTS, FlamecraftSingleEnv, register_opponent

HERE = Path(__file__).resolve().parent
Copier = Callable[[Any], Any]
COPIERS: dict[str, Copier] = {"deepcopy": copy.deepcopy,
                              "pickle": lambda x: pickle.loads(pickle.dumps(x))}


def _aec_trace(env: Any, rng: np.random.Generator, steps: int) -> list[Any]:
    """``steps`` masked random AEC steps (None for a done agent): what each ``last()`` said."""
    out: list[Any] = []
    for _ in range(steps):
        if not env.agents:
            break
        obs, reward, term, trunc, _info = env.last()
        out.append((env.agent_selection, obs["observation"].tobytes(),
                    obs["action_mask"].tobytes(), reward, term, trunc))
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if term or trunc else int(rng.choice(legal)))
    return out


@pytest.mark.parametrize("how", COPIERS)
@pytest.mark.parametrize(("make", "players", "companions"),
                         [(flamecraft_v2.env, 2, False), (flamecraft_v2.raw_env, 3, True),
                          (flamecraft_v2.env, 1, False)])
def test_a_pettingzoo_copy_plays_on_as_the_original(how: str, make: Callable[..., Any],
                                                    players: int, companions: bool) -> None:
    env = make(players=players, companions=companions, max_cycles=400)
    env.reset(seed=11)
    _aec_trace(env, np.random.default_rng(1), 25)  # mid-game
    before = state_to_json(env.unwrapped.game)
    twin = COPIERS[how](env)
    assert type(twin) is type(env) and twin.unwrapped.game is not env.unwrapped.game
    assert state_to_json(twin.unwrapped.game) == before
    ours = _aec_trace(twin, np.random.default_rng(2), 10_000)  # to the end (or the cut)
    assert state_to_json(env.unwrapped.game) == before, "the original did not move"
    theirs = _aec_trace(env, np.random.default_rng(2), 10_000)
    assert ours == theirs and len(ours) > 20
    assert not env.agents and not twin.agents  # both played to the end
    assert twin.unwrapped.game == env.unwrapped.game


@pytest.mark.parametrize("how", COPIERS)
def test_a_pettingzoo_env_copies_before_reset(how: str) -> None:
    env = flamecraft_v2.env(players=2, seed=5)
    twin = COPIERS[how](env)
    env.reset()
    twin.reset()
    assert twin.unwrapped.game == env.unwrapped.game  # the seed option came along


def _gym_trace(env: FlamecraftSingleEnv, rng: np.random.Generator) -> list[Any]:
    out: list[Any] = []
    while True:
        legal = np.flatnonzero(env.action_masks())
        obs, reward, term, trunc, _info = env.step(int(rng.choice(legal)))
        out.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward,
                    term, trunc))
        if term or trunc:
            return out


@pytest.mark.parametrize("how", COPIERS)
@pytest.mark.parametrize(("players", "opponents"),
                         [(2, "random"), (3, ["greedy", "random"]), (1, "random")])
def test_a_gymnasium_copy_plays_on_as_the_original(how: str, players: int,
                                                   opponents: str | list[str]) -> None:
    """The registry's search bots are closures (one bot per thread): the environment keeps
    them by name, so it pickles with them."""
    env = FlamecraftSingleEnv(players=players, opponents=opponents, max_cycles=500)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(5):
        env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    twin = COPIERS[how](env)
    assert twin.opponents == env.opponents and twin.game is not env.game
    before = state_to_json(env.game)
    ours = _gym_trace(twin, np.random.default_rng(3))
    assert state_to_json(env.game) == before, "the original did not move"
    assert ours == _gym_trace(env, np.random.default_rng(3)) and len(ours) > 3
    assert twin.game == env.game


def test_a_gymnasium_env_made_by_gym_make_copies() -> None:
    env = gym.make("flamecraft/Flamecraft-v2", players=2)
    env.reset(seed=3)
    mine = env.unwrapped
    assert isinstance(mine, FlamecraftSingleEnv)
    for how in COPIERS.values():
        twin = how(env).unwrapped
        assert isinstance(twin, FlamecraftSingleEnv)
        assert twin.game == mine.game
        assert np.array_equal(twin.action_masks(), mine.action_masks())


def test_an_unpickled_gymnasium_env_needs_its_opponents_registered() -> None:
    """A bot registered by hand travels by name: a process without it says so."""
    register_opponent("first", lambda s, rng: legal_actions(s)[0])
    try:
        data = pickle.dumps(FlamecraftSingleEnv(players=2, opponents="first"))
    finally:
        del OPPONENTS["first"]
    with pytest.raises(ValueError, match=r"unknown opponent\(s\) \['first'\]"):
        pickle.loads(data)


@pytest.mark.parametrize("how", COPIERS)
@pytest.mark.parametrize("players", [1, 2, 5])
def test_the_catalogue_and_layout_copy(how: str, players: int) -> None:
    """Immutable and shared: a copy is the player count's own catalogue and layout, and
    numbers every action as the original does."""
    cat, lay = encoding.catalogue(players), encoding.layout(players)
    twin, lay_twin = COPIERS[how](cat), COPIERS[how](lay)
    assert lay_twin == lay and twin.size == cat.size and twin.sections == cat.sections
    assert COPIERS[how](cat.sections[3]) == cat.sections[3]
    s = start(players, 8)
    for _ in range(30):
        assert twin.legal(s) == cat.legal(s)
        if s.over:
            break
        apply_in_place(s, legal_actions(s)[-1])


@pytest.mark.parametrize("how", COPIERS)
def test_an_engine_state_copies(how: str) -> None:
    s = start(3, 2, companions=True)
    twin = COPIERS[how](s)
    assert twin == s and twin is not s
    apply_in_place(twin, legal_actions(twin)[0])
    assert twin != s and state_to_json(s) == state_to_json(start(3, 2, companions=True))


@pytest.mark.parametrize("how", COPIERS)
def test_an_openspiel_state_copies(how: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from flamecraft.research.openspiel_game import deal_seed

    game = pyspiel.load_game("python_flamecraft", {"players": 2})
    state = deal_seed(game.new_initial_state(), 9)
    for _ in range(20):
        state.apply_action(state.legal_actions()[0])
    twin = COPIERS[how](state)
    assert twin.history() == state.history() and str(twin) == str(state)
    rng = np.random.default_rng(5)
    while not twin.is_terminal():
        twin.apply_action(int(rng.choice(twin.legal_actions())))
    assert len(state.history()) < len(twin.history())
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert twin.history() == state.history() and twin.returns() == state.returns()


# --- worker processes ---------------------------------------------------------------------


def _vector_trace(vec: gym.vector.VectorEnv, steps: int) -> list[bytes]:
    """Reset with seeds, then ``steps`` steps with each env's lowest legal index."""
    obs, _info = vec.reset(seed=[21, 22])  # type: ignore[arg-type]  # a seed per env
    out = [obs["observation"].tobytes()]
    cut = False
    for _ in range(steps):
        actions = np.argmax(obs["action_mask"], axis=1)
        obs, reward, term, trunc, _info = vec.step(actions)
        out += [obs["observation"].tobytes(), reward.tobytes(), term.tobytes(),
                trunc.tobytes()]
        cut = cut or bool(trunc.any())
    assert cut, "the games were cut, and auto-reset"
    return out


def _make_env() -> FlamecraftSingleEnv:
    """Cut after 60 decisions: the learner's lowest legal index never ends a game."""
    return FlamecraftSingleEnv(players=2, opponents="greedy", max_decisions=60)


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_gymnasium_worker_processes_play_as_in_process(context: str) -> None:
    """Gymnasium's AsyncVectorEnv (worker processes, factories sent by cloudpickle, results
    back by pickle) plays exactly as SyncVectorEnv in this process, started by ``fork`` and
    by ``spawn`` (a fresh interpreter that imports flamecraft itself), through a cut and the
    auto-reset after it."""
    steps = 40
    here = _vector_trace(gym.vector.SyncVectorEnv([_make_env, _make_env]), steps)
    vec = gym.vector.AsyncVectorEnv([_make_env, _make_env], context=context)
    try:
        assert _vector_trace(vec, steps) == here
    finally:
        vec.close()


def test_a_pickled_env_in_progress_plays_on_in_a_spawned_process() -> None:
    """An environment in the middle of a game, pickled, plays on in a fresh interpreter as
    it does here (the factory is ``pickle.loads`` of it)."""
    env = FlamecraftSingleEnv(players=3, opponents=["greedy", "random"])
    env.reset(seed=7)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    blob = pickle.dumps(env)
    vec = gym.vector.AsyncVectorEnv([functools.partial(pickle.loads, blob)], context="spawn",
                                    autoreset_mode=gym.vector.AutoresetMode.DISABLED)
    try:
        for _ in range(5):
            mask = vec.call("action_masks")[0]
            assert np.array_equal(mask, env.action_masks())
            action = int(np.flatnonzero(mask)[-1])
            obs, reward, term, trunc, _ = vec.step(np.array([action]))
            mine = env.step(action)
            assert np.array_equal(obs["observation"][0], mine[0]["observation"])
            assert (reward[0], term[0], trunc[0]) == mine[1:4]
    finally:
        vec.close()


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_stable_baselines3_subprocvecenv(start_method: str) -> None:
    """Stable-Baselines3's SubprocVecEnv, where it is installed (it is not part of the rl
    extra: it brings PyTorch)."""
    vec_env = pytest.importorskip("stable_baselines3.common.vec_env")
    vec = vec_env.SubprocVecEnv([_make_env, _make_env], start_method=start_method)
    here = vec_env.DummyVecEnv([_make_env, _make_env])
    try:
        for v in (vec, here):
            v.seed(31)
        first, second = vec.reset(), here.reset()
        done = False
        for _ in range(40):
            assert np.array_equal(first["observation"], second["observation"])
            actions = np.argmax(second["action_mask"], axis=1)
            first, r1, d1, _ = vec.step(actions)
            second, r2, d2, _ = here.step(actions)
            assert np.array_equal(r1, r2) and np.array_equal(d1, d2)
            done = done or bool(d2.any())
        assert done, "the games were cut, and reset by the VecEnv"
    finally:
        vec.close()


# --- the other form -------------------------------------------------------------------------


def test_the_other_form_copies_and_pickles_too() -> None:
    """This file's copy tests again in a fresh interpreter running the other form of the
    core (pure Python when this one is compiled, and the compiled one, where built, when
    this one is pure)."""
    pure = flamecraft.core.COMPILED
    env = {**os.environ, "FLAMECRAFT_PURE": "1" if pure else ""}
    form = subprocess.run([sys.executable, "-c", "import flamecraft.core as c; print(c.COMPILED)"],
                          capture_output=True, text=True, env=env, check=True).stdout.strip()
    if not pure and form != "True":
        pytest.skip("no current compiled build: only the pure form runs here")
    assert form == str(not pure)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(Path(__file__)),
         "-k", "not other_form and not worker and not spawned and not subprocvecenv"],
        capture_output=True, text=True, env=env, cwd=HERE.parent, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout
