"""Bots: the Seat interface, legality at every player count, no access to hidden cards, the
registry, and the valuation's sense on a few positions.

Budgets are tiny (a planner with a beam of 2, a search of a few iterations): these tests check
what the bots may see and do, not how well they play (``docs/bots.md`` says how strength is
measured).
"""

from __future__ import annotations

import functools
import json
import pickle
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from flamecraft import GameState, apply, apply_in_place, legal_actions, start, text, to_act, view
from flamecraft.ai import (
    CheaterBot,
    GreedyBot,
    ISMCTSBot,
    PlannerBot,
    ProcessBot,
    RandomBot,
    Seat,
    make_bot,
    make_play_bot,
    parse_bot_spec,
)
from flamecraft.ai.evaluate import relative, value
from flamecraft.ai.interface import Bot
from flamecraft.ai.roster import BOTS
from flamecraft.core.hidden import determinize
from helpers import LeakySeat, fresh, give_fancy, play_checked, set_goods, to_row
from spybot import GcSpy


def _tiny(name: str) -> Bot:
    makers: dict[str, Callable[[], Bot]] = {
        "random": lambda: RandomBot(),
        "greedy": lambda: GreedyBot(),
        "planner": lambda: PlannerBot(beam=2, samples=1, depth=3),
        "ismcts": lambda: ISMCTSBot(iterations=1, seconds=None, pool=1, beam=1, depth=1),
        "ismcts-classic": lambda: ISMCTSBot(iterations=4, seconds=None, pool=2,
                                            complete="greedy", leaf="now"),
        # the learned leaf (ai/learned.py), as the Expert blends it, in both kinds of search
        "ismcts-learned": lambda: ISMCTSBot(iterations=2, seconds=None, pool=2, beam=1,
                                            depth=2, value="learned", blend=0.5),
        "ismcts-classic-learned": lambda: ISMCTSBot(iterations=4, seconds=None, pool=2,
                                                    complete="greedy", leaf="next",
                                                    value="learned"),
    }
    return makers[name]()


LADDER = ("greedy", "planner", "ismcts", "random", "ismcts-classic")


@pytest.mark.parametrize("companions", [False, True])
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_bots_choose_only_legal_actions(players: int, companions: bool) -> None:
    """Interface: every bot of the ladder picks one of the legal actions of its seat, at every
    player count, with and without the Companion module (setup choices included). Seats are
    dealt the ladder in rotation; to keep the test fast, two decisions in three of the game
    (from setup to the final round) are taken by a random bot."""
    for game in range(1 if players > 2 else 2):
        s = start(players, 100 * players + game, companions=companions)
        bots = [_tiny(LADDER[(p + game + players) % len(LADDER)]) for p in range(players)]
        play_checked(s, bots, random.Random(game), every=3)
        assert s.over


def _midgame(players: int, seed: int, moves: int = 60) -> GameState:
    s = start(players, seed)
    rng = random.Random(seed)
    greedy = GreedyBot()
    for _ in range(moves):
        apply_in_place(s, greedy.choose(Seat(s, to_act(s)), rng))
    while len(legal_actions(s)) == 1:  # a real choice: a lone action is no test of a bot
        apply_in_place(s, legal_actions(s)[0])
    return s


def _hide_differently(s: GameState) -> GameState:
    """A copy whose hidden cards differ where the seat to act cannot see: another seat's hand
    card and Fancy Dragon swapped with deck cards, and every deck reordered."""
    observer = to_act(s)
    u = s.copy()
    others = [q for q in range(s.n) if q != observer]
    holder = next(q for q in others if u.hand[q])
    u.hand[holder][0], u.artisan_deck[0] = u.artisan_deck[0], u.hand[holder][0]
    dreamer = next((q for q in others if u.fancy[q]), None)
    if dreamer is not None:
        u.fancy[dreamer][0], u.fancy_deck[-1] = u.fancy_deck[-1], u.fancy[dreamer][0]
    u.artisan_deck.reverse()
    u.ench_deck.reverse()
    u.fancy_deck.reverse()
    u.shop_deck.reverse()
    u.rng ^= 0x5DEECE66D
    u.cache = None
    return u


@pytest.mark.parametrize("name", ["greedy", "planner", "ismcts", "ismcts-classic",
                                  "ismcts-learned", "ismcts-classic-learned"])
def test_a_bot_cannot_reach_hidden_cards(name: str) -> None:
    """Interface / hidden information: changing cards the seat cannot see (another hand, a
    Fancy Dragon, the order of every deck) changes neither its view nor, under the same
    seed, the bot's choice."""
    for seed in (3, 8):
        s = _midgame(3, seed, moves=45 + seed)
        p = to_act(s)
        u = _hide_differently(s)
        assert u != s and view(u, p) == view(s, p)
        first = _tiny(name).choose(Seat(s, p), random.Random(7))
        second = _tiny(name).choose(Seat(u, p), random.Random(7))
        assert first == second


def test_the_hidden_card_test_catches_a_leaky_seat() -> None:
    """Control for the test above: a bot searching the true state does change its choice
    when hidden cards change, in some of these positions (so equal choices mean something)."""
    changed = 0
    for seed in range(24):
        s = _midgame(3, seed, moves=30 + seed % 12)
        p = to_act(s)
        u = _hide_differently(s)
        bot = PlannerBot(beam=3, samples=1, depth=6)
        a = bot.choose(LeakySeat(s, p), random.Random(1))
        b = bot.choose(LeakySeat(u, p), random.Random(1))
        honest_a = bot.choose(Seat(s, p), random.Random(1))
        honest_b = bot.choose(Seat(u, p), random.Random(1))
        assert honest_a == honest_b
        changed += a != b
    assert changed > 0


def test_a_seat_shows_only_its_view_and_actions() -> None:
    """Interface: a Seat exposes the seat's view, its legal actions (none when another seat is
    to act), texts and samples; no public attribute holds the state."""
    s = _midgame(2, 5)
    p = to_act(s)
    seat, other = Seat(s, p), Seat(s, 1 - p)
    assert seat.view() == view(s, p)
    assert seat.legal_actions() == legal_actions(s)
    assert other.legal_actions() == []
    assert [seat.text(a) for a in seat.legal_actions()] == [text(s, a) for a in legal_actions(s)]
    public = [getattr(seat, k) for k in dir(seat) if not k.startswith("_")]
    assert not any(isinstance(v, GameState) for v in public)
    rng = random.Random(4)
    assert seat.sample(rng) == determinize(s, p, random.Random(4).getrandbits(63))


def test_registry_offers_the_ladder_for_play_but_not_the_cheater() -> None:
    """bots.BOTS names random, greedy, planner and ismcts; the cheater reads the true state
    and is for tournaments only."""
    assert {"random", "greedy", "planner", "ismcts"} <= set(BOTS)
    assert "cheater" not in BOTS
    with pytest.raises(ValueError, match="tournaments only"):
        make_play_bot("cheater")
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("wizard")
    with pytest.raises(ValueError, match="bad option"):
        make_bot("greedy", depth=3)
    s = _midgame(2, 6)
    action = BOTS["greedy"](s, random.Random(2))
    assert action in legal_actions(s)


def test_bot_specs_parse_options() -> None:
    assert parse_bot_spec("ismcts:seconds=0.5:reuse=false") == (
        "ismcts", {"seconds": 0.5, "reuse": False})
    assert parse_bot_spec(" Planner ") == ("planner", {})
    with pytest.raises(ValueError, match="key=value"):
        parse_bot_spec("greedy:fast")
    bot = make_bot("ismcts", iterations=5)
    assert isinstance(bot, ISMCTSBot) and bot.seconds is None and bot.iterations == 5


def test_search_with_an_iteration_budget_is_reproducible() -> None:
    """The same seed gives the same choice (the search counts iterations, not time)."""
    s = _midgame(2, 9)
    p = to_act(s)
    for options in ({"beam": 2}, {"complete": "fast", "leaf": "now"}):
        picks = {ISMCTSBot(iterations=5, seconds=None, **options).choose(
            Seat(s, p), random.Random(3)) for _ in range(2)}
        assert len(picks) == 1
        bot = ISMCTSBot(iterations=5, seconds=None, **options)
        bot.choose(Seat(s, p), random.Random(3))
        assert bot.last_iterations == 5


def test_the_cheater_searches_the_true_state() -> None:
    s = _midgame(2, 10)
    action = CheaterBot(iterations=3, seconds=None, beam=2).choose_true(s, random.Random(1))
    assert action in legal_actions(s)
    with pytest.raises(TypeError, match="true state"):
        CheaterBot(iterations=3, seconds=None).choose(Seat(s, to_act(s)), random.Random(1))


# --- the valuation ------------------------------------------------------------------------

def test_valuation_prefers_revealing_a_met_sun_dragon() -> None:
    """Rules, Fancy Dragons: a Sun Dragon scores only when revealed; the valuation counts a
    met one as worth less than revealing it, so the greedy bot reveals."""
    s = fresh(2, seed=1)
    give_fancy(s, 0, "sir-loin")
    set_goods(s, 0, MEAT=3, IRON=2)
    reveal = next(a for a in legal_actions(s) if text(s, a) == "reveal Sir Loin")
    keep = next(a for a in legal_actions(s) if text(s, a).startswith("visit"))
    assert value(apply(s, reveal), 0) > value(s, 0)
    choice = GreedyBot().choose(Seat(s, 0), random.Random(0))
    assert choice == reveal or relative(apply(s, reveal), 0) >= relative(apply(s, keep), 0)


def test_valuation_prefers_the_richer_cast() -> None:
    """Ruling 12: a variable Enchantment paid with one set earns 0 Reputation; with Goods for
    either, the greedy bot casts the Enchantment that pays."""
    s = fresh(2, seed=2)
    to_row(s, "smelting-pot", "joe-forgeman")
    set_goods(s, 0, MEAT=3, PLANT=1, CRYSTAL=2, BREAD=1)
    s = apply(s, next(a for a in legal_actions(s) if text(s, a) == "visit Smith Mart"))
    s = apply(s, next(a for a in legal_actions(s) if text(s, a) == "enchant"))
    options = {text(s, a): a for a in legal_actions(s)}
    assert {"cast Smelting Pot", "cast Joe Forgeman with 1 set"} <= set(options)
    rich = relative(apply(s, options["cast Smelting Pot"]), 0)
    assert rich > relative(apply(s, options["cast Joe Forgeman with 1 set"]), 0)
    assert text(s, GreedyBot().choose(Seat(s, 0), random.Random(0))) == "cast Smelting Pot"


def test_valuation_counts_goods_toward_a_visible_enchantment() -> None:
    """A Good that brings a face-up Enchantment closer is worth more than one that does not."""
    s = fresh(2, seed=3)
    to_row(s, "smelting-pot")
    set_goods(s, 0, MEAT=2, PLANT=1, CRYSTAL=2)
    base = s.copy()
    set_goods(s, 0, MEAT=3, PLANT=1, CRYSTAL=2)
    useful = value(s, 0)
    set_goods(base, 0, MEAT=2, PLANT=1, CRYSTAL=2, BREAD=1)
    assert useful > value(base, 0)


def test_greedy_values_a_cast_it_is_paying_for() -> None:
    """Regression: a golden-deck game in which greedy bots, holding 7 of most Goods, chose
    to gather for ever instead of enchanting (the cast's reward was not credited while its
    payment was pending), so no deck shrank and the game never ended. It now ends."""
    from flamecraft.ai.tournament import make_specs, play_game

    spec = next(x for x in make_specs(["greedy"], 500, 1, 3, "golden", False, False, 500)
                if x.index == 554)
    result = play_game(spec)
    assert result.turns < 80 and sum(result.decisions) < 1000


# --- the boundary out of process: SealedSeat and ProcessBot ----------------------------------

@pytest.mark.parametrize(("players", "companions"), [(1, True), (2, False), (3, True),
                                                     (4, False), (5, True)])
def test_a_sealed_seat_answers_exactly_as_the_seat_does(players: int, companions: bool) -> None:
    """At every decision of a whole game, the seat without the true state gives the same
    view, legal actions, texts and, for the same rng, the same samples (so a bot in its own
    process plays exactly as in-process)."""
    s = start(players, 40 + players, companions=companions)
    rng = random.Random(players)
    step = 0
    while not s.over:
        p = to_act(s)
        if step % 3 == 0:
            seat = Seat(s, p)
            sealed = seat.sealed()
            assert sealed.seat == p and sealed.view() == seat.view()
            assert sealed.legal_actions() == seat.legal_actions()
            assert [sealed.text(a) for a in sealed.legal_actions()] == [
                seat.text(a) for a in seat.legal_actions()]
            assert sealed.sample(random.Random(step)) == seat.sample(random.Random(step))
            assert not any(isinstance(getattr(sealed, k), GameState) and getattr(sealed, k) == s
                           for k in ("seen", "legal", "texts", "base"))
        apply_in_place(s, rng.choice(legal_actions(s)))
        step += 1


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 8), (4, 5), (5, 1)])
def test_what_a_bot_process_receives_depends_only_on_what_its_seat_sees(
        players: int, seed: int) -> None:
    """The message sent to a bot's process, pickled, is byte for byte the same whatever the
    cards its seat cannot see: it cannot carry them. (The true states, pickled, differ.)"""
    s = _midgame(players, seed, moves=40 + seed)
    p = to_act(s)
    u = _hide_differently(s)
    assert pickle.dumps(u) != pickle.dumps(s) and view(u, p) == view(s, p)
    rng_state = random.Random(1).getstate()
    assert pickle.dumps((Seat(s, p).sealed(), rng_state)) == pickle.dumps(
        (Seat(u, p).sealed(), rng_state))


def test_a_bot_in_its_own_process_cannot_find_the_true_state(tmp_path: Path) -> None:
    """A spy walking every object of its process finds the true Artisan deck in-process (the
    control: in-process bots are trusted code) and never in a ProcessBot's process, where the
    only states are samples."""
    s = _midgame(3, 4)
    p = to_act(s)
    report = tmp_path / "found.json"
    spy = GcSpy(str(report))
    assert spy.choose(Seat(s, p), random.Random(0)) == legal_actions(s)[0]
    found = json.loads(report.read_text())
    assert {"deck": s.artisan_deck, "hands": s.hand} in found
    isolated = ProcessBot(functools.partial(GcSpy, str(report)), name="gc-spy")
    try:
        rng = random.Random(0)
        assert isolated.choose(Seat(s, p), rng) == legal_actions(s)[0]
        assert rng.getstate() == random.Random(0).getstate()  # the spy drew nothing
    finally:
        isolated.close()
    found = json.loads(report.read_text())
    assert found, "the spy found the samples it was sent"
    assert all(f["deck"] != s.artisan_deck for f in found)
    others = [q for q in range(3) if q != p]
    assert all([f["hands"][q] for q in others] != [s.hand[q] for q in others] for f in found)
    assert all(f["hands"][p] == s.hand[p] for f in found)  # its own hand it may see


def test_a_process_bot_plays_as_the_bot_does_in_process() -> None:
    """Same seeds, same choices, same rng afterwards: the process changes nothing but where
    the bot runs (and the iteration count comes back too)."""
    s = _midgame(2, 6)
    isolated = make_bot("ismcts", iterations=4, pool=2, beam=1, depth=2, isolated=True)
    local = make_bot("ismcts", iterations=4, pool=2, beam=1, depth=2)
    assert isinstance(isolated, ProcessBot) and isinstance(local, ISMCTSBot)
    try:
        for _ in range(6):
            if s.over:
                break
            p = to_act(s)
            if len(legal_actions(s)) == 1:  # answered without a search: nothing to compare
                apply_in_place(s, legal_actions(s)[0])
                continue
            r1, r2 = random.Random(5), random.Random(5)
            action = isolated.choose(Seat(s, p), r1)
            assert action == local.choose(Seat(s, p), r2)
            assert r1.getstate() == r2.getstate()
            assert isolated.last_iterations == local.last_iterations > 0
            apply_in_place(s, action)
    finally:
        isolated.close()
    with pytest.raises(ValueError, match="cannot run isolated"):
        make_bot("cheater", isolated=True)
    with pytest.raises(ValueError, match="isolated must be"):
        make_bot("greedy", isolated="yes")


def test_a_failing_bot_process_reports_its_error() -> None:
    s = _midgame(2, 2)
    other = 1 - to_act(s)
    bot = ProcessBot(RandomBot)
    try:
        with pytest.raises(RuntimeError, match="failed in its process: GameOverError"):
            bot.choose(Seat(s, other), random.Random(0))  # not this seat's turn
        assert bot.choose(Seat(s, 1 - other), random.Random(0)) in legal_actions(s)
    finally:
        bot.close()
    with pytest.raises(RuntimeError, match="its process has ended"):
        bot.choose(Seat(s, 1 - other), random.Random(0))


def test_what_a_bot_process_receives_does_not_name_face_down_shops() -> None:
    """As above, for the hidden Shops: a face-down Shop swapped with an unseen Shop of the
    same pile (in the Shop deck or out of the game) changes no byte sent. (The Companions
    left in the box need no such test: the box is sorted at setup, so it follows from the
    Companions seen.)"""
    from flamecraft.core.board import CATALOG
    pile = [shop.pile for shop in CATALOG.shops]
    checked = 0
    for seed in range(40):
        s = start(3, seed, companions=True)
        rng = random.Random(seed)
        while not s.over and checked < 5:
            unseen = [x for x in s.shop_deck + s.shops_unused
                      if s.facedown and pile[x] == pile[s.facedown[0]]]
            if unseen:
                p = to_act(s)
                u = s.copy()
                old, new = u.facedown[0], unseen[0]
                u.town[u.town.index(old)] = new
                u.facedown[0] = new
                for pool in (u.shop_deck, u.shops_unused):
                    if new in pool:
                        pool[pool.index(new)] = old
                assert view(u, p) == view(s, p)
                assert pickle.dumps(Seat(u, p).sealed()) == pickle.dumps(Seat(s, p).sealed())
                checked += 1
            apply_in_place(s, rng.choice(legal_actions(s)))
        if checked >= 5:
            break
    assert checked == 5
