"""Post-game review: every decision of a finished game against what the planner would do.

``review(record)`` replays a finished game. At each decision of the chosen seats it runs the
hint (``hints.py``) with ``REVIEW_BUDGET`` from the deciding seat's position *as it was then*
(samples of the cards that seat could not see): a decision is judged by what its player could
know, not by the deck's order, which nobody could. The chosen action's value is set against
the best one's; the decisions that lost the most are the mistakes, listed with what the bot
would have done and why. The win-chance graph uses every seat's cards: the game is over, so
nothing is left to hide, and the true state is the best estimate of each position
(``winchance.WinModel.chances`` at the start of every turn).

A review of a game in progress would tell a seat what the others hold, so an unfinished
record is refused (``UnfinishedGameError``). Each decision's samples are seeded from the
record's seed and the decision's number, so the same record always gives the same review.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core.actions import Action
from ..core.engine import apply_in_place, to_act, winners
from ..core.errors import FlamecraftError
from ..core.serialize import GameRecord, action_error
from ..core.state import GameState
from ..core.tr import Translate, same
from .hints import Budget, Hint, hints
from .interface import Seat
from .winchance import WinModel, default_model

# A few ms a decision with the compiled core (a 4-player game of 330–380 decisions in about
# 2–3 s: docs/bots.md, bench/advice_latency.py): one re-deal where the move played is within
# 0.75 of the best there, more (at most 4) where it may have lost; a decision of more than 4
# options plans the 4 that look best one step ahead and the move played.
REVIEW_BUDGET = Budget(samples=4, beam=4, first=1, stop=0.5, prune=2.0, widest=4, fine=0.75)

# A decision that lost at least this much end-of-turn value (Reputation ahead of the others)
# against the best: the labels of lichess, in this game's units.
LABELS = ((6.0, "blunder"), (3.0, "mistake"), (1.5, "inaccuracy"))


class UnfinishedGameError(FlamecraftError):
    """A review was asked of a game that is not over."""


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: what was chosen, what the hint thought best, and the gap."""

    number: int  # the action's number in the record (1-based)
    turn: int
    seat: int
    options: int  # how many legal actions there were
    chosen: str
    chosen_value: float
    chosen_win: float | None
    best: str
    best_value: float
    best_win: float | None
    loss: float  # best_value - chosen_value (0 when the chosen one is the best)
    loss_se: float  # its standard error over the samples
    label: str  # "", "inaccuracy", "mistake" or "blunder"
    best_reason: str
    best_plan: tuple[str, ...]
    chosen_reason: str
    rank: int  # the chosen action's place among the hints (1 = the best)


@dataclass
class Review:
    """A finished game's review (``format_review`` prints it, ``plot_review`` draws it)."""

    names: list[str]
    seats: list[int]  # the seats reviewed
    decisions: list[Decision]
    turns: list[int]  # the turn of each point of ``chances``
    chances: list[list[float]]  # per point, each seat's win chance (from the true state)
    result: list[int]  # final Reputation
    winners: list[int]
    budget: Budget
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def mistakes(self, top: int = 5) -> list[Decision]:
        """The decisions that lost the most (at least an inaccuracy), worst first."""
        bad = [d for d in self.decisions if d.label]
        return sorted(bad, key=lambda d: (-d.loss, d.number))[:top]

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["budget"] = asdict(self.budget)
        return out


def label(loss: float) -> str:
    for threshold, name in LABELS:
        if loss >= threshold:
            return name
    return ""


def decision_seed(record: GameRecord, number: int) -> int:
    """The seed of one decision's samples: from the record's seed and the decision only."""
    digest = hashlib.sha256(f"flamecraft-review:{record.seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _start(record: GameRecord) -> GameState:
    return record.first_state()  # dealt from the record's deal


def check_finished(record: GameRecord) -> GameState:
    """The final state of a record; ``UnfinishedGameError`` if the game is not over."""
    s = _start(record)
    for number, typed in enumerate(record.actions, 1):
        try:
            apply_in_place(s, record.parse(s, typed))
        except FlamecraftError as exc:
            raise action_error(number, typed, exc) from None
    if not s.over:
        raise UnfinishedGameError(
            f"the game is not over (turn {s.turn}, {s.options.player_names()[to_act(s)]} to "
            "act), and a review shows every seat's cards, so only a finished game can be "
            "reviewed")
    return s


def review(record: GameRecord, seats: Sequence[int] | None = None,
           budget: Budget = REVIEW_BUDGET, model: WinModel | None = None,
           progress: Callable[[int, int], None] | None = None,
           tr: Translate = same) -> Review:
    """Reviews a finished game (see the module docstring). ``seats``: the seats whose
    decisions are valued (default: every seat); ``progress(done, total)`` is called after
    each action replayed; the reasons are worded by ``tr`` (``hints.hints``)."""
    began = time.perf_counter()
    final = check_finished(record)
    model = model or default_model()
    n = final.n
    chosen_seats = sorted(set(range(n) if seats is None else seats))
    if any(not 0 <= p < n for p in chosen_seats):
        raise ValueError(f"no such seat: the game has seats 1–{n}")
    s = _start(record)
    decisions: list[Decision] = []
    turns: list[int] = []
    chances: list[list[float]] = []
    last_turn = -1
    total = len(record.actions)
    for number, typed in enumerate(record.actions, 1):
        if s.turn != last_turn and s.turn >= 1:
            c = model.chances(s)
            if c is not None:
                turns.append(s.turn)
                chances.append(c)
            last_turn = s.turn
        action = record.parse(s, typed)
        p = to_act(s)
        if p in chosen_seats:
            decisions.append(_judge(s, p, action, number, record, budget, model, tr))
        apply_in_place(s, action)
        if progress is not None:
            progress(number, total)
    c = model.chances(s)
    if c is not None:
        turns.append(s.turn + 1)
        chances.append(c)
    return Review(list(s.options.player_names()), chosen_seats, decisions, turns, chances,
                  s.rep[:], winners(s), budget, time.perf_counter() - began)


def _judge(s: GameState, p: int, action: Action, number: int, record: GameRecord,
           budget: Budget, model: WinModel, tr: Translate = same) -> Decision:
    """One decision, valued from seat p's information at the time (the action played is
    always among those planned; ``rank`` is its place among them)."""
    rng = random.Random(decision_seed(record, number))
    seat = Seat(s, p)
    ranked = hints(seat, rng, budget, model, tr, keep=(action,))
    best: Hint = ranked[0]
    rank, mine = next((i, h) for i, h in enumerate(ranked, 1) if h.action == action)
    loss = 0.0 if mine is best else mine.loss
    return Decision(number, s.turn, p, len(seat.legal_actions()), mine.text, mine.value, mine.win,
                    best.text, best.value, best.win, loss, mine.loss_se, label(loss),
                    best.reason, best.plan, mine.reason, rank)


# --- output -------------------------------------------------------------------------------

def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.0f}%"


def _chances(chosen: float | None, best: float | None) -> str:
    """"40% instead of 55%", or "0% either way" when the two read the same."""
    a, b = _pct(chosen), _pct(best)
    return f"{a} either way" if a == b else f"{a} instead of {b}"


def format_review(rv: Review, title: str, top: int = 5) -> str:
    """The review as text: the note on hidden information, each seat's accuracy, the
    biggest mistakes with what the bot would have done and why, and the win-chance path."""
    b = rv.budget
    lines = [f"Review of {title}",
             "This game is over, so the review may use everything: the win chances below use "
             "every seat's cards. Each decision is valued as its player could see it then "
             f"(1 to {b.samples} samples of the cards that seat could not see, more where the "
             "move played may have lost; the rest of the turn planned to its end: beam "
             f"{b.beam}, depth {b.depth}); values are Reputation ahead of the others at the "
             "end of the turn, as the Expert level values it.",
             ""]
    score = ", ".join(f"{rv.names[p]} {r}" for p, r in enumerate(rv.result))
    lines.append(f"Result: {score}; winner{'s' if len(rv.winners) > 1 else ''} "
                 f"{' and '.join(rv.names[p] for p in rv.winners)}.")
    lines.append("")
    lines.append("seat  decisions  best found  mean loss  inaccuracies  mistakes  blunders")
    for p in rv.seats:
        mine = [d for d in rv.decisions if d.seat == p]
        if not mine:
            continue
        found = sum(d.rank == 1 for d in mine)
        mean_loss = sum(d.loss for d in mine) / len(mine)
        count = {name: sum(d.label == name for d in mine) for _t, name in LABELS}
        lines.append(f"{rv.names[p]:<5} {len(mine):>9}  {100 * found / len(mine):>9.0f}%  "
                     f"{mean_loss:>9.2f}  {count['inaccuracy']:>12}  {count['mistake']:>8}  "
                     f"{count['blunder']:>8}")
    lines.append("")
    worst = rv.mistakes(top)
    if not worst:
        lines.append("No decision lost 1.5 or more against the best: no mistakes to show.")
    else:
        lines.append(f"Biggest mistakes (loss ≥ {LABELS[-1][0]}: inaccuracy, ≥ {LABELS[1][0]}: "
                     f"mistake, ≥ {LABELS[0][0]}: blunder):")
        for d in worst:
            lines.append(f"- turn {d.turn}, {rv.names[d.seat]} (action {d.number}, "
                         f"{d.options} options): {d.label}, {d.loss:.1f} ± {d.loss_se:.1f} "
                         f"lost; win chance {_chances(d.chosen_win, d.best_win)}")
            lines.append(f"    played: {d.chosen} — {d.chosen_reason}")
            lines.append(f"    the bot: {d.best} — {d.best_reason}")
            if d.best_plan:
                lines.append(f"    then: {' / '.join(d.best_plan)}")
    lines.append("")
    if not rv.chances:
        lines.append("A solo game has nobody to beat: no win chance (values are Reputation).")
    else:
        lines += _curve_lines(rv)
    lines.append("")
    lines.append(f"{len(rv.decisions)} decisions reviewed in {rv.seconds:.1f} s "
                 f"({1000 * rv.seconds / max(1, len(rv.decisions)):.0f} ms a decision).")
    return "\n".join(lines) + "\n"


def _curve_lines(rv: Review) -> list[str]:
    """About ten rows of the win-chance path, the last one the result."""
    lines = ["Win chance at the start of turns (every seat's cards known):"]
    step = max(1, len(rv.turns) // 8)
    picks = sorted(set(range(0, len(rv.turns), step)) | {len(rv.turns) - 1})
    head = "turn  " + "  ".join(f"{name:>6}" for name in rv.names)
    lines.append(head)
    for i in picks:
        turn = "end" if i == len(rv.turns) - 1 else str(rv.turns[i])
        lines.append(f"{turn:>4}  " + "  ".join(f"{_pct(c):>6}" for c in rv.chances[i]))
    return lines


def plot_review(rv: Review, path: str, title: str) -> bool:
    """The win-chance graph (PNG): every seat's chance over the turns, the reviewed seats'
    mistakes marked. False when there is no curve (solo) or matplotlib is missing."""
    if not rv.chances:
        return False
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(9, 4.6))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for p, name in enumerate(rv.names):
        ys = [100 * c[p] for c in rv.chances]
        won = " (won)" if p in rv.winners else ""
        ax.plot(rv.turns, ys, color=colors[p % len(colors)], lw=1.8,
                label=f"{name}: {rv.result[p]} Rep{won}")
    marks = {"inaccuracy": ("o", 5), "mistake": ("s", 6), "blunder": ("X", 9)}
    shown: set[str] = set()
    for d in rv.decisions:
        if not d.label:
            continue
        i = max(k for k, t in enumerate(rv.turns) if t <= d.turn) if rv.turns[0] <= d.turn else 0
        marker, size = marks[d.label]
        ax.plot(rv.turns[i], 100 * rv.chances[i][d.seat], marker=marker, ms=size,
                color=colors[d.seat % len(colors)], mec="black", mew=0.6, ls="none",
                label=d.label if d.label not in shown else None)
        shown.add(d.label)
    ax.set_xlabel("turn (the last point: the result)")
    ax.set_ylabel("win chance (%)")
    ax.set_ylim(-2, 102)
    ax.grid(alpha=0.3)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
