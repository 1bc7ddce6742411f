"""MaskablePPO (sb3-contrib) on the vectorized environment, against the random bot, then
against frozen snapshots of itself (self-play).

Needs Stable-Baselines3 and sb3-contrib, which bring PyTorch and are not in the project's
extras (``pip install sb3-contrib``); without them this prints how to install them and
exits. Not run by the tests.

Why an adapter: SB3 has its own vector-env interface (``VecEnv``: ``step_async`` /
``step_wait``, a list of info dicts, resets in the same step with the last observation in
``info["terminal_observation"]``). ``FlamecraftVectorEnv(autoreset_mode="SameStep")`` resets
the same way (Gymnasium's SAME_STEP), so the adapter only renames; MaskablePPO reads the
masks through ``env_method("action_masks")``.

    python examples/train_maskable_ppo.py --envs 16 --steps 200000
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

from flamecraft.research.gym_single import PolicyOpponent
from flamecraft.research.vector import FlamecraftVectorEnv


def _require_sb3() -> Any:
    try:
        import sb3_contrib
        from stable_baselines3.common import vec_env
    except ImportError:
        print("this example needs Stable-Baselines3 and sb3-contrib (and PyTorch): "
              "pip install sb3-contrib", file=sys.stderr)
        raise SystemExit(2) from None
    return sb3_contrib, vec_env


def make_vec_env(envs: int, vec_env: Any, **options: Any) -> Any:
    """FlamecraftVectorEnv behind SB3's VecEnv interface (observations: the vector only;
    masks: ``env_method("action_masks")``)."""

    class FlamecraftSB3(vec_env.VecEnv):  # type: ignore[misc]
        def __init__(self) -> None:
            self.vector = FlamecraftVectorEnv(envs, autoreset_mode="SameStep", **options)
            super().__init__(envs, self.vector.single_observation_space["observation"],
                             self.vector.single_action_space)
            self._actions = np.zeros(envs, np.int64)
            self._seed: int | None = None

        def reset(self) -> np.ndarray:
            obs, _ = self.vector.reset(seed=self._seed)
            self._seed = None
            return obs["observation"].copy()

        def seed(self, seed: int | None = None) -> list[int | None]:
            self._seed = seed
            return [None if seed is None else seed + i for i in range(envs)]

        def step_async(self, actions: np.ndarray) -> None:
            self._actions = np.asarray(actions, np.int64)

        def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
            obs, rewards, terminated, truncated, info = self.vector.step(self._actions)
            dones = terminated | truncated
            infos: list[dict[str, Any]] = [{} for _ in range(envs)]
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = info["final_obs"][i]["observation"]
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            return obs["observation"].copy(), rewards.copy(), dones, infos

        def env_method(self, method_name: str, *args: Any, indices: Any = None,
                       **kwargs: Any) -> list[Any]:
            if method_name == "action_masks":
                return list(self.vector.action_masks())
            return [getattr(e, method_name)(*args, **kwargs) for e in self.vector.envs]

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            return [getattr(e, attr_name) for e in self.vector.envs]

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            for e in self.vector.envs:
                setattr(e, attr_name, value)

        def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
            return [False] * envs

        def close(self) -> None:
            self.vector.close()

    return FlamecraftSB3()


class Snapshot:
    """A frozen copy of the model's policy as an opponent: (observation, mask) -> index."""

    def __init__(self, model: Any):
        import copy

        self.policy = copy.deepcopy(model.policy)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        action, _ = self.policy.predict(observation, deterministic=False,
                                        action_masks=action_mask.astype(bool))
        return int(action)


def win_rate(env: FlamecraftVectorEnv, model: Any, games: int) -> float:
    """The learner's share of games won (reward +1) over ``games`` finished games."""
    obs, _ = env.reset(seed=12345)
    wins = done = 0
    while done < games:
        actions, _ = model.predict(obs["observation"], action_masks=env.action_masks())
        obs, rewards, terminated, truncated, _ = env.step(np.asarray(actions, np.int64))
        ended = terminated | truncated
        wins += int((rewards[ended] > 0).sum())
        done += int(ended.sum())
    return wins / done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--steps", type=int, default=200_000, help="per phase")
    parser.add_argument("--generations", type=int, default=3, help="self-play snapshots")
    args = parser.parse_args(argv)
    sb3_contrib, vec_env = _require_sb3()
    env = make_vec_env(args.envs, vec_env, players=2, opponents="random")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=1024,
                                    verbose=0, seed=0)
    test = FlamecraftVectorEnv(16, players=2, opponents="random")
    print(f"win rate against random, untrained: {win_rate(test, model, 200):.0%}")
    model.learn(args.steps)
    print(f"after {args.steps} steps against random: {win_rate(test, model, 200):.0%}")
    for generation in range(args.generations):  # self-play against a frozen past self
        env.vector.set_opponent(1, PolicyOpponent(Snapshot(model), f"gen{generation}"))
        model.learn(args.steps, reset_num_timesteps=False)
        print(f"generation {generation + 1}: against random "
              f"{win_rate(test, model, 200):.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
