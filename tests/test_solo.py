"""Solo mode (design §7): setup, gifts to the supply, Town Bustle, the end, achievements and
the rating."""

from __future__ import annotations

import random

import pytest

from flamecraft import apply_in_place, legal_actions, start, view
from flamecraft.core.board import CATALOG
from flamecraft.core.solo import check_achievements, rating
from flamecraft.core.state import (
    CAST_ICONS,
    CASTS,
    COMPLETED,
    FANCY_SCORED,
    GIFTS,
    PLACED,
    SRC_ACHIEVEMENT,
)
from helpers import (
    add_shop,
    do,
    fresh,
    gather,
    give_fancy,
    set_goods,
    set_park,
    set_row,
    sound,
    stand,
    texts,
    to_ability,
    to_hand,
    to_slot,
)

ACH = {a.id: a for a in CATALOG.achievements}


def test_solo_setup() -> None:
    """design §7 setup: 12 Town spaces, 12 Artisan Dragons removed (2 per type), dealt 2 keep
    1 Fancy Dragon, 5 face-up Enchantments, no starting Good."""
    s = start(1, 4)
    assert len(s.town) == 12
    assert len(s.removed) == 12
    assert sorted(CATALOG.artisan_types[d] for d in s.removed) == sorted(list(range(6)) * 2)
    assert len(s.fancy[0]) == 2 and len(s.ench_row) == 5 and len(s.park) == 5
    do(s, texts(s)[0])
    assert len(s.fancy[0]) == 1 and sum(s.goods[0]) == 0
    assert texts(s)[0].startswith("visit ")


def test_plant_gift_goes_to_the_supply_and_counts() -> None:
    """Solo gifts: to the general supply; still a gift given; the Plant fire-up pays 2."""
    s = fresh(1)
    to_slot(s, "critical-rolls", 1, "olive")
    set_goods(s, 0, BREAD=0, MEAT=1)
    gather(s, "critical-rolls")
    if "do not place" in texts(s):
        do(s, "do not place")
    do(s, "fire up Olive")
    assert "gift Meat to the supply" in texts(s)
    do(s, "gift Meat to the supply")
    assert s.goods[0][1] == 0 and s.counters[0][GIFTS] == 1 and s.rep[0] == 2


def test_flagons_and_dragons_is_one_gift_for_four() -> None:
    """design §7: "each other player" means exactly 1 gift, so the ability gains 4."""
    s = fresh(1)
    add_shop(s, "flagons-dragons")
    set_goods(s, 0, IRON=2)
    gather(s, "flagons-dragons")
    while "gift a Good to each other player" not in texts(s):
        options = texts(s)
        skip = [t for t in options if t.startswith(("do not place", "do not fire", "gain Iron"))]
        if any(t.startswith("use ") for t in options):
            do(s, next(t for t in options if t.startswith("use ")))
            continue
        do(s, (skip or options)[0])
    rep = s.rep[0]
    do(s, "gift a Good to each other player")
    if any(t.startswith("give ") for t in texts(s)):
        do(s, next(t for t in texts(s) if t.startswith("give ")))
    assert s.rep[0] == rep + 4 and s.counters[0][GIFTS] == 1


def test_maw_and_paws_gift_goes_to_the_bottom_of_the_artisan_deck() -> None:
    """design §7: an Artisan Dragon gifted in solo goes to the bottom of the Artisan deck."""
    s = fresh(1)
    add_shop(s, "maw-paws")
    to_hand(s, 0, "cutlet")
    gather(s, "maw-paws")
    to_ability(s)
    do(s, "use Hand-Me-Down")
    gift = next(t for t in texts(s) if t.startswith("gift "))
    assert gift.endswith("to the bottom of the Artisan deck")
    dragon = gift.split()[1]
    do(s, gift)
    # Town Bustle then puts the oldest Park dragon under it: the gift is one of the bottom two.
    assert dragon in [CATALOG.artisans[d].name for d in s.artisan_deck[:2]]
    assert dragon not in [CATALOG.artisans[d].name for d in s.hand[0]]
    assert s.rep[0] == 3 and s.counters[0][GIFTS] == 1
    sound(s)


def test_tip_the_scales_never_pays_the_bonus_alone() -> None:
    """design §7: "no other player has less Reputation" is never met in solo."""
    s = fresh(1)
    add_shop(s, "tip-the-scales")
    gather(s, "tip-the-scales")
    to_ability(s)
    do(s, "use Underdog", "gain Bread")
    assert s.rep[0] == 1


def _play_to_end_of_turn(s: object) -> None:
    from helpers import finish_turn

    finish_turn(s)  # type: ignore[arg-type]


def test_town_bustle_removes_the_oldest_enchantment_and_park_dragon() -> None:
    """design §7 Town Bustle: with the row still at 5, its oldest card leaves the game; the
    oldest Park dragon goes to the bottom of the Artisan deck; then the refill."""
    s = fresh(1)
    set_row(s, "smelting-pot", "creme-brulee", "displacer-beef", "wraith-rose", "elfspresso")
    set_park(s, "cutlet", "olive", "rusty", "lotus", "herb")
    gather(s, "critical-rolls")
    _play_to_end_of_turn(s)
    assert s.ench_removed == [CATALOG.enchantment_by_id["smelting-pot"]]
    assert s.artisan_deck[0] == CATALOG.artisan_by_id["cutlet"]
    assert CATALOG.artisan_by_id["cutlet"] not in s.park and len(s.park) == 5
    assert len(s.ench_row) == 5
    sound(s)


def test_town_bustle_keeps_the_row_when_a_card_left_it() -> None:
    """Town Bustle (a) applies only if nothing left the row this turn."""
    s = fresh(1)
    set_row(s, "smelting-pot", "creme-brulee", "displacer-beef", "wraith-rose", "elfspresso")
    set_goods(s, 0, BREAD=2, IRON=3)
    do(s, "visit Draco Bell", "enchant")
    _play_to_end_of_turn(s)
    assert s.ench_removed == []
    assert CATALOG.enchantment_by_id["smelting-pot"] in s.ench_row


@pytest.mark.parametrize("seed", range(6))
def test_solo_game_lasts_at_most_14_turns(seed: int) -> None:
    """design §7: at least one Enchantment leaves the row each turn, so the game ends by the
    end of turn 14 (the trigger, then one more turn)."""
    s = start(1, seed, "golden" if seed % 2 else "purple")
    rng = random.Random(seed)
    while not s.over:
        apply_in_place(s, rng.choice(legal_actions(s)))
    assert 2 <= s.turn <= 14
    assert view(s, 0)["rating"] == rating(s.rep[0])
    sound(s)


def test_the_final_round_is_one_more_turn() -> None:
    """Solo end: finish the triggering turn, then take one more turn."""
    s = fresh(1)
    while len(s.ench_deck) > 1:
        s.ench_removed.append(s.ench_deck.pop())
    s.cache = None
    gather(s, "critical-rolls")
    _play_to_end_of_turn(s)  # the refill reveals the last card: end triggered
    assert s.end_triggered and not s.over
    turn = s.turn
    _play_to_end_of_turn(s)
    assert s.over and s.turn == turn


REQUIREMENTS = {
    "kindling": lambda s: s.counters[0].__setitem__(CASTS, 2),
    "spellweaver": lambda s: s.counters[0].__setitem__(CASTS, 5),
    "jack-of-all-spells": lambda s: s.counters[0].__setitem__(CAST_ICONS, 0b1111),
    "dragon-keeper": lambda s: s.counters[0].__setitem__(PLACED, 8),
    "town-planner": lambda s: s.counters[0].__setitem__(COMPLETED, 3),
    "rainbow-pantry": lambda s: s.goods.__setitem__(0, [2] * 6),
    "treasurer": lambda s: s.coins.__setitem__(0, 6),
    "storyteller": lambda s: s.counters[0].__setitem__(FANCY_SCORED, 3),
    "benefactor": lambda s: s.counters[0].__setitem__(GIFTS, 5),
}
SHORT_BY_ONE = {
    "kindling": lambda s: s.counters[0].__setitem__(CASTS, 1),
    "spellweaver": lambda s: s.counters[0].__setitem__(CASTS, 4),
    "jack-of-all-spells": lambda s: s.counters[0].__setitem__(CAST_ICONS, 0b111),
    "dragon-keeper": lambda s: s.counters[0].__setitem__(PLACED, 7),
    "town-planner": lambda s: s.counters[0].__setitem__(COMPLETED, 2),
    "rainbow-pantry": lambda s: s.goods.__setitem__(0, [2] * 5 + [1]),
    "treasurer": lambda s: s.coins.__setitem__(0, 5),
    "storyteller": lambda s: s.counters[0].__setitem__(FANCY_SCORED, 2),
    "benefactor": lambda s: s.counters[0].__setitem__(GIFTS, 4),
}


@pytest.mark.parametrize("achievement", sorted(REQUIREMENTS))
def test_each_counter_achievement(achievement: str) -> None:
    """design §7 achievements: claimed when the requirement is met, once, for its reward."""
    card = ACH[achievement]
    s = fresh(1)
    SHORT_BY_ONE[achievement](s)
    check_achievements(s, 0)
    assert card.index not in s.achievements[0]
    REQUIREMENTS[achievement](s)
    check_achievements(s, 0)
    assert card.index in s.achievements[0]
    claimed = sum(CATALOG.achievements[a].rep for a in s.achievements[0])
    assert card.rep <= claimed == s.rep_sources[0][SRC_ACHIEVEMENT] == s.rep[0]
    check_achievements(s, 0)
    assert s.achievements[0].count(card.index) == 1 and s.rep[0] == claimed


def test_skyline_and_full_bloom_read_the_town() -> None:
    """Skyline: 12 Shops in Town; Full Bloom: a Shop with 3 dragons and 3 Enchantments."""
    s = fresh(1)
    check_achievements(s, 0)
    assert not s.achievements[0]
    for shop in list(s.shop_deck)[:6]:
        add_shop(s, CATALOG.shops[shop].id)
    to_slot(s, "critical-rolls", 1, "cutlet")
    to_slot(s, "critical-rolls", 2, "brisket")
    from helpers import tuck

    tuck(s, "critical-rolls", *[CATALOG.enchantments[e].id for e in s.ench_deck[:3]])
    check_achievements(s, 0)
    assert {ACH["skyline"].index, ACH["full-bloom"].index} <= set(s.achievements[0])
    sound(s)


def test_achievements_are_checked_at_the_end_of_each_turn() -> None:
    """Achievements are checked at the end of each turn, after the refill."""
    s = fresh(1)
    set_goods(s, 0, coins=6)
    gather(s, "critical-rolls")
    _play_to_end_of_turn(s)
    assert ACH["treasurer"].index in s.achievements[0]


def test_storyteller_counts_moon_dragons_scored_at_the_end() -> None:
    """Checked once more after end-game scoring: Moon Dragons scored then count."""
    from helpers import end_game

    s = fresh(1)
    s.counters[0][FANCY_SCORED] = 2
    give_fancy(s, 0, "den-mother")
    to_hand(s, 0, "cutlet")
    end_game(s)
    assert ACH["storyteller"].index in s.achievements[0]


def test_multiplayer_games_have_no_achievements() -> None:
    s = fresh(2)
    set_goods(s, 0, coins=6)
    stand(s, 1, "draco-bell")
    gather(s, "critical-rolls")
    _play_to_end_of_turn(s)
    assert s.achievements == [[], []]


@pytest.mark.parametrize(("rep", "title"), [(0, "Apprentice"), (17, "Apprentice"),
                                            (18, "Journeyman"), (33, "Flamekeeper"),
                                            (52, "Flamekeeper"), (53, "Town Favourite"),
                                            (73, "Master of Flamecraft"),
                                            (87, "Master of Flamecraft"),
                                            (88, "Legend of the Town"),
                                            (140, "Legend of the Town")])
def test_rating_table(rep: int, title: str) -> None:
    """design §7 rating by final Reputation, as re-fitted from the bots' solo scores
    (data/solo.toml rating_note): the highest threshold reached."""
    assert rating(rep) == title
