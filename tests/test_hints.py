"""Hints and win chances (issue 15 §2): what a hint may know, what it says, and the
calibrated model it uses.

Budgets are tiny (2 samples, a beam of 3): these tests check what hints depend on and what
they return, not how well the planner plays.
"""

from __future__ import annotations

import json
import math
import random
from importlib import resources
from pathlib import Path

import pytest

from flamecraft import (
    GameState,
    apply_in_place,
    dump_state,
    legal_actions,
    start,
    to_act,
    winners,
)
from flamecraft.ai import GreedyBot, Seat
from flamecraft.ai.evaluate import TERMS, value, value_terms
from flamecraft.ai.hints import Budget, NotToActError, hints
from flamecraft.ai.winchance import NUM_FEATURES, WinModel, default_model, from_json
from flamecraft.cli.main import main
from flamecraft.core.errors import GameOverError
from flamecraft.core.hidden import determinize
from helpers import LeakySeat

TINY = Budget(samples=2, beam=3, depth=6)
# The adaptive budget's every device at a small size: rounds, pruning, early stopping, the
# one-step screen (what HINT_BUDGET and REVIEW_BUDGET use, but the clock).
ADAPTIVE = Budget(samples=8, beam=3, depth=6, first=1, stop=0.3, prune=1.0, widest=4)


def _position(players: int, seed: int, moves: int) -> GameState:
    """A position reached by greedy play (a real game's middle, with hands and Goods)."""
    s = start(players, seed)
    rng = random.Random(seed)
    bot = GreedyBot()
    for _ in range(moves):
        if s.over:
            break
        apply_in_place(s, bot.choose(Seat(s, to_act(s)), rng))
    return s


POSITIONS = [(2, 1, 25), (3, 4, 60), (4, 7, 95), (5, 2, 40), (2, 9, 140), (1, 3, 30)]


def _said(seat: Seat, budget: Budget = TINY) -> str:
    """Everything a hint returns, as one string (what is compared byte for byte)."""
    return repr(hints(seat, random.Random(5), budget))


@pytest.mark.parametrize("budget", [TINY, ADAPTIVE], ids=["fixed", "adaptive"])
@pytest.mark.parametrize(("players", "seed", "moves"), POSITIONS)
def test_hints_never_change_when_only_hidden_cards_change(players: int, seed: int,
                                                          moves: int, budget: Budget) -> None:
    """The leak oracle for hints: re-deal everything the seat cannot see
    (``hidden.determinize``: other hands and Fancy Dragons, deck orders, face-down Shops, the
    generator) and the hints — values, win chances, reasons, plans — are byte-identical; with
    the adaptive budget too (how many re-deals it takes, which actions it stops planning and
    which the screen keeps depend on the re-deals alone)."""
    s = _position(players, seed, moves)
    p = to_act(s)
    truth = _said(Seat(s, p), budget)
    for k in (1, 2):
        other = determinize(s, p, 1000 + k)
        assert other != s
        assert _said(Seat(other, p), budget) == truth


@pytest.mark.parametrize(("players", "seed", "moves"), POSITIONS[:4])
def test_a_hint_from_a_sealed_seat_is_the_same(players: int, seed: int, moves: int) -> None:
    """A hint needs nothing but what a ``SealedSeat`` carries (the view, the legal actions and
    their texts, one sample to re-deal from: what crosses into an isolated bot's process), so
    computed from one it is byte for byte the hint of the ``Seat``, with the adaptive budget
    (its rounds, pruning and screen) as with the fixed one."""
    s = _position(players, seed, moves)
    seat = Seat(s, to_act(s))
    for budget in (TINY, ADAPTIVE):
        assert (repr(hints(seat.sealed(), random.Random(5), budget))
                == _said(seat, budget))


def test_the_hint_oracle_catches_a_leaky_seat() -> None:
    """Control: hints computed on the true state do change when hidden cards change, in some
    of these positions, so equal hints above mean something."""
    changed = 0
    for players, seed, moves in POSITIONS:
        s = _position(players, seed, moves)
        p = to_act(s)
        other = determinize(s, p, 1001)
        changed += _said(LeakySeat(s, p)) != _said(LeakySeat(other, p))
    assert changed > 0


def test_a_hint_values_every_legal_action_best_first() -> None:
    """Every legal action once, sorted by value; the loss is the gap to the best; win chances
    are probabilities; each has a reason; the chance of the best is not below every other's."""
    s = _position(3, 4, 60)
    p = to_act(s)
    got = hints(Seat(s, p), random.Random(1), TINY)
    assert sorted(h.action for h in got) == sorted(legal_actions(s))
    values = [h.value for h in got]
    assert values == sorted(values, reverse=True)
    assert got[0].loss == 0 and all(h.loss == pytest.approx(values[0] - h.value) for h in got)
    assert all(h.win is not None and 0 <= h.win <= 1 for h in got)
    assert all(h.reason for h in got)
    assert all("behind the best" in h.reason for h in got[1:] if h.loss >= 0.05)
    assert all("as good as the best" in h.reason for h in got[1:] if 0 < h.loss < 0.05)
    assert set(got[0].terms) == set(TERMS)


def test_a_hint_names_the_reputation_it_earns() -> None:
    """A reason is built from what the planned turn does: an action that scores Reputation
    says how much ("+N Rep now") — the same N the plan's end shows (one sample: the reason's
    sample is the plan's)."""
    one = Budget(samples=1, beam=3, depth=6)
    for players, seed, moves in POSITIONS:
        s = _position(players, seed, moves)
        p = to_act(s)
        for h in hints(Seat(s, p), random.Random(2), one):
            if h.reason.startswith("+") and " Rep now" in h.reason:
                gained = int(h.reason.split(" Rep now")[0])
                assert gained > 0
                assert h.terms["rep"] == pytest.approx(s.rep[p] + gained)
                return
    pytest.fail("no position offered an action that earns Reputation")


def test_hints_only_for_the_seat_to_act_and_not_after_the_end() -> None:
    s = _position(2, 1, 25)
    with pytest.raises(NotToActError, match="not to act"):
        hints(Seat(s, 1 - to_act(s)), random.Random(1), TINY)
    over = _position(2, 1, 10_000)
    assert over.over
    with pytest.raises(GameOverError):
        hints(Seat(over, 0), random.Random(1), TINY)


def test_value_terms_add_up_to_the_value() -> None:
    """The reasons' terms are the valuation's: at every seat of positions of whole games."""
    for players, seed, moves in POSITIONS:
        s = _position(players, seed, moves)
        for p in range(s.n):
            terms = value_terms(s, p)
            assert list(terms) == list(TERMS)
            assert sum(terms.values()) == pytest.approx(value(s, p), abs=1e-9)


# ---------------------------------------------------------------- win chances


def test_the_shipped_calibration_loads_with_its_provenance() -> None:
    """data/winchance.json: a set of coefficients per fitted player count, the commands that
    made it, the data sizes and the held-out Brier score (better than the uninformed 1/n)."""
    raw = json.loads(resources.files("flamecraft").joinpath("data", "winchance.json")
                     .read_text("utf-8"))
    assert "winchance_fit.py" in raw["fit_command"]
    assert "winchance_games.py" in raw["games_command"]
    model = default_model()
    assert {2, 3, 4} <= set(model.coefficients)
    for n, entry in raw["players"].items():
        assert len(model.coefficients[int(n)]) == NUM_FEATURES
        assert entry["games_fit"] > 0 and entry["positions_held_out"] > 0
        assert entry["brier_held_out"] < entry["brier_uninformed"]
        assert model.rounds_max[int(n)] == entry["rounds_max"] > 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_win_chances_are_probabilities_that_sum_to_one(players: int) -> None:
    """At every turn start of a whole game: each chance in [0, 1], their sum 1; at the end,
    the result (a shared win shared)."""
    model = default_model()
    s = start(players, 30 + players)
    rng = random.Random(players)
    bot = GreedyBot()
    while not s.over:
        c = model.chances(s)
        assert c is not None and len(c) == players
        assert all(0 <= x <= 1 for x in c) and math.isclose(sum(c), 1.0)
        apply_in_place(s, bot.choose(Seat(s, to_act(s)), rng))
    final = model.chances(s)
    assert final is not None and math.isclose(sum(final), 1.0)
    assert {p for p, x in enumerate(final) if x > 0} == set(winners(s))


def test_a_lead_raises_the_win_chance_and_solo_has_none() -> None:
    """More Reputation for one seat, everything else equal, raises its chance (the model is
    not a constant); a solo game has no winner to predict."""
    model = default_model()
    s = _position(3, 4, 60)
    before = model.chances(s)
    richer = s.copy()
    richer.rep[2] += 10
    after = model.chances(richer)
    assert before is not None and after is not None
    assert after[2] > before[2]
    assert model.chances(start(1, 3)) is None


def test_a_malformed_calibration_is_refused() -> None:
    with pytest.raises(ValueError, match="not a win-chance model"):
        from_json({"players": {"2": {}}})
    with pytest.raises(ValueError, match="finite coefficients"):
        from_json({"players": {"2": {"coefficients": [1.0, 2.0]}}})
    five = WinModel({2: (0.2, 0, 0, 0, 0, 0), 4: (0.3, 0, 0, 0, 0, 0)})
    assert five.coefficients_for(5) == five.coefficients[4]
    assert five.coefficients_for(3) == five.coefficients[4]  # ties go to the larger count


def test_the_hint_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``flamecraft hint STATE``: the top actions of the player to act, from its view, each
    with a win chance and a reason; a finished game is refused in one line."""
    s = _position(3, 4, 60)
    path = tmp_path / "game.json"
    path.write_text(dump_state(s))
    assert main(["hint", str(path), "--top", "2", "--samples", "2"]) == 0
    out = capsys.readouterr().out
    p = to_act(s)
    assert f"from P{p + 1}'s view only" in out
    best = hints(Seat(s, p), random.Random(1), Budget(samples=2))[0]
    assert f"1. {best.text}  (" in out and best.reason in out and "\n2. " in out
    over = _position(2, 1, 10_000)
    path.write_text(dump_state(over))
    assert main(["hint", str(path)]) == 1
    err = capsys.readouterr().err
    assert "the game is over" in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------- the adaptive budget


class CountingSeat(Seat):
    """A seat that counts the re-deals asked of it."""

    def __init__(self, state: GameState, seat: int) -> None:
        super().__init__(state, seat)
        self.samples = 0

    def sample(self, rng: random.Random) -> GameState:
        self.samples += 1
        return super().sample(rng)


def _seat(players: int = 3, seed: int = 4, moves: int = 60) -> CountingSeat:
    s = _position(players, seed, moves)
    return CountingSeat(s, to_act(s))


def test_rounds_double_up_to_the_most_and_stop_when_the_losses_are_known() -> None:
    """With ``first`` the re-deals come in rounds of 2, 4, 8 … up to ``samples``; a ``stop``
    that every standard error meets ends after the second round (the first with two), one
    that none can meet runs them all; past its ``seconds`` no round begins."""
    small = Budget(samples=8, beam=3, depth=6, first=2)
    seat = _seat()
    hints(seat, random.Random(1), small)
    assert seat.samples == 8
    seat = _seat()
    hints(seat, random.Random(1), Budget(samples=8, beam=3, depth=6, first=2, stop=1e9))
    assert seat.samples == 2
    seat = _seat()
    hints(seat, random.Random(1), Budget(samples=8, beam=3, depth=6, first=1, stop=1e-12))
    assert seat.samples == 8
    seat = _seat()
    hints(seat, random.Random(1), Budget(samples=64, beam=3, depth=6, first=8, seconds=1e-9))
    assert seat.samples == 1  # the deadline holds within the first round too


def test_an_action_far_behind_is_dropped_and_keeps_a_paired_loss() -> None:
    """``prune`` stops planning an action clearly behind: its loss is paired on the re-deals
    it had (fewer than the best's), and every value is the best's less its loss, so the list
    stays sorted by value and by loss."""
    budget = Budget(samples=8, beam=3, depth=6, first=2, prune=0.5)
    for players, seed, moves in POSITIONS[:5]:
        got = hints(_seat(players, seed, moves), random.Random(3), budget)
        assert got[0].loss == 0
        assert [h.loss for h in got] == sorted(h.loss for h in got)
        assert all(h.value == pytest.approx(got[0].value - h.loss) for h in got)
    # The same with no pruning is the plain mean over every re-deal.
    full = hints(_seat(), random.Random(3), Budget(samples=8, beam=3, depth=6))
    assert [h.value for h in full] == sorted((h.value for h in full), reverse=True)


def test_the_adaptive_hint_advises_what_the_full_one_does() -> None:
    """Early stopping and pruning cost little advice: at positions of 2–5 players, the best
    action of the adaptive budget loses at most half a Reputation in the full budget's own
    values (all 16 re-deals, every action, the same generator)."""
    full = Budget(samples=16, beam=3, depth=6)
    quick = Budget(samples=16, beam=3, depth=6, first=2, stop=0.3, prune=2.0)
    for players, seed, moves in POSITIONS[:5]:
        s = _position(players, seed, moves)
        seat = Seat(s, to_act(s))
        fast = hints(seat, random.Random(4), quick)[0].action
        slow = {h.action: h.loss for h in hints(seat, random.Random(4), full)}
        assert slow[fast] <= 0.5


def test_the_screen_plans_the_widest_and_what_is_kept() -> None:
    """``widest`` plans only that many actions, those best one step ahead, and every action
    the caller keeps (the review keeps the move played) even if it looks worse."""
    s = _position(4, 7, 95)
    p = to_act(s)
    legal = legal_actions(s)
    assert len(legal) > 3
    budget = Budget(samples=2, beam=3, depth=6, widest=2)
    two = hints(Seat(s, p), random.Random(1), budget)
    assert len(two) == 2 and {h.action for h in two} <= set(legal)
    left_out = next(a for a in legal if a not in {h.action for h in two})
    three = hints(Seat(s, p), random.Random(1), budget, keep=(left_out,))
    assert {h.action for h in three} == {h.action for h in two} | {left_out}


def test_fine_stops_once_the_kept_action_is_close_to_the_best() -> None:
    """``fine`` ends the hint after the first round when every kept action is within it of
    the best: the review needs more re-deals only for a move that may have lost."""
    s = _position(3, 4, 60)
    p = to_act(s)
    budget = Budget(samples=8, beam=3, depth=6, first=1, fine=1e9)
    best = hints(Seat(s, p), random.Random(1), Budget(samples=1, beam=3, depth=6))[0].action
    seat = CountingSeat(s, p)
    hints(seat, random.Random(1), budget, keep=(best,))
    assert seat.samples == 1
    seat = CountingSeat(s, p)
    hints(seat, random.Random(1), budget)  # nothing kept: no early end
    assert seat.samples == 8


def test_the_leaf_is_the_expert_and_its_model_is_named_in_reasons() -> None:
    """The hint plans with the Expert's valuation (the tuned one plus half the learned
    model's predicted margin) and says when the model's part differs most: a reason's
    "the learned model's view" is the model's part of that action's value less the best's.
    The other leaves have no model; an unknown one is refused by name."""
    named = 0
    for players, seed, moves in POSITIONS[:5]:
        s = _position(players, seed, moves)
        got = hints(Seat(s, to_act(s)), random.Random(2), TINY)
        assert all(h.model is not None for h in got)
        for h in got[1:]:
            said = h.reason.split("the learned model's view ")
            if len(said) > 1:
                named += 1
                assert got[0].model is not None and h.model is not None
                shown = float(said[1].split(",")[0].split(")")[0])
                assert shown == pytest.approx(h.model - got[0].model, abs=0.051)
    assert named > 0
    s = _position(2, 1, 25)
    for leaf in ("tuned", "valuation"):
        got = hints(Seat(s, to_act(s)), random.Random(2), Budget(samples=2, beam=3, depth=6,
                                                                  leaf=leaf))
        assert all(h.model is None for h in got)
        assert all("learned model" not in h.reason for h in got)
    with pytest.raises(ValueError, match="no hint leaf 'wizard'"):
        hints(Seat(s, to_act(s)), random.Random(2), Budget(samples=2, leaf="wizard"))


def test_without_numpy_the_expert_leaf_is_the_tuned_valuation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Players need no numpy: without it the hint plans with the tuned valuation alone (the
    learned model needs numpy), and gives the same values as the ``tuned`` leaf."""
    from flamecraft.ai import hints as hints_module

    monkeypatch.setattr(hints_module, "_numpy", lambda: False)
    hints_module._planner.cache_clear()
    try:
        s = _position(2, 1, 25)
        seat = Seat(s, to_act(s))
        plain = hints(seat, random.Random(2), TINY)
        tuned = hints(seat, random.Random(2), Budget(samples=2, beam=3, depth=6, leaf="tuned"))
        assert all(h.model is None for h in plain)
        assert [h.value for h in plain] == [h.value for h in tuned]
    finally:
        hints_module._planner.cache_clear()


def test_an_action_dropped_for_an_earlier_best_stays_below_the_last_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Rounds can change which action is best: one dropped far behind the first best may look
    better than the last best on the few re-deals it had. It stays below the best (a loss of
    0 at least), and the best is first. A planner with made-up values shows it: A leads the
    first round and B is dropped; C overtakes A in the second."""
    from flamecraft.ai import hints as hints_module

    s = _position(3, 4, 60)
    p = to_act(s)
    legal = legal_actions(s)[:3]
    # A: 20, 20 then 0, 0; B: 16, 16 (4 behind A, no doubt: dropped); C: 30, 0 (5 behind A,
    # but unsure: kept) then 30, 30 — C is the last best, and B beat it on its two re-deals.
    script = [[20.0, 16.0, 30.0], [20.0, 16.0, 0.0], [0.0, 30.0], [0.0, 30.0]]

    class Scripted:
        net, blend = None, None
        weights = hints_module.leaf_planner(Budget(leaf="tuned")).weights
        calls = 0

        def plan_lines(self, t: GameState, seat: int, actions: list[tuple[int, ...]]
                       ) -> list[tuple[float, GameState, tuple[tuple[int, ...], ...]]]:
            row = script[Scripted.calls]
            Scripted.calls += 1
            assert len(row) == len(actions)
            return [(v, t, ()) for v in row]

    class Three(Seat):
        def legal_actions(self) -> list[tuple[int, int, int, int]]:
            return legal

    monkeypatch.setattr(hints_module, "leaf_planner", lambda budget: Scripted())
    got = hints(Three(s, p), random.Random(1),
                Budget(samples=4, first=2, prune=1.0))
    assert Scripted.calls == 4
    assert got[0].action == legal[2]  # C, the last best
    assert all(h.loss >= 0 for h in got) and got[0].loss == 0
    b = next(h for h in got if h.action == legal[1])
    assert b.loss == 0 and b.value == got[0].value  # dropped, but not above the best
