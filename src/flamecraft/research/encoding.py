"""The fixed action catalogue and the observation vector that learning agents see.

Learning code needs actions as integers from a fixed range and observations as fixed-size
vectors; the engine offers neither (its actions are tuples that name cards). This module maps
between the two, for every research interface (PettingZoo, Gymnasium, OpenSpiel), so that all
of them agree. The layout of both is documented in ``docs/rl.md``.

The catalogue depends only on the player count. Artisan Dragons are named by their Good type
where the engine offers one dragon per type (dragons of one type are interchangeable), by their
place in Town (Shop and slot) where it offers particular dragons there, and other seats by their
offset from the seat acting (0 = the next seat clockwise), so one index means the same move from
every seat. Solo games (1 player) and the Companion module are covered: in solo the one "seat"
a gift can go to is the general supply (``frames.SUPPLY``), and the observation always holds a
Companion block (zero when the module is off). Pure Python: the core package installs without
numpy. A catalogue and a layout are immutable and shared (``catalogue(n)``, ``layout(n)``):
they pickle and deep-copy as their player count, in the compiled form too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Final

from ..core import kinds as K
from ..core.actions import Action
from ..core.board import ART_TYPE, CATALOG, ROW_SIZE
from ..core.engine import legal_actions, to_act, winners
from ..core.errors import IllegalActionError
from ..core.frames import SUPPLY
from ..core.goods import NUM_GOODS
from ..core.kinds import ACTION_KINDS, ActionKind
from ..core.state import (
    CAST_ICONS,
    CASTS,
    COMPLETED,
    EMPTY,
    FANCY_SCORED,
    GIFTS,
    MAX_SETS,
    PLACED,
    SUN_SCORED,
    VISITED,
    GameState,
)

# The version of the action catalogue and the observation vector together, the same for every
# research interface: raised by any change to either that a trained agent would notice (an
# index or a value that moves, appears, goes or changes meaning). The environments show it as
# ``metadata["encoding_version"]`` and the OpenSpiel game as ``encoding_version``; its history
# is in docs/rl.md, "Versions".
ENCODING_VERSION: Final = 1

# The version of the environments themselves, the ``_v2`` in ``flamecraft_v2`` and
# ``Flamecraft-v2`` (OpenSpiel's game shows it as ``env_version``): raised, as PettingZoo
# raises its ``_vN``, by any change that could affect learning — the encoding above, the
# rewards, the truncation, the rules or the cards, or which decisions the engine asks. Its
# history is in docs/rl.md, "Versions".
ENV_VERSION: Final = 2

# The player counts the research interfaces offer (1: solo). Constants are Final: compiled,
# they are C constants rather than look-ups in the module's dict.
MIN_PLAYERS: Final = 1
MAX_PLAYERS: Final = 5
NUM_TYPES: Final = 6  # Artisan Dragon types: one per Good
NUM_ITEMS: Final = NUM_GOODS + 1  # a Good or the Coin
NUM_SHOPS: Final = len(CATALOG.shops)
NUM_SLOTS: Final = 3 * NUM_SHOPS  # every slot of every Shop, indexed shop * 3 + slot
NUM_ENCH: Final = len(CATALOG.enchantments)
NUM_FANCY: Final = len(CATALOG.fancies)
NUM_COMPANIONS: Final = len(CATALOG.companions)
NUM_ACHIEVEMENTS: Final = len(CATALOG.achievements)
PARK_SIZE: Final = 5
MAX_PAY_COINS: Final = max(max(e.cost) * e.max_sets for e in CATALOG.enchantments)
CAST_PAIRS: Final = tuple((e.index, sets) for e in CATALOG.enchantments
                   for sets in range(1, e.max_sets + 1))
_CAST_INDEX: Final = {pair: i for i, pair in enumerate(CAST_PAIRS)}
NUM_DECISIONS: Final = K.decision_count()  # the built-in kinds (``layout`` counts them live)


@dataclass(frozen=True, slots=True)
class Section:
    """One block of the catalogue: what its indices stand for."""

    name: str
    start: int
    size: int
    meaning: str

    def __reduce__(self) -> tuple[type[Section], tuple[str, int, int, str]]:
        # Compiled by mypyc, a frozen dataclass refuses the attribute assignments pickle's
        # default makes: rebuilt through its constructor (as ``Options`` is).
        return (Section, (self.name, self.start, self.size, self.meaning))


def seat_targets(players: int) -> int:
    """How many seats an action can name by offset: the other seats, or in solo the one
    target of a gift, the general supply (``frames.SUPPLY``), at offset 0."""
    return max(players - 1, 1)


Encoder = Callable[[GameState, int, Action], int]  # (state, actor, action) -> index, or -1


def _domain(arg_type: str) -> int:
    """How many values an argument of this type takes, numbered by its value."""
    sizes = {K.GOOD: NUM_GOODS, K.ITEM: NUM_ITEMS, K.FANCY: NUM_FANCY, K.SHOP: NUM_SHOPS,
             K.ABILITY: NUM_SHOPS, K.ENCHANTMENT: NUM_ENCH, K.COMPANION: NUM_COMPANIONS,
             K.MASK: 1 << NUM_GOODS, K.SKIP: len(K.SKIPS)}
    if arg_type not in sizes:
        raise ValueError(f"an argument of type {arg_type!r} has no numbering of its own")
    return sizes[arg_type]


def _offset(actor: int, seat: int, n: int) -> int:
    """A seat by its offset from the actor (0: the next seat); the supply (solo) is 0."""
    if seat == SUPPLY:
        return 0
    return (seat - actor) % n - 1


# How a dimension numbers an action's argument (``_number``).
_VALUE: Final = 0  # the value itself (a Good, a card's catalog index, Coins paid…)
_TYPE: Final = 1  # an Artisan Dragon's type
_SEAT: Final = 2  # a seat's offset from the actor
_SLOT: Final = 3  # a slot with the Shop of the argument before it: shop * 3 + slot
_TOWN: Final = 4  # an Artisan Dragon's slot in Town (refused elsewhere)
_HAND: Final = 5  # an Artisan Dragon's type, from the actor's hand (refused elsewhere)
_PARK: Final = 6  # an Artisan Dragon's position in the Park (refused elsewhere)
_PAIR: Final = 7  # an (Enchantment, sets) pair of CAST_PAIRS, with the sets argument

# How ``ActionCatalogue.legal`` numbers a kind's actions: through its blocks, or directly.
_GENERAL: Final = 0  # ``_encode`` over its blocks
_BASE: Final = 1  # one index: the block's
_ARG: Final = 2  # the block's base plus the first argument
_ARG_TYPE: Final = 3  # the block's base plus the first argument's dragon type
_FIRST: Final = 4  # numbered in its first block (of one or two dimensions) when it holds it


@dataclass(frozen=True, slots=True)
class _Dim:
    """One dimension of a block, as data: what it numbers and how, and its size."""

    how: int
    at: int  # the argument's place in the action tuple
    other: int  # _SEAT: the player count; _PAIR: where the sets are; else unused
    size: int


@dataclass(frozen=True, slots=True)
class _Block:
    """A block of the catalogue, as data: where it starts and its dimensions (row-major)."""

    base: int
    dims: tuple[_Dim, ...]


def _dimension(kind: ActionKind, spec: str, players: int) -> _Dim:
    """One dimension of a block (``kinds.Block``): ``key`` numbered by its type, or
    ``key:how``."""
    key, _, how = spec.partition(":")
    at = kind.arg_at(key)
    arg_type = kind.args[at - 1].type
    if how == "type":
        return _Dim(_TYPE, at, 0, NUM_TYPES)
    if how == "town":
        return _Dim(_TOWN, at, 0, NUM_SLOTS)
    if how == "hand":
        return _Dim(_HAND, at, 0, NUM_TYPES)
    if how == "park":
        return _Dim(_PARK, at, 0, PARK_SIZE)
    if how == "sets":
        sets = next(i + 1 for i, arg in enumerate(kind.args) if arg.type == K.SETS)
        return _Dim(_PAIR, at, sets, len(CAST_PAIRS))
    if how == "paid":
        return _Dim(_VALUE, at, 0, MAX_PAY_COINS + 1)
    if how:
        raise ValueError(f"action {kind.name}: no numbering {how!r} ({spec})")
    if arg_type == K.SEAT:
        return _Dim(_SEAT, at, players, seat_targets(players))
    if arg_type == K.SLOT:
        return _Dim(_SLOT, at, 0, NUM_SLOTS)
    return _Dim(_VALUE, at, 0, _domain(arg_type))


def _number(d: _Dim, s: GameState, p: int, a: Action) -> int:
    """The action's number in one dimension, or -1 when the dimension does not hold it."""
    how = d.how
    v = a[d.at]
    if how == _VALUE:
        return v
    if how == _TYPE:
        return ART_TYPE[v]
    if how == _TOWN:
        return _find(s.slots, v)
    if how == _SEAT:
        return _offset(p, v, d.other)
    if how == _SLOT:
        return a[d.at - 1] * 3 + v
    if how == _HAND:
        return ART_TYPE[v] if v in s.hand[p] else -1
    if how == _PARK:
        return _find(s.park, v)
    return _CAST_INDEX[(v, a[d.other])]


def _find(items: list[int], v: int) -> int:
    """Where ``v`` first is in ``items``, or -1 (``list.index`` without its exception, which
    costs compiled code far more than the search: a dragon fired from the hand or the Park
    is looked for in Town first)."""
    for i in range(len(items)):
        if items[i] == v:
            return i
    return -1


def _encode(blocks: list[_Block], s: GameState, p: int, a: Action) -> int:
    """The index of an action in the first of its kind's blocks that holds it, or -1."""
    for block in blocks:
        index = 0
        for d in block.dims:
            i = _number(d, s, p, a)
            if i < 0:
                index = -1
                break
            index = index * d.size + i
        if index >= 0:
            return block.base + index
    return -1


def _section_specs(players: int) -> list[tuple[str, int, str]]:
    """(name, size, meaning) of every block, in order: the documented layout, from the
    action kinds' declarations (``actions.py``), in the order they are declared."""
    return [(sec.name, sec.size, sec.meaning) for sec in ActionCatalogue(players).sections]


class ActionCatalogue:
    """The fixed integer action space of one player count: ``encode`` maps a legal engine
    action to its index, ``legal`` maps the current legal actions both ways. Its blocks are
    the action kinds' (``kinds.ActionKind.blocks``), in the order the kinds are declared."""

    def __init__(self, players: int):
        self.players = players
        self.sections: list[Section] = []
        self._encoders: dict[int, list[_Block]] = {}  # by kind: its blocks, as data
        start = 0
        for kind in ACTION_KINDS.values():
            blocks = []
            for spec in kind.blocks:
                dims = tuple(_dimension(kind, dim, players) for dim in spec.dims)
                size = 1
                for d in dims:
                    size *= d.size
                self.sections.append(Section(spec.name or kind.name, start, size,
                                             spec.meaning))
                blocks.append(_Block(start, dims))
                start += size
            self._encoders[kind.code] = blocks
        self.size = start
        # Most kinds number their action by one argument in one block (a Good, a card, a
        # type) or have a single index: ``legal`` numbers those directly, without walking
        # the blocks (the legal actions are numbered at every step of every environment).
        # The other kinds' actions are numbered in their first block's one or two dimensions
        # (``_FIRST``: ``_encode``'s first try), and through all blocks only when the first
        # does not hold them.
        codes = max(self._encoders, default=-1) + 1
        self._direct = [_GENERAL] * codes  # by kind: _BASE, _ARG, _ARG_TYPE, _FIRST, _GENERAL
        self._direct_base = [0] * codes  # by kind: its first block's base
        self._first_dims: list[tuple[_Dim, ...]] = [()] * codes  # by kind: its first block's
        for code, kind_blocks in self._encoders.items():
            if not kind_blocks:
                continue
            block = kind_blocks[0]
            dims = block.dims
            self._direct_base[code] = block.base
            single = len(kind_blocks) == 1
            if single and not dims:
                self._direct[code] = _BASE
            elif single and len(dims) == 1 and dims[0].at == 1 and dims[0].how == _VALUE:
                self._direct[code] = _ARG
            elif single and len(dims) == 1 and dims[0].at == 1 and dims[0].how == _TYPE:
                self._direct[code] = _ARG_TYPE
            elif len(dims) in (1, 2):
                self._direct[code] = _FIRST
                self._first_dims[code] = dims

    def __reduce__(self) -> tuple[Callable[[int], ActionCatalogue], tuple[int]]:
        """Pickled (and deep-copied) as its player count, rebuilt as ``catalogue(players)``:
        compiled by mypyc, the class cannot be rebuilt without its constructor's argument,
        and the catalogue is immutable, so the copy may be the shared one (environments
        sent to worker processes carry one)."""
        return (catalogue, (self.players,))

    def section_of(self, index: int) -> Section:
        """The block an index falls in (for documentation and debugging)."""
        for sec in self.sections:
            if sec.start <= index < sec.start + sec.size:
                return sec
        raise ValueError(f"action index {index} is outside 0..{self.size - 1}")

    def _encoder(self, kind: int) -> Encoder:
        """A kind's numbering as a function (state, actor, action) -> index (-1: none)."""
        blocks = self._encoders.get(kind)
        if blocks is None:
            raise NotImplementedError(f"action kind {kind} has no place in the catalogue")
        return lambda s, p, a: _encode(blocks, s, p, a)

    def _index(self, s: GameState, actor: int, action: Action) -> int:
        blocks = self._encoders.get(action[0])
        if blocks is None:
            raise NotImplementedError(f"action kind {action[0]} has no place in the catalogue")
        index = _encode(blocks, s, actor, action)
        if index < 0:
            raise ValueError(f"action {action} is in none of its kind's blocks")
        return index

    def _first(self, s: GameState, actor: int, action: Action) -> int:
        """The action's index in its kind's first block, or -1 when that block does not hold
        it (``_encode``'s first try, for a block of one or two dimensions)."""
        dims = self._first_dims[action[0]]
        index = _number(dims[0], s, actor, action)
        if index >= 0 and len(dims) == 2:
            inner = dims[1]
            j = _number(inner, s, actor, action)
            index = index * inner.size + j if j >= 0 else -1
        return self._direct_base[action[0]] + index if index >= 0 else -1

    def encode(self, s: GameState, action: Action) -> int:
        """The index of an engine action taken by the seat to act in ``s``."""
        return self._index(s, to_act(s), action)

    def legal(self, s: GameState) -> dict[int, Action]:
        """Index → engine action for every legal action now (empty once the game is over).
        Two legal actions never share an index: the catalogue is a bijection on them."""
        actions = legal_actions(s)
        if not actions:
            return {}
        actor = to_act(s)
        out: dict[int, Action] = {}
        direct, bases = self._direct, self._direct_base
        for action in actions:
            code = action[0]
            how = direct[code] if 0 <= code < len(direct) else _GENERAL
            if how == _BASE:
                index = bases[code]
            elif how == _ARG and action[1] >= 0:
                index = bases[code] + action[1]
            elif how == _ARG_TYPE and action[1] >= 0:
                index = bases[code] + ART_TYPE[action[1]]
            else:  # (a negative argument too: the blocks refuse it, by name)
                index = self._first(s, actor, action) if how == _FIRST else -1
                if index < 0:
                    index = self._index(s, actor, action)
            out[index] = action
        if len(out) != len(actions):  # (counted once: a lookup per action costs more)
            raise AssertionError(f"{len(actions)} legal actions have {len(out)} indices: "
                                 f"two share one ({sorted(actions)})")
        return out

    def legal_indices(self, s: GameState) -> list[int]:
        """The sorted indices of the legal actions now."""
        return sorted(self.legal(s))

    def mask(self, s: GameState) -> list[int]:
        """1 at every legal index, 0 elsewhere (all 0 once the game is over)."""
        out = [0] * self.size
        for index in self.legal(s):
            out[index] = 1
        return out

    def mask_of(self, legal: dict[int, Action]) -> bytearray:
        """``mask`` from ``legal``'s indices, as bytes (numpy takes them without a copy)."""
        out = bytearray(self.size)
        for index in legal:
            out[index] = 1
        return out

    def decode(self, s: GameState, index: int) -> Action:
        """The unique legal engine action with this index; raises IllegalActionError if no
        legal action has it."""
        action = self.legal(s).get(int(index))
        if action is None:
            raise IllegalActionError(f"action index {index} is not legal now")
        return action


@cache
def catalogue(players: int) -> ActionCatalogue:
    """The (shared, immutable) catalogue of a player count."""
    return ActionCatalogue(players)


def _forget() -> None:
    """A kind declared or withdrawn (a test's own): the catalogues and layouts are redrawn."""
    catalogue.cache_clear()
    layout.cache_clear()


# --- the observation vector -------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ObservationLayout:
    """Where each block of the observation vector starts, for one player count."""

    players: int
    decision: int  # to act (n), whose turn (n), decision kind, over, end, final turns, turn
    decisions: int  # how many kinds of decision (the one-hot of the decision kind)
    town: int  # per Shop: SHOP_BLOCK + n values
    facedown: int
    park: int
    row: int
    decks: int
    players_block: int  # per seat: PLAYER_BLOCK values
    companions: int  # module on, the draft's offer, then per seat: COMPANION_SEAT values
    solo: int  # 1 player only (SOLO_BLOCK values; none at 2–5 players)
    own: int  # last: a public-only observer zeroes everything from here on
    size: int

    @property
    def shop_block(self) -> int:
        return SHOP_FIXED + self.players

    def __reduce__(self) -> tuple[Callable[[int], ObservationLayout], tuple[int]]:
        # A frozen dataclass compiled by mypyc does not unpickle by its fields; a layout is
        # its player count's (``layout``).
        return (layout, (self.players,))


# face up, 3 slots (type + fired), enchantments
SHOP_FIXED: Final = 1 + 3 * (NUM_TYPES + 1) + NUM_GOODS
PLAYER_BLOCK: Final = NUM_GOODS + 4 + NUM_ENCH + NUM_FANCY + 14
# Where things sit inside a Shop's block (after its "face up" flag) and a seat's block: named
# once for the block writers below and for ``rows.RowEncoder``, which writes value by value.
SLOT_SIZE: Final = NUM_TYPES + 1  # a slot: its dragon's type (one-hot), then its fire-up
ICONS_AT: Final = 1 + 3 * SLOT_SIZE  # the Shop's Enchantments' icons, one value per Good
COINS_AT: Final = NUM_GOODS  # then Reputation, hand size and Fancy Dragons held
GOODS_SCALE: Final = 16  # a seat's count of each Good
TURN_SCALE: Final = 200  # the game's turn (the decision block)
SUPPLY_SCALES: Final = (32, 150, 12, 8)  # Coins, Reputation, hand size, Fancy Dragons held
RESERVED_AT: Final = NUM_GOODS + 4
SCORED_AT: Final = RESERVED_AT + NUM_ENCH
COUNTERS_AT: Final = SCORED_AT + NUM_FANCY  # a seat's public history (``_counters``)
DECK_SCALES: Final = (42, 36, 18, 10)  # Artisan, Fancy, Enchantment and Shop decks
FACEDOWN_SCALE: Final = 4  # the face-down Shops in Town
COMPANION_SEAT: Final = NUM_COMPANIONS + 1 + 2  # which Companion (or none yet), uses: game, turn
COMPANION_FIXED: Final = 1 + NUM_COMPANIONS  # the module is in play; the Companions on offer
SOLO_BLOCK: Final = NUM_ACHIEVEMENTS + 2 * NUM_ENCH  # achievements, row arrival order, removed
OWN_BLOCK: Final = NUM_TYPES * 2 + NUM_FANCY
COMPANION_USES_SCALE: Final = 16  # uses in a game: at most one a turn or one a cast in practice


@cache
def layout(players: int) -> ObservationLayout:
    """The observation layout of a player count (see docs/rl.md)."""
    n = players
    decision = 0
    decisions = K.decision_count()
    town = decision + 2 * n + decisions + 4
    facedown = town + NUM_SHOPS * (SHOP_FIXED + n)
    park = facedown + 1
    row = park + PARK_SIZE * NUM_TYPES
    decks = row + NUM_ENCH
    players_block = decks + 4
    companions = players_block + n * PLAYER_BLOCK
    solo = companions + COMPANION_FIXED + n * COMPANION_SEAT
    own = solo + (SOLO_BLOCK if n == 1 else 0)
    size = own + OWN_BLOCK
    return ObservationLayout(n, decision, decisions, town, facedown, park, row, decks,
                             players_block, companions, solo, own, size)


def scaled(value: int, scale: float) -> float:
    """A count scaled into [0, 1] (clipped: the scales are far above real games)."""
    x = value / scale
    return 1.0 if x > 1.0 else x


def observation(s: GameState, seat: int | None) -> list[float]:
    """The observation vector of ``seat`` (layout in docs/rl.md): only what that seat may
    see — the public board, its own hand and Fancy Dragons, counts of everyone else's hidden
    cards, public history totals, every seat's Companion and, in solo, the achievements and
    the row's arrival order. Every value is in [0, 1]; seats are listed from ``seat``
    clockwise."""
    return list(_doubles(observation_buffer(s, seat)))


def observation_sparse(s: GameState, seat: int | None) -> dict[int, float]:
    """The non-zero entries of ``observation(s, seat)`` (index → value, in index order):
    about a tenth of the vector."""
    return {i: x for i, x in enumerate(_doubles(observation_buffer(s, seat))) if x}


def observation_buffer(s: GameState, seat: int | None) -> bytearray:
    """``observation(s, seat)`` as the bytes of its doubles (in this machine's byte order):
    array libraries take them without a copy (``numpy.frombuffer(b, numpy.float64)``), which
    is what makes the environments' observations cheap. ``seat`` None is the public side
    only, the same for every seat: seats in their own order and nobody's hidden cards (the
    research interfaces' public observer). Only the non-zero values are written, into zeroed
    memory."""
    lay = layout(s.n)
    buffer = bytearray(8 * lay.size)
    _fill(_doubles(buffer), s, seat, lay)
    return buffer


def _doubles(buffer: bytearray) -> memoryview[float]:
    """The buffer seen as doubles (a memoryview writes them faster than an ``array``)."""
    return memoryview(buffer).cast("d")


def relative_seats(n: int, seat: int | None) -> list[int]:
    """Each seat's place in the observation: its offset clockwise from ``seat``."""
    me = 0 if seat is None else seat
    return [(p - me) % n for p in range(n)]


def _fill(out: memoryview[float], s: GameState, seat: int | None, lay: ObservationLayout) -> None:
    """Writes the non-zero values of the observation into the zeroed ``out``, block by
    block."""
    n = s.n
    rel = relative_seats(n, seat)
    _decision(out, s, seat, rel, lay)
    _town(out, s, rel, lay)
    _market(out, s, lay)
    for p in range(n):
        _player(out, s, p, lay.players_block + rel[p] * PLAYER_BLOCK)
    if s.options.companions:
        _companions(out, s, lay.companions, rel)
    if n == 1:
        _solo(out, s, lay.solo)
    if seat is not None:
        _own(out, s, seat, lay.own)


def _decision(out: memoryview[float], s: GameState, seat: int | None, rel: list[int],
              lay: ObservationLayout) -> None:
    """Who acts and whose turn (public); what kind of decision, to the seat deciding only
    (whether another seat has a decision can depend on its hidden cards); the game's end
    and turn."""
    n = s.n
    acting = to_act(s)
    if acting >= 0:
        out[rel[acting]] = 1.0
        if acting == seat:
            out[2 * n + s.stack[-1][0]] = 1.0
    out[n + rel[s.current]] = 1.0
    base = 2 * n + lay.decisions
    if s.over:
        out[base] = 1.0
    if s.end_triggered:
        out[base + 1] = 1.0
    if s.final_turns > 0:
        out[base + 2] = scaled(s.final_turns, n)
    if s.turn:
        out[base + 3] = scaled(s.turn, TURN_SCALE)


def _town(out: memoryview[float], s: GameState, rel: list[int], lay: ObservationLayout) -> None:
    """Town: each face-up Shop by catalog index (its slots, their dragons' types and fire-ups,
    its Enchantments' icons, who stands there), and how many Shops lie face down."""
    block = lay.shop_block
    town = lay.town
    fired = s.fired
    facedown = s.facedown
    slots = s.slots
    for shop in s.town:
        if shop == EMPTY or shop in facedown:
            continue
        b = town + shop * block
        out[b] = 1.0
        for k in range(3):
            dragon = slots[shop * 3 + k]
            if dragon != EMPTY:
                out[b + 1 + k * SLOT_SIZE + ART_TYPE[dragon]] = 1.0
                if fired >> dragon & 1:
                    out[b + 1 + k * SLOT_SIZE + NUM_TYPES] = 1.0
        ench = s.shop_ench[shop]
        if ench:
            icons = shop_icons(ench)
            for g in range(NUM_GOODS):
                if icons[g]:
                    out[b + ICONS_AT + g] = icons[g]
    for p in range(s.n):
        where = s.pos[p]
        if where != EMPTY:
            out[town + where * block + SHOP_FIXED + rel[p]] = 1.0
    if facedown:
        out[lay.facedown] = scaled(len(facedown), FACEDOWN_SCALE)


def shop_icons(ench: tuple[int, ...]) -> list[float]:
    """A Shop's Enchantments as the Town block shows them: a third per Enchantment of an
    icon, summed in doubles before the write."""
    icons = [0.0] * NUM_GOODS
    for e in ench:
        icons[_ENCH_ICON[e]] += 1.0 / 3
    return icons


def _market(out: memoryview[float], s: GameState, lay: ObservationLayout) -> None:
    """The Park (by position: fire-ups and draws name positions and types), the Enchantment
    row, and the sizes of the four decks."""
    park = lay.park
    for i, dragon in enumerate(s.park[:PARK_SIZE]):
        out[park + i * NUM_TYPES + ART_TYPE[dragon]] = 1.0
    row = lay.row
    for e in s.ench_row:
        out[row + e] = 1.0
    d = lay.decks
    if s.artisan_deck:
        out[d] = scaled(len(s.artisan_deck), DECK_SCALES[0])
    if s.fancy_deck:
        out[d + 1] = scaled(len(s.fancy_deck), DECK_SCALES[1])
    if s.ench_deck:
        out[d + 2] = scaled(len(s.ench_deck), DECK_SCALES[2])
    if s.shop_deck:
        out[d + 3] = scaled(len(s.shop_deck), DECK_SCALES[3])


def deck_sizes(s: GameState) -> list[int]:
    """The four decks' sizes, in the observation's order (``DECK_SCALES``)."""
    return [len(s.artisan_deck), len(s.fancy_deck), len(s.ench_deck), len(s.shop_deck)]


def _player(out: memoryview[float], s: GameState, p: int, b: int) -> None:
    """Seat ``p``'s public supply, at ``b``: Goods, Coins, Reputation, how many hidden cards,
    its reserved Enchantment, scored Fancy Dragons and public history. (Written one by one:
    a loop over the four counts costs observations a tenth more.)"""
    for g, have in enumerate(s.goods[p]):
        if have:
            out[b + g] = scaled(have, GOODS_SCALE)
    c = b + COINS_AT
    if s.coins[p] > 0:
        out[c] = scaled(s.coins[p], SUPPLY_SCALES[0])
    if s.rep[p] > 0:
        out[c + 1] = scaled(s.rep[p], SUPPLY_SCALES[1])
    if s.hand[p]:
        out[c + 2] = scaled(len(s.hand[p]), SUPPLY_SCALES[2])
    if s.fancy[p]:
        out[c + 3] = scaled(len(s.fancy[p]), SUPPLY_SCALES[3])
    if s.reserved[p] != EMPTY:
        out[b + RESERVED_AT + s.reserved[p]] = 1.0
    for f in s.scored[p]:
        out[b + SCORED_AT + f] = 1.0
    _counters(out, b + COUNTERS_AT, s.counters[p])


def _own(out: memoryview[float], s: GameState, seat: int, b: int) -> None:
    """This seat's own hidden cards: hand by type (a sixth per dragon, at most 1), the fired
    hand dragons' types, the unscored Fancy Dragons."""
    values = hand_values(s.hand[seat], s.fired)
    for i in range(2 * NUM_TYPES):
        if values[i]:
            out[b + i] = values[i]
    b += 2 * NUM_TYPES
    for f in s.fancy[seat]:
        out[b + f] = 1.0


def hand_values(hand: list[int], fired: int) -> list[float]:
    """A hand as its seat's own block shows it: by type, a sixth per dragon (at most 1),
    then 1 for each type with a fired dragon; summed in doubles before the write, as a
    float32 row needs."""
    values = [0.0] * (2 * NUM_TYPES)
    for dragon in hand:
        t = ART_TYPE[dragon]
        values[t] = min(1.0, values[t] + 1.0 / 6)
        if fired >> dragon & 1:
            values[NUM_TYPES + t] = 1.0
    return values


_ENCH_ICON: Final = [e.icon for e in CATALOG.enchantments]
COUNTER_SCALES: Final = ((CASTS, 20), (PLACED, 30), (COMPLETED, 15), (GIFTS, 30), (SUN_SCORED, 10),
                   (FANCY_SCORED, 10))
# In a seat's public history (``_counters``): after the six counts above, the Shops visited,
# the icons of the Enchantments cast (one value per Good), the most sets paid at once.
VISITED_AT: Final = 6
CAST_ICONS_AT: Final = 7
MAX_SETS_AT: Final = CAST_ICONS_AT + NUM_GOODS
MAX_SETS_SCALE: Final = 4


def _counters(out: memoryview[float], b: int, c: list[int]) -> None:
    """The 14 public-history values of one seat (casts, placements, …; docs/rl.md)."""
    for i, (counter, scale) in enumerate(COUNTER_SCALES):
        if c[counter]:
            out[b + i] = scaled(c[counter], scale)
    if c[VISITED]:
        out[b + VISITED_AT] = scaled(c[VISITED].bit_count(), NUM_SHOPS)
    icons = c[CAST_ICONS]
    for g in range(NUM_GOODS):
        if icons >> g & 1:
            out[b + CAST_ICONS_AT + g] = 1.0
    if c[MAX_SETS]:
        out[b + MAX_SETS_AT] = scaled(c[MAX_SETS], MAX_SETS_SCALE)


def _companions(out: memoryview[float], s: GameState, b: int, rel: list[int]) -> None:
    """The Companion module (design §6, all public): in play; the draft's offer; per seat by
    offset, its Companion (one-hot, or "none yet" during the draft) and its uses this game
    and this turn."""
    out[b] = 1.0
    for c in s.companion_offer:
        out[b + 1 + c] = 1.0
    for p in range(s.n):
        seat = b + COMPANION_FIXED + rel[p] * COMPANION_SEAT
        held = s.companion[p]
        out[seat + (held if held != EMPTY else NUM_COMPANIONS)] = 1.0
        if s.companion_uses[p]:
            out[seat + NUM_COMPANIONS + 1] = scaled(s.companion_uses[p], COMPANION_USES_SCALE)
        if s.companion_turn[p]:
            out[seat + NUM_COMPANIONS + 2] = scaled(s.companion_turn[p], 2)


def _solo(out: memoryview[float], s: GameState, b: int) -> None:
    """Solo mode (design §7, all public): achievements claimed; the arrival order of the
    Enchantment row (Town Bustle removes the oldest: 1.0 for the oldest, 0.2 for the 5th);
    the Enchantments Town Bustle removed from the game."""
    for a in s.achievements[0]:
        out[b + a] = 1.0
    b += NUM_ACHIEVEMENTS
    for age, e in enumerate(s.ench_row):
        out[b + e] = max(0.0, (ROW_SIZE - age) / ROW_SIZE)
    b += NUM_ENCH
    for e in s.ench_removed:
        out[b + e] = 1.0


K.on_change(_forget)


# --- rewards ----------------------------------------------------------------------------------

REWARD_MODES: Final = ("win", "margin")
MARGIN_CAP: Final = 150  # far beyond any real margin; keeps OpenSpiel's utility range finite
SOLO_TARGET_TITLE: Final = "Flamekeeper"  # the solo rating that counts as a win (design §7)


def solo_target() -> int:
    """The final Reputation a solo game must reach to count as won: the lowest Reputation of
    the ``SOLO_TARGET_TITLE`` rating in the data (data/solo.toml), so re-fitting the ratings
    moves the target with them."""
    for lowest, title in CATALOG.ratings:
        if title == SOLO_TARGET_TITLE:
            return lowest
    raise LookupError(f"the solo ratings have no {SOLO_TARGET_TITLE!r} title")


def check_reward_mode(mode: str) -> str:
    """The reward mode, if it is one of ``REWARD_MODES`` (else ValueError)."""
    if mode not in REWARD_MODES:
        raise ValueError(f"reward must be one of {REWARD_MODES}, not {mode!r}")
    return mode


def final_rewards(s: GameState, mode: str) -> list[float]:
    """Each seat's reward for the standing of ``s`` (the final one once the game is over).

    ``win``: +1 for a winner (a shared win is a win, ruling 20), -1 for everyone else.
    ``margin``: the seat's Reputation minus the best Reputation among the other seats (so a
    winner gets its lead, the others how far behind they are), clipped to ±MARGIN_CAP.

    Solo (no other seat to beat): the opponent is the rating table. ``win`` is +1 when the
    final Reputation reaches the "Flamekeeper" rating (``solo_target()``, 65 in the design),
    else -1; ``margin`` is the Reputation minus that target (clipped likewise), so its sign
    agrees with ``win`` and it grows with every point scored.
    """
    check_reward_mode(mode)
    n = s.n
    if n == 1:
        gap = s.rep[0] - solo_target()
        if mode == "win":
            return [1.0 if gap >= 0 else -1.0]
        return [float(max(-MARGIN_CAP, min(MARGIN_CAP, gap)))]
    if mode == "win":
        best = winners(s)
        return [1.0 if p in best else -1.0 for p in range(n)]
    out = []
    for p in range(n):
        margin = s.rep[p] - max(s.rep[q] for q in range(n) if q != p)
        out.append(float(max(-MARGIN_CAP, min(MARGIN_CAP, margin))))
    return out


def markdown_tables() -> str:
    """The catalogue layout and the size table of docs/rl.md, as the code defines them
    (``python -m flamecraft.research.encoding`` prints them, to update the doc when the
    engine grows)."""
    two = catalogue(2)
    lines = ["| block | first index (2 players) | size | one index per |",
             "| --- | ---: | ---: | --- |"]
    for sec in two.sections:
        size = f"{sec.size} × max(n−1, 1)" if "seat offset" in sec.meaning else str(sec.size)
        lines.append(f"| `{sec.name}` | {sec.start} | {size} | {sec.meaning} |")
    lines += ["", "| players | actions | observation |", "| ---: | ---: | ---: |"]
    lines += [f"| {n} | {catalogue(n).size} | {layout(n).size} |"
              for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_tables())
