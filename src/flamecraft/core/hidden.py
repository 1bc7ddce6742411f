"""Sampling the hidden part of a state for one observer ("determinization").

A search bot must not read what its seat cannot see. ``determinize`` keeps everything the
observer sees — the public board, its own hand and Fancy Dragons, the size of every hidden
pile — and deals every card the observer cannot see at random into the hidden places. The
cards it deals are sorted before shuffling, so the result depends only on what the observer
sees and the seed, never on where the hidden cards really are.
"""

from __future__ import annotations

import random
from typing import Final

from .board import CATALOG
from .frames import ARTISAN_LOOK_N, D_ARTISAN_LOOK, D_KEEP_DRAWN_FANCY, KEEP_FANCY_CARDS
from .state import GameState

_PILE_OF_SHOP: Final = [shop.pile for shop in CATALOG.shops]
OTHER_PILE: Final = 6
OTHER_PILE_DRAW: Final = 4


def _deal(pool: list[int], sizes: list[int], rng: random.Random) -> list[list[int]]:
    pool = sorted(pool)
    rng.shuffle(pool)
    out, start = [], 0
    for size in sizes:
        out.append(pool[start:start + size])
        start += size
    return out


def determinize(s: GameState, observer: int, seed: int) -> GameState:
    """A copy of ``s`` whose hidden cards are re-dealt at random, consistently with what
    ``observer`` sees. The copy's own generator is reseeded from ``seed`` too."""
    rng = random.Random(seed)
    t = s.copy()
    others = [p for p in range(s.n) if p != observer]

    # Artisan Dragons: other hands, the deck and the removed cards. An observer choosing
    # among the top cards of the deck (D_ARTISAN_LOOK) sees them: they stay on top.
    top = s.stack[-1] if s.stack else ()
    looking = top[:2] == (D_ARTISAN_LOOK, observer)
    seen = min(top[ARTISAN_LOOK_N], len(t.artisan_deck)) if looking else 0
    deck, on_top = t.artisan_deck[:len(t.artisan_deck) - seen], t.artisan_deck[len(
        t.artisan_deck) - seen:]
    sizes = [len(t.hand[p]) for p in others] + [len(deck), len(t.removed)]
    pool = [d for p in others for d in t.hand[p]] + deck + t.removed
    dealt = _deal(pool, sizes, rng)
    for p, cards in zip(others, dealt, strict=False):
        t.hand[p] = cards
    t.artisan_deck, t.removed = dealt[-2] + on_top, dealt[-1]

    # Fancy Dragons: others' unscored ones and the deck.
    sizes = [len(t.fancy[p]) for p in others] + [len(t.fancy_deck)]
    pool = [f for p in others for f in t.fancy[p]] + t.fancy_deck
    dealt = _deal(pool, sizes, rng)
    for p, cards in zip(others, dealt, strict=False):
        t.fancy[p] = cards
    t.fancy_deck = dealt[-1]
    # Another seat's pending keep decision (at setup) names the cards it was dealt: the
    # re-dealt cards take their places, so the sample stays playable.
    renamed = {old: new for p in others for old, new in zip(s.fancy[p], t.fancy[p], strict=True)}
    t.stack = [f if f[0] != D_KEEP_DRAWN_FANCY or f[1] == observer
               else (*f[:KEEP_FANCY_CARDS], *(renamed.get(c, c) for c in f[KEEP_FANCY_CARDS:]))
               for f in t.stack]

    # Enchantments: only the deck's order is hidden.
    t.ench_deck = _deal(t.ench_deck, [len(t.ench_deck)], rng)[0]

    # Shops: the deck and face-down Shops hold 1 unseen Shop of each Good pile not yet seen
    # in Town and the rest of the 4 from the other icons; the others are out of the game.
    _determinize_shops(t, rng)

    from .rng import seed_state
    t.rng = seed_state(rng.getrandbits(63))
    t.cache = None
    return t


def _determinize_shops(t: GameState, rng: random.Random) -> None:
    seen = [shop for shop in t.town if shop >= 0 and shop not in t.facedown]
    unseen = sorted([*t.shop_deck, *t.facedown, *t.shops_unused])
    seen_piles = [_PILE_OF_SHOP[shop] for shop in seen if not CATALOG.shops[shop].starter]
    chosen: list[int] = []
    for pile in range(7):
        candidates = [shop for shop in unseen if _PILE_OF_SHOP[shop] == pile]
        want = OTHER_PILE_DRAW - seen_piles.count(OTHER_PILE) if pile == OTHER_PILE else (
            0 if pile in seen_piles else 1)
        rng.shuffle(candidates)
        chosen.extend(candidates[:want])
    rng.shuffle(chosen)
    hidden_count = len(t.shop_deck) + len(t.facedown)
    chosen = chosen[:hidden_count]
    facedown_new = chosen[:len(t.facedown)]
    # Spaces first: a new Shop may be another old face-down one, so looking spaces up while
    # replacing could find the wrong one.
    spaces = [t.town.index(old) for old in t.facedown]
    for space, new in zip(spaces, facedown_new, strict=True):
        t.town[space] = new
    t.facedown = facedown_new
    t.shop_deck = chosen[len(t.facedown):]
    t.shops_unused = sorted(shop for shop in unseen if shop not in chosen)


# What an observer has seen, as ints: a card's catalog index plus its kind's base.
SEEN_ARTISAN, SEEN_FANCY, SEEN_SHOP, SEEN_ENCHANTMENT = 0, 1000, 2000, 3000


def public_cards(s: GameState) -> set[int]:
    """The cards face up for everyone now (``SEEN_*`` + index): Town, Park, row, tucked and
    reserved Enchantments, scored Fancy Dragons, those Town Bustle removed. With
    ``private_cards`` and accumulated over a game, it is what an observer has ever seen;
    every other card's place is unknown to it (the OpenSpiel resampling re-deals those)."""
    out = {d for d in s.slots if d >= 0}
    out.update(s.park)
    out.update([SEEN_FANCY + f for scored in s.scored for f in scored])
    facedown = s.facedown
    out.update([SEEN_SHOP + t for t in s.town if t >= 0 and t not in facedown])
    ench = SEEN_ENCHANTMENT
    out.update([ench + e for e in s.ench_row])
    out.update([ench + e for tucked in s.shop_ench if tucked for e in tucked])
    out.update([ench + e for e in s.reserved if e >= 0])
    out.update([ench + e for e in s.ench_removed])
    return out


def private_cards(s: GameState, observer: int) -> set[int]:
    """The cards ``observer`` alone sees now: its hand and Fancy Dragons, and the cards a
    pending choice of its shows it."""
    out = set(s.hand[observer])
    out.update([SEEN_FANCY + f for f in s.fancy[observer]])
    for f in s.stack:
        if f[0] == D_KEEP_DRAWN_FANCY and f[1] == observer:
            out.update([SEEN_FANCY + c for c in f[KEEP_FANCY_CARDS:]])
    top = s.stack[-1] if s.stack else ()
    if top[:2] == (D_ARTISAN_LOOK, observer):
        out.update(s.artisan_deck[max(0, len(s.artisan_deck) - top[ARTISAN_LOOK_N]):])
    return out
