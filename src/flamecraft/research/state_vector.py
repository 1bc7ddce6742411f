"""The privileged full-state vector (PettingZoo's ``state()``), for centralized critics.

Why a separate vector: a critic trained with the whole game (CTDE: centralized training,
decentralized execution) may see what no seat sees, but a policy must never be given it. It is
every seat's own observation (``encoding.observation``, seat 0 first, each relative to its
seat: together they hold every hand and every unscored Fancy Dragon) followed by a fixed
``hidden`` block with what no seat sees: the composition of each hidden pile and its next card.
Every value is in [0, 1]; the size depends only on the player count. See docs/rl.md.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..core.board import ART_TYPE
from ..core.state import GameState
from .encoding import NUM_COMPANIONS, NUM_ENCH, NUM_FANCY, NUM_SHOPS, NUM_TYPES, layout
from .observation import observation_array

_PER_TYPE = Counter(ART_TYPE)  # Artisan Dragons of each type in the game's 42

# (name, size) of the hidden block's parts, in order.
HIDDEN_PARTS: tuple[tuple[str, int], ...] = (
    ("artisan deck by type (/ dragons of the type)", NUM_TYPES),
    ("artisan deck: next card's type", NUM_TYPES),
    ("removed Artisan Dragons by type (/ dragons of the type)", NUM_TYPES),
    ("Fancy deck: its cards", NUM_FANCY),
    ("Fancy deck: next card", NUM_FANCY),
    ("Enchantment deck: its cards", NUM_ENCH),
    ("Enchantment deck: next card", NUM_ENCH),
    ("Shop deck: its Shops", NUM_SHOPS),
    ("Shop deck: next Shop", NUM_SHOPS),
    ("face-down Shops in Town", NUM_SHOPS),
    ("Shops out of the game", NUM_SHOPS),
    ("Companions left in the box", NUM_COMPANIONS),
)
HIDDEN_SIZE = sum(size for _, size in HIDDEN_PARTS)


def state_size(players: int) -> int:
    """The length of the state vector at this player count."""
    return players * layout(players).size + HIDDEN_SIZE


def _by_type(cards: list[int]) -> np.ndarray:
    part = np.zeros(NUM_TYPES, np.float32)
    for kind, count in Counter(ART_TYPE[d] for d in cards).items():
        part[kind] = count / _PER_TYPE[kind]
    return part


def _members(cards: list[int], size: int) -> np.ndarray:
    part = np.zeros(size, np.float32)
    part[cards] = 1.0
    return part


def _top(cards: list[int], size: int) -> np.ndarray:
    """The next card of a deck (its last element), one-hot; all zero when it is empty."""
    return _members(cards[-1:], size)


def hidden_block(s: GameState) -> np.ndarray:
    """What no seat sees: each hidden pile's composition and its next card."""
    next_type = [ART_TYPE[d] for d in s.artisan_deck[-1:]]
    parts = (
        _by_type(s.artisan_deck), _members(next_type, NUM_TYPES), _by_type(s.removed),
        _members(s.fancy_deck, NUM_FANCY), _top(s.fancy_deck, NUM_FANCY),
        _members(s.ench_deck, NUM_ENCH), _top(s.ench_deck, NUM_ENCH),
        _members(s.shop_deck, NUM_SHOPS), _top(s.shop_deck, NUM_SHOPS),
        _members(s.facedown, NUM_SHOPS), _members(s.shops_unused, NUM_SHOPS),
        _members(s.companion_box, NUM_COMPANIONS),
    )
    return np.concatenate(parts)


def state_array(s: GameState) -> np.ndarray:
    """The full state as one float32 vector (privileged: never give it to a policy)."""
    size = layout(s.n).size
    out = np.empty(state_size(s.n), np.float32)
    for seat in range(s.n):
        observation_array(s, seat, out[seat * size:(seat + 1) * size])
    out[s.n * size:] = hidden_block(s)
    return out
