"""Determinization: sampling the hidden part for one observer never reads hidden cards."""

from __future__ import annotations

import random

import pytest

from flamecraft import GameState, apply_in_place, legal_actions, start, view
from flamecraft.core.hidden import determinize
from flamecraft.core.invariants import problems


def _midgame(players: int, seed: int) -> GameState:
    s = start(players, seed)
    rng = random.Random(seed)
    for _ in range(120):
        if s.over:
            break
        apply_in_place(s, rng.choice(legal_actions(s)))
    return s


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_sample_is_sound_and_keeps_what_the_observer_sees(players: int) -> None:
    s = _midgame(players, players)
    observer = s.stack[-1][1]
    t = determinize(s, observer, seed=1)
    assert problems(t) == []
    assert view(t, observer) == view(s, observer)
    assert legal_actions(t) == legal_actions(s)
    for p in range(players):
        assert len(t.hand[p]) == len(s.hand[p]) and len(t.fancy[p]) == len(s.fancy[p])
    assert len(t.artisan_deck) == len(s.artisan_deck)
    assert sorted(t.ench_deck) == sorted(s.ench_deck)


def test_sample_depends_only_on_the_observers_information() -> None:
    """Swapping hidden cards between an opponent's hand and the deck changes nothing."""
    s = _midgame(3, 12)
    observer = s.stack[-1][1]
    other = (observer + 1) % 3
    u = s.copy()
    assert u.hand[other] and u.fancy[other], "the scenario needs hidden cards to swap"
    u.hand[other][0], u.artisan_deck[0] = u.artisan_deck[0], u.hand[other][0]
    u.fancy[other][0], u.fancy_deck[-1] = u.fancy_deck[-1], u.fancy[other][0]
    u.ench_deck.reverse()
    assert u != s and view(u, observer) == view(s, observer)
    assert determinize(u, observer, seed=4) == determinize(s, observer, seed=4)
    assert determinize(s, observer, seed=4) != determinize(s, observer, seed=5)


def test_sampled_games_play_to_the_end() -> None:
    s = _midgame(4, 2)
    t = determinize(s, s.stack[-1][1], seed=9)
    rng = random.Random(0)
    while not t.over:
        apply_in_place(t, rng.choice(legal_actions(t)))
    assert problems(t) == []


@pytest.mark.parametrize(("players", "deck", "companions"),
                         [(1, "purple", True), (2, "golden", False), (3, "golden", False),
                          (4, "purple", True), (5, "golden", False)])
def test_a_sample_of_a_sample_is_a_sample_of_the_truth(
        players: int, deck: str, companions: bool) -> None:
    """What makes a seat sent out of process exact (ai/interface.SealedSeat): re-dealing a
    sample gives, seed for seed, the state re-dealing the true state gives, at every step of
    whole games. Regression: a face-down Shop dealt in place of another face-down Shop took
    the wrong space in Town, so the spaces' order depended on the true Shops."""
    s = start(players, 50, deck, companions=companions)
    rng = random.Random(0)
    while not s.over:
        for seat in range(players):
            sample = determinize(s, seat, 12345)
            assert [sample.town.index(f) for f in sample.facedown] == [
                s.town.index(f) for f in s.facedown]
            assert determinize(sample, seat, 777) == determinize(s, seat, 777)
        apply_in_place(s, rng.choice(legal_actions(s)))
