"""MaskablePPO (sb3-contrib) on the vectorized environment, against the random bot; then,
optionally, against frozen snapshots of itself (self-play).

Needs the ``train`` extra (``pip install -c constraints.txt -e '.[rl,train]'``: sb3-contrib,
Stable-Baselines3 and a CPU build of PyTorch), which ``make`` does not install; without it
this prints how to install it and exits.

It prints the learner's win rate against the random bot before and after training, over
``--games`` finished games each, with 95% Wilson intervals (the same seeded deals both
times, the learner at seat 0, sampling its policy and playing its most likely legal
action). docs/rl.md quotes a run.

Why an adapter: SB3 has its own vector-env interface (``VecEnv``: ``step_async`` /
``step_wait``, a list of info dicts, resets in the same step with the last observation in
``info["terminal_observation"]``). ``FlamecraftVectorEnv(autoreset_mode="SameStep")`` resets
the same way (Gymnasium's SAME_STEP), so the adapter only renames; MaskablePPO reads the
masks through ``env_method("action_masks")``.

    python examples/train_maskable_ppo.py --envs 16 --steps 150000
    python examples/train_maskable_ppo.py --steps 100000 --generations 2   # then self-play
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from flamecraft.ai.tournament import wilson
from flamecraft.research.gym_single import PolicyOpponent
from flamecraft.research.vector import FlamecraftVectorEnv


def _require_sb3() -> Any:
    try:
        import sb3_contrib
        from stable_baselines3.common import vec_env
    except ImportError:
        print("this example needs the train extra (sb3-contrib, Stable-Baselines3, PyTorch): "
              "pip install -c constraints.txt -e '.[rl,train]'", file=sys.stderr)
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


def evaluate(model: Any, games: int, deterministic: bool, envs: int = 16,
             seed: int = 12345) -> tuple[int, int]:
    """(wins, games) of the learner (seat 0) against the random bot over the first ``games``
    games to finish, from the same seeded deals every time it is called; the learner plays
    its most likely legal action (``deterministic``) or samples its policy. A win is reward
    +1 (a shared win counts); a cut game is not a win."""
    env = FlamecraftVectorEnv(envs, players=2, opponents="random")
    obs, _ = env.reset(seed=seed)
    wins = done = 0
    while done < games:
        actions, _ = model.predict(obs["observation"], action_masks=env.action_masks(),
                                   deterministic=deterministic)
        obs, rewards, terminated, truncated, _ = env.step(np.asarray(actions, np.int64))
        for i in np.flatnonzero(terminated | truncated):
            if done < games:
                wins += int(rewards[i] > 0)
                done += 1
    return wins, done


def report(label: str, model: Any, games: int) -> str:
    """The win rates against random, sampled and most likely action, with Wilson
    intervals."""
    parts = []
    for how, deterministic in (("sampled", False), ("most likely", True)):
        wins, n = evaluate(model, games, deterministic)
        low, high = wilson(wins, n)
        parts.append(f"{how} {wins}/{n} = {wins / n:.1%} (95% Wilson {low:.1%}-{high:.1%})")
    return f"{label}: won against random: " + "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=16, help="games stepped together")
    parser.add_argument("--steps", type=int, default=150_000,
                        help="learner steps against random (then per self-play generation)")
    parser.add_argument("--games", type=int, default=400, help="evaluation games")
    parser.add_argument("--generations", type=int, default=0,
                        help="self-play generations after training against random")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    sb3_contrib, vec_env = _require_sb3()
    import torch

    torch.set_num_threads(1)  # one core: the environment and the network take turns
    env = make_vec_env(args.envs, vec_env, players=2, opponents="random")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=1024,
                                    verbose=0, seed=args.seed)
    print(report("untrained", model, args.games), flush=True)
    began = time.perf_counter()
    model.learn(args.steps)
    spent = time.perf_counter() - began
    print(report(f"after {args.steps:,} steps against random ({spent:.0f} s, "
                 f"{args.steps / spent:,.0f} steps/s with the updates)", model, args.games),
          flush=True)
    for generation in range(args.generations):  # self-play against a frozen past self
        env.vector.set_opponent(1, PolicyOpponent(Snapshot(model), f"gen{generation}"))
        model.learn(args.steps, reset_num_timesteps=False)
        print(report(f"self-play generation {generation + 1}", model, args.games), flush=True)
    print(f"MaskablePPO (sb3-contrib), {args.envs} games in a FlamecraftVectorEnv, seed "
          f"{args.seed}; torch {torch.__version__}, 1 thread")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
