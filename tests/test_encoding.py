"""The fixed action catalogue and the observation vector (encoding.py, docs/rl.md)."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from flamecraft import GameState, apply_in_place, legal_actions, start, view
from flamecraft import actions as A
from flamecraft.board import CATALOG
from flamecraft.encoding import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    catalogue,
    final_rewards,
    layout,
    observation,
    observation_sparse,
)
from flamecraft.errors import IllegalActionError
from helpers import do, fresh, to_hand

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


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_catalogue_is_a_bijection_on_legal_actions(players: int) -> None:
    """Every legal action has its own index, and the index gives the action back (in a
    game with the Companion module too)."""
    cat = catalogue(players)
    kinds_seen: set[int] = set()
    for seed, companions in ((1, False), (2, False), (3, True)):
        for s in _random_states(players, seed, companions=companions):
            actions = legal_actions(s)
            legal = cat.legal(s)
            assert len(legal) == len(actions)
            assert sorted(legal.values()) == sorted(actions)
            for index, action in legal.items():
                assert 0 <= index < cat.size
                assert cat.encode(s, action) == index
                assert cat.decode(s, index) == action
                kinds_seen.add(action[0])
    # The games reach the main kinds of decisions, so the check above is not vacuous.
    assert {A.VISIT, A.GATHER, A.PLACE, A.FIRE, A.KEEP_FANCY, A.END_TURN,
            A.PICK_COMPANION} <= kinds_seen


def test_catalogue_covers_every_action_kind() -> None:
    """A new kind of engine action needs its block in the catalogue (and in docs/rl.md)."""
    assert sorted(catalogue(2)._encoders) == list(range(A.NUM_ACTION_KINDS))


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
    player count, and the seat blocks grow with the count."""
    sizes = [catalogue(n).size for n in PLAYER_COUNTS]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)
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
    out.append(u)
    return out


@pytest.mark.parametrize("players", [2, 4, 5])
def test_observation_never_shows_hidden_cards(players: int) -> None:
    """A seat's view does not change when only cards hidden from it move (another seat's
    hand or Fancy Dragons, deck orders): its observation must not change either."""
    compared = changed = 0
    for s in _random_states(players, 11, every=25):
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


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_observation_is_fixed_size_and_in_unit_range(players: int) -> None:
    size = layout(players).size
    for s in _random_states(players, 3, every=10):
        for seat in range(players):
            vector = observation(s, seat)
            assert len(vector) == size
            assert all(0.0 <= x <= 1.0 for x in vector)
            sparse = observation_sparse(s, seat)
            assert all(vector[i] == v for i, v in sparse.items())
            assert sum(1 for x in vector if x) == sum(1 for v in sparse.values() if v)


def test_observation_lists_seats_from_the_observer() -> None:
    """Seat blocks are relative: seat 1's Reputation is in the first player block of its
    own observation and in the second of seat 0's."""
    s = fresh(3, seed=4)
    s.rep = [0, 30, 0]
    lay = layout(3)
    rep_of_block = [lay.players_block + k * (lay.own - lay.players_block) // 3 + 7
                    for k in range(3)]
    assert observation(s, 1)[rep_of_block[0]] == pytest.approx(30 / 150)
    assert observation(s, 0)[rep_of_block[1]] == pytest.approx(30 / 150)
    assert observation(s, 0)[rep_of_block[0]] == 0.0


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
                         doc), f"docs/rl.md: sizes for {n} players (python -m flamecraft.encoding)"
    for section in catalogue(2).sections:
        assert f"| `{section.name}` | {section.start} |" in doc, (
            f"docs/rl.md: block {section.name} (python -m flamecraft.encoding)")


def test_an_action_taken_by_text_and_by_index_agree() -> None:
    """The catalogue and the readable action texts name the same moves."""
    s = fresh(2, seed=8)
    t = s.copy()
    cat = catalogue(2)
    first = legal_actions(s)[0]
    do(s, A.action_text(first, CATALOG, s.options.player_names()))
    apply_in_place(t, cat.decode(t, cat.encode(t, first)))
    assert s == t
