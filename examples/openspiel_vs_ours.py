"""OpenSpiel's IS-MCTS bot against one of our bots, on the registered python_flamecraft game.

The OpenSpiel side searches with Information-Set MCTS (random rollouts), which re-deals the
cards it cannot see at every simulation (``resample_from_infostate``). Our side is a bot from
``flamecraft.ai.roster`` that reads the engine state of its own seat, mapped to OpenSpiel's action
indices through the shared catalogue.

    python examples/openspiel_vs_ours.py --games 2 --simulations 10   # about a minute
"""

from __future__ import annotations

import argparse
import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from flamecraft.ai.roster import random_action
from flamecraft.research.encoding import catalogue
from flamecraft.research.openspiel_game import deal_seed  # importing registers python_flamecraft


def play(seed: int, simulations: int, ismcts_seat: int = 0) -> list[float]:
    """One 2-player game (deal ``seed``): IS-MCTS in ``ismcts_seat``, our random bot in the
    other seat. Returns the returns (+1 win, -1 loss)."""
    game = pyspiel.load_game("python_flamecraft", {"players": 2})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1,
                                            random_state=np.random.RandomState(seed))
    # IS-MCTS spends its first simulation expanding the root: it needs at least 2.
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=max(2, simulations),
                           random_state=np.random.RandomState(seed + 1))
    ours = random.Random(seed)
    cat = catalogue(2)
    state = deal_seed(game.new_initial_state(), seed)  # the chance nodes of deal ``seed``
    while not state.is_terminal():
        if state.current_player() == ismcts_seat:
            action = bot.step(state)
        else:
            engine_state = state.engine_state
            action = cat.encode(engine_state, random_action(engine_state, ours))
        state.apply_action(action)
    returns: list[float] = state.returns()
    return returns


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=10,
                        help="IS-MCTS budget per move (at least 2)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    wins = 0
    for game in range(args.games):
        seat = game % 2
        returns = play(args.seed + game, args.simulations, ismcts_seat=seat)
        wins += returns[seat] > 0
        print(f"game {game + 1}: IS-MCTS in seat {seat + 1}, returns {returns}", flush=True)
    print(f"IS-MCTS ({args.simulations} simulations a move) won {wins} of {args.games} "
          "against the random bot")


if __name__ == "__main__":
    main()
