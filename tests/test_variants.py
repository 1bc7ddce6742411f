"""Research variants (core/variant.py): parameters that shrink the game for tabular methods.
They must leave the normal game alone (its play, options and saves), refuse bad parameters
by name, deal and play soundly, and make a game OpenSpiel's full-tree CFR can walk."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from flamecraft.core.engine import apply_in_place, legal_actions, start
from flamecraft.core.errors import FlamecraftError, StateFormatError
from flamecraft.core.invariants import problems
from flamecraft.core.rng import seed_state
from flamecraft.core.serialize import (
    GameRecord,
    dump_record,
    dump_state,
    load_record,
    load_state,
    options_from_json,
    options_to_json,
)
from flamecraft.core.setup_game import DealBuilder, draw_deal, new_game, outcomes_of
from flamecraft.core.state import RULES, GameState, Options, Variant
from flamecraft.core.variant import VARIANTS, check_variant, variant_name, variant_of

TINY = VARIANTS["tiny"]


def _play(s: GameState, seed: int, limit: int = 5000) -> int:
    rng = random.Random(seed)
    steps = 0
    while not s.over and steps < limit:
        apply_in_place(s, rng.choice(legal_actions(s)))
        steps += 1
        assert problems(s) == []
    return steps


def test_the_rules_variant_is_the_normal_game() -> None:
    """The default variant is every rules number, a normal game's options are written with
    exactly the keys they had before variants existed, and the same seed plays the same game
    with or without the variant named."""
    assert Options(2).variant == RULES == Variant() == variant_of("") == variant_of("rules")
    assert set(options_to_json(Options(3))) == {"players", "deck", "names", "companions",
                                                "first_player"}
    a = start(3, 11)
    b = start(3, 11, variant=variant_of("rules"))
    rng_a, rng_b = random.Random(1), random.Random(1)
    while not a.over:
        move = rng_a.choice(legal_actions(a))
        assert move == rng_b.choice(legal_actions(b))
        apply_in_place(a, move)
        apply_in_place(b, move)
    assert dump_state(a) == dump_state(b)
    assert "variant" not in dump_state(a)


def test_a_normal_save_loads_unchanged() -> None:
    """A normal game's save (state and record) reads back to the same text: no variant key is
    added, none is needed."""
    s = start(2, 5)
    _play(s, 5, limit=60)
    text = dump_state(s)
    assert dump_state(load_state(text)) == text
    assert load_state(text).options.variant == RULES
    record = GameRecord(Options(2), 5, [])
    assert dump_record(load_record(dump_record(record))) == dump_record(record)
    assert "variant" not in dump_record(record)


@pytest.mark.parametrize(("spec", "words"), [
    ("huge", ["unknown variant 'huge'", "tiny"]),
    ("turns=2,colour=3", ["unknown variant parameter 'colour'", "turns"]),
    ("hand=7", ["variant parameter hand must be 0–3, not 7"]),
    ("turns=-1", ["variant parameter turns must be 0–200, not -1"]),
    ("park=two", ["variant parameter park must be a whole number, not 'two'"]),
    ("hand=1,tiny", ["a variant's name comes first"]),
    ({"fancies": 37}, ["variant parameter fancies must be 0–36, not 37"]),
    ({"row": True}, ["variant parameter row must be a whole number, not True"]),
    ({"stars": 1}, ["unknown variant parameter 'stars'"]),
    (3, ["a variant is a name, a spec string or a mapping, not 3"]),
])
def test_bad_variants_are_refused_by_name(spec: object, words: list[str]) -> None:
    with pytest.raises(FlamecraftError) as caught:
        variant_of(spec)
    for word in words:
        assert word in str(caught.value)


def test_a_variant_that_cannot_deal_is_refused() -> None:
    too_few = variant_of("artisans=4,hand=3")
    with pytest.raises(FlamecraftError, match="4 Artisan Dragons cannot deal 2 hands of 3"):
        start(2, 1, variant=too_few)
    with pytest.raises(FlamecraftError, match="hand must be 0–3"):
        check_variant(Variant(hand=9))


def test_spec_strings_read_back() -> None:
    assert variant_of("tiny,turns=4") == Variant(**{**{k: getattr(TINY, k) for k in (
        "starters", "shop_deck", "artisans", "hand", "park", "row", "fancies",
        "enchantments")}, "turns": 4})
    for variant in (*VARIANTS.values(), variant_of("tiny,turns=3"), variant_of("hand=2")):
        assert variant_of(variant_name(variant)) == variant


@pytest.mark.parametrize("name", ["tiny", "small"])
@pytest.mark.parametrize("players", [1, 2, 3])
def test_variant_games_are_sound_and_short(name: str, players: int) -> None:
    """Random games of a variant keep every card in one place (of the variant's cards), deal
    the variant's sizes, and end at its turn limit at the latest."""
    variant = VARIANTS[name]
    for seed in range(6):
        s = start(players, seed, variant=variant)
        assert len(s.hand[0]) == variant.hand
        assert len(s.park) == variant.park
        assert len([t for t in s.town if t >= 0]) == variant.starters
        assert len(s.fancy_deck) + sum(len(f) for f in s.fancy) == variant.fancies
        assert not s.shop_deck
        _play(s, seed)
        assert s.over and s.turn <= variant.turns


def test_a_variant_game_saves_and_loads() -> None:
    """A variant's options are written (by their differences from the rules) and read back,
    so its saves and records replay; a bad variant in a save is refused as a format error."""
    s = start(2, 3, variant=TINY)
    _play(s, 3, limit=4)
    text = dump_state(s)
    assert json.loads(text)["options"]["variant"]["turns"] == 2
    assert load_state(text) == s
    assert options_from_json(options_to_json(s.options)) == s.options
    with pytest.raises(StateFormatError, match="unknown variant parameter 'x'"):
        options_from_json({"players": 2, "variant": {"x": 1}})
    with pytest.raises(StateFormatError, match="'variant' must be an object"):
        options_from_json({"players": 2, "variant": "tiny"})


def test_a_variant_deal_is_a_chance_history() -> None:
    """The builder draws a variant's deal as the seed does: the same game either way (the
    OpenSpiel game's chance nodes are these draws)."""
    options = Options(2, variant=TINY)
    for seed in range(5):
        s = new_game(options, seed)
        deal, _ = draw_deal(options, seed_state(seed))
        builder = DealBuilder(options)
        for outcome in outcomes_of(options, deal, s.first_player):
            builder.draw(outcome)
        t = builder.game()
        t.rng = s.rng
        assert dump_state(t) == dump_state(s)
    # Four Artisan Dragons in order (24 paths), two Enchantments (2), the first player (2).
    builder, paths = DealBuilder(options), 1
    while not builder.done:
        paths *= len(builder.outcomes())
        builder.draw(builder.outcomes()[0])
    assert paths == 24 * 2 * 2


# --- OpenSpiel ---------------------------------------------------------------------------------

pyspiel = pytest.importorskip("pyspiel")


# Three dragons (one in each hand, one in the deck: the other hand is hidden) and one
# Enchantment: 16 chance nodes, 892 decisions in 744 information states.
SMALLEST = "tiny,artisans=3,park=0,enchantments=1,row=1"


def _game(variant: str = SMALLEST, reward: str = "margin") -> Any:
    import flamecraft.research.openspiel_game  # noqa: F401  (registers the game)

    return pyspiel.load_game("python_flamecraft", {"players": 2, "variant": variant,
                                                   "first_player": 0, "reward": reward})


def test_the_openspiel_game_takes_a_variant() -> None:
    game = _game("tiny")
    assert game.variant == TINY
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert _game("tiny", "win").get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert _game("").variant == RULES
    with pytest.raises(ValueError, match="unknown variant parameter 'speed'"):
        _game("speed=3")
    with pytest.raises(ValueError, match="cannot deal 2 hands"):
        _game("tiny,artisans=2")
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.engine_state.turn == 2
    assert sum(state.returns()) == 0
    copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(copy[1]) == str(state)


def test_cfr_runs_on_a_tiny_variant() -> None:
    """A few iterations of OpenSpiel's full-tree CFR, and exploitability, complete: the CFR
    average policy is less exploitable than the uniform one, and the project's bots are
    measured as policies (a choice per information state)."""
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import cfr, exploitability

    from flamecraft.research.openspiel_game import BotPolicy

    game = _game()
    solver = cfr.CFRSolver(game)
    for _ in range(3):
        solver.evaluate_and_update_policy()
    learned = exploitability.exploitability(game, solver.average_policy())
    uniform = exploitability.exploitability(game, policy_lib.UniformRandomPolicy(game))
    assert 0 <= learned < uniform
    greedy = BotPolicy(game, "greedy")
    assert exploitability.exploitability(game, greedy) >= 0
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    first = greedy.action_probabilities(state)
    assert sorted(first) == state.legal_actions() and sorted(first.values())[-1] == 1.0
    assert greedy.action_probabilities(state.clone()) == first


def test_the_pettingzoo_env_takes_a_variant() -> None:
    """A variant reaches PettingZoo too, and the env still passes PettingZoo's api_test."""
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from flamecraft.envs import flamecraft_v2

    env = flamecraft_v2.env(players=2, variant="tiny", seed=1)
    api_test(env, num_cycles=20)
    env.reset(seed=2)
    assert env.unwrapped.game.options.variant == TINY
    with pytest.raises(FlamecraftError, match="unknown variant 'nope'"):
        flamecraft_v2.raw_env(variant="nope")
