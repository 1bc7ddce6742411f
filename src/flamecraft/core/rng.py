"""A tiny seeded generator (SplitMix64) whose whole state is one int.

It lives inside the game state, so a seed plus the list of actions replays a game exactly, and
a copy of a state copies its randomness for free (Python's ``random.Random`` carries 2.5 KB).
"""

from __future__ import annotations

from typing import Final

from . import COMPILED

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


# The same generator on two 32-bit halves, for ``shuffle``: every product is of two 16-bit
# pieces, so compiled by mypyc it is native integer arithmetic (its fast multiply wants both
# factors below 2**30), where the 64-bit form above works on boxed big ints (several times
# slower there; a game's deal draws a few hundred times). Pure Python is the other way
# round (its big ints are fast, and the halves take more steps), so each form takes its
# faster path: both draw the same numbers.
HALVES: Final = COMPILED
_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF
_STEP_HI: Final = 0x9E3779B9
_STEP_LO: Final = 0x7F4A7C15
# SplitMix64's multipliers 0xBF58476D1CE4E5B9 and 0x94D049BB133111EB in 16-bit pieces,
# lowest first.
_MUL1: Final = (0xE5B9, 0x1CE4, 0x476D, 0xBF58)
_MUL2: Final = (0x11EB, 0x1331, 0x49BB, 0x94D0)
_SMALL: Final = 1 << 20  # bounds below this take the 32-bit path (Fisher–Yates' are tiny)


def _mul_halves(hi: int, lo: int, c: tuple[int, int, int, int]) -> tuple[int, int]:
    """(hi, lo) times the 64-bit ``c`` (16-bit pieces) modulo 2**64, by 16-bit pieces."""
    c0, c1, d0, d1 = c
    a1, a0 = lo >> 16, lo & _M16
    b1, b0 = hi >> 16, hi & _M16
    middle = a1 * c0 + a0 * c1
    low = a0 * c0 + ((middle & _M16) << 16)
    carry = (low >> 32) + (middle >> 16) + a1 * c1
    cross = (b0 * c0 + (((b1 * c0 + b0 * c1) & _M16) << 16)
             + a0 * d0 + (((a1 * d0 + a0 * d1) & _M16) << 16))
    return (carry + cross) & _M32, low & _M32


def _xor_shift(hi: int, lo: int, k: int) -> tuple[int, int]:
    """z ^ (z >> k) for 0 < k < 32, on halves."""
    return hi ^ (hi >> k), lo ^ (((hi << (32 - k)) | (lo >> k)) & _M32)


def shuffle(items: list[int], state: int) -> int:
    """Shuffles ``items`` in place (Fisher–Yates); returns the new generator state."""
    if HALVES and len(items) < _SMALL:
        return shuffle_halves(items, state)
    for i in range(len(items) - 1, 0, -1):
        j, state = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def shuffle_halves(items: list[int], state: int) -> int:
    """``shuffle`` for fewer than 2**20 items, with the same draws (tests/test_rng.py checks)
    computed on 32-bit halves: fast compiled, slower than big ints in pure Python."""
    s_hi, s_lo = state >> 32, state & _M32
    for i in range(len(items) - 1, 0, -1):
        bound = i + 1
        wrap = (1 << 32) % bound  # 2**32 modulo bound
        rest = wrap * wrap % bound  # 2**64 modulo bound: values from 2**64 - rest are redrawn
        while True:
            s_lo += _STEP_LO
            s_hi = (s_hi + _STEP_HI + (s_lo >> 32)) & _M32
            s_lo &= _M32
            hi, lo = _xor_shift(s_hi, s_lo, 30)
            hi, lo = _mul_halves(hi, lo, _MUL1)
            hi, lo = _xor_shift(hi, lo, 27)
            hi, lo = _mul_halves(hi, lo, _MUL2)
            hi, lo = _xor_shift(hi, lo, 31)
            if not rest or hi != _M32 or lo < (1 << 32) - rest:
                break
        j = ((hi % bound) * wrap + lo) % bound
        items[i], items[j] = items[j], items[i]
    return (s_hi << 32) | s_lo
