"""Setup by player count: every step of the rules' "Preparation" and rulings 1–5."""

from __future__ import annotations

from collections import Counter

import pytest

from flamecraft import (
    FlamecraftError,
    GameState,
    apply_in_place,
    legal_actions,
    parse_action,
    start,
    to_act,
)
from flamecraft.core import actions as A
from flamecraft.core.board import ART_TYPE, CATALOG
from flamecraft.core.cards import ICON_RAINBOW
from flamecraft.core.frames import D_VISIT
from flamecraft.core.state import EMPTY, NUM_SOURCES
from helpers import fresh, sound, texts

SHOPS = CATALOG.shops
PLAYER_COUNTS = (2, 3, 4, 5)
STARTERS = [shop.index for shop in SHOPS if shop.starter]
NON_STARTERS = [shop.index for shop in SHOPS if not shop.starter]


@pytest.mark.parametrize(("players", "spaces"), [(2, 12), (3, 14), (4, 14), (5, 14)])
def test_town_spaces_by_player_count(players: int, spaces: int) -> None:
    """Ruling 4: the Town has 12 Shop spaces at 2 players and 14 at 3–5."""
    s = start(players, seed=3)
    assert len(s.town) == spaces


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_six_starter_shops_face_up_with_their_starter_dragon_on_slot_1(players: int) -> None:
    """Rules, Preparation 1: the 6 Starter Shops are face up in Town, each with its Starter
    Artisan Dragon on the first slot; the other slots and spaces are empty."""
    s = start(players, seed=5)
    in_town = [t for t in s.town if t != EMPTY]
    assert sorted(in_town) == sorted(STARTERS)
    assert s.town.count(EMPTY) == len(s.town) - 6
    assert s.facedown == []
    assert s.town_shops() == in_town
    for shop in STARTERS:
        card = SHOPS[shop]
        first, second, third = s.slots[shop * 3:shop * 3 + 3]
        assert first == CATALOG.artisan_by_id[card.starter_dragon]
        assert CATALOG.artisans[first].starter
        assert ART_TYPE[first] == card.icon  # the dragon matches the Shop's icon
        assert second == third == EMPTY
    # No dragon anywhere else in Town.
    assert sum(1 for d in s.slots if d != EMPTY) == 6


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_shop_deck_is_one_from_each_good_pile_and_four_others(players: int, seed: int) -> None:
    """Rules, Preparation 3: the Shop deck is 10 Shops: 1 from each of the 6 Good piles and 4
    from the pile of all other icons; the other 18 Shops are out of the game."""
    s = start(players, seed)
    assert len(s.shop_deck) == 10
    piles = Counter(SHOPS[shop].pile for shop in s.shop_deck)
    assert piles == Counter({0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 4})
    assert all(SHOPS[shop].icon >= ICON_RAINBOW for shop in s.shop_deck
               if SHOPS[shop].pile == 6)
    assert len(s.shops_unused) == 18
    assert sorted(s.shop_deck + s.shops_unused) == sorted(NON_STARTERS)
    assert not set(s.shop_deck) & set(s.town)


def test_shop_deck_is_drawn_at_random_and_shuffled() -> None:
    """Rules, Preparation 3: the piles are shuffled before drawing, and the 10 are shuffled:
    different seeds give different Shop decks."""
    decks = {tuple(start(2, seed).shop_deck) for seed in range(6)}
    contents = {frozenset(start(2, seed).shop_deck) for seed in range(6)}
    assert len(decks) == 6
    assert len(contents) > 1


@pytest.mark.parametrize(("players", "per_type"), [(2, 2), (3, 1), (4, 0), (5, 0)])
def test_artisan_dragons_removed_by_player_count(players: int, per_type: int) -> None:
    """Rules, Preparation 4 and ruling 3: 12 Artisan Dragons (2 of each type) are removed at
    2 players, 6 (1 of each) at 3, none at 4–5; the rest form the deck, the Park and the
    hands."""
    s = start(players, seed=7)
    assert len(s.removed) == 6 * per_type
    assert Counter(ART_TYPE[d] for d in s.removed) == Counter(
        {t: per_type for t in range(6)} if per_type else {})
    assert not any(CATALOG.artisans[d].starter for d in s.removed)
    in_play = s.artisan_deck + s.park + [d for hand in s.hand for d in hand]
    assert len(in_play) == 36 - 6 * per_type
    assert not any(CATALOG.artisans[d].starter for d in in_play)
    assert len(s.artisan_deck) == 36 - 6 * per_type - 5 - 3 * players


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_park_holds_five_artisan_dragons(players: int) -> None:
    """Rules, Preparation 4: the top 5 cards of the Artisan deck are revealed into the Park."""
    s = start(players, seed=11)
    assert len(s.park) == 5
    assert not set(s.park) & set(s.artisan_deck)


@pytest.mark.parametrize("deck", ["purple", "golden"])
@pytest.mark.parametrize("players", [2, 5])
def test_enchantment_row_is_five_of_the_chosen_deck_only(players: int, deck: str) -> None:
    """Rules, Preparation 6: only the chosen Enchantment deck is used; its top 5 are revealed
    into the row, the other 13 stay in the deck."""
    s = start(players, seed=2, deck=deck)
    chosen = 0 if deck == "purple" else 1
    assert len(s.ench_row) == 5
    assert len(s.ench_deck) == 13
    used = s.ench_row + s.ench_deck
    assert sorted(used) == sorted(e.index for e in CATALOG.enchantments if e.deck == chosen)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_hands_of_three(players: int) -> None:
    """Rules, Preparation 7 and ruling 2: each player is dealt 3 Artisan Dragons."""
    s = start(players, seed=4)
    assert [len(h) for h in s.hand] == [3] * players
    dealt = [d for h in s.hand for d in h]
    assert len(set(dealt)) == 3 * players


def turn_order(s: GameState) -> list[int]:
    """The seats in turn order from the state's first player."""
    return [(s.first_player + k) % s.n for k in range(s.n)]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_two_fancy_dealt_keep_one_other_to_bottom(players: int) -> None:
    """Rules, Preparation 7 and ruling 2: each player is dealt 2 Fancy Dragons, keeps 1 of
    their choice and returns the other to the BOTTOM of the Fancy deck (players choose in turn
    order, the first player first)."""
    s = start(players, seed=9)
    assert len(s.fancy_deck) == 36 - 2 * players
    returned = []
    for p in turn_order(s):
        assert to_act(s) == p
        dealt = list(s.fancy[p])
        assert len(dealt) == 2
        assert sorted(legal_actions(s)) == sorted((A.KEEP_FANCY, card, -1, -1) for card in dealt)
        keep, other = dealt[1], dealt[0]  # keep the second: the choice is the player's
        apply_in_place(s, parse_action(s, f"keep {CATALOG.fancies[keep].name}"))
        assert s.fancy[p] == [keep]
        assert s.fancy_deck[0] == other  # the bottom (draws take the last element)
        returned.append(other)
    assert s.fancy_deck[:players] == returned[::-1]
    assert len(s.fancy_deck) == 36 - players
    sound(s)


@pytest.mark.parametrize(("players", "first"), [
    (n, first) for n in PLAYER_COUNTS for first in (None, 0, 2, 4) if first is None or first < n])
def test_only_the_fourth_and_fifth_players_take_a_good_of_their_choice(
        players: int, first: int | None) -> None:
    """Rules, Preparation 7 and ruling 2: with 4+ players, the 4th and 5th players in turn
    order (only they) each take 1 Good of their choice; then the first player takes the
    first turn."""
    s = start(players, seed=1, first_player=first)
    for _ in range(players):  # every player keeps a Fancy Dragon
        apply_in_place(s, legal_actions(s)[0])
    order = turn_order(s)
    chosen = {3: "Iron", 4: "Plant"}
    for place in range(3, players):
        assert to_act(s) == order[place]
        assert texts(s) == ["take Bread", "take Meat", "take Iron", "take Potion",
                            "take Crystal", "take Plant"]
        apply_in_place(s, parse_action(s, f"take {chosen[place]}"))
    assert s.stack[-1][0] == D_VISIT and to_act(s) == s.first_player
    expected = {p: [0] * 6 for p in range(players)}
    if players >= 4:
        expected[order[3]][2] = 1
    if players == 5:
        expected[order[4]][5] = 1
    assert {p: s.goods[p] for p in range(players)} == expected
    assert s.coins == [0] * players


@pytest.mark.parametrize("players", [1, *PLAYER_COUNTS])
def test_the_first_player_is_drawn_from_the_seed(players: int) -> None:
    """Rules, Preparation 7 ("randomly reveal one to choose the first player"): the first
    player is drawn from the game's generator, so it varies with the seed, every seat
    starting in some game, and a seed always draws the same one; the draw is a step after
    the deal, which it leaves unchanged."""
    firsts = Counter(start(players, seed).first_player for seed in range(60))
    assert sorted(firsts) == list(range(players))
    for seed in range(5):
        drawn = start(players, seed)
        assert start(players, seed).first_player == drawn.first_player
        fixed = start(players, seed, first_player=0)
        assert (fixed.hand, fixed.park, fixed.artisan_deck, fixed.fancy_deck, fixed.shop_deck,
                fixed.ench_row) == (drawn.hand, drawn.park, drawn.artisan_deck,
                                    drawn.fancy_deck, drawn.shop_deck, drawn.ench_row)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_turns_go_clockwise_from_the_first_player(players: int) -> None:
    """Rules, "Gameplay": players take turns in clockwise (seat) order, starting with the
    first player chosen at setup."""
    for first in range(players):
        s = fresh(players, seed=4, first_player=first)
        assert s.first_player == first and to_act(s) == first and s.turn == 1
        for turn in range(1, 2 * players):
            while s.turn == turn:
                apply_in_place(s, legal_actions(s)[0])
            assert to_act(s) == (first + turn) % players


def test_a_first_player_outside_the_seats_is_refused() -> None:
    """Errors are part of the interface: a fixed first player must be a seat."""
    with pytest.raises(FlamecraftError, match="first player must be a seat from 0 to 2"):
        start(3, 1, first_player=3)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_everyone_starts_at_zero_outside_the_town(players: int) -> None:
    """Rulings 1 and 5: Reputation starts at 0 for everyone; Flamekeepers start outside the
    Town; the first player (here fixed: seat 1) takes the first turn."""
    s = fresh(players, seed=6)
    assert s.rep == [0] * players
    assert s.rep_sources == [[0] * NUM_SOURCES for _ in range(players)]
    assert s.pos == [EMPTY] * players
    assert s.scored == [[] for _ in range(players)]
    assert s.reserved == [EMPTY] * players
    assert to_act(s) == 0 and s.current == 0 and s.turn == 1
    assert not s.end_triggered and not s.over
    sound(s)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_same_seed_same_game_different_seed_different_game(players: int) -> None:
    """Determinism: the seed fixes every shuffle (a game replays from its seed and actions);
    different seeds deal different games."""
    a, b = start(players, 42), start(players, 42)
    assert a == b
    for _ in range(30):
        assert legal_actions(a) == legal_actions(b)
        action = legal_actions(a)[-1]
        apply_in_place(a, action)
        apply_in_place(b, action)
        assert a == b
    others = [start(players, seed) for seed in range(5)]
    for i in range(5):
        for j in range(i + 1, 5):
            assert others[i] != others[j]
            assert (others[i].artisan_deck, others[i].ench_deck) != (
                others[j].artisan_deck, others[j].ench_deck)
