"""The OpenSpiel game python_flamecraft (openspiel_game.py, docs/rl.md)."""

from __future__ import annotations

import importlib.util
import json
import pickle
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts

import flamecraft.research.openspiel_game as og
from flamecraft import apply_in_place, legal_actions, start, text, to_act, winners
from flamecraft.core.board import ART_TYPE, CATALOG
from flamecraft.core.frames import D_ARTISAN_LOOK, D_VISIT
from flamecraft.core.goods import MEAT
from flamecraft.core.rng import seed_state
from flamecraft.core.serialize import state_from_json, state_to_json
from flamecraft.core.setup_game import PARK_SIZE, draw_deal, outcomes_of, shop_piles
from flamecraft.research.encoding import catalogue, final_rewards, layout


def _game(players: int, **params: object) -> pyspiel.Game:
    return pyspiel.load_game("python_flamecraft", {"players": players, **params})


def _dealt(game: pyspiel.Game, seed: int) -> pyspiel.State:
    """A state past its chance nodes: the deal of ``seed`` (``openspiel_game.deal_seed``)."""
    return og.deal_seed(game.new_initial_state(), seed)


def _same_game(a: Any, b: Any) -> bool:
    """Two engine states equal but for the generator (a chance deal has no seed)."""
    return bool(json.dumps({**state_to_json(a), "rng": 0}) ==
                json.dumps({**state_to_json(b), "rng": 0}))


@pytest.mark.parametrize(("players", "companions"),
                         [(1, False), (2, False), (3, False), (4, False), (5, False),
                          (1, True), (2, True), (3, True)])
def test_random_sim_test_with_serialization(players: int, companions: bool) -> None:
    """Solo games (design §7) and the Companion module (design §6) included."""
    pyspiel.random_sim_test(_game(players, companions=companions), num_sims=1,
                            serialize=True, verbose=False)


def test_solo_and_companion_parameters() -> None:
    """design §7: a 1-player game is offered (GameInfo allows 1 player) and is one seat
    rewarded against the solo rating; design §6: ``companions`` starts the draft."""
    assert pyspiel.load_game("python_flamecraft").get_type().min_num_players == 1
    for reward in ("win", "margin"):
        game = _game(1, companions=True, reward=reward)
        assert game.num_players() == 1
        assert game.num_distinct_actions() == catalogue(1).size
        assert game.observation_tensor_size() == layout(1).size
        state = _dealt(game, 4)
        s = state.engine_state
        assert s.n == 1 and s.options.companions and s.companion_offer
        _play_random(state, seed=4, steps=15)
        other = _check_resample(state, 0, 0.3)  # only the deck orders are re-dealt
        assert other.engine_state.hand == s.hand and other.engine_state.rep == s.rep
        _play_random(state, seed=4)
        assert state.returns() == final_rewards(state.engine_state, reward)
        assert state.engine_state.companion[0] >= 0


def test_the_game_shows_the_encoding_version() -> None:
    """docs/rl.md, Versions: the version of the catalogue (the actions) and the observation
    is on the game, as on the environments."""
    from flamecraft.research.encoding import ENCODING_VERSION

    assert pyspiel.load_game("python_flamecraft").encoding_version == ENCODING_VERSION
    assert _game(4).encoding_version == ENCODING_VERSION
    assert not _dealt(_game(2), 4).engine_state.options.companions
    with pytest.raises(Exception, match="players"):
        _game(0)


def test_game_parameters_and_sizes() -> None:
    game = _game(3, deck="golden", reward="margin")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == catalogue(3).size
    assert game.observation_tensor_size() == layout(3).size
    assert game.information_state_tensor_size() == og.information_state_size(3)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert "seed" not in game.get_parameters()  # the deal is chance, not a parameter
    state = _dealt(game, 12)
    assert state.engine_state.options.deck == "golden"
    assert _same_game(state.engine_state, start(3, 12, "golden"))
    assert not _same_game(state.engine_state, start(3, 13, "golden"))
    assert (game.min_utility(), game.max_utility()) == (-150.0, 150.0)


def _play_random(state: pyspiel.State, seed: int, steps: int | None = None) -> None:
    rng = random.Random(seed)
    while not state.is_terminal() and (steps is None or steps > 0):
        state.apply_action(rng.choice(state.legal_actions()))
        if steps is not None:
            steps -= 1


def test_actions_and_returns_follow_the_engine() -> None:
    """Legal actions are the catalogue's indices of the engine's legal actions, and the
    returns at the end are the rewards of the chosen mode (ruling 20 for "win")."""
    for reward in ("win", "margin"):
        state = _dealt(_game(2, reward=reward), 3)
        cat = catalogue(2)
        rng = random.Random(1)
        while not state.is_terminal():
            s = state.engine_state
            assert state.legal_actions() == cat.legal_indices(s)
            assert state.current_player() == s.stack[-1][1]
            action = rng.choice(state.legal_actions())
            assert state.action_to_string(state.current_player(), action) == text(
                s, cat.decode(s, action))
            state.apply_action(action)
        s = state.engine_state
        assert s.over and state.returns() == final_rewards(s, reward)
        if reward == "win":
            assert [p for p in range(2) if state.returns()[p] == 1.0] == winners(s)


def test_serialization_uses_the_project_json() -> None:
    game = _game(3)
    state = _dealt(game, 5)
    _play_random(state, seed=2, steps=60)
    serialized = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(serialized)
    assert str(again) == str(state) and again.engine_state == state.engine_state
    assert again.legal_actions() == state.legal_actions()
    for p in range(3):
        assert again.information_state_string(p) == state.information_state_string(p)
    saved = json.loads(str(state))
    assert saved["format"] == "flamecraft-state"
    assert state_from_json(saved) == state.engine_state
    assert pickle.loads(pickle.dumps(state._box)).state == state.engine_state


def _check_resample(state: pyspiel.State, player: int, seed: float) -> pyspiel.State:
    """A resampled state looks the same to ``player`` (pyspiel's ResampleInfostateTest)."""
    other = state.resample_from_infostate(player, lambda: seed)
    assert other.information_state_string(player) == state.information_state_string(player)
    assert other.information_state_record(player) == state.information_state_record(player)
    # Reachable: its own history, replayed from the initial state, gives it again.
    again = state.get_game().new_initial_state()
    for action in other.history():
        again.apply_action(action)
    assert again.engine_state == other.engine_state
    assert again.information_state_string(player) == state.information_state_string(player)
    assert other.information_state_tensor(player) == state.information_state_tensor(player)
    assert other.observation_string(player) == state.observation_string(player)
    assert other.current_player() == state.current_player()
    if state.current_player() == player:
        assert other.legal_actions() == state.legal_actions()
    return other


@pytest.mark.parametrize(("players", "companions"), [(2, False), (4, False), (3, True)])
def test_resample_from_infostate_keeps_what_the_player_knows(players: int,
                                                             companions: bool) -> None:
    """Re-dealing the unseen cards leaves the player's information unchanged, moves hidden
    cards (so the test can fail), and gives a state that plays on to the end — from the
    first decision (everyone's Fancy Dragon choice pending, rules Setup 7, or the Companion
    draft, design §6) on."""
    state = _dealt(_game(players, companions=companions), 8)
    moved = 0
    rng = random.Random(3)
    step = 0
    while not state.is_terminal():
        if step % 15 == 0:
            for p in range(players):
                other = _check_resample(state, p, rng.random())
                real, sample = state.engine_state, other.engine_state
                moved += any(real.hand[q] != sample.hand[q] for q in range(players) if q != p)
                assert sample.hand[p] == real.hand[p] and sample.fancy[p] == real.fancy[p]
        if step == 0:
            _play_random(_check_resample(state, 1, 0.25), seed=4)
        state.apply_action(rng.choice(state.legal_actions()))
        step += 1
    assert moved > 5


def _choose(state: pyspiel.State, wanted: str) -> None:
    """Applies the legal action whose text is ``wanted`` (an error naming the others if it
    is not legal)."""
    p = state.current_player()
    by_text = {state.action_to_string(p, a): a for a in state.legal_actions()}
    assert wanted in by_text, f"{wanted!r} is not legal: {sorted(by_text)}"
    state.apply_action(by_text[wanted])


def _hatchling_look() -> pyspiel.State:
    """A 3-player state in which P2 is choosing among the top 3 cards of the Artisan deck
    (La Petite Dragonne's Hatchling, design §1), reached in the first round from the initial
    state by its own history: a deal (seed 19's, changed) with La Petite Dragonne on top of
    the Shop deck and two Meat Dragons in P1's hand; P1 (first) Gathers at Critical Rolls,
    places one on slot 2 and fires it up to place the other on slot 3, completing the Shop
    (rules 9: La Petite Dragonne comes into Town, flipped at the end of the turn) and ends
    the turn; P2 visits it, declines the placement and uses Hatchling."""
    game = _game(3)
    options = game.options
    deal, _ = draw_deal(options, seed_state(19))
    petite = CATALOG.shop_by_id["la-petite-dragonne"]
    bread_pile = shop_piles()[0]  # its pile: one Shop of it is drawn (rules, Setup)
    shops = (*(c for c in deal.shop_deck if c not in bread_pile), petite)  # the end is the top
    artisans = list(deal.artisan_deck)
    meats = [d for d in artisans if ART_TYPE[d] == MEAT][:2]
    for m in meats:  # just below the 5 Park cards: the first hand dealt, P1's
        artisans.remove(m)
        artisans.insert(len(artisans) - PARK_SIZE, m)
    deal = replace(deal, shop_deck=shops, artisan_deck=tuple(artisans))
    state = game.new_initial_state()
    for outcome in outcomes_of(options, deal, 0):  # P1 first
        state.apply_action(outcome)
    while state.engine_state.stack[-1][0] != D_VISIT:  # everybody keeps a Fancy Dragon
        state.apply_action(state.legal_actions()[0])
    first, second = (CATALOG.artisans[d].name for d in state.engine_state.hand[0][:2])
    assert {ART_TYPE[d] for d in state.engine_state.hand[0][:2]} == {MEAT}
    _choose(state, "visit Critical Rolls")
    _choose(state, f"place {first} on Critical Rolls slot 2")
    _choose(state, f"fire up {first}")
    _choose(state, f"place {second} on Critical Rolls slot 3")  # the rest of P1's turn is forced
    assert state.current_player() == 0
    _choose(state, "end turn")  # but for its end, asked every turn (ruling 20)
    assert state.current_player() == 1
    _choose(state, "visit La Petite Dragonne")
    _choose(state, "do not place")
    _choose(state, "use Hatchling")
    return state


def test_resample_keeps_the_looked_at_deck_top() -> None:
    """design §1 La Petite Dragonne (Hatchling): the player choosing among the top 3 of the
    Artisan deck has seen them, so a resample keeps them and the same choices; a player who
    has not seen them gets them re-dealt."""
    state = _hatchling_look()
    s = state.engine_state
    assert s.stack[-1][0] == D_ARTISAN_LOOK and to_act(s) == 1
    looker = 1
    for seed in (0.1, 0.5, 0.9):
        other = _check_resample(state, looker, seed)
        assert other.engine_state.artisan_deck[-3:] == s.artisan_deck[-3:]
    for p in range(3):  # the others have not seen them: they may be re-dealt
        _check_resample(state, p, 0.3)
    assert any(_check_resample(state, 0, seed).engine_state.artisan_deck[-3:]
               != s.artisan_deck[-3:] for seed in (0.1, 0.3, 0.5, 0.7))


def test_chance_nodes_are_the_deal() -> None:
    """Every chance node lists its outcomes with probabilities summing to 1 (each card still
    possible equally likely), and the deal's draws of a seed set up that seed's game."""
    game = _game(4, companions=True)
    state = game.new_initial_state()
    rng = random.Random(5)
    draws = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert len({p for _, p in outcomes}) == 1
        assert state.legal_actions() == [o for o, _ in outcomes]
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0][0]).startswith(
            "deal ")
        state.apply_action(rng.choice(outcomes)[0])
        draws += 1
    assert draws > 100 and state.current_player() >= 0
    with pytest.raises(pyspiel.SpielError, match="chance outcome"):
        bad = game.new_initial_state()
        bad.apply_action(bad.legal_actions()[0])
        bad.apply_action(bad.history()[0])  # the same Shop of a pile again


def test_bad_actions_are_refused_and_change_nothing() -> None:
    game = _game(2)
    state = _dealt(game, 3)
    before = str(state)
    illegal = next(a for a in range(game.num_distinct_actions())
                   if a not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError, match=r"is not legal now: P\d is choosing"):
        state.apply_action(illegal)
    assert str(state) == before
    _play_random(state, seed=3)
    with pytest.raises(pyspiel.SpielError, match="the game is over"):
        state.apply_action(0)


def test_information_state_has_perfect_recall() -> None:
    """Equal information-state tensors mean equal information-state strings (the tensor
    carries the seat's own choices and a fingerprint of its whole information state), and a
    seat's string changes with each of its own choices."""
    game = _game(2)
    seen: dict[bytes, str] = {}
    for seed in (1, 2):
        state = _dealt(game, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for p in range(2):
                key = bytes(np.asarray(state.information_state_tensor(p), np.float32))
                string = state.information_state_string(p)
                assert seen.setdefault(key, string) == string
            acting = state.current_player()
            mine = state.information_state_string(acting)
            state.apply_action(rng.choice(state.legal_actions()))
            if not state.is_terminal():
                assert state.information_state_string(acting) != mine
    assert len(seen) > 100


def test_outcome_sampling_mccfr_runs() -> None:
    """OpenSpiel's own CFR family on the full game: outcome-sampling MCCFR samples one
    trajectory an iteration, so it runs (a few iterations here); CFR and exploitability walk
    the whole tree, which for Flamecraft is astronomically large (docs/rl.md says why)."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(_game(2))
    for _ in range(2):
        solver.iteration()
    policy = solver.average_policy()
    state = _dealt(_game(2), 1)
    probs = policy.action_probabilities(state, state.current_player())
    assert set(probs) == set(state.legal_actions())
    assert abs(sum(probs.values()) - 1.0) < 1e-9


def test_information_state_hides_other_seats_choices() -> None:
    """Rules Setup 7: each player keeps 1 of 2 Fancy Dragons in secret. The keeper's
    information state names the card (and the one shown with it); the others' does not."""
    state = _dealt(_game(2), 6)
    keeper = state.current_player()
    state.apply_action(state.legal_actions()[0])
    name = CATALOG.fancies[state.engine_state.fancy[keeper][0]].name
    mine = state.information_state_record(keeper)
    theirs = state.information_state_record(1 - keeper)
    assert state.information_state_string(keeper) != state.information_state_string(1 - keeper)
    assert f"keep {name}" in mine and "shown" in mine
    lines = theirs.split("\n")  # what the deal gave them, then the keeper's choice
    assert lines[0].startswith("you: hand ") and lines[1] == f"P{keeper + 1}: keep a Fancy Dragon"


def test_public_observer_hides_every_hand() -> None:
    from open_spiel.python.observation import make_observation

    game = _game(2)
    state = _dealt(game, 2)
    _play_random(state, seed=1, steps=20)
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False,
                                         private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 0)
    assert not public.tensor[layout(2).own:].any()
    assert '"hand":' not in public.string_from(state, 0)
    # The public observer is one for every seat.
    tensor = public.tensor.copy()
    public.set_from(state, 1)
    assert (public.tensor == tensor).all()
    assert public.string_from(state, 0) == public.string_from(state, 1)
    private = make_observation(game)
    private.set_from(state, 0)
    assert private.tensor[layout(2).own:].any()


def test_a_long_game_is_cut_at_the_maximum_length(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game length OpenSpiel needs is enforced: the game then has no result (returns 0
    for every seat, as the environments' truncation gives; docs/rl.md, "Truncation")."""
    monkeypatch.setattr(og, "MAX_GAME_LENGTH", 30)
    state = _dealt(_game(2), 1)
    chance = len(state.history())
    assert not state.was_cut()
    _play_random(state, seed=1)
    assert state.is_terminal() and len(state.history()) == chance + 30
    assert not state.engine_state.over and state.was_cut()
    assert state.returns() == [0.0, 0.0] and state.rewards() == [0.0, 0.0]
    s = state.engine_state.copy()
    apply_in_place(s, legal_actions(s)[0])  # the engine itself is not over


def _example(name: str) -> Any:
    """Loads a script from examples/ as a module (they are not a package)."""
    path = Path(__file__).parent.parent / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ismcts_plays_a_full_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenSpiel's own IS-MCTS bot (random rollouts, a tiny budget) plays seat 2 of a whole
    game against our random bot, as in examples/openspiel_vs_ours.py: it chooses every
    decision of its seat that has a choice, and the game ends with a result."""
    searched: list[int] = []
    step = ismcts.ISMCTSBot.step

    def counting_step(bot: ismcts.ISMCTSBot, state: pyspiel.State) -> int:
        action = int(step(bot, state))
        assert action in state.legal_actions() and state.current_player() == 1
        searched.append(len(state.legal_actions()))
        return action

    monkeypatch.setattr(ismcts.ISMCTSBot, "step", counting_step)
    returns = _example("openspiel_vs_ours").play(seed=2, simulations=2, ismcts_seat=1)
    assert sorted(returns) in ([-1.0, 1.0], [1.0, 1.0])
    assert sum(1 for n in searched if n > 1) > 20


def test_a_clone_plays_on_without_changing_the_original() -> None:
    """A clone's record and each seat's past choices are its own (the box grows them in
    place and copies them when it is cloned): playing on in the clone leaves the original's
    history, information state and serialization as they were, and the reverse."""
    game = _game(3)
    state = _dealt(game, 6)
    rng = random.Random(6)
    for _ in range(20):
        state.apply_action(rng.choice(state.legal_actions()))
    before = (state.history(), state.information_state_string(0),
              state.information_state_tensor(1), state.serialize())
    clone = state.clone()
    for _ in range(15):
        clone.apply_action(rng.choice(clone.legal_actions()))
    assert (state.history(), state.information_state_string(0),
            state.information_state_tensor(1), state.serialize()) == before
    after = (clone.history(), clone.information_state_string(0))
    state.apply_action(state.legal_actions()[0])
    assert (clone.history(), clone.information_state_string(0)) == after
    assert len(clone.history()) == len(before[0]) + 15


@pytest.mark.parametrize(("players", "companions", "seed"),
                         [(1, False, 5), (2, True, 6), (3, False, 19), (4, True, 8), (5, False, 9)])
def test_what_each_seat_has_seen_is_every_card_it_was_ever_shown(
        players: int, companions: bool, seed: int) -> None:
    """The seen sets that resampling keeps (``_Box.see``, which looks again only at seats
    whose cards moved or whom a pending choice shows cards) equal the union, over every
    step, of ``hidden.public_cards`` and ``private_cards`` computed in full."""
    from flamecraft.core.hidden import private_cards, public_cards

    state = _dealt(_game(players, companions=companions), seed)
    s = state.engine_state
    public = set(public_cards(s))
    private = [set(private_cards(s, p)) for p in range(players)]
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        s = state.engine_state
        public |= public_cards(s)
        for p in range(players):
            private[p] |= private_cards(s, p)
        box = state._box
        assert box.public == public
        assert [set(seen) for seen in box.private] == private
