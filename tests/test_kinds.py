"""Each kind of decision and action is declared once (core/kinds.py; the built-in kinds in
core/frames.py and core/actions.py) and every reader derives its part from the declaration.

The proof is a primitive this test adds and nobody else knows: "a bonus: take 2 Coins or 2
Reputation, or neither". Its data (an op with its parameter), its runner and legal/resolve,
and its declarations (a decision frame, two action kinds, a decline) are all in this file.
Put on a real game's stack, it is listed, worded, parsed, applied, saved and loaded, viewed,
described, numbered by the research catalogue and observed, sent to the browser, logged,
and played by the bots, with no other code changed. The registrations are withdrawn after
each test, so the other tests see the built-in kinds only.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from flamecraft import apply, apply_in_place, dump_state, legal_actions, load_state, text, view
from flamecraft.ai import Bot, GreedyBot, ISMCTSBot, PlannerBot, RandomBot, Seat
from flamecraft.core import actions as A
from flamecraft.core import cards, effects, frames
from flamecraft.core import kinds as K
from flamecraft.core.actions import Action
from flamecraft.core.board import add_rep
from flamecraft.core.cards import DATA_FILES, Op, build_catalog
from flamecraft.core.describe import choices
from flamecraft.core.engine import describe_decision, parse_action
from flamecraft.core.errors import CardDataError
from flamecraft.core.events import Event, log_text
from flamecraft.core.invariants import problems
from flamecraft.core.state import SRC_ABILITY, GameState
from flamecraft.research.encoding import catalogue, layout, observation
from flamecraft.server.actions_json import action_json, event_things, legal_json
from helpers import fresh

# --- the primitive: its declarations, its rules, its data -------------------------------------


@dataclass(frozen=True)
class Bonus:
    """The codes the primitive's kinds were given."""

    decision: int
    coins: int
    rep: int
    skip: int


def _declare() -> Bonus:
    decision = K.declare_frame(K.FrameKind(
        K.decision_count(), "decide_bonus",
        (K.PLAYER, K.WHERE, K.Field("effect", K.EFFECT), K.Field("n")),
        asks="which bonus to take"))
    n = K.Arg("count", K.COUNT, "n", plural=True)
    coins = K.declare_action(K.ActionKind(
        K.next_action_code(), "bonus_coins", "take {n} Coin", (n,), (K.Block((), "-"),),
        plural="take {n} Coins"))
    rep = K.declare_action(K.ActionKind(
        K.next_action_code(), "bonus_rep", "take {n} Reputation", (n,), (K.Block((), "-"),)))
    skip = K.declare_skip(K.Skip(len(K.SKIPS), "bonus", "do not take a bonus"))
    return Bonus(decision.code, coins.code, rep.code, skip.code)


def _rules(b: Bonus) -> None:
    n_at = K.FRAME_KINDS[b.decision].at("n")

    def legal(s: GameState, f: frames.Frame) -> list[Action]:
        n = f[n_at]
        return [(b.coins, n, -1, -1), (b.rep, n, -1, -1), (A.SKIP, b.skip, -1, -1)]

    def resolve(s: GameState, f: frames.Frame, a: Action) -> None:
        if a[0] == b.coins:
            s.coins[f[1]] += a[1]
        elif a[0] == b.rep:
            add_rep(s, f[1], a[1], SRC_ABILITY)

    def run(s: GameState, p: int, here: int, op: Op, ref: tuple[int, int], dr: int) -> None:
        s.stack.append((b.decision, p, here, *ref, op.params.get("n", 1)))

    frames.register(b.decision, legal, resolve)
    cards.OP_SCHEMA["bonus"] = {"n": "int"}
    effects.OP_RUNNERS["bonus"] = run


@pytest.fixture
def bonus() -> Iterator[Bonus]:
    b = _declare()
    _rules(b)
    try:
        yield b
    finally:
        del cards.OP_SCHEMA["bonus"], effects.OP_RUNNERS["bonus"]
        frames.unregister(b.decision)
        K.withdraw_skip(b.skip)
        K.withdraw_action(b.rep)
        K.withdraw_action(b.coins)
        K.withdraw_frame(b.decision)


def _on_stack(players: int = 2, seed: int = 4, n: int = 2) -> GameState:
    """A real game waiting for its first visit, with the bonus pushed by its runner as the
    interpreter runs a primitive (no op list of the shipped data holds it: effect none)."""
    s = fresh(players, seed)
    p = s.stack[-1][1]
    effects.OP_RUNNERS["bonus"](s, p, frames.NOWHERE, Op("bonus", {"n": n}), (-1, -1), -1)
    s.cache = None
    return s


# --- the readers ---------------------------------------------------------------------------------

def test_the_data_names_the_primitive(bonus: Bonus) -> None:
    """A Shop ability may use the op once its parameters are declared (cards.OP_SCHEMA), and
    a parameter it does not take is refused as for any op."""
    files = {name: cards._load_toml(file) for name, file in DATA_FILES.items()}
    path, shops = files["shops"]
    edited = json.loads(json.dumps(shops))
    shop = next(c for c in edited["shop"] if c.get("ability"))
    shop["ability"] = [{"op": "bonus", "n": 2}]
    catalog = build_catalog({**files, "shops": (path, edited)})
    ops = catalog.op_lists[catalog.shops[catalog.shop_by_id[shop["id"]]].ability]
    assert ops == (Op("bonus", {"n": 2}),)
    shop["ability"] = [{"op": "bonus", "m": 2}]
    with pytest.raises(CardDataError, match="takes no parameter"):
        build_catalog({**files, "shops": (path, edited)})


def test_listed_worded_parsed_applied(bonus: Bonus) -> None:
    s = _on_stack()
    p = s.stack[-1][1]
    assert not problems(s)
    assert [text(s, a) for a in legal_actions(s)] == [
        "take 2 Coins", "take 2 Reputation", "do not take a bonus"]
    assert text(s, (bonus.coins, 1, -1, -1)) == "take 1 Coin"
    for a in legal_actions(s):
        assert parse_action(s, text(s, a)) == a
    coins, rep = s.coins[p], s.rep[p]
    after = apply(s, parse_action(s, "take 2 Coins"))
    assert after.coins[p] == coins + 2 and after.stack[-1][0] == frames.D_VISIT
    after = apply(s, parse_action(s, "TAKE 2 reputation"))
    assert after.rep[p] == rep + 2 and not problems(after)
    after = apply(s, parse_action(s, "do not take a bonus"))
    assert (after.coins[p], after.rep[p]) == (coins, rep)


def test_saved_and_loaded_with_the_frame_on_the_stack(bonus: Bonus) -> None:
    s = _on_stack()
    saved = json.loads(dump_state(s))
    assert saved["stack"][-1] == {"frame": "decide_bonus", "player": s.stack[-1][1],
                                  "here": "nowhere", "effect": None, "n": 2}
    back = load_state(dump_state(s))
    assert back == s and back.stack[-1] == s.stack[-1]
    assert [text(back, a) for a in legal_actions(back)] == [text(s, a) for a in legal_actions(s)]


def test_viewed_and_described(bonus: Bonus) -> None:
    s = _on_stack()
    p = s.stack[-1][1]
    assert describe_decision(s) == "which bonus to take"
    seen = view(s, p)
    assert seen["choosing"] == "which bonus to take"
    assert seen["legal_actions"] == ["take 2 Coins", "take 2 Reputation", "do not take a bonus"]
    assert "choosing" not in view(s, 1 - p)
    described = choices(s)
    assert [c.text for c in described] == seen["legal_actions"]
    assert [(c.facts, c.card) for c in described] == [("", None)] * 3  # nothing to add


def test_numbered_and_observed_by_the_research_catalogue(bonus: Bonus) -> None:
    """The catalogue gets the kinds' blocks at its end and a skip index more; the observation
    a decision kind more; the caches are redrawn when a kind comes and goes."""
    cat = catalogue(2)
    names = [sec.name for sec in cat.sections]
    assert names[-2:] == ["bonus_coins", "bonus_rep"]
    skip = next(sec for sec in cat.sections if sec.name == "skip")
    assert skip.size == len(K.SKIPS) == 13
    s = _on_stack()
    legal = cat.legal(s)
    assert sorted(legal.values()) == sorted(legal_actions(s))
    for index, action in legal.items():
        assert cat.encode(s, action) == index and cat.decode(s, index) == action
    assert cat.encode(s, (A.SKIP, bonus.skip, -1, -1)) == skip.start + bonus.skip
    lay = layout(2)
    assert lay.decisions == 36
    p = s.stack[-1][1]
    seen = observation(s, p)
    assert len(seen) == lay.size and seen[2 * 2 + bonus.decision] == 1.0
    assert observation(s, 1 - p)[2 * 2 + bonus.decision] == 0.0


def test_the_caches_follow_the_declarations() -> None:
    before, size = catalogue(2), layout(2).size
    b = _declare()
    try:
        assert catalogue(2) is not before and catalogue(2).size == before.size + 3
        assert layout(2).size == size + 1
    finally:
        K.withdraw_skip(b.skip)
        K.withdraw_action(b.rep)
        K.withdraw_action(b.coins)
        K.withdraw_frame(b.decision)
    assert catalogue(2).size == before.size == 1482 and layout(2).size == size == 1402


def test_sent_to_the_browser_and_logged(bonus: Bonus) -> None:
    s = _on_stack()
    sent = legal_json(s)
    assert [(a["kind"], a["args"]) for a in sent] == [
        ("bonus_coins", {"count": 2}), ("bonus_rep", {"count": 2}), ("skip", {"skip": "bonus"})]
    assert action_json(s, legal_actions(s)[0], 0)["text"] == "take 2 Coins"
    p = s.stack[-1][1]
    trace: list[Event] = []
    t = s.copy()
    apply_in_place(t, legal_actions(t)[1], trace)
    e = trace[0]
    assert (e.full, e.seen_by(1 - p)) == ("take 2 Reputation", "take 2 Reputation")
    japanese = {"take {n} Reputation": "名声を{n}得る"}
    assert log_text(e, 1 - p, lambda m: japanese.get(m, m)) == "名声を2得る"
    assert event_things(e) == {"kind": "bonus_rep", "args": {"count": 2}}
    trace = []
    apply_in_place(s, legal_actions(s)[2], trace)
    assert trace[0].seen_by(p) == "do not take a bonus" and trace[0].seen_by(1 - p) is None


@pytest.mark.parametrize("make", [RandomBot, lambda: GreedyBot(samples=1),
                                  lambda: PlannerBot(samples=1),
                                  lambda: ISMCTSBot(iterations=30, seconds=None)],
                         ids=["random", "greedy", "planner", "ismcts"])
def test_the_bots_choose_among_its_actions(bonus: Bonus, make: Callable[[], Bot]) -> None:
    rng = random.Random(3)
    for seed in range(3):
        s = _on_stack(seed=seed)
        p = s.stack[-1][1]
        action = make().choose(Seat(s, p), rng)
        assert action in legal_actions(s)


# --- the built-in declarations ----------------------------------------------------------------

def test_the_constants_are_the_declared_kinds() -> None:
    """Every D_*/P_* of frames.py is the declared frame kind of that name (decide_*, phase_*),
    every action-kind constant of actions.py the declared action kind, and every declared
    kind has its handlers."""
    constants = {name: getattr(frames, name) for name in dir(frames) if name[:2] in ("D_", "P_")}
    assert len(constants) == len(K.FRAME_KINDS)
    for name, code in constants.items():
        prefix = "decide_" if name.startswith("D_") else "phase_"
        assert K.FRAME_KINDS[code].name == prefix + name[2:].lower()
    assert set(frames.DECISIONS) | set(frames.PHASES) == set(K.FRAME_KINDS)
    for code, kind in K.ACTION_KINDS.items():
        assert getattr(A, kind.name.upper()) == code
    assert list(K.SKIPS) == list(range(len(K.SKIPS)))


def test_a_declaration_is_checked() -> None:
    with pytest.raises(ValueError, match="next code"):
        K.declare_frame(K.FrameKind(60, "decide_far", (K.PLAYER,), asks="what"))
    with pytest.raises(ValueError, match="start with player, here"):
        K.declare_frame(K.FrameKind(K.decision_count(), "decide_x", (K.WHERE,), asks="what"))
    with pytest.raises(ValueError, match="names no argument"):
        K.declare_action(K.ActionKind(99, "x", "take {good}", (), (K.Block((), "-"),)))
    with pytest.raises(ValueError, match="already declared"):
        K.declare_action(K.ActionKind(A.PLACE, "x", "x", (), (K.Block((), "-"),)))
    with pytest.raises(ValueError, match="is no argument"):
        K.declare_action(K.ActionKind(99, "x", "x", (), (K.Block(("good",), "Good"),)))
    assert K.decision_count() == 35 and 99 not in K.ACTION_KINDS
