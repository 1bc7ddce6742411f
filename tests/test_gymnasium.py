"""The single-agent Gymnasium wrapper (envs/gym_single.py, docs/rl.md)."""

from __future__ import annotations

import importlib.util
import random
import warnings
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

from flamecraft import GameState, legal_actions, to_act
from flamecraft.core.actions import Action
from flamecraft.research.cut import DEFAULT_MAX_CYCLES, DEFAULT_MAX_DECISIONS
from flamecraft.research.encoding import catalogue, final_rewards, observation
from flamecraft.research.gym_single import (
    ENV_ID,
    OPPONENTS,
    FlamecraftSingleEnv,
    register_opponent,
)


@pytest.mark.parametrize(("players", "seat", "companions"),
                         [(2, 0, False), (3, 2, False), (5, 1, False), (1, 0, False),
                          (1, 0, True), (2, 1, True), (3, 0, True)])
def test_check_env_passes(players: int, seat: int, companions: bool) -> None:
    """Solo games (design §7) and the Companion module (design §6) included."""
    env = gym.make(ENV_ID, players=players, seat=seat, companions=companions)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def _episode(env: FlamecraftSingleEnv, seed: int) -> tuple[list[float], bool]:
    """One episode with masked uniform actions; checks every observation on the way."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards: list[float] = []
    cat = catalogue(env.players)
    while True:
        s = env.game
        assert np.array_equal(obs["observation"],
                              np.asarray(observation(s, env.seat), np.float32))
        if s.over:
            return rewards, True
        assert to_act(s) == env.seat, "the bots move until the learner must choose"
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert legal == cat.legal_indices(s)
        assert env.action_masks().tolist() == obs["action_mask"].astype(bool).tolist()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        rewards.append(reward)
        assert not truncated and info == {}
        if terminated:
            return rewards, env.game.over


@pytest.mark.parametrize("reward", ["win", "margin"])
def test_the_learner_is_rewarded_at_the_end(reward: str) -> None:
    env = FlamecraftSingleEnv(players=3, seat=1, reward=reward)
    rewards, over = _episode(env, seed=5)
    assert over and all(r == 0.0 for r in rewards[:-1])
    assert rewards[-1] == final_rewards(env.game, reward)[1]


@pytest.mark.parametrize("reward", ["win", "margin"])
def test_a_solo_episode_has_no_opponents(reward: str) -> None:
    """design §7: in solo the learner plays every decision (no bot is ever asked), and the
    final reward is measured against the solo rating (encoding.final_rewards)."""
    calls: list[int] = []

    def spy(s: GameState, rng: random.Random) -> Action:
        calls.append(to_act(s))
        return legal_actions(s)[0]

    register_opponent("spy", spy)
    try:
        env = FlamecraftSingleEnv(players=1, opponents="spy", reward=reward, companions=True)
        assert env.opponents == {}
        rewards, over = _episode(env, seed=6)
    finally:
        del OPPONENTS["spy"]
    assert over and calls == [] and len(rewards) > 20
    assert env.game.options.companions and env.game.companion[0] >= 0
    assert all(r == 0.0 for r in rewards[:-1])
    assert rewards[-1] == final_rewards(env.game, reward)[0]
    with pytest.raises(ValueError):
        FlamecraftSingleEnv(players=1, opponents=["random"])
    with pytest.raises(ValueError):
        FlamecraftSingleEnv(players=1, seat=1)


def test_named_opponents_play_the_other_seats() -> None:
    """Opponents are chosen by name; a registered bot is called for every other seat's
    decision and never for the learner's."""
    seen: list[int] = []

    def first_legal(s: GameState, rng: random.Random) -> Action:
        seen.append(to_act(s))
        return legal_actions(s)[0]

    register_opponent("first-legal", first_legal)
    try:
        env = FlamecraftSingleEnv(players=3, seat=0, opponents=["first-legal", "random"])
        _episode(env, seed=2)
    finally:
        del OPPONENTS["first-legal"]
    assert seen and set(seen) == {1}
    assert "random" in OPPONENTS
    for name in OPPONENTS:  # every bot of the project's registry can be an opponent
        FlamecraftSingleEnv(players=2, opponents=name)
    with pytest.raises(ValueError, match="unknown opponent"):
        FlamecraftSingleEnv(players=2, opponents="grandmaster")
    with pytest.raises(ValueError):
        FlamecraftSingleEnv(players=3, opponents=["random"])


def test_deals_are_drawn_from_too_many_seeds_to_search() -> None:
    """docs/rl.md: the engine deals a whole game from its seed, and the public setup could
    identify a seed drawn from 2**31 by search; deals are drawn from 2**63."""
    env = FlamecraftSingleEnv(players=2)
    seeds = [env.reset(seed=k)[1]["game_seed"] for k in range(8)]
    assert all(0 <= s < 2**63 for s in seeds) and max(seeds) >= 2**40


def test_same_seed_same_episode() -> None:
    """Deal and bot choices both come from the reset seed."""
    a, b = FlamecraftSingleEnv(players=4, seat=3), FlamecraftSingleEnv(players=4, seat=3)
    first, _ = a.reset(seed=9)
    second, _ = b.reset(seed=9)
    assert a.game == b.game and np.array_equal(first["observation"], second["observation"])
    b.reset(seed=10)
    assert a.game != b.game


def test_an_illegal_index_ends_the_episode_with_the_penalty() -> None:
    env = FlamecraftSingleEnv(players=2, illegal_reward=-5.0)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game.copy()
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-5.0, True, False, {"illegal_action": True})
    assert env.game == before


def test_render_ansi_is_the_learners_view() -> None:
    env = FlamecraftSingleEnv(players=2, seat=1, render_mode="ansi")
    env.reset(seed=4)
    board = env.render()
    assert board is not None and "seen by P2" in board


def _example(name: str) -> Any:
    """Loads a script from examples/ as a module (they are not a package)."""
    path = Path(__file__).parent.parent / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_training_example_runs() -> None:
    """A few episodes of the REINFORCE example (the full run is the example itself)."""
    before, after = _example("train_reinforce").train(
        episodes=3, evaluation=3, players=2, lr=0.002, seed=0, quiet=True)
    assert 0.0 <= before <= 1.0 and 0.0 <= after <= 1.0


def test_the_maskable_ppo_example_trains_on_the_vector_env() -> None:
    """Where the train extra is installed: the example's SB3 adapter passes SB3's VecEnv
    checks as MaskablePPO uses it (a short learn: rollouts through SAME_STEP resets, masks
    through ``env_method``), and its evaluation counts finished games (the full run is the
    example itself, quoted in docs/rl.md)."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common import vec_env

    example = _example("train_maskable_ppo")
    env = example.make_vec_env(4, vec_env, players=2, opponents="random", max_decisions=80)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1,
                                    verbose=0, seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256
    wins, games = example.evaluate(model, 6, deterministic=True, envs=4)
    assert games == 6 and 0 <= wins <= 6
    assert "Wilson" in example.report("after", model, 4)


# --- episodes end for good: Gymnasium's ResetNeeded ------------------------------------------

def _lowest(obs: dict[str, Any]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


def test_a_step_after_an_illegal_action_raises_and_changes_nothing() -> None:
    """The illegal index ended the episode; Gymnasium expects a reset before the next step."""
    env = FlamecraftSingleEnv(players=2)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, _, terminated, _, _ = env.step(illegal)
    assert terminated
    before = env.game.copy()
    for action in (_lowest(obs), illegal):
        with pytest.raises(ResetNeeded, match=r"^the episode has ended"):
            env.step(action)
        assert env.game == before
    obs, _ = env.reset(seed=1)
    env.step(_lowest(obs))  # a reset starts a playable episode again


def test_a_step_after_the_game_ends_raises() -> None:
    env = FlamecraftSingleEnv(players=1)
    obs, _ = env.reset(seed=2)
    terminated = truncated = False
    while not (terminated or truncated):
        obs, _, terminated, truncated, _ = env.step(
            int(np.random.default_rng(0).choice(np.flatnonzero(obs["action_mask"]))))
    assert terminated and env.game.over
    before = env.game.copy()
    with pytest.raises(ResetNeeded, match=r"^the episode has ended"):
        env.step(0)
    assert env.game == before


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_game_that_never_ends_is_truncated_at_max_decisions(players: int) -> None:
    """The lowest legal index for every seat (learner and bots) never ends a game; the
    episode is cut once the game has taken ``max_decisions`` decisions (all seats counted),
    reward 0, and a further step raises."""
    register_opponent("lowest", lambda s, rng: catalogue(s.n).legal(s)[
        min(catalogue(s.n).legal(s))])
    try:
        env = FlamecraftSingleEnv(players=players, seat=players - 1, opponents="lowest",
                                  max_decisions=200)
        obs, _ = env.reset(seed=3)
        steps = 0
        while True:
            obs, reward, terminated, truncated, info = env.step(_lowest(obs))
            steps += 1
            assert steps <= 200
            if terminated or truncated:
                break
    finally:
        del OPPONENTS["lowest"]
    assert truncated and not terminated and reward == 0.0 and info == {}
    assert env.decisions == 200 and not env.game.over
    assert not obs["action_mask"].any()
    with pytest.raises(ResetNeeded, match=r"^the episode has ended"):
        env.step(0)


def test_a_limit_reached_before_the_learners_first_decision_cuts_its_first_step() -> None:
    """The bots' opening moves are not cut (reset cannot report it): the learner still gets
    its own legal actions, and its first step is truncated."""
    env = FlamecraftSingleEnv(players=4, seat=3, max_decisions=2)
    obs, _ = env.reset(seed=1)
    assert env.decisions > 2 and to_act(env.game) == 3
    assert np.flatnonzero(obs["action_mask"]).tolist() == catalogue(4).legal_indices(env.game)
    _, reward, terminated, truncated, _ = env.step(_lowest(obs))
    assert truncated and not terminated and reward == 0.0


def test_the_default_limit_is_the_pettingzoo_one() -> None:
    assert FlamecraftSingleEnv().max_cycles == DEFAULT_MAX_CYCLES == 3000
    assert FlamecraftSingleEnv().max_decisions == DEFAULT_MAX_DECISIONS == 3000
    for bad in (0, -3, 1.5, False):
        with pytest.raises(ValueError, match="max_cycles"):
            FlamecraftSingleEnv(max_cycles=bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="max_decisions"):
            FlamecraftSingleEnv(max_decisions=bad)  # type: ignore[arg-type]


def test_a_value_that_is_not_an_index_raises_and_changes_nothing() -> None:
    env = FlamecraftSingleEnv(players=2)
    obs, _ = env.reset(seed=1)
    before = env.game.copy()
    for bad in (None, 1.5, "3", True):
        with pytest.raises(ValueError, match=r"^an action is a catalogue index"):
            env.step(bad)  # type: ignore[arg-type]
        assert env.game == before
    env.step(_lowest(obs))  # the episode goes on


def test_check_env_passes_with_a_short_limit() -> None:
    env = gym.make(ENV_ID, players=3, max_cycles=5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_a_step_before_reset_raises() -> None:
    with pytest.raises(ResetNeeded, match="reset"):
        FlamecraftSingleEnv(players=2).step(0)


def test_the_environment_shows_the_encoding_version() -> None:
    """docs/rl.md, Versions: the version of the catalogue and the observation is in the
    metadata, through ``gym.make`` too."""
    from flamecraft.research.encoding import ENCODING_VERSION

    made = gym.make(ENV_ID, players=2)
    assert made.metadata["encoding_version"] == ENCODING_VERSION
    assert made.unwrapped.metadata["encoding_version"] == ENCODING_VERSION
    made.close()
