"""The fixed action catalogue and the observation vector (encoding.py, docs/rl.md)."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import random
import re
import struct
from pathlib import Path

import pytest

import observation_reference as reference
from flamecraft import GameState, apply_in_place, legal_actions, start, view
from flamecraft.core import actions as A
from flamecraft.core.board import CATALOG
from flamecraft.core.errors import IllegalActionError
from flamecraft.core.frames import SUPPLY
from flamecraft.core.kinds import ACTION_KINDS
from flamecraft.core.solo import rating
from flamecraft.research.encoding import (
    COMPANION_FIXED,
    COMPANION_SEAT,
    ENCODING_VERSION,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_ACHIEVEMENTS,
    NUM_COMPANIONS,
    NUM_ENCH,
    PLAYER_BLOCK,
    SOLO_BLOCK,
    ActionCatalogue,
    catalogue,
    final_rewards,
    layout,
    observation,
    observation_buffer,
    observation_sparse,
    solo_target,
)
from helpers import (
    add_shop,
    do,
    fresh,
    gather,
    set_goods,
    texts,
    to_ability,
    to_hand,
    to_slot,
    with_companion,
)

PLAYER_COUNTS = range(MIN_PLAYERS, MAX_PLAYERS + 1)
DOC = Path(__file__).parent.parent / "docs" / "rl.md"


def _random_states(players: int, seed: int, every: int = 1,
                   companions: bool = False) -> list[GameState]:
    """Copies of the decision states of one random game (every ``every``-th one)."""
    s = start(players, seed, companions=companions)
    rng = random.Random(seed)
    out = []
    step = 0
    while not s.over:
        if step % every == 0:
            out.append(s.copy())
        apply_in_place(s, rng.choice(legal_actions(s)))
        step += 1
    out.append(s)
    return out


def _check_bijection(cat: ActionCatalogue, states: list[GameState]) -> set[int]:
    """Asserts that every legal action of every state has its own index and that the index
    gives the action back; returns the action kinds seen."""
    kinds_seen: set[int] = set()
    for s in states:
        actions = legal_actions(s)
        legal = cat.legal(s)
        assert len(legal) == len(actions)
        assert sorted(legal.values()) == sorted(actions)
        for index, action in legal.items():
            assert 0 <= index < cat.size
            assert cat.encode(s, action) == index
            assert cat.decode(s, index) == action
            kinds_seen.add(action[0])
    return kinds_seen


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_catalogue_is_a_bijection_on_legal_actions(players: int) -> None:
    """Every legal action has its own index, and the index gives the action back (in a
    game with the Companion module too, and in solo games)."""
    cat = catalogue(players)
    kinds_seen: set[int] = set()
    for seed, companions in ((1, False), (2, False), (3, True)):
        kinds_seen |= _check_bijection(cat, _random_states(players, seed,
                                                           companions=companions))
    # The games reach the main kinds of decisions, so the check above is not vacuous.
    assert {A.VISIT, A.GATHER, A.PLACE, A.FIRE, A.KEEP_FANCY, A.END_TURN,
            A.PICK_COMPANION} <= kinds_seen


def _solo_gift() -> GameState:
    """design §7 Gifts: a solo game in which the player, having Gathered at Critical Rolls,
    fires up Olive (Plant: gift 1 Good), and may gift its Meat to the general supply."""
    s = fresh(1)
    to_slot(s, "critical-rolls", 1, "olive")
    set_goods(s, 0, BREAD=0, MEAT=1)
    gather(s, "critical-rolls")
    if "do not place" in texts(s):
        do(s, "do not place")
    return do(s, "fire up Olive")


@pytest.mark.parametrize("players", [1, 3])
def test_catalogue_covers_companion_actions_and_solo_gifts(players: int) -> None:
    """design §6 (the draft, a Companion used, Knick Knack's exchange) and §7 (a solo gift
    goes to the supply), solo and at 3 players: states built to offer each of these actions;
    every legal action there has its own index, which gives it back."""
    draft = start(players, 0, companions=True)  # the draft comes before anything else
    knick = with_companion("knick-knack", players)
    set_goods(knick, 0, BREAD=2)
    exchange = do(knick.copy(), "use Knick Knack")
    states = [draft, knick, exchange] + ([_solo_gift()] if players == 1 else [])
    cat = catalogue(players)
    kinds = _check_bijection(cat, states)
    assert {A.PICK_COMPANION, A.USE_COMPANION, A.EXCHANGE_GOOD} <= kinds
    bread_for_meat = (A.EXCHANGE_GOOD, 0, 1, -1)
    assert bread_for_meat in legal_actions(exchange)
    start_of = {sec.name: sec.start for sec in cat.sections}
    assert cat.encode(exchange, bread_for_meat) == start_of["exchange_good"] + 0 * 6 + 1
    if players == 1:
        assert A.GIFT in kinds


def test_solo_gifts_to_the_supply_have_their_own_index() -> None:
    """design §7 Gifts: in solo a gift goes to the general supply (a Plant fire-up, Maw &
    Paw's Hand-Me-Down): the catalogue names the supply as seat offset 0 of the gift
    blocks, and the index gives the action back."""
    cat = catalogue(1)
    start_of = {sec.name: sec.start for sec in cat.sections}
    s = _solo_gift()
    gift = (A.GIFT, 1, SUPPLY, -1)  # 1 Meat to the supply
    assert gift in legal_actions(s)
    assert cat.encode(s, gift) == start_of["gift"] + 1
    assert cat.decode(s, start_of["gift"] + 1) == gift

    s = fresh(1)
    add_shop(s, "maw-paws")
    to_hand(s, 0, "cutlet")
    gather(s, "maw-paws")
    to_ability(s)
    do(s, "use Hand-Me-Down")
    gifts = [a for a in legal_actions(s) if a[0] == A.GIFT_ARTISAN]
    assert gifts and all(a[2] == SUPPLY for a in gifts)
    for action in gifts:
        index = cat.encode(s, action)
        assert index == start_of["gift_artisan"] + CATALOG.artisan_types[action[1]]
        assert cat.decode(s, index) == action


def test_legal_numbers_in_later_blocks_what_the_first_does_not_hold() -> None:
    """``legal`` numbers most actions directly in their kind's first block; a dragon fired
    from the Park is not in that block (Town's slots) and gets its index from the later
    blocks, the one ``encode`` finds by walking them all."""
    cat = catalogue(2)
    fired_from_park = 0
    for seed in range(2):
        for s in _random_states(2, seed):
            for index, action in cat.legal(s).items():
                assert cat.encode(s, action) == index
                if action[0] == A.FIRE and cat.section_of(index).name == "fire_park":
                    fired_from_park += 1
    assert fired_from_park > 0


def test_catalogue_covers_every_action_kind() -> None:
    """A new kind of engine action needs its block in the catalogue (and in docs/rl.md)."""
    assert sorted(catalogue(2)._encoders) == sorted(ACTION_KINDS)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_mask_is_exactly_the_legal_actions(players: int) -> None:
    cat = catalogue(players)
    for s in _random_states(players, 7, every=5):
        mask = cat.mask(s)
        assert len(mask) == cat.size
        assert [i for i, bit in enumerate(mask) if bit] == cat.legal_indices(s)
        assert sum(mask) == len(legal_actions(s))


def test_catalogue_depends_on_player_count_only() -> None:
    """The catalogue is fixed by the options: the same object and size for every game of a
    player count, and the seat blocks grow with the count. Solo has the 2-player layout:
    its one gift target, the supply, takes the place of the one other seat."""
    sizes = [catalogue(n).size for n in range(2, MAX_PLAYERS + 1)]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)
    assert catalogue(1).sections == catalogue(2).sections
    assert catalogue(3) is catalogue(3)
    sections = catalogue(4).sections
    assert sections[0].start == 0
    for before, after in itertools.pairwise(sections):
        assert after.start == before.start + before.size
    assert sections[-1].start + sections[-1].size == catalogue(4).size


def test_dragons_of_one_type_share_an_index() -> None:
    """Two dragons of one type in hand are one choice: the engine offers one placement per
    type and the catalogue names it by type, so the index does not depend on which one."""
    s = fresh(2, seed=3)
    p = s.stack[-1][1]
    twins = [a.id for a in CATALOG.artisans if a.type == 1 and not a.starter][:2]
    to_hand(s, p, *twins)
    cat = catalogue(2)
    one, other = (CATALOG.artisan_by_id[d] for d in twins)
    assert cat._encoder(A.PLACE)(s, p, (A.PLACE, one, 0, 0)) == cat._encoder(A.PLACE)(
        s, p, (A.PLACE, other, 0, 0))
    assert cat._encoder(A.PLACE)(s, p, (A.PLACE, one, 0, 0)) != cat._encoder(A.PLACE)(
        s, p, (A.PLACE, one, 0, 1))


def test_decode_refuses_an_index_that_is_not_legal() -> None:
    s = fresh(3, seed=1)
    cat = catalogue(3)
    illegal = next(i for i in range(cat.size) if i not in cat.legal(s))
    with pytest.raises(IllegalActionError):
        cat.decode(s, illegal)


def test_give_and_gift_name_seats_by_offset_from_the_actor() -> None:
    """Rules, Visiting a Shop (ruling 7): the Good given to the Flamekeeper already there is
    encoded by that seat's offset, so "give to the next seat" is one index from every seat."""
    s = fresh(3, seed=5)
    cat = catalogue(3)
    base = next(sec.start for sec in cat.sections if sec.name == "give")
    for actor in range(3):
        s.stack[-1] = (s.stack[-1][0], actor, *s.stack[-1][2:])
        give_next = (A.GIVE, 0, (actor + 1) % 3, -1)
        give_after = (A.GIVE, 0, (actor + 2) % 3, -1)
        assert cat._encoder(A.GIVE)(s, actor, give_next) == base
        assert cat._encoder(A.GIVE)(s, actor, give_after) == base + 1


def _hidden_swaps(s: GameState, observer: int) -> list[GameState]:
    """Copies of ``s`` that differ only in cards ``observer`` cannot see."""
    out = []
    for other in range(s.n):
        if other == observer:
            continue
        if s.hand[other] and s.artisan_deck:
            u = s.copy()
            u.hand[other][0], u.artisan_deck[0] = u.artisan_deck[0], u.hand[other][0]
            out.append(u)
        if s.fancy[other] and s.fancy_deck:
            u = s.copy()
            u.fancy[other][0], u.fancy_deck[0] = u.fancy_deck[0], u.fancy[other][0]
            out.append(u)
    u = s.copy()
    u.ench_deck.reverse()
    u.shop_deck.reverse()
    u.artisan_deck.reverse()
    u.fancy_deck.reverse()
    u.companion_box.reverse()  # Companions never revealed (design §6)
    out.append(u)
    return out


@pytest.mark.parametrize(("players", "companions", "every"),
                         [(2, False, 25), (4, False, 25), (5, False, 25), (3, True, 15),
                          (1, True, 1)])
def test_observation_never_shows_hidden_cards(players: int, companions: bool,
                                              every: int) -> None:
    """A seat's view does not change when only cards hidden from it move (another seat's
    hand or Fancy Dragons, deck orders, the Companions left in the box): its observation
    must not change either — with the Companion module and in solo too."""
    compared = changed = 0
    for s in _random_states(players, 11, every=every, companions=companions):
        for observer in range(players):
            seen = observation(s, observer)
            for u in _hidden_swaps(s, observer):
                u.cache = None
                if view(u, observer) != view(s, observer):
                    continue  # the seat can see the difference (a look at the deck top)
                compared += 1
                changed += u != s
                assert observation(u, observer) == seen
    assert compared > 20 and changed > 10


def test_observation_shows_the_seats_own_hand() -> None:
    """The converse: the seat's own hidden cards are in its observation (so the test above
    can fail), and another seat's observation does not change with them."""
    s = fresh(3, seed=2)
    u = s.copy()
    mine = u.hand[0][0]
    swap = next(i for i, d in enumerate(u.artisan_deck)
                if catalogue(3)._encoder(A.DISCARD)(u, 0, (A.DISCARD, d, -1, -1))
                != catalogue(3)._encoder(A.DISCARD)(u, 0, (A.DISCARD, mine, -1, -1)))
    u.hand[0][0], u.artisan_deck[swap] = u.artisan_deck[swap], u.hand[0][0]
    u.cache = None
    assert observation(u, 0) != observation(s, 0)
    assert observation(u, 1) == observation(s, 1)


@pytest.mark.parametrize(("players", "companions"),
                         [*((n, False) for n in PLAYER_COUNTS), (1, True), (3, True)])
def test_observation_is_fixed_size_and_in_unit_range(players: int, companions: bool) -> None:
    """One size per player count, with or without the Companion module."""
    size = layout(players).size
    for s in _random_states(players, 3, every=10, companions=companions):
        for seat in range(players):
            vector = observation(s, seat)
            assert len(vector) == size
            assert all(0.0 <= x <= 1.0 for x in vector)
            sparse = observation_sparse(s, seat)
            assert all(vector[i] == v for i, v in sparse.items())
            assert sum(1 for x in vector if x) == sum(1 for v in sparse.values() if v)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_observation_is_the_one_built_before_it_was_compiled(players: int) -> None:
    """The fast builder (a buffer of doubles, compiled with the core) gives, to the last bit,
    the vector the plain-Python builder it replaced gave (tests/observation_reference.py), for
    every seat and the public observer, over seeded games of both decks, Companions on and
    off; and the environments' float32 array is that vector, cast."""
    compared = 0
    for deck, companions in itertools.product(("purple", "golden"), (False, True)):
        seed = 40 + players + (deck == "golden") * 10 + companions * 20
        s = start(players, seed, deck, companions=companions)
        rng = random.Random(seed)
        while True:
            for seat in (None, *range(players)):
                expected = [0.0] * layout(players).size
                for index, value in reference.observation_sparse(s, seat).items():
                    expected[index] = value
                vector = observation(s, seat)
                assert vector == expected, (deck, companions, seed, seat)
                assert observation_buffer(s, seat) == struct.pack(f"{len(vector)}d", *vector)
                compared += 1
            if s.over:
                break
            apply_in_place(s, rng.choice(legal_actions(s)))
    assert compared > 4 * 50 * (players + 1)


def test_observation_lists_seats_from_the_observer() -> None:
    """Seat blocks are relative: seat 1's Reputation is in the first player block of its
    own observation and in the second of seat 0's."""
    s = fresh(3, seed=4)
    s.rep = [0, 30, 0]
    lay = layout(3)
    rep_of_block = [lay.players_block + k * PLAYER_BLOCK + 7 for k in range(3)]
    assert observation(s, 1)[rep_of_block[0]] == pytest.approx(30 / 150)
    assert observation(s, 0)[rep_of_block[1]] == pytest.approx(30 / 150)
    assert observation(s, 0)[rep_of_block[0]] == 0.0


def _companion_block(vector: list[float], players: int) -> list[float]:
    lay = layout(players)
    return vector[lay.companions:lay.solo]


def test_observation_shows_the_companion_draft_and_every_seats_companion() -> None:
    """design §6: Companions are revealed for the draft, taken in reverse seat order and
    held face up, so every seat sees the offer and who holds which, by seat offset, and
    how often each was used (this game, this turn)."""
    n = 3
    s = start(n, 5, companions=True)
    lay = layout(n)
    assert s.companion_offer and all(c < 0 for c in s.companion)
    b = lay.companions
    for seat in range(n):
        vector = observation(s, seat)
        assert vector[b] == 1.0  # the module is in play
        assert [c for c in range(NUM_COMPANIONS) if vector[b + 1 + c]] == sorted(
            s.companion_offer)
        for k in range(n):  # nobody holds one yet: "none" for every seat
            held = vector[b + COMPANION_FIXED + k * COMPANION_SEAT:][:NUM_COMPANIONS + 1]
            assert held == [0.0] * NUM_COMPANIONS + [1.0]
    while any(c < 0 for c in s.companion):
        do(s, texts(s)[0])
    assert not s.companion_offer
    s.companion_uses[1], s.companion_turn[1] = 2, 1
    for seat in range(n):
        vector = observation(s, seat)
        assert not any(vector[b + 1:b + COMPANION_FIXED])  # the offer is gone
        for p in range(n):
            k = (p - seat) % n
            block = vector[b + COMPANION_FIXED + k * COMPANION_SEAT:][:COMPANION_SEAT]
            assert block[s.companion[p]] == 1.0 and sum(block[:NUM_COMPANIONS + 1]) == 1.0
            assert (block[-2] > 0, block[-1] > 0) == (p == 1, p == 1)


def test_companion_block_is_zero_without_the_module() -> None:
    """The observation keeps one size per player count: without the Companion module its
    block is there, all zero."""
    s = _random_states(2, 4, every=40)[1]
    assert not s.options.companions
    for seat in range(2):
        assert not any(_companion_block(observation(s, seat), 2))
    assert layout(2).solo - layout(2).companions == COMPANION_FIXED + 2 * COMPANION_SEAT


def test_solo_observation_shows_achievements_row_order_and_removed_enchantments() -> None:
    """design §7: the achievements claimed (one bit each), the arrival order of the
    Enchantment row (Town Bustle removes the oldest) and the Enchantments it removed are
    public, and in the solo block; multiplayer layouts have no solo block."""
    s = _random_states(1, 2, every=1000)[-1]  # a finished solo game
    assert s.achievements[0] and s.ench_removed
    lay = layout(1)
    assert lay.own - lay.solo == SOLO_BLOCK and layout(2).own == layout(2).solo
    vector = observation(s, 0)
    block = vector[lay.solo:lay.own]
    claimed = block[:NUM_ACHIEVEMENTS]
    assert [a for a in range(NUM_ACHIEVEMENTS) if claimed[a]] == sorted(s.achievements[0])
    order = block[NUM_ACHIEVEMENTS:NUM_ACHIEVEMENTS + NUM_ENCH]
    ages = [order[e] for e in s.ench_row]
    assert ages == sorted(ages, reverse=True) and len(set(ages)) == len(ages)
    assert sum(1 for x in order if x) == len(s.ench_row)
    removed = block[NUM_ACHIEVEMENTS + NUM_ENCH:]
    assert [e for e in range(NUM_ENCH) if removed[e]] == sorted(s.ench_removed)


def test_rewards_win_and_margin() -> None:
    """ruling 20: highest Reputation wins, ties broken by Artisan Dragons in hand; "win"
    gives +1 to the winner(s) and -1 to the others, "margin" the lead over the best other."""
    s = fresh(3, seed=6)
    s.rep = [10, 7, 3]
    assert final_rewards(s, "win") == [1.0, -1.0, -1.0]
    assert final_rewards(s, "margin") == [3.0, -3.0, -7.0]
    s.rep = [10, 10, 3]
    s.hand[1].append(s.artisan_deck.pop())
    assert final_rewards(s, "win") == [-1.0, 1.0, -1.0]
    assert final_rewards(s, "margin") == [0.0, 0.0, -7.0]
    with pytest.raises(ValueError):
        final_rewards(s, "score")


def test_solo_rewards_measure_against_the_flamekeeper_rating() -> None:
    """design §7 Rating: a solo game is "won" (+1) when the final Reputation reaches the
    Flamekeeper title, else -1; "margin" is the Reputation minus that threshold."""
    target = solo_target()
    assert rating(target) == "Flamekeeper" and rating(target - 1) != "Flamekeeper"
    s = fresh(1, seed=6)
    s.rep = [target]
    assert final_rewards(s, "win") == [1.0] and final_rewards(s, "margin") == [0.0]
    s.rep = [target - 1]
    assert final_rewards(s, "win") == [-1.0] and final_rewards(s, "margin") == [-1.0]
    s.rep = [target + 12]
    assert final_rewards(s, "win") == [1.0] and final_rewards(s, "margin") == [12.0]


def test_rewards_of_a_finished_game_name_its_winner() -> None:
    s = _random_states(2, 5)[-1]
    assert s.over
    from flamecraft import winners

    wins = final_rewards(s, "win")
    assert [p for p in range(2) if wins[p] == 1.0] == winners(s)


def test_docs_give_the_catalogue_and_observation_sizes() -> None:
    """docs/rl.md documents every catalogue block and both sizes at every player count."""
    doc = DOC.read_text(encoding="utf-8")
    for n in PLAYER_COUNTS:
        assert re.search(rf"\|\s*{n}\s*\|\s*{catalogue(n).size}\s*\|\s*{layout(n).size}\s*\|",
                         doc), (f"docs/rl.md: sizes for {n} players"
                                " (python -m flamecraft.research.encoding)")
    for section in catalogue(2).sections:
        assert f"| `{section.name}` | {section.start} |" in doc, (
            f"docs/rl.md: block {section.name} (python -m flamecraft.research.encoding)")


# The structure of the encoding at each version (docs/rl.md, "Versions"): the catalogue's
# blocks (name, first index, size) and the observation's block offsets, at every player count,
# hashed by _structure(). When this test fails, the structure changed: raise
# encoding.ENCODING_VERSION, add its row to docs/rl.md's "Versions" and pin it here.
STRUCTURES = {
    0: "ae143ff1aa6f1d89430d1fd80e192fc910a37c211d00daf7c28f84336a36f83e",
    # v1 (unreleased when re-pinned): the layout record gained the decision kinds' count when
    # the kinds were declared once; the vector and the catalogue are the same (the
    # observation reference and every block's start and size are unchanged).
    1: "b50c73516a05bda41b7b656e19854980dd05325c1bf8a0328ef202115e5efe97",
}


def _structure() -> str:
    parts: list[list[object]] = []
    for n in PLAYER_COUNTS:
        parts.append([[sec.name, sec.start, sec.size] for sec in catalogue(n).sections])
        parts.append(list(dataclasses.astuple(layout(n))))
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def test_the_encoding_version_pins_the_structure() -> None:
    """PettingZoo's rule (docs/rl.md, "Versions"): a catalogue or an observation layout that
    changes comes with a new version, documented."""
    assert _structure() == STRUCTURES[ENCODING_VERSION], (
        "the catalogue or the observation layout changed: raise encoding.ENCODING_VERSION, "
        "document it in docs/rl.md (Versions) and pin the new structure in STRUCTURES")
    assert max(STRUCTURES) == ENCODING_VERSION and len(set(STRUCTURES.values())) == len(STRUCTURES)
    versions = DOC.read_text(encoding="utf-8").split("## Versions", 1)[1].split("\n## ", 1)[0]
    for version in STRUCTURES:
        assert re.search(rf"^\| {version} \| \S", versions, re.M), (
            f"docs/rl.md, Versions: no row for version {version}")


def test_an_action_taken_by_text_and_by_index_agree() -> None:
    """The catalogue and the readable action texts name the same moves."""
    s = fresh(2, seed=8)
    t = s.copy()
    cat = catalogue(2)
    first = legal_actions(s)[0]
    do(s, A.action_text(first, CATALOG, s.options.player_names()))
    apply_in_place(t, cat.decode(t, cat.encode(t, first)))
    assert s == t
