"""The PettingZoo AEC environment flamecraft_v2 (envs/flamecraft_v2.py, docs/rl.md)."""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.test.state_test import test_state as check_state
from pettingzoo.test.state_test import test_state_space as check_state_space
from pettingzoo.utils.conversions import aec_to_parallel

from flamecraft import to_act, winners
from flamecraft.core import actions as A
from flamecraft.core.errors import GameOverError, IllegalActionError
from flamecraft.research import flamecraft_v2, state_vector
from flamecraft.research.cut import DEFAULT_MAX_CYCLES, DEFAULT_MAX_DECISIONS
from flamecraft.research.encoding import final_rewards, layout, observation, solo_target

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
    _run_quietly(api_test, flamecraft_v2.env(players=players, companions=companions),
                 num_cycles=1000)


@pytest.mark.parametrize(("players", "limits"), [(2, {"max_decisions": 40}),
                                                 (4, {"max_decisions": 40}),
                                                 (3, {"max_cycles": 6}), (1, {"max_cycles": 9})])
def test_api_test_passes_through_truncation(players: int, limits: dict[str, int]) -> None:
    """PettingZoo's checker over games cut short (every game reaches the cut: 40 decisions,
    or 6 cycles, about 30 decisions at 3 players)."""
    _run_quietly(api_test, flamecraft_v2.env(players=players, **limits), num_cycles=200)


@pytest.mark.parametrize(("players", "companions"), [(1, False), (2, False), (5, False),
                                                     (1, True), (3, True)])
def test_seed_test_passes(players: int, companions: bool) -> None:
    _run_quietly(seed_test, lambda: flamecraft_v2.env(players=players, companions=companions),
                 num_cycles=200)


def _play(env: flamecraft_v2.raw_env, seed: int) -> None:
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
    env = flamecraft_v2.raw_env(players=3, reward=reward)
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
    _play(flamecraft_v2.raw_env(players=players, companions=companions), seed=2)


@pytest.mark.parametrize("reward", ["win", "margin"])
def test_a_solo_game_is_one_agent_rewarded_against_the_rating(reward: str) -> None:
    """design §7: a solo game has one agent; with no seat to beat, "win" is reaching the
    Flamekeeper rating and "margin" the Reputation above (or below) it."""
    env = flamecraft_v2.raw_env(players=1, reward=reward, companions=True)
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
    env = flamecraft_v2.raw_env(players=3, deck="golden", seed=21)
    env.reset()
    assert env.game.options.deck == "golden" and env.game_seed == 21
    same = flamecraft_v2.raw_env(players=3, deck="golden")
    same.reset(seed=21)
    assert same.game == env.game
    env.reset(seed=22)
    assert env.game != same.game
    with pytest.raises(ValueError):
        flamecraft_v2.raw_env(players=6)
    with pytest.raises(ValueError):
        flamecraft_v2.raw_env(players=0)
    with pytest.raises(ValueError):
        flamecraft_v2.raw_env(reward="points")
    with pytest.raises(ValueError):
        flamecraft_v2.raw_env(companions="yes")  # type: ignore[arg-type]


def test_deals_are_drawn_from_too_many_seeds_to_search() -> None:
    """docs/rl.md: a reset without a seed draws the deal's seed from 2**63 (from 2**31 the
    public setup could identify it by search)."""
    env = flamecraft_v2.raw_env(players=2, seed=5)
    seeds = []
    for _ in range(8):
        env.reset()
        seeds.append(env.game_seed)
    assert seeds[0] == 5 and max(seeds[1:]) >= 2**40 and all(s < 2**63 for s in seeds)


def test_the_companions_option_adds_the_module() -> None:
    """design §6: with ``companions=True`` the game starts with the Companion draft (its
    first decision picks a Companion); without it, no Companion is dealt."""
    on = flamecraft_v2.raw_env(players=3, companions=True, seed=4)
    on.reset()
    off = flamecraft_v2.raw_env(players=3, seed=4)
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
    raw = flamecraft_v2.raw_env(players=2)
    raw.reset(seed=1)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        raw.step(illegal)
    wrapped = flamecraft_v2.env(players=2)
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(illegal)
    assert wrapped.terminations[agent] and wrapped.rewards[agent] == -1


def test_render_shows_the_public_board() -> None:
    """Rendering is for spectators: hands appear as counts, never as cards."""
    env = flamecraft_v2.raw_env(players=2, render_mode="ansi")
    env.reset(seed=3)
    board = env.render()
    assert isinstance(board, str) and "TOWN" in board
    assert board.count("Hand: 3 Artisan Dragons") == 2
    assert flamecraft_v2.raw_env(players=2).render() is None


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


# --- truncation: max_cycles ----------------------------------------------------------------

def _lowest_legal_game(env: Any, limit: int) -> tuple[int, dict[str, float]]:
    """Plays always the lowest legal index (a policy that never ends a game with 2+ players:
    it visits and gives forever); returns the live decisions taken and the rewards summed."""
    decisions, totals = 0, dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(limit):
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        decisions += 1
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    return decisions, totals


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_always_the_lowest_legal_index_is_truncated_at_max_decisions(players: int) -> None:
    """A game that does not end by itself is cut at ``max_decisions`` decisions (the default
    cut: 3,000 cycles come later): every agent is truncated (not terminated), with reward 0,
    and the agents leave as PettingZoo expects."""
    limit = DEFAULT_MAX_DECISIONS if players == 2 else 150
    env = flamecraft_v2.env(players=players, max_decisions=limit)
    env.reset(seed=1)
    decisions, totals = _lowest_legal_game(env, limit + 10 * players)
    assert decisions == limit
    assert env.agents == [], "the game was cut and every agent left"
    assert not env.unwrapped.game.over
    assert totals == dict.fromkeys(env.possible_agents, 0.0)


def test_truncation_sets_every_agents_flag_and_empties_the_masks() -> None:
    env = flamecraft_v2.raw_env(players=3, max_decisions=40)
    env.reset(seed=2)
    for _ in range(40):
        assert not any(env.truncations.values())
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(not env.observe(a)["action_mask"].any() for a in env.possible_agents)
    assert env.infos == {a: {} for a in env.possible_agents}


def test_a_game_that_ends_at_the_limit_is_terminated_not_truncated() -> None:
    """The game's own end wins over the cut when both fall on the same decision."""
    def random_game(env: flamecraft_v2.raw_env) -> int:
        env.reset(seed=5)
        rng = np.random.default_rng(5)
        while not (env.game.over or any(env.truncations.values())):
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
        return env.decisions

    length = random_game(flamecraft_v2.raw_env(players=2))
    exact = flamecraft_v2.raw_env(players=2, max_decisions=length)
    assert random_game(exact) == length and exact.game.over
    assert all(exact.terminations.values()) and not any(exact.truncations.values())
    short = flamecraft_v2.raw_env(players=2, max_decisions=length - 1)
    assert random_game(short) == length - 1 and not short.game.over
    assert all(short.truncations.values()) and not any(short.terminations.values())


def test_the_default_limit_is_far_above_the_longest_random_game() -> None:
    """docs/rl.md: random games at 1–5 players took at most about 600 decisions."""
    assert flamecraft_v2.raw_env().max_cycles == DEFAULT_MAX_CYCLES >= 3000
    assert flamecraft_v2.raw_env().max_decisions == DEFAULT_MAX_DECISIONS >= 3000
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="max_cycles"):
            flamecraft_v2.raw_env(max_cycles=bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="max_decisions"):
            flamecraft_v2.raw_env(max_decisions=bad)  # type: ignore[arg-type]


# --- state(): the privileged full state ------------------------------------------------------

@pytest.mark.parametrize(("players", "companions"), [(1, False), (2, False), (3, True),
                                                     (5, False)])
def test_pettingzoos_state_tests_pass(players: int, companions: bool) -> None:
    env = flamecraft_v2.env(players=players, companions=companions)
    _run_quietly(check_state_space, env)
    _run_quietly(check_state, env, num_cycles=300)


def test_the_state_is_every_seats_observation_then_the_hidden_piles() -> None:
    env = flamecraft_v2.raw_env(players=3, companions=True)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    size = layout(3).size
    for _ in range(60):
        s = env.game
        state = env.state()
        assert state.shape == env.state_space.shape and env.state_space.contains(state)
        for seat in range(3):
            assert np.array_equal(state[seat * size:(seat + 1) * size],
                                  np.asarray(observation(s, seat), np.float32))
        hidden = state[3 * size:]
        parts = np.split(hidden, np.cumsum([n for _, n in state_vector.HIDDEN_PARTS])[:-1])
        assert [len(p) for p in parts] == [n for _, n in state_vector.HIDDEN_PARTS]
        deck_by_type, next_type, removed, fancy, next_fancy = parts[:5]
        assert np.isclose(deck_by_type.sum() * 7, len(s.artisan_deck))  # 7 of each type
        assert np.isclose(removed.sum() * 7, len(s.removed))
        assert next_type.sum() == (1 if s.artisan_deck else 0)
        assert sorted(np.flatnonzero(fancy).tolist()) == sorted(s.fancy_deck)
        assert np.flatnonzero(next_fancy).tolist() == s.fancy_deck[-1:]
        ench, next_ench, shops, next_shop, facedown, unused, box = parts[5:]
        assert sorted(np.flatnonzero(ench).tolist()) == sorted(s.ench_deck)
        assert np.flatnonzero(next_ench).tolist() == s.ench_deck[-1:]
        assert sorted(np.flatnonzero(shops).tolist()) == sorted(s.shop_deck)
        assert np.flatnonzero(next_shop).tolist() == s.shop_deck[-1:]
        assert sorted(np.flatnonzero(facedown).tolist()) == sorted(s.facedown)
        assert sorted(np.flatnonzero(unused).tolist()) == sorted(s.shops_unused)
        assert sorted(np.flatnonzero(box).tolist()) == sorted(s.companion_box)
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))


def test_the_state_sees_what_no_observation_sees() -> None:
    """Privileged: reordering the decks changes the state, and no seat's observation."""
    env = flamecraft_v2.raw_env(players=2)
    env.reset(seed=3)
    before = env.state()
    observations = [env.observe(a)["observation"] for a in env.possible_agents]
    s = env.game
    s.ench_deck.reverse()
    s.fancy_deck.reverse()
    after = env.state()
    assert not np.array_equal(before, after)
    for agent, seen in zip(env.possible_agents, observations, strict=True):
        assert np.array_equal(env.observe(agent)["observation"], seen)


# --- no parallel_env: why, shown -------------------------------------------------------------

def test_aec_to_parallel_does_not_fit_turn_based_play() -> None:
    """docs/rl.md: PettingZoo's conversion refuses the environment (``is_parallelizable`` is
    False), and rightly: told it is parallelizable, the wrapper breaks on the first turn,
    because it expects every agent to act once per cycle and a seat acts many times in a
    row."""
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(flamecraft_v2.raw_env(players=2))
    forced = flamecraft_v2.raw_env(players=2)
    forced.__dict__["metadata"] = {**forced.metadata, "is_parallelizable": True}  # this one only
    par = aec_to_parallel(forced)
    par.reset(seed=1)

    class LegalNow(dict[str, int]):
        """Whatever agent the wrapper steps gets a legal index at that moment (a parallel
        policy could not know it in advance: that is the other half of the misfit)."""

        def __getitem__(self, agent: str) -> int:
            return int(np.flatnonzero(forced.observe(agent)["action_mask"])[0])

    with pytest.raises(AssertionError, match="step in a cycle"):
        for _ in range(50):
            par.step(LegalNow(dict.fromkeys(par.agents, 0)))
    assert not hasattr(flamecraft_v2, "parallel_env")


# --- bad input: raises one clear sentence, changes nothing -----------------------------------

def _snapshot(env: Any) -> tuple[Any, ...]:
    raw = env.unwrapped
    return (raw.game.copy(), raw.agent_selection, list(raw.agents), dict(raw.rewards),
            dict(raw._cumulative_rewards), dict(raw.terminations), dict(raw.truncations),
            raw.decisions, [raw.observe(a)["action_mask"].tolist() for a in raw.agents])


def test_an_illegal_index_raises_and_changes_nothing() -> None:
    env = flamecraft_v2.raw_env(players=3)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    before = _snapshot(env)
    bad: object
    for bad in (int(np.flatnonzero(mask == 0)[0]), np.int64(env.catalogue.size), -1):
        with pytest.raises(IllegalActionError, match=r"^action .* is not legal for player_\d now"):
            env.step(bad)
        assert _snapshot(env) == before
    for bad in (None, 1.5, "3", True):
        with pytest.raises(IllegalActionError, match="an action is a catalogue index"):
            env.step(bad)
        assert _snapshot(env) == before
    wrapped = flamecraft_v2.env(players=3)
    wrapped.reset(seed=1)
    before = _snapshot(wrapped)
    for bad in (wrapped.unwrapped.catalogue.size, -1, None):
        with pytest.raises(AssertionError):  # as PettingZoo's AssertOutOfBoundsWrapper
            wrapped.step(bad)
        assert _snapshot(wrapped) == before


def test_stepping_an_agent_that_is_not_selected_raises_and_changes_nothing() -> None:
    """AEC steps ``agent_selection``; one set by hand to another seat is refused, even with
    an index that is legal for the seat the game waits for."""
    env = flamecraft_v2.raw_env(players=3)
    env.reset(seed=1)
    acting = env.agent_selection
    legal = int(np.flatnonzero(env.observe(acting)["action_mask"])[0])
    other = next(a for a in env.possible_agents if a != acting)
    env.agent_selection = other
    before = _snapshot(env)
    with pytest.raises(IllegalActionError, match=f"^{other} is not the agent to act"):
        env.step(legal)
    assert _snapshot(env) == before


def test_a_finished_game_refuses_steps(caplog: pytest.LogCaptureFixture) -> None:
    """Unwrapped: GameOverError once every agent has left; an agent that is done may only
    step None (PettingZoo's ValueError). Wrapped: PettingZoo's own warning, nothing done."""
    env = flamecraft_v2.raw_env(players=2, max_decisions=30)
    env.reset(seed=4)
    for _ in range(30):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    before = _snapshot(env)
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    assert _snapshot(env) == before
    env.step(None)
    env.step(None)
    assert env.agents == []
    game = env.game.copy()
    with pytest.raises(GameOverError, match="the game is over"):
        env.step(None)
    assert env.game == game and env.agents == []
    wrapped = flamecraft_v2.env(players=2, max_decisions=30)
    wrapped.reset(seed=4)
    _lowest_legal_game(wrapped, 100)
    game = wrapped.unwrapped.game.copy()
    wrapped.step(None)
    assert wrapped.unwrapped.game == game
    assert "Should reset() first" in caplog.text


def test_calls_before_reset_raise() -> None:
    env = flamecraft_v2.raw_env(players=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        env.state()
    with pytest.raises(AssertionError, match="reset"):
        flamecraft_v2.env(players=2).step(0)


def test_env_is_pettingzoos_order_enforcing_wrapper_with_its_checks() -> None:
    """``env()``'s wrapper (``flamecraft_v2.OrderEnforcing``, which forwards the attributes a
    step reads by properties) is a PettingZoo OrderEnforcingWrapper and behaves as one:
    before ``reset()`` each forwarded attribute and ``last()`` raise the base class's
    AttributeError; after it they are the environment's own, and ``last()`` is its."""
    from pettingzoo.utils import wrappers

    env = flamecraft_v2.env(players=3)
    assert isinstance(env, wrappers.OrderEnforcingWrapper)
    assert str(env) == "flamecraft_v2"
    forwarded = ("agents", "agent_selection", "rewards", "terminations", "truncations",
                 "infos")
    for name in forwarded:
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        env.last()
    env.reset(seed=5)
    raw = env.unwrapped
    for _ in range(25):
        for name in forwarded:
            assert getattr(env, name) is getattr(raw, name)
        obs, reward, terminated, truncated, info = env.last()
        raw_obs, *rest = raw.last()
        assert (reward, terminated, truncated, info) == tuple(rest)
        assert all(np.array_equal(obs[key], raw_obs[key]) for key in obs)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(AttributeError, match="private attribute"):
        _ = env._seat  # the base class still guards the rest


def test_the_environment_shows_the_encoding_version() -> None:
    """docs/rl.md, Versions: the version of the catalogue and the observation is in the
    metadata, of the wrapped environment too; the import path stays ``flamecraft_v2``."""
    from flamecraft.research.encoding import ENCODING_VERSION

    for made in (flamecraft_v2.env(players=2), flamecraft_v2.raw_env(players=3)):
        assert made.metadata["encoding_version"] == ENCODING_VERSION
        assert made.metadata["name"] == "flamecraft_v2"
