"""One of the project's bots against OpenSpiel's own search bots, through ``pyspiel.evaluate_bots``.

Why: a win rate against the project's own bots says little about strength in general; OpenSpiel's
MCTS (which searches the true state it is handed: it cheats, our bot does not) and its
Information-Set MCTS (which re-deals what it cannot see, ``resample_from_infostate``) are
outside references anyone can rerun. Both value a leaf by random rollouts to the end of the
game (OpenSpiel's ``RandomRolloutEvaluator``), at the budget given here in simulations a move.

Each deal (``--seed`` + deal, dealt by ``openspiel_game.deal_seed``: the game
``flamecraft.start(2, seed)`` sets up) is played twice, the seats swapped, so the luck of the
deal and of the first seat cancels. OpenSpiel's ``evaluate_bots`` plays each game; a win counts
1, a shared win a half. It prints each game, then our bot's win rate with its 95% Wilson
interval, the mean margin where the game's reward is the margin, and both sides' mean seconds a
decision.

    python scripts/openspiel_match.py --opponent mcts --simulations 20 --deals 5
    python scripts/openspiel_match.py --opponent ismcts --simulations 20 --deals 3 --bot expert
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from flamecraft.ai import make_play_bot, parse_bot_spec
from flamecraft.ai.roster import LEVEL_OF
from flamecraft.ai.tournament import wilson
from flamecraft.research.openspiel_game import FlamecraftBot, deal_seed


class Timed(pyspiel.Bot):  # type: ignore[misc]
    """A bot that counts its decisions and the seconds they took (``evaluate_bots`` calls
    ``step``, ``restart_at`` and ``inform_action``, passed through)."""

    def __init__(self, inner: Any) -> None:
        pyspiel.Bot.__init__(self)
        self.inner = inner
        self.seconds = 0.0
        self.decisions = 0

    def step(self, state: Any) -> int:
        began = time.perf_counter()
        action: int = self.inner.step(state)
        self.seconds += time.perf_counter() - began
        self.decisions += 1
        return action

    def restart_at(self, state: Any) -> None:
        # OpenSpiel's Python IS-MCTS keeps nothing between games and does not implement it.
        if type(self.inner).restart_at is not pyspiel.Bot.restart_at:
            self.inner.restart_at(state)

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        self.inner.inform_action(state, player_id, action)

    def provides_policy(self) -> bool:
        return False

    def is_clonable(self) -> bool:
        return False


def our_bot(game: Any, seat: int, spec: str, seed: int) -> FlamecraftBot:
    """A level by its id (``expert``) or a bot spec (``planner:weights=tuned``)."""
    level = LEVEL_OF.get(spec)
    if level is not None:
        bot = make_play_bot(level.bot, **level.options)
    else:
        name, options = parse_bot_spec(spec)
        bot = make_play_bot(name, **options)
    return FlamecraftBot(game, seat, bot, seed=seed)


def their_bot(game: Any, kind: str, simulations: int, rollouts: int, seed: int) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts,
                                            random_state=np.random.RandomState(seed))
    if kind == "mcts":
        return mcts.MCTSBot(game, 2.0, simulations, evaluator,
                            random_state=np.random.RandomState(seed + 1), solve=False)
    # IS-MCTS spends its first simulation expanding the root: it needs at least 2.
    return ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=max(2, simulations),
                            random_state=np.random.RandomState(seed + 1))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bot", default="expert", help="a level (expert …) or a bot spec")
    p.add_argument("--opponent", choices=("mcts", "ismcts"), default="mcts")
    p.add_argument("--simulations", type=int, default=20, help="OpenSpiel's budget a move")
    p.add_argument("--rollouts", type=int, default=1, help="random rollouts per leaf")
    p.add_argument("--deals", type=int, default=5, help="each played from both seats")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--reward", choices=("win", "margin"), default="margin")
    args = p.parse_args(argv)
    game = pyspiel.load_game("python_flamecraft", {"players": 2, "reward": args.reward})
    began = time.perf_counter()
    score, margin, games = 0.0, 0.0, 0
    mine, theirs = [0.0, 0], [0.0, 0]
    print(f"{args.bot} against OpenSpiel's {args.opponent} ({args.simulations} simulations a "
          f"move, {args.rollouts} random rollout(s) a leaf), {args.deals} deals × 2 seatings, "
          f"seed {args.seed}", flush=True)
    for deal in range(args.deals):
        for seat in (0, 1):
            seed = args.seed + deal
            ours = Timed(our_bot(game, seat, args.bot, seed))
            other = Timed(their_bot(game, args.opponent, args.simulations, args.rollouts,
                                    1000 * seed + seat))
            bots = [ours, other] if seat == 0 else [other, ours]
            state = deal_seed(game.new_initial_state(), seed)
            returns = pyspiel.evaluate_bots(state, bots, seed)
            games += 1
            mine_r, their_r = returns[seat], returns[1 - seat]
            won = 1.0 if mine_r > their_r else 0.5 if mine_r == their_r else 0.0
            score += won
            margin += mine_r  # margin: our lead (zero-sum); win: our return (−1 … 1)
            mine[0] += ours.seconds
            mine[1] += ours.decisions
            theirs[0] += other.seconds
            theirs[1] += other.decisions
            print(f"deal {deal}, ours in seat {seat + 1}: returns {list(returns)}, "
                  f"{'won' if won == 1 else 'shared' if won else 'lost'} "
                  f"({time.perf_counter() - began:.0f} s)", flush=True)
    low, high = wilson(score, games)
    print(f"{args.bot}: {score:g}/{games} = {score / games:.1%} (95% Wilson {low:.1%}–"
          f"{high:.1%}) against {args.opponent} at {args.simulations} simulations; mean "
          f"{'margin' if args.reward == 'margin' else 'return'} "
          f"{margin / games:+.2f}")
    print(f"seconds a decision: ours {mine[0] / max(1, mine[1]):.3f} ({mine[1]} decisions), "
          f"{args.opponent} {theirs[0] / max(1, theirs[1]):.3f} ({theirs[1]}); "
          f"elapsed {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
