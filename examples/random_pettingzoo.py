"""A random game through the PettingZoo AEC environment: the loop every PettingZoo user writes.

Each agent picks uniformly among the legal actions of its observation's mask; rewards arrive
when the game ends.

    python examples/random_pettingzoo.py --players 4 --seed 7
"""

from __future__ import annotations

import argparse

import numpy as np

from flamecraft.research import flamecraft_v2


def play(players: int, seed: int, reward: str = "win") -> dict[str, float]:
    """Plays one game; returns each agent's total reward."""
    env = flamecraft_v2.env(players=players, reward=reward)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        observation, reward_now, terminated, truncated, _info = env.last()
        totals[agent] += reward_now
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            steps += 1
        env.step(action)
    env.close()
    print(f"{players} players, seed {seed}: {steps} decisions; rewards ({reward}): "
          + ", ".join(f"{agent} {value:+.0f}" for agent, value in totals.items()))
    return totals


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reward", choices=["win", "margin"], default="margin")
    args = parser.parse_args(argv)
    play(args.players, args.seed, args.reward)


if __name__ == "__main__":
    main()
