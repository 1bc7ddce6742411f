"""The project's bots as ``pyspiel.Bot``s (``openspiel_game.FlamecraftBot``, docs/rl.md)."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

from flamecraft import legal_actions
from flamecraft.ai import ProcessBot, RandomBot, Seat
from flamecraft.core.actions import Action
from flamecraft.research.encoding import catalogue
from flamecraft.research.openspiel_game import FlamecraftBot, deal_seed
from spybot import GcSpy


def _game(players: int = 2) -> pyspiel.Game:
    return pyspiel.load_game("python_flamecraft", {"players": players})


class Recorder:
    """A random bot that writes down what it is handed."""

    name = "recorder"

    def __init__(self) -> None:
        self.seen: list[tuple[type, int]] = []

    def choose(self, seat: Seat, rng: random.Random) -> Action:
        self.seen.append((type(seat), seat.seat))
        return RandomBot().choose(seat, rng)


def _mcts(game: pyspiel.Game, seed: int) -> mcts.MCTSBot:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1,
                                            random_state=np.random.RandomState(seed))
    return mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=evaluator,
                        random_state=np.random.RandomState(seed + 1))


def test_evaluate_bots_plays_the_planner_against_openspiels_mcts() -> None:
    """OpenSpiel's own game loop (``evaluate_bots``: chance sampled by its seed) plays one
    whole game of our planner in seat 1 against OpenSpiel's MCTS bot (random rollouts, two
    simulations a move) in seat 2, and again the same from the same seeds."""
    game = _game()
    results = []
    for _ in range(2):
        state = game.new_initial_state()
        planner = FlamecraftBot(game, 0, "planner", seed=3, beam=2, samples=1, depth=3)
        returns = pyspiel.evaluate_bots(state, [planner, _mcts(game, 0)], 5)
        results.append((returns, state.history()))
        assert state.is_terminal() and returns == state.returns()
        assert sorted(returns) in ([-1.0, 1.0], [1.0, 1.0])
        assert len(state.history()) > 200
    assert results[0] == results[1]


def test_each_bot_is_handed_its_seat_only() -> None:
    """At every decision of its player, and only then, the project's bot gets a ``Seat`` of
    that player (what the seat may know), never the state."""
    game = _game(3)
    recorders = [Recorder() for _ in range(3)]
    bots = [FlamecraftBot(game, p, recorders[p], seed=p) for p in range(3)]
    state = game.new_initial_state()
    pyspiel.evaluate_bots(state, bots, 1)
    decisions = [0, 0, 0]
    replay = game.new_initial_state()
    for action in state.history():
        if not replay.is_chance_node():
            decisions[replay.current_player()] += 1
        replay.apply_action(action)
    for p, recorder in enumerate(recorders):
        assert recorder.seen == [(Seat, p)] * decisions[p] and decisions[p] > 20


def test_an_isolated_bot_never_receives_the_true_state(tmp_path: Path) -> None:
    """Through ``ProcessBot`` the bot's process gets sealed seats only: a spy there that
    walks all its memory finds no Artisan deck and no other hand as they truly are."""
    report = tmp_path / "found.json"
    spy = ProcessBot(functools.partial(GcSpy, str(report)), name="gc-spy")
    try:
        game = _game(3)
        state = deal_seed(game.new_initial_state(), 4)
        rng = random.Random(4)
        while state.current_player() != 1:
            state.apply_action(rng.choice(state.legal_actions()))
        bot = FlamecraftBot(game, 1, spy)
        s = state.engine_state
        assert bot.step(state) == catalogue(3).encode(s, legal_actions(s)[0])  # the spy's
    finally:
        spy.close()
    found = json.loads(report.read_text())
    assert found and all(f["deck"] != s.artisan_deck for f in found)
    assert all([f["hands"][q] for q in (0, 2)] != [s.hand[q] for q in (0, 2)] for f in found)


def test_an_isolated_bot_by_name_plays_in_its_process_until_closed() -> None:
    """``isolated=True`` plays as the bot does in-process (same seed, same choice), and
    ``close`` ends its process."""
    game = _game()
    state = deal_seed(game.new_initial_state(), 3)
    while len(state.legal_actions()) < 3:
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    isolated = FlamecraftBot(game, player, "greedy", seed=4, isolated=True)
    try:
        assert isinstance(isolated.bot, ProcessBot)
        assert isolated.step(state) == FlamecraftBot(game, player, "greedy", seed=4).step(state)
    finally:
        isolated.close()
    with pytest.raises(RuntimeError, match="its process has ended"):
        isolated.step(state)


def test_a_bot_is_seeded_and_restarts() -> None:
    """Same seed, same choices; ``restart`` and ``restart_at`` renew the generator."""
    game = _game()
    state = deal_seed(game.new_initial_state(), 2)
    while len(state.legal_actions()) < 3:
        state.apply_action(state.legal_actions()[0])
    bot = FlamecraftBot(game, state.current_player(), "random", seed=9)
    first = [bot.step(state) for _ in range(6)]
    bot.restart()
    assert [bot.step(state) for _ in range(6)] == first
    bot.restart_at(state)
    assert [bot.step(state) for _ in range(6)] == first
    assert len(set(first)) > 1  # the generator moves on between calls
    other = FlamecraftBot(game, state.current_player(), "random", seed=9)
    assert [other.step(state) for _ in range(6)] == first


def test_bad_bots_and_bad_calls_are_refused() -> None:
    game = _game()
    state = deal_seed(game.new_initial_state(), 2)
    idle = 1 - state.current_player()
    with pytest.raises(pyspiel.SpielError, match=f"plays P{idle + 1}"):
        FlamecraftBot(game, idle, "random").step(state)
    with pytest.raises(ValueError, match="unknown bot"):
        FlamecraftBot(game, 0, "grandmaster")
    with pytest.raises(ValueError, match="a bot given by name"):
        FlamecraftBot(game, 0, RandomBot(), beam=2)
    with pytest.raises(TypeError, match="not a bot"):
        FlamecraftBot(game, 0, object())
    with pytest.raises(ValueError, match="player must be"):
        FlamecraftBot(game, 2, "random")
    with pytest.raises(ValueError, match="reads the true state"):
        FlamecraftBot(game, 0, "cheater")
