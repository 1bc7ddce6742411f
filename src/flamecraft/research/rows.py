"""Observation rows kept current value by value: the vector environments' encoder.

A vector environment keeps each game's observation in a preallocated float32 row. Building
the whole vector again at every step (``encoding.observation_buffer``: about 140 non-zero
values written into zeroed memory) costs more than the engine's move, while a decision
changes a handful of values: a Good taken changes one, a placement three or four.
``RowEncoder`` keeps copies of what each value was computed from at its last write and
writes only the values whose inputs changed. The reason it goes value by value rather than
block by block: from compiled code, one write into a numpy row costs about as much as twenty
comparisons of small ints, and clearing and refilling a block writes many values that did not
change.

The values are computed exactly as ``encoding``'s block writers compute them (the same
offsets, scales and helpers), so a row holds ``observation(s, seat)`` cast to float32 as numpy
casts; tests/test_vector.py checks it after every decision of random games and after random
gaps of many decisions (a batch writes a seat's row only when that seat acts).
"""

from __future__ import annotations

from typing import Any, Final

from ..core.board import ART_TYPE
from ..core.engine import to_act
from ..core.goods import NUM_GOODS
from ..core.state import CAST_ICONS, EMPTY, MAX_SETS, NUM_COUNTERS, VISITED, GameState
from .encoding import (
    CAST_ICONS_AT,
    COINS_AT,
    COUNTER_SCALES,
    COUNTERS_AT,
    DECK_SCALES,
    FACEDOWN_SCALE,
    GOODS_SCALE,
    ICONS_AT,
    MAX_SETS_AT,
    MAX_SETS_SCALE,
    NUM_SHOPS,
    NUM_TYPES,
    PARK_SIZE,
    PLAYER_BLOCK,
    RESERVED_AT,
    SCORED_AT,
    SHOP_FIXED,
    SLOT_SIZE,
    SUPPLY_SCALES,
    TURN_SCALE,
    VISITED_AT,
    ObservationLayout,
    _companions,
    _solo,
    deck_sizes,
    hand_values,
    layout,
    relative_seats,
    scaled,
    shop_icons,
)

# 0.0 and 1.0 as the objects written into a row's memoryview, boxed once: compiled, a float
# literal written is boxed anew at every write.
_UNIT: Final[list[Any]] = [0.0, 1.0]
NONE: Final = -1  # no value of a one-hot written (no seat acting, an empty Park position)
OWN_VALUES: Final = 2 * NUM_TYPES  # the hand by type, then the fired hand dragons' types


def _count(count: int, scale: int) -> float:
    """A count as the observation shows it: scaled, and 0 for none (or fewer)."""
    return scaled(count, scale) if count > 0 else 0.0


def _one_hot(out: memoryview[float], before: int, now: int) -> None:
    """Moves a one-hot's 1 from index ``before`` to ``now`` (either may be NONE)."""
    if before != NONE:
        out[before] = _UNIT[0]
    if now != NONE:
        out[now] = _UNIT[1]


def _ones(out: memoryview[float], at: int, before: list[int], now: list[int]) -> None:
    """Makes the 1s at ``at + i`` for ``i`` in ``before`` be the 1s for ``i`` in ``now``."""
    for i in before:
        if i not in now:
            out[at + i] = _UNIT[0]
    for i in now:
        if i not in before:
            out[at + i] = _UNIT[1]


class RowEncoder:
    """One seat's observation of one game (``seat`` None: the public observer), kept current
    in a float32 row (a memoryview of a vector env's preallocated row) by writing only the
    values whose inputs changed since its last write.

    The row must hold nothing but this encoder's writes: ``forget`` before a new game, or
    after anything else wrote into it (the next write then writes the whole row)."""

    lay: ObservationLayout
    players: int
    seat: int | None
    rel: list[int]
    fresh: bool
    # The decision block: the index of each one-hot's 1 (NONE: none), the flags and counts.
    _acting_at: int
    _kind_at: int
    _current_at: int
    _over: bool
    _end: bool
    _final: int
    _turn: int
    # Town: its spaces' Shops and the face-down ones; per Town space, its slots' dragons and
    # their fire-ups, its Enchantments and their icons as written; where each seat stands.
    _town: list[int]
    _facedown: list[int]
    _face_up: list[int]  # the Shops face up in Town
    _slots: list[int]  # every slot's dragon (``s.slots``), as last written
    _fired: int
    _ench: list[tuple[int, ...]]  # every Shop's Enchantments (``s.shop_ench``)
    _pos: list[int]
    # The market: the Park's dragons, the Enchantment row, the decks' sizes.
    _park: list[int]
    _row: list[int]
    _decks: list[int]
    # Every seat's public supply and history.
    _blocks: list[int]  # where each seat's block starts (its place from ``seat``)
    _goods: list[list[int]]
    _coins: list[int]
    _rep: list[int]
    _hands: list[int]  # hand sizes
    _fancies: list[int]  # Fancy Dragons held (unscored)
    _reserved: list[int]
    _scored: list[list[int]]
    _counters: list[list[int]]
    _with_companions: bool  # the game's Companion module (a game's options never change)
    _companions: list[int]  # the offer, then per seat: Companion, uses (as ``write`` lists)
    _solo: list[list[int]]
    # The seat's own cards: its hand and the fire-ups it was valued with.
    _hand: list[int]
    _hand_fired: int
    _fancy: list[int]

    def __init__(self, players: int, seat: int | None):
        self.lay = layout(players)
        self.players = players
        self.seat = seat
        self.rel = relative_seats(players, seat)
        self._blocks = [self.lay.players_block + self.rel[p] * PLAYER_BLOCK
                        for p in range(players)]
        self._zeros: memoryview[float] = memoryview(bytearray(4 * self.lay.size)).cast("f")
        self.fresh = True
        self._empty()

    def __reduce__(self) -> tuple[type[RowEncoder], tuple[int, int | None]]:
        # Copied as a new encoder (which writes its whole row at its first write).
        return (RowEncoder, (self.players, self.seat))

    def forget(self) -> None:
        """The next ``write`` writes every value (a new game, or a row written by others)."""
        self.fresh = True

    def _empty(self) -> None:
        """The copies an all-zero row would have: the next write writes every non-zero
        value."""
        n = self.players
        self._acting_at = NONE
        self._kind_at = NONE
        self._current_at = NONE
        self._over = False
        self._end = False
        self._final = 0
        self._turn = 0
        self._town = []
        self._facedown = []
        self._face_up = []
        self._slots = []
        self._fired = 0
        self._ench = []
        self._pos = [EMPTY] * n
        self._park = []
        self._row = []
        self._decks = [0, 0, 0, 0]
        self._goods = [[0] * NUM_GOODS for _ in range(n)]
        self._coins = [0] * n
        self._rep = [0] * n
        self._hands = [0] * n
        self._fancies = [0] * n
        self._reserved = [EMPTY] * n
        self._scored = [[] for _ in range(n)]
        self._counters = [[0] * NUM_COUNTERS for _ in range(n)]
        self._with_companions = False
        self._companions = []
        self._solo = []
        self._hand = []
        self._hand_fired = 0
        self._fancy = []

    def _clear(self, out: memoryview[float], start: int, stop: int) -> None:
        out[start:stop] = self._zeros[start:stop]

    def write(self, out: memoryview[float], s: GameState) -> None:
        """Makes ``out`` (float32, ``layout(players).size`` long) hold ``observation(s,
        seat)``, given that it held this encoder's last write (or anything, when fresh)."""
        n = self.players
        if s.n != n:
            raise ValueError(f"a {s.n}-player game given to an encoder of {n} players")
        if self.fresh:
            self._clear(out, 0, self.lay.size)
            self._empty()
            self._with_companions = s.options.companions
            self.fresh = False
        self._decision(out, s)
        self._town_values(out, s)
        self._market(out, s)
        self._seat_values(out, s)
        lay = self.lay
        if self._with_companions:
            held = [*s.companion_offer, -1, *s.companion, *s.companion_uses,
                    *s.companion_turn]
            if held != self._companions:  # rare: the draft, a Companion used
                if self._companions:
                    self._clear(out, lay.companions, lay.solo)
                _companions(out, s, lay.companions, self.rel)
                self._companions = held
        if n == 1:
            solo = [[*s.achievements[0]], s.ench_row.copy(), s.ench_removed.copy()]
            if solo != self._solo:
                if self._solo:
                    self._clear(out, lay.solo, lay.own)
                _solo(out, s, lay.solo)
                self._solo = solo
        seat = self.seat
        if seat is not None:
            self._own_values(out, s, seat)

    def _decision(self, out: memoryview[float], s: GameState) -> None:
        """``encoding._decision``'s values: who acts, whose turn, the decision's kind (to
        the seat deciding only), the game's end and turn."""
        n = self.players
        rel = self.rel
        acting = to_act(s)
        at = rel[acting] if acting >= 0 else NONE
        if at != self._acting_at:
            _one_hot(out, self._acting_at, at)
            self._acting_at = at
        kind = 2 * n + s.stack[-1][0] if acting >= 0 and acting == self.seat else NONE
        if kind != self._kind_at:
            _one_hot(out, self._kind_at, kind)
            self._kind_at = kind
        current = n + rel[s.current]
        if current != self._current_at:
            _one_hot(out, self._current_at, current)
            self._current_at = current
        base = 2 * n + self.lay.decisions
        if s.over != self._over:
            out[base] = _UNIT[1 if s.over else 0]
            self._over = s.over
        if s.end_triggered != self._end:
            out[base + 1] = _UNIT[1 if s.end_triggered else 0]
            self._end = s.end_triggered
        if s.final_turns != self._final:
            out[base + 2] = _count(s.final_turns, n)
            self._final = s.final_turns
        if s.turn != self._turn:
            out[base + 3] = _count(s.turn, TURN_SCALE)
            self._turn = s.turn

    def _new_town(self, out: memoryview[float], s: GameState) -> None:
        """Town's Shops changed (a Shop built or turned face up): the Town block is written
        from zero, its face-up Shops' flags and the face-down count here, the rest by
        ``_town_values`` from copies of an empty Town."""
        lay = self.lay
        if self._town:
            self._clear(out, lay.town, lay.park)
        self._town = s.town.copy()
        self._facedown = s.facedown.copy()
        self._face_up = [shop for shop in self._town
                         if shop != EMPTY and shop not in self._facedown]
        self._slots = [EMPTY] * len(s.slots)
        self._fired = 0
        self._ench = [() for _ in s.shop_ench]
        self._pos = [EMPTY] * self.players
        for shop in self._face_up:
            out[lay.town + shop * lay.shop_block] = _UNIT[1]
        if self._facedown:
            out[lay.facedown] = scaled(len(self._facedown), FACEDOWN_SCALE)

    def _town_values(self, out: memoryview[float], s: GameState) -> None:
        """``encoding._town``'s values: per face-up Shop its slots' dragons by type and
        fire-up and its Enchantments' icons, and where each seat stands. Whole lists are
        compared first (one C loop each): most decisions change no slot and no Shop's
        Enchantments."""
        if s.town != self._town or s.facedown != self._facedown:
            self._new_town(out, s)
        lay = self.lay
        block = lay.shop_block
        slots, before = s.slots, self._slots
        fired, had = s.fired, self._fired
        new_slots = slots != before
        if new_slots or fired != had:
            for shop in self._face_up:
                b = lay.town + shop * block
                for k in range(3):
                    dragon, old = slots[shop * 3 + k], before[shop * 3 + k]
                    if dragon == old and (dragon == EMPTY or fired == had):
                        continue
                    flag = dragon != EMPTY and fired >> dragon & 1 == 1
                    was = old != EMPTY and had >> old & 1 == 1
                    at = b + 1 + k * SLOT_SIZE
                    if dragon != old:
                        if old != EMPTY:
                            out[at + ART_TYPE[old]] = _UNIT[0]
                        if dragon != EMPTY:
                            out[at + ART_TYPE[dragon]] = _UNIT[1]
                        before[shop * 3 + k] = dragon
                    if flag != was:
                        out[at + NUM_TYPES] = _UNIT[1 if flag else 0]
            # The face-up Shops' slots are kept as they change (the others are not shown;
            # kept whole only when one of them changed, so that the lists compare equal).
            if new_slots and slots != before:
                before[:] = slots
            self._fired = fired
        ench = s.shop_ench
        if ench != self._ench:
            kept = self._ench
            for shop in self._face_up:
                if ench[shop] != kept[shop]:
                    icons, written = shop_icons(ench[shop]), shop_icons(kept[shop])
                    for g in range(NUM_GOODS):
                        if icons[g] != written[g]:
                            out[lay.town + shop * block + ICONS_AT + g] = icons[g]
            kept[:] = ench
        pos, was_at = s.pos, self._pos
        if pos != was_at:
            rel = self.rel
            for p in range(self.players):
                where, before_p = pos[p], was_at[p]
                if where != before_p:
                    if before_p != EMPTY:
                        out[lay.town + before_p * block + SHOP_FIXED + rel[p]] = _UNIT[0]
                    if where != EMPTY:
                        out[lay.town + where * block + SHOP_FIXED + rel[p]] = _UNIT[1]
                    was_at[p] = where

    def _market(self, out: memoryview[float], s: GameState) -> None:
        """``encoding._market``'s values: the Park's types by position, the Enchantment row,
        the decks' sizes."""
        lay = self.lay
        park, before = s.park, self._park
        if park != before:
            for i in range(PARK_SIZE):
                kind = ART_TYPE[park[i]] if i < len(park) else NONE
                was = ART_TYPE[before[i]] if i < len(before) else NONE
                if kind != was:
                    base = lay.park + i * NUM_TYPES
                    _one_hot(out, base + was if was != NONE else NONE,
                             base + kind if kind != NONE else NONE)
            self._park = park.copy()
        if s.ench_row != self._row:
            _ones(out, lay.row, self._row, s.ench_row)
            self._row = s.ench_row.copy()
        decks = self._decks
        if (len(s.artisan_deck) != decks[0] or len(s.fancy_deck) != decks[1]
                or len(s.ench_deck) != decks[2] or len(s.shop_deck) != decks[3]):
            sizes = deck_sizes(s)
            for k in range(4):
                if sizes[k] != decks[k]:
                    out[lay.decks + k] = _count(sizes[k], _DECK_SCALES[k])
            self._decks = sizes

    def _seat_values(self, out: memoryview[float], s: GameState) -> None:
        """``encoding._player``'s values of every seat: Goods, Coins, Reputation, hidden
        cards held, its reserved Enchantment, scored Fancy Dragons and public history. Each
        kind is compared for all seats at once first (one C loop; most decisions change one
        or two of them), then seat by seat."""
        n = self.players
        blocks = self._blocks
        if s.goods != self._goods:
            for p in range(n):
                goods, had = s.goods[p], self._goods[p]
                if goods != had:
                    b = blocks[p]
                    for g in range(len(goods)):
                        if goods[g] != had[g]:
                            out[b + g] = _count(goods[g], GOODS_SCALE)
                            had[g] = goods[g]
        if s.coins != self._coins:
            _counts(out, blocks, COINS_AT, _SUPPLY_SCALES[0], s.coins, self._coins)
        if s.rep != self._rep:
            _counts(out, blocks, COINS_AT + 1, _SUPPLY_SCALES[1], s.rep, self._rep)
        hands, fancies = self._hands, self._fancies
        for p in range(n):
            held = len(s.hand[p])
            if held != hands[p]:
                out[blocks[p] + COINS_AT + 2] = _count(held, _SUPPLY_SCALES[2])
                hands[p] = held
            held = len(s.fancy[p])
            if held != fancies[p]:
                out[blocks[p] + COINS_AT + 3] = _count(held, _SUPPLY_SCALES[3])
                fancies[p] = held
        if s.reserved != self._reserved:
            kept = self._reserved
            for p in range(n):
                reserved, before = s.reserved[p], kept[p]
                if reserved != before:
                    b = blocks[p]
                    _one_hot(out, b + RESERVED_AT + before if before != EMPTY else NONE,
                             b + RESERVED_AT + reserved if reserved != EMPTY else NONE)
                    kept[p] = reserved
        if s.scored != self._scored:
            for p in range(n):
                if s.scored[p] != self._scored[p]:
                    _ones(out, blocks[p] + SCORED_AT, self._scored[p], s.scored[p])
                    self._scored[p] = s.scored[p].copy()
        if s.counters != self._counters:
            for p in range(n):
                c, kept_c = s.counters[p], self._counters[p]
                if c != kept_c:
                    self._history(out, blocks[p] + COUNTERS_AT, c, kept_c)
                    kept_c[:] = c

    def _history(self, out: memoryview[float], at: int, c: list[int], kept: list[int]) -> None:
        """``encoding._counters``'s values of one seat whose counters changed from ``kept``."""
        for i in range(len(_COUNTERS)):
            counter = _COUNTERS[i]
            if c[counter] != kept[counter]:
                out[at + i] = _count(c[counter], _COUNTER_SCALE[i])
        if c[VISITED] != kept[VISITED]:
            out[at + VISITED_AT] = _count(c[VISITED].bit_count(), NUM_SHOPS)
        bits = c[CAST_ICONS] ^ kept[CAST_ICONS]
        if bits:
            for g in range(NUM_GOODS):
                if bits >> g & 1:
                    out[at + CAST_ICONS_AT + g] = _UNIT[1 if c[CAST_ICONS] >> g & 1 else 0]
        if c[MAX_SETS] != kept[MAX_SETS]:
            out[at + MAX_SETS_AT] = _count(c[MAX_SETS], MAX_SETS_SCALE)

    def _own_values(self, out: memoryview[float], s: GameState, seat: int) -> None:
        """``encoding._own``'s values: the seat's hand by type (a sixth per dragon, at most
        1) and its fired dragons' types, its unscored Fancy Dragons."""
        hand = s.hand[seat]
        fired, had = s.fired, self._hand_fired
        # A fire-up changes the hand's values only when it fired (or a new turn unfired) a
        # dragon in the hand: most fire-ups are of dragons in Town.
        if hand != self._hand or (fired != had and _any_bit(fired ^ had, hand)):
            values, written = hand_values(hand, fired), hand_values(self._hand, had)
            for i in range(OWN_VALUES):
                if values[i] != written[i]:
                    out[self.lay.own + i] = values[i]
            self._hand = hand.copy()
        self._hand_fired = fired
        if s.fancy[seat] != self._fancy:
            _ones(out, self.lay.own + OWN_VALUES, self._fancy, s.fancy[seat])
            self._fancy = s.fancy[seat].copy()


# Plain lists of the scales, which compiled code indexes natively (tuples it would box).
_DECK_SCALES: Final = list(DECK_SCALES)
_SUPPLY_SCALES: Final = list(SUPPLY_SCALES)
_COUNTERS: Final = [counter for counter, _scale in COUNTER_SCALES]
_COUNTER_SCALE: Final = [scale for _counter, scale in COUNTER_SCALES]


def _any_bit(bits: int, cards: list[int]) -> bool:
    """Whether ``bits`` has the bit of any of ``cards``."""
    return any(bits >> card & 1 for card in cards)


def _counts(out: memoryview[float], blocks: list[int], at: int, scale: int, now: list[int],
            kept: list[int]) -> None:
    """One count of every seat (Coins, Reputation) that changed from ``kept``: written at
    ``at`` in its seat's block, and kept."""
    for p in range(len(now)):
        count = now[p]
        if count != kept[p]:
            out[blocks[p] + at] = _count(count, scale)
            kept[p] = count


def write_mask(out: memoryview[int], before: list[int], now: list[int]) -> None:
    """Turns a mask row holding 1 at ``before`` (and 0 elsewhere) into one holding 1 at
    ``now``: a few writes where building and copying a whole mask costs its size."""
    for index in before:
        out[index] = 0
    for index in now:
        out[index] = 1
