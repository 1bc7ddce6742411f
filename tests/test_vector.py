"""The vectorized environments (research/vector.py) and policy opponents (self-play): a
vector env plays exactly as N separate envs with the same seeds, auto-resets as Gymnasium
1.x does (NEXT_STEP), and its masks are the legal actions; the multi-agent batch plays every
seat; an opponent can be any policy of (observation, mask), a frozen learner included."""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode, VectorEnv

import observation_reference as reference
from flamecraft.core.engine import apply_in_place, legal_actions, start, to_act
from flamecraft.core.errors import IllegalActionError
from flamecraft.core.variant import VARIANTS
from flamecraft.research.batched import BatchCore
from flamecraft.research.encoding import (
    catalogue,
    final_rewards,
    layout,
    observation_buffer,
)
from flamecraft.research.gym_single import (
    FlamecraftSingleEnv,
    PolicyOpponent,
    register_opponent,
)
from flamecraft.research.observation import observation_array
from flamecraft.research.rows import RowEncoder, write_mask
from flamecraft.research.vector import (
    FlamecraftBatch,
    FlamecraftVectorEnv,
    float_view,
    random_masked_actions,
)

OPTIONS: dict[str, Any] = {"players": 2, "max_decisions": 60}  # cut often: many resets


def test_it_is_a_gymnasium_vector_env() -> None:
    env = FlamecraftVectorEnv(3, **OPTIONS)
    assert isinstance(env, VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert obs["observation"].shape == (3, 1402)
    assert info["game_seed"].shape == (3,)
    with pytest.raises(ValueError, match="num_envs must be a whole number of at least 1"):
        FlamecraftVectorEnv(0)
    with pytest.raises(ValueError, match="actions must be 3 integer catalogue indices"):
        env.step(np.zeros(2, np.int64))


@pytest.mark.parametrize("options", [OPTIONS, {"players": 3, "opponents": "greedy",
                                               "max_decisions": 80},
                                     {"players": 2, "variant": "tiny"}])
def test_trajectories_equal_separate_envs(options: dict[str, Any]) -> None:
    """Game i of the vector env, seeded with seed + i, gives exactly what a separate env
    reset with seed + i gives, step by step, through its ends and auto-resets (a separate env
    reset without a seed the step after its episode ended, as NEXT_STEP does)."""
    n, seed = 4, 10
    vector = FlamecraftVectorEnv(n, **options)
    separate = [FlamecraftSingleEnv(**options) for _ in range(n)]
    obs, _ = vector.reset(seed=seed)
    singles = [env.reset(seed=seed + i)[0] for i, env in enumerate(separate)]
    ended = [False] * n
    rng = random.Random(1)
    resets = 0
    for _ in range(150):
        for i in range(n):
            assert np.array_equal(obs["observation"][i], singles[i]["observation"])
            assert np.array_equal(obs["action_mask"][i], singles[i]["action_mask"])
        actions = random_masked_actions(obs["action_mask"], rng)
        obs, rewards, terminated, truncated, _ = vector.step(actions)
        for i, env in enumerate(separate):
            if ended[i]:
                singles[i], _ = env.reset()
                reward, term, trunc = 0.0, False, False
                resets += 1
            else:
                singles[i], reward, term, trunc, _ = env.step(int(actions[i]))
            assert (rewards[i], terminated[i], truncated[i]) == (reward, term, trunc)
            ended[i] = term or trunc
    assert resets >= n  # every game ended and was reset at least once


def test_same_step_auto_reset_equals_separate_envs() -> None:
    """With Gymnasium's SAME_STEP mode a game that ends is reset in the same step: its last
    observation is in ``info["final_obs"]`` and the observation returned is the new game's
    first, exactly what a separate env gives when reset at once (SB3's convention too)."""
    n, seed = 3, 20
    vector = FlamecraftVectorEnv(n, autoreset_mode="SameStep", **OPTIONS)
    separate = [FlamecraftSingleEnv(**OPTIONS) for _ in range(n)]
    obs, _ = vector.reset(seed=seed)
    singles = [env.reset(seed=seed + i)[0] for i, env in enumerate(separate)]
    rng = random.Random(3)
    finals = 0
    for _ in range(120):
        for i in range(n):
            assert np.array_equal(obs["observation"][i], singles[i]["observation"])
        actions = random_masked_actions(obs["action_mask"], rng)
        obs, rewards, terminated, truncated, info = vector.step(actions)
        for i, env in enumerate(separate):
            singles[i], reward, term, trunc, _ = env.step(int(actions[i]))
            assert (rewards[i], terminated[i], truncated[i]) == (reward, term, trunc)
            if term or trunc:
                assert info["_final_obs"][i]
                assert np.array_equal(info["final_obs"][i]["observation"],
                                      singles[i]["observation"])
                singles[i], _ = env.reset()
                finals += 1
    assert finals >= n
    with pytest.raises(ValueError, match="autoreset_mode must be NEXT_STEP or SAME_STEP"):
        FlamecraftVectorEnv(2, autoreset_mode="Disabled")


def test_masks_are_the_legal_actions() -> None:
    env = FlamecraftVectorEnv(3, **OPTIONS)
    obs, _ = env.reset(seed=4)
    rng = random.Random(0)
    cat = catalogue(2)
    for _ in range(60):
        for i, game in enumerate(env.envs):
            legal = cat.legal(game.game) if not game._ended else {}
            assert set(np.flatnonzero(obs["action_mask"][i])) == set(legal)
            assert np.array_equal(env.action_masks()[i], obs["action_mask"][i].astype(bool))
        obs, *_ = env.step(random_masked_actions(obs["action_mask"], rng))


def test_auto_reset_ignores_the_action_and_starts_a_new_game() -> None:
    """After a step that ends game 0 (here an illegal index), the next step resets it: the
    action given is ignored, the reward is 0, neither flag is set, and the observation is a
    new game's first; the other games play on."""
    env = FlamecraftVectorEnv(2, **OPTIONS)
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
    legal = int(np.flatnonzero(obs["action_mask"][1])[0])
    obs, rewards, terminated, truncated, info = env.step(np.array([illegal, legal]))
    assert terminated[0] and rewards[0] == -1.0 and info["illegal_action"][0]
    old = env.envs[0].game
    obs, rewards, terminated, truncated, _ = env.step(np.array([illegal, legal]))
    assert (rewards[0], terminated[0], truncated[0]) == (0.0, False, False)
    assert env.envs[0].game is not old and env.envs[0].decisions <= 3  # the bots' first moves
    assert obs["action_mask"][0].any()


def test_the_batch_plays_every_seat() -> None:
    """The multi-agent batch: game i follows its own deal (from default_rng(seed + i)), the
    seat to act plays, rewards come to every seat at the end, and the game is reset the
    step after (NEXT_STEP); checked against the engine played alongside."""
    n, seed = 3, 5
    batch = FlamecraftBatch(n, players=3, max_decisions=400)
    batch.reset(seed=seed)
    rngs = [np.random.default_rng(seed + i) for i in range(n)]
    games = [start(3, int(r.integers(2**63))) for r in rngs]
    cat = catalogue(3)
    ended = [False] * n
    finished = 0
    rng = random.Random(2)
    for _ in range(1500):
        for i, s in enumerate(games):
            if not ended[i]:
                seat = to_act(s)
                assert batch.current_player[i] == seat
                assert np.array_equal(batch.observations[i], observation_array(s, seat))
                assert set(np.flatnonzero(batch.action_masks[i])) == set(cat.legal(s))
        actions = random_masked_actions(batch.action_masks, rng)
        _, rewards, terminated, truncated = batch.step(actions)
        for i in range(n):
            if ended[i]:
                games[i] = start(3, int(rngs[i].integers(2**63)))
                assert not terminated[i] and not truncated[i] and not rewards[i].any()
                ended[i] = False
                continue
            s = games[i]
            apply_in_place(s, cat.legal(s)[int(actions[i])])
            assert terminated[i] == s.over
            if s.over:
                assert list(rewards[i]) == final_rewards(s, "win")
                finished += 1
            else:
                assert not rewards[i].any()
            ended[i] = bool(terminated[i] or truncated[i])
    assert finished >= n


def _float32(s: Any, seat: int | None) -> bytes:
    """``observation(s, seat)`` as the environments give it: float32, cast by numpy."""
    doubles = np.frombuffer(observation_buffer(s, seat), np.float64)
    return bytes(doubles.astype(np.float32).tobytes())


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_row_encoders_keep_rows_equal_to_the_observation(players: int) -> None:
    """The incremental encoder (only the blocks whose inputs changed are rewritten) leaves in
    its row, after every decision of random games of both decks, Companions on and off, for
    every seat and the public observer, the bytes of the whole observation cast to float32;
    every few states it is also checked against the plain reference builder
    (tests/observation_reference.py), and a row written by others is repaired by
    ``forget``."""
    size = layout(players).size
    seats: list[int | None] = [None, *range(players)]
    compared = 0
    for deck, companions in itertools.product(("purple", "golden"), (False, True)):
        seed = 70 + players + (deck == "golden") * 10 + companions * 20
        rng = random.Random(seed)
        rows = np.zeros((len(seats), size), np.float32)
        encoders = [RowEncoder(players, seat) for seat in seats]
        views = [float_view(rows[k]) for k in range(len(seats))]
        for game in range(2):
            s = start(players, seed + game, deck, companions=companions)
            for encoder in encoders:
                encoder.forget()
            step = 0
            while True:
                for k, seat in enumerate(seats):
                    encoders[k].write(views[k], s)
                    assert rows[k].tobytes() == _float32(s, seat), (deck, companions, seat)
                    if step % 25 == 0:
                        expected = np.zeros(size, np.float64)
                        for index, value in reference.observation_sparse(s, seat).items():
                            expected[index] = value
                        assert np.array_equal(rows[k], expected.astype(np.float32))
                    compared += 1
                if s.over:
                    break
                apply_in_place(s, rng.choice(legal_actions(s)))
                step += 1
        rows[0] = 0.5  # another writer: the encoder is told to write everything again
        encoders[0].forget()
        encoders[0].write(views[0], s)
        assert rows[0].tobytes() == _float32(s, seats[0])
    assert compared > 2 * 4 * 50 * len(seats)
    with pytest.raises(ValueError, match="a 2-player game given to an encoder of 3 players"):
        RowEncoder(3, 0).write(float_view(np.zeros(layout(3).size, np.float32)),
                               start(2, 0))
    with pytest.raises(ValueError, match="not an array of type float64"):
        float_view(np.zeros(5))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_row_encoders_catch_up_after_many_decisions(players: int) -> None:
    """An encoder that writes only now and then (the batch's: a seat's row is written when
    that seat acts, after the others' decisions) still leaves the whole observation in its
    row: several Shops, seats and blocks change between two of its writes. The gaps are
    random, 1 to 12 decisions."""
    size = layout(players).size
    compared = 0
    for game in range(6):
        rng = random.Random(900 + 10 * players + game)
        s = start(players, 900 + game, companions=game % 2 == 1)
        rows = np.zeros((players, size), np.float32)
        encoders = [RowEncoder(players, seat) for seat in range(players)]
        views = [float_view(rows[k]) for k in range(players)]
        due = [rng.randint(0, 3) for _ in range(players)]
        while not s.over:
            for seat in range(players):
                due[seat] -= 1
                if due[seat] <= 0:
                    encoders[seat].write(views[seat], s)
                    assert rows[seat].tobytes() == _float32(s, seat), (players, game, seat)
                    compared += 1
                    due[seat] = rng.randint(1, 12)
            apply_in_place(s, rng.choice(legal_actions(s)))
    assert compared > 6 * players * 10


def test_writing_into_the_returned_arrays_changes_no_later_observation() -> None:
    """The encoders keep rows of their own: a caller that writes into the arrays a step
    returned (normalizing in place, say) gets the true observations and masks at the next
    step, in both forms."""
    rng = random.Random(6)
    clean, dirty = FlamecraftVectorEnv(2, **OPTIONS), FlamecraftVectorEnv(2, **OPTIONS)
    obs, _ = clean.reset(seed=9)
    other, _ = dirty.reset(seed=9)
    batch, scribbled = FlamecraftBatch(2, players=2), FlamecraftBatch(2, players=2)
    batch.reset(seed=9)
    scribbled.reset(seed=9)
    for _ in range(40):
        actions = random_masked_actions(obs["action_mask"], rng)
        other["observation"][:] = 0.25
        other["action_mask"][:] = 1
        obs, *_ = clean.step(actions)
        other, *_ = dirty.step(actions)
        assert np.array_equal(obs["observation"], other["observation"])
        assert np.array_equal(obs["action_mask"], other["action_mask"])
        actions = random_masked_actions(batch.action_masks, rng)
        scribbled.observations[:] = 0.5
        scribbled.action_masks[:] = 0
        batch.step(actions)
        scribbled.step(actions)
        assert np.array_equal(batch.observations, scribbled.observations)
        assert np.array_equal(batch.action_masks, scribbled.action_masks)


def test_write_mask_moves_the_ones() -> None:
    row = np.zeros(10, np.int8)
    write_mask(row.data, [], [1, 4])
    assert list(np.flatnonzero(row)) == [1, 4]
    write_mask(row.data, [1, 4], [4, 9])
    assert list(np.flatnonzero(row)) == [4, 9]


@pytest.mark.parametrize("copier", [copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x))])
def test_vector_envs_copy_and_play_on_alike(copier: Any) -> None:
    """A vector env or batch in the middle of its games, copied (deepcopy, pickle), steps on
    exactly as the original: the copy's encoders start afresh on the rows as they are."""
    rng = random.Random(5)
    vector = FlamecraftVectorEnv(3, **OPTIONS)
    obs, _ = vector.reset(seed=1)
    batch = FlamecraftBatch(3, players=3, max_decisions=100)
    batch.reset(seed=1)
    for _ in range(20):
        obs, *_ = vector.step(random_masked_actions(obs["action_mask"], rng))
        batch.step(random_masked_actions(batch.action_masks, rng))
    vector_copy, batch_copy = copier(vector), copier(batch)
    for _ in range(80):
        actions = random_masked_actions(obs["action_mask"], rng)
        obs, rewards, terminated, truncated, _ = vector.step(actions)
        other, *rest = vector_copy.step(actions)
        assert np.array_equal(obs["observation"], other["observation"])
        assert np.array_equal(obs["action_mask"], other["action_mask"])
        assert all(np.array_equal(a, b) for a, b in zip((rewards, terminated, truncated),
                                                        rest[:3], strict=True))
        actions = random_masked_actions(batch.action_masks, rng)
        batch.step(actions)
        batch_copy.step(actions)
        assert np.array_equal(batch.observations, batch_copy.observations)
        assert np.array_equal(batch.action_masks, batch_copy.action_masks)
        assert np.array_equal(batch.rewards, batch_copy.rewards)


def test_the_batch_refuses_an_illegal_action_by_game() -> None:
    batch = FlamecraftBatch(2, players=2)
    batch.reset(seed=0)
    before = batch.observations.copy()
    bad = int(np.flatnonzero(batch.action_masks[1] == 0)[0])
    good = int(np.flatnonzero(batch.action_masks[0])[0])
    with pytest.raises(IllegalActionError, match=f"action {bad} is not legal in game 1"):
        batch.step(np.array([good, bad]))
    assert np.array_equal(batch.observations, before)



def test_a_batch_core_writes_nothing_before_it_is_bound() -> None:
    """The compiled core writes only into memory it was given (``bind``): without it, a
    deal is refused by name and the game is not taken."""
    core = BatchCore(2, 1, 10, 10)
    with pytest.raises(RuntimeError, match=r"before bind\(\) gives it its rows"):
        core.deal(0, start(2, 0))
    assert core.games == [None]

# --- policy opponents: self-play ---------------------------------------------------------


def lowest_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """A policy of (observation, mask): the lowest legal index."""
    return int(np.flatnonzero(action_mask)[0])


class Linear:
    """A stand-in for a learner: a linear scorer over the observation, masked."""

    def __init__(self, obs: int, actions: int, seed: int):
        self.weights = np.random.default_rng(seed).normal(size=(obs, actions))

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        scores = observation @ self.weights
        return int(np.argmax(np.where(action_mask > 0, scores, -np.inf)))


def _play(env: FlamecraftSingleEnv, seed: int, steps: int = 200) -> list[Any]:
    obs, _ = env.reset(seed=seed)
    out = []
    for _ in range(steps):
        obs, reward, term, trunc, _ = env.step(lowest_legal(obs["observation"],
                                                            obs["action_mask"]))
        out.append((obs["observation"].tobytes(), reward, term, trunc))
        if term or trunc:
            obs, _ = env.reset()
    return out


def test_a_policy_opponent_plays_from_its_own_observation() -> None:
    """A policy of (observation, mask) plays the other seat exactly as a bot over the engine
    state that makes the same choice; what it is handed is its seat's observation and the
    legal actions' mask."""
    cat = catalogue(2)
    register_opponent("lowest-legal", lambda s, rng: cat.legal(s)[min(cat.legal(s))])
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def spy(observation: np.ndarray, action_mask: np.ndarray) -> int:
        seen.append((observation.copy(), action_mask.copy()))
        return lowest_legal(observation, action_mask)

    by_policy = FlamecraftSingleEnv(players=2, opponents=[spy], max_decisions=300)
    by_name = FlamecraftSingleEnv(players=2, opponents="lowest-legal", max_decisions=300)
    assert _play(by_policy, 3) == _play(by_name, 3)
    assert seen
    env = FlamecraftSingleEnv(players=2, opponents=[spy])
    env.reset(seed=8)
    seen.clear()
    s = env.game.copy()
    legal = env.action_masks()
    env.step(int(np.flatnonzero(legal)[0]))
    # The opponent's first observation is seat 1's, after the learner's move.
    apply_in_place(s, cat.legal(s)[int(np.flatnonzero(legal)[0])])
    if seen:
        assert np.array_equal(seen[0][0], observation_array(s, 1))
        assert set(np.flatnonzero(seen[0][1])) == set(cat.legal(s))


def test_a_frozen_snapshot_does_not_follow_the_learner() -> None:
    """Self-play: the opponent is a snapshot of the learner taken now; updating the learner
    afterwards leaves the opponent's play unchanged; ``set_opponent`` swaps in a new one."""
    learner = Linear(1402, 1482, seed=0)
    env = FlamecraftSingleEnv(players=2, opponents=[PolicyOpponent.frozen(learner)],
                              max_decisions=200)
    first = _play(env, 4)
    learner.weights[:] = np.random.default_rng(9).normal(size=learner.weights.shape)
    assert _play(env, 4) == first
    env.set_opponent(1, PolicyOpponent.frozen(learner))
    assert _play(env, 4) != first
    env.set_opponent(1, "random")
    with pytest.raises(ValueError, match="seat 0 is not an opponent's"):
        env.set_opponent(0, "random")
    with pytest.raises(ValueError, match="unknown opponent 'nobody'"):
        env.set_opponent(1, "nobody")
    with pytest.raises(TypeError, match="an opponent is a registered bot's name or a policy"):
        FlamecraftSingleEnv(players=2, opponents=[3])  # type: ignore[list-item]


def test_policy_opponents_pickle_and_go_to_vector_envs() -> None:
    """An env whose opponent is a picklable policy pickles (for worker processes) and plays on
    as the original; the vector env takes policy opponents too."""
    env = FlamecraftSingleEnv(players=2, opponents=[lowest_legal], max_decisions=200)
    env.reset(seed=2)
    copy = pickle.loads(pickle.dumps(env))
    assert _play(copy, 6) == _play(env, 6)
    vector = FlamecraftVectorEnv(2, players=2, opponents=[lowest_legal])
    obs, _ = vector.reset(seed=0)
    vector.step(random_masked_actions(obs["action_mask"], random.Random(0)))
    vector.set_opponent(1, "greedy")
    assert all(e.opponent_names[1] == "greedy" for e in vector.envs)


def test_variants_reach_the_environments() -> None:
    env = FlamecraftSingleEnv(players=2, variant="tiny")
    env.reset(seed=1)
    assert env.game.options.variant == VARIANTS["tiny"]
    with pytest.raises(Exception, match="unknown variant parameter 'x'"):
        FlamecraftSingleEnv(players=2, variant="x=1")
