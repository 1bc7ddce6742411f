"""The public event stream: what each seat may know of every choice made in the game.

One rule, one place. Every adapter that tells a seat what happened (the terminal's log and
opponents' lines, the web server's log, the OpenSpiel information state) derives it from
``Event.seen_by``, so none can leak on its own:

- the actor reads its own choice in full, with the cards the choice showed it;
- the rest of the table reads what it would see across a real table: the Shop visited, the
  Goods taken, the cards placed or revealed face up, and, for a choice about hidden cards,
  only that it was made ("keep a Fancy Dragon"; a gift's receiver alone reads which card);
- a choice that changes nothing on the table (declining: "do not place", "end turn") is not
  seen by the others at all. Whether such a decision was offered can depend on hidden cards
  (``end turn`` is a choice exactly when a met Sun Dragon could be revealed instead), so
  showing it would tell the table what a hand holds.

Events are made for forced decisions too (a decision with one legal action, which the engine
takes by itself, ``engine.advance``): a public change is announced the same way whether or
not it was a choice, so the table cannot tell the two apart. A forced decline is no event,
but for the end of a turn: every turn ends with one ``end turn`` event, chosen or forced,
which the others do not read but whose results (the end of the turn's changes, public) they
do — so where those results are told never depends on whether ``end turn`` was a choice.
Which seat is to act, and that it is still its turn, is public (the table sees a player
thinking); *what* another seat is deciding is not (``docs/rules.md``, hidden information).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from . import actions as A
from .actions import Action, action_text
from .board import CATALOG
from .frames import ARTISAN_LOOK_N, D_ARTISAN_LOOK, D_KEEP_DRAWN_FANCY, KEEP_FANCY_CARDS
from .kinds import ACTION_KINDS, ActionKind
from .state import EMPTY, GameState
from .tr import Translate, same

# A result: one public change an action made, a tuple of ints whose first is its kind.
Result = tuple[int, ...]
R_REP: Final = 0  # (R_REP, seat, gained, new total)
R_COINS: Final = 1  # (R_COINS, seat, change)
R_GOOD: Final = 2  # (R_GOOD, seat, good, change)
R_FANCY: Final = 3  # (R_FANCY, seat, change): Fancy Dragons held or scored (drawn: +)
R_HAND: Final = 4  # (R_HAND, seat, change): Artisan Dragons in hand
R_FROM_PARK: Final = 5  # (R_FROM_PARK, seat, dragon): taken from the Park into the hand
R_COMPLETED: Final = 6  # (R_COMPLETED, shop): its three slots filled
R_NEW_SHOP: Final = 7  # (R_NEW_SHOP, shop): turned face up in the Town
R_MOVED: Final = 8  # (R_MOVED, dragon, shop, slot): moved within the Town (a Potion swap)
R_SCORED: Final = 9  # (R_SCORED, seat, fancy): a Fancy Dragon scored, face up
R_END: Final = 10  # (R_END, deck): the end triggered (0 the Artisan deck, 1 the Enchantment)
R_OVER: Final = 11  # (R_OVER,): the game ended (final scoring)

# Which choices change nothing the table sees (``decline``) and what the table reads of a
# choice about hidden cards (``public``, to a seat or to nobody) are the action kinds'
# declarations (``actions.py``).


def _public(kind: ActionKind, action: Action, names: tuple[str, ...],
            tr: Translate = same) -> tuple[str, int]:
    """What the table reads of a masked choice, and the one seat that reads it all (the
    receiver its seat argument names), or -1."""
    at = kind.seat_at()
    seat = action[at] if at > 0 else -1
    if seat < 0:
        return tr(kind.public_nobody or kind.public), -1
    return tr(kind.public).format(player=names[seat]), seat


@dataclass(frozen=True, slots=True)
class Event:
    """One action taken (chosen, or forced as the only one), as each seat may read it."""

    turn: int
    seat: int  # who acted
    action: Action
    full: str  # the action's stable text: what the actor reads
    public: str | None  # what the rest of the table reads; None: nothing at all
    also: int = -1  # the one other seat that reads ``full`` (the receiver of a gifted card)
    shown: str = ""  # what the choice showed the actor beyond its text ("shown X, Y")
    forced: bool = False  # taken by the engine: the only legal action (never shown to others)
    names: tuple[str, ...] = ()  # the players' names (to say the event in another language)
    note: str = ""  # a table note (no action, ``sessions.table_notes``): its msgid
    note_card: str = ""  # the card the note names
    # What the action changed on the table, public to all (``results``): every change up to
    # the next event, the forced steps and phases that followed it included.
    results: tuple[Result, ...] = ()
    # While the engine traces, the public side before the action (``Public``), until the
    # next event closes it into ``results`` (``close``); None once closed.
    pending: Public | None = None

    def seen_by(self, seat: int | None) -> str | None:
        """The text ``seat`` reads (None: a spectator), or None when it sees nothing."""
        if seat is not None and seat == self.seat:
            return f"{self.full} ({self.shown})" if self.shown else self.full
        if seat is not None and seat == self.also:
            return self.full
        return self.public


def event(s: GameState, action: Action, forced: bool = False) -> Event | None:
    """The event of ``action`` taken now by the seat to act in ``s`` (before it is applied);
    None for a forced decline (but ``end turn``), which is nothing anyone needs to read."""
    kind = ACTION_KINDS[action[0]]
    if forced and kind.decline and action[0] != A.END_TURN:
        return None
    seat = s.stack[-1][1]
    names = s.options.player_names()
    full = action_text(action, CATALOG, names)
    also = -1
    public: str | None
    if kind.decline:
        public = None
    elif kind.public:
        public, also = _public(kind, action, names)
    else:
        public = full
    return Event(s.turn, seat, action, full, public, also, _shown(s, action), forced, names)


def _shown(s: GameState, action: Action) -> str:
    """The cards a choice showed its chooser besides what its text names: the others of a
    keep-one-of choice, and the dragon drawn from the top of the Artisan deck (so the
    chooser's own record says everything it saw: perfect recall)."""
    frame = s.stack[-1]
    if action[0] == A.KEEP_FANCY and frame[0] == D_KEEP_DRAWN_FANCY:
        cards = [CATALOG.fancies[f].name for f in frame[KEEP_FANCY_CARDS:]]
    elif action[0] == A.KEEP_ARTISAN and frame[0] == D_ARTISAN_LOOK:
        cards = [CATALOG.artisans[d].name
                 for d in s.artisan_deck[max(0, len(s.artisan_deck) - frame[ARTISAN_LOOK_N]):]]
    elif action[0] == A.DRAW_DECK and s.artisan_deck:
        return f"drew {CATALOG.artisans[s.artisan_deck[-1]].name}"
    else:
        return ""
    return "shown " + ", ".join(cards)


def log_text(e: Event, seat: int | None, tr: Translate = same) -> str | None:
    """``e.seen_by(seat)`` in ``tr``'s language: the same choice of what ``seat`` reads (the
    action in full, its public form, or nothing), worded by ``tr``. With ``same`` it is
    ``seen_by`` itself, byte for byte."""
    line = e.seen_by(seat)
    if line is None or tr is same:
        return line
    if e.note:
        return tr(e.note).format(card=e.note_card)
    kind = ACTION_KINDS[e.action[0]]
    at = kind.seat_at()
    if not e.names and at > 0 and e.action[at] >= 0:
        return line  # an event without the players' names (an old record): as it was
    if line == e.public and e.public != e.full:  # the table's masked reading
        return _public(kind, e.action, e.names, tr)[0]
    full = action_text(e.action, CATALOG, e.names, tr)
    if line == e.full or not e.shown:
        return full
    if e.shown.startswith("drew "):
        shown = tr("drew {card}").format(card=e.shown[len("drew "):])
    else:
        shown = tr("shown {cards}").format(cards=e.shown[len("shown "):].replace(", ", tr(", ")))
    return tr("{action} ({shown})").format(action=full, shown=shown)


def log_for(events: list[Event], seat: int | None) -> list[tuple[Event, str]]:
    """The events ``seat`` sees, each with the text it reads, in order."""
    out = []
    for e in events:
        line = e.seen_by(seat)
        if line is not None:
            out.append((e, line))
    return out


# ---------------------------------------------------------------- results


class Public:
    """The public side of a state that results are read from: Reputation, Coins, Goods, the
    counts of hidden cards, the Town's slots and face-up Shops, the Park, the end. Taken only
    when a trace is asked for, never on the bots' path."""

    __slots__ = ("coins", "end", "fancy", "goods", "hand", "over", "park", "rep", "scored",
                 "slots", "town")

    def __init__(self, s: GameState) -> None:
        self.rep = s.rep[:]
        self.coins = s.coins[:]
        self.goods = [g[:] for g in s.goods]
        self.fancy = [len(f) + len(c) for f, c in zip(s.fancy, s.scored, strict=True)]
        self.scored = [c[:] for c in s.scored]
        self.hand = [len(h) for h in s.hand]
        self.slots = s.slots[:]
        self.town = s.town_shops()
        self.park = s.park[:]
        self.end = s.end_triggered
        self.over = s.over


def results(before: Public, s: GameState) -> tuple[Result, ...]:
    """What changed on the table from ``before`` to ``s``, public facts only (the counts of
    hidden cards, never which)."""
    after = Public(s)
    out: list[Result] = []
    for p in range(len(after.rep)):
        if after.rep[p] != before.rep[p]:
            out.append((R_REP, p, after.rep[p] - before.rep[p], after.rep[p]))
        for g in range(len(after.goods[p])):
            if after.goods[p][g] != before.goods[p][g]:
                out.append((R_GOOD, p, g, after.goods[p][g] - before.goods[p][g]))
        if after.coins[p] != before.coins[p]:
            out.append((R_COINS, p, after.coins[p] - before.coins[p]))
        if after.fancy[p] != before.fancy[p]:
            out.append((R_FANCY, p, after.fancy[p] - before.fancy[p]))
        if after.hand[p] != before.hand[p]:
            out.append((R_HAND, p, after.hand[p] - before.hand[p]))
        for card in after.scored[p]:
            if card not in before.scored[p]:
                out.append((R_SCORED, p, card))
    for dragon in before.park:
        if dragon not in after.park:
            for p in range(len(s.hand)):
                if dragon in s.hand[p]:  # public: it was face up, and went to that hand
                    out.append((R_FROM_PARK, p, dragon))
    for i, dragon in enumerate(after.slots):
        if dragon != EMPTY and before.slots[i] != dragon and dragon in before.slots:
            out.append((R_MOVED, dragon, i // 3, i % 3))
    for shop in after.town:
        full = all(after.slots[3 * shop + k] != EMPTY for k in range(3))
        if full and not all(before.slots[3 * shop + k] != EMPTY for k in range(3)):
            out.append((R_COMPLETED, shop))
        if shop not in before.town:
            out.append((R_NEW_SHOP, shop))
    if after.end and not before.end:
        out.append((R_END, 0 if not s.artisan_deck else 1))
    if after.over and not before.over:
        out.append((R_OVER,))
    return tuple(out)


def opened(e: Event, s: GameState) -> Event:
    """``e`` waiting for its results: the public side of ``s`` before it is applied."""
    return Event(e.turn, e.seat, e.action, e.full, e.public, e.also, e.shown, e.forced,
                 e.names, e.note, e.note_card, (), Public(s))


def close(trace: list[Event], s: GameState) -> None:
    """The last traced event given its results: what changed up to ``s`` since it opened."""
    if trace and trace[-1].pending is not None:
        e = trace[-1]
        assert e.pending is not None
        trace[-1] = Event(e.turn, e.seat, e.action, e.full, e.public, e.also, e.shown,
                          e.forced, e.names, e.note, e.note_card, results(e.pending, s))
