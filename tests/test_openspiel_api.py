"""python_flamecraft through OpenSpiel's own tools: every observation type its observers are
asked for, and the playthrough OpenSpiel's ``generate_playthrough`` writes (docs/rl.md,
"OpenSpiel")."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest
from absl import flags
from open_spiel.python.algorithms import generate_playthrough
from open_spiel.python.observation import make_observation

import flamecraft.research.openspiel_game as og
from flamecraft.core.board import ART_TYPE, CATALOG
from flamecraft.core.view import view
from flamecraft.research.encoding import layout, observation

PLAYTHROUGHS = Path(__file__).resolve().parent / "data" / "playthroughs"
NONE, SINGLE, ALL = (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.SINGLE_PLAYER,
                     pyspiel.PrivateInfoType.ALL_PLAYERS)
EVERY_TYPE = list(itertools.product([True, False], [True, False], [NONE, SINGLE, ALL]))


def _states(players: int, seed: int, companions: bool = False) -> list[pyspiel.State]:
    """States along one random game: during the deal, after it, mid-game, at the end."""
    game = pyspiel.load_game("python_flamecraft",
                             {"players": players, "companions": companions})
    state = game.new_initial_state()
    out = [state.clone()]
    state.apply_action(state.legal_actions()[0])
    out.append(state.clone())
    state = og.deal_seed(game.new_initial_state(), seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        if steps % 37 == 0:
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return [*out, state]


@pytest.mark.parametrize(("public", "recall", "private"), EVERY_TYPE)
def test_every_observation_type_is_answered(public: bool, recall: bool,
                                            private: pyspiel.PrivateInfoType) -> None:
    """Each of the twelve types makes an observer whose tensor keeps its size, holds values
    in [0, 1], and whose string is text, at every kind of state; the pieces of its dict tile
    the tensor."""
    game = pyspiel.load_game("python_flamecraft", {"players": 3})
    observer = make_observation(game, pyspiel.IIGObservationType(
        public_info=public, perfect_recall=recall, private_info=private))
    assert observer is not None
    size = observer.tensor.size
    assert size == sum(piece.size for piece in observer.dict.values())
    assert (size == 0) == (not public and private == NONE)
    for state in _states(3, 4):
        for player in range(3):
            observer.set_from(state, player)
            assert observer.tensor.size == size
            assert ((observer.tensor >= 0) & (observer.tensor <= 1)).all()
            assert isinstance(observer.string_from(state, player), str)


def test_the_classic_observers_are_unchanged() -> None:
    """The default observer is the observation vector, the perfect-recall one the
    information-state tensor: the same as ``observation_tensor``/``information_state_*``."""
    game = pyspiel.load_game("python_flamecraft", {"players": 2})
    default = make_observation(game)
    infostate = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    state = _states(2, 3)[4]
    for p in range(2):
        default.set_from(state, p)
        assert np.allclose(default.tensor, observation(state.engine_state, p))
        assert default.string_from(state, p) == state.observation_string(p)
        infostate.set_from(state, p)
        assert np.allclose(infostate.tensor, state.information_state_tensor(p))
        assert infostate.string_from(state, p) == state.information_state_string(p)


def _merged(public: dict[str, Any], private: dict[str, Any], seat: int) -> dict[str, Any]:
    out = {**public, **{k: v for k, v in private.items() if k != "player"}}
    players = [dict(p) for p in public["players"]]
    players[seat].update(private["player"])
    out["players"] = players
    return out


@pytest.mark.parametrize(("players", "companions"), [(1, False), (2, True), (4, False)])
def test_the_private_part_and_the_public_part_make_the_seats_view(players: int,
                                                                  companions: bool) -> None:
    """``private_view`` leaves nothing of a seat's view out: put back into the public view it
    gives the seat's view, at every state of a game."""
    for state in _states(players, 8, companions)[2:]:
        s = state.engine_state
        for seat in range(players):
            private = og.private_view(s, seat)
            assert _merged(view(s, None), private, seat) == view(s, seat)
            assert "players" not in private


def test_the_private_observer_is_the_private_part_of_the_observation() -> None:
    """Without the public information, a seat's tensor is the decision kind and the own
    block of its observation vector, and its string its private part; ALL_PLAYERS holds
    every seat's private part (and, with the public information, the public observation)."""
    game = pyspiel.load_game("python_flamecraft", {"players": 3})
    lay = layout(3)
    private = make_observation(game, pyspiel.IIGObservationType(
        public_info=False, perfect_recall=False, private_info=SINGLE))
    every = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=ALL))
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=NONE))
    assert private.tensor.size == og.private_size(3) == lay.decisions + lay.size - lay.own
    for state in _states(3, 5)[2:]:
        s = state.engine_state
        every.set_from(state, 0)
        public.set_from(state, 0)
        assert np.array_equal(every.dict["observation"], public.tensor)
        for seat in range(3):
            full = np.asarray(observation(s, seat), np.float32)
            private.set_from(state, seat)
            want = np.concatenate([full[6:6 + lay.decisions], full[lay.own:]])
            assert np.array_equal(private.tensor, want)
            assert np.array_equal(every.dict[f"private_{seat}"], want)
            assert json.loads(private.string_from(state, seat)) == og.private_view(s, seat)


def test_the_private_observer_sees_no_other_seat() -> None:
    """Another seat's hidden cards never reach a seat's private part: swapping a card of
    seat 1's hand with one of the Artisan deck leaves seat 0's as it was (and changes seat
    1's, so the observer does look at the hand)."""
    game = pyspiel.load_game("python_flamecraft", {"players": 2})
    observer = make_observation(game, pyspiel.IIGObservationType(
        public_info=False, perfect_recall=True, private_info=SINGLE))
    state = _states(2, 6)[3]
    seen = []
    for seat in (0, 1):
        observer.set_from(state, seat)
        seen.append((observer.tensor.copy(), observer.string_from(state, seat)))
    other = state.clone()
    s = other.engine_state
    swap = next(i for i, card in enumerate(s.artisan_deck)
                if ART_TYPE[card] != ART_TYPE[s.hand[1][0]])
    s.hand[1][0], s.artisan_deck[swap] = s.artisan_deck[swap], s.hand[1][0]
    observer.set_from(other, 0)
    assert np.array_equal(observer.tensor, seen[0][0])
    assert observer.string_from(other, 0) == seen[0][1]
    observer.set_from(other, 1)
    assert not np.array_equal(observer.tensor, seen[1][0])
    assert observer.string_from(other, 1) != seen[1][1]


def test_the_private_record_holds_what_the_seat_alone_read() -> None:
    """Rules Setup 7: the Fancy Dragon a seat keeps is its private information: named in
    its private record, absent from the others' and from the public record."""
    state = og.deal_seed(pyspiel.load_game("python_flamecraft", {"players": 2})
                         .new_initial_state(), 6)
    keeper = state.current_player()
    state.apply_action(state.legal_actions()[0])
    card = CATALOG.fancies[state.engine_state.fancy[keeper][0]].name
    assert f"keep {card}" in state.private_record(keeper)
    assert card not in state.private_record(1 - keeper)
    assert card not in state.information_state_record(-1)


def test_the_playthrough_is_what_openspiel_generates() -> None:
    """As OpenSpiel's playthrough test does for its own games: the kept playthrough,
    replayed by ``generate_playthrough.replay``, comes out line for line the same.
    Regenerate it with ``python scripts/update_playthroughs.py`` after a deliberate change
    (and review the diff)."""
    if not flags.FLAGS.is_parsed():  # generate_playthrough reads an absl flag
        flags.FLAGS.mark_as_parsed()
    path = PLAYTHROUGHS / "python_flamecraft.txt"
    expected, actual = generate_playthrough.replay(str(path))
    for number, (want, got) in enumerate(zip(expected.split("\n"), actual.split("\n"),
                                             strict=False)):
        assert want == got, f"line {number + 1} of {path.name} differs"
    assert expected == actual
    assert "PrivateObservationString(0)" in expected and "Returns() = " in expected
    assert 100_000 < len(expected) < 400_000
