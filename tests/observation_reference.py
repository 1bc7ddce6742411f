"""The observation vector as it was built before it was compiled: a dict of its non-zero
entries, written in plain Python (``encoding.observation_sparse`` at commit 2f66718).

Why keep it: the fast builder (``encoding.observation_buffer``, compiled with the core)
writes the same values in another way; test_encoding.py checks, over seeded games, that both
give the same vector to the last bit, so a speed change cannot change what a learner sees.
A change of the layout (docs/rl.md) changes both.
"""

from __future__ import annotations

from flamecraft.core.board import ART_TYPE, CATALOG, ROW_SIZE
from flamecraft.core.engine import to_act
from flamecraft.core.goods import NUM_GOODS
from flamecraft.core.state import (
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
from flamecraft.research.encoding import (
    COMPANION_FIXED,
    COMPANION_SEAT,
    COMPANION_USES_SCALE,
    NUM_ACHIEVEMENTS,
    NUM_COMPANIONS,
    NUM_DECISIONS,
    NUM_ENCH,
    NUM_FANCY,
    NUM_SHOPS,
    NUM_TYPES,
    PARK_SIZE,
    PLAYER_BLOCK,
    SHOP_FIXED,
    layout,
)


def _scaled(value: int, scale: float) -> float:
    x = value / scale
    return 1.0 if x > 1.0 else x


def observation_sparse(s: GameState, seat: int | None) -> dict[int, float]:
    """The non-zero entries of ``observation(s, seat)`` (index → value): about a tenth of the
    vector, so array libraries fill a zeroed buffer from it much faster than from a list.
    ``seat`` None is the public side only, the same for every seat: seats in their own order
    and nobody's hidden cards (the research interfaces' public observer)."""
    n = s.n
    lay = layout(n)
    out: dict[int, float] = {}
    rel = [(p - (seat or 0)) % n for p in range(n)]

    # Decision: who acts and whose turn (public); what kind of decision, to the seat
    # deciding only (whether another seat has a decision can depend on its hidden cards).
    acting = to_act(s)
    if acting >= 0:
        out[rel[acting]] = 1.0
        if acting == seat:
            out[2 * n + s.stack[-1][0]] = 1.0
    out[n + rel[s.current]] = 1.0
    base = 2 * n + NUM_DECISIONS
    if s.over:
        out[base] = 1.0
    if s.end_triggered:
        out[base + 1] = 1.0
    if s.final_turns > 0:
        out[base + 2] = _scaled(s.final_turns, n)
    if s.turn:
        out[base + 3] = _scaled(s.turn, 200)

    # Town: each face-up Shop by catalog index.
    block = lay.shop_block
    fired = s.fired
    facedown = s.facedown
    slots = s.slots
    for shop in s.town:
        if shop == EMPTY or shop in facedown:
            continue
        b = lay.town + shop * block
        out[b] = 1.0
        for k in range(3):
            dragon = slots[shop * 3 + k]
            if dragon != EMPTY:
                out[b + 1 + k * 7 + ART_TYPE[dragon]] = 1.0
                if fired >> dragon & 1:
                    out[b + 1 + k * 7 + 6] = 1.0
        eb = b + 22
        for e in s.shop_ench[shop]:
            i = eb + _ENCH_ICON[e]
            out[i] = out.get(i, 0.0) + 1.0 / 3
    for p in range(n):
        if s.pos[p] != EMPTY:
            out[lay.town + s.pos[p] * block + SHOP_FIXED + rel[p]] = 1.0
    if facedown:
        out[lay.facedown] = _scaled(len(facedown), 4)

    # Park (by position: fire-ups and draws name positions and types), row, deck sizes.
    for i, dragon in enumerate(s.park[:PARK_SIZE]):
        out[lay.park + i * NUM_TYPES + ART_TYPE[dragon]] = 1.0
    for e in s.ench_row:
        out[lay.row + e] = 1.0
    d = lay.decks
    for i, (count, scale) in enumerate(((len(s.artisan_deck), 42), (len(s.fancy_deck), 36),
                                        (len(s.ench_deck), 18), (len(s.shop_deck), 10))):
        if count:
            out[d + i] = _scaled(count, scale)

    # Every seat's public supply, from this seat clockwise.
    for p in range(n):
        b = lay.players_block + rel[p] * PLAYER_BLOCK
        for g, have in enumerate(s.goods[p]):
            if have:
                out[b + g] = _scaled(have, 16)
        b += NUM_GOODS
        for i, (count, scale) in enumerate(((s.coins[p], 32), (s.rep[p], 150),
                                            (len(s.hand[p]), 12), (len(s.fancy[p]), 8))):
            if count > 0:
                out[b + i] = _scaled(count, scale)
        b += 4
        if s.reserved[p] != EMPTY:
            out[b + s.reserved[p]] = 1.0
        b += NUM_ENCH
        for f in s.scored[p]:
            out[b + f] = 1.0
        b += NUM_FANCY
        _counters(out, b, s.counters[p])

    if s.options.companions:
        _companions(out, s, lay.companions, rel)
    if n == 1:
        _solo(out, s, lay.solo)

    # This seat's own hidden cards: hand by type, fired hand dragons, unscored Fancy Dragons.
    if seat is None:
        return out
    b = lay.own
    for dragon in s.hand[seat]:
        i = b + ART_TYPE[dragon]
        out[i] = min(1.0, out.get(i, 0.0) + 1.0 / 6)
        if fired >> dragon & 1:
            out[i + NUM_TYPES] = 1.0
    for f in s.fancy[seat]:
        out[b + 2 * NUM_TYPES + f] = 1.0
    return out


_ENCH_ICON = [e.icon for e in CATALOG.enchantments]
_COUNTER_SCALES = ((CASTS, 20), (PLACED, 30), (COMPLETED, 15), (GIFTS, 30), (SUN_SCORED, 10),
                   (FANCY_SCORED, 10))


def _counters(out: dict[int, float], b: int, c: list[int]) -> None:
    """The 14 public-history values of one seat (casts, placements, …; docs/rl.md)."""
    for i, (counter, scale) in enumerate(_COUNTER_SCALES):
        if c[counter]:
            out[b + i] = _scaled(c[counter], scale)
    if c[VISITED]:
        out[b + 6] = _scaled(c[VISITED].bit_count(), NUM_SHOPS)
    icons = c[CAST_ICONS]
    for g in range(NUM_GOODS):
        if icons >> g & 1:
            out[b + 7 + g] = 1.0
    if c[MAX_SETS]:
        out[b + 13] = _scaled(c[MAX_SETS], 4)


def _companions(out: dict[int, float], s: GameState, b: int, rel: list[int]) -> None:
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
            out[seat + NUM_COMPANIONS + 1] = _scaled(s.companion_uses[p], COMPANION_USES_SCALE)
        if s.companion_turn[p]:
            out[seat + NUM_COMPANIONS + 2] = _scaled(s.companion_turn[p], 2)


def _solo(out: dict[int, float], s: GameState, b: int) -> None:
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
