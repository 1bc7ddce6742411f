"""The PettingZoo AEC environment flamecraft_v0 (envs/flamecraft_v0.py, docs/rl.md)."""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from flamecraft import to_act, winners
from flamecraft.core import actions as A
from flamecraft.core.errors import IllegalActionError
from flamecraft.encoding import final_rewards, layout, observation, solo_target
from flamecraft.envs import flamecraft_v0

# PettingZoo's checker warns that dict observations are not Box/Discrete, as it does for
# its own classic games (which it lists as exceptions); nothing else may warn.
_EXPECTED = ("Observation is not a NumPy array", "Observation space for each agent probably")


def _run_quietly(check: object, *args: object, **kwargs: object) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)  # type: ignore[operator]
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(_EXPECTED)]
    assert unexpected == []


@pytest.mark.parametrize(("players", "companions"),
                         [(1, False), (2, False), (3, False), (4, False), (5, False),
                          (1, True), (2, True), (3, True)])
def test_api_test_passes(players: int, companions: bool) -> None:
    """Solo games (design §7) and the Companion module (design §6) included."""
    _run_quietly(api_test, flamecraft_v0.env(players=players, companions=companions),
                 num_cycles=1000)


@pytest.mark.parametrize(("players", "companions"), [(1, False), (2, False), (5, False),
                                                     (1, True), (3, True)])
def test_seed_test_passes(players: int, companions: bool) -> None:
    _run_quietly(seed_test, lambda: flamecraft_v0.env(players=players, companions=companions),
                 num_cycles=200)


def _play(env: flamecraft_v0.raw_env, seed: int) -> None:
    """Plays a whole game with masked uniform actions, checking each observation."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    cat = env.catalogue
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        seat = env.possible_agents.index(agent)
        s = env.game
        assert np.array_equal(obs["observation"], np.asarray(observation(s, seat), np.float32))
        if terminated or truncated:
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        assert reward == 0.0
        assert to_act(s) == seat
        assert np.flatnonzero(obs["action_mask"]).tolist() == cat.legal_indices(s)
        for other in env.possible_agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("reward", ["win", "margin"])
def test_a_game_ends_with_the_chosen_reward(reward: str) -> None:
    """Rewards come at the end only: win/loss (ruling 20) or the Reputation margin."""
    env = flamecraft_v0.raw_env(players=3, reward=reward)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else
                 int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        for name, value in env.rewards.items():
            totals[name] += value
    s = env.game
    assert s.over and env.agents == []
    expected = final_rewards(s, reward)
    assert [totals[a] for a in env.possible_agents] == expected
    if reward == "win":
        assert [p for p in range(3) if expected[p] == 1.0] == winners(s)
    else:
        best = max(s.rep)
        assert max(expected) == best - sorted(s.rep)[-2]


@pytest.mark.parametrize(("players", "companions"), [(4, False), (1, True), (2, True)])
def test_observations_and_masks_follow_the_engine(players: int, companions: bool) -> None:
    _play(flamecraft_v0.raw_env(players=players, companions=companions), seed=2)


@pytest.mark.parametrize("reward", ["win", "margin"])
def test_a_solo_game_is_one_agent_rewarded_against_the_rating(reward: str) -> None:
    """design §7: a solo game has one agent; with no seat to beat, "win" is reaching the
    Flamekeeper rating and "margin" the Reputation above (or below) it."""
    env = flamecraft_v0.raw_env(players=1, reward=reward, companions=True)
    assert env.possible_agents == ["player_0"]
    env.reset(seed=3)
    assert env.game.n == 1 and env.game.options.companions
    total = 0.0
    rng = np.random.default_rng(3)
    for _agent in env.agent_iter():
        obs, reward_now, terminated, truncated, _ = env.last()
        total += reward_now
        assert obs["observation"].shape == (layout(1).size,)
        env.step(None if terminated or truncated else
                 int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    s = env.game
    assert s.over
    gap = s.rep[0] - solo_target()
    expected = (1.0 if gap >= 0 else -1.0) if reward == "win" else float(gap)
    assert total == expected == final_rewards(s, reward)[0]


def test_options_set_the_deck_and_the_deal() -> None:
    env = flamecraft_v0.raw_env(players=3, deck="golden", seed=21)
    env.reset()
    assert env.game.options.deck == "golden" and env.game_seed == 21
    same = flamecraft_v0.raw_env(players=3, deck="golden")
    same.reset(seed=21)
    assert same.game == env.game
    env.reset(seed=22)
    assert env.game != same.game
    with pytest.raises(ValueError):
        flamecraft_v0.raw_env(players=6)
    with pytest.raises(ValueError):
        flamecraft_v0.raw_env(players=0)
    with pytest.raises(ValueError):
        flamecraft_v0.raw_env(reward="points")
    with pytest.raises(ValueError):
        flamecraft_v0.raw_env(companions="yes")  # type: ignore[arg-type]


def test_the_companions_option_adds_the_module() -> None:
    """design §6: with ``companions=True`` the game starts with the Companion draft (its
    first decision picks a Companion); without it, no Companion is dealt."""
    on = flamecraft_v0.raw_env(players=3, companions=True, seed=4)
    on.reset()
    off = flamecraft_v0.raw_env(players=3, seed=4)
    off.reset()
    assert on.game.options.companions and on.game.companion_offer
    assert not off.game.options.companions and not off.game.companion_offer
    seat = on.possible_agents.index(on.agent_selection)
    obs = on.observe(on.agent_selection)
    assert obs["observation"].shape == off.observe(off.agent_selection)["observation"].shape
    picks = [on.catalogue.decode(on.game, int(i))
             for i in np.flatnonzero(obs["action_mask"])]
    assert picks and all(a[0] == A.PICK_COMPANION for a in picks)
    last = (on.game.first_player + 2) % 3
    assert seat == last  # the last player in turn order chooses first


def test_illegal_actions_raise_unwrapped_and_lose_wrapped() -> None:
    raw = flamecraft_v0.raw_env(players=2)
    raw.reset(seed=1)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        raw.step(illegal)
    wrapped = flamecraft_v0.env(players=2)
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(illegal)
    assert wrapped.terminations[agent] and wrapped.rewards[agent] == -1


def test_render_shows_the_public_board() -> None:
    """Rendering is for spectators: hands appear as counts, never as cards."""
    env = flamecraft_v0.raw_env(players=2, render_mode="ansi")
    env.reset(seed=3)
    board = env.render()
    assert isinstance(board, str) and "TOWN" in board
    assert board.count("Hand: 3 Artisan Dragons") == 2
    assert flamecraft_v0.raw_env(players=2).render() is None


def _example(name: str) -> Any:
    """Loads a script from examples/ as a module (they are not a package)."""
    path = Path(__file__).parent.parent / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_random_loop_example_plays_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    totals = _example("random_pettingzoo").play(players=2, seed=1, reward="win")
    assert sorted(totals.values()) in ([-1.0, 1.0], [1.0, 1.0])
    assert "2 players, seed 1" in capsys.readouterr().out
