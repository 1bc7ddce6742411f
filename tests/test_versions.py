"""The versioning policy (docs/rl.md, "Versions"), applied: the environment's version is in
every name and metadata, the old names are refused with what changed, and a fingerprint of
whole games pins the dynamics to ENV_VERSION, so a change of the rules, cards, decisions,
catalogue, observation, rewards or truncation that forgets to raise it fails here."""

from __future__ import annotations

import hashlib
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import gymnasium as gym

import flamecraft.envs as envs
from flamecraft.envs import flamecraft_v2, gym_single, vector
from flamecraft.research.encoding import ENCODING_VERSION, ENV_VERSION

# sha256 of the games below, by ENV_VERSION. When the dynamics change on purpose: raise
# ENV_VERSION (and ENCODING_VERSION if the catalogue or observation moved), add its row to
# docs/rl.md's history table, and put the new digest here under the new version.
FINGERPRINTS = {
    2: "f9e3f5561eca5fa20f2b3288a3fcf992a001e6579d2269f1265d887a7d2cd6eb",
}
RL_DOC = Path(__file__).resolve().parent.parent / "docs" / "rl.md"


def _update(h: Any, *parts: Any) -> None:
    for part in parts:
        h.update(part.tobytes() if isinstance(part, np.ndarray) else repr(part).encode())


def _pettingzoo(h: Any, players: int, seed: int, lowest: bool, **options: Any) -> None:
    env = flamecraft_v2.raw_env(players=players, seed=seed, **options)
    env.reset()
    rng = random.Random(seed)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        _update(h, agent, obs["observation"], obs["action_mask"], reward, term, trunc)
        legal = np.flatnonzero(obs["action_mask"])
        action = None if term or trunc else int(legal[0] if lowest else rng.choice(legal))
        env.step(action)


def _gymnasium(h: Any, seed: int) -> None:
    env = gym_single.FlamecraftSingleEnv(players=2, opponents="greedy", reward="margin")
    obs, _ = env.reset(seed=seed)
    rng = random.Random(seed)
    done = False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, term, trunc, _ = env.step(int(rng.choice(legal)))
        _update(h, obs["observation"], obs["action_mask"], reward, term, trunc)
        done = term or trunc


def _openspiel(h: Any, seed: int) -> None:
    import pyspiel

    from flamecraft.research.openspiel_game import MAX_GAME_LENGTH, deal_seed

    game = pyspiel.load_game("python_flamecraft", {"players": 2})
    state = deal_seed(game.new_initial_state(), seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    _update(h, state.returns(), state.history())
    state = deal_seed(game.new_initial_state(), seed)  # the lowest index: cut, returns 0
    for _ in range(MAX_GAME_LENGTH + 1):
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[0])
    _update(h, state.returns(), state.was_cut())


def fingerprint() -> str:
    h = hashlib.sha256()
    _pettingzoo(h, 3, 5, False, companions=True, reward="win")
    _pettingzoo(h, 1, 6, False, deck="golden")
    _pettingzoo(h, 2, 7, True, max_cycles=25)  # the lowest index loops: cut by cycles
    _pettingzoo(h, 4, 8, True, max_decisions=90)
    _gymnasium(h, 9)
    _openspiel(h, 10)
    return h.hexdigest()


def test_the_dynamics_are_those_of_this_version() -> None:
    assert ENV_VERSION in FINGERPRINTS, (
        f"ENV_VERSION {ENV_VERSION} has no fingerprint: add {fingerprint()} for it")
    assert fingerprint() == FINGERPRINTS[ENV_VERSION], (
        "the environments' dynamics changed: by the versioning policy (docs/rl.md, "
        "\"Versions\") raise ENV_VERSION, add its history row, and pin the new fingerprint")


def test_every_name_carries_the_version() -> None:
    assert flamecraft_v2.__name__.endswith(f"flamecraft_v{ENV_VERSION}")
    meta = flamecraft_v2.raw_env.metadata
    assert meta["name"] == f"flamecraft_v{ENV_VERSION}"
    assert (meta["env_version"], meta["encoding_version"]) == (ENV_VERSION, ENCODING_VERSION)
    assert f"flamecraft/Flamecraft-v{ENV_VERSION}" == gym_single.ENV_ID
    assert gym_single.FlamecraftSingleEnv.metadata["env_version"] == ENV_VERSION
    assert vector.FlamecraftVectorEnv.metadata["env_version"] == ENV_VERSION
    env = gym.make(gym_single.ENV_ID, players=2)
    assert env.unwrapped.metadata["env_version"] == ENV_VERSION


def test_the_history_table_ends_at_this_version() -> None:
    text = RL_DOC.read_text(encoding="utf-8")
    table = text[text.index("| env | change |"):]
    rows = re.findall(r"^\| (\d+) \|", table.split("\n\n")[0], re.M)
    assert [int(r) for r in rows] == list(range(ENV_VERSION + 1))


@pytest.mark.parametrize("old", ["flamecraft_v0", "flamecraft_v1"])
def test_old_names_are_refused_with_what_changed(old: str) -> None:
    with pytest.raises(envs.DeprecatedEnv, match=f"{old} is gone: use flamecraft_v2"):
        getattr(envs, old)
    with pytest.raises(ImportError, match="truncation"):
        exec(f"from flamecraft.envs import {old}")


def test_the_old_gymnasium_id_is_refused() -> None:
    with pytest.raises(gym.error.DeprecatedEnv, match="Flamecraft-v2"):
        gym.make("flamecraft/Flamecraft-v1")
