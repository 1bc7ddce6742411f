"""The deal's generator: ``shuffle``'s two arithmetic paths (big ints, and 32-bit halves that
the compiled core takes) draw the same numbers, so a seed deals the same game in both forms."""

from __future__ import annotations

import random

import pytest

from flamecraft.core.rng import below, next_u64, seed_state, shuffle, shuffle_halves


def _shuffle_reference(items: list[int], state: int) -> int:
    """Fisher–Yates with ``below``, as the deal has always drawn it."""
    for i in range(len(items) - 1, 0, -1):
        j, state = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def _states(rng: random.Random) -> list[int]:
    """Generator states across the range, its edges (all ones, near zero) included."""
    return [seed_state(rng.randrange(10**6)), rng.getrandbits(64), (1 << 64) - 1,
            (1 << 64) - 1 - rng.randrange(1 << 20), rng.randrange(1 << 20), 0]


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 12, 45, 64, 131])
def test_the_halves_shuffle_draws_what_below_draws(length: int) -> None:
    rng = random.Random(length)
    for _ in range(60):
        for state in _states(rng):
            expected, got = list(range(length)), list(range(length))
            assert shuffle_halves(got, state) == _shuffle_reference(expected, state)
            assert got == expected


def test_shuffle_in_this_form_draws_what_below_draws() -> None:
    rng = random.Random(7)
    for _ in range(300):
        state = rng.getrandbits(64)
        expected, got = list(range(60)), list(range(60))
        assert shuffle(got, state) == _shuffle_reference(expected, state)
        assert got == expected


MASK = (1 << 64) - 1


def _unshift(z: int, k: int) -> int:
    """The x with x ^ (x >> k) == z."""
    x = z
    for _ in range(64 // k + 1):
        x = z ^ (x >> k)
    return x


def _state_drawing(value: int) -> int:
    """The generator state whose next draw is ``value`` (SplitMix64's steps undone)."""
    z = _unshift(value, 31)
    z = z * pow(0x94D049BB133111EB, -1, 1 << 64) & MASK
    z = _unshift(z, 27)
    z = z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & MASK
    z = _unshift(z, 30)
    return (z - 0x9E3779B97F4A7C15) & MASK


def test_a_draw_at_the_top_of_the_range_is_redrawn_the_same_way() -> None:
    """A value among the last ``2**64 % bound`` is redrawn (no modulo bias): states whose
    next draw is the top value or just below it, for bounds that do and do not redraw it."""
    for top in range(4):
        state = _state_drawing(MASK - top)
        assert next_u64(state)[0] == MASK - top
        for length in (2, 3, 5, 6, 7, 11, 13, 40):
            expected, got = list(range(length)), list(range(length))
            assert shuffle_halves(got, state) == _shuffle_reference(expected, state)
            assert got == expected
    assert below(_state_drawing(MASK), 3)[1] != next_u64(_state_drawing(MASK))[1]  # redrawn
