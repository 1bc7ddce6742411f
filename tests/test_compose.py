"""A person's composite choices (session/compose.py): what each stands for, the defaults,
what is taken without asking and what never is (the end of the turn), a stale choice refused
with nothing changed, undo of a whole choice, and the terminal's stable numbers and typed
Goods (issue 21, items 3 and 4)."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from flamecraft.core.actions import END_TURN, GAIN_SET, GIFT, GIFT_EACH, GIVE, PAY, REVEAL, VISIT
from flamecraft.core.engine import apply, legal_actions, start, to_act
from flamecraft.core.frames import D_END_TURN, D_GAIN_SET, D_GIVE_TO, D_PAY, D_VISIT
from flamecraft.core.goods import GOOD_NAMES, NUM_GOODS
from flamecraft.core.state import GameState
from flamecraft.core.turn import castable, occupants
from flamecraft.display.i18n import translator
from flamecraft.session import compose
from flamecraft.session.history import History
from flamecraft.session.undo import hidden_marks, reveals
from flamecraft.terminal.console import Terminal
from flamecraft.terminal.game_loop import Game
from flamecraft.terminal.local_table import LocalTable
from flamecraft.terminal.newgame import PlayerSeat
from flamecraft.terminal.saves import load_table, save_text
from flamecraft.terminal.typed_input import ChoiceError, goods_typed


def _states(games: int, players: int = 3) -> list[GameState]:
    """Every state of random composite-choice games where some seat is asked."""
    out = []
    for g in range(games):
        s = start(players, 300 + g)
        rng = random.Random(g)
        while not s.over:
            out.append(s)
            listed = compose.choices(s)
            for a in listed[rng.randrange(len(listed))].actions:
                s = apply(s, a)
    return out


STATES = _states(6)


def test_a_composite_is_its_engine_actions_of_one_seat_never_past_something_hidden() -> None:
    """Each choice applies as the engine's legal actions, in order, all the seat's own, in
    one turn; only its last action may show something hidden or use chance, except the
    seat's own Sun Dragon revealed with the end of the turn (what it shows others, the seat
    knew; it draws nothing and uses no chance)."""
    for s in STATES[::3]:
        p, turn = to_act(s), s.turn
        for c in compose.choices(s):
            t = s
            for i, a in enumerate(c.actions):
                assert not t.over and to_act(t) == p and t.turn == turn
                assert a in legal_actions(t)
                after = apply(t, a)
                own_sun = (a[0] == REVEAL and c.confirm
                           and hidden_marks(t)[:-1] == hidden_marks(after)[:-1])
                assert i == len(c.actions) - 1 or own_sun or not reveals(t, after), c.text
                t = after
            assert compose.find(s, c.text) == c


def test_a_payment_is_one_choice_that_keeps_coins_by_default() -> None:
    """At a payment every whole split is one choice, fewest Coins first and the default."""
    paying = [s for s in STATES if s.stack and s.stack[-1][0] == D_PAY]
    assert paying
    for s in paying:
        listed = compose.choices(s)
        coins = [sum(a[3] for a in c.actions if a[0] == PAY) for c in listed]
        assert coins == sorted(coins) and listed[0].default == (len(listed) > 1)
        assert all(compose.words(s, c) for c in listed)
        ends = {tuple(apply_all(s, c).goods[to_act(s)]) for c in listed}
        assert len(ends) == len(listed)  # every split is a different payment


def apply_all(s: GameState, c: compose.Composite) -> GameState:
    for a in c.actions:
        s = apply(s, a)
    return s


def test_the_end_of_the_turn_is_asked_and_a_lone_step_is_not() -> None:
    """The end of the turn is always a choice (the confirm), every turn; a step with one
    choice otherwise is taken by ``automatic``."""
    ends = [s for s in STATES if s.stack and s.stack[-1][0] == D_END_TURN]
    assert ends
    for s in ends:
        listed = compose.choices(s)
        assert any(c.confirm and c.actions == ((END_TURN, -1, -1, -1),) for c in listed)
        assert compose.automatic(s) is None
        end = next(c for c in listed if c.actions == ((END_TURN, -1, -1, -1),))
        assert compose.label(s, end) == "confirm the end of your turn"
    lone = []  # met in the engine's own steps (random raw actions)
    s, rng = start(3, 8), random.Random(8)
    while not s.over:
        listed = compose.choices(s)
        if len(listed) == 1 and not listed[0].confirm:
            lone.append(s)
        s = apply(s, rng.choice(legal_actions(s)))
    assert lone and all(compose.automatic(s) == compose.choices(s)[0] for s in lone)


def test_a_sun_revealed_at_the_end_is_one_choice_with_the_confirm() -> None:
    """Rules, Fancy Dragons: a Sun Dragon is revealed at the end of the turn. Where no other
    Sun is left to reveal, the reveal and the end of the turn are one confirm choice (a
    reveal cannot be undone: a confirm after it would take nothing back), named by the
    reveal and its Reputation; with two Suns to reveal, each is asked alone first."""
    seen = 0
    for s in STATES:
        if not (s.stack and s.stack[-1][0] == D_END_TURN):
            continue
        for c in compose.choices(s):
            if c.first[0] != REVEAL:
                continue
            t = apply(s, c.first)
            left = legal_actions(t) if not t.over and to_act(t) == to_act(s) else []
            if left == [(END_TURN, -1, -1, -1)]:
                seen += 1
                assert c.confirm and c.actions == (c.first, (END_TURN, -1, -1, -1))
                said = compose.label(s, c)
                assert said.startswith("reveal ") and "Rep" in said
                assert said.endswith("confirm the end of your turn")
                assert apply_all(s, c).turn == s.turn + 1 or apply_all(s, c).over
            else:
                assert c.actions == (c.first,) and not c.confirm
    assert seen


def test_a_stale_choice_is_refused_with_the_current_ones_and_changes_nothing() -> None:
    s = start(2, 5)
    history = History(s, [0, 1])
    old = compose.choices(history.state)[0]
    compose.play(history, old)
    before = (history.state, list(history.actions))
    with pytest.raises(compose.StaleChoiceError) as caught:
        compose.find(history.state, old.text)
    assert caught.value.choices == [c.text for c in compose.choices(history.state)]
    assert (history.state, history.actions) == before


def test_undo_takes_a_whole_choice_back_and_goes_past_what_was_taken_by_itself() -> None:
    """One undo point per choice asked: an undo after a payment of several steps, or after
    a choice followed by lone steps, is back where that choice was made."""
    for s in STATES:
        several = [c for c in compose.choices(s) if len(c.actions) > 1]
        if several and not any(reveals(t, u) for t, u in _pairs(s, several[0])):
            break
    else:
        pytest.fail("no choice of several steps")
    p = to_act(s)
    history = History(s, [p])
    compose.play(history, several[0])
    assert len(history.actions) == len(several[0].actions)
    if history.can_undo(p):
        history.undo()
        assert history.state is s and history.actions == []


def _pairs(s: GameState, c: compose.Composite) -> list[tuple[GameState, GameState]]:
    out = []
    for a in c.actions:
        t = apply(s, a)
        out.append((s, t))
        s = t
    return out


def test_typed_goods_name_a_set_in_english_and_japanese() -> None:
    ja = translator("ja", "game").gettext
    assert goods_typed("br me pl") == 0b100011
    assert goods_typed("BR  me Pl") == 0b100011
    assert goods_typed(f"{ja('Bread')} {ja('Meat')} {ja('Plant')[:1]}", ja) == 0b100011
    assert goods_typed("br br pl") is None  # the same Good twice
    assert goods_typed("p me") is None  # Potion or Plant?
    assert goods_typed("bread") is None  # one word: a choice's text, not a set


def test_a_choice_keeps_its_number_while_it_is_offered() -> None:
    """Within a decision of the turn (firing dragons up one at a time), a choice made takes
    its number with it: the others keep theirs, none is given a number used before."""
    seen = 0
    for g in range(12):
        s = start(2, 900 + g)
        table = LocalTable(s, 900 + g, [PlayerSeat("human", "A"), PlayerSeat("human", "B")])
        rng = random.Random(g)
        while not table.state.over and seen < 5:
            numbered = table.choices_now()
            kind = table.state.stack[-1][0]
            pick = numbered[rng.randrange(len(numbered))][1]
            before = {c.text: n for n, c in numbered}
            table.play_choice(pick)
            if table.state.over or table.state.stack[-1][0] != kind:
                continue
            after = {c.text: n for n, c in table.choices_now()}
            common = before.keys() & after.keys()
            if common:
                seen += 1
                assert all(before[t] == after[t] for t in common)
                assert pick.text not in after or after[pick.text] == before[pick.text]
                new = set(after) - set(before)
                assert all(after[t] > max(before.values()) for t in new)
    assert seen


def test_gain_set_choices_exist_to_be_typed() -> None:
    """A set of Goods to gain is one choice whose Goods can be typed (its mask)."""
    sets = [s for s in STATES if any(a[0] == GAIN_SET for a in legal_actions(s))]
    assert sets
    s = sets[0]
    mask = next(a[1] for a in legal_actions(s) if a[0] == GAIN_SET)
    words = " ".join(["br", "me", "ir", "po", "cr", "pl"][g] for g in range(6) if mask >> g & 1)
    assert goods_typed(words) == mask


def _game_at(s: GameState, lang: str = "en") -> Game:
    p = to_act(s)
    seats = [PlayerSeat("human" if q == p else "random", f"P{q}") for q in range(s.n)]
    term = Terminal(io.StringIO(), io.StringIO(), False, False, lang=lang)
    return Game(LocalTable(s, 1, seats), term)


def test_the_terminal_reads_a_typed_set_of_goods_and_refuses_a_number_gone() -> None:
    """At a choice of different Goods to gain, ``br me pl`` (or the Japanese names, spaces
    between) picks the set; a number not shown is refused with the ones that are."""
    ja = translator("ja", "game").gettext
    at_sets = [s for s in STATES if s.stack and s.stack[-1][0] == D_GAIN_SET]
    assert at_sets, "no choice of Goods sets"
    s = at_sets[0]
    sets = {c.first[1]: c for c in compose.choices(s) if c.first[0] == GAIN_SET}
    assert len(sets) > 2
    mask, made = sorted(sets.items())[-1]
    names = [g for g in range(6) if mask >> g & 1]
    typed = " ".join(["br", "me", "ir", "po", "cr", "pl"][g] for g in names)
    game = _game_at(s)
    assert game.match_choice(to_act(s), typed) == made
    said = " ".join(ja(GOOD_NAMES[g]) for g in names)
    assert goods_typed(said, ja) == mask
    shown = [n for n, _ in game.table.choices_now()]
    with pytest.raises(ChoiceError, match="there is no choice 99 now"):
        game.match_choice(to_act(s), "99")
    assert game.match_choice(to_act(s), str(shown[-1])) == game.table.choices_now()[-1][1]


def test_a_saved_game_keeps_one_undo_point_a_choice(tmp_path: Path) -> None:
    """Saved mid-turn after a choice of several actions and loaded again, undo goes back
    over the whole choice, as before the save."""
    for g in range(40):
        s = start(2, 600 + g)
        seats = [PlayerSeat("human", "A"), PlayerSeat("human", "B")]
        table = LocalTable(s, 600 + g, seats)
        table.play_automatic()
        while not table.state.over:
            several = [c for _, c in table.choices_now() if len(c.actions) > 1]
            if several and not any(reveals(t, u) for t, u in _pairs(table.state, several[0])):
                table.play_choice(several[0])
                break
            table.play_choice(table.choices_now()[0][1])
            table.play_automatic()
        if table.history.can_undo(to_act(table.state)) and len(several[0].actions) > 1:
            break
    else:
        pytest.fail("no choice of several actions to undo")
    path = tmp_path / "mid.json"
    path.write_text(save_text(table), encoding="utf-8")
    loaded = load_table(str(path))
    assert loaded.history.marks() == table.history.marks()
    loaded.history.undo()
    table.history.undo()
    assert loaded.actions == table.actions


def test_the_terminal_refuses_a_choice_no_longer_open_and_changes_nothing() -> None:
    """A composite's text typed after it was made (a choice of a state gone by) is refused
    with the current choices on screen, and the game is where it was."""
    s = start(2, 21)
    game = _game_at(s)
    game.table.play_automatic()
    made = game.table.choices_now()[0][1]
    game.table.play_choice(made)
    game.table.play_automatic()
    before = (game.table.state, list(game.table.actions))
    assert made.text not in [c.text for _, c in game.table.choices_now()]
    with pytest.raises(ChoiceError):
        game.match_choice(to_act(game.table.state), made.text)
    assert (game.table.state, game.table.actions) == before


def _with_gifts(games: int = 3) -> tuple[list[GameState], list[GameState]]:
    """States of random 4-player games at a visit where some occupied Shop asks which gift
    to give (a seat holding more than one kind of thing to give), and where a "gift each"
    is listed with its gifts."""
    visits, each = [], []
    for g in range(games):
        s = start(4, 50 + g)
        rng = random.Random(g)
        while not s.over:
            listed = compose.choices(s)
            if s.stack[-1][0] == D_VISIT and any(
                    c.default and c.first[0] == VISIT for c in listed):
                visits.append(s)
            if any(GIFT_EACH in [a[0] for a in c.actions] and c.actions[-1][0] == GIVE
                   for c in listed):
                each.append(s)
            for a in listed[rng.randrange(len(listed))].actions:
                s = apply(s, a)
    return visits, each


VISITS, GIFTS_EACH = _with_gifts()


def _kept(s: GameState, gift: tuple[int, int, int, int], p: int, shop: int) -> tuple[int, int]:
    """What the seat can still cast at the Shop after a gift: Enchantments, with their sets."""
    left = castable(apply(s, gift), p, shop)
    return len({e for e, _ in left}), len(left)


def test_a_visit_to_an_occupied_shop_is_one_choice_with_its_default_gifts() -> None:
    """A composite visit gives each Flamekeeper there the default gift (a Good while the
    seat holds one, keeping what it can cast there) and is applied as one choice, one undo
    point, its text the engine texts joined by ``SEP``."""
    assert VISITS
    for s in VISITS:
        p = to_act(s)
        listed = compose.choices(s)
        for c in (c for c in listed if c.default and c.first[0] == VISIT):
            shop = c.first[1]
            t, given = s, []
            for a in c.actions:
                assert a in legal_actions(t) and to_act(t) == p
                if a[0] == GIVE:
                    assert a == compose.default_gift(t)
                    held = [g for g in range(NUM_GOODS) if t.goods[p][g]]
                    assert (a[1] < NUM_GOODS) == bool(held)
                    assert all(_kept(t, a, p, shop) >= _kept(t, b, p, shop)
                               for b in legal_actions(t) if b[1] < NUM_GOODS)
                    given.append(a[2])
                t = apply(t, a)
            # every gift owed is given: by the choice, or by the engine where one was left
            assert set(given) <= set(occupants(s, p, shop))
            assert not any(f[0] == D_GIVE_TO for f in t.stack)
            assert c.text == compose.SEP.join(c.texts)
            assert compose.find(s, c.text) == c
            history = History(s, [p])
            compose.play(history, c)
            assert history.actions == list(c.texts) and history.state == t
            with pytest.raises(compose.StaleChoiceError):  # made: no longer a choice
                compose.find(history.state, c.text)
            if history.can_undo(p):
                history.undo()
                assert history.state is s


def test_the_plain_visit_stays_listed_so_a_person_chooses_each_gift() -> None:
    """Next to the visit with default gifts, the visit alone is listed after it; taken, the
    gifts are asked, among them others than the default."""
    assert VISITS
    other = 0
    for s in VISITS:
        listed = compose.choices(s)
        for i, c in enumerate(listed):
            if not (c.default and c.first[0] == VISIT):
                continue
            plain = [j for j, d in enumerate(listed) if d.actions == (c.first,)]
            assert plain and plain[0] > i
            t = apply(s, c.first)
            assert t.stack[-1][0] == D_GIVE_TO
            gifts = {d.first for d in compose.choices(t)}
            assert gifts == set(legal_actions(t)) and len(gifts) > 1
            other += any(g != compose.default_gift(t) for g in gifts)
            assert compose.find(s, compose.choices(s)[plain[0]].text).actions == (c.first,)
    assert other


def test_a_gift_to_each_is_listed_with_its_default_gifts_and_without() -> None:
    """A "gift each" is one choice with a default gift to every other Flamekeeper, and also
    listed alone (each gift then chosen); the composite applies as one choice."""
    assert GIFTS_EACH
    for s in GIFTS_EACH:
        listed = compose.choices(s)
        texts = [c.text for c in listed]
        for c in listed:
            if c.actions[-1][0] != GIVE or GIFT_EACH not in [a[0] for a in c.actions]:
                continue
            at = [a[0] for a in c.actions].index(GIFT_EACH)
            plain = compose.SEP.join(c.texts[:at + 1])
            assert plain in texts and texts.index(plain) > texts.index(c.text)
            t, given = s, []
            for a in c.actions:
                assert a in legal_actions(t)
                if a[0] == GIVE:
                    assert a == compose.default_gift(t)
                    given.append(a[2])
                t = apply(t, a)
            assert sorted(given) == [q for q in range(s.n) if q != to_act(s)]
            history = History(s, [to_act(s)])
            compose.play(history, compose.find(s, c.text))
            assert history.state == t


def test_a_fire_up_gift_that_must_be_given_comes_with_its_default() -> None:
    """Fire-up ability (Plant: "gift 1 Good to another player, then gain 2 Reputation"): the
    fire-up is listed with its default gift first (``compose.default_gift``: a Good, to the
    Flamekeeper with the least Reputation, the next in turn order on a tie), and alone after
    it, to choose the gift oneself; both apply as the engine's actions."""
    seen = 0
    for g in range(8):
        s, rng = start(4, 900 + g), random.Random(g)
        while not s.over:
            listed = compose.choices(s)
            for i, c in enumerate(listed):
                steps = [a[0] for a in c.actions]
                if GIFT not in steps or c.first[0] == GIFT:
                    continue
                t, p = s, to_act(s)
                for a in c.actions[:steps.index(GIFT)]:
                    t = apply(t, a)
                if not compose.owes_gift(t):  # an optional gift: its own choices
                    continue
                seen += 1
                assert c.default
                assert any(o.actions == c.actions[:steps.index(GIFT)] for o in listed[i:])
                t = s
                for a in c.actions:
                    if a[0] == GIFT:
                        assert a == compose.default_gift(t) and compose.owes_gift(t)
                        others = [q for q in range(t.n) if q != p]
                        least = min(t.rep[q] for q in others)
                        first = next(q for q in sorted(others, key=lambda q: (q - p) % t.n)
                                     if t.rep[q] == least)
                        assert a[2] == first
                        assert (a[1] < NUM_GOODS) == any(t.goods[p])
                    t = apply(t, a)
            for a in listed[rng.randrange(len(listed))].actions:
                s = apply(s, a)
    assert seen
