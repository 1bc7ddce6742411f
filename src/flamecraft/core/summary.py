"""Each seat's turn in one line, with what it earned, from the public event stream.

``Ember — visit Smith Mart; gather: +2 Iron; place Shale on Smith Mart slot 2: +1 Coin;
fire up Wingnut: +2 Iron; reveal Brewdini: +6 Rep (now 31)``. One function (``turns``) for
every adapter (the terminal's lines at the prompt and its ``log``, the web's "last turns"),
like ``Event.seen_by``: a line for a seat is built only from what that seat reads of each
event (``log_text``) and the events' public results (``Event.results``: counts of hidden
cards, never which). A step the seat does not read (another seat's decline) gives its
results to the step before it, so that whether the step was a choice at all — which can
depend on hidden cards — never shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from . import actions as A
from .board import CATALOG
from .events import (
    R_COINS,
    R_COMPLETED,
    R_END,
    R_FANCY,
    R_FROM_PARK,
    R_GOOD,
    R_HAND,
    R_MOVED,
    R_NEW_SHOP,
    R_OVER,
    R_REP,
    R_SCORED,
    Event,
    Result,
    log_text,
)
from .goods import COIN, GOOD_NAMES
from .tr import N_, Translate, same

# The kinds whose text already says which Goods or Coins moved (a gift, a payment…): their
# Goods and Coins results would only repeat it.
GOODS_SAID: Final = frozenset((A.GIVE, A.GIFT, A.PAY, A.RETURN, A.EXCHANGE_GOOD,
                               A.TAKE_GOOD))
# The kinds whose text says that a dragon came into the hand.
DRAW_SAID: Final = frozenset((A.DRAW_DECK, A.DRAW_PARK, A.KEEP_ARTISAN))
# The kinds whose text says which Fancy Dragon was scored.
SCORE_SAID: Final = frozenset((A.REVEAL, A.SCORE_MOON))
# The kinds that finish another step's draw (keep one of the Fancy Dragons drawn).
FANCY_KEPT: Final = frozenset((A.KEEP_FANCY, A.PUT_BACK_FANCY))


class Step:
    """One event of a turn as a seat reads it: who acted, its kind, its text, its results."""

    __slots__ = ("kind", "results", "seat", "text")

    def __init__(self, seat: int, kind: int, text: str, results: list[Result]) -> None:
        self.seat = seat
        self.kind = kind
        self.text = text
        self.results = results


class Turn:
    """One seat's turn (a setup choice, before turn 1) as a seat reads it."""

    __slots__ = ("final_round", "seat", "steps", "turn")

    def __init__(self, turn: int, seat: int, final_round: bool) -> None:
        self.turn = turn
        self.seat = seat
        self.final_round = final_round  # played after the end was triggered
        self.steps: list[Step] = []


def turns(events: Sequence[Event], seat: int | None, tr: Translate = same,
          start: int = 0) -> list[Turn]:
    """Every seat-turn of ``events`` as ``seat`` reads it (None: a spectator), in order. The
    table's notes are left out (the end trigger is a result of the step that made it); a
    payment's results go to the cast it pays for, a kept Fancy Dragon's count to its draw,
    and a step ``seat`` does not read (another seat's decline) gives its results to the step
    before it: whether that decline was a choice can depend on hidden cards. ``start``: the
    events before it are left out (at a turn's first event)."""
    out: list[Turn] = []
    ended = any(r[0] == R_END for e in events[:start] for r in e.results)
    carry: list[Result] = []  # results of unread steps before the turn's first read one
    for i in range(start, len(events)):
        e = events[i]
        if e.action[0] < 0:
            continue
        if not out or out[-1].turn != e.turn or (e.turn == 0 and out[-1].seat != e.seat):
            if out and any(r[0] == R_END for st in out[-1].steps for r in st.results):
                ended = True
            out.append(Turn(e.turn, e.seat, ended and e.turn > 0))
            carry = []
        t = out[-1]
        results = list(e.results)
        kind = e.action[0]
        line = step_line(e, seat, tr)
        if line is None or kind == A.PAY:  # unread, or said by the cast it pays for
            if t.steps:
                t.steps[-1].results.extend(results)
            else:
                carry.extend(results)
            continue
        if kind in FANCY_KEPT and t.steps:
            t.steps[-1].results.extend(r for r in results if r[0] == R_FANCY)
            results = [r for r in results if r[0] != R_FANCY]
        t.steps.append(Step(e.seat, kind, line, carry + results))
        carry = []
    return out


def step_line(e: Event, seat: int | None, tr: Translate = same) -> str | None:
    """What ``seat`` reads of ``e`` before its results: its line (``log_text``); for the end
    of a turn (one every turn, ``core/events.py``), "end of turn" when it changed something
    on the table, whoever reads it; None: nothing."""
    # (a turn's end that changed nothing is the actor's "end turn", no one else's)
    if e.action[0] == A.END_TURN and e.results:
        return tr("end of turn")
    return log_text(e, seat, tr)


def event_line(e: Event, seat: int | None, tr: Translate = same) -> str | None:
    """An event as ``seat`` reads it in the full log: its line and its results
    (``place Shale on Smith Mart slot 2: +1 Coin``); for a step it does not read, its
    results alone (they happened on the table), or None when there is nothing to read."""
    if e.action[0] < 0:
        return log_text(e, seat, tr)
    line = step_line(e, seat, tr)
    if line is None and not e.results:
        return None
    return step_text(Step(e.seat, e.action[0], line or "", list(e.results)), e.names, tr)


def last_turns(events: Sequence[Event], seat: int | None, tr: Translate = same) -> list[Turn]:
    """The latest turn of every seat but ``seat`` (a spectator: every seat), in seat order;
    only the last round's events are read (a state message is sent to every seat at every
    action of the game)."""
    seats = next((len(e.names) for e in reversed(events) if e.names), 0)
    start = len(events)
    while start > 0 and (not seats or events[start - 1].turn >= events[-1].turn - seats
                         or events[start - 1].turn == 0):
        start -= 1
    latest: dict[int, Turn] = {}
    for t in turns(events, seat, tr, start):
        if t.seat != seat and t.steps:
            latest[t.seat] = t
    return [latest[p] for p in sorted(latest)]


def _count(n: int, one: str, many: str, tr: Translate) -> str:
    return tr(one if abs(n) == 1 else many).format(n=f"{n:+d}")


def results_text(results: Sequence[Result], actor: int, kind: int, names: Sequence[str],
                 tr: Translate = same) -> str:
    """A step's results in words: the actor's first (``+2 Iron, +6 Rep (now 31)``), then
    each other seat's under its name, then the table's (a Shop completed, the end)."""
    by_seat: dict[int, list[str]] = {}
    table: list[str] = []
    first: list[str] = []  # the end of the game, before what it scored
    rep: dict[int, list[int]] = {}
    fancy: dict[int, int] = {}
    hand: dict[int, int] = {}
    goods: dict[tuple[int, int], int] = {}  # (seat, Good or COIN): the change
    for r in results:
        what = r[0]
        if what == R_REP:
            rep.setdefault(r[1], [0, 0])
            rep[r[1]][0] += r[2]
            rep[r[1]][1] = r[3]
        elif what == R_GOOD and kind not in GOODS_SAID:
            goods[(r[1], r[2])] = goods.get((r[1], r[2]), 0) + r[3]
        elif what == R_COINS and kind not in GOODS_SAID:
            goods[(r[1], COIN)] = goods.get((r[1], COIN), 0) + r[2]
        elif what == R_FANCY:
            fancy[r[1]] = fancy.get(r[1], 0) + r[2]
        elif what == R_HAND:
            hand[r[1]] = hand.get(r[1], 0) + r[2]
        elif what == R_FROM_PARK:
            hand[r[1]] = hand.get(r[1], 0) - 1  # named, not counted
            if kind != A.DRAW_PARK:
                by_seat.setdefault(r[1], []).append(tr("took {dragon} from the Park").format(
                    dragon=CATALOG.artisans[r[2]].name))
        elif what == R_SCORED and kind not in SCORE_SAID:
            by_seat.setdefault(r[1], []).append(tr("scored {card}").format(
                card=CATALOG.fancies[r[2]].name))
        elif what == R_COMPLETED:
            table.append(tr("completed {shop}").format(shop=CATALOG.shops[r[1]].name))
        elif what == R_NEW_SHOP:
            table.append(tr("new Shop: {shop}").format(shop=CATALOG.shops[r[1]].name))
        elif what == R_MOVED:
            table.append(tr("{dragon} to {shop} slot {slot}").format(
                dragon=CATALOG.artisans[r[1]].name, shop=CATALOG.shops[r[2]].name,
                slot=r[3] + 1))
        elif what == R_END:
            first.append(tr("the Artisan deck is empty: final round") if r[1] == 0 else
                         tr("the Enchantment deck is empty: final round"))
        elif what == R_OVER:
            first.append(tr("game over, final scoring"))
    for (p, g), n in sorted(goods.items()):
        if n:
            by_seat.setdefault(p, []).append(
                _count(n, N_("{n} Coin"), N_("{n} Coins"), tr) if g == COIN
                else tr("{n} {good}").format(n=f"{n:+d}", good=tr(GOOD_NAMES[g])))
    for p, n in hand.items():
        if n > 0 and not (p == actor and kind in DRAW_SAID):
            by_seat.setdefault(p, []).append(_count(n, N_("{n} Artisan Dragon"),
                                                    N_("{n} Artisan Dragons"), tr))
    for p, n in fancy.items():
        if n > 0:  # drawn (a count: which is hidden); one put back is no news
            by_seat.setdefault(p, []).append(_count(n, N_("{n} Fancy Dragon"),
                                                    N_("{n} Fancy Dragons"), tr))
    for p, (gained, total) in rep.items():
        by_seat.setdefault(p, []).append(tr("{n} Rep (now {total})").format(
            n=f"{gained:+d}", total=total))
    comma = tr(", ")
    parts = []
    for p in sorted(by_seat, key=lambda q: (q != actor, q)):
        said = comma.join(by_seat[p])
        parts.append(said if p == actor else tr("{name} {results}").format(
            name=names[p] if p < len(names) else f"P{p + 1}", results=said))
    return comma.join(first + parts + table)


def step_text(step: Step, names: Sequence[str], tr: Translate = same) -> str:
    """One step with its results: ``fire up Wingnut: +2 Iron``."""
    said = results_text(step.results, step.seat, step.kind, names, tr)
    if not said or not step.text:
        return said or step.text
    return tr("{step}: {results}").format(step=step.text, results=said)


def turn_steps(t: Turn, names: Sequence[str], tr: Translate = same) -> list[str]:
    """The turn's steps in words, each with its results (another seat's step under its name)."""
    out = []
    for step in t.steps:
        said = step_text(step, names, tr)
        if step.seat != t.seat:
            said = tr("{name}: {step}").format(name=names[step.seat], step=said)
        out.append(said)
    return out


def turn_text(t: Turn, names: Sequence[str], tr: Translate = same) -> str:
    """The whole turn in one line: ``Ember — visit Smith Mart; gather: +2 Iron; …``."""
    name = names[t.seat] if t.seat < len(names) else f"P{t.seat + 1}"
    who = tr("{name} (last turn)").format(name=name) if t.final_round else name
    return tr("{name} — {steps}").format(name=who,
                                         steps=tr("; ").join(turn_steps(t, names, tr)))
