"""The deal as chance draws (core/setup_game.py): ``DealBuilder`` draws the same deal as the
seed's shuffles, one uniform draw at a time, for the OpenSpiel chance model (issue 11)."""

from __future__ import annotations

import json
import math
import random

import pytest

from flamecraft.core.board import CATALOG
from flamecraft.core.errors import FlamecraftError
from flamecraft.core.invariants import problems
from flamecraft.core.rng import seed_state
from flamecraft.core.serialize import state_to_json
from flamecraft.core.setup_game import (
    DealBuilder,
    artisans_by_type,
    artisans_removed_per_type,
    draw_deal,
    enchantment_deck,
    new_game,
    outcomes_of,
    shop_piles,
)
from flamecraft.core.state import Options

CASES = [Options(n, deck, (), companions, first)
         for n, deck, companions, first in [(1, "purple", False, None), (2, "golden", True, None),
                                            (3, "purple", True, 2), (4, "golden", False, None),
                                            (5, "purple", True, None)]]


@pytest.mark.parametrize("options", CASES)
def test_a_seeded_game_is_a_chance_history(options: Options) -> None:
    """Drawing the cards of a seed's deal through the builder sets up exactly the game the
    seed does (the generator aside: the builder's game has no seed)."""
    for seed in range(4):
        s = new_game(options, seed)
        deal, _ = draw_deal(options, seed_state(seed))
        builder = DealBuilder(options)
        for outcome in outcomes_of(options, deal, s.first_player):
            assert not builder.done
            builder.draw(outcome)
        t = builder.game()
        t.rng = s.rng
        assert json.dumps(state_to_json(t)) == json.dumps(state_to_json(s))


def _possible_deals(options: Options) -> int:
    """How many equally likely deals the seed's shuffles can make: the Shops of each pile and
    the deck's order, the Artisan Dragons left out of each type and the deck's order, the
    Fancy and Enchantment decks' orders, the Companions offered in order, the first player."""
    n = options.players
    count = 1
    piles = shop_piles()
    for index, pile in enumerate(piles):
        count *= math.comb(len(pile), 1 if index < 6 else 4)
    count *= math.factorial(10)
    per_type = artisans_removed_per_type(n)
    kept = 0
    for cards in artisans_by_type():
        count *= math.comb(len(cards), per_type)
        kept += len(cards) - per_type
    count *= math.factorial(kept) * math.factorial(len(CATALOG.fancies))
    count *= math.factorial(len(enchantment_deck(options)))
    if options.companions:
        count *= math.perm(len(CATALOG.companions), n + 1)
    if options.first_player is None:
        count *= n
    return count


@pytest.mark.parametrize("options", CASES)
def test_every_deal_is_equally_likely(options: Options) -> None:
    """Each draw is uniform over its outcomes, and along any path the draws multiply to one
    over the number of deals the shuffles can make (times the orders in which a pile's picks
    can come, the same for every deal): every deal has the same chance, as with the seed's
    Fisher–Yates shuffles. Every built game is sound."""
    rng = random.Random(7)
    for _ in range(5):
        builder = DealBuilder(options)
        paths = 1
        while not builder.done:
            outcomes = builder.outcomes()
            assert outcomes == sorted(set(outcomes))
            paths *= len(outcomes)
            builder.draw(rng.choice(outcomes))
        # The picks within a pile (the 4 other Shops, the dragons left out of a type) come
        # in some order: every deal is reached by the same number of draw paths.
        orders = math.factorial(4) * math.factorial(artisans_removed_per_type(
            options.players)) ** 6
        assert paths == _possible_deals(options) * orders
        s = builder.game()
        assert problems(s) == []
        piles = [CATALOG.shops[c].pile for c in s.shop_deck]
        assert sorted(piles) == [0, 1, 2, 3, 4, 5, 6, 6, 6, 6]


def test_the_builder_refuses_what_cannot_be_drawn() -> None:
    builder = DealBuilder(Options(2))
    taken = builder.outcomes()[0]
    builder.draw(taken)
    with pytest.raises(FlamecraftError, match="not a possible Shop"):
        builder.draw(taken)  # one Shop of its pile is already drawn
    with pytest.raises(FlamecraftError, match="not complete"):
        builder.game()
    other = builder.copy()
    while not other.done:
        other.draw(other.outcomes()[0])
    assert not builder.done  # a copy draws on its own
    with pytest.raises(FlamecraftError, match="complete"):
        other.draw(0)


def test_a_start_survives_pickling() -> None:
    """A review sends a record's start to a worker process: the deal and the start pickle
    and come back equal, compiled (a frozen dataclass of mypyc's refuses pickle's default
    way back) as well as pure."""
    import pickle

    from flamecraft.core.setup_game import seeded_start
    from flamecraft.core.state import Options

    for players in (1, 3, 5):
        begun = seeded_start(Options(players=players), 7)
        assert pickle.loads(pickle.dumps(begun)) == begun
        assert pickle.loads(pickle.dumps(begun.deal)) == begun.deal
