"""Train a small learning agent on the Gymnasium wrapper and watch its win rate rise.

The agent is a linear softmax policy over the legal actions only (the mask), trained with
REINFORCE and a running-average baseline, in numpy alone. Its logits are a bias per action
index plus a linear function of the observation; both the observation (mostly zeros) and the
legal actions (a few dozen of ~1,400) are sparse, so one decision costs a small slice of the
weight matrix. It learns from the Reputation margin at the end of each game and is measured
by its win rate against the random bot before and after training.

    python examples/train_reinforce.py                   # about a minute on one core
    python examples/train_reinforce.py --episodes 300 --eval 100
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from flamecraft.research.encoding import layout
from flamecraft.research.gym_single import FlamecraftSingleEnv


class LinearSoftmaxPolicy:
    """logits[a] = kind[block(a)] + bias[a] + obs · weights[:, a], softmax over the legal
    actions. ``kind`` is one number per catalogue block (place, skip, enchant, …): what it
    learns there ("placing beats not placing") carries over every Shop and slot at once."""

    def __init__(self, env: FlamecraftSingleEnv, seed: int):
        obs_size = layout(env.players).size
        num_actions = env.catalogue.size
        self.rng = np.random.default_rng(seed)
        self.block = np.zeros(num_actions, int)
        for number, section in enumerate(env.catalogue.sections):
            self.block[section.start:section.start + section.size] = number
        self.kind = np.zeros(len(env.catalogue.sections))
        self.bias = np.zeros(num_actions)
        self.weights = np.zeros((obs_size, num_actions))

    def probabilities(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        active = np.flatnonzero(obs)
        logits = (self.kind[self.block[legal]] + self.bias[legal]
                  + obs[active] @ self.weights[np.ix_(active, legal)])
        logits -= logits.max()
        p: np.ndarray = np.exp(logits)
        p /= p.sum()
        return p

    def act(self, obs: dict[str, np.ndarray]) -> tuple[int, np.ndarray, np.ndarray]:
        """A sampled legal action, the legal indices, and p - onehot(choice)."""
        legal = np.flatnonzero(obs["action_mask"])
        p = self.probabilities(obs["observation"], legal)
        choice = int(self.rng.choice(len(legal), p=p))
        return int(legal[choice]), legal, p - np.eye(len(legal))[choice]

    def update(self, steps: list[tuple[np.ndarray, np.ndarray, np.ndarray]], advantage: float,
               lr: float) -> None:
        """REINFORCE: raise the log-probability of each action taken by lr * advantage."""
        for x, legal, minus_grad in steps:
            active = np.flatnonzero(x)
            step = -lr * advantage * minus_grad  # d log p(a) / d logits = onehot(a) - p
            np.add.at(self.kind, self.block[legal], step)
            self.bias[legal] += step
            self.weights[np.ix_(active, legal)] += np.outer(x[active], step)


def win_rate(env: FlamecraftSingleEnv, policy: LinearSoftmaxPolicy, games: int,
             seed: int) -> float:
    """Share of games the policy wins (a shared win counts) against the env's bots, on the
    same deals (seeds) every time it is measured."""
    wins = 0
    for game in range(games):
        obs, _ = env.reset(seed=seed + game)
        done = False
        reward = 0.0
        while not done:
            action, _, _ = policy.act(obs)
            obs, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated  # a game cut at max_cycles scores 0
        wins += reward > 0
    return wins / games


def train(episodes: int, evaluation: int, players: int, lr: float, seed: int,
          quiet: bool = False) -> tuple[float, float]:
    """Trains from scratch; returns the win rate before and after."""
    env = FlamecraftSingleEnv(players=players, seat=0, opponents="random", reward="margin")
    eval_env = FlamecraftSingleEnv(players=players, seat=0, opponents="random", reward="win")
    policy = LinearSoftmaxPolicy(env, seed)
    before = win_rate(eval_env, policy, evaluation, seed=10_000)
    baseline, spread = 0.0, 10.0
    started = time.perf_counter()
    for episode in range(episodes):
        obs, _ = env.reset(seed=seed + episode)
        steps = []
        done = False
        margin = 0.0
        while not done:
            action, legal, minus_grad = policy.act(obs)
            steps.append((obs["observation"].astype(np.float64), legal, minus_grad))
            obs, margin, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        baseline += 0.05 * (margin - baseline)
        spread += 0.05 * (abs(margin - baseline) - spread)
        policy.update(steps, (margin - baseline) / max(spread, 1.0), lr)
        if not quiet and (episode + 1) % max(1, episodes // 10) == 0:
            print(f"episode {episode + 1:5d}  margin {margin:+5.0f}  average margin "
                  f"{baseline:+6.1f}  {time.perf_counter() - started:6.1f}s", flush=True)
    after = win_rate(eval_env, policy, evaluation, seed=10_000)
    return before, after


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=600)
    parser.add_argument("--eval", type=int, default=200, help="games per win-rate estimate")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--lr", type=float, default=0.002)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    before, after = train(args.episodes, args.eval, args.players, args.lr, args.seed)
    print(f"win rate against random: {before:.0%} untrained -> {after:.0%} after "
          f"{args.episodes} training games ({args.eval} games each)")


if __name__ == "__main__":
    main()
