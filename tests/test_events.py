"""The public event stream (core/events.py, issue 11): what each seat may know of another
seat's turn is one rule in one place, and no interface tells a seat more.

The leak oracle: at every step of whole random games, for every seat, change only what that
seat cannot see — the other hands and Fancy Dragons, the deck orders, the face-down Shops,
the generator, and *what another seat is deciding* (its pending decision and its options) —
and check that everything the seat receives is byte-identical: its view, its log, its web
state message, its terminal screen, its observation vector and its OpenSpiel information
state and observation. Which seat is to act, and that it is still that seat's turn, is public
(the table sees a player thinking; "timing aside" in the issue): that stays.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

try:
    import pyspiel
except ImportError:  # the rl extra (make test installs it)
    pyspiel = None

from flamecraft import GameState, apply_in_place, legal_actions, start, text, to_act, view
from flamecraft.core import actions as A
from flamecraft.core.engine import apply
from flamecraft.core.events import Event, event, log_for
from flamecraft.core.frames import D_END_TURN, D_VISIT, NOWHERE
from flamecraft.core.hidden import determinize
from flamecraft.research.encoding import catalogue, observation
from flamecraft.server.connections import common_of, seat_message
from flamecraft.server.store import ActionRow, GameRow, SeatRow
from flamecraft.server.table import Table
from flamecraft.session.history import Played
from flamecraft.terminal.local_table import LocalTable
from flamecraft.terminal.newgame import PlayerSeat
from helpers import A as ART
from helpers import F, fresh, give_fancy, set_goods

# ---------------------------------------------------------------- what the table reads


def test_a_choice_about_hidden_cards_is_named_to_its_maker_only() -> None:
    """Rules Setup 7: each player keeps 1 of 2 Fancy Dragons in secret — the keeper reads the
    card (and the one shown beside it), the others only that one was kept. A gifted Artisan
    Dragon is named to the giver and the receiver only."""
    s = start(3, 2, first_player=0)
    keep = legal_actions(s)[0]
    e = event(s, keep)
    assert e is not None and e.seat == to_act(s) == 0
    assert e.seen_by(0) == f"{text(s, keep)} ({e.shown})" and text(s, keep)[5:] in e.shown
    assert e.shown.startswith("shown ")
    assert e.seen_by(1) == e.seen_by(2) == e.seen_by(None) == "keep a Fancy Dragon"
    gift = (A.GIFT_ARTISAN, ART["pan"], 2, -1)
    e = event(s, gift)
    assert e is not None
    assert e.seen_by(0) == e.seen_by(2) == "gift Pan to P3"
    assert e.seen_by(1) == e.seen_by(None) == "gift an Artisan Dragon to P3"


def test_declines_are_seen_by_nobody_else() -> None:
    """Declining changes nothing on the table, and whether it was offered can depend on the
    decliner's hidden cards, so the others do not read it."""
    s = fresh(2, seed=1)
    for decline in ((A.END_TURN, -1, -1, -1), (A.SKIP, A.NO_PLACE, -1, -1)):
        e = event(s, decline)
        assert e is not None and e.seen_by(0) == text(s, decline)
        assert e.seen_by(1) is None and e.seen_by(None) is None
    assert event(s, (A.END_TURN, -1, -1, -1), forced=True) is None


def test_forced_actions_are_events_that_read_like_chosen_ones() -> None:
    """A forced action (the only legal one, taken by the engine) is announced exactly as the
    same action chosen: the table cannot tell a choice from no choice."""
    s = fresh(3, seed=5)
    events: list[Event] = []
    rng = random.Random(2)
    for _ in range(60):
        apply_in_place(s, rng.choice(legal_actions(s)), events)
    forced = [e for e in events if e.forced]
    assert forced, "a random game has forced actions (a lone 'gather', a single payment)"
    for e in forced:
        chosen = Event(e.turn, e.seat, e.action, e.full, e.public, e.also, e.shown, False)
        assert all(e.seen_by(p) == chosen.seen_by(p) for p in (None, 0, 1, 2))


# ---------------------------------------------------------------- the Sun Dragon regression


def _sun_worlds() -> tuple[GameState, GameState]:
    """Two tables that differ only in a hidden card of seat 0: in A it holds Scone Ranger
    with its goal met (3 Bread and 2 Meat to spend), so it may reveal at every step of its
    turn; in B it holds Lady Irony, unmet (it needs Iron and Potions)."""
    a = fresh(2, seed=3)
    assert {F["scone-ranger"], F["lady-irony"]} <= set(a.fancy_deck)
    b = a.copy()
    for s, card in ((a, "scone-ranger"), (b, "lady-irony")):
        give_fancy(s, 0, card)
        set_goods(s, 0, coins=1, BREAD=5, MEAT=5)
    return a, b


def _play_seat0_turn(a: GameState, b: GameState) -> tuple[list[Event], list[Event],
                                                               list[Action]]:
    """Plays seat 0's turn in B by a fixed policy, then the same turn in A, where a reveal is
    offered beside every decision and seat 0 never reveals: A is asked exactly the decisions
    B is (docs/rules.md, ruling 20), no more."""
    ev_b: list[Event] = []
    chosen_b: list[str] = []
    while to_act(b) == 0:
        assert not any(x[0] == A.REVEAL for x in legal_actions(b)), "B's Sun must stay unmet"
        action = legal_actions(b)[-1]
        chosen_b.append(text(b, action))
        apply_in_place(b, action, ev_b)
    ev_a: list[Event] = []
    script = iter(chosen_b)
    actions_a: list[Action] = []
    while to_act(a) == 0:
        options = [x for x in legal_actions(a) if x[0] != A.REVEAL]
        assert len(options) < len(legal_actions(a)), "A's Sun stays met all turn"
        want = next(script)  # the met Sun adds no decision: each is one B was asked too
        action = next(x for x in options if text(a, x) == want)
        actions_a.append(action)
        apply_in_place(a, action, ev_a)
    assert next(script, None) is None, "B was asked decisions A was not"
    assert to_act(a) == to_act(b) == 1
    assert any(e.full == "end turn" for e in ev_a)  # seat 0 did decline to reveal
    return ev_a, ev_b, actions_a


Action = tuple[int, int, int, int]


def _table_at(s: GameState, seats: list[PlayerSeat], log: list[Event]) -> LocalTable:
    """A terminal game standing at ``s`` whose log so far is ``log``."""
    table = LocalTable(s, 0, seats)
    table.history.log.extend(log)
    return table


def test_a_met_sun_dragon_is_not_told_to_the_table() -> None:
    """Issue 11, leak 1, and issue 21: a player holding a Sun Dragon whose goal is met and
    one without are asked the same decisions ("end turn" every turn; the reveal is an extra
    option). After seat 0's turn, seat 1 must receive exactly the same in both worlds: its
    view, log, observation and terminal screen."""
    a, b = _sun_worlds()
    ev_a, ev_b, _ = _play_seat0_turn(a, b)
    assert len(ev_a) == len(ev_b)  # the same decisions, whatever the hidden Sun
    assert json.dumps(view(a, 1)) == json.dumps(view(b, 1))
    assert [t for _, t in log_for(ev_a, 1)] == [t for _, t in log_for(ev_b, 1)]
    assert [t for _, t in log_for(ev_a, None)] == [t for _, t in log_for(ev_b, None)]
    assert observation(a, 1) == observation(b, 1)
    seats = [PlayerSeat("human", "Ann"), PlayerSeat("human", "Bo")]
    screen_a = _table_at(a, seats, ev_a).screen_view(1)
    screen_b = _table_at(b, seats, ev_b).screen_view(1)
    assert json.dumps(screen_a, sort_keys=True) == json.dumps(screen_b, sort_keys=True)


def _web_message(s: GameState, events: list[Event], seat: int | None) -> dict[str, Any]:
    """Seat ``seat``'s state message from the web server for this state and log."""
    row = GameRow("g", "test", s.options, 0, [SeatRow("P1", "human"), SeatRow("P2", "human")],
                  status="running")
    table = Table(row)
    before = table.state
    assert before is not None
    table.commit(Played(0, before, s, "", events), ActionRow(1, 0, "", 1))
    msg: dict[str, Any] = json.loads(seat_message(table, seat, common_of(table)))
    return msg


def test_a_met_sun_dragon_is_not_told_to_the_web_table() -> None:
    """The web state message of seat 1 and of a spectator: the same whether seat 0 declined
    a reveal or had none to make — the move counters ``version``/``step`` included, since
    both worlds are asked the same decisions (issue 21)."""
    a, b = _sun_worlds()
    ev_a, ev_b, _ = _play_seat0_turn(a, b)
    for seat in (1, None):
        ma, mb = _web_message(a, ev_a, seat), _web_message(b, ev_b, seat)
        assert ma == mb


def test_a_met_sun_dragon_is_not_told_in_openspiel() -> None:
    """The OpenSpiel information state (string and tensor) and observation of seat 1."""
    pytest.importorskip("pyspiel")
    from flamecraft.research.openspiel_game import FlamecraftGame

    game = FlamecraftGame({"players": 2})
    cat = catalogue(2)
    a, b = _sun_worlds()
    _, _, actions_a = _play_seat0_turn(a.copy(), b.copy())
    st_a, st_b = game.new_initial_state(), game.new_initial_state()
    st_a._box.state, st_b._box.state = a, b
    for action in actions_a:
        st_a.apply_action(cat.encode(st_a.engine_state, action))
    while st_b.current_player() == 0:
        st_b.apply_action(cat.encode(st_b.engine_state, legal_actions(st_b.engine_state)[-1]))
    assert st_a.current_player() == st_b.current_player() == 1
    assert len(st_a.history()) == len(st_b.history())  # issue 21: the same decisions
    assert st_a.information_state_string(1) == st_b.information_state_string(1)
    assert st_a.information_state_record(1) == st_b.information_state_record(1)
    assert st_a.observation_string(1) == st_b.observation_string(1)
    assert np.array_equal(st_a.information_state_tensor(1), st_b.information_state_tensor(1))
    assert np.array_equal(st_a.observation_tensor(1), st_b.observation_tensor(1))


# ---------------------------------------------------------------- the leak oracle


class Interfaces:
    """One game as every interface holds it: the terminal session, the web server's table
    and an OpenSpiel state, each fed the same actions."""

    def __init__(self, s: GameState) -> None:
        n = s.n
        self.seats = [PlayerSeat("human", f"P{p + 1}") for p in range(n)]
        row = GameRow("g", "test", s.options, 0, [SeatRow(f"P{p + 1}", "human")
                                                    for p in range(n)], status="running")
        self.table = Table(row)
        self.table.state = s
        self.events: list[Event] = []
        self.spiel: Any = None
        if pyspiel is not None:
            from flamecraft.research.openspiel_game import FlamecraftGame

            game = FlamecraftGame({"players": n, "companions": s.options.companions,
                                   "deck": s.options.deck})
            self.spiel = game.new_initial_state()
            self.spiel._box.state = s.copy()

    def play(self, s: GameState, action: Action) -> GameState:
        events: list[Event] = []
        after = apply(s, action, events)
        self.events.extend(events)
        self.table.commit(Played(to_act(s), s, after, text(s, action), events),
                          ActionRow(len(self.table.actions) + 1, to_act(s), text(s, action), 1))
        if self.spiel is not None:
            self.spiel.apply_action(catalogue(s.n).encode(self.spiel.engine_state, action))
        return after

    def received(self, s: GameState, seat: int) -> list[str]:
        """Everything ``seat`` receives when the game is at ``s``, as text, per interface."""
        screen = _table_at(s, self.seats, self.events).screen_view(seat)
        self.table.state = s
        out = [
            json.dumps(view(s, seat), sort_keys=True),
            json.dumps([t for _, t in log_for(self.events, seat)]),
            json.dumps(screen, sort_keys=True, default=str),
            json.dumps(observation(s, seat)),
            seat_message(self.table, seat, common_of(self.table)),
        ]
        if self.spiel is not None:
            st = self.spiel
            box_state, st._box.state, st._box.legal = st._box.state, s, None
            try:
                out += [st.information_state_string(seat), st.observation_string(seat),
                        st.information_state_record(seat),
                        np.asarray(st.information_state_tensor(seat)).tobytes().hex(),
                        np.asarray(st.observation_tensor(seat)).tobytes().hex()]
            finally:
                st._box.state, st._box.legal = box_state, None
        return out


def _hidden_changed(s: GameState, seat: int, k: int) -> GameState:
    """``s`` with what ``seat`` cannot see changed: the hidden cards re-dealt, and, when
    another seat is deciding, that seat's pending decision replaced by another."""
    t = determinize(s, seat, k)
    acting = to_act(s)
    if acting != seat:
        # The decision at hand is the acting seat's business: swap it for another kind.
        top = s.stack[-1]
        kind = D_VISIT if top[0] == D_END_TURN else D_END_TURN
        t.stack = [*s.stack[:-1], (kind, acting, NOWHERE)]
        assert s.cache is not None
        t.cache = s.cache[:1]
    return t


CONFIGS = [(1, "purple", False), (2, "golden", True), (3, "purple", True),
           (4, "golden", False), (5, "purple", True)]


@pytest.mark.parametrize(("players", "deck", "companions"), CONFIGS)
def test_leak_oracle(players: int, deck: str, companions: bool) -> None:
    """Issue 11: a whole random game; at every step, for every seat, two changes of what the
    seat cannot see leave every byte it receives unchanged."""
    rng = random.Random(players)
    s = start(players, 100 + players, deck, companions=companions)
    interfaces = Interfaces(s)
    steps = 0
    while not s.over:
        for seat in range(players):
            truth = interfaces.received(s, seat)
            for k in (1, 2):
                other = _hidden_changed(s, seat, 1000 * steps + k)
                if to_act(s) == seat:  # my own options depend only on what I see
                    assert [text(other, x) for x in legal_actions(other)] == \
                        [text(s, x) for x in legal_actions(s)], f"step {steps}"
                got = interfaces.received(other, seat)
                for what, mine, theirs in zip(INTERFACES, got, truth, strict=False):
                    assert mine == theirs, f"{what}: seat {seat}, step {steps} (turn {s.turn})"
        s = interfaces.play(s, rng.choice(legal_actions(s)))
        steps += 1


INTERFACES = ("view", "log", "terminal screen", "observation", "web state message",
              "OpenSpiel information state", "OpenSpiel observation string",
              "OpenSpiel information state record", "OpenSpiel information state tensor",
              "OpenSpiel observation tensor")
