"""The turn summary (core/summary.py, issue 21 items 1–2): each seat's turn in one line with
its results, built only from what the reading seat may read — checked by re-dealing what a
seat never saw and replaying the game (OpenSpiel's resample) and comparing every line."""

from __future__ import annotations

import random
from typing import Any

import pytest

from flamecraft import apply_in_place, legal_actions, start, text
from flamecraft.core import actions as A
from flamecraft.core.board import CATALOG
from flamecraft.core.events import R_END, R_FANCY, R_MOVED, R_REP, Event, event
from flamecraft.core.summary import event_line, last_turns, turn_text, turns
from flamecraft.display.i18n import translator
from flamecraft.session.history import History
from helpers import fresh, give_fancy, set_goods

try:
    import pyspiel
except ImportError:  # the rl extra (make test installs it)
    pyspiel = None


def _whole_game(players: int, seed: int) -> History:
    h = History(start(players, seed))
    rng = random.Random(seed)
    while not h.state.over:
        h.play(rng.choice(legal_actions(h.state)))
    return h


def test_a_reveal_says_the_reputation_gained_and_the_new_total() -> None:
    """``reveal Scone Ranger`` says what it earned: the table reads ``+N Rep (now T)``."""
    s = fresh(2, seed=3)
    give_fancy(s, 0, "scone-ranger")
    set_goods(s, 0, coins=1, BREAD=5, MEAT=5)
    reveal = next(a for a in legal_actions(s) if a[0] == A.REVEAL)
    before = s.rep[0]
    trace: list[Event] = []
    apply_in_place(s, reveal, trace)
    (e,) = trace
    gained = s.rep[0] - before
    assert gained > 0 and (R_REP, 0, gained, s.rep[0]) in e.results
    for seat in (None, 1, 0):
        line = event_line(e, seat)
        assert line is not None and line.startswith("reveal Scone Ranger: ")
        assert f"+{gained} Rep (now {s.rep[0]})" in line
        assert "-3 Bread, -2 Meat" in line  # the Goods its goal spent


def test_a_fancy_dragon_drawn_is_said_as_a_count_only() -> None:
    """A Fancy Dragon drawn (a slot's reward, an Enchantment's) is hidden: the others read
    ``+1 Fancy Dragon``, never which; the drawer's line names no card it does not show."""
    h = _whole_game(3, 11)
    names = h.state.options.player_names()
    hidden_names = {card.name for card in CATALOG.fancies}
    drawn = [e for e in h.log if any(r[0] == R_FANCY and r[2] > 0 for r in e.results)]
    assert drawn, "a random 3-player game draws Fancy Dragons"
    for e in drawn:
        for seat in range(3):
            if seat == e.seat:
                continue
            line = event_line(e, seat)
            assert line is not None and "Fancy Dragon" in line
            shown = [n for n in hidden_names if n in line]
            public = [n for n in shown if e.public and n in e.public]
            assert shown == public, line  # only cards the event itself shows face up
    lines = [turn_text(t, names) for t in turns(h.log, 1)]
    assert any("+1 Fancy Dragon" in line for line in lines)


def test_the_end_trigger_is_filed_under_the_turn_that_made_it() -> None:
    """Issue 21: ``T18 You: the Artisan deck is empty…`` had happened at the end of turn 17.
    The note and the summary's result are the triggering turn's; every turn after it is a
    player's last turn."""
    h = _whole_game(2, 5)
    trigger = [e for e in h.log if any(r[0] == R_END for r in e.results)]
    assert len(trigger) == 1
    notes = [e for e in h.log if e.note.startswith("the ") and "end is triggered" in e.note]
    assert len(notes) == 1 and notes[0].turn == trigger[0].turn
    summary = turns(h.log, None)
    at = next(i for i, t in enumerate(summary) if t.turn == trigger[0].turn)
    names = h.state.options.player_names()
    assert "deck is empty: final round" in turn_text(summary[at], names)
    assert not summary[at].final_round
    after = summary[at + 1:]
    assert len(after) == 2 and all(t.final_round for t in after)
    assert all("(last turn)" in turn_text(t, names) for t in after)


def test_a_potion_swap_says_what_moved_where() -> None:
    """A swap names both dragons' new places (``Wingnut to Potable Potions slot 2``)."""
    for seed in range(40):
        h = _whole_game(4, seed)
        for e in h.log:
            if e.action[0] != A.SWAP:
                continue
            moved = [r for r in e.results if r[0] == R_MOVED]
            assert len(moved) == 2
            line = event_line(e, None)
            assert line is not None
            for _, dragon, shop, slot in moved:
                assert (f"{CATALOG.artisans[dragon].name} to {CATALOG.shops[shop].name} "
                        f"slot {slot + 1}") in line
            return
    pytest.fail("no Potion swap in 40 random games")


def test_every_opponent_has_one_last_turn_in_japanese_too() -> None:
    """``last_turns``: one line per other seat, the latest; in Japanese, the same results in
    the game catalogue's words."""
    h = _whole_game(4, 2)
    names = h.state.options.player_names()
    last = last_turns(h.log, 0)
    assert [t.seat for t in last] == [1, 2, 3]
    ja = translator("ja", "game").gettext
    said = [turn_text(t, names, ja) for t in last_turns(h.log, 0, ja)]
    assert all(line.startswith(names[t.seat]) for line, t in zip(said, last, strict=True))
    assert any("評判" in line for line in said)
    assert not any("Rep (now" in line for line in said)


def _lines(events: list[Event], seat: int) -> list[str]:
    names = events[0].names if events else ()
    return ([line for e in events if (line := event_line(e, seat)) is not None]
            + [turn_text(t, names) for t in turns(events, seat)])


def _events(state: Any) -> list[Event]:
    return [e for events, _ in state._box.record for e in events]


@pytest.mark.skipif(pyspiel is None, reason="needs the rl extra (OpenSpiel)")
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_summary_leak_oracle(players: int, seed: int) -> None:
    """Every line of the summary and of the full log with results that a seat reads is the
    same in any game it cannot tell from the true one: the cards it never saw re-dealt and
    the game replayed on them (OpenSpiel's resample). Results differ between the two games
    (the re-deal moves hidden cards), so the check can fail."""
    from flamecraft.research.openspiel_game import FlamecraftGame, deal_seed

    game = FlamecraftGame({"players": players})
    state = deal_seed(game.new_initial_state(), seed)
    rng = random.Random(seed)
    step = checked = 0
    while not state.is_terminal():
        if step % 9 == 4:
            for p in range(players):
                other = state.resample_from_infostate(p, rng.random)
                assert _lines(_events(other), p) == _lines(_events(state), p), \
                    f"seat {p}, step {step}"
                checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
        step += 1
    assert checked > 20


def test_results_are_traced_only_when_asked() -> None:
    """The bots' path (no trace) makes no event and no snapshot: an event made by hand has
    no results; a traced one has them."""
    s = fresh(2, seed=1)
    visit = legal_actions(s)[0]
    e = event(s, visit)
    assert e is not None and e.results == () and e.pending is None
    trace: list[Event] = []
    after = s.copy()
    apply_in_place(after, visit, trace)
    assert trace and all(x.pending is None for x in trace)
    assert text(s, visit).startswith("visit ")


def test_the_hidden_fancy_names_never_reach_the_other_seats_summary() -> None:
    """At whole games' every turn: no seat's summary line names a Fancy Dragon that another
    seat holds unscored (hidden)."""
    for players, seed in ((3, 4), (4, 6)):
        h = History(start(players, seed))
        rng = random.Random(seed)
        names = h.state.options.player_names()
        while not h.state.over:
            h.play(rng.choice(legal_actions(h.state)))
            s = h.state
            for seat in range(players):
                hidden = {CATALOG.fancies[f].name for q in range(players) if q != seat
                          for f in s.fancy[q]}
                for t in last_turns(h.log, seat):
                    line = turn_text(t, names)
                    assert not [n for n in hidden if n in line], line


def test_last_turns_reads_only_the_last_round_and_says_the_same() -> None:
    """``last_turns`` reads only the last round's events (it runs at every state message):
    the same lines as the latest turn of each seat in the whole stream's ``turns``."""
    h = _whole_game(4, 9)
    names = h.state.options.player_names()
    for cut in range(40, len(h.log), 37):
        events = h.log[:cut]
        whole: dict[int, str] = {}
        for t in turns(events, 2):
            if t.seat != 2 and t.steps:
                whole[t.seat] = turn_text(t, names)
        assert [turn_text(t, names) for t in last_turns(events, 2)] == \
            [whole[p] for p in sorted(whole)]
