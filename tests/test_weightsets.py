"""Tuned weights: the shipped set loads with its provenance, bots take it by name or knob by
knob, a bot with it stays legal at 1–5 players, and its choice depends only on what its seat
sees (with the leaky-seat control)."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from importlib import resources

import pytest

from flamecraft import GameState, apply_in_place, legal_actions, start, to_act
from flamecraft.ai import GreedyBot, ISMCTSBot, PlannerBot, Seat, make_bot
from flamecraft.ai.evaluate import DEFAULT, Weights
from flamecraft.ai.interface import Bot
from flamecraft.ai.tournament import GameSpec, play_game
from flamecraft.ai.weightsets import KNOBS, named, names, resolve, with_knobs
from flamecraft.core.hidden import determinize
from helpers import LeakySeat, play_checked


def _shipped() -> dict[str, object]:
    raw = resources.files("flamecraft.data").joinpath("weights.json").read_text("utf-8")
    data: dict[str, object] = json.loads(raw)
    return data


def test_the_tuned_weights_load_with_their_provenance() -> None:
    """data/weights.json names the tuned set with the command that made it, its games and
    date; ``named("tuned")`` gives exactly those numbers, and they are not the defaults."""
    entry = _shipped()["sets"]["tuned"]  # type: ignore[index]
    assert entry["command"].startswith("python scripts/tune_weights.py")
    assert entry["games"] > 0 and entry["date"]
    tuned = named("tuned")
    assert isinstance(tuned, Weights)
    assert dataclasses.asdict(tuned) == {k: float(entry["weights"][k]) for k in KNOBS}
    assert tuned != DEFAULT
    assert named("default") is DEFAULT
    assert names() == ["default", "tuned"]


def test_bots_take_weights_by_name_and_knob_by_knob() -> None:
    """``planner:weights=tuned`` and ``planner:good=0.5`` (as a tournament spec gives them)."""
    bot = make_bot("planner", weights="tuned", beam=3)
    assert isinstance(bot, PlannerBot) and bot.weights == named("tuned") and bot.beam == 3
    bot = make_bot("ismcts", weights="tuned", good=0.5, iterations=3)
    assert isinstance(bot, ISMCTSBot)
    assert bot.weights == dataclasses.replace(named("tuned"), good=0.5)
    bot = make_bot("greedy", dragon=2)
    assert isinstance(bot, GreedyBot) and bot.weights == dataclasses.replace(DEFAULT, dragon=2.0)
    assert resolve({"beam": 3}) == {"beam": 3}
    spec = GameSpec(0, 5, ("planner:weights=tuned:beam=2:samples=1", "greedy:good=0.1"))
    assert sorted(play_game(spec).scores) != [0, 0]


def test_an_isolated_bot_gets_its_weights_in_its_own_process() -> None:
    """``planner:weights=tuned:isolated=true``: the bot's process builds the weights from
    their name (a compiled ``Weights`` does not survive pickling) and plays as the bot does
    in-process."""
    s = _position(2, 4, 30)
    p = to_act(s)
    for options in ({"weights": "tuned"}, {"good": 0.9, "dragon": 0.5}):
        isolated = make_bot("planner", isolated=True, beam=2, samples=1, **options)
        in_process = make_bot("planner", beam=2, samples=1, **options)
        assert isinstance(isolated, Bot) and isinstance(in_process, Bot)
        assert (isolated.choose(Seat(s, p), random.Random(3))
                == in_process.choose(Seat(s, p), random.Random(3)))


def test_bad_weights_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"unknown weights 'wizard' \(known: default, tuned\)"):
        make_bot("planner", weights="wizard")
    with pytest.raises(ValueError, match="unknown weight 'goods'"):
        with_knobs(DEFAULT, {"goods": 1.0})
    with pytest.raises(ValueError, match="weight good must be a number"):
        make_bot("planner", good="lots")
    with pytest.raises(ValueError, match="weights must be a name"):
        resolve({"weights": 3, "good": 1.0})


def _tuned(name: str) -> Bot:
    """The bots with the tuned weights, at tiny budgets (legality, not strength)."""
    w = named("tuned")
    makers: dict[str, Callable[[], Bot]] = {
        "planner": lambda: PlannerBot(beam=2, samples=1, depth=3, weights=w),
        "greedy": lambda: GreedyBot(weights=w),
        "ismcts": lambda: ISMCTSBot(iterations=2, seconds=None, pool=2, beam=1, depth=2,
                                    weights=w),
    }
    return makers[name]()


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_bots_with_tuned_weights_stay_legal(players: int) -> None:
    """Every decision of a whole game (setup to the end), at 1–5 players, is one of the legal
    actions; one decision in two is random so the test sees many kinds of position."""
    s = start(players, 40 + players)
    bots = [_tuned(("planner", "ismcts", "greedy")[p % 3]) for p in range(players)]
    decisions = play_checked(s, bots, random.Random(players), every=2)
    assert s.over and decisions > 20


def _position(players: int, seed: int, moves: int) -> GameState:
    s = start(players, seed)
    rng = random.Random(seed)
    greedy = GreedyBot()
    for _ in range(moves):
        apply_in_place(s, greedy.choose(Seat(s, to_act(s)), rng))
    return s


POSITIONS = [(2, 3, 40), (3, 5, 70), (4, 8, 90), (5, 2, 55)]


@pytest.mark.parametrize("name", ["planner", "ismcts"])
def test_a_tuned_bot_ignores_cards_its_seat_cannot_see(name: str) -> None:
    """Re-dealing what the seat cannot see (``hidden.determinize``: other hands and Fancy
    Dragons, deck orders, face-down Shops) leaves the tuned bot's choice unchanged under the
    same seed."""
    for players, seed, moves in POSITIONS:
        s = _position(players, seed, moves)
        p = to_act(s)
        first = _tuned(name).choose(Seat(s, p), random.Random(7))
        for k in (1, 2):
            other = determinize(s, p, 500 + k)
            assert other != s
            assert _tuned(name).choose(Seat(other, p), random.Random(7)) == first


def test_the_tuned_bot_oracle_catches_a_leaky_seat() -> None:
    """Control: the same bot handed the true state (``LeakySeat``) does change its choice
    when the hidden cards change, in some positions, so equal choices above mean something."""
    changed = 0
    for seed in range(12):
        s = _position(3, seed, 30 + seed)
        while len(legal_actions(s)) == 1:  # a lone decision (an `end turn`, asked every turn
            apply_in_place(s, legal_actions(s)[0])  # by ruling 20) has no choice to change
        p = to_act(s)
        bot = PlannerBot(beam=3, samples=1, depth=6, weights=named("tuned"))
        truth = bot.choose(LeakySeat(s, p), random.Random(7))
        for k in (1, 2):
            other = determinize(s, p, 500 + k)
            changed += bot.choose(LeakySeat(other, p), random.Random(7)) != truth
    assert changed > 0
