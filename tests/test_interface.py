"""The public interface: legal lists, illegal actions, apply vs apply_in_place, parsing typed
actions, and what each seat's view may show (design: engine-forces "One decision model serves
everyone", "Hidden information is a first-class citizen")."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from flamecraft import (
    GameOverError,
    GameRecord,
    GameState,
    IllegalActionError,
    Options,
    StateFormatError,
    apply,
    apply_in_place,
    dump_record,
    dump_state,
    legal_actions,
    load_record,
    load_state,
    parse_action,
    replay,
    start,
    text,
    to_act,
    view,
)
from flamecraft.core import actions as A
from flamecraft.core.board import CATALOG
from flamecraft.core.state import EMPTY
from helpers import S, add_shop, do, end_game, fresh, texts

GAMES = [(2, 0), (3, 1), (4, 2), (5, 3)]


def random_line(players: int, seed: int, decisions: int) -> list[GameState]:
    """States along a random line of play (each a separate copy)."""
    rng = random.Random(seed)
    s = start(players, seed)
    out = [s.copy()]
    for _ in range(decisions):
        if s.over:
            break
        apply_in_place(s, rng.choice(legal_actions(s)))
        out.append(s.copy())
    return out


def played_out(players: int, seed: int) -> GameState:
    """A finished game (random play)."""
    rng = random.Random(seed)
    s = start(players, seed)
    while not s.over:
        apply_in_place(s, rng.choice(legal_actions(s)))
    return s


# --- legal lists ------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_legal_list_properties(players: int, seed: int) -> None:
    """Every decision offers a non-empty list of distinct small int 4-tuples, each with a
    distinct text that parses back to it (by text and by index); the player to act is a seat;
    the returned list is the caller's own copy."""
    for s in random_line(players, seed, 150):
        actions = legal_actions(s)
        assert actions and not s.over
        assert len(set(actions)) == len(actions)
        for a in actions:
            assert isinstance(a, tuple) and len(a) == 4
            assert all(type(x) is int for x in a)
            hash(a)
        written = [text(s, a) for a in actions]
        assert len(set(written)) == len(written)
        for i, (a, t) in enumerate(zip(actions, written, strict=True)):
            assert parse_action(s, t) == a
            assert parse_action(s, str(i)) == a
        assert 0 <= to_act(s) < players
        assert to_act(s) == s.stack[-1][1]
        actions.clear()
        assert legal_actions(s)  # the state's own list is untouched


def test_finished_game_has_no_legal_action_and_nobody_to_act() -> None:
    """A game that is over offers nothing and nobody acts."""
    s = played_out(2, 5)
    assert s.over and legal_actions(s) == [] and to_act(s) == -1


# --- illegal actions --------------------------------------------------------------------------

def _foreign_actions(s: GameState) -> list[tuple[int, int, int, int]]:
    """Actions that are not legal now: other kinds, Shops not in Town, malformed values."""
    legal = set(legal_actions(s))
    absent_shop = next(i for i in range(len(CATALOG.shops)) if i not in s.town)
    candidates = [
        (A.VISIT, absent_shop, -1, -1),
        (A.END_TURN, -1, -1, -1),
        (A.GATHER, -1, -1, -1),
        (A.TAKE_GOOD, 6, -1, -1),  # a Coin is never a Good of choice
        (A.GAIN_GOOD, 0, -1, -1),
        (A.REVEAL, 0, -1, -1),
        (A.SKIP, A.NO_PLACE, -1, -1),
        (A.PLACE, 0, 0, 0),
        (999, 0, 0, 0),
        (A.VISIT, -5, 7, 7),
    ]
    return [a for a in candidates if a not in legal]


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_illegal_actions_raise_and_leave_the_state_unchanged(players: int, seed: int) -> None:
    """apply and apply_in_place raise IllegalActionError for an action not in the legal list,
    and the state stays exactly equal to a copy made before."""
    for s in random_line(players, seed, 60)[::6]:
        legal_actions(s)
        before = s.copy()
        for a in _foreign_actions(s):
            with pytest.raises(IllegalActionError):
                apply(s, a)
            assert s == before
            with pytest.raises(IllegalActionError):
                apply_in_place(s, a)
            assert s == before
            assert legal_actions(s) == legal_actions(before)


def test_illegal_action_of_another_decision_is_refused() -> None:
    """An action that was legal at an earlier decision is refused at a later one, with no
    change (here: visiting again once the visit is made)."""
    s = fresh(2, seed=0)
    visit = parse_action(s, "visit Critical Rolls")
    apply_in_place(s, visit)
    before = s.copy()
    for bad in (visit, parse_action(fresh(2, seed=0), "visit Draco Bell")):
        with pytest.raises(IllegalActionError):
            apply_in_place(s, bad)
        assert s == before
    # Wrong types are refused too.
    with pytest.raises(IllegalActionError):
        apply(s, "gather")
    assert s == before


def test_actions_on_a_finished_game_raise_game_over_error() -> None:
    """Once the game is over, apply, apply_in_place and parse_action raise GameOverError (an
    IllegalActionError) and change nothing."""
    s = end_game(fresh(3, seed=1))
    assert s.over
    before = s.copy()
    for call in (lambda: apply(s, (A.END_TURN, -1, -1, -1)),
                 lambda: apply_in_place(s, (A.VISIT, 0, -1, -1)),
                 lambda: parse_action(s, "end turn"),
                 lambda: parse_action(s, "0")):
        with pytest.raises(GameOverError):
            call()
        assert s == before
    assert issubclass(GameOverError, IllegalActionError)


# --- apply and apply_in_place -----------------------------------------------------------------

@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_apply_equals_apply_in_place_and_never_changes_its_input(players: int,
                                                                  seed: int) -> None:
    """apply returns the state apply_in_place makes, and leaves its input unchanged; the new
    state shares no mutable part with the old one."""
    rng = random.Random(seed)
    s = start(players, seed)
    for _ in range(200):
        if s.over:
            break
        actions = legal_actions(s)
        a = rng.choice(actions)
        before = s.copy()
        made = apply(s, a)
        assert s == before
        assert legal_actions(s) == actions
        apply_in_place(s, a)
        assert made == s
        assert legal_actions(made) == legal_actions(s)
        made.goods[0][0] += 5  # the two states are independent
        made.hand[0].append(-7)
        made.stack.append((0,))
        assert s.goods[0][0] != made.goods[0][0] and -7 not in s.hand[0]
        assert s.stack[-1] != (0,)


def test_whole_games_agree_between_apply_and_apply_in_place() -> None:
    """A whole game played with apply ends in the same state as with apply_in_place."""
    rng_a, rng_b = random.Random(3), random.Random(3)
    a = start(3, 9)
    b = start(3, 9)
    while not a.over:
        a = apply(a, rng_a.choice(legal_actions(a)))
        apply_in_place(b, rng_b.choice(legal_actions(b)))
    assert b.over and a == b


# --- parse_action -----------------------------------------------------------------------------

def test_parse_action_by_text_index_case_and_spacing() -> None:
    """parse_action accepts an action's text in any case and spacing, or its index in the
    legal list; anything else raises IllegalActionError naming the legal actions."""
    s = fresh(2, seed=0)
    visit = legal_actions(s)[1]
    assert text(s, visit) == "visit Draco Bell"
    assert parse_action(s, "visit Draco Bell") == visit
    assert parse_action(s, "VISIT draco BELL") == visit
    assert parse_action(s, "  visit\tDraco   Bell \n") == visit
    assert parse_action(s, "1") == visit
    assert parse_action(s, " 1 ") == visit
    assert parse_action(s, "0") == legal_actions(s)[0]
    for bad in ("6", "99"):
        with pytest.raises(IllegalActionError, match="there are 6"):
            parse_action(s, bad)
    for bad in ("-1", "visit Fogo de Char", "visit", "", "visit Draco Bel", "gather"):
        with pytest.raises(IllegalActionError, match="visit Critical Rolls"):
            parse_action(s, bad)


def test_parse_action_texts_mentioning_players_and_goods() -> None:
    """Texts naming a Good, a Coin and a player parse back exactly (by player names too)."""
    s = start(2, 0, player_names=("Ann", "Bob"))
    while s.stack[-1][0] != 1:
        apply_in_place(s, legal_actions(s)[0])
    do(s, "visit Critical Rolls")
    while s.current == 0:
        apply_in_place(s, legal_actions(s)[-1])
    s.goods[1][2] = 1
    s.coins[1] = 1
    s.cache = None
    do(s, "visit critical rolls")
    assert texts(s) == ["give Iron to Ann", "give Coin to Ann"]
    assert parse_action(s, "GIVE COIN TO ANN") == (A.GIVE, 6, 0, -1)


# --- views ------------------------------------------------------------------------------------

def _ids_in_hidden_places(s: GameState, observer: int | None) -> set[str]:
    """Ids of the cards the observer must not see."""
    art = set(s.artisan_deck) | set(s.removed)
    fancy = set(s.fancy_deck)
    for p in range(s.n):
        if p != observer:
            art |= set(s.hand[p])
            fancy |= set(s.fancy[p])
    ench = set(s.ench_deck)
    shops = set(s.shop_deck) | set(s.shops_unused) | set(s.facedown)
    out = {CATALOG.artisans[d].id for d in art} | {CATALOG.fancies[f].id for f in fancy}
    out |= {CATALOG.enchantments[e].id for e in ench} | {CATALOG.shops[x].id for x in shops}
    return out


def _ids_in_view(v: Any) -> set[str]:
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            found.add(x)
        elif isinstance(x, dict):
            for key, value in x.items():
                walk(key)
                walk(value)
        elif isinstance(x, list | tuple):
            for value in x:
                walk(value)

    walk(v)
    return found


def _visible_ids(s: GameState, observer: int | None) -> set[str]:
    """Ids of the cards the observer may see (a hidden card may share an id string)."""
    art = set(s.park) | {d for d in s.slots if d != EMPTY}
    fancy: set[int] = set()
    for p in range(s.n):
        fancy |= set(s.scored[p])
        if p == observer:
            art |= set(s.hand[p])
            fancy |= set(s.fancy[p])
    ench = set(s.ench_row) | {e for e in s.reserved if e != EMPTY}
    for tucked in s.shop_ench:
        ench |= set(tucked)
    out = {CATALOG.artisans[d].id for d in art} | {CATALOG.fancies[f].id for f in fancy}
    out |= {CATALOG.enchantments[e].id for e in ench}
    out |= {CATALOG.shops[x].id for x in s.town_shops()}
    out |= {CATALOG.shops[x].id for x in s.pos if x != EMPTY}
    return out


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_view_shows_no_hidden_card(players: int, seed: int) -> None:
    """A seat's view holds no card it cannot see: not the others' hands or Fancy Dragons,
    not the cards in any deck or out of the game, not a face-down Shop; the same for a
    spectator (who sees public information only). The view is plain JSON."""
    for s in random_line(players, seed, 120)[::10]:
        for observer in [*range(players), None]:
            v = view(s, observer)
            json.dumps(v)
            shown = _ids_in_view(v)
            leaked = (_ids_in_hidden_places(s, observer) - _visible_ids(s, observer)) & shown
            assert not leaked, (observer, leaked)


def test_view_of_own_and_other_hands_and_fancies() -> None:
    """Each seat sees its own hand and Fancy Dragons, and only the counts of the others'."""
    s = fresh(3, seed=4)
    for observer in range(3):
        v = view(s, observer)
        for p, entry in enumerate(v["players"]):
            assert entry["hand_count"] == len(s.hand[p])
            assert entry["fancy_count"] == len(s.fancy[p])
            if p == observer:
                assert entry["hand"] == [CATALOG.artisans[d].id for d in s.hand[p]]
                assert entry["fancy"] == [CATALOG.fancies[f].id for f in s.fancy[p]]
            else:
                assert "hand" not in entry and "fancy" not in entry
    spectator = view(s, None)
    assert all("hand" not in e and "fancy" not in e for e in spectator["players"])


def test_view_hides_face_down_shops() -> None:
    """Rules, Place a Dragon: a new Shop is drawn face down; no one sees it until it is
    flipped at the end of the turn."""
    s = fresh(2, seed=0)
    add_shop(s, "fogo-de-char")
    s.facedown.append(S["fogo-de-char"])
    for observer in (0, 1, None):
        v = view(s, observer)
        assert v["town"][6] == {"face_down": True}
        assert "fogo-de-char" not in json.dumps(v)
    s.facedown.clear()
    assert view(s, 0)["town"][6]["id"] == "fogo-de-char"


def test_view_does_not_depend_on_hidden_orders_or_others_hands() -> None:
    """Deck orders and the others' hidden cards do not change a seat's view: two states that
    differ only there look the same to that seat (and differently to the owner)."""
    s = fresh(3, seed=2)
    t = s.copy()
    t.artisan_deck.reverse()
    t.fancy_deck.reverse()
    t.ench_deck.reverse()
    t.shop_deck.reverse()
    # Seat 3's hand and Fancy Dragon are swapped for cards from the decks.
    t.hand[2], t.artisan_deck[:3] = t.artisan_deck[:3], t.hand[2]
    t.fancy[2], t.fancy_deck[:1] = t.fancy_deck[:1], t.fancy[2]
    assert s != t
    for observer in (0, 1, None):
        assert view(s, observer) == view(t, observer)
    assert view(s, 2) != view(t, 2)
    decks = view(s, 0)["decks"]
    assert decks == {"artisan": len(s.artisan_deck), "fancy": len(s.fancy_deck),
                     "enchantment": len(s.ench_deck), "shop": len(s.shop_deck)}


def test_view_lists_legal_actions_only_for_the_seat_to_act() -> None:
    """Only the seat to act sees its legal actions (their texts may name its hidden cards,
    such as the Fancy Dragons dealt at setup)."""
    s = start(2, 0)
    assert to_act(s) == 0
    assert view(s, 0)["legal_actions"] == texts(s)
    assert "legal_actions" not in view(s, 1)
    assert "legal_actions" not in view(s, None)


# --- the first player in saved games (docs/state-format.md, version history) -------------------

def test_older_states_and_records_read_as_games_begun_by_seat_0() -> None:
    """A version-2 state and a version-1 record have no first player: every game then began
    with seat 0, so they load as such and replay exactly as before; the current versions
    write the first player, which must be a seat."""
    s = start(3, 5, first_player=0)
    rng = random.Random(5)
    actions = []
    for _ in range(25):
        a = legal_actions(s)[rng.randrange(len(legal_actions(s)))]
        actions.append(text(s, a))
        s = apply(s, a)
    old = json.loads(dump_state(s))
    assert old["first_player"] == 0 and old["options"]["first_player"] == 0
    del old["first_player"], old["options"]["first_player"]
    old["version"] = 2
    assert load_state(json.dumps(old)) == s
    record = {"format": "flamecraft-record", "version": 1, "options": {"players": 3},
              "seed": 5, "actions": actions}
    assert replay(load_record(json.dumps(record))) == s
    drawn = GameRecord(Options(3), 5, [])
    assert json.loads(dump_record(drawn))["options"]["first_player"] is None
    assert replay(load_record(dump_record(drawn))) == start(3, 5)
    bad = json.loads(dump_state(s))
    bad["first_player"] = 3
    with pytest.raises(StateFormatError, match="'first_player' must be a seat from 0 to 2"):
        load_state(json.dumps(bad))
    bad = json.loads(dump_state(s))
    bad["options"]["first_player"] = 7
    with pytest.raises(StateFormatError, match="'first_player' must be a seat from 0 to 2"):
        load_state(json.dumps(bad))
