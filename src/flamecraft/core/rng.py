"""A tiny seeded generator (SplitMix64) whose whole state is one int.

It lives inside the game state, so a seed plus the list of actions replays a game exactly, and
a copy of a state copies its randomness for free (Python's ``random.Random`` carries 2.5 KB).
"""

from __future__ import annotations

from typing import Final

_MASK: Final = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The generator state for a seed (any int)."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Returns (value, new state)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def below(state: int, bound: int) -> tuple[int, int]:
    """A uniform int in [0, bound) and the new state (rejection sampling, no modulo bias)."""
    limit = (1 << 64) - ((1 << 64) % bound)
    while True:
        value, state = next_u64(state)
        if value < limit:
            return value % bound, state


def shuffle(items: list[int], state: int) -> int:
    """Shuffles ``items`` in place (Fisher–Yates); returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        j, state = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
