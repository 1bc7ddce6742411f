"""Scenario builders for rule and card tests: move cards between places without breaking the
one-place-per-card invariant, then drive the engine by action texts."""

from __future__ import annotations

from flamecraft import GameState, apply_in_place, legal_actions, parse_action, start, text
from flamecraft.board import CATALOG
from flamecraft.invariants import problems
from flamecraft.state import EMPTY

A = CATALOG.artisan_by_id
S = CATALOG.shop_by_id
E = CATALOG.enchantment_by_id
F = CATALOG.fancy_by_id
GOODS = ("BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT")


def fresh(players: int = 2, seed: int = 0, deck: str = "purple") -> GameState:
    """A game past setup (each player kept their first Fancy Dragon; seats 4–5 took Bread),
    waiting for the first player to visit a Shop."""
    s = start(players, seed, deck)
    while s.stack and s.stack[-1][0] != 1:  # until D_VISIT
        apply_in_place(s, legal_actions(s)[0])
    return s


def texts(s: GameState) -> list[str]:
    return [text(s, a) for a in legal_actions(s)]


def do(s: GameState, *typed: str) -> GameState:
    """Applies actions by their texts, in order (raises if one is not legal)."""
    for t in typed:
        apply_in_place(s, parse_action(s, t))
    return s


def _remove_artisan(s: GameState, dragon: int) -> None:
    for pile in (s.artisan_deck, s.park, s.removed, *s.hand):
        if dragon in pile:
            pile.remove(dragon)
            return
    index = s.slots.index(dragon)
    s.slots[index] = EMPTY


def to_hand(s: GameState, p: int, *dragon_ids: str) -> None:
    for d in dragon_ids:
        _remove_artisan(s, A[d])
        s.hand[p].append(A[d])
    s.cache = None


def to_slot(s: GameState, shop_id: str, slot: int, dragon_id: str) -> None:
    """Puts a dragon on a slot (0-based) of a Shop in Town, ignoring slot icons."""
    _remove_artisan(s, A[dragon_id])
    assert s.slots[S[shop_id] * 3 + slot] == EMPTY
    s.slots[S[shop_id] * 3 + slot] = A[dragon_id]
    s.cache = None


def to_park(s: GameState, *dragon_ids: str) -> None:
    for d in dragon_ids:
        _remove_artisan(s, A[d])
        s.park.append(A[d])
    s.cache = None


def clear_hand(s: GameState, p: int) -> None:
    """Returns p's hand to the bottom of the Artisan deck."""
    s.artisan_deck[0:0] = s.hand[p]
    s.hand[p] = []
    s.cache = None


def add_shop(s: GameState, shop_id: str) -> None:
    """Puts a Shop (from the Shop deck or the box) face up on an empty Town space."""
    shop = S[shop_id]
    if shop in s.town:
        return
    for pile in (s.shop_deck, s.shops_unused):
        if shop in pile:
            pile.remove(shop)
    s.town[s.town.index(EMPTY)] = shop
    s.cache = None


def set_goods(s: GameState, p: int, coins: int | None = None, **goods: int) -> None:
    """Sets p's Goods (by upper-case name; unnamed Goods become 0) and optionally Coins."""
    s.goods[p] = [goods.get(g, 0) for g in GOODS]
    if coins is not None:
        s.coins[p] = coins
    s.cache = None


def give_fancy(s: GameState, p: int, *fancy_ids: str) -> None:
    """Moves Fancy Dragons (from the deck or any player) into p's unscored Fancy Dragons."""
    for f in fancy_ids:
        card = F[f]
        for pile in (s.fancy_deck, *s.fancy, *s.scored):
            if card in pile:
                pile.remove(card)
        s.fancy[p].append(card)
    s.cache = None


def to_row(s: GameState, *ench_ids: str) -> None:
    """Puts Enchantments into the face-up row (taking them from the deck), keeping 5 there by
    sending the oldest row cards back to the bottom of the deck."""
    for e in ench_ids:
        card = E[e]
        if card in s.ench_row:
            continue
        s.ench_deck.remove(card)
        s.ench_row.append(card)
        s.ench_deck.insert(0, s.ench_row.pop(0))
    s.cache = None


def sound(s: GameState) -> None:
    assert problems(s) == []
